# SPDX-License-Identifier: Apache-2.0
# Checks faultline-cli's documented exit codes, and that a deliberately broken rule fails `rules test` (or the
# catalog load) with a located file:line:col message.
include(${CMAKE_CURRENT_LIST_DIR}/cli_common.cmake)

expect_exit(0 ${CLI} --help)
expect_exit(2 ${CLI})
expect_exit(2 ${CLI} analyze)
expect_exit(2 ${CLI} analyze ${SRC}/resources/samples/bundle-48213 --window 2026-11-02T10:00:00..bad)
expect_exit(4 ${CLI} analyze ${WORK}/does-not-exist)
expect_exit(0 ${CLI} analyze ${SRC}/resources/samples/inconclusive-no-infra)
expect_output("inconclusive" "the inconclusive sample")

# A catalog copy with a broken regex: the load fails with a located error (exit 3).
file(REMOVE_RECURSE ${WORK})
changed_catalog(rules-badregex nccl.yaml "pattern: 'NCCL WARN (?P<message>.*)$'" "pattern: 'NCCL WARN (?P<message>.*$'")
expect_exit(3 ${CLI} rules test ${WORK}/rules-badregex)
expect_output("packs/nccl.yaml:[0-9]+:[0-9]+: error: rule 'nccl.warn': regex does not compile"
              "a broken regex, reported with file:line:col and rule id")

# A catalog copy where a rule's own test no longer holds: `rules test` fails (exit 1) naming the test's line.
changed_catalog(rules-badtest slurm.yaml "expect: {event: slurm.job_timeout, fields: {job: '48300'}}"
                "expect: {event: slurm.job_timeout, fields: {job: '99999'}}")
expect_exit(1 ${CLI} rules test ${WORK}/rules-badtest)
expect_output("packs/slurm.yaml:[0-9]+:[0-9]+: error: rule 'slurm.job-timeout' test failed: field job is '48300', expected '99999'"
              "a failing rule test, located")
