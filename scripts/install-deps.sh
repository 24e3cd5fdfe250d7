#!/usr/bin/env bash
# Installs what context-pack builds with, from Debian's packages, and with --tests what its test
# suite needs too, plus any packages named as arguments (scripts/package.sh and scripts/fuzz.sh
# name theirs). Does nothing when everything is already there, or when CONTEXT_PACK_SKIP_DEPS=1
# (the Debian 13 root of scripts/ci/debian13.sh, made with its own package list).
#   scripts/install-deps.sh [--tests] [--shared] [package...]
# The build: a compiler, cmake, the header libraries, and what the libgit2 built here needs
# (dpkg-dev, which fetches and unpacks its source package with patch, zlib, libdeflate,
# http-parser); --shared: the system's libgit2 instead. --tests: Catch2, strace (the syscall
# trace), git (fixtures) and clang-format 14 (the format test; Debian 12's, which Debian 13
# does not ship: there the test is left out), and Node.js with npm where there is no npm yet.
# Without dpkg: Homebrew's formulae where brew is (macOS, the shared libgit2), else nothing is
# installed and cmake says what it could not find.
set -euo pipefail
[ "${CONTEXT_PACK_SKIP_DEPS:-}" = 1 ] && exit 0
tests=0
shared=0
extra=()
for arg in "$@"; do
    case $arg in
        --tests) tests=1 ;;
        --shared) shared=1 ;;
        *) extra+=("$arg") ;;
    esac
done
if ! command -v dpkg-query >/dev/null 2>&1; then
    if command -v brew >/dev/null 2>&1; then
        missing=()
        formulae=(cmake pkg-config libgit2 cli11 fmt nlohmann-json)
        [ "$tests" -eq 1 ] && formulae+=(catch2)
        for f in "${formulae[@]}"; do
            brew list --versions "$f" >/dev/null 2>&1 || missing+=("$f")
        done
        [ ${#missing[@]} -eq 0 ] && exit 0
        echo "installing with Homebrew: ${missing[*]}" >&2
        brew install "${missing[@]}" >&2
    else
        echo "install-deps.sh: no apt-get and no Homebrew here; install a C++20 compiler, cmake," \
            "pkg-config, git, libgit2 (1.5 to 1.9), CLI11, fmt, nlohmann/json and Catch2" \
            "(docs/building.md)" >&2
    fi
    exit 0
fi
packages=(g++ cmake make pkg-config git libcli11-dev libfmt-dev nlohmann-json3-dev zlib1g-dev)
if [ "$shared" -eq 1 ]; then
    packages+=(libgit2-dev)
else
    packages+=(dpkg-dev patch libdeflate-dev libhttp-parser-dev)
fi
if [ "$tests" -eq 1 ]; then
    packages+=(catch2 strace)
    [ "$(. /etc/os-release && echo "${VERSION_CODENAME:-}")" = bookworm ] && packages+=(clang-format-14)
    command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)
fi
packages+=(${extra[@]+"${extra[@]}"})
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
