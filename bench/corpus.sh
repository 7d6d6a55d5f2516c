#!/usr/bin/env bash
# Makes the corpus of the search figures (docs/benchmarks.md#search): the Go
# standard library of Go 1.26.8, every .go file under GOROOT/src except
# tests, cmd/, testdata/ and vendor/ — 2,864 files, 811k lines — in DIR
# (default /tmp/gostd), and checks it is byte for byte the corpus the
# figures were measured on.
#
#   bench/corpus.sh [DIR]
#
# Go 1.26.8's sources are the local Go's when it is that version; otherwise
# the go command fetches that toolchain from the Go module proxy
# (GOTOOLCHAIN), so any Go 1.21 or newer makes the same corpus.
set -euo pipefail

version=go1.26.8
want=5bc9dcf305fe1291974aa7d6cb27647f3a7a9d135ce63f7abf92deb15d6d4710
dir=${1:-/tmp/gostd}

# files lists the corpus under the current folder, in a fixed order.
files() {
  find . -name '*.go' ! -name '*_test.go' ! -path './cmd/*' ! -path '*/testdata/*' ! -path '*/vendor/*' -print0 |
    LC_ALL=C sort -z
}
# sum hashes every file's path and content.
sum() { (cd "$1" && files | xargs -0 sha256sum | sha256sum | cut -d' ' -f1); }

if [ -d "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
  if [ "$(sum "$dir")" = "$want" ]; then
    echo "corpus: $dir already holds the $version standard library"
    exit 0
  fi
  echo "corpus: $dir exists and is not the corpus; remove it or name another folder" >&2
  exit 1
fi

goroot=$(GOTOOLCHAIN=$version go env GOROOT)
mkdir -p "$dir"
(cd "$goroot/src" && files | tar --null -T - -cf -) | tar -xf - -C "$dir"
got=$(sum "$dir")
if [ "$got" != "$want" ]; then
  echo "corpus: $dir differs from the measured corpus (sha256 $got, want $want)" >&2
  exit 1
fi
echo "corpus: $(cd "$dir" && files | tr -cd '\0' | wc -c) files of the $version standard library in $dir"
