#!/usr/bin/env bash
# scripts/bench.sh [--peers] [--repeat N] [--threads N | --speedup N] [--order ORDER] [--solver KEY=VALUE]... [--trace-scene SCENE] [SCENE...]
#
# Builds voltex-sim (Release), runs each bench scene (default: every
# scenes/bench/*.json but convex_pile and joint_grid, a minute a run on 2 cores, which
# run when named; a SCENE is a path or a name under scenes/bench/, or
# terrain_rain, which scripts/make_terrain_rain.py writes into
# build/bench/scenes/ when it is named: its terrain's OBJ is 24 MB) N times
# (default 3) with `voltex-sim --stats -q`, and prints one table of the
# medians over the runs: bodies, steps, median and p95 ms per physics step,
# steps/s, contacts/step, the stage split (broad/narrow/solver/integration,
# when the engine reports it) and the max displacement of a dynamic body
# from its start (the stability figure of stacks and pyramids).
#
# The timed runs measure the engine: the trace goes to /dev/null and only
# its first and last frames are written (--every 1000000000); ms/step times
# vx_physics_step alone. One scene (--trace-scene, default spheres_4096 when
# it is in the list) runs once more with the full CSV trace written to a
# temporary file, for the trace output speed in MB/s.
#
# --solver KEY=VALUE (repeatable) is passed to voltex-sim: it sets a key of
# the scenes' solver object, e.g. --solver substeps=4 --solver iterations=1
# (Bullet keeps its fixed settings).
#
# --threads N and --order sequential|colored are passed to voltex-sim (they
# override the scenes' solver.threads and solver.order; Bullet always runs
# on one thread, Box3D on --threads N workers, else one).
#
# --speedup N runs every voltex-sim run twice in turn, on one thread and on
# N threads (interleaved, so that both see the same machine: a shared
# machine's speed drifts over minutes), and adds a row per scene for the N
# threads whose ratio is the one-thread median over the N-thread median.
#
# --peers also builds bench/peer_bullet (Bullet 3, installing libbullet-dev
# when missing) in its own build directory and prints Bullet's row under each
# of ours. When BOX3D_DIR is set (a Box3D checkout: git clone
# https://github.com/erincatto/box3d), it also builds bench/peer_box3d from
# that checkout (-DVOLTEX_BOX3D_PEER=ON -DBOX3D_DIR=...) and prints Box3D's
# row too (Box3D's defaults: 4 substeps, one worker, or N with --threads N).
# A peer's row has the ratio voltex/peer of median ms/step. A scene a peer
# does not build (Bullet: joints other than ball joints) shows in its row as
# "refused: <message>".
#
# A scene the loader rejects shows as "rejected: <message>" and the others
# still run. The table goes to stdout, progress to stderr.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/setup.sh"

usage() { awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "${BASH_SOURCE[0]}"; }

peers=0
repeat=3
threads=""
speedup=""
order=""
solver_settings=()
trace_scene=""
scenes=()
while [ $# -gt 0 ]; do
    case "$1" in
        --peers) peers=1 ;;
        --repeat)
            [ $# -ge 2 ] || { vx_log "--repeat: missing value"; exit 2; }
            repeat="$2"; shift ;;
        --repeat=*) repeat="${1#--repeat=}" ;;
        --threads)
            [ $# -ge 2 ] || { vx_log "--threads: missing value"; exit 2; }
            threads="$2"; shift ;;
        --threads=*) threads="${1#--threads=}" ;;
        --speedup)
            [ $# -ge 2 ] || { vx_log "--speedup: missing value"; exit 2; }
            speedup="$2"; shift ;;
        --speedup=*) speedup="${1#--speedup=}" ;;
        --order)
            [ $# -ge 2 ] || { vx_log "--order: missing value"; exit 2; }
            order="$2"; shift ;;
        --order=*) order="${1#--order=}" ;;
        --solver)
            [ $# -ge 2 ] || { vx_log "--solver: missing value"; exit 2; }
            solver_settings+=(--solver "$2"); shift ;;
        --solver=*) solver_settings+=(--solver "${1#--solver=}") ;;
        --trace-scene)
            [ $# -ge 2 ] || { vx_log "--trace-scene: missing value"; exit 2; }
            trace_scene="$2"; shift ;;
        --trace-scene=*) trace_scene="${1#--trace-scene=}" ;;
        -h|--help) usage; exit 0 ;;
        --) shift; scenes+=("$@"); break ;;
        -*) vx_log "unknown option '$1' (try --help)"; exit 2 ;;
        *) scenes+=("$1") ;;
    esac
    shift
