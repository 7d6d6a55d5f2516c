#!/usr/bin/env bash
# Installs axe-core (npm, pinned) for the review page's accessibility test,
# into $AGENTOS_AXE_CACHE (default: ~/.cache/agentos-axe). A second run
# finds it there and downloads nothing. The test (e2e TestReviewPage) reads
# $AGENTOS_AXE_CACHE/node_modules/axe-core/axe.min.js and skips, or under
# CI=true fails, when it is absent.
set -euo pipefail

version=4.14.1
cache=${AGENTOS_AXE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agentos-axe}
axe="$cache/node_modules/axe-core/axe.min.js"

if [ -f "$axe" ] && grep -q "\"version\": \"$version\"" "$cache/node_modules/axe-core/package.json"; then
  echo "axe-core $version: $axe"
  exit 0
fi
command -v npm >/dev/null 2>&1 || { echo "axe-core: npm is needed to install it" >&2; exit 1; }
mkdir -p "$cache"
export npm_config_cache="$cache/npm"
(cd "$cache" && { [ -f package.json ] || npm init -y >/dev/null; } &&
  npm install --prefer-offline --no-audit --no-fund --silent --save-exact "axe-core@$version" >/dev/null)
echo "axe-core $version: $axe"
