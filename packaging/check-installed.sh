#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Checks an installed Faultline package: run as root inside a root where `apt-get install ./faultline_*.deb` ran,
# with desktop-file-utils, appstream, xdg-utils, libfile-mimeinfo-perl and shared-mime-info (and xvfb for the window
# check) installed after it.
# Every check says what it expected and what it got.
set -eu
share=/usr/share
failures=0
check() { # check NAME COMMAND...: runs the command, reports its output on failure
  name=$1
  shift
  if out=$("$@" 2>&1); then
    echo "ok: $name"
  else
    echo "FAILED: $name: '$*' exited $?:" >&2
    printf '%s\n' "$out" | sed 's/^/    /' >&2
    failures=$((failures + 1))
  fi
}
expect() { # expect NAME WANT GOT
  if [ "$2" = "$3" ]; then
    echo "ok: $1 ($3)"
  else
    echo "FAILED: $1: expected '$2', got '$3'" >&2
    failures=$((failures + 1))
  fi
}
contains() { # contains NAME TEXT FILE
  if grep -qF -- "$2" "$3"; then
    echo "ok: $1"
  else
    echo "FAILED: $1: '$2' not in the output:" >&2
    sed 's/^/    /' "$3" >&2
    failures=$((failures + 1))
  fi
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

check "faultline-cli --version" faultline-cli --version
faultline-cli analyze $share/faultline/samples/bundle-48213 >"$work/verdict.txt" 2>&1 || true
contains "faultline-cli analyze on the installed sample: outcome" "infrastructure_failure" "$work/verdict.txt"
contains "faultline-cli analyze on the installed sample: cause" "Xid 149" "$work/verdict.txt"
env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM faultline $share/faultline/samples/bundle-48213 \
  >"$work/gui.txt" 2>&1 || true
contains "faultline with no display prints the verdict" "infrastructure_failure" "$work/gui.txt"
check "faultline starts offscreen" env QT_QPA_PLATFORM=offscreen faultline --version
# A real X server: the installed workbench opens its window on the sample and writes a picture of it.
if command -v xvfb-run >/dev/null; then
  check "faultline opens a window on an X server (Xvfb)" env -u QT_QPA_PLATFORM xvfb-run -a \
    faultline --screenshot "$work/window.png" $share/faultline/samples/bundle-48213
  check "the window's screenshot was written" test -s "$work/window.png"
fi
check "faultline-collect --help" faultline-collect --help

check "desktop-file-validate" desktop-file-validate $share/applications/dev.faultline.Faultline.desktop
check "appstreamcli validate" appstreamcli validate --no-net --explain $share/metainfo/dev.faultline.Faultline.metainfo.xml
for p in faultline faultline-cli faultline-collect; do
  check "man page $p(1)" test -s $share/man/man1/$p.1.gz
done
check "man page faultline-cli(1) renders" sh -c "zcat $share/man/man1/faultline-cli.1.gz | grep -q '^\\.SH'"
check "bash completion for faultline-cli" bash -c \
  ". $share/bash-completion/completions/faultline-cli && complete -p faultline-cli"
check "bash completion for faultline" bash -c ". $share/bash-completion/completions/faultline && complete -p faultline"
check "copyright and bundled licences" grep -q 'License: Apache-2.0' $share/doc/faultline/copyright
for lib in Qt yaml-cpp RE2 SQLite simdjson libarchive zstd OpenSSL date; do
  check "licence of $lib in copyright" grep -qi "$lib" $share/doc/faultline/copyright
done
check "AppStream screenshot" test -s $share/faultline/screenshots/workbench.png

faultline-cli analyze $share/faultline/samples/bundle-48213 -o "$work/incident.faultline" >/dev/null 2>&1 || true
expect "xdg-mime filetype of a .faultline case" application/x-faultline-case \
  "$(xdg-mime query filetype "$work/incident.faultline" 2>&1)"
expect "xdg-mime default application for a case" dev.faultline.Faultline.desktop \
  "$(xdg-mime query default application/x-faultline-case 2>&1)"
# A PDF report from the CLI: it runs the installed workbench's renderer offscreen, with no display.
env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM faultline-cli report "$work/incident.faultline" --format pdf \
  -o "$work/incident.pdf" >"$work/pdf.txt" 2>&1 || true
contains "faultline-cli report --format pdf runs the installed renderer" "report written to" "$work/pdf.txt"
expect "the PDF report's first bytes" "%PDF-" "$(head -c 5 "$work/incident.pdf" 2>&1)"

if [ "$failures" -ne 0 ]; then
  echo "check-installed: $failures check(s) failed" >&2
  exit 1
fi
echo "check-installed: all checks passed"
