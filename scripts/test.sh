#!/usr/bin/env bash
# The project's test command (README and CI run exactly this): formatting,
# vet, then every test, ending with one line "N passed, N failed[, N
# skipped]".
#
#   scripts/test.sh [--long] [--race] [go test flags]
#
# --long also runs the long tests (AGENTOS_LONG=1; docs/development.md lists
# them) and checks for data races as --race does; CI runs it. --race runs
# the tests with the race detector (when a C compiler is there) but for the
# packages named below. Other arguments go to `go test`.
set -euo pipefail
cd "$(dirname "$0")/.."

long=
race=
args=()
for a in "$@"; do
  case "$a" in
    --long) long=1 race=1 ;;
    --race) race=1 ;;
    *) args+=("$a") ;;
  esac
done
if [ -n "$long" ]; then
  export AGENTOS_LONG=1
fi
# Without the race detector, everything is built as a release builds it,
# without cgo (goreleaser.yaml): the agentos binary the end-to-end tests run
# is such a build, and the packages it shares with the tests are then
# compiled once, not twice (docs/decisions.md). The race detector needs
# cgo, so --race and --long keep Go's default. CGO_ENABLED=… set by the
# caller wins.
if [ -z "$race" ]; then
  export CGO_ENABLED="${CGO_ENABLED:-0}"
fi

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
go vet ./...

# go test's default of 10 minutes per package is too short for e2e on a
# cold 2-core machine (it builds agentos and runs it hundreds of times, with
# the long tests the run takes longer still): explicit limits, sized for
# that machine, so a slow but healthy run is not killed. A test's own flags
# (-timeout among them) come after these and win.
timeout=15m
e2e_timeout=40m

# Temporary files go to a tmpfs when the machine has one with room: the
# tests make and remove tens of thousands of files (projects, the gates'
# layers, indexes, test binaries), and on ext4 that cost more system time
# than the tests spend themselves (installer: 18 s of system CPU on ext4,
# 5 s on tmpfs). AGENTOS_TEST_TMPDIR names another folder; TMPDIR=… with
# AGENTOS_TEST_TMPDIR=keep leaves TMPDIR as it is.
scratch=
case "${AGENTOS_TEST_TMPDIR:-}" in
  keep) ;;
  "")
    if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] &&
      [ "$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')" -ge 4000000 ] 2>/dev/null; then
      scratch=$(mktemp -d /dev/shm/aos-XXXXXX)
    fi ;;
  *) scratch=$(mktemp -d "$AGENTOS_TEST_TMPDIR/aos-XXXXXX") ;;
esac
if [ -n "$scratch" ]; then
  # Open to all, as /tmp is: some tests run a program as another user
  # (PostgreSQL's initdb, a client as nobody). The name is short: a
  # socket's path (Chromium's, in a test's own temporary folder) has
  # to fit in 107 bytes.
  chmod 1777 "$scratch"
  export TMPDIR=$scratch
fi

# The run starts thousands of short-lived Go programs (agentos itself, the
# test binaries, go, compile and link in the gates) whose heaps stay small:
# at the default GOGC of 100 a fifth of their CPU went to collecting
# garbage. 400 trades memory they have to spare for that CPU
# (docs/decisions.md); GOGC=… set by the caller wins.
export GOGC="${GOGC:-400}"

# How the test binaries are built (docs/decisions.md), flags given to this
# script winning:
# - without DWARF debugging information (-ldflags=-w): a panic's or a
#   race's stack still names every file and line (those come from the
#   binary's own tables), and linking every test binary took 40 % less CPU.
#   To debug a test, build it with `go test -c` or `dlv test`;
# - without go test's own vet (-vet=off): `go vet ./...` above has run
#   every one of its checks, and more, over the same packages and their
#   tests; the second pass cost 43 s of CPU on empty caches.
build=(-ldflags=-w -vet=off)

# Built, not `go run`: go run adds its own "exit status 1" after the
# closing count.
tools=$(mktemp -d)
trap 'rm -rf "$tools" ${scratch:+"$scratch"}' EXIT
go build -o "$tools/testsum" ./internal/tools/testsum

module=$(go list -m)
packages=$(go list ./...)

