#!/usr/bin/env bash
# Makes the corpora of the monorepo-size figures (docs/benchmarks.md, "Monorepo
# size"): the Go standard library (×1, as bench/corpus.sh makes it), and the
# standard library beside real Go modules until the corpus holds SCALE times
# its Go lines (×3, ×8).
#
#   bench/corpus-monorepo.sh DIR SCALE        # SCALE: 1, 3 or 8
#
# The modules are real, distinct code bases at pinned versions, downloaded
# through the Go module proxy with `go mod download`, which checks each against
# Go's checksum database; the script checks each module's hash against the one
# pinned below as well. Eight copies of the standard library would multiply
# every name eight times: every call would have eight candidates and every
# query eight equal answers, which no real monorepo looks like (the call
# graph's benchmark, BenchmarkUses in search/codegraph, measures copies).
#
# Layout: the standard library at the root, exactly as bench/corpus.sh makes
# it (so its import paths and the figures' questions keep their answers); each
# module in its own top-level folder with its own go.mod. From every module the
# same files are kept as from the standard library: every .go file except
# tests (*_test.go), the module's cmd/ folder, testdata/ and vendor/ folders.
# Modules are added in the order below until the corpus reaches SCALE × the
# standard library's lines; the order is fixed (kubernetes, cilium, prometheus
# and etcd make ×3), so a scale is always the same corpus. The file and line
# counts of the result are printed and checked. Downloads are cached in the
# module cache (GOMODCACHE, by default ~/go/pkg/mod), so a second run copies
# without downloading.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
dir=${1:?usage: corpus-monorepo.sh DIR SCALE}
scale=${2:?usage: corpus-monorepo.sh DIR SCALE}
version=go1.26.8
std_lines=810926 # Go lines of bench/corpus.sh's corpus

# folder module version hash (go.sum's h1: of the module's files)
modules='
kubernetes k8s.io/kubernetes v1.37.2 h1:A2VDEiObzkYqFTKhSsn0ZEb0RlLEXpHWj93gi2HqEwE=
cilium github.com/cilium/cilium v1.20.2 h1:dqiEGIcXc+gqCLYG/l7VCFJ8GHyb4HUrwbZOpkX5dL8=
prometheus github.com/prometheus/prometheus v0.316.0 h1:f1GRFerhTMKQma+awCoC9T820ecWeGSdF+xAlMHzZzM=
etcd-server go.etcd.io/etcd/server/v3 v3.7.3 h1:KcTZ/aEZrOiQe0/kdr7iYYcvyfbEoOwDOacHkz8xwZc=
loki github.com/grafana/loki/v3 v3.7.8 h1:bJ0WFWVOjgvG/jYmT9fIX15SYXXDwuEu/IMgTwMA97U=
k8s-api k8s.io/api v0.37.2 h1:PnxqnUFy93jr2GcpWDkKOm8wfy25kT9wa572MuQS8oc=
cosmos-sdk github.com/cosmos/cosmos-sdk v0.55.0 h1:BGGVSTRbCjRSJ0XWWJVB2YhNr5ztSsROyBKVqXzW7nM=
gitea code.gitea.io/gitea v1.27.3 h1:SRnjvw24ASELKCqyYvAWIlzwOqyFMgfD+UkqQ9SE5eU=
vault github.com/hashicorp/vault v1.21.4 h1:KHGcdSnJtombvae1gDk+jZ50kiFngJPFDOvcCJRnU0c=
client-go k8s.io/client-go v0.37.2 h1:sgFtyRZukGkOrsu+QgS7LYnbFFJ5ut3MchdBNduD//E=
terraform github.com/hashicorp/terraform v1.13.3 h1:Wjwx4gk2sEFbSiHK30nLgde+KuHoIvk1MTW2hojnbmg=
go-ethereum github.com/ethereum/go-ethereum v1.17.10 h1:b3WO+xux3pItpm13kqT5Xddv01zOxBFZxQgk/Ate4/M=
rclone github.com/rclone/rclone v1.76.0 h1:Gabl7KmhxyOXyMtFNA/s6wZ3LZ/2x0NP7xZLNEW3Guo=
docker github.com/docker/docker v28.5.2+incompatible h1:DBX0Y0zAjZbSrm1uzOkdr1onVghKaftjlSWt4AFexzM=
nats-server github.com/nats-io/nats-server/v2 v2.15.2 h1:yLsgt2kslgymvxvjFq1WGWck5hkat2YYfbXvQ145tzU=
apiserver k8s.io/apiserver v0.37.2 h1:9Jq73PeHAA0RThpW7ou6lBcO2+SxLcPrAgleONSMUNQ=
x-tools golang.org/x/tools v0.52.0 h1:ryxg4U63oaUYk7uOLTF37n43f4qgtGvqV4Ioit1BaEs=
grpc google.golang.org/grpc v1.85.0 h1:BPBCfuVRQ1qvBhKDOq9uvQllMvO59rKsYhXpp7Dd8vw=
containerd github.com/containerd/containerd/v2 v2.4.2 h1:p6Qg+xbEz8lvwdhHDx0U469xENvp4LgGBx+E7djXkGw=
ollama github.com/ollama/ollama v0.17.4 h1:X3KNm9x4BlHqk/AXMGtC7pBAFd46nmJmy8yDaBZLo9s=
cluster-api sigs.k8s.io/cluster-api v1.14.2 h1:o3GFNaeNFAOEEMpDPfhCK+2CjmV6gtQ8yLEcUwCg7bA=
traefik github.com/traefik/traefik/v3 v3.7.13 h1:T8wy9KuaFzCkmXCqAzDy7t73pBDR1DHrJe3pqXpNXTw=
'

