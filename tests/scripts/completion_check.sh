#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The bash completions complete what each program's --help lists: commands, each command's options, the GUI's options.
# usage: completion_check.sh SOURCE_DIR CLI_DIR GUI_DIR
set -u
src=${1:?usage: completion_check.sh SOURCE_DIR CLI_DIR GUI_DIR}
export PATH="$2:$3:$PATH"
unset DISPLAY WAYLAND_DISPLAY QT_QPA_PLATFORM
# shellcheck source=/dev/null
. "$src/packaging/completion/faultline-cli.bash"
# shellcheck source=/dev/null
. "$src/packaging/completion/faultline.bash"
failures=0

# complete FUNCTION WORD... : completes the last word, prints COMPREPLY sorted, one line
complete_words() {
  local fn=$1
  shift
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE="${COMP_WORDS[*]}"
  COMP_POINT=${#COMP_LINE}
  COMPREPLY=()
  "$fn"
  printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}

expect() { # expect WANT FUNCTION WORD...
  local want=$1 got
  shift
  got=$(complete_words "$@")
  if [ "$got" = "$want" ]; then
    echo "ok: '${*:2}' -> $got"
  else
    echo "FAILED: completing '${*:2}': expected '$want', got '$got'"
    failures=$((failures + 1))
  fi
}

expect "show" _faultline_cli faultline-cli sh
expect "redact report rerun rules" _faultline_cli faultline-cli r
expect "--json --preview --profile --rules" _faultline_cli faultline-cli redact x.faultline --
expect "import-report" _faultline_cli faultline-cli imp
expect "--window" _faultline_cli faultline-cli analyze --wi
expect "--threads --timings" _faultline_cli faultline-cli analyze bundle --t
expect "--max" _faultline_cli faultline-cli grep x.faultline pattern --m
expect "--read-only --run --runs" _faultline_cli faultline-cli show x.faultline --r
expect "--rule --rules" _faultline_cli faultline-cli explain x.faultline --rul
expect "expect explain" _faultline_cli faultline-cli ex
expect "test" _faultline_cli faultline-cli rules t
expect "regress" _faultline_cli faultline-cli rules r
expect "--cases --catalog --json --junit --no-user-rules --rules --threads" _faultline_cli faultline-cli rules regress --
expect "--help --version" _faultline_cli faultline-cli --
expect "--screenshot" _faultline faultline --scr
expect "--export-report" _faultline faultline --exp
expect "html" _faultline faultline --export-report x.faultline --format h
expect "pdf" _faultline_cli faultline-cli report x.faultline --format p
expect "--pictures" _faultline_cli faultline-cli report x.faultline --pic
expect "--range --remove" _faultline_cli faultline-cli annotate x.faultline --r
[ "$failures" -eq 0 ] && echo "completion_check: ok" && exit 0
echo "completion_check: $failures failed"
exit 1
