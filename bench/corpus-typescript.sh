#!/usr/bin/env bash
# Makes the TypeScript corpora of the TypeScript tuning questions
# (bench/searcheval/testdata/typescript-*-questions.json) from the packages
# the npm registry serves, checked against their published SHA-512 integrity:
#
#   rxjs        rxjs 7.8.2: every .ts file under the package's src/ (251
#               files; the package ships no tests). Written with semicolons.
#   query-core  @tanstack/query-core 5.90.2: every .ts file under src/ (23
#               files; no tests shipped). Written without semicolons.
#
# Paths in DIR are relative to the package's src/ folder. Needs npm (for
# `npm pack`), tar and base64.
#
#   bench/corpus-typescript.sh rxjs /tmp/rxjs
#   go run ./bench/searcheval -corpus /tmp/rxjs -languages typescript \
#     -questions bench/searcheval/testdata/typescript-dev-questions.json
#   bench/corpus-typescript.sh query-core /tmp/query-core
#   go run ./bench/searcheval -corpus /tmp/query-core -languages typescript \
#     -questions bench/searcheval/testdata/typescript-validation-questions.json
set -euo pipefail

name=${1:?usage: bench/corpus-typescript.sh rxjs|query-core [DIR]}
case $name in
rxjs)
  spec=rxjs@7.8.2
  tgz=rxjs-7.8.2.tgz
  want=sha512-dhKf903U/PQZY6boNNtAGdWbG85WAbjT/1xYoZIC7FAY0yWapOBQVsVrDl58W86//e1VpMNBtRV4MaXfdMySFA==
  ;;
query-core)
  spec=@tanstack/query-core@5.90.2
  tgz=tanstack-query-core-5.90.2.tgz
  want=sha512-k/TcR3YalnzibscALLwxeiLUub6jN5EDLwKDiO7q5f4ICEoptJ+n9+7vcEFy5/x/i6Q+Lb/tXrsKCggf5uQJXQ==
  ;;
*)
  echo "corpus: unknown code base $name (rxjs, query-core)" >&2
  exit 2
  ;;
esac
dir=${2:-/tmp/$name}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/agentos-corpus

integrity() { echo "sha512-$(openssl dgst -sha512 -binary "$1" | base64 -w0)"; }

if [ -f "$dir/.corpus" ] && [ "$(cat "$dir/.corpus")" = "$spec" ]; then
  echo "corpus: $dir already holds $spec"
  exit 0
fi
mkdir -p "$cache"
if [ ! -f "$cache/$tgz" ] || [ "$(integrity "$cache/$tgz")" != "$want" ]; then
  tmpd=$(mktemp -d)
  (cd "$tmpd" && npm pack --silent "$spec" >/dev/null)
  if [ "$(integrity "$tmpd/$tgz")" != "$want" ]; then
    echo "corpus: $spec does not have the expected integrity" >&2
    rm -rf "$tmpd"
    exit 1
  fi
  mv "$tmpd/$tgz" "$cache/$tgz"
  rm -rf "$tmpd"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -xzf "$cache/$tgz" -C "$tmp"
mkdir -p "$dir"
(cd "$tmp/package/src" &&
  find . -name '*.ts' ! -name '*.test.ts' ! -name '*.spec.ts' ! -path '*/__tests__/*' -print0 |
  LC_ALL=C sort -z | xargs -0 cp --parents -t "$dir")
echo "$spec" >"$dir/.corpus"
echo "corpus: $spec in $dir ($(find "$dir" -name '*.ts' | wc -l) files, $(find "$dir" -name '*.ts' -print0 | xargs -0 cat | wc -l) lines)"
