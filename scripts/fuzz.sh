#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz) with clang-14, ASan and UBSan into build-fuzz and
# runs each for a bounded time on a scratch copy of its corpus (tests/fuzz/corpus/<target>).
#   scripts/fuzz.sh [SECONDS]      (default 60 per target)
# Exits non-zero when a fuzzer found a crash, leak, timeout or out-of-memory; the input that did
# it is kept in build-fuzz/fuzz-runs/<target>/artifacts and printed in hex.
# FUZZ_MERGE=1 merges what a clean run found back into the committed corpus with -merge=1,
# which keeps only inputs that add coverage (it takes them smallest first, so the larger ones
# it keeps reach what no smaller input did); of those, at most FUZZ_MERGE_MAX (default 10)
# found files of at most 512 bytes per target are kept, largest first. Found files are named
# by their SHA-1; the hand-written seeds have names. FUZZ_TARGETS (space-separated) runs those
# targets alone, e.g. half of them in each of two runs side by side on two cores.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-60}"
case "$seconds" in '' | *[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS]" >&2; exit 2 ;; esac
read -r -a targets <<<"${FUZZ_TARGETS:-fuzz_spec fuzz_anchor fuzz_mapping fuzz_index fuzz_tree fuzz_mcp}"
dir="$root/build-fuzz"
runs="$dir/fuzz-runs"

# The project's own dependencies, then clang and its runtime (libFuzzer, sanitizers).
"$root/scripts/install-deps.sh" clang-14 libclang-rt-14-dev

CC=clang-14 CXX=clang++-14 cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCONTEXT_PACK_FUZZ=ON -DCONTEXT_PACK_TESTS=OFF >/dev/null
cmake --build "$dir" --target "${targets[@]}" -j"$(nproc)"

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# libgit2 1.5's own leaks, on paths the tool cannot avoid (fuzz_tree and fuzz_mcp open
# repositories), as the sanitizer test runs take them.
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$root/tests/lsan.supp:print_suppressions=0}"
summary=()
failed=0
for t in "${targets[@]}"; do
    seeds="$root/tests/fuzz/corpus/$t"
    work="$runs/$t"
    rm -rf "$work"
    mkdir -p "$work/corpus" "$work/artifacts"
    cp "$seeds"/* "$work/corpus/"
    extra=()
    [ "$t" = fuzz_spec ] && extra+=(-dict="$root/tests/fuzz/spec.dict")
    [ "$t" = fuzz_mcp ] && extra+=(-dict="$root/tests/fuzz/mcp.dict")
    echo "== $t: ${seconds}s (log: $work/log)" >&2
    status=0
    "$dir/tests/fuzz/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$work/artifacts/" "${extra[@]}" \
        "$work/corpus" >"$work/log" 2>&1 || status=$?

    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -1)
    last=$(grep -E '^#[0-9]+' "$work/log" | grep 'cov: ' | tail -1 || true)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    corp=$(sed -n 's/.* corp: \([^ ]*\).*/\1/p' <<<"$last")
    found=$(find "$work/artifacts" -type f | sort)
    if [ "$status" -eq 0 ] && [ -z "$found" ]; then
        result="ok"
    else
        failed=1
        result="FAILED (exit $status)"
        grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|fuzz_[a-z]+: )' "$work/log" | head -5 >&2 || true
        for f in $found; do
            result+=" $(basename "$f")"
            echo "$t reproducer $f ($(wc -c <"$f") bytes), hex:" >&2
            od -An -v -tx1 "$f" | tr -d ' \n' | head -c 4096 >&2
            echo >&2
        done
    fi
    summary+=("$(printf '%-13s %10s runs  cov %-5s ft %-6s corpus %-10s %s' "$t" "${execs:-?}" \
        "${cov:-?}" "${ft:-?}" "${corp:-?}" "$result")")

    if [ "${FUZZ_MERGE:-0}" = 1 ] && [ "$result" = ok ]; then
        # Keep the committed corpus small: the seeds plus a few found inputs that add coverage.
        merged="$work/merged"
        mkdir -p "$merged"
        cp "$seeds"/* "$merged/"
        "$dir/tests/fuzz/$t" -merge=1 "$merged" "$work/corpus" >"$work/merge.log" 2>&1
        have=$(find "$seeds" -type f -regextype posix-extended -regex '.*/[0-9a-f]{40}' | wc -l)
        room=$(( ${FUZZ_MERGE_MAX:-10} - have ))
        added=0
        while read -r size f; do
            [ "$room" -gt 0 ] && [ "$size" -le 512 ] || continue
            [ -e "$seeds/$(basename "$f")" ] && continue
            cp "$f" "$seeds/"
            room=$((room - 1)) added=$((added + 1))
        done < <(find "$merged" -type f -printf '%s %p\n' | sort -rn)
        echo "$t: merged $added new inputs into tests/fuzz/corpus/$t" >&2
    fi
done

printf '%s\n' "${summary[@]}"
exit "$failed"