# Test binaries are kept between runs, one folder per checkout and build
# mode, in the user's cache folder beside the agentos binary the tests
# build (internal/testbin; the same folder Go's os.UserCacheDir names):
# `go test -o DIR/` links a package's test binary only when the one in DIR
# is not what its sources give (go compares the build ID), where otherwise
# every run links every binary anew — a fifth of a warm run's CPU
# (docs/decisions.md). They take about 0.45 GB (more with --long's race
# builds); folders of checkouts not tested for a week are removed, and
# AGENTOS_TEST_KEEP_BINARIES=0 keeps none. go refuses -o DIR/ when two
# packages share a name; then they are linked each run.
case "$(uname -s)" in
  Darwin) user_cache=${HOME:+$HOME/Library/Caches} ;;
  *) user_cache=${XDG_CACHE_HOME:-${HOME:+$HOME/.cache}} ;;
esac
keep_plain=() keep_race=()
if [ "${AGENTOS_TEST_KEEP_BINARIES:-1}" != 0 ] && [ -n "$user_cache" ] &&
  [ -z "$(echo "$packages" | awk -F/ '{ print $NF }' | sort | uniq -d)" ]; then
  bins=$user_cache/agentos/testbins
  mkdir -p "$bins"
  find "$bins" -mindepth 1 -maxdepth 1 -type d -mtime +7 -exec rm -rf {} + 2>/dev/null || true
  bins=$bins/$(printf %s "$PWD" | cksum | cut -d' ' -f1)
  mkdir -p "$bins/plain" "$bins/race"
  touch "$bins"
  keep_plain=(-o "$bins/plain/") keep_race=(-o "$bins/race/")
fi

# The race detector doubles the CPU the tests take and builds every
# package a second time (an empty build cache's first run pays for both):
# the fast run, for a developer's every change, goes without it, and CI's
# --long run checks for races (docs/decisions.md).
if [ -n "$race" ] && [ "$(go env CGO_ENABLED)" = 1 ] && command -v "$(go env CC)" >/dev/null 2>&1; then
  # A race-built program sleeps a second when it exits, so that other
  # threads can still report; every test binary would wait it out. Races
  # are reported when they happen.
  export GORACE="atexit_sleep_ms=0${GORACE:+ $GORACE}"
  # Without -race, at the same time as the rest (together a third of the
  # whole run's CPU less):
  # - e2e and cmd/agentos run agentos as a separate process, a release
  #   build or the test binary itself, many times over; the code they
  #   drive has its race-checked tests in its own packages;
  # - upgrade is sequential by design (one upgrade at a time, under a file
  #   lock); its code starts no goroutine, and shares only a sync.Once and
  #   a sync.Map of test hooks; the race detector tripled its CPU time.
  plain=(e2e cmd/agentos upgrade)
  "$tools/testsum" -race -count=1 -timeout="$timeout" "${build[@]}" ${keep_race[@]+"${keep_race[@]}"} ${args[@]+"${args[@]}"} \
    $(echo "$packages" | grep -vx $(printf -- "-e $module/%s " "${plain[@]}")) \
    --and -count=1 -timeout="$e2e_timeout" "${build[@]}" ${keep_plain[@]+"${keep_plain[@]}"} ${args[@]+"${args[@]}"} $(printf -- "./%s " "${plain[@]}")
else
  # One package more at once than there are cores (go's default): with
  # the links gone, both cores idled a third of a minute while the
  # packages running waited (servers, timeouts, a browser); a third fills
  # that time (docs/decisions.md). The longest and those that mostly wait
  # start first, so that none of them is the run's tail.
  first=(e2e installer cmd/agentos upgrade standards/examplecheck workflow/gates server server/searchtool
    search/lexical server/browser internal/testbin internal/tools/testsum)
  ordered=$( (printf -- "$module/%s\n" "${first[@]}" | grep -Fx "$packages"; echo "$packages") | awk '!seen[$0]++')
  "$tools/testsum" -count=1 -timeout="$e2e_timeout" -p "$(($(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2) + 1))" \
    "${build[@]}" ${keep_plain[@]+"${keep_plain[@]}"} ${args[@]+"${args[@]}"} $ordered
fi
