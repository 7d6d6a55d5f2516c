#!/usr/bin/env bash
# Installs the reference parser for TypeScript/JavaScript declarations: a
# pinned `typescript` compiler from npm, into $AGENTOS_REFPARSE_CACHE
# (default: ~/.cache/agentos-refparse). npm's download cache lives there too,
# so that folder is all a CI cache has to keep. Prints the node_modules path.
#
#   scripts/refparse/install.sh
#
# Needs node and npm on PATH.
set -euo pipefail

cache=${AGENTOS_REFPARSE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agentos-refparse}
ts_version=5.9.3

export npm_config_cache="$cache/npm"
if [ "$(cat "$cache/node_modules/typescript/package.json" 2>/dev/null | sed -n 's/.*"version": "\(.*\)".*/\1/p')" != "$ts_version" ]; then
  echo "refparse: installing typescript@$ts_version into $cache" >&2
  mkdir -p "$cache"
  (cd "$cache" && { [ -f package.json ] || npm init -y >/dev/null; } &&
    npm install --prefer-offline --no-audit --no-fund --silent "typescript@$ts_version" >/dev/null)
fi
echo "$cache/node_modules"
