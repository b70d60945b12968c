#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: faultline-cli analyze on a generated ~250 MB, 16-node bundle, next to ripgrep running the catalog's
# patterns over the same files in the same run. Reports MB/s, lines/s and peak RSS.
# usage: tests/bench/run_bench.sh [BUILD_DIR=build/release] [SIZE_MB=250]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${1:-$src/build/release}
size=${2:-250}
work=${BENCH_DIR:-$src/tests/bench/out}
bundle=$work/bundle-$size
cli=$build/app/faultline-cli
[ -x "$cli" ] || { echo "build $cli first (cmake --preset release && cmake --build --preset release)" >&2; exit 2; }
mkdir -p "$work"
[ -d "$bundle" ] || /usr/bin/python3 "$here/generate_bundle.py" "$bundle" "$size" > /dev/null
bytes=$(find "$bundle" -type f ! -name faultline.yaml -printf '%s\n' | awk '{s+=$1} END {print s}')
lines=$(find "$bundle" -type f ! -name faultline.yaml -exec cat {} + | wc -l)
mb=$(awk -v b="$bytes" 'BEGIN {printf "%.1f", b / 1048576}')

# The catalog's extractor patterns, one per line, for rg.
/usr/bin/python3 "$here/catalog_patterns.py" "$src/rules/packs" > "$work/patterns.txt"
npat=$(wc -l < "$work/patterns.txt")
cat "$bundle"/*/* "$bundle"/nodes/*/* > /dev/null 2>&1 || true  # warm the page cache for both tools

time_of() { # prints wall seconds and peak RSS (KiB) of a command, best of 3
  local out
  for _ in 1 2 3; do
    out=$( { /usr/bin/time -f '%e %M' "$@" > /dev/null; } 2>&1 | tail -1 )
    echo "$out"
  done | sort -n | head -1
}
read -r fl_s fl_rss < <(time_of "$cli" analyze "$bundle" --json)
read -r fl1_s fl1_rss < <(time_of "$cli" analyze "$bundle" --json --threads 1)
read -r rg_s rg_rss < <(time_of rg --no-filename --count-matches -f "$work/patterns.txt" "$bundle")
rate() { awk -v n="$1" -v s="$2" 'BEGIN {printf "%.0f", n / (s > 0 ? s : 0.001)}'; }
ratio=$(awk -v a="$fl_s" -v b="$rg_s" 'BEGIN {printf "%.2f", a / (b > 0 ? b : 0.001)}')
verdict=$("$cli" analyze "$bundle" --json | /usr/bin/python3 -c 'import json,sys; v=json.load(sys.stdin); print(v["outcome"], v["cause"]["type"] if v["cause"] else "-", (v["cause"] or {}).get("node"))')
cat <<OUT
bundle: $bundle ($mb MiB, $lines lines, 16 nodes, $(find "$bundle" -type f | wc -l) files); $npat catalog patterns
verdict: $verdict
| tool | wall s | MiB/s | lines/s | peak RSS MiB |
|---|---|---|---|---|
| faultline-cli analyze (all cores) | $fl_s | $(rate "$mb" "$fl_s") | $(rate "$lines" "$fl_s") | $((fl_rss / 1024)) |
| faultline-cli analyze --threads 1 | $fl1_s | $(rate "$mb" "$fl1_s") | $(rate "$lines" "$fl1_s") | $((fl1_rss / 1024)) |
| rg -f patterns (all cores) | $rg_s | $(rate "$mb" "$rg_s") | $(rate "$lines" "$rg_s") | $((rg_rss / 1024)) |
analyze / rg time: ${ratio}x (goal <= 1.5x)
OUT

