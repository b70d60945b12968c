// SPDX-License-Identifier: Apache-2.0
// The explain use case both front ends can call: a bundle and a saved case give the same trace as a plain value (the
// case with its run's own rules, never written), the trace's event indices point into the returned verdict, and
// every bad request is a failure with its exit code and a located diagnostic.
#include "app/usecases/explain.h"
#include "tests/common/test_helpers.h"

#include <QTest>

#include <filesystem>

using namespace faultline;

namespace faultline::usecases {
inline char* toString(Exit e)
{
    return QTest::toString(static_cast<int>(e));
}
} // namespace faultline::usecases

namespace {

usecases::ExplainRequest request(const std::string& path, const std::string& rule)
{
    usecases::ExplainRequest r;
    r.paths = { path };
    r.ruleId = rule;
    r.sources.root = tests::sourcePath("rules");
    return r;
}

const std::string kSample = "resources/samples/bundle-48213";

} // namespace

class TstExplain : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aBundleAndItsCaseGiveTheSameTrace()
    {
        const auto bundle = usecases::explainRule(request(tests::sourcePath(kSample), "gpu.xid.nvlink5"));
        QVERIFY2(bundle.ok(), bundle.failure.text().c_str());
        QVERIFY(!bundle.value->isCase);
        const core::TraceReport& t = bundle.value->trace;
        QCOMPARE(t.rules.size(), std::size_t(1));
        const core::RuleTrace& rule = t.rules.front();
        QCOMPARE(rule.events.size(), std::size_t(2));
        // Every index the trace gives is an event of the returned verdict, the one the trace followed.
        const core::Verdict& v = *bundle.value->analysis.verdict;
        for (const auto& e : rule.events) {
            QVERIFY(e.verdictIndex >= 0 && static_cast<std::size_t>(e.verdictIndex) < v.events.size());
            QCOMPARE(v.events[static_cast<std::size_t>(e.verdictIndex)].ruleId, std::string("gpu.xid.nvlink5"));
        }
        QVERIFY(v.hasCause);
        QCOMPARE(static_cast<std::size_t>(rule.events.front().verdictIndex), v.cause);

        QTemporaryDir dir;
        const std::string casePath = dir.path().toStdString() + "/incident.faultline";
        usecases::BundleRequest save;
        save.paths = { tests::sourcePath(kSample) };
        save.rulesDir = tests::sourcePath("rules");
        save.saveAs = casePath;
        QVERIFY(usecases::analyseBundle(save).ok());
        const auto before = std::filesystem::last_write_time(casePath);
        const auto fromCase = usecases::explainRule(request(casePath, "gpu.xid.nvlink5"));
        QVERIFY2(fromCase.ok(), fromCase.failure.text().c_str());
        QVERIFY(fromCase.value->isCase);
        QCOMPARE(fromCase.value->rulesOrigin, std::string("run 1's rules"));
        const core::RuleTrace& again = fromCase.value->trace.rules.front();
        QCOMPARE(again.events.size(), rule.events.size());
        for (std::size_t k = 0; k < rule.events.size(); ++k) {
            QCOMPARE(again.events[k].record.path, rule.events[k].record.path);
            QCOMPARE(again.events[k].record.line, rule.events[k].record.line);
            QCOMPARE(std::string(core::eventFateName(again.events[k].fate)),
                std::string(core::eventFateName(rule.events[k].fate)));
        }
        QVERIFY(std::filesystem::last_write_time(casePath) == before);
    }

    void badRequestsFailWithTheirExitCode()
    {
        auto unknown = usecases::explainRule(request(tests::sourcePath(kSample), "gpu.xd"));
        QVERIFY(!unknown.ok());
        QCOMPARE(unknown.failure.code, usecases::Exit::Usage);
        QCOMPARE(tests::diagCodes(unknown.failure.diagnostics), std::string("unknown-rule"));
        QVERIFY2(
            unknown.failure.text().find("did you mean gpu.xid") != std::string::npos, unknown.failure.text().c_str());

        auto noFile = request(tests::sourcePath(kSample), "gpu.xid");
        noFile.linePath = "nodes/node-09/dmesg.txt";
        noFile.line = 3;
        const auto file = usecases::explainRule(noFile);
        QCOMPARE(file.failure.code, usecases::Exit::Usage);
        QCOMPARE(tests::diagCodes(file.failure.diagnostics), std::string("unknown-file"));

        QTemporaryDir dir;
        const std::string broken = dir.path().toStdString() + "/broken.faultline";
        tests::writeFiles(dir, { { "broken.faultline", "not a case" } });
        const auto damaged = usecases::explainRule(request(broken, "gpu.xid"));
        QCOMPARE(damaged.failure.code, usecases::Exit::Case);

        auto badCatalog = request(tests::sourcePath(kSample), "gpu.xid");
        badCatalog.sources.root = dir.path().toStdString() + "/no-such-catalog";
        QCOMPARE(usecases::explainRule(badCatalog).failure.code, usecases::Exit::Catalog);

        QCOMPARE(usecases::explainRule(request(dir.path().toStdString() + "/nothing-here", "gpu.xid")).failure.code,
            usecases::Exit::NoEvidence);
    }
};

QTEST_GUILESS_MAIN(TstExplain)
#include "tst_explain.moc"
