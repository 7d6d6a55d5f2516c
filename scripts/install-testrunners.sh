#!/usr/bin/env bash
# Installs the test runners e2e's honest-run tests drive through the
# workflow gates with agentos's default test commands: Debian's pytest and
# pytest-cov (python3-pytest, python3-pytest-cov: pytest-cov 4.0 on Debian
# 12), and Vitest (with @vitest/coverage-v8) and Jest (with jest-junit and
# ts-jest) from npm, pinned. Without them those tests skip, unless CI=true,
# where they fail.
#
# Debian packages are kept in ~/.cache/agentos-ci/apt (as the other install
# scripts do) and npm's packages and download cache in
# ~/.cache/agentos-testrunners/{vitest,jest}, so a second run downloads
# nothing. The tests link a project's node_modules to those folders.
set -euo pipefail

vitest_version=4.1.12
jest_version=30.5.2
jest_junit_version=17.0.0
ts_jest_version=29.4.15
types_jest_version=30.0.0
ts_version=5.9.3
cache=${AGENTOS_TESTRUNNERS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agentos-testrunners}

# The tests run Debian's /usr/bin/python3, the interpreter the default
# command names on Debian.
if ! /usr/bin/python3 -c "import pytest, pytest_cov" 2>/dev/null; then
  # shellcheck source=apt-install.sh
  . "$(dirname "$0")/apt-install.sh"
  apt_install testrunners python3-pytest python3-pytest-cov
fi

# npm_install DIR MARKER_PACKAGE VERSION PACKAGES...: installs PACKAGES into
# DIR unless MARKER_PACKAGE is there at VERSION.
npm_install() {
  local dir=$1 marker=$2 version=$3
  shift 3
  if [ -f "$dir/node_modules/$marker/package.json" ] && grep -q "\"version\": \"$version\"" "$dir/node_modules/$marker/package.json"; then
    return
  fi
  echo "testrunners: installing $* into $dir"
  mkdir -p "$dir"
  (cd "$dir" && { [ -f package.json ] || npm init -y >/dev/null; } &&
    npm_config_cache="$cache/npm" npm install --prefer-offline --no-audit --no-fund --silent "$@" >/dev/null)
}

if command -v npm >/dev/null 2>&1; then
  npm_install "$cache/vitest" vitest "$vitest_version" "vitest@$vitest_version" "@vitest/coverage-v8@$vitest_version" "typescript@$ts_version"
  npm_install "$cache/jest" jest "$jest_version" "jest@$jest_version" "jest-junit@$jest_junit_version" "ts-jest@$ts_jest_version" \
    "@types/jest@$types_jest_version" "typescript@$ts_version"
else
  echo "testrunners: npm is not installed; the Vitest and Jest honest runs will not be tested" >&2
  [ "${CI:-}" != true ] || exit 1
fi
echo "testrunners: pytest and pytest-cov (/usr/bin/python3), Vitest ($cache/vitest) and Jest ($cache/jest) are installed"
