# SPDX-License-Identifier: Apache-2.0
# bash completion for faultline, the workbench: its options are read from `faultline --help` (once per shell);
# arguments are bundles (directories, archives, files) and case files.

_faultline()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    if [ -z "${_faultline_gui_options+x}" ]; then
        _faultline_gui_options=$(faultline --help 2>/dev/null | grep -oE -- '^ +(-[a-zA-Z], )?--[a-z][a-z-]*' |
            tr ',' ' ' | tr '\n' ' ')
    fi
    case $prev in
    --screenshot)
        mapfile -t COMPREPLY < <(compgen -f -X '!*.png' -- "$cur"; compgen -d -- "$cur")
        return
        ;;
    --export-report)
        mapfile -t COMPREPLY < <(compgen -f -X '!*.faultline' -- "$cur"; compgen -d -- "$cur")
        return
        ;;
    --format)
        mapfile -t COMPREPLY < <(compgen -W "md html pdf" -- "$cur")
        return
        ;;
    --rules)
        mapfile -t COMPREPLY < <(compgen -d -- "$cur")
        return
        ;;
    esac
    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$_faultline_gui_options" -- "$cur")
        return
    fi
    if declare -F _filedir >/dev/null; then
        _filedir
    else
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
}
complete -F _faultline faultline
