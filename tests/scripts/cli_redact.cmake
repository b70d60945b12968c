# SPDX-License-Identifier: Apache-2.0
# faultline-cli redact and report --redact on a case seeded with known secrets: the flagship sample's host names and
# addresses, plus a user, a uid, a home path, two tokens, an e-mail address, an outside address, a login host's FQDN
# (in plain lines, a JSON line with an escape, the annotations and the story's revisions). The preview lists them; no
# secret survives in any table of the redacted copy (dumped value by value, blobs decompressed), nor in the Markdown
# and HTML reports; the pseudonyms agree between the preview, the copy and the reports; the copy opens, verifies,
# prints its verdict, re-analyses to it and names the original's hashes; the original is not modified; bad requests
# are located errors.
include(${CMAKE_CURRENT_LIST_DIR}/cli_common.cmake)

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(BUNDLE ${WORK}/bundle)
file(COPY ${SRC}/resources/samples/bundle-48213/ DESTINATION ${BUNDLE})
file(APPEND ${BUNDLE}/joblogs/slurm-48213.out
  "0: HF_TOKEN=hf_Zq8KfLw3Nc2Vb7Xy1Ta9Rm4Pd6Ue5Sg0Ho huggingface-cli login\n"
  "0: git push https://ghp_R2d2C3po4Bb8Wing5Falcon9Tie7Xw@github.com/acme-ml/pretrain.git\n"
  "0: run by USER=mkowalski uid=73519 from /home/mkowalski/pretrain on login-gw7.acme-corp.net\n"
  "0: alerts to ml-oncall@acme-corp.net; peer 172.31.44.201 via 2001:db8:4::17\n")
file(APPEND ${BUNDLE}/slurm/slurmctld.log
  "[2026-11-02T11:40:00.001] _slurm_rpc_submit_batch_job: JobId=48240 UserId=mkowalski(73519) GroupId=mlteam(73519)\n")
file(APPEND ${BUNDLE}/loki/joblog_48213.jsonl
  "{\"labels\":{},\"line\":\"0: cache /home/mkowalski/.cache\\nml-oncall@acme-corp.net\",\"timestamp\":\"2026-11-02T10:25:06.0000000Z\"}\n")

set(CASE ${WORK}/incident.faultline)
set(COPY ${WORK}/shared.faultline)
set(ENV{FAULTLINE_AUTHOR} "mkowalski")
expect_exit(0 ${CLI} analyze ${BUNDLE} -o ${CASE})
expect_exit(0 ${CLI} annotate ${CASE} --narrative
            "NVLink 07 on node-02.cluster.acme-corp.net failed, mkowalski paged ml-oncall@acme-corp.net (INC0048213)")
expect_exit(0 ${CLI} annotate ${CASE} --note "reseated from 172.31.44.201, see /home/mkowalski/notes.md"
            --line nodes/node-02/dmesg.txt:70)
# The story: revision 1 proposed at creation, revision 2 proposed again by mkowalski (node names in titles and texts,
# files and nodes in the steps' states).
expect_exit(0 ${CLI} story ${CASE} --propose --author mkowalski)
file(SHA256 ${CASE} case_sha_before)
file(SHA256 ${BUNDLE}/nodes/node-02/dmesg.txt dmesg_sha)

# The secrets, each as it appears in the evidence or the annotations.
set(SECRETS node-01 node-02 node-03 node-04 node-07 "node-[05-06]" "node-[01-04]" slurmctld-01 10.10.0.1 10.10.0.2
            10.10.0.3 10.10.0.4 10.10.8.21 mkowalski 73519 /home/mkowalski hf_Zq8KfLw3 ghp_R2d2C3po ml-oncall acme-corp
            172.31.44.201 2001:db8:4::17 login-gw7)

# check_text(WHAT TEXT PRESENT): every secret is in TEXT (PRESENT true: the check can fail) or none is.
function(check_text what text present)
  foreach(s IN LISTS SECRETS)
    string(FIND "${text}" "${s}" at)
    if(present AND at EQUAL -1)
      message(FATAL_ERROR "${what}: expected the seeded secret '${s}' in it, but it is not there")
    elseif(NOT present AND NOT at EQUAL -1)
      string(SUBSTRING "${text}" ${at} 160 around)
      message(FATAL_ERROR "${what}: the secret '${s}' survived redaction:\n...${around}...")
    endif()
  endforeach()
endfunction()

