#!/usr/bin/env bash
# Builds context-pack and runs its whole test suite in a Debian 13 (trixie) root, against
# trixie's shared libgit2 1.9, Catch2 3, fmt 10, CLI11 2.4, g++ 14 and git 2.47 (the gates,
# which check the tree rather than a build, are the Debian 12 suite's).
#   scripts/ci/debian13.sh [--fresh] [--package | --readme | --root]
# --package builds trixie's .deb there instead (scripts/package.sh, from a copy of the checkout
# in /work/package-src of the root, into /work/build-deb, both kept between runs apart from the
# suite's) and checks it with scripts/ci/check-package.sh: lintian, then the binary and man
# pages run from a scratch root.
# --readme runs the README's two commands as a new user on Debian 13 would, in /work/readme-src:
# scripts/demo.sh, then scripts/test.sh, which install what they need with apt-get, build
# libgit2 1.9 from its source package and run the suite on it. It runs on a throwaway overlay
# of the root, so the cached root stays as it was.
# --root makes the root (when it is not made yet) and stops: .ci/run makes it beside the Debian
# 12 parts, as its work is mostly downloading and unpacking.
# ccache, in the root, keeps what each build compiled (/root/.cache/ccache) for the next one:
# the README's build reads the suite's (it writes only to its overlay), and the package's too.
# The root is made once with mmdebstrap from the Debian archive this machine's apt uses and
# kept under ${XDG_CACHE_HOME:-~/.cache}/context-pack/debian13/ (CONTEXT_PACK_CACHE replaces
# ~/.cache/context-pack), keyed on the package list, with the build directory inside it, so a
# second run only copies the checkout and builds what changed. --fresh makes the root again.
# The checkout is copied into the root (never written to); the suite runs there under chroot
# in a mount namespace of its own, as root (through sudo otherwise). The npm tests install
# their pinned packages from npm's registry there as on the host (skipped when unreachable).
# The format test is not part of this run: it is tied to clang-format 14, which trixie does
# not ship, and the Debian 12 suite runs it.
set -euo pipefail

if [ "${1:-}" = "--in-root" ]; then
    # Inside the root: configure, build and test, each step timed.
    jobs=${CONTEXT_PACK_JOBS:-$(nproc)}
    step() {
        local name=$1 start=$SECONDS
        shift
        "$@"
        echo "debian13: $name: $((SECONDS - start)) s" >&2
    }
    export CONTEXT_PACK_SKIP_DEPS=1
    step build /work/src/scripts/build.sh --shared
    step test ctest --test-dir /work/src/build-shared -LE gate --output-on-failure -j"$jobs"
    exit 0
fi
if [ "${1:-}" = "--in-root-readme" ]; then
    # Inside the overlay: the README's commands, as they are written there.
    cd "$(dirname "$0")/../.."
    start=$SECONDS
    ./scripts/demo.sh
    echo "debian13: README's first command (scripts/demo.sh): $((SECONDS - start)) s" >&2
    start=$SECONDS
    ./scripts/test.sh
    echo "debian13: README's second command (scripts/test.sh): $((SECONDS - start)) s" >&2
    exit 0
fi
if [ "${1:-}" = "--in-root-package" ]; then
    # Inside the root: the .deb, and its checks; the root's packages are already there.
    export CONTEXT_PACK_DEB_BUILD=/work/build-deb CONTEXT_PACK_SKIP_DEPS=1
    if ! command -v lintian >/dev/null || ! command -v dpkg-shlibdeps >/dev/null; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            dpkg-dev lintian >/dev/null
    fi
    start=$SECONDS
    src="$(cd "$(dirname "$0")/../.." && pwd)"
    deb=$("$src/scripts/package.sh")
    echo "debian13: package: $((SECONDS - start)) s" >&2
    start=$SECONDS
    "$src/scripts/ci/check-package.sh" "$deb"
    echo "debian13: package checks: $((SECONDS - start)) s" >&2
    exit 0
fi

fresh=0
mode=--in-root
srcdir=src
for arg in "$@"; do
    case $arg in
        --fresh) fresh=1 ;;
        --package) mode=--in-root-package srcdir=package-src ;;
        --readme) mode=--in-root-readme srcdir=readme-src ;;
        --root) mode=--root ;;
        *) echo "usage: scripts/ci/debian13.sh [--fresh] [--package | --readme | --root]" >&2; exit 2 ;;
    esac
done
checkout="$(cd "$(dirname "$0")/../.." && pwd)"
if [ "$(id -u)" -ne 0 ]; then
    exec sudo --preserve-env=XDG_CACHE_HOME,CONTEXT_PACK_CACHE,CONTEXT_PACK_JOBS \
        "$checkout/scripts/ci/debian13.sh" "$@"
fi
started=$SECONDS

# What the build and the whole suite need: the README's build dependencies (shared libgit2),
# git for the fixtures, Node.js and npm for the MCP SDK and JSON Schema tests, man and zsh for
# the install test, python3 for bench/ and tests/real_history/, strace for the syscall trace
# tests. --package adds dpkg-dev and lintian to the root when it first runs there (the root's
# key, and so the suite's cached root, stays the same).
packages=(g++ cmake make pkg-config git libgit2-dev zlib1g-dev catch2 libfmt-dev libcli11-dev
          nlohmann-json3-dev nodejs npm ca-certificates man-db zsh python3 strace ccache
          dpkg-dev patch libdeflate-dev libhttp-parser-dev lintian)

