# SPDX-License-Identifier: Apache-2.0
# The case-file commands as users run them: analyze -o, show, rerun (same rules, then changed rules), expect,
# annotate, grep, verify, and the errors for an existing target and a damaged file.
include(${CMAKE_CURRENT_LIST_DIR}/cli_common.cmake)

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(CASE ${WORK}/incident.faultline)
set(ENV{FAULTLINE_AUTHOR} "ci")

expect_exit(0 ${CLI} analyze ${SRC}/resources/samples/bundle-48213 -o ${CASE})
expect_output("case saved: .*incident.faultline" "analyze -o")
execute_process(COMMAND stat -c %a ${CASE} OUTPUT_VARIABLE mode OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT mode STREQUAL "600")
  message(FATAL_ERROR "a new case must be private (0600), got ${mode}")
endif()
expect_exit(5 ${CLI} analyze ${SRC}/resources/samples/cuda-oom -o ${CASE})
expect_output("incident.faultline: error: .*never overwritten.*\\[case-exists\\]" "analyze -o onto an existing case")

expect_exit(0 ${CLI} show ${CASE})
expect_output("infrastructure_failure.*Xid 149" "show")
expect_exit(0 ${CLI} show ${CASE} --json)
expect_output("\"schema\": \"faultline.verdict/2\"" "show --json")
expect_exit(0 ${CLI} show ${CASE} --line nodes/node-02/dmesg.txt:70)
expect_output("NVRM: Xid \\(PCI:0000:c3:00\\): 149" "show --line")

expect_exit(0 ${CLI} rerun ${CASE})
expect_output("run 2 added.*diff run 1 → run 2: same verdict" "rerun with the same rules")
expect_exit(0 ${CLI} expect ${CASE} --note "checked in the postmortem")

# A catalog without the GPU pack cannot see the Xid: the re-run's verdict changes and misses the expectation.
file(COPY ${SRC}/rules/ DESTINATION ${WORK}/rules-nogpu)
file(REMOVE ${WORK}/rules-nogpu/packs/gpu.yaml)
expect_exit(0 ${CLI} rerun ${CASE} --rules ${WORK}/rules-nogpu)
expect_output("run 3 added.*verdict changed.*cause type: gpu.xid → .*input catalog hash.*expectation \\(run 2, marked by ci\\): NOT met"
              "rerun with changed rules")
expect_exit(0 ${CLI} show ${CASE} --runs)
expect_output("run 1 .*create by ci.*run 2 .*rerun by ci.*run 3 " "show --runs")
expect_exit(0 ${CLI} show ${CASE} --diff 1:3)
expect_output("diff run 1 → run 3: verdict changed.*cause type: gpu.xid" "show --diff")
expect_exit(5 ${CLI} show ${CASE} --diff 1:9)
expect_output("no run 9.*\\[case-no-run\\]" "show --diff with a missing run")
expect_exit(0 ${CLI} show ${CASE} --run 1)
expect_output("Xid 149" "show --run 1 (history is kept)")

expect_exit(0 ${CLI} annotate ${CASE} --note "link 07 was reseated" --line nodes/node-02/dmesg.txt:70 --author ana)
expect_exit(0 ${CLI} annotate ${CASE} --narrative "NVLink failure on node-02, NCCL timeouts followed")
expect_exit(5 ${CLI} annotate ${CASE} --note x --line nodes/nowhere.txt:1)
expect_exit(0 ${CLI} show ${CASE} --annotations)
expect_output("note by ana .* on nodes/node-02/dmesg.txt:70.*link 07 was reseated.*narrative by ci.*expected verdict: run 2"
              "show --annotations")
# A lane, a range on one node (tags with it) and a symptom; an event of a run is found again in the latest run.
expect_exit(0 ${CLI} annotate ${CASE} --bookmark "suspect node" --lane node-02 --author ana)
expect_exit(0 ${CLI} annotate ${CASE} --note "the NCCL storm" --range 2026-11-02T10:15:00Z..2026-11-02T10:16:00Z
            --node node-01 --tags nccl,ib --author ana)
expect_exit(0 ${CLI} annotate ${CASE} --tag cascade --symptom nccl.ib_completion_error)
expect_exit(0 ${CLI} annotate ${CASE} --bookmark "first" --event 1:0)
expect_exit(2 ${CLI} annotate ${CASE} --note x --range 2026-11-02T10:16:00Z..2026-11-02T10:15:00Z)
expect_exit(2 ${CLI} annotate ${CASE} --note x --node node-01)
expect_exit(0 ${CLI} show ${CASE} --annotations)
expect_output("bookmark by ana .* on lane node-02.*note by ana .* on range 2026-11-02T10:15:00Z – 2026-11-02T10:16:00Z on node-01.*tags: nccl ib.*tag by .* on symptom nccl.ib_completion_error.*on event 1:0 .*\n    first\n    (in run 3: event [0-9]+|no longer matched in run 3)"
              "show --annotations, every target")

expect_exit(0 ${CLI} grep ${CASE} "Xid \\(PCI:[0-9a-f:]+\\): 149" --node node-02)
expect_output("nodes/node-02/dmesg.txt:70: .*149, NETIR_LINK_EVT" "grep")
expect_exit(1 ${CLI} grep ${CASE} "no such text anywhere")
expect_exit(2 ${CLI} grep ${CASE} "x" --from yesterday)
expect_exit(5 ${CLI} grep ${CASE} "(unclosed")
expect_output("invalid RE2 pattern" "grep with a bad pattern")

expect_exit(0 ${CLI} verify ${CASE})
expect_output("ok: 17 evidence files" "verify")

# A truncated copy: a clear error, and the copy is left as it was.
execute_process(COMMAND head -c 40000 ${CASE} OUTPUT_FILE ${WORK}/cut.faultline)
file(SHA256 ${WORK}/cut.faultline before)
expect_exit(5 ${CLI} show ${WORK}/cut.faultline)
expect_output("cut.faultline: error: .*cut short.*\\[case-truncated\\]" "show on a truncated case")
file(SHA256 ${WORK}/cut.faultline after)
if(NOT before STREQUAL after)
  message(FATAL_ERROR "opening a damaged case changed it")
endif()
file(WRITE ${WORK}/not-a-case.faultline "hello\n")
expect_exit(5 ${CLI} rerun ${WORK}/not-a-case.faultline)
expect_output("not an SQLite database.*\\[case-not-sqlite\\]" "rerun on a text file")
