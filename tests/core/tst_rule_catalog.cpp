// SPDX-License-Identifier: Apache-2.0
// Rule-loader edge cases with inline YAML (Falco's test_rule_loader style): assert diagnostic codes and
// locations, not wording.
#include "core/rules/rule_catalog.h"
#include "core/rules/rule_tester.h"
#include "tests/common/test_helpers.h"

#include <QTest>

using namespace faultline;
using namespace faultline::core;

namespace {

const char* kCatalog = "catalog: test\nversion: 0.0.1\nsettings: {expected_sources: [kernel]}\n";

const char* kGoodPack = R"(pack: p
extractors:
  - id: x.one
    sources: [kernel]
    pattern: 'boom (?P<what>\w+)'
    event: test.boom
    role: root
    domain: infrastructure
    label: 'boom {what}'
    tests:
      - line: 'boom gpu'
        expect: {event: test.boom, fields: {what: gpu}}
)";

struct Loaded
{
    QTemporaryDir dir;
    CatalogLoadResult result;
};

std::unique_ptr<Loaded> load(const std::map<std::string, std::string>& files)
{
    auto l = std::make_unique<Loaded>();
    std::map<std::string, std::string> all { { "catalog.yaml", kCatalog } };
    for (const auto& kv : files)
        all[kv.first] = kv.second;
    tests::writeFiles(l->dir, all);
    l->result = RuleCatalog::load(l->dir.path().toStdString());
    return l;
}

const Diagnostic* find(const CatalogLoadResult& r, const std::string& code)
{
    for (const auto& d : r.diagnostics)
        if (d.code == code)
            return &d;
    return nullptr;
}

} // namespace

