#!/usr/bin/env bash
# Regenerates the review page's screenshots under docs/review/ by running
# the review page's end-to-end tests (TestReview*) against the installed
# Chromium, with axe-core installed by scripts/install-axe.sh so
# their accessibility checks run too.
set -euo pipefail

cd "$(dirname "$0")/.."
scripts/install-axe.sh >/dev/null
mkdir -p docs/review
AGENTOS_REVIEW_SCREENSHOTS="$PWD/docs/review" AGENTOS_LONG=1 CI=true go test ./e2e -run '^TestReview' -count=1
ls -l docs/review/*.png
