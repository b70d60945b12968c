#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: two rule catalogs side by side on the generated bundle, with one build, next to ripgrep over the newer
# catalog's patterns. Each round throws one analysis away (on a VM that drops the page cache between runs the first
# analysis after a pause measures the disk, not the rules), then runs the old and the new catalog alternately, twice
# each, then rg. Prints the medians and minimums and rg / analyze for both.
# usage: tests/bench/run_catalog_compare.sh OLD_RULES_DIR [BUILD_DIR=build/release] [ROUNDS=8]
#   OLD_RULES_DIR: a catalog directory, e.g. from `git archive REV rules | tar -x -C /tmp/old` (then /tmp/old/rules)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
old=${1:?usage: run_catalog_compare.sh OLD_RULES_DIR [BUILD_DIR] [ROUNDS]}
build=${2:-$src/build/release}
rounds=${3:-8}
work=${BENCH_DIR:-$src/tests/bench/out}
bundle=$work/bundle-250
cli=$build/app/faultline-cli
[ -x "$cli" ] || { echo "build $cli first (cmake --preset release && cmake --build --preset release)" >&2; exit 2; }
[ -d "$bundle" ] || /usr/bin/python3 "$here/generate_bundle.py" "$bundle" 250 > /dev/null
patterns=$work/patterns-compare.txt
# The catalog's extractor patterns, one per line, for rg.
/usr/bin/python3 "$here/catalog_patterns.py" "$src/rules/packs" > "$patterns"
echo "patterns (new catalog): $(wc -l < "$patterns")"
files=("$bundle"/*/* "$bundle"/nodes/*/*)
seconds() { { /usr/bin/time -f '%e' "$@" > /dev/null; } 2>&1 | tail -1; }
analyze=("$cli" analyze "$bundle" --json --no-user-rules)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for _ in $(seq 1 "$rounds"); do
    seconds "${analyze[@]}" > /dev/null
    for _ in 1 2; do
        echo "old $(seconds "${analyze[@]}" --catalog "$old")" >> "$log"
        echo "new $(seconds "${analyze[@]}")" >> "$log"
    done
    echo "rg $(seconds rg -c -f "$patterns" "${files[@]}")" >> "$log"
done
/usr/bin/python3 - "$log" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    kind, value = line.split()
    runs.setdefault(kind, []).append(float(value))
for kind in ("old", "new", "rg"):
    v = runs[kind]
    print(f"{kind:>3}: {len(v)} runs, median {statistics.median(v):.2f} s, best {min(v):.2f} s")
for kind in ("old", "new"):
    med = statistics.median(runs["rg"]) / statistics.median(runs[kind])
    best = min(runs["rg"]) / min(runs[kind])
    print(f"rg / analyze ({kind} catalog): {med:.2f} median against median, {best:.2f} best against best")
PY