# dump(CASE VAR): every value of every table of CASE (blobs decompressed), as text.
function(dump file var)
  execute_process(COMMAND ${DUMP} ${file} RESULT_VARIABLE rc OUTPUT_FILE ${file}.dump ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cannot dump ${file}: ${err}")
  endif()
  file(READ ${file}.dump text)
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

dump(${CASE} original)
check_text("the original case" "${original}" TRUE)

# The preview lists every replacement and writes nothing.
expect_exit(0 ${CLI} redact ${CASE} --preview)
foreach(want "host +node-02 +host-b +[1-9]" "host +login-gw7.acme-corp.net +host-[a-z]+ " "user +mkowalski +user-1 "
             "uid +73519 +9000[0-9] " "path +/home/mkowalski +/home/user-1 " "email +ml-oncall@acme-corp.net +email-1@example.invalid"
             "token +hf_Zq8KfLw3" "token +ghp_R2d2C3po" "ip +172.31.44.201 +10.255.0.[0-9]+ " "ip +2001:db8:4::17 +fd00:ff::1 "
             "nothing was written")
  expect_output("${want}" "redact --preview")
endforeach()
if(EXISTS ${COPY})
  message(FATAL_ERROR "redact --preview wrote ${COPY}")
endif()
expect_exit(0 ${CLI} redact ${CASE} --preview --json)
set(preview "${LAST_OUT}")
string(JSON count LENGTH "${preview}" replacements)
set(pseudonyms "")
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON original GET "${preview}" replacements ${i} original)
  string(JSON pseudonym GET "${preview}" replacements ${i} pseudonym)
  string(MAKE_C_IDENTIFIER "${original}" key)
  set(pseudonym_of_${key} "${pseudonym}")
endforeach()
foreach(name node-02 mkowalski ml-oncall@acme-corp.net 172.31.44.201)
  string(MAKE_C_IDENTIFIER "${name}" key)
  if(NOT DEFINED pseudonym_of_${key})
    message(FATAL_ERROR "redact --preview --json lists no pseudonym for '${name}':\n${preview}")
  endif()
endforeach()
set(host ${pseudonym_of_node_02})
set(user ${pseudonym_of_mkowalski})
set(email ${pseudonym_of_ml_oncall_acme_corp_net})
set(address ${pseudonym_of__172_31_44_201})
if(NOT host STREQUAL "host-b")
  message(FATAL_ERROR "node-02 is the second of the known nodes in name order: expected host-b, got ${host}")
endif()

# The redacted copy: every table, the evidence included.
expect_exit(0 ${CLI} redact ${CASE} -o ${COPY} --rules ${SRC}/rules)
expect_output("redacted copy written: .*shared.faultline.*the copy re-analyses to its stored verdict" "redact -o")
file(SHA256 ${CASE} case_sha_after)
if(NOT case_sha_before STREQUAL case_sha_after)
  message(FATAL_ERROR "redact modified the original case")
endif()
dump(${COPY} copy)
check_text("the redacted copy" "${copy}" FALSE)
foreach(want "files.path: nodes/${host}/dmesg.txt" "annotations.text: NVLink 07 on ${host} failed, ${user} paged ${email}"
             "annotations.author: ${user}" "story_revisions.author: ${user}"
             "story_steps.title: Cause: Xid 149 NVLINK on ${host}" "\"path\":\"nodes/${host}/dmesg.txt\""
             "\"sha256\":\"${dmesg_sha}\"" "\"schema\":\"faultline.redaction/1\"")
  string(FIND "${copy}" "${want}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the redacted copy lacks '${want}'")
  endif()
endforeach()
# It is a case: it verifies, prints its verdict, and its evidence trail points at the same lines.
expect_exit(0 ${CLI} verify ${COPY})
expect_exit(0 ${CLI} show ${COPY})
expect_output("infrastructure_failure.*--> nodes/${host}/dmesg.txt:70.*blamed nodes: ${host}" "show on the copy")
check_text("show on the copy" "${LAST_OUT}" FALSE)
expect_exit(0 ${CLI} show ${COPY} --line nodes/${host}/dmesg.txt:70)
expect_output("NVRM: Xid \\(PCI:0000:c3:00\\): 149" "show --line on the copy")
expect_exit(0 ${CLI} grep ${COPY} "\\[token-[0-9]\\]|USER=user-1")
expect_output("joblogs/slurm-48213.out:[0-9]+: 0: HF_TOKEN=\\[token-1\\] .*/home/user-1/pretrain on host-[a-z]+\n"
              "grep on the copy finds the pseudonyms in the evidence")
expect_exit(1 ${CLI} grep ${COPY} "hf_Zq8|ghp_R2d2|acme-corp|mkowalski|node-0[1-7]")
expect_exit(0 ${CLI} report ${COPY} --rules ${SRC}/rules)
expect_output("Redacted copy\\*\\*: made with the redaction profile default" "report on the copy")
expect_output("nodes/${host}/dmesg\\.txt:70 \\(original sha256 ${dmesg_sha}\\)" "report on the copy")

