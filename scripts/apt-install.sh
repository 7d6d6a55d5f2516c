# Sourced by the install scripts: apt_install TAG PACKAGE... installs
# Debian packages, as root or through sudo, keeping the packages and the
# package lists in the user's cache folder (apt's own cache is emptied after
# every install on many images), so a second run on the same machine
# downloads nothing. TAG starts its messages. It exits the script with a
# message when apt-get or root is not to be had.

apt_install() {
  local tag=$1
  shift
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "$tag: $* missing and apt-get is not available; install them with your package manager" >&2
    exit 1
  fi
  local sudo=
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "$tag: installing $* needs root (or sudo)" >&2; exit 1; }
    sudo=sudo
  fi
  local cache=${AGENTOS_APT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agentos-ci/apt}
  mkdir -p "$cache/archives/partial" "$cache/lists/partial"
  # As root: apt's download user cannot enter a home folder.
  local apt=(env DEBIAN_FRONTEND=noninteractive apt-get -qq -o "Dir::Cache::Archives=$cache/archives" -o "Dir::State::Lists=$cache/lists"
    -o APT::Keep-Downloaded-Packages=true -o APT::Sandbox::User=root)
  if [ -n "$sudo" ]; then apt=("$sudo" "${apt[@]}"); fi
  echo "$tag: installing $* (packages cached in $cache)"
  if [ -z "$(find "$cache/lists" -maxdepth 1 -name '*_Packages*' -mtime -7 2>/dev/null | head -n 1)" ]; then
    "${apt[@]}" update
    "${apt[@]}" install -y --no-install-recommends "$@" >/dev/null
  elif ! "${apt[@]}" install -y --no-install-recommends "$@" >/dev/null; then
    "${apt[@]}" update # the cached lists name versions the mirror no longer has
    "${apt[@]}" install -y --no-install-recommends "$@" >/dev/null
  fi
}
