# SPDX-License-Identifier: Apache-2.0
# Rule pack layers from the command line and the user's directory: a pack that overrides a bundled rule changes the
# flagship sample's verdict (with --rules, and as the user's own pack, which --no-user-rules leaves out); a pack that
# defines a bundled id again exits 3 with both places; rules test runs and reports every layer; a case records its
# layers and reproduces with them; rules regress runs over the layered catalog; a whole catalog still goes with
# --rules or --catalog, but only one.
include(${CMAKE_CURRENT_LIST_DIR}/cli_common.cmake)

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/config ${WORK}/cases)
set(ENV{XDG_CONFIG_HOME} ${WORK}/config) # no user packs unless the test puts some there
set(ENV{FAULTLINE_AUTHOR} "ci")
set(PACKS ${SRC}/tests/data/rule-packs)
set(SAMPLE ${SRC}/resources/samples/bundle-48213)

# The bundled catalog alone: the cause is the Xid 149 on node-02.
expect_exit(0 ${CLI} analyze ${SAMPLE})
expect_output("cause: Xid 149 " "the bundled catalog")
if(LAST_OUT MATCHES "rule packs:")
  message(FATAL_ERROR "no pack layer was given, yet the output names one:\n${LAST_OUT}")
endif()

# A pack replacing the NVLink5 Xid rule by id: that Xid is context now, and another cause leads.
expect_exit(0 ${CLI} analyze ${SAMPLE} --rules ${PACKS}/nvlink-noise)
expect_output("rule packs: [^\n]*nvlink-noise \\(1 file\\(s\\): 0 added, 1 overridden, 0 disabled\\)" "--rules pack")
if(LAST_OUT MATCHES "cause: Xid 149 ")
  message(FATAL_ERROR "the overriding pack did not change the verdict:\n${LAST_OUT}")
endif()
expect_output("\ncause: " "--rules pack")

# The same pack as the user's own ($XDG_CONFIG_HOME/faultline/rules): loaded without being asked for.
file(COPY ${PACKS}/nvlink-noise/ DESTINATION ${WORK}/user/faultline/rules)
set(ENV{XDG_CONFIG_HOME} ${WORK}/user)
expect_exit(0 ${CLI} analyze ${SAMPLE})
expect_output("rule packs: [^\n]*user/faultline/rules \\(1 file" "the user's pack")
if(LAST_OUT MATCHES "cause: Xid 149 ")
  message(FATAL_ERROR "the user's pack was not loaded:\n${LAST_OUT}")
endif()
expect_exit(0 ${CLI} analyze ${SAMPLE} --no-user-rules)
expect_output("cause: Xid 149 " "--no-user-rules")
set(ENV{XDG_CONFIG_HOME} ${WORK}/config)

# Defining the bundled id again without override: exit 3, the pack's place and the bundled one's.
expect_exit(3 ${CLI} analyze ${SAMPLE} --rules ${PACKS}/conflict)
expect_output("conflict/packs/site.yaml:4:9: error: rule 'gpu.xid.nvlink5': [^\n]*rules/packs/gpu.yaml:[0-9]+:5[^\n]*\\[id-conflict\\]"
              "a conflicting pack")
expect_output("\npacks/gpu.yaml:[0-9]+:5: note: rule 'gpu.xid.nvlink5'" "a conflicting pack")
expect_exit(3 ${CLI} rules test --rules ${PACKS}/conflict)
expect_output("conflict/packs/site.yaml:4:9: error:" "rules test over a conflicting pack")

# rules test: every layer's rules and their tests; a pack rule's failing test is located in the pack.
expect_exit(0 ${CLI} rules test --rules ${PACKS}/nvlink-noise)
expect_output("1 rule pack layer\\(s\\)" "rules test with a pack")
expect_output("[1-9][0-9]* passed, 0 failed" "rules test with a pack")
expect_exit(1 ${CLI} rules test --rules ${PACKS}/failing-test)
expect_output("failing-test/packs/site.yaml:10:9: error: rule 'site.fan' test failed" "a pack rule's failing test")
expect_output("failing-test \\(1 file\\(s\\): 1 added, 0 overridden, 1 disabled\\)" "a pack that adds and disables")

# A case made with a pack records its layers, and its own rules (every layer) reproduce it.
expect_exit(0 ${CLI} analyze ${SAMPLE} --rules ${PACKS}/nvlink-noise -o ${WORK}/cases/with-pack.faultline)
expect_exit(0 ${CLI} show ${WORK}/cases/with-pack.faultline --runs)
expect_output("rules: [^\n]* \\+ [^\n]*nvlink-noise" "show --runs of a case made with a pack")
expect_exit(0 ${CLI} report ${WORK}/cases/with-pack.faultline -o ${WORK}/with-pack.md)
file(READ ${WORK}/with-pack.md report)
if(NOT report MATCHES "reproduces the stored run with run 1's rules")
  message(FATAL_ERROR "the case's stored layered catalog did not reproduce its run:\n${report}")
endif()

# rules regress over the layered catalog: a case expected with the bundled rules breaks under the pack.
expect_exit(0 ${CLI} analyze ${SAMPLE} -o ${WORK}/cases/bundled.faultline)
expect_exit(0 ${CLI} expect ${WORK}/cases/bundled.faultline)
file(REMOVE ${WORK}/cases/with-pack.faultline)
expect_exit(0 ${CLI} rules regress --cases ${WORK}/cases)
expect_output("holds 1" "regress with the bundled rules")
expect_exit(1 ${CLI} rules regress --cases ${WORK}/cases --rules ${PACKS}/nvlink-noise)
expect_output("catalog from [^\n]* \\+ [^\n]*nvlink-noise" "regress with a pack")
expect_output("broken 1" "regress with a pack")

# A whole catalog: --catalog, or --rules with a directory holding catalog.yaml (its meaning before packs); not two.
file(COPY ${SRC}/rules/ DESTINATION ${WORK}/rules-copy)
expect_exit(0 ${CLI} rules test --catalog ${WORK}/rules-copy --rules ${PACKS}/nvlink-noise)
expect_exit(0 ${CLI} analyze ${SAMPLE} --rules ${WORK}/rules-copy)
expect_output("cause: Xid 149 " "--rules with a whole catalog")
expect_exit(2 ${CLI} analyze ${SAMPLE} --catalog ${SRC}/rules --rules ${WORK}/rules-copy)
expect_output("two whole catalogs" "two whole catalogs")
# A pack directory that does not exist is a catalog error naming it.
expect_exit(3 ${CLI} analyze ${SAMPLE} --rules ${WORK}/no-such-packs)
expect_output("no-such-packs: error: rule pack directory does not exist \\[no-pack-dir\\]" "a missing pack directory")
