#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Integration test of packaging/collect/faultline-collect: runs it against the stub cluster tools in stubs/ (which
# print the golden tool output in golden/, the incident of resources/samples/bundle-48213 and bundle-48213-k8s),
# then imports and analyses what it wrote with faultline-cli. Every failing check says what it expected and what
# it got.
#
# usage: collect_test.sh [--scenario NAME] [WORK_BASE] CLI SRC
#   NAME: slurm, unreachable, kueue, usage, tar, old-slurm, nodes, shell, or all (default)
#   WORK_BASE: where each scenario's output goes (WORK_BASE/NAME, replaced on every run); default a temp dir
set -eu

scenario=all
if [ "${1:-}" = --scenario ]; then
    scenario=${2:?--scenario needs a name}
    shift 2
fi
case $# in
2) base=$(mktemp -d); cli=$1; src=$2; trap 'rm -rf "$base"' EXIT ;;
3) base=$1; cli=$2; src=$3 ;;
*) echo "usage: collect_test.sh [--scenario NAME] [WORK_BASE] CLI SRC" >&2; exit 2 ;;
esac
mkdir -p "$base"
base=$(cd "$base" && pwd)
src=$(cd "$src" && pwd)
case $cli in /*) ;; *) cli=$(pwd)/$cli ;; esac
[ -x "$cli" ] || { echo "collect_test: '$cli' is not an executable faultline-cli" >&2; exit 2; }
here=$src/tests/collect
collect=$src/packaging/collect/faultline-collect
stubs=$here/stubs
unset FAULTLINE_RULES FAULTLINE_STUB_UNREACHABLE FAULTLINE_STUB_SLURM_VERSION FAULTLINE_STUB_PURGED
shell="sh"
if command -v dash >/dev/null 2>&1; then shell=dash; fi

failures=0
checks=0
skipped=0
pass() { checks=$((checks + 1)); printf 'ok: %s\n' "$1"; }
fail() { # fail WHAT EXPECTED GOT
    checks=$((checks + 1))
    failures=$((failures + 1))
    printf 'FAILED: %s\n  expected: %s\n  got:      %s\n' "$1" "$2" "$3"
}
show() { sed 's/^/    | /' "$1" | head -n "${2:-40}"; }
expect_eq() { # expect_eq WHAT WANT GOT
    if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "$2" "$3"; fi
}
expect_in() { # expect_in WHAT FILE TEXT: FILE holds the fixed string TEXT
    if grep -qF -- "$3" "$2"; then pass "$1"; else
        fail "$1" "$(basename "$2") to contain: $3" "it does not; the file reads:"
        show "$2"
    fi
}
expect_not_in() { # expect_not_in WHAT FILE TEXT
    if grep -qF -- "$3" "$2"; then
        fail "$1" "$(basename "$2") without: $3" "it is there:"
        grep -F -- "$3" "$2" | head -n 5 | sed 's/^/    | /'
    else pass "$1"; fi
}
expect_file() { # expect_file WHAT PATH
    if [ -s "$2" ]; then pass "$1"; else fail "$1" "a non-empty file $2" "$([ -e "$2" ] && echo "an empty file" || echo "no such file")"; fi
}

# collect NAME GOLDEN ARGS...: runs faultline-collect with the stubs first on PATH; sets rc, out, err.
collect() {
    _name=$1
    _golden=$2
    shift 2
    out=$work/$_name.stdout
    err=$work/$_name.stderr
    if PATH="$stubs:$PATH" FAULTLINE_STUB_GOLDEN="$here/golden/$_golden" "$shell" "$collect" "$@" \
        >"$out" 2>"$err"; then rc=0; else rc=$?; fi
}
expect_rc() { # expect_rc WHAT WANT: the last collect's exit status
    if [ "$rc" = "$2" ]; then pass "$1: exit $2"; else
        fail "$1: exit status" "$2" "$rc; stderr:"
        show "$err"
    fi
}

manifest_entries() { sed -n '/^collection:/,/^gaps:/p' "$1" | grep '^  - {command:' || true; }

# Every command of the manifest exited 0.
expect_all_exit_zero() { # expect_all_exit_zero WHAT MANIFEST
    _bad=$(manifest_entries "$2" | grep -v ', exit: 0,' || true)
    _n=$(manifest_entries "$2" | wc -l | tr -d ' ')
    if [ -z "$_bad" ] && [ "$_n" -gt 0 ]; then pass "$1: all $_n commands exited 0"; else
        fail "$1" "every command under collection: with exit: 0" "$_n commands, these did not:"
        printf '%s\n' "$_bad" | sed 's/^/    | /'
    fi
}

# Every file the manifest lists exists, and every file of the bundle is listed.
expect_files_listed() { # expect_files_listed WHAT BUNDLE
    _listed=$work/listed
    _present=$work/present
    sed -n '/^files:/,/^collector:/p' "$2/faultline.yaml" | sed -n 's/^  "\([^"]*\)": {.*/\1/p' | sort >"$_listed"
    (cd "$2" && find . -type f ! -name faultline.yaml ! -name expected.yaml | sed 's|^\./||' | sort) >"$_present"
    if cmp -s "$_listed" "$_present"; then pass "$1: files: lists exactly the $(wc -l <"$_present" | tr -d ' ') files of the bundle"; else
        fail "$1" "files: to list every file of the bundle" "a difference (< listed, > present):"
        diff "$_listed" "$_present" | grep '^[<>]' | sed 's/^/    | /'
    fi
}

