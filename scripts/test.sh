#!/usr/bin/env bash
# Sets everything up, builds, and runs the whole test suite through ctest.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/build.sh" "$@"
ctest --test-dir "$root/build" --output-on-failure -j"$(nproc)"
