# bash completion for context-pack and `git context-pack`                 -*- shell-script -*-
#
# Installed as share/bash-completion/completions/context-pack, and again as git-context-pack:
# git's completion calls _git_context_pack for `git context-pack <TAB>`, and bash-completion
# loads it from the file of that name. Works without bash-completion too (source it).
#
# Revisions come from `git for-each-ref` in the repository given with -C (else the current
# one); this script may run git, context-pack itself never does.

# Fills COMPREPLY. $1: the index of the word under the cursor in the rest of the arguments,
# which are the command line from the command's name on (words split at '=' or not).
__context_pack_complete() {
    local cword=$1
    shift
    local -a words=("$@")
    local cur=${words[cword]} prev=${words[cword - 1]:-}
    local opt="" prefix=""

    # --opt=value in any of its splittings: one word, or "--opt" "=" "value".
    if [[ $cur == --*=* ]]; then
        opt=${cur%%=*}
        cur=${cur#*=}
        [[ $COMP_WORDBREAKS == *=* ]] || prefix="$opt="
    elif [[ $cur == = && $prev == --* ]]; then
        opt=$prev
        cur=""
    elif [[ $prev == = && ${words[cword - 2]:-} == --* ]]; then
        opt=${words[cword - 2]}
    elif [[ $prev == -* ]]; then
        opt=$prev
    fi

    # The repository the revisions come from: the last -C DIR before the cursor.
    local repo="" i
    for ((i = 1; i < cword; i++)); do
        if [[ ${words[i]} == -C ]]; then
            repo=${words[i + 1]:-}
        elif [[ ${words[i]} == -C?* ]]; then
            repo=${words[i]#-C}
        fi
    done
    repo=${repo/#\~/$HOME}

    COMPREPLY=()
    __context_pack_words=1
    [[ $prev == : ]] && return  # the LINE of --anchor PATH:LINE

    local -a values=()
    case $opt in
    --format)
        values=(text json jsonl quickfix) ;;
    --color)
        values=(auto always never) ;;
    --base | --target | --since)
        local refs
        # ${__git_C_args[@]}: `git -C DIR context-pack`, set by git's completion.
        refs=$(git ${__git_C_args:+"${__git_C_args[@]}"} ${repo:+-C "$repo"} \
            for-each-ref --format='%(refname:short)' refs/heads refs/tags refs/remotes 2>/dev/null)
        mapfile -t values < <(compgen -W "HEAD $refs" -- "$cur")
        COMPREPLY=("${values[@]/#/$prefix}")
        return ;;
    -C)
        __context_pack_words=0
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -d -- "$cur")
        return ;;
    --callers-in)
        __context_pack_words=0
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        return ;;
    --anchor)
        __context_pack_words=0
        compopt -o filenames -o nospace 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        return ;;
    --only | --context | --max-lines | --max-file-mib | --cache-mib | --jobs | --max-window-lines | \
        --max-callers | --max-line-bytes)
        COMPREPLY=()
        return ;;
    esac
    if [[ -n $opt && $opt != -h && ${#values[@]} -gt 0 ]]; then
        mapfile -t values < <(compgen -W "${values[*]}" -- "$cur")
        COMPREPLY=("${values[@]/#/$prefix}")
        return
    fi

    # After `mcp` only its --help.
    if [[ ${words[1]:-} == mcp && $cword -gt 1 ]]; then
        mapfile -t COMPREPLY < <(compgen -W "--help" -- "$cur")
        return
    fi

    if [[ $cur == -* ]]; then
        local options="-h --help -C --base --anchor --target --at-base --since --history
            --only --format --table --context --max-lines --max-window-lines --max-callers
            --callers-in --max-line-bytes --max-file-mib --cache-mib --jobs --color --no-color
            --version"
        mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
        return
    fi

    # Spec files (.json, .jsonl) and the directories on the way to them; first, mcp too.
    __context_pack_words=0
    compopt -o filenames 2>/dev/null
    local f
    while IFS= read -r f; do
        [[ ${f##*/} == .* && ${cur##*/} != .* ]] && continue  # hidden, unless asked for
        if [[ -d $f || $f == *.json || $f == *.jsonl ]]; then
            COMPREPLY+=("$f")
        fi
    done < <(compgen -f -- "$cur")
    if ((cword == 1)) && [[ mcp == "$cur"* ]]; then
        COMPREPLY+=(mcp)
    fi
}

_context_pack() {
    local __context_pack_words
    __context_pack_complete "$COMP_CWORD" "${COMP_WORDS[@]}"
}

# Called by git's completion (git-completion.bash) for `git context-pack`, with its `words`,
# `cword` and `__git_cmd_idx` (where `context-pack` is) in scope: the words from there on are
# ours. git completes with -o nospace, so words (not file names) get their space here.
_git_context_pack() {
    local i start=${__git_cmd_idx:-0} __context_pack_words
    if ((start == 0)); then
        for ((i = 1; i < cword; i++)); do
            [[ ${words[i]} == context-pack ]] && start=$i && break
        done
    fi
    ((start > 0)) || return
    __context_pack_complete "$((cword - start))" "${words[@]:start}"
    if ((__context_pack_words)); then
        COMPREPLY=("${COMPREPLY[@]/%/ }")
    fi
}

complete -F _context_pack context-pack git-context-pack

# ex: filetype=sh