done
[[ "$repeat" =~ ^[1-9][0-9]*$ ]] || { vx_log "--repeat: expected an integer >= 1, got '$repeat'"; exit 2; }
sim_args=()
if [ -n "$threads" ]; then
    [[ "$threads" =~ ^[1-9][0-9]*$ ]] || { vx_log "--threads: expected an integer >= 1, got '$threads'"; exit 2; }
    sim_args+=(--threads "$threads")
fi
if [ -n "$speedup" ]; then
    [[ "$speedup" =~ ^[1-9][0-9]*$ ]] && [ "$speedup" -ge 2 ] ||
        { vx_log "--speedup: expected an integer >= 2, got '$speedup'"; exit 2; }
    [ -z "$threads" ] || { vx_log "--speedup and --threads cannot be combined"; exit 2; }
    sim_args+=(--threads 1)
fi
sim_args+=(${solver_settings[@]+"${solver_settings[@]}"})
if [ -n "$order" ]; then
    [[ "$order" =~ ^(sequential|colored)$ ]] || { vx_log "--order: expected sequential or colored, got '$order'"; exit 2; }
    sim_args+=(--order "$order")
fi

# The Box3D peer: BOX3D_DIR, checked before anything is built.
box3d_dir=""
if [ "$peers" -eq 1 ] && [ -n "${BOX3D_DIR:-}" ]; then
    box3d_dir=$(cd "$BOX3D_DIR" 2>/dev/null && pwd) ||
        { vx_log "BOX3D_DIR='$BOX3D_DIR' is not a directory (a Box3D checkout: git clone https://github.com/erincatto/box3d)"; exit 2; }
    [ -f "$box3d_dir/include/box3d/box3d.h" ] && [ -f "$box3d_dir/CMakeLists.txt" ] ||
        { vx_log "BOX3D_DIR='$BOX3D_DIR' is not a Box3D checkout (no include/box3d/box3d.h or CMakeLists.txt)"; exit 2; }
fi

# Scenes written at bench time (too big for the repository), by name: their
# script and the folder they go to.
generated_dir="$vx_root/build/bench/scenes"
generate_scene() { # generate_scene NAME: its path, written if missing
    local path="$generated_dir/$1.json"
    case "$1" in
        terrain_rain)
            if [ ! -f "$path" ] || [ "$vx_root/scripts/make_terrain_rain.py" -nt "$path" ]; then
                vx_log "writing $path and its terrain (1 million triangles)"
                python3 "$vx_root/scripts/make_terrain_rain.py" "$generated_dir" >&2 || return 1
            fi ;;
        *) return 1 ;;
    esac
    printf '%s\n' "$path"
}