# faultline-cli import-report reads the bundle with no diagnostic about the manifest, and no warning at all.
expect_clean_import() { # expect_clean_import WHAT BUNDLE
    _r=$work/import-report.txt
    if ! "$cli" import-report "$2" >"$_r" 2>&1; then
        fail "$1: import-report" "exit 0" "a failure:"
        show "$_r"
        return 0
    fi
    if grep -q 'faultline.yaml.*\(error\|warning\)\|manifest-' "$_r"; then
        fail "$1: import-report on the manifest" "no diagnostic about faultline.yaml" "these:"
        grep 'faultline.yaml\|manifest-' "$_r" | sed 's/^/    | /'
    else pass "$1: import-report has no diagnostic about the manifest"; fi
    if grep -q ': warning: \|: error: ' "$_r"; then
        fail "$1: import-report warnings" "no warning or error for any file" "these:"
        grep ': warning: \|: error: ' "$_r" | sed 's/^/    | /'
    else pass "$1: import-report has no warning for any file"; fi
}

# The verdict is the sample's (expected.yaml), checked by faultline-cli rules test on a case directory.
expect_verdict() { # expect_verdict WHAT BUNDLE SAMPLE
    cp "$src/resources/samples/$3/expected.yaml" "$2/expected.yaml"
    _t=$work/rules-test.txt
    "$cli" rules test "$src/rules" --cases "$(dirname "$2")" >"$_t" 2>&1 || true
    rm -f "$2/expected.yaml"
    _summary=$(tail -n 1 "$_t")
    case $_summary in
    *" 0 failed") pass "$1: verdict as $3/expected.yaml says ($_summary)" ;;
    *)
        fail "$1: verdict" "the verdict of $3/expected.yaml" "faultline-cli rules test says:"
        grep -v '^ok' "$_t" | show /dev/stdin
        ;;
    esac
}

analyze_json() { # analyze_json BUNDLE: the verdict as one line of JSON without spaces (for fixed-string checks)
    "$cli" analyze "$1" --json 2>/dev/null | tr -d ' \n' || true
}

expect_json() { # expect_json WHAT JSONFILE TEXT
    if grep -qF -- "$3" "$2"; then pass "$1"; else
        fail "$1" "the verdict JSON to contain $3" "it does not (verdict in $2)"
    fi
}

loki_query=$(cat "$here/golden/slurm/loki/joblog_48213.logql")
collect_full() { # collect_full NAME OUT [OPTIONS...]: the whole Slurm collection (job, Loki, Prometheus)
    _fname=$1
    _fout=$2
    shift 2
    collect "$_fname" slurm --job 48213 --loki-url http://loki.monitoring:3100 --loki-query "$loki_query" \
        --prom-url http://prometheus.monitoring:9090 --prom-step 60s "$@" -o "$_fout"
}

# ---------------------------------------------------------------------------------------------------------------

