// SPDX-License-Identifier: Apache-2.0
// The redaction engine: every category found in the forms logs use, one pseudonym per value everywhere, numbering in
// the order values are met (known hosts in name order), FQDN and hostlist forms of a known node, no change to line
// structure, exact edits, profiles that add and narrow rules, and located errors for a bad profile.
#include "core/redact/redaction.h"
#include "tests/common/test_helpers.h"

#include <QTest>

#include <algorithm>

using namespace faultline;

namespace {

core::RedactionProfile profile(const std::string& yaml)
{
    const auto load = core::parseRedactionProfile(yaml, "profile.yaml");
    if (!load.ok()) {
        for (const auto& d : load.diagnostics)
            qWarning("%s", d.format().c_str());
        return {};
    }
    return *load.profile;
}

std::string pseudonymOf(const core::Redactor& r, const std::string& original)
{
    for (const auto& rep : r.replacements())
        if (rep.original == original)
            return rep.pseudonym;
    return "(no pseudonym for " + original + ")";
}

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace

class TstRedaction : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void knownHostsAreNumberedInNameOrderAndReplacedInEveryForm()
    {
        core::Redactor r(core::defaultRedactionProfile());
        for (const char* n : { "node-03", "node-01", "node-02", "node-04" })
            r.addKnownHost(n);
        const std::string out = r.redact("node-02 failed; NODE-02.cluster.example.com and node-02.log, "
                                         "scontrol_show_node_node-02.txt, starting on node-[01-04], "
                                         "node-021 is another host, node-02: 4815");
        QCOMPARE(pseudonymOf(r, "node-01"), std::string("host-a"));
        QCOMPARE(pseudonymOf(r, "node-02"), std::string("host-b"));
        QCOMPARE(pseudonymOf(r, "node-04"), std::string("host-d"));
        QCOMPARE(out,
            std::string("host-b failed; host-b and host-b.log, scontrol_show_node_host-b.txt, starting on "
                        "host-a,host-b,host-c,host-d, host-e is another host, host-b: 4815"));
        // A PromQL selector's set of digits names hosts as a Slurm hostlist does.
        QCOMPARE(r.redact(R"(DCGM_FI_DEV_GPU_UTIL{Hostname=~\"node-0[134]\"} node[7])"),
            std::string(R"(DCGM_FI_DEV_GPU_UTIL{Hostname=~\"host-a|host-c|host-d\"} node[7])"));
        // The FQDN form is listed as its own replacement, with the node's pseudonym.
        QCOMPARE(pseudonymOf(r, "NODE-02.cluster.example.com"), std::string("host-b"));
    }

    void otherHostsOfTheNamingSchemeAndContextsAreHosts()
    {
        core::Redactor r(core::defaultRedactionProfile());
        r.addKnownHost("node-01");
        const std::string out = r.redact("sched: Allocate JobId=48209 NodeList=node-07 #CPUs=224\n"
                                         "_start_job: Started JobId=48220 in gpu on node-[05-06]\n"
                                         "MASTER_ADDR=trainer-master-0 hostname=gpu17.cluster.local\n"
                                         "{\"_HOSTNAME\":\"dgx-a100-3\",\"MESSAGE\":\"on gpu17\"}\n"
                                         "Nov  2 10:15:01 login-2 kernel: hello\n"
                                         "update_node: node node-02 reason set\n"
                                         "nodes: 4 node=4 host=localhost\n");
        VERIFY_LACKS(q(out), q("node-07"));
        VERIFY_LACKS(q(out), q("node-05"));
        VERIFY_LACKS(q(out), q("node-06"));
        VERIFY_LACKS(q(out), q("trainer-master-0"));
        VERIFY_LACKS(q(out), q("gpu17"));
        VERIFY_LACKS(q(out), q("dgx-a100-3"));
        VERIFY_LACKS(q(out), q("login-2"));
        VERIFY_LACKS(q(out), q("node-02"));
        // Words after a host key are not hosts, nor are counts and localhost.
        VERIFY_CONTAINS(q(out), q("update_node: node host-"));
        VERIFY_CONTAINS(q(out), q("nodes: 4 node=4 host=localhost"));
        QCOMPARE(std::count(out.begin(), out.end(), '\n'), 7);
    }

