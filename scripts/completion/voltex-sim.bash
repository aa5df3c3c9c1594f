# Bash completion for voltex-sim: options, the values of --format, --layout,
# --order, --stats= and --solver KEY=, and scene files (*.json) or output paths.
# Installed as share/bash-completion/completions/voltex-sim; or source it.
_voltex_sim()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=""
    [ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}
    local options="--steps --dt --format --layout --output --contacts --queries --joints --every --compare
                   --tolerance --rtol --stats --stats=json --stats-file --threads --order --solver --set --memory-budget --quiet
                   --help --version --schema"
    local solver_keys="iterations position_iterations substeps warm_starting sleeping threads
                       restitution_threshold baumgarte_slop baumgarte_percent max_correction
                       speculative_distance broadphase order reuse_contacts restitution"
    COMPREPLY=()
    case "$prev" in
    -f | --format) mapfile -t COMPREPLY < <(compgen -W "csv json jsonl glb" -- "$cur"); return 0 ;;
    --layout) mapfile -t COMPREPLY < <(compgen -W "long wide" -- "$cur"); return 0 ;;
    --order) mapfile -t COMPREPLY < <(compgen -W "sequential colored" -- "$cur"); return 0 ;;
    --solver)
        mapfile -t COMPREPLY < <(compgen -W "$solver_keys" -S "=" -- "$cur")
        compopt -o nospace 2>/dev/null
        return 0 ;;
    -o | --output | --contacts | --queries | --joints | --compare | --stats-file)
        mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return 0 ;;
    -n | --steps | --dt | --every | --tolerance | --rtol | --threads | --set | --memory-budget) return 0 ;; # a value of the user's
    esac
    if [[ "$cur" == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
        return 0
    fi
    mapfile -t COMPREPLY < <(compgen -f -X '!*.json' -- "$cur"; compgen -d -- "$cur")
    return 0
}
complete -F _voltex_sim voltex-sim