# Reports of the original with --redact: no secret, the same pseudonyms.
expect_exit(0 ${CLI} report ${CASE} -o ${WORK}/plain.md --rules ${SRC}/rules)
file(READ ${WORK}/plain.md plain)
foreach(s node-02 mkowalski ml-oncall@acme-corp.net 172.31.44.201)
  string(FIND "${plain}" "${s}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the unredacted report should show '${s}' (else the redacted one proves nothing)")
  endif()
endforeach()
foreach(format md html)
  expect_exit(0 ${CLI} report ${CASE} --format ${format} --redact default -o ${WORK}/redacted.${format} --rules ${SRC}/rules)
  file(READ ${WORK}/redacted.${format} page)
  check_text("the redacted ${format} report" "${page}" FALSE)
  foreach(want "nodes/${host}/dmesg\\.txt:70 \\(sha256 ${dmesg_sha}\\)" "NVLink 07 on ${host} failed, ${user} paged ${email}"
               "reseated from ${address}, see /home/${user}/notes")
    if(NOT page MATCHES "${want}")
      message(FATAL_ERROR "the redacted ${format} report lacks '${want}':\n${page}")
    endif()
  endforeach()
endforeach()
file(READ ${WORK}/redacted.md md)
if(NOT md MATCHES "Blamed nodes\\*\\*: ${host}\n")
  message(FATAL_ERROR "the redacted report blames another pseudonym than the copy's ${host}:\n${md}")
endif()

# A profile file narrows (e-mail addresses kept), keeps a value, and adds a pattern.
file(WRITE ${WORK}/vendor.yaml "name: vendor\ncategories: {emails: false}\nkeep: [login-gw7.acme-corp.net]\n"
                               "patterns:\n  - {name: ticket, regex: 'INC[0-9]{7}'}\n")
expect_exit(0 ${CLI} redact ${CASE} --preview --profile ${WORK}/vendor.yaml)
expect_output("custom +INC0048213 +ticket-1 " "a profile's pattern")
expect_output("with the profile vendor" "a profile's name")
if(LAST_OUT MATCHES "email +ml-oncall" OR LAST_OUT MATCHES "host +login-gw7")
  message(FATAL_ERROR "the profile turned e-mail addresses off and keeps login-gw7, yet they are replaced:\n${LAST_OUT}")
endif()

# Errors: located profile errors, the case itself as the copy, an existing copy, missing arguments, a damaged case.
file(WRITE ${WORK}/bad-yaml.yaml "name: x\ncategories: {emails: false\n")
expect_exit(2 ${CLI} redact ${CASE} --preview --profile ${WORK}/bad-yaml.yaml)
expect_output("bad-yaml.yaml:[0-9]+:[0-9]+: error: not valid YAML.*\\[redact-profile-yaml\\]" "a profile that is not YAML")
file(WRITE ${WORK}/bad-regex.yaml "patterns:\n  - {name: t, regex: 'INC[0-9'}\n")
expect_exit(2 ${CLI} redact ${CASE} -o ${WORK}/other.faultline --profile ${WORK}/bad-regex.yaml)
expect_output("bad-regex.yaml:2:22: error: pattern 't': the regex does not compile.*\\[redact-profile-regex\\]"
              "a profile with a bad regex")
expect_exit(2 ${CLI} report ${CASE} --redact ${WORK}/missing.yaml)
expect_output("missing.yaml: error: cannot read the redaction profile.*\\[redact-profile-io\\]" "a missing profile")
expect_exit(2 ${CLI} redact ${CASE} -o ${CASE})
expect_output("refusing to write the redacted copy over the case itself" "the case as its own copy")
expect_exit(5 ${CLI} redact ${CASE} -o ${COPY})
expect_output("shared.faultline: error: .*never written over a file.*\\[case-exists\\]" "an existing copy")
expect_exit(2 ${CLI} redact ${CASE})
expect_exit(2 ${CLI} redact ${CASE} --preview -o ${WORK}/x.faultline)
file(WRITE ${WORK}/broken.faultline "not a case")
expect_exit(5 ${CLI} redact ${WORK}/broken.faultline -o ${WORK}/y.faultline)
expect_output("case-not-sqlite" "a damaged case")
foreach(never other.faultline x.faultline y.faultline)
  if(EXISTS ${WORK}/${never})
    message(FATAL_ERROR "a failed redact left ${WORK}/${never}")
  endif()
endforeach()
file(SHA256 ${CASE} case_sha_end)
if(NOT case_sha_before STREQUAL case_sha_end)
  message(FATAL_ERROR "redact or report --redact modified the original case")
endif()