# Per-format import on one core (faultline-cli import-report --threads 1 --timings: the import alone), next to
# `jq -c .` (JSON formats) and `rg -c .` (text) over the same files.
echo
echo "per-format import, one core:"
echo "| format | MiB | faultline ms | MiB/s | jq -c . ms | rg -c . ms |"
echo "|---|---|---|---|---|---|"
fmt_row() { # name json? files...
  local name=$1 isjson=$2; shift 2
  local mib best=999999 t jqt="-" rgt
  mib=$(du -cb "$@" | tail -1 | awk '{printf "%.1f", $1 / 1048576}')
  for _ in 1 2 3; do
    t=$("$cli" import-report "$@" --threads 1 --timings 2>&1 > /dev/null | sed -n 's/.*import \([0-9]*\) ms.*/\1/p')
    [ -n "$t" ] && [ "$t" -lt "$best" ] && best=$t
  done
  if [ "$isjson" = yes ]; then
    jqt=$( { /usr/bin/time -f '%e' jq -c . "$@" > /dev/null; } 2>&1 | awk '{printf "%d", $1 * 1000}')
  fi
  rgt=$( { /usr/bin/time -f '%e' rg -c . "$@" > /dev/null; } 2>&1 | tail -1 | awk '{printf "%d", $1 * 1000}')
  echo "| $name | $mib | $best | $(awk -v m="$mib" -v t="$best" 'BEGIN {printf "%.0f", m / (t > 0 ? t : 1) * 1000}') | $jqt | $rgt |"
}
fmt_row logcli-jsonl yes "$bundle"/loki/joblog.jsonl
fmt_row journal-json yes "$bundle"/nodes/node-0[1-4]/journal-kernel.jsonl
fmt_row dmesg-raw no "$bundle"/nodes/node-0[1-4]/dmesg.txt
fmt_row slurm-joblog no "$bundle"/joblogs/slurm-90001.out

# The case file (faultline-cli analyze -o): build cost next to analyze alone, size, open-to-verdict, line fetch and
# search speed. Each build writes a fresh case.
echo
echo "case file:"
case_file=$work/bundle-$size.faultline
bench=$build/tests/faultline-case-bench
best_case=999
for _ in 1 2 3; do
  rm -f "$case_file"
  t=$( { /usr/bin/time -f '%e' "$cli" analyze "$bundle" --json -o "$case_file" > /dev/null; } 2>&1 | tail -1)
  best_case=$(awk -v a="$t" -v b="$best_case" 'BEGIN {print (a < b ? a : b)}')
done
read -r an_s _ < <(time_of "$cli" analyze "$bundle" --json)
case_bytes=$(stat -c %s "$case_file")
read -r show_s _ < <(time_of "$cli" show "$case_file")
read -r grep_s _ < <(time_of "$cli" grep "$case_file" 'Xid \(PCI|watchdog')
echo "| measure | value | goal |"
echo "|---|---|---|"
echo "| analyze -o (best of 3) / analyze alone (best of 3, same run) | $best_case s / $an_s s = $(awk -v a="$best_case" -v b="$an_s" 'BEGIN {printf "%.2f", a / b}')x | <= 2x |"
echo "| case size / bundle size | $((case_bytes / 1048576)) MiB / $mb MiB = $(awk -v a="$case_bytes" -v b="$bytes" 'BEGIN {printf "%.1f", 100 * a / b}') % | <= 40 % |"
echo "| faultline-cli show (process start to verdict printed) | $show_s s | <= 0.3 s |"
echo "| faultline-cli grep over all evidence (process) | $grep_s s = $(rate "$mb" "$grep_s") MiB/s | >= 300 MB/s |"
cp "$case_file" "$work/rerun.faultline"
read -r rerun_s rerun_rss < <( { /usr/bin/time -f '%e %M' "$cli" rerun "$work/rerun.faultline" > /dev/null; } 2>&1 | tail -1)
read -r verify_s _ < <( { /usr/bin/time -f '%e %M' "$cli" verify "$case_file" > /dev/null; } 2>&1 | tail -1)
echo "| faultline-cli rerun (stored evidence re-imported, analysed, run added) | $rerun_s s, peak RSS $((rerun_rss / 1024)) MiB | - |"
echo "| faultline-cli verify (every chunk and file hash) | $verify_s s | - |"
rm -f "$work/rerun.faultline"
"$bench" "$case_file" 'Xid \(PCI|watchdog'
