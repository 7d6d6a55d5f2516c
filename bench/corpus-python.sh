#!/usr/bin/env bash
# Makes a corpus of the Python question sets (bench/searcheval/testdata/
# python-*-questions.json) from a Python library as Debian 12 ships it, in
# one of two forms:
#
#   CORPUS       the package: every .py file of the library's package except
#                its tests, from the binary package (python3-CORPUS). Paths
#                are relative to the package folder, as the questions give
#                them.
#   CORPUS-repo  the repository: the upstream source tree whole, from the
#                source package's .orig tarball, with its tests, examples,
#                docs, benchmarks and tools as a checkout has them. The
#                package sits in a folder of the tree (PREFIX below), so run
#                searcheval with -prefix PREFIX/ for the same questions.
#
# The file is fetched from the Debian archive by its pool path and checked
# against the SHA-256 of Debian's Packages index (binary) or the source
# package's .dsc (repository); the files copied are checked against the
# ones the figures were measured on where that was possible. Extracting a
# binary package needs dpkg-deb (Debian, Ubuntu) or ar and tar.
#
#   bench/corpus-python.sh [CORPUS] [DIR]
#
# CORPUS (default networkx; DIR defaults to /tmp/CORPUS):
#   networkx  NetworkX 2.8.8 (python3-networkx 2.8.8-1): 283 files, 100k lines
#   rich      Rich 13.3.1 (python3-rich 13.3.1-1): 78 files, 26k lines
#   boltons   boltons 21.0.0 (python3-boltons 21.0.0-2): 30 files, 17k lines
#   paramiko  Paramiko 2.12.0 (python3-paramiko 2.12.0-2): 46 files, 20k lines
#   docutils  Docutils 0.19 (python3-docutils 0.19+dfsg-6): 120 files, 42k lines
#   rich-repo       Rich 13.3.1's tree (rich_13.3.1.orig.tar.xz): 521 files,
#                   190 of them .py (78 under rich/, 66 tests, 36 examples,
#                   3 benchmarks, 5 tools, 1 docs); PREFIX rich
#   networkx-repo   NetworkX 2.8.8's tree (networkx_2.8.8.orig.tar.xz); PREFIX
#                   networkx
#   boltons-repo    boltons 21.0.0's tree (python-boltons_21.0.0.orig.tar.gz);
#                   PREFIX boltons
#   paramiko-repo   Paramiko 2.12.0's tree (paramiko_2.12.0.orig.tar.xz);
#                   PREFIX paramiko
# The last three are checked against their .dsc only: the archive mirror the
# figures were made with served none of their .orig tarballs, so no tree was
# measured.
#
#   go run ./bench/searcheval -corpus /tmp/rich -languages python \
#     -questions bench/searcheval/testdata/python-validation-questions.json
#   bench/corpus-python.sh rich-repo /tmp/rich-repo
#   go run ./bench/searcheval -corpus /tmp/rich-repo -prefix rich/ -languages python \
#     -questions bench/searcheval/testdata/python-validation-questions.json
#
# For compatibility, a single argument holding a slash is DIR for networkx.
set -euo pipefail

corpus=networkx
if [ $# -ge 1 ] && [[ $1 != */* ]]; then
  corpus=$1
  shift
fi
dir=${1:-/tmp/$corpus}

# Each corpus: the Debian package's pool path, its SHA-256 (from the
# Packages index of bookworm, or the .dsc of the source package for a
# repository), the package folder under dist-packages (binary only), and the
# checksum of the copied tree (see sum below; empty: not checked).
repo=
case $corpus in
networkx)
  pool=pool/main/n/networkx/python3-networkx_2.8.8-1_all.deb
  want=69888603d1b54696f5c3d02d05527628d2d18661d845109a62fe24aff241aa7b
  pkg=networkx
  tree=97544adc884750ed02ce9b726d42d6368eaf9ec64277ef8832d42f52952879b5
  ;;
rich)
  pool=pool/main/r/rich/python3-rich_13.3.1-1_all.deb
  want=4922761342dd42eb989dcc148e7a251401caf0266796f9fb0907be262d4a4083
  pkg=rich
  tree=ef7283d7fb441b4050fe22e7e7ba854c626e571a55ece18987ba71bd62026771
  ;;
boltons)
  pool=pool/main/p/python-boltons/python3-boltons_21.0.0-2_all.deb
  want=e199b3ebb65179c58bd374deb2f3888aab40967a4893e278de7fd483057af67f
  pkg=boltons
  tree=8180c15923db7e7067f6eab820077d5f862fd90ee7941954774a2532937a3dcc
  ;;
