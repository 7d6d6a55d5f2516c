#!/usr/bin/env bash
# Regenerates the reference callers of the call graph's fixtures
# (search/codegraph/testdata/callref/<lang>/ → <lang>.json): the TypeScript
# language service's call hierarchy for TypeScript and JavaScript
# (ts-calls.mjs, the compiler installed by install.sh; needs node and npm),
# jedi's references for Python (py-calls.py; needs python3 with jedi).
set -euo pipefail
cd "$(dirname "$0")/../.."
data=search/codegraph/testdata/callref
NODE_PATH=$(scripts/refparse/install.sh) node scripts/refparse/ts-calls.mjs "$data/ts" >"$data/ts.json"
python3 scripts/refparse/py-calls.py "$data/py" >"$data/py.json"
echo "$data/ts.json $data/py.json"
