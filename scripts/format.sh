#!/usr/bin/env bash
# Formats every C++ file of the tree as .clang-format says, with the clang-format the
# `format` test checks against (clang-format 14, Debian 12's).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
tool="$(command -v clang-format-14 || command -v clang-format)"
git ls-files -z -- 'src/*.cpp' 'src/*.hpp' 'include/*.hpp' 'tests/*.cpp' 'tests/*.hpp' |
    xargs -0 "$tool" -i
