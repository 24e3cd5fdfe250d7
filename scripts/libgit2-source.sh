#!/usr/bin/env bash
# Prints the directory of libgit2 1.9's source as Debian 13 (trixie) ships it, Debian's own
# patches applied: the source that cmake/Libgit2.cmake builds statically when given it
# (CONTEXT_PACK_LIBGIT2_SOURCE), with our patches (patches/libgit2/) on a copy in the build tree.
#   scripts/libgit2-source.sh [--fresh]
# It comes with `apt-get source` through a deb-src line for the Debian archive this machine's
# apt reads (scripts/debian-mirror.sh; CONTEXT_PACK_DEBIAN_MIRROR replaces it), with apt state
# of its own: the system's sources are not touched. What the build needs of it (CMakeLists.txt,
# cmake/, include/, src/, deps/, COPYING) is kept under
# ${XDG_CACHE_HOME:-~/.cache}/context-pack/libgit2/ (CONTEXT_PACK_CACHE replaces
# ~/.cache/context-pack), so that later runs and other build trees take it without a network.
# Needs apt-get and dpkg-source (dpkg-dev, which scripts/install-deps.sh installs).
set -euo pipefail
checkout="$(cd "$(dirname "$0")/.." && pwd)"
fresh=0
for arg in "$@"; do
    case $arg in
        --fresh) fresh=1 ;;
        *) echo "usage: scripts/libgit2-source.sh [--fresh]" >&2; exit 2 ;;
    esac
done
# The release whose source is taken: the version cmake/Libgit2.cmake and patches/libgit2/ are
# written for.
suite=trixie
series=1.9
cache=${CONTEXT_PACK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/context-pack}/libgit2
mkdir -p "$cache"
exec 9>"$cache/.lock"  # one fetch at a time per cache
flock 9
[ "$fresh" -eq 1 ] && rm -rf "${cache:?}"/libgit2-*
for dir in "$cache"/libgit2-"$series".*; do
    if [ -f "$dir/.complete" ]; then
        echo "$dir"
        exit 0
    fi
done

for tool in apt-get dpkg-source; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "libgit2-source.sh: no $tool here: libgit2's source comes from Debian's archive;" \
            "elsewhere build with the system's libgit2 (scripts/build.sh --shared)" >&2
        exit 1
    fi
done
mirror=${CONTEXT_PACK_DEBIAN_MIRROR:-$("$checkout/scripts/debian-mirror.sh")}
work=$(mktemp -d "$cache/fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
apt=$work/apt
mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$work/src"
printf 'deb-src %s %s main\ndeb-src %s %s-updates main\n' "$mirror" "$suite" "$mirror" "$suite" \
    >"$apt/sources.list"
opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
      -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt" -o 'Acquire::Retries=3')
[ "$(id -u)" -eq 0 ] && opts+=(-o APT::Sandbox::User=root)
if ! apt-get "${opts[@]}" -qq update >"$work/apt.log" 2>&1; then
    cat "$work/apt.log" >&2
    echo "libgit2-source.sh: cannot read $suite's sources from $mirror" \
        "(set CONTEXT_PACK_DEBIAN_MIRROR to a Debian mirror)" >&2
    exit 1
fi
if ! (cd "$work/src" && apt-get "${opts[@]}" -qq source "libgit2/$suite") >>"$work/apt.log" 2>&1; then
    cat "$work/apt.log" >&2
    echo "libgit2-source.sh: apt-get source libgit2/$suite failed" >&2
    exit 1
fi
unpacked=$(echo "$work"/src/libgit2-*/)
unpacked=${unpacked%/}
dsc=$(echo "$work"/src/libgit2_*.dsc)
version=$(sed -n 's/^Version: //p' "$dsc")  # Debian's, such as 1.9.0+ds-2+deb13u1
upstream=${version%%+*}
upstream=${upstream%%-*}
case $upstream in
    "$series".*) ;;
    *) echo "libgit2-source.sh: $suite has libgit2 $version, not $series" >&2; exit 1 ;;
esac
dest=$cache/libgit2-$upstream
rm -rf "$dest"
mkdir -p "$dest"
(cd "$unpacked" && cp -r CMakeLists.txt COPYING cmake include src deps "$dest/")
echo "$version" >"$dest/debian-version"
touch "$dest/.complete"
echo "$dest"
