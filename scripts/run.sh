#!/usr/bin/env bash
# scripts/run.sh ARGS...: install what is missing, build voltex-sim (Release)
# when the sources changed, then run `voltex-sim ARGS...`. The build goes to
# build/release, or to VOLTEX_BUILD_DIR when it is set.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/setup.sh"

build="${VOLTEX_BUILD_DIR:-$vx_root/build/release}"
if ! vx_is_current "$build" voltex-sim; then
    vx_install "${VX_BUILD_PACKAGES[@]}"
    vx_log "building voltex-sim (Release) in $build: on the first run and after the sources change"
    vx_build "$build" Release -DVOLTEX_BUILD_TESTS=OFF -- voltex-sim
    # a build with nothing to redo (a test changed) leaves the binary's time: mark it current
    touch "$build/voltex-sim"
    vx_log "built $build/voltex-sim"
fi
exec "$build/voltex-sim" "$@"
