#!/usr/bin/env bash
# Sets everything up, builds, and runs the whole test suite through ctest: the cheap gates
# first (format, layering, portable commands: ctest's label "gate"), before the build, then
# everything else.
#   scripts/test.sh [--sanitize | --shared]
# --sanitize: the same suite under ASan and UBSan against the system's shared libgit2
# (build-asan/), its randomised tests in a quarter of their size (CONTEXT_PACK_TEST_SCALE),
# as each case costs several times as much there; --shared: against the system's shared
# libgit2 (build-shared/). Without either: build/, on the libgit2 built here, as scripts/demo.sh
# builds it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/build"
case ${1:-} in
    --sanitize) dir="$root/build-asan" && export CONTEXT_PACK_TEST_SCALE=${CONTEXT_PACK_TEST_SCALE:-0.25} ;;
    --shared) dir="$root/build-shared" ;;
    "") ;;
    *) echo "usage: scripts/test.sh [--sanitize | --shared]" >&2; exit 2 ;;
esac
jobs=$(getconf _NPROCESSORS_ONLN)
"$root/scripts/build.sh" --configure --tests "$@"
ctest --test-dir "$dir" -L gate --output-on-failure -j"$jobs"
"$root/scripts/build.sh" --tests "$@"
# Full unwinding, so that the narrow suppressions of libgit2's own leaks can match.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:fast_unwind_on_malloc=0 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    LSAN_OPTIONS="suppressions=$root/tests/lsan.supp:print_suppressions=0" \
    ctest --test-dir "$dir" -LE gate --output-on-failure -j"$jobs"