s_slurm() {
    out_b=$work/cases/job-48213
    mkdir -p "$work/cases"
    collect_full slurm "$out_b" --rules "$src/rules"
    expect_rc "slurm job 48213 with Loki and Prometheus" 0
    [ -f "$out_b/faultline.yaml" ] || { fail "slurm: bundle" "$out_b/faultline.yaml" "no manifest"; return 0; }
    m=$out_b/faultline.yaml
    expect_all_exit_zero "slurm: manifest" "$m"
    expect_in "slurm: no gaps" "$m" "gaps: []"
    expect_in "slurm: sacct -P with the importer's fields (JobName last)" "$m" \
        'command: "sacct -j 48213 -P --format=JobID,JobIDRaw,State,ExitCode,DerivedExitCode,Submit,Start,End,Elapsed,NodeList,AllocTRES,Reason,FailedNode,Restarts,SLUID,Cluster,Partition,User,JobName", exit: 0, file: "slurm/sacct_48213.psv"'
    expect_in "slurm: sacct --json" "$m" 'command: "sacct -j 48213 --json", exit: 0, file: "slurm/sacct_48213.json"'
    expect_in "slurm: scontrol show job" "$m" 'command: "scontrol show job 48213", exit: 0'
    for n in node-01 node-02 node-03 node-04; do
        expect_in "slurm: scontrol show node $n" "$m" "command: \"scontrol show node $n\", exit: 0"
        expect_in "slurm: kernel log of $n over ssh" "$m" \
            "ssh -o BatchMode=yes -o ConnectTimeout=10 -o ServerAliveInterval=15 -o ServerAliveCountMax=4 -n -- $n 'journalctl -o json --no-pager --since @1793606340 --until @1793616060 _TRANSPORT=kernel'\", exit: 0, file: \"nodes/$n/journal-kernel.jsonl\""
        expect_in "slurm: hosts: $n zone and boot time" "$m" "  $n: {tz: \"UTC\", boot_time: "
    done
    expect_in "slurm: node-02 boot time from /proc/stat btime" "$m" 'node-02: {tz: "UTC", boot_time: "2026-10-30T06:00:00Z", ip: "10.10.0.2"'
    expect_in "slurm: job output read from the batch host" "$m" "-- node-01 'cat -- /shared/jobs/pretrain/logs/slurm-48213.out'\", exit: 0, file: \"joblogs/slurm-48213.out\""
    expect_in "slurm: logcli jsonl over the window" "$m" 'logcli query --addr=http://loki.monitoring:3100 --output=jsonl --timezone=UTC --from=2026-11-02T07:59:00Z --to=2026-11-02T10:41:00Z --limit=50000 --forward'
    _curls=$(grep -c 'command: "curl -fsS -G ' "$m" || true)
    expect_eq "slurm: one Prometheus query_range GET per metric condition of the catalog" 6 "$_curls"
    expect_file "slurm: Prometheus file name <name>__<from>__<to>__<step>.json" \
        "$out_b/prometheus/xid-reported__20261102T0759Z__20261102T1041Z__60s.json"
    expect_in "slurm: workload in the manifest" "$m" '  job_id: "48213"'
    expect_in "slurm: stderr summary" "$err" "wrote $out_b: 23 file(s), no gaps"
    expect_files_listed "slurm" "$out_b"
    expect_clean_import "slurm" "$out_b"
    expect_verdict "slurm" "$out_b" bundle-48213
    j=$work/slurm.verdict.json
    analyze_json "$out_b" >"$j"
    expect_json "slurm: analyze names infrastructure_failure" "$j" '"outcome":"infrastructure_failure"'
    expect_json "slurm: analyze names Xid 149 on node-02" "$j" '"type":"gpu.xid","label":"Xid149'
    expect_json "slurm: every expected source present" "$j" '"kind":"metrics","node":null,"status":"ok"'
}

