#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fails when a C++ file differs from .clang-format.
set -u
fmt=${1:?usage: format_check.sh CLANG_FORMAT SOURCE_DIR}
cd "${2:?}" || exit 2
files=$(git ls-files '*.cpp' '*.h' 2>/dev/null || find app core importers views tests -name '*.cpp' -o -name '*.h')
# shellcheck disable=SC2086 # the file list is split into arguments on purpose
"$fmt" --dry-run --Werror $files && echo "format_check: ok"
