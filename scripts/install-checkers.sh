#!/usr/bin/env bash
# Installs the tools the standards' example checker (standards/examplecheck)
# uses beyond Go: pyflakes and httpx for Python blocks (Debian packages),
# PostgreSQL for SQL blocks (Debian package), and TypeScript with Node's
# types for TypeScript blocks (npm). Without them those checks skip, unless
# CI=true, where they fail.
#
# Debian packages are kept in ~/.cache/agentos-ci/apt (as
# scripts/install-chromium.sh does) and npm's packages and download cache in
# ~/.cache/agentos-standards, so a second run downloads nothing.
set -euo pipefail

# TypeScript 7, the native compiler: the same verdicts on every example as
# 5.9.3 at less than half the CPU (docs/benchmarks.md#the-test-command).
ts_version=7.0.2
node_types_version=22.20.5
cache=${AGENTOS_STANDARDS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agentos-standards}

# The checks use python3 on PATH, or Debian's /usr/bin/python3 where the
# Debian packages install.
has_module() {
  for p in python3 /usr/bin/python3; do
    command -v "$p" >/dev/null 2>&1 && "$p" -c "import $1" 2>/dev/null && return 0
  done
  return 1
}
missing=()
has_module pyflakes || missing+=(python3-pyflakes)
has_module httpx || missing+=(python3-httpx)
if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  missing+=(postgresql)
fi
command -v psql >/dev/null 2>&1 || missing+=(postgresql-client)

if [ ${#missing[@]} -gt 0 ]; then
  # shellcheck source=apt-install.sh
  . "$(dirname "$0")/apt-install.sh"
  apt_install checkers "${missing[@]}"
fi

if command -v npm >/dev/null 2>&1; then
  if [ ! -x "$cache/node_modules/.bin/tsc" ] || ! grep -q "\"version\": \"$ts_version\"" "$cache/node_modules/typescript/package.json"; then
    echo "checkers: installing typescript $ts_version into $cache"
    mkdir -p "$cache"
    export npm_config_cache="$cache/npm"
    (cd "$cache" && { [ -f package.json ] || npm init -y >/dev/null; } &&
      npm install --prefer-offline --no-audit --no-fund --silent "typescript@$ts_version" "@types/node@$node_types_version" >/dev/null)
  fi
else
  echo "checkers: npm is not installed; TypeScript blocks will not be checked" >&2
  [ "${CI:-}" != true ] || exit 1
fi
echo "checkers: pyflakes, httpx, PostgreSQL and tsc ($cache/node_modules/.bin/tsc) are installed"