s_unreachable() {
    out_b=$work/cases/job-48213
    mkdir -p "$work/cases"
    FAULTLINE_STUB_UNREACHABLE=node-03
    export FAULTLINE_STUB_UNREACHABLE
    collect_full unreachable "$out_b"
    unset FAULTLINE_STUB_UNREACHABLE
    expect_rc "node-03 unreachable (ssh exits 255)" 1
    [ -f "$out_b/faultline.yaml" ] || { fail "unreachable: bundle" "$out_b/faultline.yaml" "no manifest"; return 0; }
    m=$out_b/faultline.yaml
    expect_in "unreachable: the gap on stderr" "$err" \
        "gap: kernel log of node-03: node unreachable: ssh exited 255: ssh: connect to host node-03 port 22: Connection timed out"
    expect_in "unreachable: the gap in the manifest" "$m" \
        '  - {source: kernel, node: "node-03", what: "kernel log of node-03", reason: "node unreachable: ssh exited 255: ssh: connect to host node-03 port 22: Connection timed out"}'
    expect_in "unreachable: the failed ssh is listed with its exit status" "$m" \
        "-- node-03 'sh -s'\", exit: 255, file: null, stderr: \"ssh: connect to host node-03 port 22: Connection timed out\"}"
    expect_not_in "unreachable: nothing more is tried on node-03" "$m" "-- node-03 'journalctl"
    expect_in "unreachable: the summary counts the gaps" "$err" "wrote $out_b: 21 file(s), 2 gap(s)"
    expect_files_listed "unreachable" "$out_b"
    expect_verdict "unreachable" "$out_b" bundle-48213
    j=$work/unreachable.verdict.json
    analyze_json "$out_b" >"$j"
    expect_json "unreachable: coverage names the missing kernel log of node-03" "$j" \
        '"kind":"kernel","node":"node-03","status":"missing","reason":"nokernellogfornode-03inthebundle"'
    expect_json "unreachable: the confidence notes say so" "$j" '"kernelonnode-03ismissing:nokernellogfornode-03inthebundle"'
}

s_kueue() {
    out_b=$work/cases/wl-pretrain
    mkdir -p "$work/cases"
    collect kueue k8s --namespace ml --workload jobset-pretrain-5f3a2 -o "$out_b"
    expect_rc "Kueue workload ml/jobset-pretrain-5f3a2" 0
    [ -f "$out_b/faultline.yaml" ] || { fail "kueue: bundle" "$out_b/faultline.yaml" "no manifest"; return 0; }
    m=$out_b/faultline.yaml
    expect_all_exit_zero "kueue: manifest" "$m"
    expect_in "kueue: no gaps" "$m" "gaps: []"
    expect_in "kueue: the Workload as YAML" "$m" 'command: "kubectl get workloads.kueue.x-k8s.io jobset-pretrain-5f3a2 -n ml -o yaml", exit: 0, file: "kueue/workload_jobset-pretrain-5f3a2.yaml"'
    expect_in "kueue: pods found through the JobSet owner" "$m" 'command: "kubectl get pods -n ml -l jobset.sigs.k8s.io/jobset-name=pretrain -o json", exit: 0, file: "pods.json"'
    expect_in "kueue: the namespace's events" "$m" 'command: "kubectl get events -n ml -o json", exit: 0, file: "events.json"'
    expect_in "kueue: the nodes' events" "$m" 'kubectl get events -n default --field-selector involvedObject.kind=Node -o json'
    expect_in "kueue: kubectl logs --timestamps per container" "$m" 'command: "kubectl logs -n ml pretrain-workers-0-1-7hq4d -c trainer --timestamps", exit: 0, file: "logs/pretrain-workers-0-1-7hq4d_trainer.log"'
    expect_in "kueue: log hint names the pod's node" "$m" '"logs/pretrain-workers-0-1-7hq4d_trainer.log": {format: kubectl-logs, host: "node-02"'
    expect_in "kueue: kernel log of the pods' nodes" "$m" "-- node-04 'journalctl -o json --no-pager --since @1793606340 --until @1793616060 _TRANSPORT=kernel'\", exit: 0"
    expect_in "kueue: workload in the manifest" "$m" '  scheduler: kueue'
    expect_in "kueue: the nodes the pods ran on" "$m" '  nodes: "node-01,node-02,node-03,node-04"'
    expect_files_listed "kueue" "$out_b"
    expect_clean_import "kueue" "$out_b"
    expect_verdict "kueue" "$out_b" bundle-48213-k8s
}