# The expected result per scale: files and lines of Go, and modules added.
case $scale in
1) want="2864 810926 0" ;;
3) want='9811 2476871 4' ;;
8) want='26210 6528789 22' ;;
*)
  echo "corpus-monorepo: SCALE is 1, 3 or 8, not $scale" >&2
  exit 2
  ;;
esac

# files lists the kept files under the current folder (bench/corpus.sh's rule).
files() {
  find . -name '*.go' ! -name '*_test.go' ! -path './cmd/*' ! -path '*/testdata/*' ! -path '*/vendor/*' -print0 |
    LC_ALL=C sort -z
}
lines() { files | xargs -0 cat | wc -l; }
count() { files | tr -cd '\0' | wc -c; }

if [ -d "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
  echo "corpus-monorepo: $dir exists and is not empty; remove it or name another folder" >&2
  exit 1
fi
"$here/corpus.sh" "$dir"

total=$std_lines
added=0
goal=$((scale * std_lines))
while read -r folder module ver hash; do
  [ -n "$folder" ] || continue
  [ "$total" -lt "$goal" ] || break
  # GOTOOLCHAIN: some modules need a Go as new as the one of the corpus.
  json=$(GOTOOLCHAIN=$version GOFLAGS=-mod=mod go mod download -json "$module@$ver")
  src=$(printf '%s' "$json" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  sum=$(printf '%s' "$json" | sed -n 's/^[[:space:]]*"Sum": "\(.*\)",$/\1/p')
  if [ -z "$src" ] || [ "$sum" != "$hash" ]; then
    echo "corpus-monorepo: $module@$ver: download failed or hash $sum is not the pinned $hash" >&2
    printf '%s\n' "$json" >&2
    exit 1
  fi
  mkdir -p "$dir/$folder"
  # The module cache's files are read-only; the copies are made writable so
  # that the corpus can be removed and edited like a checkout.
  (cd "$src" && files | tar --null -T - -cf -) | tar -xf - -C "$dir/$folder" --no-same-permissions
  chmod -R u+w "$dir/$folder"
  # A module from before modules (+incompatible) has no go.mod; the go
  # command gives it its path as module path, and so does the one written.
  if [ -f "$src/go.mod" ]; then
    cp "$src/go.mod" "$dir/$folder/go.mod"
  else
    printf 'module %s\n' "$module" >"$dir/$folder/go.mod"
  fi
  chmod u+w "$dir/$folder/go.mod"
  n=$(cd "$dir/$folder" && lines)
  total=$((total + n))
  added=$((added + 1))
  echo "corpus-monorepo: + $module@$ver in $folder/: $(cd "$dir/$folder" && count) files, $n lines"
done <<<"$modules"

got="$(cd "$dir" && count) $(cd "$dir" && lines) $added"
echo "corpus-monorepo: ×$scale in $dir: $(cd "$dir" && count) Go files, $(cd "$dir" && lines) lines ($(awk "BEGIN{printf \"%.2f\", $total/$std_lines}")× the standard library), $added modules"
if [ "$got" != "$want" ]; then
  echo "corpus-monorepo: $dir holds $got (files lines modules), not the measured $want" >&2
  exit 1
fi
