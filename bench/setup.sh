#!/usr/bin/env bash
# Times README's two set-up commands as a new user meets them
# (docs/benchmarks.md#the-test-command), each run in a fresh clone of this
# checkout's HEAD:
#
#   bench/setup.sh [--warm] [--runs N] [install|test]...   (default: both, cold, 3 runs)
#
# install: `go run ./cmd/agentos install --dir NEW --yes`, then the pinned
#          agentos's `serve --transport http` until it logs its URL.
# test:    `scripts/test.sh`.
# Cold (the default): the Go build and module caches and the user cache
# folder (the agentos binary the tests build, the kept test binaries, the
# pinned binary's digest) are new and empty, modules come from the proxy;
# the tools the project's scripts install there (Chromium is Debian's;
# checkers, test runners, axe-core, the Inspector) are linked in, as a
# machine that ran those scripts has them. --warm runs each command once
# first, untimed, in the same clone and caches.
#
# Each line gives the wall and CPU time (/usr/bin/time: the children waited
# for, so not servers and browsers that detach), the load average before,
# and the machine's speed then: the CPU time SHA-256 takes over 64 MiB (the
# cores' speed here has moved 3x from hour to hour). HOME is a folder of the
# run, so that install's client configs land there, not in yours. Work goes
# to AGENTOS_BENCH_DIR (default ~/.cache/agentos-bench), not under /tmp: the
# gates' sandbox gives each test command a private /tmp, and the test
# runners are reached through links into the cache.
set -euo pipefail
cd "$(dirname "$0")/.."

warm= runs=3 what=()
while [ $# -gt 0 ]; do
  case "$1" in
    --warm) warm=1 ;;
    --runs) runs=${2:?--runs takes a number}; shift ;;
    install|test) what+=("$1") ;;
    *) echo "usage: bench/setup.sh [--warm] [--runs N] [install|test]..." >&2; exit 2 ;;
  esac
  shift
done
[ ${#what[@]} -gt 0 ] || what=(install test)

src=$PWD
user_cache=${XDG_CACHE_HOME:-$HOME/.cache}
base=${AGENTOS_BENCH_DIR:-$user_cache/agentos-bench}
mkdir -p "$base"

speed() {
  local f
  f=$(mktemp "$base/speed-XXXXXX")
  head -c 64M /dev/zero >"$f"
  local t=()
  for _ in 1 2 3; do t+=("$( { /usr/bin/time -f %U sha256sum "$f" >/dev/null; } 2>&1)"); done
  rm -f "$f"
  printf '%s\n' "${t[@]}" | sort -n | sed -n 2p
}

# fresh makes run folder $1: a clone, empty caches, the installed tools linked in.
fresh() {
  local d=$1
  chmod -R u+w "$d" 2>/dev/null || true
  rm -rf "$d"
  mkdir -p "$d/home" "$d/cache"
  git clone -q "$src" "$d/src"
  for tool in "$user_cache"/agentos-*; do
    case "$tool" in */agentos-bench) continue ;; esac
    [ -e "$tool" ] && ln -s "$tool" "$d/cache/"
  done
}

# timed runs command $2… in run folder $1 with its caches, printing one line.
timed() {
  local d=$1 label=$2
  shift 2
  local load before
  load=$(cut -d' ' -f1 /proc/loadavg)
  before=$(speed)
  (
    cd "$d/src"
    export HOME=$d/home XDG_CACHE_HOME=$d/cache GOCACHE=$d/gocache GOMODCACHE=$d/gomod GOPATH=$d/gopath
    /usr/bin/time -o "$d/time" -f "%e s wall, %U + %S s CPU" "$@" >"$d/$label.log" 2>&1
  ) && rc=0 || rc=$?
  echo "$label: $(tail -1 "$d/time"), exit $rc, load $load, SHA-256 of 64 MiB $before s; $(tail -1 "$d/$label.log")"
  [ "$rc" = 0 ] || keep=1
}

# install_and_serve is README's first command, the server stopped once it listens.
install_and_serve() {
  local proj=$1
  mkdir -p "$proj"
  go run ./cmd/agentos install --dir "$proj" --yes || return
  "$proj/.agentos/bin/agentos" serve --transport http --dir "$proj" >"$proj.serve.log" 2>&1 &
  local pid=$! i
  for i in $(seq 300); do
    if grep -q 'url=http://127.0.0.1' "$proj.serve.log"; then
      kill "$pid"; wait "$pid" 2>/dev/null || true
      echo "serving at $(grep -o 'url=http://127.0.0.1[^ ]*' "$proj.serve.log" | head -1 | cut -d= -f2)"
      return 0
    fi
    sleep 0.1
  done
  kill "$pid" 2>/dev/null || true
  echo "the server did not log its URL in 30 s"; return 1
}
export -f install_and_serve

echo "bench/setup.sh at $(git rev-parse --short HEAD), $(nproc) cores, $([ -n "$warm" ] && echo warm || echo cold), $runs runs"
for w in "${what[@]}"; do
  for n in $(seq "$runs"); do
    d=$base/$w-$n
    fresh "$d"
    # A failed run's folder is kept, its output in LABEL.log.
    keep=${AGENTOS_BENCH_KEEP:-}
    case "$w" in
      install)
        [ -z "$warm" ] || timed "$d" untimed bash -c 'install_and_serve "$1"' _ "$d/proj0" >/dev/null
        timed "$d" install bash -c 'install_and_serve "$1"' _ "$d/proj" ;;
      test)
        [ -z "$warm" ] || timed "$d" untimed scripts/test.sh >/dev/null
        timed "$d" test scripts/test.sh ;;
    esac
    if [ -n "$keep" ]; then echo "  kept: $d"; else chmod -R u+w "$d" 2>/dev/null || true; rm -rf "$d"; fi
  done
done
