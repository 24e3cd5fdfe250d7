#!/usr/bin/env bash
# Configures and builds context-pack, installing what it needs first (scripts/install-deps.sh).
#   scripts/build.sh [--configure] [--tests] [--sanitize | --shared] [cmake -D options...]
# By default: build/, Release, the binary alone, on libgit2 1.9 built here from Debian 13's
# source package (scripts/libgit2-source.sh fetches it; cmake/Libgit2.cmake builds it once into
# build/libgit2/). --tests: the test suite too. --shared: build-shared/, against the system's
# shared libgit2 (hunks through its public API), tests included. --sanitize: build-asan/,
# Debug under AddressSanitizer and UndefinedBehaviorSanitizer, against the system's shared
# libgit2 too (whose code is not instrumented either way), tests included.
# --configure stops after configuring (scripts/test.sh runs the gates before the build).
# A compiler cache is used where ccache is installed (CCACHE_DIR says where it keeps its files).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tests=OFF
mode=static
configure_only=0
while [ $# -gt 0 ]; do
    case $1 in
        --configure) configure_only=1 ;;
        --tests) tests=ON ;;
        --sanitize) mode=sanitize tests=ON ;;
        --shared) mode=shared tests=ON ;;
        *) break ;;
    esac
    shift
done
deps=()
[ "$tests" = ON ] && deps+=(--tests)
[ "$mode" != static ] && deps+=(--shared)
"$root/scripts/install-deps.sh" ${deps[@]+"${deps[@]}"}
dir="$root/build"
options=(-DCMAKE_BUILD_TYPE=Release)
case $mode in
    sanitize)
        dir="$root/build-asan"
        options=(-DCONTEXT_PACK_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
                 -DCONTEXT_PACK_LIBGIT2_LINK=shared) ;;
    shared)
        dir="$root/build-shared"
        options+=(-DCONTEXT_PACK_LIBGIT2_LINK=shared) ;;
esac
if [ "$mode" = static ]; then
    source=$("$root/scripts/libgit2-source.sh")
    options+=(-DCONTEXT_PACK_LIBGIT2_SOURCE="$source")
fi
# The binary alone keeps a build tree's tests where an earlier run configured them.
if [ "$tests" = OFF ] && grep -q '^CONTEXT_PACK_TESTS:BOOL=ON' "$dir/CMakeCache.txt" 2>/dev/null; then
    tests=ON
    target=(--target context-pack)
else
    target=()
    [ "$tests" = OFF ] && target=(--target context-pack)
fi
# Paths under the checkout hashed as relative ones, so that build trees share what they compile.
if command -v ccache >/dev/null 2>&1; then
    export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-true}
    options+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
# Warnings are errors where CI builds (Debian's compilers); elsewhere a newer compiler's new
# warning does not stop the build.
werror=ON
command -v dpkg-query >/dev/null 2>&1 || werror=OFF
cmake -S "$root" -B "$dir" -DCONTEXT_PACK_WERROR=$werror -DCONTEXT_PACK_TESTS=$tests \
    "${options[@]}" "$@" >/dev/null
[ "$configure_only" -eq 1 ] && exit 0
cmake --build "$dir" -j"$(getconf _NPROCESSORS_ONLN)" ${target[@]+"${target[@]}"}
