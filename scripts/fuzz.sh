#!/usr/bin/env bash
# scripts/fuzz.sh [SECONDS]: build the libFuzzer harnesses of tests/fuzz/
# (clang, AddressSanitizer, UndefinedBehaviorSanitizer) in build/fuzz and run
# each for SECONDS (default 60): the scene loader and a few steps, seeded from
# scenes/ with the format's keys as a dictionary; the golden-trace reader of
# --compare, seeded from tests/golden/; the command-line parser. The corpus
# grows in build/fuzz/corpus/NAME across runs; a finding (crash, sanitizer
# report, leak, hang) is kept as build/fuzz/findings/NAME-* and fails the
# script. Reproduce one with: build/fuzz/tests/fuzz/fuzz_NAME FILE
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/setup.sh"

seconds="${1:-60}"
vx_install "${VX_BUILD_PACKAGES[@]}" clang
dir="$vx_root/build/fuzz"
vx_log "== fuzz: building ($dir)"
vx_build "$dir" Debug -DCMAKE_C_COMPILER=clang -DVOLTEX_FUZZ=ON -DVOLTEX_SANITIZE=ON -DVOLTEX_BUILD_TESTS=OFF \
    -- fuzz_scene fuzz_golden fuzz_cli

seeds="$dir/seeds"
rm -rf "$seeds"
mkdir -p "$seeds/scene" "$seeds/golden" "$seeds/cli" "$dir/findings"
find "$vx_root/scenes" -name '*.json' -size -64k -exec cp {} "$seeds/scene/" \;
cp "$vx_root"/tests/golden/*.csv "$seeds/golden/"
printf 'scene.json\0--steps\00010\0-o\0out.csv\0--contacts\0c.csv' >"$seeds/cli/run"
printf -- '--compare\0g.csv\0--tolerance\0001e-3\0--set\0entities[1].rigidbody.mass=2\0s.json' >"$seeds/cli/compare"
printf -- '--solver\0substeps=4\0--threads\0002\0--order\0colored\0--stats=json\0-\0--\0-x' >"$seeds/cli/solver"

export ASAN_OPTIONS="detect_leaks=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
status=0
for name in scene golden cli; do
    corpus="$dir/corpus/$name"
    mkdir -p "$corpus"
    dict=()
    [ "$name" = scene ] && dict=(-dict="$vx_root/tests/fuzz/scene.dict")
    vx_log "== fuzz_$name: ${seconds} s"
    if ! "$dir/tests/fuzz/fuzz_$name" -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$dir/findings/$name-" "${dict[@]}" "$corpus" "$seeds/$name" \
        >"$dir/fuzz_$name.log" 2>&1; then
        tail -40 "$dir/fuzz_$name.log" >&2
        vx_log "fuzz_$name: a finding (build/fuzz/findings/, log build/fuzz/fuzz_$name.log)"
        status=1
    fi
    grep -E '^stat::(number_of_executed_units|new_units_added)|cov: ' "$dir/fuzz_$name.log" | tail -3 >&2 || true
done
exit "$status"
