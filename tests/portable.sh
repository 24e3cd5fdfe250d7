#!/bin/sh
# The suite runs on macOS (BSD userland) as on Debian: its C++ and shell files (tests/ and
# fixtures/) use no GNU-only command form.
#   tests/portable.sh ROOT              fails naming FILE:LINE of each GNU-only form under ROOT
#   tests/portable.sh --selftest DIR    builds small trees in DIR and checks that the check
#                                       tells them apart
# A line that is a comment alone (// or /* in C++, # in shell) is not read: it may explain
# the rule. What to write instead of each form: tests/support/fixture.hpp has sh() with a
# time limit, tree_snapshot(), mtime_of() and set_times(); files are edited into a new file
# then moved in; touch takes -t [[CC]YY]MMDDhhmm[.SS]; a SHA-1 is sha1sum or else shasum -a 1.
set -eu
export LC_ALL=C

# Prints FILE:LINE: what: the line, for each GNU-only form in the files named; fails if any.
check_files() {
    awk '
        BEGIN {
            W = "(^|[^A-Za-z0-9_.-])"  # where a command word starts
            S = "[ \t]+"
            O = "(-[^ \t]+[ \t]+)*"    # options before the one that matters
        }
        function flag(what) {
            printf "%s:%d: %s: %s\n", FILENAME, FNR, what, $0
            found = 1
        }
        FILENAME ~ /\.sh$/ && /^[ \t]*#/ { next }
        FILENAME !~ /\.sh$/ && /^[ \t]*(\/\/|\/\*|\*)/ { next }
        {
            if ($0 ~ (W "sed" S O "-[A-Za-z]*i") || $0 ~ (W "sed" S ".*--in-place"))
                flag("an in-place sed edit (GNU): write a new file and mv it in")
            if ($0 ~ (W "stat" S "(-[A-Za-z]*c|--)"))
                flag("a GNU stat format: lstat or std::filesystem in C++")
            if ($0 ~ (W "touch" S O "(-[A-Za-z]*d|--date)"))
                flag("a GNU touch date: touch -t, or set_times() in C++")
            if ($0 ~ (W "truncate" S "-"))
                flag("truncate (GNU): std::filesystem::resize_file")
            if ($0 ~ (W "timeout" S "((-[^ \t]+|[A-Z]+)[ \t]+)*[0-9]"))  # -s KILL 5
                flag("timeout (GNU): the limit of cptest::sh")
            if ($0 ~ (W "sha1sum([^A-Za-z0-9_]|$)") && $0 !~ /shasum/)
                flag("a SHA-1 by GNU alone: fall back on shasum -a 1")
            if ($0 ~ (W "readlink" S O "(-[A-Za-z]*[efm]|--canon)"))
                flag("a GNU readlink option: std::filesystem::canonical")
            if ($0 ~ (W "find" S ".*-f?printf"))
                flag("a GNU find -printf: walk the tree in C++")
            if ($0 ~ (W "date" S O "(-[A-Za-z]*d|--date)"))
                flag("a GNU date input: compute the time in C++")
            if ($0 ~ (W "xargs" S O "(-[A-Za-z0-9]*r|--no-run-if-empty)"))
                flag("a GNU xargs option: BSD xargs runs nothing on empty input anyway")
            if ($0 ~ (W "env" S O "--(default|ignore|block)-signal"))
                flag("a GNU env signal option: run the command in the foreground")
            if ($0 ~ (W "script" S O "-[A-Za-z]*c"))
                flag("util-linux script options: cptest::sh_on_terminal")
        }
        END { exit found }
    ' "$@"
}

# Checks the suite's files under the tree `root`, but this one, whose patterns and test lines
# hold every form.
check_tree() (
    set -f
    cd "$1"
    files=$(find tests fixtures -name node_modules -prune -o -type f \
        \( -name '*.cpp' -o -name '*.hpp' -o -name '*.sh' \) ! -path tests/portable.sh -print \
        2>/dev/null | sort)
    if [ -z "$files" ]; then
        echo "$1: no C++ or shell files under tests/ or fixtures/" >&2
        return 1
    fi
    # The names hold no blanks (the check refuses a tree where one does).
    case $files in *" "* | *"	"*)
        echo "$1: a file name under tests/ or fixtures/ holds a blank" >&2
        return 1
        ;;
    esac
    # shellcheck disable=SC2086
    check_files $files
)

