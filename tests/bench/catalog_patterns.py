#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""catalog_patterns.py PACKS_DIR: prints the catalog's extractor patterns, one per line, for `rg -f`.

RE2 and Rust's regex agree on the syntax the packs use; rg joins all patterns into one regex, where repeated group
names are an error, so the names are dropped."""
import pathlib
import re
import sys

import yaml

for p in sorted(pathlib.Path(sys.argv[1]).glob("*.yaml")):
    for r in (yaml.safe_load(p.read_text()) or {}).get("extractors", []) or []:
        print(re.sub(r"\(\?P<\w+>", "(", r["pattern"]))
