#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: a rule re-run on a case of about a million lines, as the workbench's rule editor does it
# (faultline-rule-bench): the generated bundle imported and analysed once, then an edited bundled rule and a rule
# drafted from the incident's Xid line, each checked (the catalog built from the edited text) and re-run over the
# imported evidence (extraction onward, the rule's trace, the verdict diff), RUNS times.
# usage: tests/bench/run_rule_bench.sh [BUILD_DIR=build/release] [SIZE_MB=120] [RUNS=5]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${1:-$src/build/release}
size=${2:-120}
runs=${3:-5}
work=${BENCH_DIR:-$src/tests/bench/out}
bundle=$work/bundle-$size
bench=$build/tests/faultline-rule-bench
[ -x "$bench" ] || {
  echo "build $bench first (cmake --preset release && cmake --build --preset release --target faultline-rule-bench)" >&2
  exit 2
}
mkdir -p "$work"
[ -d "$bundle" ] || /usr/bin/python3 "$here/generate_bundle.py" "$bundle" "$size" > /dev/null
cat "$bundle"/*/* "$bundle"/nodes/*/* > /dev/null 2>&1 || true  # warm the page cache
echo "lines in the bundle's files: $(cat "$bundle"/*/* "$bundle"/nodes/*/* 2>/dev/null | wc -l)"
"$bench" "$bundle" --runs "$runs"
