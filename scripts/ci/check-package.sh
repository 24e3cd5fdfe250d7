#!/usr/bin/env bash
# Builds the .deb (scripts/package.sh) and checks what a user installs: lintian reports no
# error; the binary holds the libgit2 built here (Static-Built-Using names its source) and
# loads no libgit2.so and no network, TLS or ssh library; and, unpacked
# into a scratch root with dpkg -x, the binary runs (--version is the package's version), the
# git-context-pack link and the completion links resolve, and man renders both pages.
#   scripts/ci/check-package.sh [DEB]   (with DEB: check that package instead of building one)
# Lintian's warnings and notes are printed; only errors fail. Installs lintian and man-db
# when missing.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
"$root/scripts/install-deps.sh" lintian man-db
deb=${1:-$("$root/scripts/package.sh")}

failures=0
ok() { echo "ok: $*"; }
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# lintian refuses to run as root unless told it may.
lintian_args=(--fail-on error --display-info --tag-display-limit 0)
[ "$(id -u)" -ne 0 ] || lintian_args+=(--allow-root)
if out=$(lintian "${lintian_args[@]}" "$deb" 2>&1); then
    ok "lintian: no error${out:+; it says:}"
else
    fail "lintian found errors:"
fi
[ -z "$out" ] || echo "$out" | sed 's/^/    /'

version=$(dpkg-deb -f "$deb" Version)
depends=$(dpkg-deb -f "$deb" Depends)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/context-pack-deb-root.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
dpkg -x "$deb" "$scratch"
bin=$scratch/usr/bin/context-pack

# The libgit2 built here, declared; no shared libgit2 and nothing of the network loaded.
static_built_using=$(dpkg-deb -f "$deb" Static-Built-Using)
needed=$(readelf -d "$bin" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')
if [[ $needed == *libgit2* ]] || [[ $depends == *libgit2* ]] || [[ $needed == *libstdc++* ]]; then
    fail "the binary loads a shared libgit2 or libstdc++: NEEDED $needed; Depends: $depends"
else
    ok "no shared libgit2 or libstdc++: NEEDED $needed"
fi
if echo "$needed" | grep -qiE 'ssl|crypto|ssh|mbed|gnutls|gssapi|krb5|http_parser'; then
    fail "the binary loads a network library: $needed"
else
    ok "no network, TLS or ssh library loaded"
fi
[[ $static_built_using == "libgit2 (= 1.9."* ]] && ok "Static-Built-Using: $static_built_using" ||
    fail "Static-Built-Using does not name libgit2 1.9: '$static_built_using'"
ok "Depends: $depends"
if readelf -S "$bin" | grep -q '\.symtab'; then
    fail "the binary is not stripped"
else
    ok "the binary is stripped ($(du -k "$bin" | cut -f1) KiB)"
fi

out=$("$bin" --version 2>&1) || true
[[ $out == "context-pack $version (libgit2 "* ]] && ok "context-pack --version: $out" ||
    fail "context-pack --version printed '$out', the package is $version"
out=$("$scratch/usr/bin/git-context-pack" --version 2>&1) || true
[[ $out == "context-pack $version (libgit2 "* ]] && ok "git-context-pack --version: $out" ||
    fail "git-context-pack --version printed '$out'"
for link in usr/share/bash-completion/completions/git-context-pack \
            usr/share/zsh/vendor-completions/_git-context-pack; do
    if [ -L "$scratch/$link" ] && [ -s "$scratch/$link" ]; then
        ok "/$link is a link to $(readlink "$scratch/$link")"
    else
        fail "/$link is not a link to an installed file"
    fi
done

for page in context-pack git-context-pack; do
    file=$scratch/usr/share/man/man1/$page.1.gz
    shown=$(MANWIDTH=80 man -P cat -l "$file" 2>/dev/null | head -n 5) || true
    title=$(echo "$page" | tr '[:lower:]' '[:upper:]')
    if [[ $shown == *"$title(1)"* ]] && [[ $shown == *NAME* ]]; then
        ok "man -l $page.1.gz renders $title(1)"
    else
        fail "man -l $file showed: $shown"
    fi
done

if [ "$failures" -ne 0 ]; then
    echo "$failures package check(s) failed: $deb" >&2
    exit 1
fi
echo "all package checks passed: $deb"
