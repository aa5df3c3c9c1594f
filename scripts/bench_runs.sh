#!/usr/bin/env bash
# scripts/bench_runs.sh [POINTS]: how long many runs take (docs/benchmarks.md,
# "Many runs"): the cost of one voltex-sim process (start, scene load) against
# its simulation, a sweep of POINTS ball_drop variants (default 1000) and a
# golden suite of the example scenes, on 1 and 2 workers. A table on stdout.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/setup.sh"

points=${1:-1000}
vx_install parallel || exit 1
"$vx_root/scripts/run.sh" --version >/dev/null
sim="$vx_root/build/release/voltex-sim"
scene="$vx_root/scenes/ball_drop.json"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
# ms per run of a command run N times in a row
per_run() {
    local n=$1; shift
    local start end
    start=$(now)
    for ((i = 0; i < n; i++)); do "$@" >/dev/null 2>&1; done
    end=$(now)
    awk -v s="$start" -v e="$end" -v n="$n" 'BEGIN { printf "%.2f", (e - s) * 1000 / n }'
}
# "WALL CPU": wall seconds, and CPU seconds (user + system) of it and every process under it
seconds() {
    /usr/bin/time -f '%e %U %S' -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; return 1; }
    awk '{ printf "%.2f %.2f", $1, $2 + $3 }' "$tmp/time"
}

vx_log "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg); one run, 200 times each"
printf '%-58s %10s\n' "one process" "ms per run"
printf '%-58s %10s\n' "/bin/true (process start alone)" "$(per_run 200 /bin/true)"
printf '%-58s %10s\n' "voltex-sim ball_drop --steps 0 (start, load, frame 0)" "$(per_run 200 "$sim" "$scene" -q --steps 0 -o /dev/null)"
printf '%-58s %10s\n' "voltex-sim ball_drop, 600 steps, trace to /dev/null" "$(per_run 200 "$sim" "$scene" -q -o /dev/null)"
loop=$(for i in $(seq 20); do "$sim" "$scene" -q -o /dev/null --stats=json 2>&1 >/dev/null; done |
       /usr/bin/python3 -c 'import json, sys; w = [json.loads(l)["wall_s"] for l in sys.stdin]; print("%.2f" % (1000 * sum(w) / len(w)))')
printf '%-58s %10s\n' "  of which the step loop (--stats=json wall_s)" "$loop"
printf '%-58s %10s\n' "/usr/bin/python3 -c pass (a share's interpreter start)" "$(per_run 50 /usr/bin/python3 -c pass)"

grid="entities[0].rigidbody.restitution=0:$(awk -v n="$points" 'BEGIN { print (n - 1) / 1000 }'):0.001"
vx_log "a sweep of $points ball_drop variants ($grid), and the golden suite; 1 and 2 workers in turn, best of 2"
# best of two, 1 and 2 workers in turn: on a shared machine, runs in turn compare better
best_of_two() {
    local a b c d
    a=$(seconds "$@" -j 1); b=$(seconds "$@" -j 2); c=$(seconds "$@" -j 1); d=$(seconds "$@" -j 2)
    echo "$a $b $c $d" | awk '{ one = $1 < $5 ? $1 : $5; two = $3 < $7 ? $3 : $7; cpu = $2 < $6 ? $2 : $6
                                printf "%10.2f %10.2f %9.2fx %10.2f", one, two, one / two, cpu }'
}
printf '\n%-58s %10s %10s %10s %10s\n' "many runs (wall seconds; CPU seconds of 1 worker)" "1 worker" "2 workers" "speed-up" "CPU"
for config in "parallel max_displacement_m" "xargs max_displacement_m" "parallel bounce=max(ball.py@60:)"; do
    read -r runner metric <<<"$config"
    printf '%-58s %s\n' "sweep, $points points, -m $metric, $runner" \
        "$(best_of_two "$vx_root/scripts/sweep" "$scene" --grid "$grid" -m "$metric" --sim "$sim" --runner "$runner" \
           -o "$tmp/sweep.csv")"
done
scenes=$(ls "$vx_root"/scenes/*.json | wc -l)
for runner in parallel xargs; do
    printf '%-58s %s\n' "golden suite, the $scenes example scenes, $runner" \
        "$(best_of_two "$vx_root/scripts/golden_suite" "$vx_root/scenes" "$vx_root/tests/golden" --sim "$sim" \
           --runner "$runner")"
done
vx_log "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
