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

# shellcheck source=apt-install.sh
. "$(dirname "$0")/apt-install.sh"
apt_install browser chromium fonts-liberation
echo "browser: $(command -v chromium) is installed"
