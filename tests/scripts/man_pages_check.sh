#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The generated man pages have NAME, SYNOPSIS and DESCRIPTION and carry every command and option that the
# program's --help lists.  usage: man_pages_check.sh MAN_DIR
set -u
dir=${1:?usage: man_pages_check.sh MAN_DIR}
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }
for name in faultline-cli faultline faultline-collect; do
  page="$dir/$name.1.gz"
  help="$dir/$name.help"
  [ -s "$page" ] || { fail "$page is missing or empty"; continue; }
  roff=$(gzip -dc "$page")
  for section in NAME SYNOPSIS DESCRIPTION; do
    grep -qx "\.SH $section" <<<"$roff" || fail "$name(1) has no $section section"
  done
  grep -q "^\.TH ${name^^} 1" <<<"$roff" || fail "$name(1) has no .TH ${name^^} 1 title line"
  # Every entry of the help (a line indented by two spaces) must be an entry of the page.
  while IFS= read -r entry; do
    word=$(sed -E 's/^  +//; s/[ ,].*//' <<<"$entry")
    plain=$(sed 's/\\-/-/g; s/\\f[BIR]//g' <<<"$roff")
    grep -qF -- "$word" <<<"$plain" || fail "$name(1) lacks '$word', which its --help lists"
  done < <(grep -E '^  [^ ]' "$help")
done
[ "$failures" -eq 0 ] && echo "man_pages_check: ok" && exit 0
echo "man_pages_check: $failures failed"
exit 1
