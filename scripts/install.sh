#!/usr/bin/env bash
# scripts/install.sh [PREFIX]: install what is missing, build Release and
# `cmake --install` under PREFIX: bin/voltex-sim, lib/libvoltex.a and
# libvoltex.so, include/voltex/, lib/cmake/voltex/ (find_package(voltex)) and
# lib/pkgconfig/voltex.pc. PREFIX defaults to /usr/local as root, else ~/.local.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/setup.sh"

case "${1:-}" in
    -h|--help) sed -n '2,5s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
esac
[ $# -le 1 ] || { vx_log "usage: scripts/install.sh [PREFIX]"; exit 2; }

if [ $# -eq 1 ]; then
    prefix="$1"
    why="given"
elif [ "$(id -u)" -eq 0 ]; then
    prefix=/usr/local
    why="the default as root"
else
    prefix="$HOME/.local"
    why="the default as a user; as root it is /usr/local"
fi
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
vx_log "installing under $prefix ($why)"

vx_install "${VX_BUILD_PACKAGES[@]}"
build="$vx_root/build/release" # scripts/run.sh's build too
vx_log "building Release in $build"
vx_build "$build" Release -DVOLTEX_BUILD_TESTS=OFF -DCMAKE_INSTALL_PREFIX="$prefix"
cmake --install "$build" --prefix "$prefix" >"$build/install.log" 2>&1 ||
    { cat "$build/install.log" >&2; vx_log "install failed"; exit 1; }
libdir="$prefix/$(sed -n 's/^CMAKE_INSTALL_LIBDIR:PATH=//p' "$build/CMakeCache.txt")"
[ "$(id -u)" -ne 0 ] || ldconfig 2>/dev/null || true # libvoltex.so in the loader's cache

vx_log "installed (every file: $build/install_manifest.txt):"
vx_log "  voltex-sim  $prefix/bin/voltex-sim"
vx_log "  libraries   $libdir/libvoltex.a, libvoltex.so; headers $prefix/include/voltex/"
vx_log "  packages    $libdir/cmake/voltex/ (find_package), $libdir/pkgconfig/voltex.pc"
vx_log "  man page    $prefix/share/man/man1/voltex-sim.1; completion and scene schema under $prefix/share/"
if [ "$(command -v voltex-sim || true)" = "$prefix/bin/voltex-sim" ]; then
    vx_log "voltex-sim is on PATH"
else
    vx_log "voltex-sim is not on PATH as $prefix/bin/voltex-sim: export PATH=\"$prefix/bin:\$PATH\""
fi
case ":${PKG_CONFIG_PATH:-}:$(pkg-config --variable pc_path pkg-config 2>/dev/null || true):" in
    *":$libdir/pkgconfig:"*) ;;
    *) vx_log "pkg-config does not look there: export PKG_CONFIG_PATH=\"$libdir/pkgconfig\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}\"" ;;
esac
vx_log "CMake finds the package under /usr/local, /usr and the folder above each bin/ of PATH; elsewhere give -DCMAKE_PREFIX_PATH=$prefix"
