#!/usr/bin/env bash
# Builds agentos for every release target (the same matrix as goreleaser.yaml),
# with cgo off, to prove the code compiles everywhere it ships.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for os in linux darwin windows; do
  for arch in amd64 arm64; do
    CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath -o "$out/agentos-$os-$arch" ./cmd/agentos
    echo "built $os/$arch"
  done
done
