# SPDX-License-Identifier: Apache-2.0
# rules regress over a library of 13 saved cases: the samples, a windowed case, copies, a case with two runs and one
# whose latest run misses its expectation. With the bundled rules every expectation holds (one is fixed); a catalog
# without the GPU pack breaks exactly the cases whose cause is an Xid. The JUnit report is checked against the JUnit
# XML schema, the JSON against its own fields, and a damaged case is reported, not fatal to the others.
include(${CMAKE_CURRENT_LIST_DIR}/cli_common.cmake)

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/lib/windowed ${WORK}/lib/copies ${WORK}/lib/rerun ${WORK}/lib/noexpect)
set(ENV{FAULTLINE_AUTHOR} "ci")
set(LIB ${WORK}/lib)
set(SAMPLES bundle-48213 bundle-48213-k8s cuda-oom ib-link-flap inconclusive-no-infra python-exception xid79-node-fail)
foreach(s IN LISTS SAMPLES)
  expect_exit(0 ${CLI} analyze ${SRC}/resources/samples/${s} -o ${LIB}/${s}.faultline)
  expect_exit(0 ${CLI} expect ${LIB}/${s}.faultline)
endforeach()
expect_exit(0 ${CLI} analyze ${SRC}/resources/samples/bundle-48213 --window 2026-11-02T10:00:00Z..2026-11-02T10:20:00Z
            -o ${LIB}/windowed/bundle-48213-window.faultline)
expect_exit(0 ${CLI} expect ${LIB}/windowed/bundle-48213-window.faultline)
file(COPY_FILE ${LIB}/xid79-node-fail.faultline ${LIB}/copies/xid79-copy.faultline)
file(COPY_FILE ${LIB}/bundle-48213-k8s.faultline ${LIB}/copies/k8s-copy.faultline)
expect_exit(0 ${CLI} analyze ${SRC}/resources/samples/bundle-48213 -o ${LIB}/rerun/two-runs.faultline)
expect_exit(0 ${CLI} rerun ${LIB}/rerun/two-runs.faultline)
expect_exit(0 ${CLI} expect ${LIB}/rerun/two-runs.faultline)
expect_exit(0 ${CLI} analyze ${SRC}/resources/samples/python-exception -o ${LIB}/noexpect/python-exception.faultline)

# A catalog without the GPU pack: the Xid causes are gone.
file(COPY ${SRC}/rules/ DESTINATION ${WORK}/rules-nogpu)
file(REMOVE ${WORK}/rules-nogpu/packs/gpu.yaml)
# A case whose latest run (made without the GPU pack) misses the expectation set on its first run.
expect_exit(0 ${CLI} analyze ${SRC}/resources/samples/bundle-48213 -o ${LIB}/rerun/missed.faultline)
expect_exit(0 ${CLI} expect ${LIB}/rerun/missed.faultline)
expect_exit(0 ${CLI} rerun ${LIB}/rerun/missed.faultline --rules ${WORK}/rules-nogpu)

# The bundled rules: every expectation holds, the missed one is fixed, the case without one is unchanged.
expect_exit(0 ${CLI} rules regress --cases ${LIB} --rules ${SRC}/rules)
expect_output("over 13 case\\(s\\)" "regress with the bundled rules")
expect_output("fixed +[^\n]*rerun/missed.faultline" "regress with the bundled rules")
expect_output("broken 0, failed 0, still failing 0, fixed 1, holds 11, changed 0, unchanged 1" "regress with the bundled rules")

# Without the GPU pack: exactly the seven cases whose cause is an Xid break, and the run exits 1.
expect_exit(1 ${CLI} rules regress --cases ${LIB} --rules ${WORK}/rules-nogpu --junit ${WORK}/regress.xml)
expect_output("broken 7, failed 0, still failing 1, fixed 0, holds 4, changed 0, unchanged 1" "regress without the GPU pack")
foreach(c bundle-48213.faultline bundle-48213-k8s.faultline xid79-node-fail.faultline windowed/bundle-48213-window.faultline
          copies/xid79-copy.faultline copies/k8s-copy.faultline rerun/two-runs.faultline)
  string(REPLACE "." "\\." re "${c}")
  expect_output("broken +[^\n]*lib/${re}" "regress without the GPU pack: ${c}")
endforeach()
expect_output("cause type: expected 'gpu.xid', got" "regress without the GPU pack names the miss")
expect_exit(0 xmllint --noout --schema ${SRC}/tests/data/junit/junit.xsd ${WORK}/regress.xml)
file(READ ${WORK}/regress.xml junit)
if(NOT junit MATCHES "tests=\"13\" failures=\"8\" errors=\"0\"")
  message(FATAL_ERROR "the JUnit report should count 13 tests, 8 failures and 0 errors:\n${junit}")
endif()
expect_exit(1 ${CLI} rules regress --cases ${LIB} --rules ${WORK}/rules-nogpu --json)
expect_output("\"schema\": \"faultline.regression/1\".*\"broken\": 7" "regress --json")

# A damaged case is one failed entry; the other cases are still compared.
file(MAKE_DIRECTORY ${WORK}/damaged)
file(COPY_FILE ${LIB}/cuda-oom.faultline ${WORK}/damaged/cuda-oom.faultline)
file(WRITE ${WORK}/damaged/broken.faultline "not a case")
expect_exit(1 ${CLI} rules regress --cases ${WORK}/damaged --rules ${SRC}/rules --junit ${WORK}/damaged.xml)
expect_output("failed +[^\n]*broken.faultline: .*case-not-sqlite.*holds +[^\n]*cuda-oom.faultline" "a damaged case")
expect_exit(0 xmllint --noout --schema ${SRC}/tests/data/junit/junit.xsd ${WORK}/damaged.xml)

# Usage and catalog errors.
expect_exit(2 ${CLI} rules regress)
expect_exit(2 ${CLI} rules regress --cases ${WORK}/nowhere)
expect_exit(2 ${CLI} rules regress --cases ${WORK}/rules-nogpu)
expect_output("no case \\(\\*\\.faultline\\)" "a folder without cases")
file(COPY ${SRC}/rules/ DESTINATION ${WORK}/rules-broken)
file(APPEND ${WORK}/rules-broken/packs/gpu.yaml "  - id: broken\n    pattern: '('\n")
expect_exit(3 ${CLI} rules regress --cases ${LIB} --rules ${WORK}/rules-broken)
