#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: `faultline-cli rules regress` over a library of CASES saved cases (default 100), made from the bundled
# samples (each sample analysed once, then copied until the library holds CASES files; a copy is a whole case and is
# re-analysed in full), with the bundled catalog and with a catalog missing the GPU pack (which breaks every case
# whose cause is an Xid). Prints the wall time of each run and the regression's own summary line.
# usage: tests/bench/run_regress_bench.sh [BUILD_DIR=build/release] [CASES=100]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${1:-$src/build/release}
count=${2:-100}
cli=$build/app/faultline-cli
[ -x "$cli" ] || {
  echo "build $cli first (cmake --preset release && cmake --build --preset release --target faultline-cli)" >&2
  exit 2
}
work=${BENCH_DIR:-$src/tests/bench/out}/regress-$count
rm -rf "$work"
mkdir -p "$work/lib" "$work/seed"
samples=()
for s in "$src"/resources/samples/*/; do
  name=$(basename "$s")
  FAULTLINE_AUTHOR=bench "$cli" analyze "$s" -o "$work/seed/$name.faultline" > /dev/null 2>&1
  FAULTLINE_AUTHOR=bench "$cli" expect "$work/seed/$name.faultline" > /dev/null
  samples+=("$name")
done
for ((i = 0; i < count; ++i)); do
  name=${samples[i % ${#samples[@]}]}
  cp "$work/seed/$name.faultline" "$work/lib/$(printf '%03d' "$i")-$name.faultline"
done
cp -r "$src/rules" "$work/rules-nogpu"
rm "$work/rules-nogpu/packs/gpu.yaml"
bytes=$(du -sb "$work/lib" | cut -f1)
echo "library: $count cases, $((bytes / 1024 / 1024)) MiB, on $(nproc) cores"
for rules in "$src/rules" "$work/rules-nogpu"; do
  start=$(date +%s%N)
  status=0
  "$cli" rules regress --cases "$work/lib" --rules "$rules" > "$work/out.txt" || status=$?
  end=$(date +%s%N)
  printf '%s: %s s (exit %d): %s\n' "$(basename "$rules")" "$(awk -v ns=$((end - start)) 'BEGIN { printf "%.1f", ns / 1e9 }')" \
    "$status" "$(tail -n 1 "$work/out.txt")"
done