class TstRuleCatalog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void loadsAndHashes()
    {
        auto a = load({ { "packs/p.yaml", kGoodPack } });
        QVERIFY2(a->result.ok(), a->result.asText().c_str());
        QCOMPARE(a->result.catalog->name(), std::string("test"));
        QCOMPARE(a->result.catalog->extractors().size(), std::size_t(1));
        QCOMPARE(a->result.catalog->contentHash().size(), std::size_t(64));
        auto same = load({ { "packs/p.yaml", kGoodPack } });
        QCOMPARE(same->result.catalog->contentHash(), a->result.catalog->contentHash());
        std::string changed = kGoodPack;
        changed.replace(changed.find("boom gpu"), 8, "boom nic");
        changed.replace(changed.find("what: gpu"), 9, "what: nic");
        auto b = load({ { "packs/p.yaml", changed } });
        QVERIFY(b->result.ok());
        QVERIFY(b->result.catalog->contentHash() != a->result.catalog->contentHash());
        const auto results = runRuleTests(*a->result.catalog);
        QCOMPARE(results.size(), std::size_t(1));
        QVERIFY2(results.front().passed, results.front().message.c_str());
    }

    void badRegexIsLocated()
    {
        std::string pack = kGoodPack;
        pack.replace(pack.find("(?P<what>\\w+)"), 13, "(?P<what>\\w+");
        auto l = load({ { "packs/p.yaml", pack } });
        QVERIFY(!l->result.ok());
        const Diagnostic* d = find(l->result, "bad-regex");
        QVERIFY2(d, l->result.asText().c_str());
        QCOMPARE(d->where.file, std::string("packs/p.yaml"));
        QCOMPARE(d->where.line, std::uint64_t(5));
        QCOMPARE(d->where.column, std::uint32_t(14));
        QCOMPARE(d->ruleId, std::string("x.one"));
        QVERIFY(d->snippet.find("pattern:") != std::string::npos);
        QVERIFY(d->format().find("packs/p.yaml:5:14: error: rule 'x.one'") == 0);
    }

    void yamlSyntaxIsLocated()
    {
        auto l = load({ { "packs/p.yaml", "pack: p\nextractors:\n  - id: [unclosed\n" } });
        const Diagnostic* d = find(l->result, "yaml-syntax");
        QVERIFY2(d, l->result.asText().c_str());
        QVERIFY(d->where.line >= 3);
    }

    void everyRuleErrorIsReported()
    {
        const char* pack = R"(pack: p
extractors:
  - id: a
    pattern: 'x'
    event: e
    colour: red
    tests: [{line: x, expect: none}]
  - id: a
    pattern: 'y'
    event: e
    tests: [{line: y, expect: none}]
  - id: b
    pattern: 'z'
    event: e
  - id: c
    pattern: 'w'
    event: e
    role: villain
    tests: [{line: w, expect: none}]
  - id: d
    pattern: 'v'
    event: e
    lookup: [{table: nosuch, key: '{x}'}]
    tests: [{line: v, expect: none}]
correlators:
  - id: k
    cause: {event: e}
    symptom: {event: e}
    after: soon
)";
        auto l = load({ { "packs/p.yaml", pack } });
        QVERIFY(!l->result.ok());
        const std::string codes = tests::diagCodes(l->result.diagnostics);
        for (const char* code :
            { "unknown-key", "duplicate-id", "no-tests", "bad-role", "unknown-table", "bad-duration" })
            QVERIFY2(codes.find(code) != std::string::npos, (std::string("missing ") + code + " in " + codes).c_str());
        QCOMPARE(find(l->result, "unknown-key")->where.line, std::uint64_t(6));
        QCOMPARE(find(l->result, "duplicate-id")->where.line, std::uint64_t(8));
    }

    void failingRuleTestIsReported()
    {
        std::string pack = kGoodPack;
        pack.replace(pack.find("what: gpu"), 9, "what: cpu");
        auto l = load({ { "packs/p.yaml", pack } });
        QVERIFY(l->result.ok());
        const auto results = runRuleTests(*l->result.catalog);
        QCOMPARE(results.size(), std::size_t(1));
        QVERIFY(!results.front().passed);
        QCOMPARE(results.front().origin.line, std::uint64_t(11));
        QVERIFY(results.front().message.find("field what is 'gpu', expected 'cpu'") != std::string::npos);
    }

    void missingCatalogFile()
    {
        QTemporaryDir dir;
        tests::writeFiles(dir, { { "packs/p.yaml", kGoodPack } });
        const auto r = RuleCatalog::load(dir.path().toStdString());
        QVERIFY(!r.ok());
        QVERIFY(find(r, "no-catalog"));
        QVERIFY(!RuleCatalog::load("/nonexistent/rules").ok());
    }

    void hypothesesAreRead()
    {
        const std::string pack = std::string(kGoodPack) + R"(hypotheses:
  - id: hyp.boom
    domain: infrastructure
    subdomain: boom-fabric
    fault_at: reporter
    support:
      - when: {event: test.boom, fields: {what: [gpu]}}
        weight: 0.6
        why: a gpu boom
      - {when: {event: test.*}, weight: 0.2}
    confirm:
      - {source: kernel, of: reporter, name: the kernel log, what: the first boom, silence: 0.4}
      - {source: kernel, of: peer, peer: '{peer}', name: the kernel log, what: the peer's boom}
      - {source: metrics, name: the counters, what: a rise}
)";
        auto l = load({ { "packs/p.yaml", pack },
            { "catalog.yaml",
                std::string(kCatalog).substr(0, std::string(kCatalog).size() - 2)
                    + ", hypothesis: {min_support: 0.4, min_lead: 0.1, max_confidence: 0.3}}\n" } });
        QVERIFY2(l->result.ok(), l->result.asText().c_str());
        const auto& hs = l->result.catalog->hypotheses();
        QCOMPARE(hs.size(), std::size_t(1));
        QCOMPARE(hs[0].label, std::string("infrastructure/boom-fabric"));
        QCOMPARE(hs[0].support.size(), std::size_t(2));
        QCOMPARE(hs[0].support[0].weight, 0.6);
        QCOMPARE(hs[0].confirm.size(), std::size_t(3));
        QVERIFY(hs[0].faultAtReporter);
        QCOMPARE(hs[0].confirm[0].of, HypothesisConfirm::Of::Reporter);
        QCOMPARE(hs[0].confirm[0].silenceWeight, 0.4);
        QCOMPARE(hs[0].confirm[1].peerTemplate, std::string("{peer}"));
        QCOMPARE(hs[0].confirm[2].of, HypothesisConfirm::Of::Job);
        QCOMPARE(l->result.catalog->settings().hypothesis.maxConfidence, 0.3);
        QCOMPARE(l->result.catalog->settings().hypothesis.minSupport, 0.4);
    }

    void badHypothesesAreReported_data()
    {
        QTest::addColumn<QString>("yaml");
        QTest::addColumn<QString>("code");
        const char* head = "pack: p\nhypotheses:\n  - id: hyp.x\n    domain: infrastructure\n";
        QTest::addRow("weight above 1") << QString::fromUtf8(head)
                + QStringLiteral("    support: [{when: {event: a.b}, weight: 1.5}]\n")
                                        << QStringLiteral("bad-number");
        QTest::addRow("no support") << QString::fromUtf8(head) << QStringLiteral("not-a-list");
        QTest::addRow("unknown source") << QString::fromUtf8(head)
                + QStringLiteral("    support: [{when: {event: a.b}, weight: 0.5}]\n"
                                 "    confirm: [{source: tea, name: n, what: w}]\n")
                                        << QStringLiteral("bad-source-kind");
        QTest::addRow("peer without template") << QString::fromUtf8(head)
                + QStringLiteral("    support: [{when: {event: a.b}, weight: 0.5}]\n"
                                 "    confirm: [{source: kernel, of: peer, name: n, what: w}]\n")
                                               << QStringLiteral("missing-key");
        QTest::addRow("unknown fault_at") << QString::fromUtf8(head)
                + QStringLiteral("    fault_at: peer\n    support: [{when: {event: a.b}, weight: 0.5}]\n")
                                          << QStringLiteral("bad-fault-at");
        QTest::addRow("unknown fault_at of a support item") << QString::fromUtf8(head)
                + QStringLiteral("    support: [{when: {event: a.b}, weight: 0.5, fault_at: peer}]\n")
                                                            << QStringLiteral("bad-fault-at");
        QTest::addRow("unknown of") << QString::fromUtf8(head)
                + QStringLiteral("    support: [{when: {event: a.b}, weight: 0.5}]\n"
                                 "    confirm: [{source: kernel, of: moon, name: n, what: w}]\n")
                                    << QStringLiteral("bad-of");
    }

    void badHypothesesAreReported()
    {
        QFETCH(QString, yaml);
        QFETCH(QString, code);
        auto l = load({ { "packs/p.yaml", yaml.toStdString() } });
        QVERIFY(!l->result.ok());
        QVERIFY2(find(l->result, code.toStdString()), l->result.asText().c_str());
    }

    void hypothesisConfidenceStaysLow()
    {
        // A catalog cannot make a hypothesis more than a low-confidence verdict.
        auto l = load({ { "packs/p.yaml", kGoodPack },
            { "catalog.yaml", "catalog: test\nversion: 0.0.1\nsettings: {hypothesis: {max_confidence: 0.8}}\n" } });
        QVERIFY(!l->result.ok());
        QVERIFY(find(l->result, "bad-number"));
    }

    void selectorsAndGlobs()
    {
        QVERIFY(globMatch("nccl.*", "nccl.ib_completion_error"));
        QVERIFY(globMatch("*", ""));
        QVERIFY(!globMatch("nccl.*", "pytorch.watchdog_timeout"));
        QVERIFY(globMatch("*.xid", "gpu.xid"));
        Event e;
        e.type = "gpu.xid";
        e.role = Role::Root;
        e.domain = "infrastructure";
        e.fields = { { "code", "149" } };
        EventSelector s;
        s.types = { "gpu.*" };
        s.roles = { Role::Root };
        s.fields = { { "code", { "79", "149" } } };
        QVERIFY(s.matches(e));
        s.domains = { "workload" };
        QVERIFY(!s.matches(e));
        // An empty value stands for "no such field": an optional capture that did not take part.
        EventSelector absent;
        absent.fields = { { "due", { "" } } };
        QVERIFY(absent.matches(e));
        e.fields.emplace_back("due", "PREEMPTION");
        QVERIFY(!absent.matches(e));
        e.fields.back().second.clear();
        QVERIFY(absent.matches(e));
    }
};

QTEST_GUILESS_MAIN(TstRuleCatalog)
#include "tst_rule_catalog.moc"
