// SPDX-License-Identifier: Apache-2.0
// The bundled catalog loads cleanly, every rule's own test passes, and the catalog covers what the engine
// issue promises (every XID row of the reference table, NVLink5 units, SXids, NCCL results).
#include "core/rules/rule_tester.h"
#include "tests/common/test_helpers.h"

#include <QTest>

using namespace faultline;
using namespace faultline::core;

class TstBundledRules : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void loadsWithoutDiagnostics()
    {
        const auto r = RuleCatalog::load(tests::sourcePath("rules"));
        QVERIFY2(r.ok(), r.asText().c_str());
        QVERIFY2(r.diagnostics.empty(), r.asText().c_str());
        QVERIFY(!r.catalog->version().empty());
    }

    void everyRuleTestPasses()
    {
        auto catalog = tests::bundledCatalog();
        QVERIFY(catalog);
        const auto results = runRuleTests(*catalog);
        QVERIFY(results.size() > 80);
        for (const auto& r : results)
            QVERIFY2(r.passed,
                (r.origin.file + ":" + std::to_string(r.origin.line) + ": " + r.ruleId + ": " + r.message).c_str());
        // Every extractor and metric rule has at least one test.
        for (const auto& e : catalog->extractors())
            QVERIFY2(!e.tests.empty(), e.id.c_str());
        for (const auto& m : catalog->metricRules())
            QVERIFY2(!m.tests.empty(), m.id.c_str());
    }

    void xidCatalogIsComplete()
    {
        auto catalog = tests::bundledCatalog();
        const LookupTable* xid = catalog->table("xid");
        QVERIFY(xid);
        // The XID table has 111 rows: 109 catalog codes plus 123 and GPUd's 173.
        QCOMPARE(xid->rows.size(), std::size_t(111));
        for (const auto& [code, row] : xid->rows) {
            for (const char* col : { "mnemonic", "meaning", "domain", "severity", "role", "action" })
                QVERIFY2(row.count(col), (code + " lacks " + col).c_str());
            Role r {};
            QVERIFY2(roleFromName(row.at("role"), r), code.c_str());
        }
        QCOMPARE(xid->rows.at("149").at("subdomain"), std::string("accelerator-fabric"));
        QCOMPARE(xid->rows.at("154").at("role"), std::string("companion"));
        QCOMPARE(xid->rows.at("45").at("role"), std::string("companion"));
        QCOMPARE(xid->rows.at("79").at("subdomain"), std::string("pcie-bus"));
        QVERIFY(catalog->table("nvlink5")->rows.count("149/NETIR_LINK_EVT"));
        QVERIFY(catalog->table("sxid")->rows.count("20034"));
        QVERIFY(catalog->table("nccl_result")->rows.count("6"));
    }
};

QTEST_GUILESS_MAIN(TstBundledRules)
#include "tst_bundled_rules.moc"
