#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Runs `faultline-cli analyze INCIDENT --json` on every real incident under tests/data/incidents/ and compares the
verdict with the cause the public thread established (the incident's expected.yaml, see its README.md).

Each incident is classed right (the verdict's domain is the thread's), wrong (another domain, or a named culprit the
verdict contradicts) or inconclusive (no cause), and a wrong verdict is confident when its confidence level is "high"
or its value is >= 0.7. The culprit figure is given twice: over every thread that names a culprit, and over those
whose posted evidence holds the culprit's name too (a node named only in the thread's prose cannot be found in the
evidence). Prints one row per incident and the totals (--markdown: the same as Markdown, for
tests/bench/README.md). Exits 1 only when some verdict is confidently wrong, naming what was expected and what came
out; misses and inconclusive verdicts are figures, not failures.

usage: incidents_check.py FAULTLINE_CLI INCIDENTS_DIR [--markdown] [--only SLUG]...
"""
import concurrent.futures
import json
import os
import pathlib
import re
import subprocess
import sys

import yaml

CONFIDENT_VALUE = 0.7


def load_expected(path):
    doc = yaml.safe_load(path.read_text()) or {}
    for key in ("source", "summary", "domain", "certainty"):
        if not doc.get(key):
            raise ValueError(f"{path}: missing '{key}'")
    culprit = doc.get("culprit") or {}
    if not isinstance(culprit, dict) or set(culprit) - {"node", "rank", "device"}:
        raise ValueError(f"{path}: 'culprit' takes only node, rank and device")
    doc["culprit"] = culprit
    return doc


def pci(text):
    """'0000:9C:00', 'PCI:0000:9c:00', '00000000:9C:00.0' -> '0000:9c:00' (domain:bus:device, function dropped)."""
    m = re.search(r"([0-9a-f]{4,8}):([0-9a-f]{2}):([0-9a-f]{2})", str(text).lower())
    return f"{m.group(1)[-4:]}:{m.group(2)}:{m.group(3)}" if m else str(text).lower()


def culprit_check(expected, verdict):
    """None when the thread names no culprit; else (all named parts match, what the verdict named, whether a part
    the verdict named contradicts the thread). A part the verdict leaves unnamed (no node in evidence that names
    none) is missed, not contradicted."""
    if not expected:
        return None
    cause = verdict.get("cause") or {}
    got = {"node": cause.get("node"), "rank": cause.get("rank"), "device": cause.get("gpu")}
    ok, contradicted = True, False
    if "node" in expected:
        nodes = {str(n).lower() for n in [cause.get("node"), *verdict.get("blamed_nodes", []),
                                          *verdict.get("origin_nodes", [])] if n}
        # A host is the same host by its short name or its FQDN: syslog and the journal print the short name of a
        # host the thread names in full ("ip-10-0-0-1" for "ip-10-0-0-1.ec2.internal").
        want = str(expected["node"]).lower()
        match = any(n == want or n == want.split(".")[0] or n.split(".")[0] == want for n in nodes)
        ok &= match
        contradicted |= bool(nodes) and not match
    if "rank" in expected:
        match = cause.get("rank") is not None and int(cause["rank"]) == int(expected["rank"])
        ok &= match
        contradicted |= cause.get("rank") is not None and not match
    if "device" in expected:
        match = cause.get("gpu") is not None and pci(cause["gpu"]) == pci(expected["device"])
        ok &= match
        contradicted |= cause.get("gpu") is not None and not match
    return ok, {k: v for k, v in got.items() if v is not None}, contradicted


def culprit_in_evidence(expected, incident):
    """Whether every part of the culprit the thread names appears in the posted evidence itself (a thread may name
    the node only in its prose, which no analysis of the evidence can recover)."""
    if not expected:
        return False
    text = "\n".join(p.read_text(errors="replace") for p in sorted(incident.iterdir())
                     if p.is_file() and p.name != "expected.yaml").lower()
    ok = True
    if "node" in expected:
        ok &= str(expected["node"]).lower() in text
    if "rank" in expected:
        ok &= re.search(rf"\brank\s*\[?{int(expected['rank'])}\b", text) is not None
    if "device" in expected:
        bus = pci(expected["device"])[-5:]  # "bb:dd" after the domain
        ok &= re.search(rf"[0-9a-f]{{4,8}}:{re.escape(bus)}", text) is not None
    return ok


def judge(expected, verdict):
    conf = verdict.get("confidence", {})
    confident = conf.get("level") == "high" or float(conf.get("value", 0)) >= CONFIDENT_VALUE
    # A leading hypothesis (no initiating event, the symptoms point at a domain) names a domain at low confidence:
    # it counts for the domain figure, as a hypothesis.
    hypothesis = verdict.get("evidence_status") == "hypothesis"
    inconclusive = not hypothesis and (
        verdict.get("outcome") == "inconclusive" or verdict.get("domain") in ("", "unknown", None))
    domain_right = not inconclusive and verdict.get("domain") == expected["domain"]
    sub_right = domain_right and bool(expected.get("subdomain")) and verdict.get("subdomain") == expected["subdomain"]
    culprit = culprit_check(expected["culprit"], verdict)
    # A named culprit the verdict contradicts is wrong even in the right domain: it drains the wrong node.
    culprit_wrong = culprit is not None and not inconclusive and culprit[2]
    if inconclusive:
        klass = "inconclusive"
    elif domain_right and not culprit_wrong:
        klass = "right"
    else:
        klass = "wrong"
    return {"class": klass, "confident": confident, "domain_right": domain_right, "subdomain_right": sub_right,
            "culprit": culprit, "confident_wrong": klass == "wrong" and confident, "hypothesis": hypothesis}


def main(argv):
    args, only, markdown, rest = [], set(), False, list(argv[1:])
    while rest:
        a = rest.pop(0)
        if a == "--markdown":
            markdown = True
        elif a == "--only" and rest:
            only.add(rest.pop(0))
        else:
            args.append(a)
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    cli, root = args[0], pathlib.Path(args[1])
    rows, problems = [], []
    todo = []
    for inc in sorted(p for p in root.iterdir() if (p / "expected.yaml").exists()):
        if only and inc.name not in only:
            continue
        try:
            todo.append((inc, load_expected(inc / "expected.yaml")))
        except (ValueError, yaml.YAMLError) as e:
            problems.append(f"{inc.name}: bad expected.yaml: {e}")

    def analyze(inc):
        return subprocess.run([cli, "analyze", str(inc), "--json", "--threads", "1"], capture_output=True,
                              timeout=120)

    # One analysis per core at a time; the rows keep the incidents' sorted order.
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        runs = list(pool.map(analyze, [inc for inc, _ in todo]))
    for (inc, exp), run in zip(todo, runs):
        if run.returncode != 0:
            rows.append((inc.name, exp, None, {"class": "inconclusive", "confident": False, "domain_right": False,
                                                "subdomain_right": False, "culprit": None, "confident_wrong": False},
                         f"exit {run.returncode}: {run.stderr.decode(errors='replace').strip()[:120]}"))
            continue
        verdict = json.loads(run.stdout)
        j = judge(exp, verdict)
        j["culprit_in_evidence"] = culprit_in_evidence(exp["culprit"], inc)
        rows.append((inc.name, exp, verdict, j, ""))

    def got(verdict, note):
        if verdict is None:
            return note
        cause = verdict.get("cause") or {}
        return (f"{verdict['domain'] or '-'}/{verdict['subdomain'] or '-'} ({verdict['outcome']}, "
                f"{verdict['confidence']['level']} {verdict['confidence']['value']:.2f}"
                f"{', ' + cause['type'] if cause.get('type') else ''})")

    def cul(j):
        if j["culprit"] is None:
            return "-"
        return "right" if j["culprit"][0] else ("wrong" if j["culprit"][2] else "missed")

    total = len(rows)
    named = [r for r in rows if r[3]["culprit"] is not None]
    in_evidence = [r for r in named if r[3].get("culprit_in_evidence")]
    figures = {
        "domain": sum(r[3]["domain_right"] for r in rows),
        "hypothesis": sum(r[3]["domain_right"] and r[3].get("hypothesis", False) for r in rows),
        "subdomain": sum(r[3]["subdomain_right"] for r in rows),
        "culprit": sum(1 for r in named if r[3]["culprit"][0]),
        "wrong": sum(r[3]["class"] == "wrong" for r in rows),
        "inconclusive": sum(r[3]["class"] == "inconclusive" for r in rows),
        "confident_wrong": sum(r[3]["confident_wrong"] for r in rows),
    }

    def pct(n, d):
        return f"{n}/{d} ({100.0 * n / d:.0f}%)" if d else "0/0"

    if markdown:
        print("| Incident | Expected | Faultline said | Class | Culprit |")
        print("|---|---|---|---|---|")
        for name, exp, verdict, j, note in rows:
            cls = j["class"] + (" (hypothesis)" if j.get("hypothesis") else "") + (
                " (confident)" if j["confident_wrong"] else "")
            print(f"| {name} | {exp['domain']}/{exp.get('subdomain') or '-'} | {got(verdict, note)} | {cls} | {cul(j)} |")
        print()
    else:
        w = max([len(r[0]) for r in rows] + [8])
        print(f"{'incident':<{w}}  {'expected':<34}  {'class':<12}  {'culprit':<7}  faultline said")
        for name, exp, verdict, j, note in rows:
            cls = j["class"] + ("?" if j.get("hypothesis") else "") + ("!" if j["confident_wrong"] else "")
            print(f"{name:<{w}}  {exp['domain'] + '/' + (exp.get('subdomain') or '-'):<34}  {cls:<12}  {cul(j):<7}  "
                  f"{got(verdict, note)}")
        print()
    print(f"incidents: {total}")
    print(f"domain right: {pct(figures['domain'], total)}, {figures['hypothesis']} of them as a leading hypothesis")
    print(f"subdomain right: {pct(figures['subdomain'], total)}")
    print(f"culprit right where the thread names one: {pct(figures['culprit'], len(named))}")
    print(f"culprit right where the posted evidence names it too: "
          f"{pct(sum(1 for r in in_evidence if r[3]['culprit'][0]), len(in_evidence))}")
    print(f"wrong: {figures['wrong']}, inconclusive: {figures['inconclusive']}")
    print(f"confident-wrong: {figures['confident_wrong']}")
    for p in problems:
        print(p)
    for name, exp, verdict, j, note in rows:
        if j["confident_wrong"]:
            want = f"{exp['domain']}/{exp.get('subdomain') or '-'}"
            if exp["culprit"]:
                want += f" culprit {exp['culprit']}"
            cause = verdict.get("cause") or {}
            print(f"CONFIDENT-WRONG {name}: expected {want} ({exp['source']}); got {got(verdict, note)}"
                  f" culprit {j['culprit'][1] if j['culprit'] else {k: cause.get(k) for k in ('node', 'rank', 'gpu')}}")
    return 1 if figures["confident_wrong"] or problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
