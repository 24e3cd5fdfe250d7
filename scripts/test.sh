#!/usr/bin/env bash
# Sets everything up, builds, and runs the whole test suite through ctest.
#   scripts/test.sh [--sanitize]   (--sanitize: the same suite under ASan and UBSan)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/build"
[ "${1:-}" = "--sanitize" ] && dir="$root/build-asan"
"$root/scripts/build.sh" "$@"
# Full unwinding, so that the narrow suppressions of libgit2's own leaks can match.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:fast_unwind_on_malloc=0 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    LSAN_OPTIONS="suppressions=$root/tests/lsan.supp:print_suppressions=0" \
    ctest --test-dir "$dir" --output-on-failure -j"$(getconf _NPROCESSORS_ONLN)"