paramiko)
  pool=pool/main/p/paramiko/python3-paramiko_2.12.0-2_all.deb
  want=4fdca80fc2e93c58f707146ae2186ad0ed185c6002ff7df1667c50acc3fc5044
  pkg=paramiko
  tree=669d84e9e3e0ba20d98b4e916e2eab4d8411b3350258339f04cb375a42729d43
  ;;
docutils)
  pool=pool/main/p/python-docutils/python3-docutils_0.19+dfsg-6_all.deb
  want=ada9a80195375262c50dc0acf21a00a51166fee3fc96f6ca6d20a1a27868ba2c
  pkg=docutils
  tree=391a6acb83a5b74ac84792ab8761b084d5739aa25aa89db963dda20eb0da57d3
  ;;
rich-repo)
  repo=1
  pool=pool/main/r/rich/rich_13.3.1.orig.tar.xz
  want=728e0ad25de9448fedee56acaa3219207e7c98d9d56fda5cfd5daa5d254acaac
  tree=c607f50ea66967e8a6ba9d6601bdeb589040d73396d3f56886ab26c065fa7f6d
  ;;
networkx-repo)
  repo=1
  pool=pool/main/n/networkx/networkx_2.8.8.orig.tar.xz
  want=8f2451ea27f6ae988e284544e260f12ad4c67ec6582a5e0b3b19a5a227943859
  tree=
  ;;
boltons-repo)
  repo=1
  pool=pool/main/p/python-boltons/python-boltons_21.0.0.orig.tar.gz
  want=9f29e135661071968b9cea1783dd5bd2403b2a141ccd5f5637692fc544bcc4db
  tree=
  ;;
paramiko-repo)
  repo=1
  pool=pool/main/p/paramiko/paramiko_2.12.0.orig.tar.xz
  want=468528d13b4d44cb25566fdf2e98fc476be9231a80327c4c284e90f893bbc5d0
  tree=
  ;;
*)
  echo "corpus: unknown corpus $corpus (networkx, rich, boltons, paramiko, docutils; the first four also as NAME-repo)" >&2
  exit 2
  ;;
esac
deb=${pool##*/}
url=${DEBIAN_MIRROR:-http://deb.debian.org/debian}/$pool
cache=${XDG_CACHE_HOME:-$HOME/.cache}/agentos-corpus

# files lists the corpus under the current folder, in a fixed order: a
# package's .py files without its tests, or a repository's every file.
files() {
  if [ -n "$repo" ]; then
    find . -type f -print0 | LC_ALL=C sort -z
  else
    find . -name '*.py' ! -path '*/tests/*' -print0 | LC_ALL=C sort -z
  fi
}
# sum hashes every file's path and content.
sum() { (cd "$1" && files | xargs -0 sha256sum | sha256sum | cut -d' ' -f1); }

if [ -d "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
  if [ -n "$tree" ] && [ "$(sum "$dir")" = "$tree" ]; then
    echo "corpus: $dir already holds $corpus"
    exit 0
  fi
  echo "corpus: $dir exists and is not the $corpus corpus; remove it or name another folder" >&2
  exit 1
fi
mkdir -p "$cache"
if [ ! -f "$cache/$deb" ] || [ "$(sha256sum "$cache/$deb" | cut -d' ' -f1)" != "$want" ]; then
  curl -fsSL -o "$cache/$deb.part" "$url"
  if [ "$(sha256sum "$cache/$deb.part" | cut -d' ' -f1)" != "$want" ]; then
    echo "corpus: $url does not have the expected SHA-256" >&2
    exit 1
  fi
  mv "$cache/$deb.part" "$cache/$deb"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$dir"
if [ -n "$repo" ]; then
  mkdir "$tmp/tree"
  tar -xf "$cache/$deb" -C "$tmp/tree" --strip-components=1
  (cd "$tmp/tree" && files | xargs -0 cp --parents -t "$dir")
else
  if command -v dpkg-deb >/dev/null; then
    dpkg-deb -x "$cache/$deb" "$tmp"
  else
    (cd "$tmp" && ar x "$cache/$deb" data.tar.xz && tar -xJf data.tar.xz)
  fi
  (cd "$tmp/usr/lib/python3/dist-packages/$pkg" && files | xargs -0 cp --parents -t "$dir")
fi
got=$(sum "$dir")
if [ -n "$tree" ] && [ "$got" != "$tree" ]; then
  echo "corpus: $dir differs from the measured corpus (sha256 $got, want $tree)" >&2
  exit 1
fi
echo "corpus: $corpus in $dir ($(find "$dir" -name '*.py' | wc -l) .py files)"
