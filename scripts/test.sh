#!/usr/bin/env bash
# The project's test command (README and CI run exactly this): formatting,
# vet, then every test, with the race detector when a C compiler is there.
set -euo pipefail
cd "$(dirname "$0")/.."

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
go vet ./...

race=
if [ "$(go env CGO_ENABLED)" = 1 ] && command -v "$(go env CC)" >/dev/null 2>&1; then
  race=-race
fi
go test $race -count=1 "$@" ./...
