#!/usr/bin/env bash
# Configures and builds context-pack and its tests.
#   scripts/build.sh [--sanitize] [cmake -D options...]
# --sanitize builds into build-asan with AddressSanitizer and UndefinedBehaviorSanitizer.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
dir="$root/build"
if [ "${1:-}" = "--sanitize" ]; then
    shift
    dir="$root/build-asan"
    set -- -DCONTEXT_PACK_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug "$@"
fi
cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCONTEXT_PACK_WERROR=ON "$@" >/dev/null
cmake --build "$dir" -j"$(nproc)"
