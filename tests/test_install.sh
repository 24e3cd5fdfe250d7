#!/usr/bin/env bash
# Installs the build into a temporary prefix and checks what a user gets there:
# `git context-pack` through the git-context-pack link, both man pages (and that man and
# `git context-pack --help` find the git one), the bash and zsh completions (the git-named
# ones links to them), and a stripped binary for a Release or MinSizeRel build when STRIP
# (CONTEXT_PACK_INSTALL_STRIP) is ON.
#   tests/test_install.sh BUILD_DIR [CONFIG [STRIP]]
# Checks that need a missing tool (man, zsh) are skipped with a message; the others still run.
set -uo pipefail

build=${1:?usage: test_install.sh BUILD_DIR [CONFIG]}
config=${2:-}
strip=${3:-OFF}
prefix=$(mktemp -d "${TMPDIR:-/tmp}/context-pack-install.XXXXXX")
trap 'rm -rf "$prefix"' EXIT

failures=0
ok() { echo "ok: $*"; }
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
skip() { echo "SKIP: $*"; }

unset DESTDIR
if ! cmake --install "$build" --prefix "$prefix" ${config:+--config "$config"}; then
    echo "FAIL: cmake --install $build --prefix $prefix" >&2
    exit 1
fi

bin=$prefix/bin
man1=$prefix/share/man/man1
bash_completion=$prefix/share/bash-completion/completions/context-pack
zsh_completion=$prefix/share/zsh/vendor-completions/_context-pack
export PATH="$bin:$PATH"
# git's own settings must not matter (help.format, a pager, aliases).
export HOME="$prefix" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null

# The binary and the git subcommand.
[ -x "$bin/context-pack" ] && ok "$bin/context-pack installed" || fail "$bin/context-pack missing"
if [ -L "$bin/git-context-pack" ] && [ "$(readlink "$bin/git-context-pack")" = context-pack ]; then
    ok "git-context-pack is a symlink to context-pack"
else
    fail "$bin/git-context-pack is not a symlink to context-pack: $(ls -l "$bin/git-context-pack" 2>&1)"
fi
case "$config:$strip" in
    Release:ON | MinSizeRel:ON)
        if ! readelf -h "$bin/context-pack" >/dev/null 2>&1; then
            skip "readelf cannot read $bin/context-pack (not installed, or no ELF file, as on" \
                "macOS): not checking that the binary is stripped"
        elif readelf -S "$bin/context-pack" | grep -q '\.symtab'; then
            fail "a $config install left the binary's symbols in: $(du -k "$bin/context-pack")"
        else
            ok "a $config install strips the binary ($(du -k "$bin/context-pack" | cut -f1) KiB)"
        fi
        ;;
esac
version=$(git context-pack --version 2>&1)
if [[ $version == context-pack\ * ]]; then
    ok "git context-pack --version: $version"
else
    fail "git context-pack --version printed: $version"
fi

# The man pages: one source, two names; the git one names `git context-pack`.
for page in context-pack git-context-pack; do
    if [ -s "$man1/$page.1" ] && grep -q '^\.TH ' "$man1/$page.1"; then
        ok "man page $page.1 installed"
    else
        fail "man page $man1/$page.1 missing or not roff"
    fi
done
grep -q '^git\\-context\\-pack \\- ' "$man1/git-context-pack.1" &&
    grep -q '^\.B git context\\-pack$' "$man1/git-context-pack.1" &&
    ok "git-context-pack.1's NAME and SYNOPSIS say git context-pack" ||
    fail "git-context-pack.1's NAME or SYNOPSIS does not say git context-pack"
for section in NAME SYNOPSIS DESCRIPTION OPTIONS STATUSES "EXIT STATUS" ENVIRONMENT \
    "SPEC FORMAT" EXAMPLES "SEE ALSO"; do
    grep -q "^\.SH $section\$" "$man1/context-pack.1" || fail "context-pack.1 has no $section section"
done
if command -v man >/dev/null 2>&1; then
    found=$(MANPATH="$prefix/share/man" man -w git-context-pack 2>&1)
    if [ "$found" = "$man1/git-context-pack.1" ]; then
        ok "MANPATH=$prefix/share/man man -w git-context-pack: $found"
    else
        fail "MANPATH=$prefix/share/man man -w git-context-pack printed: $found"
    fi
    # git runs `man git-context-pack` for `git context-pack --help`.
    shown=$(MANPATH="$prefix/share/man" MANPAGER=cat PAGER=cat MANWIDTH=80 \
        git context-pack --help 2>&1 | head -n 1)
    if [[ $shown == *GIT-CONTEXT-PACK\(1\)* ]]; then
        ok "git context-pack --help opens git-context-pack(1)"
    else
        fail "git context-pack --help showed: $shown"
    fi
else
    skip "man is not installed: not checking that man and git context-pack --help find the page"
fi

# bash: the completion loads, registers both commands and the function git's completion calls.
if out=$(bash --norc --noprofile -c "source '$bash_completion' && complete -p context-pack &&
        complete -p git-context-pack && declare -F _git_context_pack" 2>&1); then
    ok "bash completion: $(echo "$out" | tr '\n' ' ')"
else
    fail "bash completion did not load: $out"
fi
for link in "$prefix/share/bash-completion/completions/git-context-pack:context-pack" \
            "$prefix/share/zsh/vendor-completions/_git-context-pack:_context-pack"; do
    if [ -L "${link%:*}" ] && [ "$(readlink "${link%:*}")" = "${link##*:}" ] && [ -s "${link%:*}" ]; then
        ok "${link%:*} is a link to ${link##*:}"
    else
        fail "${link%:*} is not a link to ${link##*:}: $(ls -l "${link%:*}" 2>&1)"
    fi
done
# A completion run: --format's values.
out=$(bash --norc --noprofile -c "source '$bash_completion'
    COMP_WORDS=(context-pack --format ''); COMP_CWORD=2; _context_pack; echo \"\${COMPREPLY[*]}\"" 2>&1)
[ "$out" = "text json jsonl quickfix" ] && ok "bash completes --format with: $out" ||
    fail "bash completion of --format gave: $out"

# zsh: the completion parses.
if command -v zsh >/dev/null 2>&1; then
    for f in "$zsh_completion" "$prefix/share/zsh/vendor-completions/_git-context-pack"; do
        if out=$(zsh -n "$f" 2>&1); then
            ok "zsh -n accepts $f"
        else
            fail "zsh -n rejects $f: $out"
        fi
    done
else
    [ -s "$zsh_completion" ] && ok "zsh completion installed" || fail "$zsh_completion missing"
    skip "zsh is not installed: not checking the zsh completion's syntax"
fi

if [ "$failures" -ne 0 ]; then
    echo "$failures install check(s) failed" >&2
    exit 1
fi
echo "all install checks passed"
