#!/usr/bin/env bash
# Fetches the word-vector training corpus pinned in sources/ into DIR (default
# /tmp/wordvec-src) and checks every archive against its recorded checksum:
#   deb/*.deb   Debian 12 Python libraries (apt-get download; SHA-256)
#   npm/*.tgz   npm packages (npm pack; SHA-256 of the tarball)
#   gomod.txt   paths of Go module zips in the module cache (go mod download;
#               the go.sum hash is checked by go itself and against the list)
# None of the code bases the search question sets use is in these lists (the
# Go standard library and golang.org/x, which it vendors; NetworkX, Rich,
# boltons, Paramiko; rxjs, @tanstack/query-core).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-/tmp/wordvec-src}
mkdir -p "$dir/deb" "$dir/npm"

cd "$dir/deb"
awk -F'\t' '{print $1"="$2}' "$here/sources/debian.tsv" | xargs -n 50 apt-get download -q >/dev/null
while IFS=$'\t' read -r name version sum; do
	f=$(ls "${name}_"*.deb)
	echo "$sum  $f"
done < "$here/sources/debian.tsv" | sha256sum --quiet -c -

cd "$dir/npm"
while IFS=$'\t' read -r name version sum; do
	f=$(echo "$name" | sed 's|^@||; s|/|-|')-$version.tgz
	[ -f "$f" ] || npm pack --silent "$name@$version" >/dev/null
	echo "$sum  $f"
done < "$here/sources/npm.tsv" | sha256sum --quiet -c -

: > "$dir/gomod.txt"
while IFS=$'\t' read -r mod version sum; do
	# go exits non-zero for a module that asks for a newer Go, yet has
	# downloaded and checked its zip: only the text is wanted, so the sum
	# and the zip decide.
	json=$(cd "$dir" && go mod download -json "$mod@$version" || true)
	got=$(echo "$json" | sed -n 's/.*"Sum": "\(.*\)".*/\1/p')
	zip=$(echo "$json" | sed -n 's/.*"Zip": "\(.*\)".*/\1/p')
	if [ "$got" != "$sum" ] || [ ! -f "$zip" ]; then
		echo "fetch.sh: $mod@$version: sum $got, want $sum; zip ${zip:-missing}" >&2
		exit 1
	fi
	echo "$zip" >> "$dir/gomod.txt"
done < "$here/sources/gomod.tsv"
echo "fetch.sh: $(wc -l < "$here/sources/debian.tsv") Debian packages, $(wc -l < "$here/sources/npm.tsv") npm packages, $(wc -l < "$dir/gomod.txt") Go modules in $dir"
