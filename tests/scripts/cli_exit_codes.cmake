# SPDX-License-Identifier: Apache-2.0
# Checks faultline-cli's documented exit codes, and that a deliberately broken rule fails `rules test` (or the
# catalog load) with a located file:line:col message.
function(expect_exit code)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL ${code})
    message(FATAL_ERROR "expected exit ${code}, got ${rc} from: ${ARGN}\n${out}\n${err}")
  endif()
  set(LAST_OUT "${out}${err}" PARENT_SCOPE)
endfunction()

expect_exit(0 ${CLI} --help)
expect_exit(2 ${CLI})
expect_exit(2 ${CLI} analyze)
expect_exit(2 ${CLI} analyze ${SRC}/resources/samples/bundle-48213 --window 2026-11-02T10:00:00..bad)
expect_exit(4 ${CLI} analyze ${WORK}/does-not-exist)
expect_exit(0 ${CLI} analyze ${SRC}/resources/samples/inconclusive-no-infra)
if(NOT LAST_OUT MATCHES "inconclusive")
  message(FATAL_ERROR "inconclusive sample did not say inconclusive:\n${LAST_OUT}")
endif()

# A catalog copy with a broken regex: the load fails with a located error (exit 3).
file(REMOVE_RECURSE ${WORK})
file(COPY ${SRC}/rules/ DESTINATION ${WORK}/rules-badregex)
file(READ ${WORK}/rules-badregex/packs/nccl.yaml text)
string(REPLACE "pattern: 'NCCL WARN (?P<message>.*)$'" "pattern: 'NCCL WARN (?P<message>.*$'" text "${text}")
file(WRITE ${WORK}/rules-badregex/packs/nccl.yaml "${text}")
expect_exit(3 ${CLI} rules test ${WORK}/rules-badregex)
if(NOT LAST_OUT MATCHES "packs/nccl.yaml:[0-9]+:[0-9]+: error: rule 'nccl.warn': regex does not compile")
  message(FATAL_ERROR "broken regex was not reported with file:line:col and rule id:\n${LAST_OUT}")
endif()

# A catalog copy where a rule's own test no longer holds: `rules test` fails (exit 1) naming the test's line.
file(COPY ${SRC}/rules/ DESTINATION ${WORK}/rules-badtest)
file(READ ${WORK}/rules-badtest/packs/slurm.yaml text)
string(REPLACE "expect: {event: slurm.job_timeout, fields: {job: '48300'}}" "expect: {event: slurm.job_timeout, fields: {job: '99999'}}" text "${text}")
file(WRITE ${WORK}/rules-badtest/packs/slurm.yaml "${text}")
expect_exit(1 ${CLI} rules test ${WORK}/rules-badtest)
if(NOT LAST_OUT MATCHES "packs/slurm.yaml:[0-9]+:[0-9]+: error: rule 'slurm.job-timeout' test failed: field job is '48300', expected '99999'")
  message(FATAL_ERROR "failing rule test was not located:\n${LAST_OUT}")
endif()
