#!/usr/bin/env bash
# Measures the CPU each package's tests really take (docs/benchmarks.md#the-test-command):
# every process they start counts, the servers that detach from the test and
# the browsers, compilers and test runners those start too — which
# `/usr/bin/time` leaves out, as it counts only the children a process waits
# for. Each test binary runs alone in a control group of its own, and the
# group's CPU counter is read when it is done.
#
#   bench/testcpu.sh [--tests] [PACKAGE...]     (as root; default: every package)
#   bench/testcpu.sh --run [ARG...]             (the whole of scripts/test.sh ARG...)
#
# --tests measures each top-level test of the packages named, one at a time,
# instead of each package; "(start only)", the binary run with no test, is
# what each of those lines holds besides its test. The test binaries are the ones
# scripts/test.sh keeps (run it first); the environment is the fast run's:
# TMPDIR on tmpfs and GOGC=400. Prints "CPU-seconds wall-seconds name",
# largest first, and names any process a test left running (and stops it).
# Needs cgroup v1's cpuacct or cgroup v2, and the right to make groups.
set -euo pipefail
cd "$(dirname "$0")/.."

per_test= whole=
case "${1:-}" in
  --tests) per_test=1; shift ;;
  --run) whole=1; shift ;;
esac

bins="${XDG_CACHE_HOME:-$HOME/.cache}/agentos/testbins/$(printf %s "$PWD" | cksum | cut -d' ' -f1)/plain"
[ -n "$whole" ] || [ -d "$bins" ] || { echo "testcpu: no kept test binaries in $bins; run scripts/test.sh first" >&2; exit 1; }

if [ -d /sys/fs/cgroup/cpuacct ]; then
  parent=/sys/fs/cgroup/cpuacct
  usage() { awk '{ printf "%.2f", $1 / 1e9 }' "$1/cpuacct.usage"; }
elif [ -f /sys/fs/cgroup/cgroup.controllers ]; then
  parent=/sys/fs/cgroup
  usage() { awk '$1 == "usage_usec" { printf "%.2f", $2 / 1e6 }' "$1/cpu.stat"; }
else
  echo "testcpu: no cgroup v1 cpuacct or cgroup v2 here" >&2
  exit 1
fi

logs=${TMPDIR:-/tmp} # where --run leaves the command's output
scratch=$(mktemp -d "$( [ -d /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")/aos-cpu-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
chmod 1777 "$scratch" # as scripts/test.sh: some tests run a program as another user
export TMPDIR=$scratch GOGC=${GOGC:-400}

# measure NAME DIR ARGS...: runs the binary ARGS in DIR in a new group and
# prints its CPU and wall time.
measure() {
  local name=$1 dir=$2
  shift 2
  local group=$parent/agentos-testcpu-$$
  mkdir "$group"
  local start=$EPOCHREALTIME
  local result=""
  (cd "$dir" && echo "$BASHPID" > "$group/cgroup.procs" && exec "$@") > "${output:-/dev/null}" 2>&1 || result=" (FAILED: rerun it with go test to see why)"
  local wall
  wall=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
  # What the test started and did not stop: waited for a while, then named
  # and stopped, so that it neither counts twice nor runs on.
  for _ in $(seq 20); do
    [ -z "$(cat "$group/cgroup.procs")" ] && break
    sleep 0.25
  done
  local left
  left=$(cat "$group/cgroup.procs")
  if [ -n "$left" ]; then
    echo "testcpu: $name left running: $(for p in $left; do tr '\0' ' ' < /proc/"$p"/cmdline 2>/dev/null | cut -c1-80; echo; done | sort | uniq -c | tr '\n' ';')" >&2
    kill -9 $left 2> /dev/null || true
    sleep 0.5
  fi
  echo "$(usage "$group") $wall $name$result"
  for p in $(cat "$group/cgroup.procs"); do echo "$p" > "$parent/cgroup.procs"; done
  rmdir "$group"
}

# calibrate prints the CPU seconds a SHA-256 of 64 MiB takes (median of
# three): the machine's own speed, which on a shared virtual machine moved
# from 1× to 1.8× for the same work within a minute, idle
# (docs/benchmarks.md#the-test-command), so a run's CPU says little alone.
calibrate() {
  local f=$scratch/calibrate.bin
  [ -f "$f" ] || head -c 64M /dev/urandom > "$f"
  for _ in 1 2 3; do
    { TIMEFORMAT=%U; time sha256sum "$f" > /dev/null; } 2>&1
  done | sort -n | sed -n 2p
}
# --run: the test command itself, as a person runs it (it sets TMPDIR and
# GOGC itself), its output kept in a file, the machine's speed measured
# before and after; to compare two trees or settings, alternate their runs.
if [ -n "$whole" ]; then
  log=$(mktemp "$logs/testcpu-run-XXXXXX.log")
  before=$(calibrate)
  output=$log measure "scripts/test.sh${*:+ $*}" . scripts/test.sh "$@"
  echo "  its last line: $(tail -n 1 "$log"); its output: $log"
  echo "  the machine: SHA-256 of 64 MiB took $before s of CPU before the run, $(calibrate) s after (median of three)"
  exit 0
fi

packages=("$@")
if [ ${#packages[@]} -eq 0 ]; then
  mapfile -t packages < <(go list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}' ./...)
fi
module=$(go list -m)
{
  for pkg in "${packages[@]}"; do
    pkg=${pkg#./}
    [[ $pkg == "$module"* ]] || pkg=$module/$pkg
    dir=.${pkg#"$module"}
    [ -d "$dir" ] || { echo "testcpu: no package folder $dir for $pkg (name packages by their path, e.g. workflow/gates)" >&2; continue; }
    bin=$bins/$(basename "$pkg").test
    [ -x "$bin" ] || { echo "testcpu: no test binary for $pkg in $bins" >&2; continue; }
    if [ -z "$per_test" ]; then
      measure "${pkg#"$module"/}" "$dir" "$bin" -test.count=1 -test.timeout=20m
      continue
    fi
    measure "${pkg#"$module"/} (start only)" "$dir" "$bin" -test.run '^$' -test.count=1
    for t in $("$bin" -test.list '.*' 2> /dev/null | grep '^Test'); do
      measure "${pkg#"$module"/}.$t" "$dir" "$bin" -test.run "^$t\$" -test.count=1 -test.timeout=20m
    done
  done
} | sort -rn