# A scene argument: a file, a name under scenes/bench/, or a generated one.
resolve_scene() {
    if [ -f "$1" ]; then printf '%s\n' "$1"
    elif [ "${1%.json}" = terrain_rain ]; then generate_scene terrain_rain
    elif [ -f "$vx_root/scenes/bench/$1.json" ]; then printf '%s\n' "$vx_root/scenes/bench/$1.json"
    elif [ -f "$vx_root/scenes/bench/$1" ]; then printf '%s\n' "$vx_root/scenes/bench/$1"
    else vx_log "no such scene: $1"; return 1
    fi
}
# Scenes of scenes/bench/ left out of the default list (long runs): they run
# when named, e.g. scripts/bench.sh --peers convex_pile.
long_scenes=" convex_pile joint_grid "
if [ ${#scenes[@]} -eq 0 ]; then
    while IFS= read -r path; do
        [[ "$long_scenes" == *" $(basename "$path" .json) "* ]] || scenes+=("$path")
    done < <(LC_ALL=C ls "$vx_root"/scenes/bench/*.json)
else
    resolved=()
    for s in "${scenes[@]}"; do
        path=$(resolve_scene "$s") || exit 2
        resolved+=("$path")
    done
    scenes=("${resolved[@]}")
fi
scene_name() { basename "$1" .json; }

# ---- build ----
build="$vx_root/build/bench"
vx_install "${VX_BUILD_PACKAGES[@]}"
vx_log "building voltex-sim (Release) in $build"
vx_build "$build" Release -DVOLTEX_BUILD_TESTS=OFF -- voltex-sim
sim="$build/voltex-sim"
peer=""
box3d_peer=""
box3d_label=""
if [ "$peers" -eq 1 ]; then
    peer_build="$vx_root/build/bench-peers"
    vx_install g++ libbullet-dev
    vx_log "building bench/peer_bullet (Release) in $peer_build"
    vx_build "$peer_build" Release -DVOLTEX_BUILD_TESTS=OFF -DVOLTEX_BULLET_PEER=ON -- peer_bullet
    peer="$peer_build/bench/peer_bullet"
    if [ -n "$box3d_dir" ]; then
        box3d_build="$vx_root/build/bench-box3d"
        vx_log "building bench/peer_box3d (Release) from $box3d_dir in $box3d_build"
        vx_build "$box3d_build" Release -DVOLTEX_BUILD_TESTS=OFF -DVOLTEX_BOX3D_PEER=ON -DBOX3D_DIR="$box3d_dir" -- peer_box3d
        box3d_peer="$box3d_build/bench/peer_box3d"
        box3d_label="Box3D $(git -C "$box3d_dir" log -1 --format='%h %cs' 2>/dev/null || echo '(not a git checkout)')"
    else
        vx_log "BOX3D_DIR is not set: no Box3D row (see docs/benchmarks.md)"
    fi
fi
box3d_args=()
[ -z "$threads" ] || box3d_args+=(--workers "$threads")

work=$(mktemp -d "${TMPDIR:-/tmp}/voltex-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# ---- reading --stats ----
# parse_stats PREFIX FILE: the figures of one run as "key value" lines.
parse_stats() {
    awk -v p="$1: " '
        index($0, p) != 1 { next }
        { line = substr($0, length(p) + 1) }
        line ~ /^bodies / {
            split(line, a, /[ (),]+/)
            print "bodies", a[2]; print "dynamic", a[3]; print "steps", a[6]
            if (match(line, /[0-9.]+ contacts\/step/)) print "contacts", substr(line, RSTART, RLENGTH - 14)
        }
        line ~ /^step ms: / {
            n = split(substr(line, 10), a, /, /)
            for (i = 1; i <= n; i++) { split(a[i], kv, " "); print kv[1], kv[2] }
        }
        line ~ /^stage ms\/step:/ {
            split("broad phase|narrow phase|solver|integration", names, "|")
            for (i = 1; i <= 4; i++)
                if (match(line, names[i] " [0-9.]+")) print "stage" i, substr(line, RSTART + length(names[i]) + 1, RLENGTH - length(names[i]) - 1)
        }
        line ~ /^max displacement / {
            split(line, a, " "); if (a[3] ~ /^[0-9.eE+-]+$/) print "displacement", a[3]
            if (match(line, /peak memory [0-9.]+/)) print "memory", substr(line, RSTART + 12, RLENGTH - 12)
        }
        line ~ /^trace [0-9.]+ MB, / { split(line, a, /[ ,]+/); print "trace_mb", a[2]; print "trace_mbs", a[4] }
    ' "$2"
}

# median of the numbers on stdin ("-" if none)
median() {
    sort -g | awk '{ v[NR] = $1 } END {
        if (NR == 0) { print "-"; exit }
        if (NR % 2) printf "%.6g\n", v[(NR + 1) / 2]; else printf "%.6g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# run_engine ENGINE SCENE OUT_PREFIX: runs it $repeat times; writes OUT_PREFIX.N
# (stats) and OUT_PREFIX.status ("ok", or "rejected: ..." / "failed ...").
run_engine() {
    local engine="$1" scene="$2" out="$3" r code prefix
    for r in $(seq 1 "$repeat"); do
        vx_log "running $engine on $(scene_name "$scene") ($r/$repeat)"
        code=0
        if [ "$engine" = voltex ]; then
            prefix="voltex-sim"
            "$sim" "$scene" ${sim_args[@]+"${sim_args[@]}"} --stats -q -o /dev/null --every 1000000000 >/dev/null \
                2>"$out.$r" || code=$?
            if [ "$code" -eq 0 ] && [ -n "$speedup" ]; then
                "$sim" "$scene" ${sim_args[@]+"${sim_args[@]}"} --threads "$speedup" --stats -q -o /dev/null \
                    --every 1000000000 >/dev/null 2>"$out.threads.$r" || code=$?
                [ "$code" -eq 0 ] || mv "$out.threads.$r" "$out.$r"
                [ "$code" -ne 0 ] || parse_stats "$prefix" "$out.threads.$r" >"$out.threads.$r.kv"
            fi
        elif [ "$engine" = box3d ]; then
            prefix="peer_box3d"
            "$box3d_peer" "$scene" ${box3d_args[@]+"${box3d_args[@]}"} >"$out.$r" 2>&1 || code=$?
        else
            prefix="peer_bullet"
            "$peer" "$scene" >"$out.$r" 2>&1 || code=$?
        fi
        if [ "$code" -ne 0 ]; then
            local message
            message=$(grep -m1 "^$prefix: " "$out.$r" | sed "s|^$prefix: ||; s|^$scene: ||" || true)
            [ -n "$message" ] || message=$(head -c 200 "$out.$r" | tr '\n' ' ')
            if [ "$engine" = voltex ] && [ "$code" -eq 2 ]; then
                echo "rejected: $message" >"$out.status"
            elif [ "$code" -eq 2 ]; then
                echo "refused: $message" >"$out.status" # a peer's exit 2: the scene is not built by it
            else
                echo "failed (exit $code): $message" >"$out.status"
            fi
            return 0
        fi
        parse_stats "$prefix" "$out.$r" >"$out.$r.kv"
    done
    echo ok >"$out.status"
    if [ "$engine" = voltex ] && [ -n "$speedup" ]; then echo ok >"$out.threads.status"; fi
}

# figure OUT_PREFIX KEY: the median of KEY over the runs.
figure() {
    local r
    for r in $(seq 1 "$repeat"); do awk -v k="$2" '$1 == k { print $2 }' "$1.$r.kv"; done | median
}

fmt() { # fmt NUMBER PRINTF_FORMAT: "-" stays "-"
    if [ "$1" = "-" ] || [ -z "$1" ]; then printf '%s' "-"; else LC_ALL=C printf "$2" "$1"; fi
}

row_format="%-20s %-7s %6s %5s %10s %10s %8s %9s %23s %10s %8s\n"
print_row() { # print_row SCENE ENGINE OUT_PREFIX [RATIO]
    local scene="$1" engine="$2" out="$3" ratio="${4:--}" status
    status=$(cat "$out.status")
    if [ "$status" != ok ]; then
        printf "%-20s %-7s %s\n" "$scene" "$engine" "$status"
        return
    fi
    local mean steps_s stages s1 s2 s3 s4
    mean=$(figure "$out" mean)
    steps_s=$(awk -v m="$mean" 'BEGIN { if (m + 0 > 0) printf "%.0f", 1000 / m; else print "-" }')
    s1=$(figure "$out" stage1); s2=$(figure "$out" stage2); s3=$(figure "$out" stage3); s4=$(figure "$out" stage4)
    if [ "$s1" = - ] || [ "$s2" = - ] || [ "$s3" = - ] || [ "$s4" = - ]; then
        stages="-"
    else
        stages=$(LC_ALL=C printf "%.2f/%.2f/%.2f/%.2f" "$s1" "$s2" "$s3" "$s4")
    fi
    if [ "$stages" = - ] && [ "$s1" != - ] && [ "$s2" != - ] && [ "$s3" != - ]; then
        # Box3D: its solve stage includes the integration
        stages=$(LC_ALL=C printf "%.2f/%.2f/%.2f/-" "$s1" "$s2" "$s3")
    fi
    LC_ALL=C printf "$row_format" "$scene" "$engine" "$(figure "$out" bodies)" "$(figure "$out" steps)" \
        "$(fmt "$(figure "$out" median)" %.3f)" "$(fmt "$(figure "$out" p95)" %.3f)" "$steps_s" \
        "$(fmt "$(figure "$out" contacts)" %.1f)" "$stages" "$(fmt "$(figure "$out" displacement)" %.4g)" "$ratio"
}

# ---- the runs ----
for scene in "${scenes[@]}"; do
    name=$(scene_name "$scene")
    run_engine voltex "$scene" "$work/$name.voltex"
    for engine in ${peer:+bullet} ${box3d_peer:+box3d}; do
        if [[ "$(cat "$work/$name.voltex.status")" == rejected:* ]]; then
            echo "skipped (the scene is rejected by voltex-sim)" >"$work/$name.$engine.status"
        else
            run_engine "$engine" "$scene" "$work/$name.$engine"
        fi
    done
done

# The trace speed: one scene, once, with every frame of the CSV body trace.
if [ -z "$trace_scene" ]; then
    for scene in "${scenes[@]}"; do
        if [ "$(scene_name "$scene")" = spheres_4096 ] && [ "$(cat "$work/spheres_4096.voltex.status")" = ok ]; then
            trace_scene="$scene"
        fi
    done
    if [ -z "$trace_scene" ]; then
        for scene in "${scenes[@]}"; do
            [ "$(cat "$work/$(scene_name "$scene").voltex.status")" = ok ] && { trace_scene="$scene"; break; }
        done
    fi
else
    trace_scene=$(resolve_scene "$trace_scene") || exit 2
fi
trace_line=""
if [ -n "$trace_scene" ]; then
    vx_log "running voltex on $(scene_name "$trace_scene") with the full CSV trace"
    if "$sim" "$trace_scene" ${sim_args[@]+"${sim_args[@]}"} --stats -q -o "$work/trace.csv" >/dev/null \
        2>"$work/trace.stats"; then
        parse_stats voltex-sim "$work/trace.stats" >"$work/trace.kv"
        mb=$(awk '$1 == "trace_mb" { print $2 }' "$work/trace.kv")
        mbs=$(awk '$1 == "trace_mbs" { print $2 }' "$work/trace.kv")
        trace_line="trace output: $(scene_name "$trace_scene"), CSV body trace of every frame, ${mb:-?} MB at ${mbs:-?} MB/s"
    else
        trace_line="trace output: $(scene_name "$trace_scene") failed: $(head -n1 "$work/trace.stats")"
    fi
    rm -f "$work/trace.csv"
fi

# ---- the table ----
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
threads_label="${threads:-as in each scene}"
[ -z "$speedup" ] || threads_label="1, and $speedup in turn (--speedup)"
order_label="${order:-as in each scene}"
settings_label=""
for ((i = 1; i < ${#solver_settings[@]}; i += 2)); do settings_label+=" ${solver_settings[i]}"; done
[ -z "$settings_label" ] || settings_label=", voltex-sim solver settings:$settings_label"
echo "voltex-sim bench, $(date -u '+%Y-%m-%d %H:%M UTC'), ${cpu:-unknown CPU}, $(nproc) cores," \
     "voltex-sim threads: $threads_label, solver order: $order_label$settings_label, Release, median of $repeat runs"
echo "ms = ms per physics step; steps/s = 1000 / mean ms; stages = broad/narrow/solver/integration ms;" \
     "disp = max displacement (m) of a dynamic body from its start at the end"
if [ -n "$speedup" ]; then
    echo "x$speedup = voltex-sim on $speedup threads, run in turn with each one-thread run; its ratio = one-thread median ms / $speedup-thread median ms"
fi
if [ -n "$peer" ]; then
    echo "bullet ratio = voltex median ms / bullet median ms (Bullet $(pkg-config --modversion bullet 2>/dev/null || echo '?'));" \
         "bullet contacts = every point of its persistent manifolds, also those within its breaking distance"
fi
if [ -n "$box3d_peer" ]; then
    echo "box3d ratio = voltex median ms / box3d median ms ($box3d_label, its defaults: 4 substeps," \
         "${threads:-1} worker(s), no sleeping); box3d stages = pairs/collide/solve (integration inside solve);" \
         "box3d contacts = every point of its touching manifolds, speculative ones included"
fi
LC_ALL=C printf "$row_format" scene engine bodies steps "median ms" "p95 ms" steps/s contacts stages disp ratio
# peer_ratio NAME ENGINE: voltex median ms / ENGINE median ms ("-" unless both ran)
peer_ratio() {
    if [ "$(cat "$work/$1.voltex.status")" = ok ] && [ "$(cat "$work/$1.$2.status")" = ok ]; then
        awk -v a="$(figure "$work/$1.voltex" median)" -v b="$(figure "$work/$1.$2" median)" \
            'BEGIN { if (b + 0 > 0) printf "%.2f", a / b; else print "-" }'
    else
        echo "-"
    fi
}
for scene in "${scenes[@]}"; do
    name=$(scene_name "$scene")
    print_row "$name" voltex "$work/$name.voltex"
    if [ -n "$speedup" ] && [ "$(cat "$work/$name.voltex.status")" = ok ]; then
        gain=$(awk -v a="$(figure "$work/$name.voltex" median)" -v b="$(figure "$work/$name.voltex.threads" median)" \
            'BEGIN { if (b + 0 > 0) printf "%.2fx", a / b; else print "-" }')
        print_row "$name" "x$speedup" "$work/$name.voltex.threads" "$gain"
    fi
    if [ -n "$peer" ]; then print_row "$name" bullet "$work/$name.bullet" "$(peer_ratio "$name" bullet)"; fi
    if [ -n "$box3d_peer" ]; then print_row "$name" box3d "$work/$name.box3d" "$(peer_ratio "$name" box3d)"; fi
done
if [ -n "$trace_line" ]; then echo "$trace_line"; fi
exit 0
