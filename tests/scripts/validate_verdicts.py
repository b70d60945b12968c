#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Runs `faultline-cli analyze --json` on every sample and validates the output against
resources/schema/verdict.schema.json; also checks that two runs give byte-identical output."""
import json
import pathlib
import subprocess
import sys

import jsonschema

cli, src = sys.argv[1], pathlib.Path(sys.argv[2])
schema = json.loads((src / "resources/schema/verdict.schema.json").read_text())
validator = jsonschema.Draft202012Validator(schema)
failures = 0
for sample in sorted((src / "resources/samples").iterdir()):
    if not (sample / "expected.yaml").exists():
        continue
    runs = [subprocess.run([cli, "analyze", str(sample), "--json", "--threads", str(t)], capture_output=True, check=True).stdout
            for t in (1, 2)]
    if runs[0] != runs[1]:
        print(f"{sample.name}: output differs between --threads 1 and --threads 2")
        failures += 1
    errors = sorted(validator.iter_errors(json.loads(runs[0])), key=lambda e: list(e.path))
    for e in errors[:10]:
        print(f"{sample.name}: {'/'.join(map(str, e.path))}: {e.message}")
    failures += len(errors)
    print(f"{sample.name}: {'ok' if not errors else 'INVALID'}")
sys.exit(1 if failures else 0)
