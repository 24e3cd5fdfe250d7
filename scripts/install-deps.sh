#!/usr/bin/env bash
# Installs what context-pack builds and tests with, from Debian's packages, plus any packages
# named as arguments (scripts/package.sh and scripts/fuzz.sh name theirs). Does nothing when
# everything is already there, or when CONTEXT_PACK_SKIP_DEPS=1 (the Debian 13 root of
# scripts/ci/debian13.sh, made with its own package list).
set -euo pipefail
[ "${CONTEXT_PACK_SKIP_DEPS:-}" = 1 ] && exit 0
# The same names on Debian 12 and 13. libgit2 is linked statically where its archives are
# present (cmake/Libgit2.cmake): the archives of its dependencies are named too (libgit2-dev
# pulls most in already; Debian 13's libcrypto.a also needs libzstd's), and libdeflate's,
# which inflates objects beside it (src/git/inflate.cpp). clang-format is the format test's,
# which needs release 14 (Debian 12's; on Debian 13 the test is left out).
# Without dpkg: Homebrew's formulae where brew is (macOS), else nothing is installed and cmake
# says what it could not find.
if ! command -v dpkg-query >/dev/null 2>&1; then
    if command -v brew >/dev/null 2>&1; then
        missing=()
        for f in cmake pkg-config libgit2 cli11 fmt nlohmann-json catch2; do
            brew list --versions "$f" >/dev/null 2>&1 || missing+=("$f")
        done
        [ ${#missing[@]} -eq 0 ] && exit 0
        echo "installing with Homebrew: ${missing[*]}" >&2
        brew install "${missing[@]}" >&2
    else
        echo "install-deps.sh: no apt-get and no Homebrew here; install a C++20 compiler, cmake," \
            "pkg-config, git, libgit2 (1.5 to 1.9), CLI11, fmt, nlohmann/json and Catch2" \
            "(README: Install)" >&2
    fi
    exit 0
fi
packages=(g++ cmake make pkg-config git libgit2-dev libmbedtls-dev libssh2-1-dev libssl-dev
          libzstd-dev libhttp-parser-dev libpcre2-dev zlib1g-dev libdeflate-dev libcli11-dev libfmt-dev
          nlohmann-json3-dev catch2 clang-format strace "$@")
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
