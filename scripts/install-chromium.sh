#!/usr/bin/env bash
# Installs Debian's chromium package when no Chromium or Chrome is on PATH,
# so svc_browser's tests run against a real browser. agentos itself never
# downloads a browser; this script is for CI and development machines.
set -euo pipefail

for name in chromium chromium-browser google-chrome google-chrome-stable chrome headless-shell; do
  if command -v "$name" >/dev/null 2>&1; then
    echo "browser: $(command -v "$name") is installed"
    exit 0
  fi
done

if ! command -v apt-get >/dev/null 2>&1; then
  echo "browser: no Chromium or Chrome found and apt-get is not available;" >&2
  echo "install Chromium or Google Chrome with your package manager, or set browser.path in .agentos/config/mcp.yaml" >&2
  exit 1
fi

sudo=
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo=sudo
  else
    echo "browser: installing chromium needs root (or sudo)" >&2
    exit 1
  fi
fi

# The packages and the package lists are kept in the user's cache folder
# (apt's own cache is emptied after every install on many images), so a
# second run on the same machine downloads nothing.
cache=${AGENTOS_APT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agentos-ci/apt}
mkdir -p "$cache/archives/partial" "$cache/lists/partial"
# As root: apt's download user cannot enter a home folder.
apt=(env DEBIAN_FRONTEND=noninteractive apt-get -qq -o "Dir::Cache::Archives=$cache/archives" -o "Dir::State::Lists=$cache/lists"
  -o APT::Keep-Downloaded-Packages=true -o APT::Sandbox::User=root)
if [ -n "$sudo" ]; then apt=("$sudo" "${apt[@]}"); fi
install() { "${apt[@]}" install -y --no-install-recommends chromium fonts-liberation >/dev/null; }

echo "browser: installing Debian's chromium package (packages cached in $cache)"
if [ -z "$(find "$cache/lists" -maxdepth 1 -name '*_Packages*' -mtime -7 2>/dev/null | head -n 1)" ]; then
  "${apt[@]}" update
  install
elif ! install; then
  # The cached lists name versions the mirror no longer has: refresh them.
  "${apt[@]}" update
  install
fi
echo "browser: $(command -v chromium) is installed"
