# Shared set-up for scripts/run.sh and scripts/test.sh (sourced, not run).
# Installs Debian packages only when missing, and builds only when the sources
# are newer than the build. Everything it prints goes to stderr: stdout belongs
# to voltex-sim's trace.

vx_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

vx_log() { printf 'voltex: %s\n' "$*" >&2; }

# vx_install PKG...: apt-get install the packages that are not installed yet.
vx_install() {
    local missing=() pkg
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || { vx_log "need root (or sudo) to install: ${missing[*]}"; return 1; }
        sudo="sudo"
    fi
    vx_log "installing ${missing[*]}"
    $sudo apt-get update -qq >&2 || return 1
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 || return 1
}

VX_BUILD_PACKAGES=(gcc make cmake pkg-config libc6-dev libcjson-dev)
# parallel, rsync: golden_suite and sweep; python3-jsonschema: the scene schema's test; groff-base, man-db: the manual page's;
# python3-pandas, gnuplot-nox, jq: the examples of the docs, which the tests run
# clang: the fuzzers and scripts/cross_check.sh; chromium: the viewer's browser tests (scripts/view_trace) and its --video, with ffmpeg
VX_TEST_PACKAGES=(libcriterion-dev clang python3 python3-matplotlib python3-jsonschema groff-base man-db
                  python3-pandas gnuplot-nox jq parallel rsync chromium ffmpeg)

# vx_npm_ci: Node.js and npm (Debian's, unless the machine has its own), then
# the npm packages pinned in package-lock.json (three.js for the viewer, the
# glTF Validator and playwright-core for the tests) with `npm ci`, only when
# node_modules is missing or older than the lockfile. Nothing else is fetched:
# playwright-core drives the system's chromium and downloads no browser.
vx_npm_ci() {
    if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
        vx_install nodejs npm || return 1
    fi
    local installed="$vx_root/node_modules/.package-lock.json"
    [ -f "$installed" ] && [ ! "$vx_root/package-lock.json" -nt "$installed" ] && return 0
    vx_log "installing the npm packages of package-lock.json (npm ci)"
    (cd "$vx_root" && npm ci --ignore-scripts --no-audit --no-fund >&2) || { vx_log "npm ci failed"; return 1; }
}

# vx_is_current BUILD_DIR FILE: true when FILE exists and no source is newer.
vx_is_current() {
    local file="$1/$2"
    [ -x "$file" ] || return 1
    [ -z "$(find "$vx_root/CMakeLists.txt" "$vx_root/src" "$vx_root/include" "$vx_root/tests" \
            -newer "$file" -print -quit 2>/dev/null)" ]
}

# vx_build BUILD_DIR BUILD_TYPE [CMAKE_ARGS...] -- [TARGETS...]: configure, then build.
# The build log goes to BUILD_DIR/build.log and is shown only on failure.
vx_build() {
    local dir="$1" type="$2"; shift 2
    local cmake_args=() targets=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do cmake_args+=("$1"); shift; done
    [ "${1:-}" = "--" ] && shift
    targets=("$@")
    mkdir -p "$dir"
    local log="$dir/build.log"
    # configured every time (quick when nothing changed), so the options given win
    if ! cmake -S "$vx_root" -B "$dir" -DCMAKE_BUILD_TYPE="$type" "${cmake_args[@]}" >"$log" 2>&1; then
        cat "$log" >&2; vx_log "configure failed ($dir)"; return 1
    fi
    local target_args=()
    [ ${#targets[@]} -gt 0 ] && target_args=(--target "${targets[@]}")
    # the build's status through a file: the pipeline's own status is the
    # progress filter's, whatever set -e / pipefail the caller has
    { cmake --build "$dir" -j "$(nproc)" "${target_args[@]}" 2>&1; echo "$?" >"$dir/build.status"; } |
        tee "$log" | vx_build_progress
    if [ "$(cat "$dir/build.status" 2>/dev/null)" != 0 ]; then
        cat "$log" >&2; vx_log "build failed ($dir)"; return 1
    fi
}

# Make's "[ 42%] ..." lines as one line on stderr per tenth of the build.
vx_build_progress() {
    sed -un 's/^\[ *\([0-9][0-9]*\)%\].*/\1/p' |
        awk '$1 >= next_at { printf "voltex:   built %d%%\n", $1 > "/dev/stderr"; fflush("/dev/stderr"); next_at = $1 - $1 % 10 + 10 }'
}
