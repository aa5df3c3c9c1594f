#!/usr/bin/env bash
# scripts/cross_check.sh [--reference VOLTEX_SIM] [--aarch64]: the traces are
# the same bytes whatever compiles and runs them (docs/determinism.md).
# Builds voltex-sim (Release, the program alone) with clang and its plain C
# code instead of SSE2 (VOLTEX_PLAIN_C: the code AArch64 runs) in
# build/cross-clang-plain-c: one build that differs from the reference in
# both (a second build costs the suite a minute on 2 cores), runs the
# example, validation, joint, shape and query scenes and a bench subset with
# it, and requires the body, contact, query and joint traces to be the
# bytes of the reference build (default: build/release, gcc, as
# scripts/run.sh builds it) and of the golden traces of tests/golden/.
# --aarch64 adds gcc-aarch64-linux-gnu's build run under qemu-aarch64 (arm64
# packages through Debian's multiarch), on every case's first AARCH64_STEPS
# steps (default 60): qemu is some 20 to 50 times slower.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/setup.sh"

reference="" aarch64=false
while [ $# -gt 0 ]; do
    case "$1" in
    --reference) reference="$2"; shift 2 ;;
    --aarch64) aarch64=true; shift ;;
    *) vx_log "cross_check.sh: unknown argument '$1' (--reference VOLTEX_SIM, --aarch64)"; exit 2 ;;
    esac
done

vx_install "${VX_BUILD_PACKAGES[@]}" clang
if [ -z "$reference" ]; then
    vx_build "$vx_root/build/release" Release -DVOLTEX_BUILD_TESTS=OFF -- voltex-sim
    reference="$vx_root/build/release/voltex-sim"
fi
names=(clang-plain-c)
vx_build "$vx_root/build/cross-clang-plain-c" Release -DCMAKE_C_COMPILER=clang -DVOLTEX_PLAIN_C=ON \
    -DVOLTEX_BUILD_TESTS=OFF -- voltex-sim
runners=("$vx_root/build/cross-clang-plain-c/voltex-sim")
# The arm64 packages through multiarch; false (with the reason logged) when
# this machine cannot have them (no root, no arm64 in its package sources).
aarch64_packages() {
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        local sudo=""
        if [ "$(id -u)" -ne 0 ]; then
            command -v sudo >/dev/null 2>&1 || { vx_log "cross_check: aarch64: adding arm64 needs root"; return 1; }
            sudo=sudo
        fi
        vx_log "adding the arm64 architecture (dpkg --add-architecture arm64) for libcjson-dev:arm64"
        $sudo dpkg --add-architecture arm64 || return 1
        $sudo apt-get update -qq >&2 || return 1
    fi
    vx_install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user libcjson-dev:arm64
}
if $aarch64 && ! aarch64_packages; then
    vx_log "cross_check: aarch64 skipped: its packages cannot be installed on this machine (see above)"
    aarch64=false
fi
if $aarch64; then
    PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig vx_build "$vx_root/build/cross-aarch64" Release \
        -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64 -DCMAKE_C_COMPILER=aarch64-linux-gnu-gcc \
        -DVOLTEX_BUILD_TESTS=OFF -- voltex-sim
    aarch64_runner="qemu-aarch64 -L /usr/aarch64-linux-gnu $vx_root/build/cross-aarch64/voltex-sim"
fi

