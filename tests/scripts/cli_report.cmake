# SPDX-License-Identifier: Apache-2.0
# faultline-cli report on a saved sample case with a narrative and a note: the Markdown has the verdict, what the
# cause explains, coverage, the trail with file:line and SHA-256, the narrative, the annotations and the versions,
# and says the re-analysis reproduces the stored run; the HTML is one well-formed page with the same facts, every
# text escaped; bad requests are located usage or case errors.
include(${CMAKE_CURRENT_LIST_DIR}/cli_common.cmake)

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(CASE ${WORK}/incident.faultline)
set(ENV{FAULTLINE_AUTHOR} "ci")
expect_exit(0 ${CLI} analyze ${SRC}/resources/samples/bundle-48213 -o ${CASE})
expect_exit(0 ${CLI} annotate ${CASE} --narrative "NVLink 07 on node-02 failed, the NCCL timeouts followed")
expect_exit(0 ${CLI} annotate ${CASE} --note "reseated <b>link 07</b> & drained node-02" --line nodes/node-02/dmesg.txt:70)
expect_exit(0 ${CLI} expect ${CASE})
file(SHA256 ${SRC}/resources/samples/bundle-48213/nodes/node-02/dmesg.txt dmesg_sha)

expect_exit(0 ${CLI} report ${CASE} -o ${WORK}/report.md --rules ${SRC}/rules)
file(READ ${WORK}/report.md md)
foreach(want "^# Postmortem: incident\\.faultline"
             "Re-analysis\\*\\*: reproduces the stored run with run 1's rules"
             "## Verdict"
             "Outcome\\*\\*: infrastructure\\\\_failure — infrastructure/accelerator-fabric"
             "Blamed nodes\\*\\*: node-02"
             "## What the cause explains"
             "\\| NCCL watchdog timeout: ALLREDUCE SeqNum 184467 ran 600418 ms \\(pytorch\\.watchdog\\\\_timeout\\) \\| 8 \\| node-04 \\|"
             "## Coverage"
             "## Evidence trail"
             "cause\\*\\*: Xid 149 [^\n]* — nodes/node-02/dmesg\\.txt:70 \\(sha256 ${dmesg_sha}\\)"
             "```\nNVRM: Xid \\(PCI:0000:c3:00\\): 149"
             "## Narrative\n\nNVLink 07 on node-02 failed, the NCCL timeouts followed"
             "\\| note \\| nodes/node-02/dmesg\\.txt:70 \\| reseated \\\\<b>link 07\\\\</b> & drained node-02 \\| ci \\|"
             "## Expected verdict"
             "Engine\\*\\*: Faultline ")
  if(NOT md MATCHES "${want}")
    message(FATAL_ERROR "the Markdown report lacks '${want}':\n${md}")
  endif()
endforeach()

expect_exit(0 ${CLI} report ${CASE} --format html -o ${WORK}/report.html --rules ${SRC}/rules)
file(READ ${WORK}/report.html page)
foreach(want "^<!DOCTYPE html>" "<title>Postmortem: incident\\.faultline</title>" "<h2>Evidence trail</h2>"
             "<td>reseated &lt;b&gt;link 07&lt;/b&gt; &amp; drained node-02</td>" "sha256 ${dmesg_sha}"
             "<pre>NVRM: Xid \\(PCI:0000:c3:00\\): 149")
  if(NOT page MATCHES "${want}")
    message(FATAL_ERROR "the HTML report lacks '${want}':\n${page}")
  endif()
endforeach()
if(page MATCHES "<b>link 07")
  message(FATAL_ERROR "the HTML report carries the note's markup unescaped")
endif()
expect_exit(0 xmllint --html --noout ${WORK}/report.html)

# Errors: a format it does not write, no case, a damaged case.
expect_exit(2 ${CLI} report ${CASE} --format docx)
expect_output("--format takes md, html or pdf" "an unknown format")
expect_exit(2 ${CLI} report)
file(WRITE ${WORK}/broken.faultline "not a case")
expect_exit(5 ${CLI} report ${WORK}/broken.faultline)
expect_output("case-not-sqlite" "a damaged case")