s_usage() {
    collect usage-no-o slurm --job 48213
    expect_rc "usage: no -o" 2
    expect_in "usage: no -o says so" "$err" "no output given: -o OUT is required"
    collect usage-unknown slurm --job 48213 --bogus -o "$work/x"
    expect_rc "usage: unknown option" 2
    expect_in "usage: unknown option names it" "$err" "unknown option '--bogus'"
    mkdir -p "$work/parent/existing"
    : >"$work/parent/existing/keep"
    collect usage-exists slurm --job 48213 -o "$work/parent/existing"
    expect_rc "usage: existing OUT" 2
    expect_in "usage: existing OUT is named" "$err" "'$work/parent/existing' already exists: it is never overwritten"
    expect_eq "usage: the existing OUT is untouched and nothing is left next to it" "existing existing/keep" \
        "$(cd "$work/parent" && find . -mindepth 1 | sed 's|^\./||' | sort | tr '\n' ' ' | sed 's/ $//')"
    collect usage-exists-archive slurm --job 48213 -o "$work/parent/existing/keep"
    expect_rc "usage: existing OUT file" 2
    collect usage-job slurm --job '48213;reboot' -o "$work/y"
    expect_rc "usage: a job id with odd characters" 2
    expect_in "usage: the job id is quoted back" "$err" "--job '48213;reboot' is not one Slurm job id"
    collect usage-value slurm -o "$work/y" --job
    expect_rc "usage: option without its value" 2
    expect_in "usage: option without its value says so" "$err" "option --job needs a value"
    collect usage-loki slurm --job 48213 --loki-url http://loki:3100 -o "$work/y"
    expect_rc "usage: --loki-url without --loki-query" 2
    collect usage-time slurm --nodes 'node-[01-04]' --from yesterday --to 2026-11-02T10:30:00Z -o "$work/y"
    expect_rc "usage: a bad --from" 2
    expect_in "usage: a bad --from says what is wanted" "$err" "--from 'yesterday' is not an RFC 3339 time"
    collect usage-hostlist slurm --nodes 'node-[04-01]' --from 2026-11-02T10:00:00Z --to 2026-11-02T10:30:00Z -o "$work/y"
    expect_rc "usage: a bad hostlist" 2
    collect usage-nothing slurm -o "$work/y"
    expect_rc "usage: nothing to collect" 2
    expect_in "usage: nothing to collect says what to give" "$err" "give --job ID, --namespace NS --workload NAME, or --nodes HOSTLIST --from --to"
    collect usage-both slurm --job 48213 --namespace ml --workload w -o "$work/y"
    expect_rc "usage: a job and a workload" 2
    if [ ! -e "$work/y" ] && [ ! -e "$work/x" ]; then pass "usage: no output written on a usage error"; else
        fail "usage: output on a usage error" "no $work/x or $work/y" "one exists"
    fi
    collect version slurm --version
    expect_rc "--version" 0
    expect_eq "--version output" "faultline-collect 0.1.0" "$(cat "$out")"
    collect help slurm --help
    expect_rc "--help" 0
    expect_eq "--help: first line" "usage: faultline-collect [options] -o OUT" "$(sed -n 1p "$out")"
    expect_eq "--help: second line is blank" "" "$(sed -n 2p "$out")"
    # Man-page structure: sections end in ':' at column 0; entries start at 2 spaces, their descriptions after a
    # 2+ space gap or on lines indented by 6; no other indentation, no tabs.
    _bad=$(awk 'NR > 2 && $0 != "" && !/^[A-Za-z][A-Za-z ]*:$/ && !/^  [^ ]/ && !/^      [^ ]/ && !/^[^ ]/ { print NR ": " $0 }
        /\t/ { print NR ": (tab) " $0 }' "$out")
    expect_eq "--help: only sections, 2-space entries and 6-space descriptions" "" "$_bad"
    for section in "slurm:" "nodes:" "loki and prometheus:" "kubernetes:" "output:" "exit codes:"; do
        if grep -qx -- "$section" "$out"; then pass "--help: section $section"; else fail "--help: section" "$section" "missing"; fi
    done
    for opt in "  --job ID" "  --nodes HOSTLIST" "  --from TIME" "  --loki-url URL" "  --loki-query QUERY" \
        "  --prom-url URL" "  --namespace NS" "  --workload NAME" "  --selector LABELS" "  -o OUT, --output OUT"; do
        if grep -qx -- "$opt" "$out"; then pass "--help: entry '$opt'"; else fail "--help: entry" "$opt" "missing"; fi
    done
    for code in 0 1 2 3; do
        if grep -q "^  $code  " "$out"; then pass "--help: exit code $code"; else fail "--help: exit code" "  $code  ..." "missing"; fi
    done
    if command -v python3 >/dev/null 2>&1 && [ -f "$src/packaging/man/help_to_man.py" ]; then
        if python3 "$src/packaging/man/help_to_man.py" --name faultline-collect --summary test --version 0.1.0 \
            --description-file "$src/packaging/man/faultline-collect.description" --help-file "$out" \
            -o "$work/faultline-collect.1" 2>"$work/man.err"; then
            expect_in "--help converts to a man page with a SLURM section" "$work/faultline-collect.1" ".SH SLURM"
            expect_in "--help converts to a man page with EXIT CODES" "$work/faultline-collect.1" ".SH EXIT CODES"
            expect_in "--help: --job is a man-page entry" "$work/faultline-collect.1" '\fB\-\-job ID\fR'
        else
            fail "--help to man page" "help_to_man.py to succeed" "$(cat "$work/man.err")"
        fi
    fi
}

s_tar() {
    if ! command -v zstd >/dev/null 2>&1 || ! command -v tar >/dev/null 2>&1; then
        echo "skip: tar scenario (no zstd or tar)"
        skipped=1
        return 0
    fi
    collect_full tar "$work/job-48213.tar.zst"
    expect_rc ".tar.zst output" 0
    expect_file ".tar.zst written" "$work/job-48213.tar.zst"
    _list=$(zstd -dc "$work/job-48213.tar.zst" | tar -tf - | grep -c '^job-48213/' || true)
    _all=$(zstd -dc "$work/job-48213.tar.zst" | tar -tf - | wc -l | tr -d ' ')
    expect_eq ".tar.zst: one top-level directory job-48213/" "$_all" "$_list"
    zstd -dc "$work/job-48213.tar.zst" | tar -tf - >"$work/tar.list"
    expect_in ".tar.zst: the manifest at the bundle root" "$work/tar.list" "job-48213/faultline.yaml"
    expect_eq ".tar.zst: no work directory left" "" "$(find "$work" -maxdepth 1 -name '.faultline-collect.*')"
    j=$work/tar.verdict.json
    analyze_json "$work/job-48213.tar.zst" >"$j"
    expect_json ".tar.zst: analyze names infrastructure_failure" "$j" '"outcome":"infrastructure_failure"'
    expect_json ".tar.zst: the cause is Xid 149" "$j" '"type":"gpu.xid","label":"Xid149'
    expect_json ".tar.zst: on node-02" "$j" '"blamed_nodes":["node-02"]'
    expect_json ".tar.zst: code 149" "$j" '"fields":{"code":"149"'
}

s_old_slurm() {
    out_b=$work/cases/job-48213
    mkdir -p "$work/cases"
    FAULTLINE_STUB_SLURM_VERSION=24.05 FAULTLINE_STUB_PURGED=1
    export FAULTLINE_STUB_SLURM_VERSION FAULTLINE_STUB_PURGED
    collect old-slurm slurm --job 48213 --no-fabricmanager -o "$out_b"
    unset FAULTLINE_STUB_SLURM_VERSION FAULTLINE_STUB_PURGED
    expect_rc "Slurm 24.05, job gone from slurmctld" 1
    [ -f "$out_b/faultline.yaml" ] || { fail "old-slurm: bundle" "$out_b/faultline.yaml" "no manifest"; return 0; }
    m=$out_b/faultline.yaml
    expect_in "old-slurm: SLUID refused, recorded" "$m" 'SLUID,Cluster,Partition,User,JobName", exit: 1, file: null, stderr: "sacct: error: Invalid field requested: \"SLUID\""}'
    expect_in "old-slurm: retried without SLUID" "$m" 'FailedNode,Restarts,Cluster,Partition,User,JobName", exit: 0, file: "slurm/sacct_48213.psv"}'
    expect_in "old-slurm: scontrol show job is a gap" "$m" '{source: scheduler, what: "scontrol show job 48213", reason: "scontrol exited 1: slurm_load_jobs error: Invalid job id specified'
    expect_in "old-slurm: StdOut from sacct" "$m" 'command: "sacct -j 48213 -X -n -P --format=StdOut", exit: 0'
    expect_in "old-slurm: %j expanded, read from the batch step's node" "$m" "-- node-01 'cat -- /shared/jobs/pretrain/logs/slurm-48213.out'\", exit: 0, file: \"joblogs/slurm-48213.out\""
    expect_not_in "old-slurm: no Fabric Manager log with --no-fabricmanager" "$m" "fabricmanager"
    expect_clean_import "old-slurm" "$out_b"
    expect_verdict "old-slurm" "$out_b" bundle-48213
}

s_nodes() {
    out_b=$work/nodes-only
    collect nodes slurm --nodes 'node-[01-04]' --from 2026-11-02T10:00:00Z --to 2026-11-02T10:30:00Z -o "$out_b"
    expect_rc "nodes only, 10:00-10:30" 1
    [ -f "$out_b/faultline.yaml" ] || { fail "nodes: bundle" "$out_b/faultline.yaml" "no manifest"; return 0; }
    m=$out_b/faultline.yaml
    expect_in "nodes: the window is the scope" "$m" '  window: {from: "2026-11-02T10:00:00Z", to: "2026-11-02T10:30:00Z"}'
    expect_in "nodes: the hostlist" "$m" '  nodes: "node-01,node-02,node-03,node-04"'
    expect_file "nodes: node-02's kernel log" "$out_b/nodes/node-02/journal-kernel.jsonl"
    expect_in "nodes: an empty kernel log is a gap" "$m" '{source: kernel, node: "node-04", what: "kernel log of node-04", reason: "journalctl printed nothing: no kernel entries between 2026-11-02T10:00:00Z and 2026-11-02T10:30:00Z'
    expect_in "nodes: ... and on stderr" "$err" "gap: kernel log of node-01: journalctl printed nothing"
    expect_clean_import "nodes" "$out_b"
    j=$work/nodes.verdict.json
    analyze_json "$out_b" >"$j"
    expect_json "nodes: analyze still finds Xid 149" "$j" '"type":"gpu.xid","label":"Xid149'
    collect nothing slurm --nodes node-99 --from 2026-11-02T10:00:00Z --to 2026-11-02T10:30:00Z -o "$work/nothing"
    expect_rc "nodes: an unknown node only: nothing collected" 3
    expect_in "nodes: ... says so" "$err" "nothing could be collected (2 gap(s) above): '$work/nothing' was not written"
    expect_in "nodes: ... with the reason" "$err" "gap: kernel log of node-99: node unreachable: ssh exited 255: ssh: Could not resolve hostname node-99"
    expect_eq "nodes: ... and leaves nothing behind" "" "$(find "$work" -maxdepth 1 -name 'nothing' -o -maxdepth 1 -name '.faultline-collect.*')"
}

s_shell() {
    for f in "$collect" "$here/collect_test.sh" "$stubs"/* "$stubs"/remote/*; do
        [ -f "$f" ] || continue
        if command -v dash >/dev/null 2>&1; then
            if dash -n "$f" 2>"$work/dash.err"; then pass "dash -n $(basename "$f")"; else fail "dash -n $f" "no syntax error" "$(cat "$work/dash.err")"; fi
        fi
        if command -v shellcheck >/dev/null 2>&1; then
            if shellcheck -s sh "$f" >"$work/sc.out" 2>&1; then pass "shellcheck $(basename "$f")"; else
                fail "shellcheck $f" "no finding" "these:"
                show "$work/sc.out"
            fi
        fi
        if command -v checkbashisms >/dev/null 2>&1; then
            if checkbashisms "$f" >"$work/cb.out" 2>&1; then pass "checkbashisms $(basename "$f")"; else
                fail "checkbashisms $f" "no bashism" "these:"
                show "$work/cb.out"
            fi
        fi
    done
    expect_eq "faultline-collect starts with #!/bin/sh" "#!/bin/sh" "$(head -n 1 "$collect")"
}

run_scenario() {
    work=$base/$1
    rm -rf "$work"
    mkdir -p "$work"
    printf '== %s\n' "$1"
    "s_$(printf '%s' "$1" | tr - _)"
}

case $scenario in
all) for s in shell usage slurm unreachable kueue tar old-slurm nodes; do run_scenario "$s"; done ;;
slurm | unreachable | kueue | usage | tar | old-slurm | nodes | shell) run_scenario "$scenario" ;;
*) echo "collect_test: unknown scenario '$scenario'" >&2; exit 2 ;;
esac
if [ "$skipped" = 1 ] && [ "$scenario" != all ] && [ "$checks" = 0 ]; then
    exit 77 # ctest SKIP_RETURN_CODE
fi
if [ "$failures" -gt 0 ]; then
    printf 'collect_test: %d of %d checks FAILED\n' "$failures" "$checks"
    exit 1
fi
printf 'collect_test: all %d checks passed\n' "$checks"
