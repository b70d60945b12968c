#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: the evidence search (usecases::searchEvidence) over a generated ~1 GB, 16-node bundle held in memory,
# each search with 1 thread and with every core side by side (faultline-search-bench), again without the literal
# prefilter, then ripgrep over the same files for reference (rg reads the files from the page cache; the search reads
# the bytes the import mapped).
# usage: tests/bench/run_search_bench.sh [BUILD_DIR=build/release] [SIZE_MB=1000]
# The row names quote patterns in Markdown backticks, which must not expand.
# shellcheck disable=SC2016
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${1:-$src/build/release}
size=${2:-1000}
work=${BENCH_DIR:-$src/tests/bench/out}
bundle=$work/bundle-$size
bench=$build/tests/faultline-search-bench
[ -x "$bench" ] || {
  echo "build $bench first (cmake --preset release && cmake --build --preset release --target faultline-search-bench)" >&2
  exit 2
}
mkdir -p "$work"
[ -d "$bundle" ] || /usr/bin/python3 "$here/generate_bundle.py" "$bundle" "$size" > /dev/null
cat "$bundle"/*/* "$bundle"/nodes/*/* > /dev/null 2>&1 || true  # warm the page cache

"$bench" "$bundle" --runs 3
echo
echo "the same without the literal prefilter (RE2's whole-chunk scan for every search):"
"$bench" "$bundle" --runs 3 --no-prefilter | tail -n +2

echo
echo "ripgrep over the same files (best of 3, wall s; rg -c counts matching lines):"
echo "| search | rg -c lines | rg s |"
echo "|---|---|---|"
rg_row() { # name, then rg's arguments
  local name=$1 t best=999 n
  shift
  for _ in 1 2 3; do
    t=$( { /usr/bin/time -f '%e' rg -c --no-filename "$@" "$bundle" > /dev/null || true; } 2>&1 | tail -1)
    best=$(awk -v a="$t" -v b="$best" 'BEGIN {print (a < b ? a : b)}')
  done
  n=$( { rg -c --no-filename "$@" "$bundle" || true; } | awk '{s += $1} END {print s + 0}')
  echo "| $name | $n | $best |"
}
rg_row 'rare literal `Xid (PCI:`' -F 'Xid (PCI:'
rg_row 'alternation `Xid \(PCI|Watchdog caught`' 'Xid \(PCI|Watchdog caught'
rg_row 'case-insensitive `nccl warn`' -i 'nccl warn'
rg_row 'class and repeat `status=\d+ opcode`' 'status=\d+ opcode'
rg_row 'no hit `segfault at [0-9a-f]+`' 'segfault at [0-9a-f]+'
rg_row 'frequent `lm loss 2\.9`, all hits' 'lm loss 2\.9'
