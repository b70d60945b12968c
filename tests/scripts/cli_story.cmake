# SPDX-License-Identifier: Apache-2.0
# faultline-cli story: a case saved by analyze -o starts with the story its verdict proposes (revision 1: the
# precursor, the cause, the first symptom on each other node, the teardown), printed with each step's window in UTC,
# its event and text, and as JSON (faultline.story/1); --propose saves a new revision, --history lists them, an
# earlier revision stays readable, and bad requests are usage or case errors.
include(${CMAKE_CURRENT_LIST_DIR}/cli_common.cmake)

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(CASE ${WORK}/flagship.faultline)
set(ENV{FAULTLINE_AUTHOR} "story-tests")
expect_exit(0 ${CLI} analyze ${SRC}/resources/samples/bundle-48213 -o ${CASE} --no-user-rules)

# The proposed story, as text.
expect_exit(0 ${CLI} story ${CASE})
foreach(want "story revision 1 by story-tests at [0-9T:Z-]+: proposed from run 1 \\([0-9]+ steps\\)"
             "\n1\\. Precursor: [^\n]+ on node-02  \\[proposed\\]\n   window: 2026-11-02T10:1[0-9:.]+Z \\.\\. 2026-11-02T10:1[0-9:.]+Z\n"
             "\n2\\. Cause: Xid 149 NVLINK on node-02  \\[proposed\\]\n   window: 2026-11-02T10:14:[0-9.]+Z \\.\\. 2026-11-02T10:15:[0-9.]+Z\n   event: gpu\\.xid on node-02 at 2026-11-02T10:15:01\\.123456Z\n     --> nodes/node-02/dmesg\\.txt:70\n   Xid 149 NVLINK: NETIR Error"
             "\n3\\. Symptom on node-01: " "\n4\\. Symptom on node-03: " "\n5\\. Symptom on node-04: "
             "\n6\\. Teardown: the job shuts down  \\[proposed\\]\n")
  expect_output("${want}" "story")
endforeach()

# As JSON: the cause step's state names the cause's record.
expect_exit(0 ${CLI} story ${CASE} --json)
set(story "${LAST_OUT}")
string(JSON schema GET "${story}" schema)
string(JSON revision GET "${story}" revision)
string(JSON change GET "${story}" change)
string(JSON steps LENGTH "${story}" steps)
string(JSON title GET "${story}" steps 1 title)
string(JSON path GET "${story}" steps 1 state event path)
string(JSON line GET "${story}" steps 1 state event line)
string(JSON rule GET "${story}" steps 1 state event rule)
string(JSON lane GET "${story}" steps 1 state lane)
string(JSON pane GET "${story}" steps 1 state panes 0)
string(JSON origin GET "${story}" steps 1 origin)
foreach(pair "schema;faultline.story/1" "revision;1" "change;proposed from run 1" "steps;6"
             "title;Cause: Xid 149 NVLINK on node-02" "path;nodes/node-02/dmesg.txt" "line;70" "rule;gpu.xid.nvlink5"
             "lane;node-02" "pane;evidence" "origin;proposed")
  list(GET pair 0 name)
  list(GET pair 1 want)
  if(NOT "${${name}}" STREQUAL "${want}")
    message(FATAL_ERROR "story --json: expected ${name} '${want}', got '${${name}}':\n${story}")
  endif()
endforeach()

# --propose saves a new revision; the first stays readable; --history lists both.
expect_exit(0 ${CLI} story ${CASE} --propose --author ana)
expect_output("^story revision 2 saved to .*flagship.faultline: proposed from run 1 \\(6 steps\\)\n$" "story --propose")
expect_exit(0 ${CLI} story ${CASE} --history)
expect_output("^revision 1  [0-9T:Z-]+  by story-tests  proposed from run 1\nrevision 2  [0-9T:Z-]+  by ana  proposed from run 1\n$"
              "story --history")
expect_exit(0 ${CLI} story ${CASE} --history --json)
string(JSON count LENGTH "${LAST_OUT}" revisions)
string(JSON author GET "${LAST_OUT}" revisions 1 author)
if(NOT count EQUAL 2 OR NOT author STREQUAL "ana")
  message(FATAL_ERROR "story --history --json: expected 2 revisions, the second by ana:\n${LAST_OUT}")
endif()
expect_exit(0 ${CLI} story ${CASE})
expect_output("^story revision 2 by ana " "story (latest)")
expect_exit(0 ${CLI} story ${CASE} --revision 1)
expect_output("^story revision 1 by story-tests " "story --revision 1")

# Bad requests.
expect_exit(5 ${CLI} story ${CASE} --revision 9)
expect_output("story-no-revision" "story --revision 9")
expect_exit(2 ${CLI} story ${CASE} --revision x)
expect_exit(2 ${CLI} story ${CASE} --propose --history)
expect_exit(2 ${CLI} story ${CASE} --author ana)
expect_exit(2 ${CLI} story)
expect_exit(5 ${CLI} story ${WORK}/missing.faultline)
