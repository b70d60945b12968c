# SPDX-License-Identifier: Apache-2.0
# faultline-cli explain on the flagship sample, as a bundle and as a saved case: a superseded and a merged event, the
# cause's extractor, a correlator's links with their window and its near misses (other node found, outside the window
# by a stated amount), a pattern that fails at a named capture, a missing preceded_by context, events outside the
# workload window or of another job, one record against every rule; the JSON matches its schema; the case is not
# written; bad requests are located usage or case errors.
include(${CMAKE_CURRENT_LIST_DIR}/cli_common.cmake)

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(BUNDLE ${SRC}/resources/samples/bundle-48213)
set(RULES --rules ${SRC}/rules)

# expect_lines(WHAT REGEX...): the last output matches every REGEX.
function(expect_lines what)
  foreach(want ${ARGN})
    if(NOT LAST_OUT MATCHES "${want}")
      message(FATAL_ERROR "${what}: expected to find '${want}' in:\n${LAST_OUT}")
    endif()
  endforeach()
endfunction()

# The extractor that made the cause: kept, the journal's copy merged into it, the generic Xid rule replaced.
expect_exit(0 ${CLI} explain ${BUNDLE} --rule gpu.xid.nvlink5 ${RULES})
expect_lines("the cause's extractor"
  "explain bundle [^\n]*bundle-48213 with faultline-core "
  "rule gpu.xid.nvlink5 \\(extractor, packs/gpu.yaml:[0-9]+\\)"
  "records: [0-9]+ looked at, [0-9]+ of a kind it reads, 2 matched"
  "events \\(2\\): 1 kept, 1 merged"
  "nodes/node-02/dmesg.txt:70  Xid 149 NVLINK[^\n]* → kept as #[0-9]+: the cause"
  "replaced gpu.xid's event on this record \\(supersedes\\)"
  "nodes/node-02/journal-kernel.jsonl:70 [^\n]* → merged into nodes/node-02/dmesg.txt:70 \\(#[0-9]+\\)")

expect_exit(0 ${CLI} explain ${BUNDLE} --rule gpu.xid ${RULES})
expect_lines("the generic Xid rule"
  "superseded_by: gpu.xid.nvlink5, gpu.xid45, gpu.xid154"
  "nodes/node-02/dmesg.txt:70  Xid 149 [^\n]* → superseded: replaced on this record by gpu.xid.nvlink5, which supersedes gpu.xid")

# A correlator: its links with the window, and why the others were not linked.
expect_exit(0 ${CLI} explain ${BUNDLE} --rule corr.gpu-fault-breaks-local-ranks ${RULES})
expect_lines("a correlator"
  "window: -2.0s \\.\\. \\+5m00s\n  nodes: same"
  "links \\(5\\)"
  "#[0-9]+ nodes/node-02/dmesg.txt:70 → #[0-9]+ loki/joblog_48213.jsonl:1  \\+5.1s  \\(window -2.0s \\.\\. \\+5m00s\\)"
  "not linked \\([0-9]+\\): [0-9]+ nodes, [0-9]+ untimed, [0-9]+ window, nearest first"
  "same node required, other node found \\(cause on node-02, symptom on node-01\\)"
  "joblogs/slurm-48213.out:1220 [^\n]*\n[^\n]*outside the correlator's window by 5m00s: the symptom came 10m01s after the cause"
  "linked instead as symptom of #[0-9]+ 'Xid 149 [^\n]* via corr.teardown-follows")

# Near misses of extractors: a capture that fails, a missing preceded_by context.
expect_exit(0 ${CLI} explain ${BUNDLE} --rule env.driver-version --max 1 ${RULES})
expect_lines("a pattern failing at a capture"
  "near misses \\(5\\): 5 pattern"
  "nodes/node-01/dmesg.txt:52  \\[pattern\\] the record holds the pattern's literal\\(s\\) [^\n]*, but the capture `module_version` \\(`\\\\d\\+`\\) did not match"
  "then came 'for x86_64"
  "note: near misses \\(pattern\\): the first 1 of 5 are listed")
expect_exit(0 ${CLI} explain ${BUNDLE} --rule torchrun.root-cause-summary ${RULES})
expect_lines("a missing preceded_by context"
  "\\[preceded-by\\] the pattern matches, but its preceded_by context is not in this record nor in the 4 record\\(s\\) before it")

# Events the scope keeps out.
expect_exit(0 ${CLI} explain ${BUNDLE} --rule ib.link-up ${RULES})
expect_lines("outside the window" "events \\(40\\): 40 out-of-window"
  "out-of-window: at 2026-10-28T14:02:43.700670Z, outside the workload window 2026-11-02T07:59:55Z \\.\\. 2026-11-02T10:40:08Z")
expect_exit(0 ${CLI} explain ${BUNDLE} --rule slurm.kill-request ${RULES})
expect_lines("another job" "other-job: its record names job 48220; the analysis is about job 48213")

# One record against every rule.
expect_exit(0 ${CLI} explain ${BUNDLE} --line nodes/node-02/dmesg.txt:70 ${RULES})
expect_lines("one record"
  "record: nodes/node-02/dmesg.txt:70 \\(byte [0-9]+, kernel, dmesg-raw, node node-02, 2026-11-02T10:15:01.123456Z\\)"
  "matched by: gpu.xid, gpu.xid.nvlink5\n"
  "rule corr.gpu-fault-companions \\(correlator")

