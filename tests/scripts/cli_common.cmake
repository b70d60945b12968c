# SPDX-License-Identifier: Apache-2.0
# Helpers for the CLI test scripts (cmake -P): run a command and check its exit code and output, and make a copy of
# the rule catalog with one deliberate change. Scripts set CLI, SRC and WORK before including this file.

# expect_exit(CODE COMMAND...): runs COMMAND, fails unless it exits with CODE; LAST_OUT holds stdout + stderr.
function(expect_exit code)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL ${code})
    message(FATAL_ERROR "expected exit ${code}, got ${rc} from: ${ARGN}\n${out}\n${err}")
  endif()
  set(LAST_OUT "${out}${err}" PARENT_SCOPE)
endfunction()

# expect_output(REGEX WHAT): fails unless the last command's output matches REGEX.
function(expect_output regex what)
  if(NOT LAST_OUT MATCHES "${regex}")
    message(FATAL_ERROR "${what}: output does not match '${regex}':\n${LAST_OUT}")
  endif()
endfunction()

# changed_catalog(NAME PACK FROM TO): WORK/NAME, a copy of the bundled catalog where packs/PACK has FROM replaced by
# TO. FROM must be there, so a rule edit elsewhere cannot turn the test into a no-op.
function(changed_catalog name pack from to)
  file(COPY ${SRC}/rules/ DESTINATION ${WORK}/${name})
  file(READ ${WORK}/${name}/packs/${pack} text)
  string(FIND "${text}" "${from}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "packs/${pack} no longer contains the text this test changes: ${from}")
  endif()
  string(REPLACE "${from}" "${to}" text "${text}")
  file(WRITE ${WORK}/${name}/packs/${pack} "${text}")
endfunction()
