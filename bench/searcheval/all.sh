#!/usr/bin/env bash
# Scores search quality on every question set of every language with the
# built-in embedder, making each corpus first with its recipe (a corpus that
# is already there is kept), and prints one line a set: hit@1, hit@5 and
# MRR@10 of each method. Extra arguments go to every searcheval run (e.g.
# -methods hybrid, or -tuning JSON to compare weights on every set at once).
#
#   bench/searcheval/all.sh [-methods hybrid] [ROOT]
#
# ROOT (default /tmp) holds the corpora, one folder each. Needs what the
# recipes need: curl and dpkg-deb or ar (Debian packages), npm (npm
# packages), Go. The Go evaluation set and the Python and TypeScript held-out
# sets (Docutils, mobx) are measured, never tuned on.
set -euo pipefail

cd "$(dirname "$0")/../.."
args=()
root=/tmp
while [ $# -gt 0 ]; do
  case $1 in
  -*) args+=("$1" "$2"); shift 2 ;;
  *) root=$1; shift ;;
  esac
done
q=bench/searcheval/testdata

# corpus folder | recipe | languages | question file | expected-path prefix
sets=(
  "gostd|bench/corpus.sh $root/gostd|go|$q/eval-questions.json|"
  "gostd|bench/corpus.sh $root/gostd|go|$q/dev-questions.json|"
  "gostd|bench/corpus.sh $root/gostd|go|$q/validation-questions.json|"
  "networkx|bench/corpus-python.sh networkx $root/networkx|python|$q/python-dev-questions.json|"
  "rich|bench/corpus-python.sh rich $root/rich|python|$q/python-validation-questions.json|"
  "boltons|bench/corpus-python.sh boltons $root/boltons|python|$q/python-boltons-questions.json|"
  "paramiko|bench/corpus-python.sh paramiko $root/paramiko|python|$q/python-paramiko-questions.json|"
  "rich-repo|bench/corpus-python.sh rich-repo $root/rich-repo|python|$q/python-validation-questions.json|rich/"
  "rxjs|bench/corpus-typescript.sh rxjs $root/rxjs|typescript|$q/typescript-dev-questions.json|"
  "query-core|bench/corpus-typescript.sh query-core $root/query-core|typescript|$q/typescript-validation-questions.json|"
  "query-core-repo|bench/corpus-typescript.sh query-core-repo $root/query-core-repo|typescript|$q/typescript-query-core-repo-questions.json|src/"
  "redux-toolkit|bench/corpus-typescript.sh redux-toolkit $root/redux-toolkit|typescript|$q/typescript-sparse-questions.json|"
  "immer|bench/corpus-typescript.sh immer $root/immer|typescript|$q/typescript-sparse2-questions.json|"
  # Held out: measured, never tuned on.
  "docutils|bench/corpus-python.sh docutils $root/docutils|python|$q/python-heldout-questions.json|"
  "mobx|bench/corpus-typescript.sh mobx $root/mobx|typescript|$q/typescript-heldout-questions.json|"
)
go build -o "$root/searcheval.bin" ./bench/searcheval
for s in "${sets[@]}"; do
  IFS='|' read -r dir recipe langs questions prefix <<<"$s"
  $recipe >/dev/null
  echo "== $dir $(basename "$questions")"
  "$root/searcheval.bin" -corpus "$root/$dir" -languages "$langs" -questions "$questions" \
    ${prefix:+-prefix "$prefix"} -repeat 1 "${args[@]}" | grep -E '^\s+(lexical|vector|hybrid) '
done
