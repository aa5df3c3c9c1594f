#!/usr/bin/env bash
# scripts/test.sh: install what is missing, build, and run every test through
# ctest with AddressSanitizer and UndefinedBehaviorSanitizer (and the internal
# asserts), then the tests of the shipped program's behaviour (the command
# line, validation, traces, examples, determinism across threads) once more in
# the Release build users run; then the fuzzers (tests/fuzz) for a few
# seconds each (VX_FUZZ_SECONDS). Exits non-zero if anything fails.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/setup.sh"

vx_install "${VX_BUILD_PACKAGES[@]}" "${VX_TEST_PACKAGES[@]}"
vx_npm_ci

status=0
run_suite() {
    local name="$1" dir="$2" type="$3"; shift 3
    local started=$SECONDS
    vx_log "== $name: building ($dir)"
    vx_build "$dir" "$type" -DVOLTEX_BUILD_TESTS=ON "$@" || return 1
    vx_log "== $name: built in $((SECONDS - started)) s; running tests (a line per test program as it ends)"
    local log="$dir/ctest.log" rc=0
    # -V keeps every test's output in the log: Criterion passes a test even when
    # LeakSanitizer reports a leak at the worker's exit, so leaks are found here.
    # The console gets ctest's line per finished program.
    (cd "$dir" && ctest -V -j "$(nproc)") 2>&1 | tee "$log" |
        grep --line-buffered -E '^ *[0-9]+/[0-9]+ Test +#' | sed -u 's/^ */  /' >&2 || true
    grep -qE '^100% tests passed' "$log" || rc=1
    grep -E 'tests passed|tests failed' "$log" >&2 || true
    if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$log"; then
        grep -E -A 20 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$log" | head -80
        vx_log "$name: the sanitizers reported errors (full log: $log)"
        rc=1
    fi
    vx_log "== $name: $((SECONDS - started)) s in all"
    if [ "$rc" -ne 0 ]; then
        grep -E -B 2 -A 10 '\[FAIL\]|\*\*\*Failed|CRASH|Assertion' "$log" | head -150 || true
        vx_log "$name: FAILED (full log: $log)"
    fi
    return "$rc"
}

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"

run_suite "asan+ubsan, every test" "$vx_root/build/test-sanitize" Debug -DVOLTEX_SANITIZE=ON || status=1
run_suite "release, the program's tests" "$vx_root/build/test-release" Release -DVOLTEX_TEST_SET=product || status=1
# the fuzzers of tests/fuzz, a few seconds each (scripts/fuzz.sh SECONDS for a long run)
fuzz_started=$SECONDS
"$vx_root/scripts/fuzz.sh" "${VX_FUZZ_SECONDS:-5}" || status=1
vx_log "== fuzz: $((SECONDS - fuzz_started)) s in all"

if [ "$status" -eq 0 ]; then vx_log "all test suites passed"; else vx_log "some tests FAILED"; fi
exit "$status"
