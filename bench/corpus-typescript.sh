#!/usr/bin/env bash
# Makes the TypeScript corpora of the TypeScript tuning questions
# (bench/searcheval/testdata/typescript-*-questions.json) from the packages
# the npm registry serves, checked against their published SHA-512 integrity:
#
#   rxjs        rxjs 7.8.2: every .ts file under the package's src/ (251
#               files; the package ships no tests). Written with semicolons.
#   query-core  @tanstack/query-core 5.90.2: every .ts file under src/ (23
#               files; no tests shipped). Written without semicolons.
#   query-core-5.59
#               @tanstack/query-core 5.59.16, the last release that publishes
#               its tests: every .ts file under src/ but the tests (21 files).
#   query-core-repo
#               the same package whole, as published: package.json, src/
#               with its tests in src/__tests__/ (*.test.tsx, *.test-d.tsx
#               and their helpers, 20 files) as the repository has them,
#               and the built bundles in build/ (which the index leaves out,
#               as it does every build/ folder). Paths keep the package's
#               src/: run searcheval with -prefix src/.
#   mobx        mobx 6.13.5: every .ts file under src/ (58 files with one
#               .d.ts, 8,339 lines; no tests shipped). Written without
#               semicolons. Held out: typescript-heldout-questions.json.
#   redux-toolkit
#               @reduxjs/toolkit 2.14.0: every .ts file under src/ (103
#               files, 22,172 lines; no tests shipped; its one .tsx,
#               query/react/ApiProvider.tsx, is left out). Written without
#               semicolons; few of its functions have doc comments (the
#               documentation is a separate site).
#   immer       immer 11.2.10: every .ts file under src/ (17 files with one
#               .d.ts, 3,357 lines; no tests shipped). Written without
#               semicolons; about a quarter of its functions have a doc
#               comment (the documentation is a separate site).
#
# Paths in DIR are relative to the package's src/ folder, except for a whole
# package (-repo). Needs npm (for `npm pack`), tar and base64.
#
#   bench/corpus-typescript.sh rxjs /tmp/rxjs
#   go run ./bench/searcheval -corpus /tmp/rxjs -languages typescript \
#     -questions bench/searcheval/testdata/typescript-dev-questions.json
#   bench/corpus-typescript.sh query-core /tmp/query-core
#   go run ./bench/searcheval -corpus /tmp/query-core -languages typescript \
#     -questions bench/searcheval/testdata/typescript-validation-questions.json
#   bench/corpus-typescript.sh query-core-repo /tmp/query-core-repo
#   go run ./bench/searcheval -corpus /tmp/query-core-repo -prefix src/ -languages typescript \
#     -questions bench/searcheval/testdata/typescript-query-core-repo-questions.json
#   bench/corpus-typescript.sh mobx /tmp/mobx
#   go run ./bench/searcheval -corpus /tmp/mobx -languages typescript \
#     -questions bench/searcheval/testdata/typescript-heldout-questions.json
#   bench/corpus-typescript.sh redux-toolkit /tmp/redux-toolkit
#   go run ./bench/searcheval -corpus /tmp/redux-toolkit -languages typescript \
#     -questions bench/searcheval/testdata/typescript-sparse-questions.json
#   bench/corpus-typescript.sh immer /tmp/immer
#   go run ./bench/searcheval -corpus /tmp/immer -languages typescript \
#     -questions bench/searcheval/testdata/typescript-sparse2-questions.json
set -euo pipefail

name=${1:?usage: bench/corpus-typescript.sh rxjs|query-core|query-core-5.59|query-core-repo|mobx|redux-toolkit|immer [DIR]}
whole=
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
query-core-5.59 | query-core-repo)
  spec=@tanstack/query-core@5.59.16
  tgz=tanstack-query-core-5.59.16.tgz
  want=sha512-crHn+G3ltqb5JG0oUv6q+PMz1m1YkjpASrXTU+sYWW9pLk0t2GybUHNRqYPZWhxgjPaVGC4yp92gSFEJgYEsPw==
  [ "$name" = query-core-repo ] && whole=1
  ;;
mobx)
  spec=mobx@6.13.5
  tgz=mobx-6.13.5.tgz
  want=sha512-/HTWzW2s8J1Gqt+WmUj5Y0mddZk+LInejADc79NJadrWla3rHzmRHki/mnEUH1AvOmbNTZ1BRbKxr8DSgfdjMA==
  ;;
redux-toolkit)
  spec=@reduxjs/toolkit@2.14.0
  tgz=reduxjs-toolkit-2.14.0.tgz
  want=sha512-m/PxMwRe0xLL6XUsAgy0YjInklHcfi9uMwFhJk+QINqjxqPvyc89T5cMjszA5bDmTE0gwGc7zr9LRO4gL+mhaw==
  ;;
immer)
  spec=immer@11.2.10
  tgz=immer-11.2.10.tgz
  want=sha512-pzANBj+0A9u+prdhBJ14DVi44vCvVUQzBa8DKt6I0AMCokPHtt722BK9IX5bFC70xUSU9TnzLRIJLTGqIzjEFw==
  ;;
*)
  echo "corpus: unknown code base $name (rxjs, query-core, query-core-5.59, query-core-repo, mobx, redux-toolkit, immer)" >&2
  exit 2
  ;;
esac
dir=${2:-/tmp/$name}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/agentos-corpus

integrity() { echo "sha512-$(openssl dgst -sha512 -binary "$1" | base64 -w0)"; }

if [ -f "$dir/.corpus" ] && [ "$(cat "$dir/.corpus")" = "$name $spec" ]; then
  echo "corpus: $dir already holds $name ($spec)"
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
if [ -n "$whole" ]; then
  cp -R "$tmp/package/." "$dir"
else
  (cd "$tmp/package/src" &&
    find . -name '*.ts' ! -name '*.test.ts' ! -name '*.spec.ts' ! -path '*/__tests__/*' -print0 |
    LC_ALL=C sort -z | xargs -0 cp --parents -t "$dir")
fi
echo "$name $spec" >"$dir/.corpus"
echo "corpus: $name ($spec) in $dir ($(find "$dir" -name '*.ts*' ! -path '*/build/*' | wc -l) .ts and .tsx files, $(find "$dir" -name '*.ts*' ! -path '*/build/*' -print0 | xargs -0 cat | wc -l) lines)"
