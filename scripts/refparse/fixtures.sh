#!/usr/bin/env bash
# Regenerates the reference declarations of the chunker's fixture files
# (search/chunk/refcheck/testdata/<lang>/<owner+repo>/ → <owner+repo>.json):
# Python's ast for Python (python3; 3.12 or later reads 3.12 syntax), tree-sitter for Rust and Java
# (installed by install-treesitter.sh; needs node and npm).
set -euo pipefail
cd "$(dirname "$0")/../.."
data=search/chunk/refcheck/testdata
ts=$(scripts/refparse/install-treesitter.sh)
for dir in "$data"/*/*/; do
	dir=${dir%/}
	lang=$(basename "$(dirname "$dir")")
	case $lang in
	python) python3 scripts/refparse/py-decls.py "$dir" >"$dir.json" ;;
	rust | java) NODE_PATH="$ts/node_modules" node scripts/refparse/treesitter-decls.mjs "$lang" "$dir" >"$dir.json" ;;
	*) echo "fixtures: no reference parser for $lang" >&2; exit 1 ;;
	esac
	echo "$dir.json"
done
