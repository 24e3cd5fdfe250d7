#!/usr/bin/env bash
# Runs build-windows/context-pack.exe under wine beside the Linux build and checks that they
# print the same, byte for byte, with the same exit status.
#   scripts/windows-smoke.sh [LINUX_BINARY [WINDOWS_EXE]]
# (defaults: build/context-pack and build-windows/context-pack.exe). The fixture repositories
# are made by Linux git: the demo (fixtures/demo.sh: lines moved, an edit inside an anchor, a
# staged rename, a deleted file, an unstaged delete beside an untracked copy, uncommitted
# edits), and a repository of CRLF files (committed as they are, and converted by
# `text eol=crlf`) with a working tree that changes them, staged and not (SAME, MOVED,
# TOUCHED, RENAMED, GONE, NEW, UNRESOLVED and SYMBOL_MISSING among them). The demo runs in
# every output format, at the base and against a commit. The wine prefix is kept under
# ${XDG_CACHE_HOME:-~/.cache}/context-pack/wine (CONTEXT_PACK_CACHE replaces
# ~/.cache/context-pack).
set -euo pipefail
checkout="$(cd "$(dirname "$0")/.." && pwd)"
linux=$(realpath "${1:-$checkout/build/context-pack}")
exe=$(realpath "${2:-$checkout/build-windows/context-pack.exe}")
# Debian's wine64 installs its loader as /usr/lib/wine/wine64; the wine package puts it on
# PATH.
find_wine() { command -v wine64 || command -v wine || { [ -x /usr/lib/wine/wine64 ] && echo /usr/lib/wine/wine64; }; }
wine=$(find_wine || true)
if [ -z "$wine" ]; then
    "$checkout/scripts/install-deps.sh" wine64
    wine=$(find_wine)
fi
cache=${CONTEXT_PACK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/context-pack}/wine
mkdir -p "$cache"
# wine decodes the arguments by the locale: UTF-8, as they are written here.
export WINEPREFIX=$cache/prefix WINEDEBUG=-all LC_ALL=C.UTF-8
[ -d "$WINEPREFIX" ] || "$wine" wineboot --init >/dev/null 2>&1

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
checks=0

# The same command by both builds in `dir`: stdout and exit status must match.
same() {
    local name=$1 dir=$2
    shift 2
    local lout=$work/out.linux wout=$work/out.windows lrc=0 wrc=0
    (cd "$dir" && "$linux" "$@") >"$lout" 2>"$work/err.linux" || lrc=$?
    (cd "$dir" && "$wine" "$exe" "$@") >"$wout" 2>"$work/err.windows" || wrc=$?
    checks=$((checks + 1))
    if [ "$lrc" != "$wrc" ] || ! cmp -s "$lout" "$wout"; then
        failures=$((failures + 1))
        echo "windows smoke: $name: differs (exit $lrc on Linux, $wrc under wine)" >&2
        diff "$lout" "$wout" | head -n 20 >&2 || true
        head -n 5 "$work/err.windows" >&2
    else
        echo "windows smoke: $name: same (exit $lrc, $(wc -c <"$lout") bytes)" >&2
    fi
}

version=$("$wine" "$exe" --version | tr -d '\r')
echo "windows smoke: --version: $version" >&2
[ "$version" = "$("$linux" --version)" ] || { echo "windows smoke: --version differs" >&2; failures=$((failures + 1)); }

export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=Smoke GIT_AUTHOR_EMAIL=smoke@example.invalid
export GIT_COMMITTER_NAME=Smoke GIT_COMMITTER_EMAIL=smoke@example.invalid
export GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z

"$checkout/fixtures/demo.sh" "$work/demo" >/dev/null
demo=$work/demo/repo
same "demo" "$demo" ../plan.json
for format in json jsonl quickfix; do
    same "demo --format $format" "$demo" --format "$format" ../plan.json
done
same "demo --table" "$demo" --table ../plan.json
same "demo --at-base" "$demo" --at-base ../plan.json
same "demo --target HEAD" "$demo" --target HEAD ../plan.json
same "demo --jobs 1" "$demo" --jobs 1 --format json ../plan.json

# CRLF files: one committed with CRLF as it is, one converted by its attribute, both edited
# in the working tree (lines added above the anchors, one anchored line changed).
crlf=$work/crlf
git init -q -b main "$crlf"
printf '*.txt text eol=crlf\n' >"$crlf/.gitattributes"
printf 'one\r\ntwo\r\nthree\r\nfour\r\nfive\r\n' >"$crlf/raw.c"
printf 'alpha\nbeta\ngamma\ndelta\n' >"$crlf/notes.txt"
printf 'x\r\ny\r\nz\r\n' >"$crlf/caf\303\251.c"  # a name beyond ASCII, given as an argument
git -C "$crlf" add -A
git -C "$crlf" commit -q -m base
printf 'zero\r\none\r\ntwo\r\nthree\r\nFOUR\r\nfive\r\n' >"$crlf/raw.c"
printf 'intro\r\nalpha\r\nbeta\r\ngamma\r\ndelta\r\n' >"$crlf/notes.txt"
printf 'new\r\n' >"$crlf/untracked.c"
base=$(git -C "$crlf" rev-parse HEAD)
for format in text json; do
    same "crlf --format $format" "$crlf" --format "$format" --base "$base" \
        --anchor raw.c:2-3 --anchor raw.c:4 --anchor notes.txt:2-3 --anchor gone.c:1 \
        --anchor raw.c:40
done
git -C "$crlf" add raw.c
same "crlf staged" "$crlf" --base "$base" --anchor raw.c:2-4 --anchor notes.txt:1
same "a UTF-8 path" "$crlf" --base "$base" --anchor "$(printf 'caf\303\251.c'):2-3"

echo "windows smoke: $((checks - failures)) of $checks the same" >&2
[ "$failures" -eq 0 ]