    void everyCategoryInTheFormsLogsUse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("secret");
        QTest::addColumn<QString>("pseudonym");
        QTest::addRow("ipv4") << "Bootstrap: Using eth0:10.10.0.1<0>"
                              << "10.10.0.1"
                              << "10.255.0.1";
        QTest::addRow("ipv4 with port") << "slurm_receive_msg [10.10.8.21:45872]"
                                        << "10.10.8.21"
                                        << "10.255.0.1";
        QTest::addRow("ipv6") << "peer fe80::1ff:fe23:4567:890a%ib0 down"
                              << "fe80::1ff:fe23:4567:890a"
                              << "fd00:ff::1";
        QTest::addRow("ipv6 in full") << "addr 2001:0db8:85a3:0000:0000:8a2e:0370:7334 up"
                                      << "2001:0db8:85a3:0000:0000:8a2e:0370:7334"
                                      << "fd00:ff::1";
        QTest::addRow("ipv6 with an ipv4 tail") << "from ::ffff:10.1.2.3 port 22"
                                                << "::ffff:10.1.2.3"
                                                << "fd00:ff::1";
        QTest::addRow("user key") << "USER=alice srun --pty"
                                  << "alice"
                                  << "user-1";
        QTest::addRow("slurm user id") << "UserId=alice(48611) GroupId=ml(5001)"
                                       << "alice"
                                       << "user-1";
        QTest::addRow("slurm uid") << "UserId=alice(48611) GroupId=ml(5001)"
                                   << "48611"
                                   << "90001";
        QTest::addRow("uid key") << "_slurm_rpc_kill_job: REQUEST_KILL_JOB JobId=48220 uid 1004"
                                 << "1004"
                                 << "90001";
        QTest::addRow("journal uid") << R"({"_UID":"48611","MESSAGE":"x"})"
                                     << "48611"
                                     << "90001";
        QTest::addRow("home path") << "open /home/alice/.cache/torch failed"
                                   << "/home/alice"
                                   << "/home/user-1";
        QTest::addRow("email") << "mail sent to alice.smith@corp.example.com"
                               << "alice.smith@corp.example.com"
                               << "email-1@example.invalid";
        QTest::addRow("email after a JSON escape") << R"("done\nbob@acme.org")"
                                                   << "bob@acme.org"
                                                   << "email-1@example.invalid";
        QTest::addRow("huggingface token") << "HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
                                           << "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
                                           << "[token-1]";
        QTest::addRow("github token") << "git clone https://ghp_0123456789abcdefABCDEF0123456789abcd@github.com/x"
                                      << "ghp_0123456789abcdefABCDEF0123456789abcd"
                                      << "[token-1]";
        QTest::addRow("password key") << "db password: \"s3cr3t-pass\""
                                      << "s3cr3t-pass"
                                      << "[token-1]";
        QTest::addRow("short password") << "mysql -u x --password=k9$z"
                                        << "k9$z"
                                        << "[token-1]";
        QTest::addRow("bearer") << "Authorization: Bearer abcdefABCDEF0123456789"
                                << "abcdefABCDEF0123456789"
                                << "[token-1]";
        QTest::addRow("internal fqdn") << "pull registry.gpu-east.internal/ml/trainer:1.2"
                                       << "registry.gpu-east.internal"
                                       << "host-a";
    }

    void everyCategoryInTheFormsLogsUse()
    {
        QFETCH(QString, text);
        QFETCH(QString, secret);
        QFETCH(QString, pseudonym);
        core::Redactor r(core::defaultRedactionProfile());
        const std::string out = r.redact(text.toStdString());
        VERIFY_LACKS(q(out), q(secret.toStdString()));
        VERIFY_CONTAINS(q(out), q(pseudonym.toStdString()));
        QCOMPARE(pseudonymOf(r, secret.toStdString()), pseudonym.toStdString());
    }

    void whatIsNotASecretStaysAsItIs_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addRow("times and PCI ids") << "[E1102 10:15:06.211734912 ProcessGroupNCCL.cpp:1910] "
                                              "NVRM: Xid (PCI:0000:c3:00): 149, pid=4815";
        QTest::addRow("versions") << "OS=Linux 6.17.0-19-generic #19~24.04.1-Ubuntu driver 580.95.05";
        QTest::addRow("C++ scopes") << "c10::Error at std::string ProcessGroup::abort";
        QTest::addRow("loopback and system users") << "bind 127.0.0.1 and ::1 as root, user=nobody uid=0";
        QTest::addRow("public domains") << "resources nvidia.com/gpu jobset.sigs.k8s.io docs.nvidia.com";
        QTest::addRow("words after user") << "Cuda failure 'user error', the user space code";
        QTest::addRow("token-ish words") << "max_new_tokens=512 tokenizer_path=/data/tok";
        QTest::addRow("placeholders") << "password=******** token: <redacted> secret: true api_key=${API_KEY}";
        QTest::addRow("uuid after uid") << "uid: 12345678-abcd-4ef0-9abc-0123456789ab";
    }

    void whatIsNotASecretStaysAsItIs()
    {
        QFETCH(QString, text);
        core::Redactor r(core::defaultRedactionProfile());
        const std::string in = text.toStdString();
        const std::string out = r.redact(in);
        QCOMPARE(out, in);
    }

    void aValueFoundInAContextIsReplacedEverywhere()
    {
        core::Redactor r(core::defaultRedactionProfile());
        // The bare name comes before its context in the same text, and again in a later one.
        QCOMPARE(r.redact("alice started the job; user=alice"), std::string("user-1 started the job; user=user-1"));
        QCOMPARE(r.redact("owned by alice"), std::string("owned by user-1"));
        QCOMPARE(r.redact("/home/alice/run.sh"), std::string("/home/user-1/run.sh"));
        // A uid is replaced only where a context names it a uid.
        QCOMPARE(r.redact("uid=48611 pid 48611"), std::string("uid=90001 pid 48611"));
        QCOMPARE(r.redactExact("48611"), std::optional<std::string>("90001"));
        QCOMPARE(r.redactExact("48612"), std::optional<std::string>());
    }

    void discoveryFixesTheNumberingAndRedactCounts()
    {
        core::Redactor r(core::defaultRedactionProfile());
        r.discover("user=bob talks to 10.0.0.9");
        r.discover("user=alice talks to 10.0.0.7");
        for (const auto& rep : r.replacements())
            QCOMPARE(rep.count, std::uint64_t(0));
        QCOMPARE(
            r.redact("alice bob 10.0.0.7 10.0.0.9 alice"), std::string("user-2 user-1 10.255.0.2 10.255.0.1 user-2"));
        QCOMPARE(pseudonymOf(r, "alice"), std::string("user-2"));
        for (const auto& rep : r.replacements())
            if (rep.original == "alice")
                QCOMPARE(rep.count, std::uint64_t(2));
        // The same texts in the same order give the same pseudonyms in a second redactor.
        core::Redactor again(core::defaultRedactionProfile());
        again.discover("user=bob talks to 10.0.0.9");
        again.discover("user=alice talks to 10.0.0.7");
        QCOMPARE(again.redact("alice bob 10.0.0.7"), std::string("user-2 user-1 10.255.0.2"));
    }

    void editsLocateEveryReplacementAndLinesAreKept()
    {
        core::Redactor r(core::defaultRedactionProfile());
        r.addKnownHost("node-02");
        const std::string in = "a node-02 b\nuser=alice c node-02\n\nend";
        std::vector<core::TextEdit> edits;
        const std::string out = r.redact(in, &edits);
        QCOMPARE(out, std::string("a host-a b\nuser=user-1 c host-a\n\nend"));
        QCOMPARE(edits.size(), std::size_t(3));
        // Rebuilding the output from the input and the edits gives the output.
        std::string rebuilt;
        std::size_t at = 0;
        std::size_t outAt = 0;
        for (const auto& e : edits) {
            rebuilt += in.substr(at, e.offset - at);
            outAt += e.offset - at;
            rebuilt += out.substr(outAt, e.newLength);
            outAt += e.newLength;
            at = e.offset + e.oldLength;
        }
        rebuilt += in.substr(at);
        QCOMPARE(rebuilt, out);
        QCOMPARE(edits[0].offset, std::size_t(2));
        QCOMPARE(edits[0].oldLength, std::size_t(7));
        QCOMPARE(edits[0].newLength, std::size_t(6));
    }

    void aProfileAddsNarrowsAndKeeps()
    {
        const auto p = profile(R"(
name: vendor
categories: {emails: false, ips: false}
keep: [node-03, example.org]
hosts: [spare-9]
users: [carol]
patterns:
  - {name: ticket, regex: 'INC[0-9]{7}'}
  - {name: rack, regex: 'rack-([a-z][0-9]+)', category: hosts}
)");
        QCOMPARE(p.name, std::string("vendor"));
        core::Redactor r(p);
        r.addKnownHost("node-03");
        const std::string out = r.redact("INC0012345 on rack-b7 spare-9 node-03 carol a@example.com x@y.com "
                                         "10.0.0.1 bob@sub.example.org");
        QCOMPARE(out,
            std::string("ticket-1 on rack-host-b host-a node-03 user-1 a@example.com x@y.com 10.0.0.1 "
                        "bob@sub.example.org"));
        QCOMPARE(pseudonymOf(r, "b7"), std::string("host-b"));
    }

    void aProfileCanStartFromNothing()
    {
        const auto p = profile("extends: none\ncategories: {tokens: true}\n");
        core::Redactor r(p);
        QCOMPARE(r.redact("user=alice 10.0.0.1 token=abcdefgh123"), std::string("user=alice 10.0.0.1 token=[token-1]"));
    }

    void badProfilesGetLocatedErrors_data()
    {
        QTest::addColumn<QString>("yaml");
        QTest::addColumn<QString>("code");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addRow("yaml syntax") << "name: x\ncategories: {hosts: true\n"
                                     << "redact-profile-yaml" << 3 << 1;
        QTest::addRow("unknown key") << "name: x\ncategorys: {}\n"
                                     << "redact-profile-key" << 2 << 1;
        QTest::addRow("unknown category") << "categories:\n  hostnames: false\n"
                                          << "redact-profile-key" << 2 << 3;
        QTest::addRow("not a boolean") << "categories:\n  hosts: maybe\n"
                                       << "redact-profile-value" << 2 << 10;
        QTest::addRow("bad regex") << "patterns:\n  - name: t\n    regex: 'INC[0-9'\n"
                                   << "redact-profile-regex" << 3 << 12;
        QTest::addRow("empty match") << "patterns:\n  - {name: t, regex: 'x*'}\n"
                                     << "redact-profile-regex" << 2 << 22;
        QTest::addRow("bad stem") << "patterns:\n  - {name: 'a b', regex: x}\n"
                                  << "redact-profile-value" << 2 << 12;
        QTest::addRow("bad extends") << "extends: strict\n"
                                     << "redact-profile-value" << 1 << 10;
        QTest::addRow("not a map") << "- a\n- b\n"
                                   << "redact-profile-value" << 1 << 1;
    }

    void badProfilesGetLocatedErrors()
    {
        QFETCH(QString, yaml);
        QFETCH(QString, code);
        QFETCH(int, line);
        QFETCH(int, column);
        const auto load = core::parseRedactionProfile(yaml.toStdString(), "bad.yaml");
        QVERIFY(!load.ok());
        QVERIFY(!load.diagnostics.empty());
        const auto& d = load.diagnostics.front();
        QCOMPARE(d.code, code.toStdString());
        QCOMPARE(d.where.file, std::string("bad.yaml"));
        QCOMPARE(static_cast<int>(d.where.line), line);
        QCOMPARE(static_cast<int>(d.where.column), column);
        QVERIFY2(
            d.format().rfind("bad.yaml:" + std::to_string(line) + ":" + std::to_string(column) + ": error: ", 0) == 0,
            d.format().c_str());
    }

    void theDefaultProfileAndAMissingFile()
    {
        const auto def = core::redactionProfile("default");
        QVERIFY(def.ok());
        QCOMPARE(def.profile->name, std::string("default"));
        QCOMPARE(def.profile->sha256.size(), std::size_t(64));
        const auto missing = core::redactionProfile("/nonexistent/profile.yaml");
        QVERIFY(!missing.ok());
        QCOMPARE(missing.diagnostics.front().code, std::string("redact-profile-io"));
    }
};

QTEST_GUILESS_MAIN(TstRedaction)
#include "tst_redaction.moc"
