#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 30), one after another, from the seeds
# of fuzz/corpus/<target> (the inputs found are kept in a scratch copy, not in the
# repository), and prints per target the executions, the coverage reached and whether it
# crashed. Exits 1 if any target crashed, timed out (1 s) or ran out of memory (256 MB);
# the input that did it is kept in fuzz/artifacts/<target>/.
# Needs the nightly toolchain and cargo-fuzz (`cargo install --locked cargo-fuzz`).
set -uo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-30}"
targets=(orders mail position variant judge store)
if [ -n "${FUZZ_TARGETS:-}" ]; then
    read -r -a targets <<<"$FUZZ_TARGETS"
fi

# AddressSanitizer's own bookkeeping (a stack trace per allocation, 256 MB of freed memory
# held in quarantine) would both slow the targets tenfold and fill the 256 MB allowed to
# the judge itself; safe Rust needs neither.
export ASAN_OPTIONS="${ASAN_OPTIONS:-malloc_context_size=0:quarantine_size_mb=16:detect_leaks=0}"

# FUZZ_SANITIZER=none builds without AddressSanitizer: three to five times the
# executions a second for long runs. The library's own code is safe Rust but for two
# system calls, so what ASan would add is a check of the dependencies' unsafe code.
sanitizer="${FUZZ_SANITIZER:-address}"

# FUZZ_RUNS=N also stops each target after N executions, whichever comes first: a
# campaign then reaches its count however loaded the machine is.
runs="${FUZZ_RUNS:--1}"

cargo +nightly fuzz build -O -s "$sanitizer" || exit 1

# FUZZ_CORPUS=DIR keeps the inputs found in DIR/<target> from one run to the next, so that
# long runs add up; by default they go to a scratch directory removed at the end.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
corpus="${FUZZ_CORPUS:-$work}"
failed=0
printf '%-9s %12s %8s %8s  %s\n' target executions cov ft result
for target in "${targets[@]}"; do
    mkdir -p "$corpus/$target" "fuzz/artifacts/$target"
    dict=()
    case "$target" in
        orders | position | judge) dict=(-dict=fuzz/dict/orders.dict) ;;
        mail) dict=(-dict=fuzz/dict/mail.dict) ;;
    esac
    log="$work/$target.log"
    cargo +nightly fuzz run -O -s "$sanitizer" "$target" "$corpus/$target" "fuzz/corpus/$target" -- \
        -max_total_time="$seconds" -runs="$runs" -rss_limit_mb=256 -timeout=1 -print_final_stats=1 \
        "${dict[@]}" >"$log" 2>&1
    status=$?
    execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
    cov="$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)"
    ft="$(grep -o 'ft: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)"
    result=ok
    if [ "$status" != 0 ]; then
        result="CRASHED (exit $status): $(grep -m1 -o 'ERROR: libFuzzer: [a-z-]*\|panicked at.*\|ParseDictionaryFile.*' "$log")"
        grep -A3 'panicked at\|ERROR: libFuzzer' "$log" | head -n 8 >&2
        grep 'Test unit written to' "$log" >&2
        failed=1
    fi
    printf '%-9s %12s %8s %8s  %s\n' "$target" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$result"
done
exit "$failed"
