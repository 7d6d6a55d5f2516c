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

echo "browser: installing Debian's chromium package"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null
echo "browser: $(command -v chromium) is installed"