# JSON: the documented schema, for a rule and for a record.
find_program(PYTHON3 python3 REQUIRED)
set(validate "import json,sys,jsonschema\nschema=json.load(open(sys.argv[1]))\nfor p in sys.argv[2:]:\n    jsonschema.validate(json.load(open(p)),schema)\n")
execute_process(COMMAND ${CLI} explain ${BUNDLE} --rule corr.gpu-fault-breaks-local-ranks --json ${RULES}
                OUTPUT_FILE ${WORK}/corr.json RESULT_VARIABLE rc)
execute_process(COMMAND ${CLI} explain ${BUNDLE} --line nodes/node-02/dmesg.txt:70 --json ${RULES}
                OUTPUT_FILE ${WORK}/line.json RESULT_VARIABLE rc2)
if(NOT rc EQUAL 0 OR NOT rc2 EQUAL 0)
  message(FATAL_ERROR "explain --json exited ${rc} and ${rc2}")
endif()
expect_exit(0 ${PYTHON3} -c "${validate}" ${SRC}/resources/schema/rule-trace.schema.json ${WORK}/corr.json ${WORK}/line.json)
file(READ ${WORK}/corr.json json)
foreach(want "\"schema\": \"faultline.rule-trace/1\"" "\"clause\": \"window\"" "\"excess_ns\": 300[0-9]+"
             "\"before_ns\": 2000000000" "\"after_ns\": 300000000000")
  if(NOT json MATCHES "${want}")
    message(FATAL_ERROR "explain --json lacks '${want}'")
  endif()
endforeach()

# A saved case: explained with its run's own rules, and not written.
set(CASE ${WORK}/incident.faultline)
expect_exit(0 ${CLI} analyze ${BUNDLE} -o ${CASE} ${RULES})
file(SHA256 ${CASE} before)
expect_exit(0 ${CLI} explain ${CASE} --rule gpu.xid.nvlink5)
expect_lines("a case" "explain case [^\n]*incident.faultline with faultline-core [^\n]*\\(run 1's rules\\)"
  "nodes/node-02/dmesg.txt:70  Xid 149 NVLINK[^\n]* → kept as #[0-9]+: the cause")
file(SHA256 ${CASE} after)
if(NOT before STREQUAL after)
  message(FATAL_ERROR "explain wrote to the case")
endif()

# A rule of a pack layered on the bundled catalog: its origin is the pack's file, and its near misses are found in
# the sample (a process-name class without digits stops at 'python' in 'python3').
file(MAKE_DIRECTORY ${WORK}/site/packs)
file(WRITE ${WORK}/site/packs/site.yaml [=[
pack: site
extractors:
  - id: site.xid-process
    sources: [kernel]
    pattern: 'NVRM: Xid \((?P<pci>[^)]*)\): (?P<code>\d+), pid=(?P<pid>\d+), name=(?P<process>[a-z]+), '
    event: site.xid_process
    role: context
    label: 'Xid {code} in {process}'
    tests: [{line: 'NVRM: Xid (PCI:0000:c3:00): 45, pid=1, name=python, Ch 00000008', expect: {event: site.xid_process}}]
]=])
expect_exit(0 ${CLI} explain ${BUNDLE} --rules ${WORK}/site --rule site.xid-process)
expect_lines("a pack layer's rule"
  "rule site.xid-process \\(extractor, [^\n]*site/packs/site.yaml:3\\)"
  "records: [0-9]+ looked at, [0-9]+ of a kind it reads, 0 matched"
  "near misses \\(2\\): 2 pattern"
  "nodes/node-02/dmesg.txt:71  \\[pattern\\] [^\n]*, but the part `, ` did not match: `[^`]*name=\\(\\?P<process>\\[a-z\\]\\+\\)` matched '[^']*name=python', then came '3, Ch 00000008")

# Bad requests.
expect_exit(2 ${CLI} explain ${BUNDLE} --rule gpu.xd ${RULES})
expect_output("error: rule 'gpu.xd': no such rule in the catalog faultline-core [^\n]*; did you mean gpu.xid[,?]" "an unknown rule")
expect_exit(2 ${CLI} explain ${CASE} --rule gpu.xd)
expect_output("incident.faultline \\(run 1's rules\\): error: rule 'gpu.xd'" "an unknown rule in a case's own rules")
expect_exit(2 ${CLI} explain ${BUNDLE} --rule gpu.xid --line dmesg.txt:3 ${RULES})
expect_output("'dmesg.txt' names 4 files of the evidence: nodes/node-01/dmesg.txt, [^\n]*\\[unknown-file\\]" "an ambiguous file")
expect_exit(2 ${CLI} explain ${BUNDLE} --rule gpu.xid --line nodes/node-02/dmesg.txt:100000 ${RULES})
expect_output("nodes/node-02/dmesg.txt:100000: error: line 100000 is past the end of the file" "a line past the end")
expect_exit(2 ${CLI} explain ${BUNDLE} --line nodes/node-02/dmesg.txt ${RULES})
expect_exit(2 ${CLI} explain ${BUNDLE})
expect_exit(2 ${CLI} explain --rule gpu.xid)
file(WRITE ${WORK}/broken.faultline "not a case")
expect_exit(5 ${CLI} explain ${WORK}/broken.faultline --rule gpu.xid)
expect_output("case-not-sqlite" "a damaged case")