if [ "${1:-}" = "--selftest" ] && [ $# -eq 2 ]; then
    # A tree with the portable forms, the GNU words in comments and in other words; then one
    # bad line at a time, in C++ and in shell: the check must pass the first and name the
    # file and line in every other.
    dir=$2
    rm -rf "$dir"
    mkdir -p "$dir/tests/app" "$dir/fixtures"
    cat > "$dir/tests/app/clean.cpp" <<'EOF'
// sed -i, stat -c, touch -d, truncate -s, timeout 10, readlink -f, date -d, xargs -r: GNU's
/* find . -printf '%p' is GNU's too */
 * and sha1sum alone
#include <sys/stat.h>
struct stat st {};
cptest::sh("sed 's/a/b/' f > f.new && mv f.new f && touch -t 200101010000 f");
cptest::sh("if command -v sha1sum >/dev/null; then sha1sum; else shasum -a 1; fi", bytes);
cptest::sh("git diff --stat --cached && git log --date=iso -1 && git update-index -q");
cptest::sh("cd d && ./bin", "", std::chrono::seconds(10));  // the limit, not timeout
auto at = text.find("timeout"); std::printf("%zu", at); int timeout = 10;
cptest::sh("find . -type f -print0 | sort -z | xargs -0 grep -l x && readlink link");
cptest::sh("env -u NO_COLOR TERM=xterm bin && script.sh -c x");
EOF
    cat > "$dir/fixtures/clean.sh" <<'EOF'
#!/bin/sh
# sed -i and timeout 10 are GNU's
sed '5,8d' del.c > del.c.new && mv del.c.new del.c
npm ping --fetch-timeout=30000 >/dev/null
printf 'x\r\n' > crlf.txt
EOF
    if ! out=$(check_tree "$dir" 2>&1); then
        echo "a tree with portable forms alone was refused:" >&2
        echo "$out" >&2
        exit 1
    fi
    n=0
    while IFS= read -r bad; do
        for file in tests/app/bad.cpp tests/bad.sh; do
            if [ "$file" = tests/bad.sh ]; then
                printf '#!/bin/sh\ncd "$1" &&\n%s\n' "$bad" > "$dir/$file"
                line=3
            else
                printf 'void f() {\n    cptest::sh("%s");\n}\n' "$bad" > "$dir/$file"
                line=2
            fi
            if out=$(check_tree "$dir" 2>&1) || ! echo "$out" | grep -q "^$file:$line: "; then
                echo "the check let through $file:$line: $bad" >&2
                echo "$out" >&2
                exit 1
            fi
            rm "$dir/$file"
            n=$((n + 1))
        done
    done <<'EOF'
sed -i 's/a/b/' f
sed -n -i 1p f
stat -c %s f
stat --format=%s f
touch -d 2001-01-01 f
touch -h -d @0 link
truncate -s 67108864 f
cd d && timeout 10 ./bin
cat | timeout -s KILL 5 ./bin mcp
find . -type f -print0 | sort -z | xargs -0 sha1sum
readlink -f link
find . -type f -printf '%p %s'
date -d @0 +%s
find . -name x | xargs -r rm
env --default-signal=INT ./bin
script -qec ./bin /dev/null
EOF
    echo "portable: the check passes portable forms and names each of $n GNU-only lines"
    exit 0
fi

if [ $# -ne 1 ]; then
    echo "usage: $0 ROOT | $0 --selftest DIR" >&2
    exit 2
fi
if ! out=$(check_tree "$1"); then
    echo "$out" >&2
    echo "GNU-only command forms in the suite; macOS has no GNU userland (see $0)" >&2
    exit 1
fi
echo "portable: no GNU-only command form in the suite's files"
