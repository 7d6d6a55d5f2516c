#!/usr/bin/env bash
# Makes the Python corpus of the Python tuning questions
# (bench/searcheval/testdata/python-dev-questions.json): NetworkX 2.8.8 as
# Debian 12 ships it (python3-networkx 2.8.8-1), every .py file of the
# networkx package except its tests — 283 files, 100k lines — in DIR
# (default /tmp/networkx). The package is fetched from the Debian archive by
# its pool path and checked against Debian's SHA-256; extracting it needs
# dpkg-deb (Debian, Ubuntu) or ar and tar.
#
#   bench/corpus-python.sh [DIR]
#   go run ./bench/searcheval -corpus /tmp/networkx -languages python \
#     -questions bench/searcheval/testdata/python-dev-questions.json
set -euo pipefail

deb=python3-networkx_2.8.8-1_all.deb
url=${DEBIAN_MIRROR:-http://deb.debian.org/debian}/pool/main/n/networkx/$deb
want=69888603d1b54696f5c3d02d05527628d2d18661d845109a62fe24aff241aa7b
dir=${1:-/tmp/networkx}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/agentos-corpus

if [ -f "$dir/__init__.py" ]; then
  echo "corpus: $dir already holds networkx"
  exit 0
fi
mkdir -p "$cache"
if [ ! -f "$cache/$deb" ] || [ "$(sha256sum "$cache/$deb" | cut -d' ' -f1)" != "$want" ]; then
  curl -fsSL -o "$cache/$deb.part" "$url"
  if [ "$(sha256sum "$cache/$deb.part" | cut -d' ' -f1)" != "$want" ]; then
    echo "corpus: $url does not have the expected SHA-256" >&2
    exit 1
  fi
  mv "$cache/$deb.part" "$cache/$deb"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if command -v dpkg-deb >/dev/null; then
  dpkg-deb -x "$cache/$deb" "$tmp"
else
  (cd "$tmp" && ar x "$cache/$deb" data.tar.xz && tar -xJf data.tar.xz)
fi
mkdir -p "$dir"
(cd "$tmp/usr/lib/python3/dist-packages/networkx" &&
  find . -name '*.py' ! -path '*/tests/*' -print0 | LC_ALL=C sort -z | xargs -0 cp --parents -t "$dir")
echo "corpus: networkx 2.8.8 in $dir ($(find "$dir" -name '*.py' | wc -l) files)"
