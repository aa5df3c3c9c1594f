#!/usr/bin/env bash
# scripts/update_golden.sh [SCENE.json...]: regenerate tests/golden/<name>.csv
# (and <name>.queries.csv for a scene with queries, <name>.joints.csv for one
# with joints) from scenes/<name>.json
# (all example scenes by default), with scripts/golden_suite --update. Run it
# on purpose, after a change that is meant to alter the physics, and say so
# in the commit.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
only=()
for scene in "$@"; do only+=(-k "$(basename "$scene" .json)"); done
exec "$root/scripts/golden_suite" "$root/scenes" "$root/tests/golden" --update "${only[@]}"
