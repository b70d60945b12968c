#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fails when core/ or importers/ include Qt, views/ or app/, when views/ includes importers/ or app/, or when the
# use-case layer (app/usecases, shared by the CLI and the GUI) includes Qt, views/ or the front ends, or when views/
# reach the case file or SQLite instead of the EvidenceText interface, or when the timeline geometry (tested without
# a GUI) includes Qt, or when Qt Charts is included outside views/charts/ (the facade),
# or when the redaction engine (core/redact, which only rewrites text) reads case files, SQLite, rules or importers,
# or when the GUI (app/gui, app/render) includes the case file instead of calling the use cases, or when faultline-cli
# links or includes Qt, or when a comment or document points at notes outside the repository. The link graph enforces
# the module rules too; this names the offending line.
set -u
root=${1:?usage: architecture_check.sh SOURCE_DIR}
cd "$root" || exit 2
bad=$( { grep -rnE '^\s*#\s*include\s*[<"]Q' core importers;
         grep -rnE '^\s*#\s*include\s*"(views|app)/' core importers;
         grep -rnE '^\s*#\s*include\s*"(importers|app)/' views;
         grep -rnE '^\s*#\s*include\s*("core/casefile/|<sqlite3)' views;
         grep -nE '^\s*#\s*include\s*[<"]Q' views/timeline/timeline_geometry.*;
         grep -rnE '^\s*#\s*include\s*("core/(casefile|analysis|rules|report)/|"importers/|<sqlite3)' core/redact;
         grep -rnE '^\s*#\s*include\s*([<"]Q|"(views|app/gui|app/cli)/)' app/usecases;
         grep -rnE '^\s*#\s*include\s*[<"](QtCharts|Q[A-Za-z]*(Chart|ChartView|Series|Axis|Legend|LegendMarker|BarSet|BoxSet|CandlestickSet|PieSlice|ModelMapper)[>"])' \
           core importers views app tests --include='*.h' --include='*.cpp' | grep -v '^views/charts/'; } 2>/dev/null )
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
if grep -nE 'target_link_libraries\(faultline_usecases[^)]*(Qt6::|faultline_views|faultline_app_gui)' app/CMakeLists.txt; then
  echo "architecture_check: the use-case layer links Qt, the views or the GUI"
  exit 1
fi
# faultline-cli runs where Qt is not installed: it links no Qt, nor a library that does, and includes none.
if grep -nE 'target_link_libraries\(faultline-cli[^)]*(Qt6::|faultline_(viewmodels|views|report_render|app_gui))' \
  app/CMakeLists.txt || grep -nE '^\s*#\s*include\s*([<"]Q|"(views|app/gui|app/render)/)' app/cli/*.cpp; then
  echo "architecture_check: faultline-cli must stay free of Qt (it runs the workbench's renderer for what needs Qt)"
  exit 1
fi
# The GUI reads and writes case files through the use cases (off the UI thread), never through the case file itself.
if grep -nE '^\s*#\s*include\s*"core/casefile/' app/gui/*.h app/gui/*.cpp app/render/*.h app/render/*.cpp; then
  echo "architecture_check: the GUI opens case files directly; call app/usecases (case_history.h, use_cases.h) instead"
  exit 1
fi
# The front ends call the use cases instead of re-implementing them: neither imports or analyses a bundle itself.
if grep -nE 'importers::(collectBundle|importBundle|loadBundle)|core::analyze\(' app/gui/*.cpp; then
  echo "architecture_check: the GUI imports or analyses directly; call app/usecases instead"
  exit 1
fi
# Comments and docs state facts themselves: nothing points at notes outside the repository.
notes='\.\./shared/|(evidence-formats|failure-signatures|attribution-model|workbench-layout|workbench-anchors)\.md'
if grep -rnIE "$notes" app core importers views rules packaging resources README.md CMakeLists.txt .clang-format \
  tests --exclude=architecture_check.sh --exclude-dir=incidents --exclude-dir=out; then
  echo "architecture_check: the lines above point at files outside the repository; say what they mean instead"
  exit 1
fi
echo "architecture_check: ok"
