#!/usr/bin/env bash
# Configures and builds context-pack and its tests into build/ (pass extra cmake -D options).
set -euo pipefail
cd "$(dirname "$0")/.."
"$(dirname "$0")/install-deps.sh"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCONTEXT_PACK_WERROR=ON "$@" >/dev/null
cmake --build build -j"$(nproc)"
