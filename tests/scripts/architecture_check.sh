#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fails when core/ or importers/ include Qt, views/ or app/, or when views/ includes importers/ or app/
# (../shared/STYLE.md §4.2). The link graph enforces the same; this names the offending line.
set -u
root=${1:?usage: architecture_check.sh SOURCE_DIR}
cd "$root" || exit 2
bad=$( { grep -rnE '^\s*#\s*include\s*[<"]Q' core importers;
         grep -rnE '^\s*#\s*include\s*"(views|app)/' core importers;
         grep -rnE '^\s*#\s*include\s*"(importers|app)/' views; } 2>/dev/null )
if [ -n "$bad" ]; then
  echo "architecture_check: these includes cross the module boundaries:"
  echo "$bad"
  exit 1
fi
# The Qt-free libraries must not link Qt either.
if grep -nE 'Qt6::' core/CMakeLists.txt importers/CMakeLists.txt; then
  echo "architecture_check: core/ or importers/ link Qt"
  exit 1
fi
echo "architecture_check: ok"
