#!/usr/bin/env bash
# Configures and builds context-pack and its tests.
#   scripts/build.sh [--sanitize | --shared] [cmake -D options...]
# --sanitize builds into build-asan with AddressSanitizer and UndefinedBehaviorSanitizer;
# --shared builds into build-shared against the shared libgit2 (CONTEXT_PACK_LIBGIT2_LINK,
# cmake/Libgit2.cmake), with hunks through libgit2's public API. By default libgit2 is linked
# statically where its archives are present, as Debian's libgit2-dev installs them.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
dir="$root/build"
if [ "${1:-}" = "--sanitize" ]; then
    shift
    dir="$root/build-asan"
    set -- -DCONTEXT_PACK_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug "$@"
elif [ "${1:-}" = "--shared" ]; then
    shift
    dir="$root/build-shared"
    set -- -DCONTEXT_PACK_LIBGIT2_LINK=shared "$@"
fi
# Warnings are errors where CI builds (Debian's compilers); elsewhere a newer compiler's new
# warning does not stop the build.
werror=ON
command -v dpkg-query >/dev/null 2>&1 || werror=OFF
cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCONTEXT_PACK_WERROR=$werror "$@" >/dev/null
cmake --build "$dir" -j"$(getconf _NPROCESSORS_ONLN)"
