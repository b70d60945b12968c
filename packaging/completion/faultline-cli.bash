# SPDX-License-Identifier: Apache-2.0
# bash completion for faultline-cli. The commands and each command's options are read from
# `faultline-cli --help` (once per shell), so the completion follows the help text instead of copying it.

_faultline_cli_help_parse()
{
    [ -n "${_faultline_cli_commands+x}" ] && return
    _faultline_cli_commands=""
    declare -gA _faultline_cli_options=() _faultline_cli_subcommands=()
    local line cmd="" in_commands=0 rest
    while IFS= read -r line; do
        case $line in
        "commands:") in_commands=1; continue ;;
        [a-z]*:) in_commands=0; continue ;;
        esac
        [ $in_commands -eq 1 ] || continue
        if [[ $line =~ ^\ \ ([a-z][a-z-]*)(\ (test|regress))?(\ |$) ]]; then
            # "rules test" and "rules regress" are commands in two words: "rules", then the subcommand.
            cmd=${BASH_REMATCH[1]}
            [[ " $_faultline_cli_commands " == *" $cmd "* ]] || _faultline_cli_commands+=" $cmd"
            if [ -n "${BASH_REMATCH[3]}" ]; then
                _faultline_cli_subcommands[$cmd]+=" ${BASH_REMATCH[3]}"
                cmd="$cmd ${BASH_REMATCH[3]}" # options are per subcommand
            fi
            rest=${line#  "$cmd"}
        elif [[ $line =~ ^\ {10}[\[\(-] ]]; then
            rest=$line
        else
            continue
        fi
        [ -n "$cmd" ] || continue
        _faultline_cli_options[$cmd]+=" $(grep -oE -- '(^|[[ (|])-(-[a-z][a-z-]*|[a-z])' <<<"$rest" | tr -d '[(| ' | tr '\n' ' ')"
    done < <(faultline-cli --help 2>/dev/null)
}

# Files or directories: bash-completion's _filedir when it is loaded, compgen otherwise.
_faultline_files()
{
    if declare -F _filedir >/dev/null; then
        _filedir "$@"
    elif [ "${1-}" = -d ]; then
        mapfile -t COMPREPLY < <(compgen -d -- "$cur")
    else
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
}

_faultline_cli()
{
    local cur prev words cword
    if declare -F _init_completion >/dev/null; then
        _init_completion || return
    else
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD - 1]}
    fi
    _faultline_cli_help_parse

    if [ "$cword" -eq 1 ]; then
        mapfile -t COMPREPLY < <(compgen -W "$_faultline_cli_commands --help --version" -- "$cur")
        return
    fi
    local cmd=${words[1]}
    [ -n "${_faultline_cli_subcommands[$cmd]+x}" ] && [ "$cword" -ge 3 ] && cmd="$cmd ${words[2]}"
    case $prev in
    --rules | --catalog | --cases)
        _faultline_files -d
        return
        ;;
    --junit | --profile | --redact)
        _faultline_files
        return
        ;;
    -o)
        _faultline_files faultline
        return
        ;;
    --format)
        mapfile -t COMPREPLY < <(compgen -W "md html pdf" -- "$cur")
        return
        ;;
    --line)
        return
        ;;
    --job | --window | --threads | --run | --diff | --from | --to | --node | --file | --max | --note | --tag | \
        --bookmark | --narrative | --remove | --event | --author | --rule | --symptom | --lane | --range | --tags)
        return
        ;;
    esac
    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "${_faultline_cli_options[$cmd]}" -- "$cur")
        return
    fi
    case $cmd in
    rules)
        mapfile -t COMPREPLY < <(compgen -W "${_faultline_cli_subcommands[rules]}" -- "$cur")
        ;;
    rules\ *)
        _faultline_files -d
        ;;
    analyze | import-report | explain)
        _faultline_files
        ;;
    *)
        _faultline_files faultline
        ;;
    esac
}
complete -F _faultline_cli faultline-cli