# CASE: NAME|SCENE|OPTIONS; a scene with a golden (tests/golden/NAME.csv, or
# queries/NAME.csv) is also compared with it.
cases=()
for scene in "$vx_root"/scenes/*.json "$vx_root"/scenes/{validation,joints,shapes,queries}/*.json; do
    rel=${scene#"$vx_root/scenes/"}
    cases+=("${rel%.json}|$scene|")
done
bench="$vx_root/scenes/bench"
cases+=("bench/pyramid_20|$bench/pyramid_20.json|--steps 120"
        "bench/pyramid_20_colored|$bench/pyramid_20.json|--steps 120 --order colored --threads 2"
        "bench/hull_pyramid_20|$bench/hull_pyramid_20.json|--steps 60 --order colored"
        "bench/convex_pile|$bench/convex_pile.json|--steps 15 --threads 2")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run DIR COMMAND CASE: the four traces of the case in DIR
run_case() {
    local dir="$1" runner="$2" scene="$3" options="$4"
    mkdir -p "$dir"
    # shellcheck disable=SC2086 # the runner and the options are words
    $runner "$scene" $options -q -o "$dir/body.csv" --contacts "$dir/contacts.csv" \
        --queries "$dir/queries.csv" --joints "$dir/joints.csv" 2>"$dir/stderr" ||
        { vx_log "cross_check: $runner $scene $options failed: $(cat "$dir/stderr")"; return 1; }
}

status=0 compared=0
for c in "${cases[@]}"; do
    IFS='|' read -r name scene options <<<"$c"
    run_case "$work/$name/reference" "$reference" "$scene" "$options" || { status=1; continue; }
    golden="$vx_root/tests/golden/$name"
    if [ -f "$golden.csv" ]; then
        cmp -s "$golden.csv" "$work/$name/reference/body.csv" ||
            { vx_log "cross_check: $name: the reference build's body trace is not tests/golden/$name.csv"; status=1; }
        for extra in queries joints; do
            if [ -f "$golden.$extra.csv" ] && ! cmp -s "$golden.$extra.csv" "$work/$name/reference/$extra.csv"; then
                vx_log "cross_check: $name: the reference build's $extra trace is not tests/golden/$name.$extra.csv"
                status=1
            fi
        done
    fi
    for i in "${!names[@]}"; do
        run_case "$work/$name/${names[$i]}" "${runners[$i]}" "$scene" "$options" || { status=1; continue; }
        for trace in body contacts queries joints; do
            if ! cmp -s "$work/$name/reference/$trace.csv" "$work/$name/${names[$i]}/$trace.csv"; then
                vx_log "cross_check: $name${options:+ ($options)}: the ${names[$i]} build's $trace trace differs from the reference's:" \
                       "$(cmp "$work/$name/reference/$trace.csv" "$work/$name/${names[$i]}/$trace.csv" 2>&1 | head -1)"
                status=1
            fi
            compared=$((compared + 1))
        done
    done
done
if [ "$status" -eq 0 ]; then
    vx_log "cross_check: ${#cases[@]} runs, $compared traces of the ${names[*]} builds: the same bytes as the reference (and the goldens)"
fi

# aarch64 under qemu runs some 20 to 50 times slower: every case for its first
# AARCH64_STEPS steps (the same for the reference), all four traces compared
if $aarch64; then
    steps=${AARCH64_STEPS:-60} compared=0
    for c in "${cases[@]}"; do
        IFS='|' read -r name scene options <<<"$c"
        # the case's own --steps when it is fewer; one thread (the threads'
        # waits spin, which under qemu on a busy machine takes minutes, and
        # the thread count changes no bit: tests/cli, tests/physics)
        own=$(sed -n 's/.*--steps \([0-9]*\).*/\1/p' <<<"$options")
        options="$(sed 's/--steps [0-9]*//; s/--threads [0-9]*//' <<<"$options") --steps $([ -n "$own" ] && [ "$own" -lt "$steps" ] && echo "$own" || echo "$steps")"
        run_case "$work/$name/short" "$reference" "$scene" "$options" || { status=1; continue; }
        run_case "$work/$name/aarch64" "$aarch64_runner" "$scene" "$options" || { status=1; continue; }
        for trace in body contacts queries joints; do
            if ! cmp -s "$work/$name/short/$trace.csv" "$work/$name/aarch64/$trace.csv"; then
                vx_log "cross_check: $name ($options): the aarch64 build's $trace trace differs from the reference's:" \
                       "$(cmp "$work/$name/short/$trace.csv" "$work/$name/aarch64/$trace.csv" 2>&1 | head -1)"
                status=1
            fi
            compared=$((compared + 1))
        done
    done
    [ "$status" -eq 0 ] &&
        vx_log "cross_check: aarch64 (qemu): ${#cases[@]} runs of $steps steps, $compared traces: the same bytes as the reference"
fi
exit "$status"