# The Debian archive this machine's apt reads.
mirror=${CONTEXT_PACK_DEBIAN_MIRROR:-$("$checkout/scripts/debian-mirror.sh")}

cache=${CONTEXT_PACK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/context-pack}/debian13
suites="trixie trixie-updates"
key=$(printf '%s\n' "$suites" "$mirror" "${packages[@]}" | sha256sum | cut -c1-16)
root=$cache/$key
mkdir -p "$cache"
# One run at a time per cache: another would remove or rebuild the root this one is using.
exec 9>"$cache/.lock"
if ! flock -n 9; then
    echo "debian13: another run holds $cache/.lock; waiting for it" >&2
    flock 9
fi
for old in "$cache"/*; do  # roots of other package lists, and interrupted ones
    if [ -e "$old" ] && [ "$old" != "$root" ]; then rm -rf "$old"; fi
done
[ "$fresh" -eq 1 ] && rm -rf "$root"

step_start=$SECONDS
if [ ! -f "$root/.complete" ]; then
    command -v mmdebstrap >/dev/null || "$checkout/scripts/install-deps.sh" mmdebstrap
    rm -rf "$root" "$root.new"
    echo "debian13: making a trixie root from $mirror in $root" >&2
    mmdebstrap --quiet --variant=apt --components=main --aptopt='Acquire::Retries "3"' \
        --include="$(IFS=,; echo "${packages[*]}")" trixie "$root.new" \
        "deb $mirror trixie main" "deb $mirror trixie-updates main"
    mkdir -p "$root.new/work"
    touch "$root.new/.complete"
    mv "$root.new" "$root"
    echo "debian13: root made: $((SECONDS - step_start)) s" >&2
else
    echo "debian13: root cached in $root" >&2
fi
[ "$mode" = --root ] && exit 0

# The checkout as git sees it (tracked and untracked, not ignored files; mtimes kept, so the
# build inside only redoes what changed), with the npm packages the tests installed there
# before.
step_start=$SECONDS
src=$root/work/$srcdir
rm -rf "$src.new"
mkdir -p "$src.new"
if git -C "$checkout" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$checkout" && git ls-files -z --cached --others --exclude-standard |
        tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$src.new"
else
    (cd "$checkout" && tar --exclude='./build*' --exclude=node_modules -cf - .) |
        tar -xf - -C "$src.new"
fi
for modules in tests/mcp/node_modules tests/schema/node_modules; do
    if [ -d "$src/$modules" ] && [ -d "$src.new/$(dirname "$modules")" ]; then
        mv "$src/$modules" "$src.new/$modules"
    fi
done
rm -rf "$src"
mv "$src.new" "$src"
# npm's registry as this machine reaches it: its name servers, and the certificate
# authorities it adds to Debian's (a proxy's, say), which Node.js is told to trust too.
cat /etc/resolv.conf > "$root/etc/resolv.conf"
if [ -d /usr/local/share/ca-certificates ]; then
    rm -rf "$root/usr/local/share/ca-certificates"
    cp -a /usr/local/share/ca-certificates "$root/usr/local/share/"
    chroot "$root" update-ca-certificates --fresh >/dev/null 2>&1
fi
echo "debian13: checkout copied: $((SECONDS - step_start)) s" >&2

# A mount namespace of its own: /proc, the host's /dev (the tests use pseudo-terminals) and a
# fresh /tmp, all gone when the run ends. The lock stays with this script (9>&-): a process
# the run leaves behind (git's detached auto maintenance) must not keep the next run waiting.
pass=()
for name in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY CONTEXT_PACK_JOBS \
            CP_TEST_GIT_SEED; do
    [ -n "${!name:-}" ] && pass+=("$name=${!name}")
done
# --readme: the root seen through an overlay whose writes go to a tmpfs, gone with the run.
overlay=""
if [ "$mode" = --in-root-readme ]; then
    overlay=$(mktemp -d)
    trap 'rmdir "$overlay" 2>/dev/null || true' EXIT
fi
unshare --mount --fork -- /bin/sh -eu -c '
    root=$1 overlay=$2
    shift 2
    if [ -n "$overlay" ]; then
        mount -t tmpfs tmpfs "$overlay"
        mkdir "$overlay/upper" "$overlay/work" "$overlay/merged"
        mount -t overlay overlay \
            -o "lowerdir=$root,upperdir=$overlay/upper,workdir=$overlay/work" "$overlay/merged"
        root=$overlay/merged
    fi
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    mount -t tmpfs tmpfs "$root/tmp"
    exec chroot "$root" "$@"' sh "$root" "$overlay" \
    /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" \
    NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt ${pass[@]+"${pass[@]}"} \
    /bin/bash "/work/$srcdir/scripts/ci/debian13.sh" "$mode" 9>&-
[ "$mode" = --in-root-package ] && echo "debian13: the package: $root/work/build-deb/" >&2
echo "debian13: total: $((SECONDS - started)) s" >&2
