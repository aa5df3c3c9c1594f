#!/usr/bin/env bash
# scripts/update_golden.sh [SCENE.json...]: regenerate tests/golden/<name>.csv
# (and <name>.queries.csv for a scene with queries, <name>.joints.csv for one
# with joints) from scenes/<name>.json
# (all example scenes by default). Run it on purpose,
# after a change that is meant to alter the physics, and say so in the commit.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/setup.sh"

scenes=("$@")
[ ${#scenes[@]} -gt 0 ] || scenes=("$vx_root"/scenes/*.json)
mkdir -p "$vx_root/tests/golden"
for scene in "${scenes[@]}"; do
    name=$(basename "$scene" .json)
    out="$vx_root/tests/golden/$name.csv"
    "$vx_root/scripts/run.sh" "$scene" --quiet -o "$out"
    vx_log "wrote tests/golden/$name.csv ($(wc -l <"$out") lines)"
    if grep -q '"queries"' "$scene"; then # the query trace too, compared byte for byte
        queries="$vx_root/tests/golden/$name.queries.csv"
        "$vx_root/scripts/run.sh" "$scene" --quiet -o /dev/null --queries "$queries"
        vx_log "wrote tests/golden/$name.queries.csv ($(wc -l <"$queries") lines)"
    fi
    if grep -q '"joints"' "$scene"; then # and the joint trace
        joints="$vx_root/tests/golden/$name.joints.csv"
        "$vx_root/scripts/run.sh" "$scene" --quiet -o /dev/null --joints "$joints"
        vx_log "wrote tests/golden/$name.joints.csv ($(wc -l <"$joints") lines)"
    fi
done
