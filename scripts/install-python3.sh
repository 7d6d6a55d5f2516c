#!/usr/bin/env bash
# Installs Debian's python3 when it is missing, so the installer's tests can
# check that the Python examples of the generated standards parse at the
# Python version the project declares.
set -euo pipefail

if command -v python3 >/dev/null 2>&1; then
  echo "python3: $(command -v python3) is installed"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "python3: not found and apt-get is not available; install Python 3.9 or newer with your package manager" >&2
  exit 1
fi
sudo=
if [ "$(id -u)" != 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "python3: installing needs root (or sudo)" >&2
    exit 1
  fi
  sudo=sudo
fi
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends python3
