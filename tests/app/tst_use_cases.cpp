// SPDX-License-Identifier: Apache-2.0
// The use-case layer both front ends call: each failure has its exit code and a located message, progress rises to
// 100, a cancelled call returns Cancelled, and a case reproduced or extended keeps the job and window of its run.
#include "app/usecases/use_cases.h"
#include "core/report/verdict_report.h"
#include "tests/common/test_helpers.h"

#include <QTest>

#include <algorithm>
#include <filesystem>

using namespace faultline;

namespace faultline::usecases {
inline char* toString(Exit e)
{
    return QTest::toString(static_cast<int>(e));
}
} // namespace faultline::usecases

namespace {

usecases::BundleRequest sampleRequest()
{
    usecases::BundleRequest r;
    r.paths = { tests::sourcePath("resources/samples/bundle-48213") };
    r.rulesDir = tests::sourcePath("rules");
    return r;
}

} // namespace

class TstUseCases : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void analysesTheSampleWithRisingProgress()
    {
        std::vector<int> seen;
        std::vector<std::string> steps;
        usecases::Task task;
        task.progress = [&](int percent, const std::string& step) {
            seen.push_back(percent);
            steps.push_back(step);
        };
        const auto r = usecases::analyseBundle(sampleRequest(), task);
        QVERIFY2(r.ok(), r.failure.text().c_str());
        QCOMPARE(r.value->analysis.verdict->outcome, std::string("infrastructure_failure"));
        QVERIFY(!r.value->saved);
        QVERIFY(!seen.empty());
        QCOMPARE(seen.back(), 100);
        // The import says which file, how far, and how much evidence there is.
        const bool named = std::any_of(steps.begin(), steps.end(), [](const std::string& s) {
            return s.find("Importing ") == 0 && s.find(" of ") != std::string::npos
                && s.find(" files") != std::string::npos;
        });
        QVERIFY2(named, "no import step names its file, part and the evidence's size");
        for (std::size_t i = 1; i < seen.size(); ++i)
            QVERIFY2(seen[i] >= seen[i - 1],
                qPrintable(QStringLiteral("progress went back from %1 to %2").arg(seen[i - 1]).arg(seen[i])));
    }

    void failuresCarryTheirExitCodes()
    {
        QTemporaryDir dir;
        auto noRules = sampleRequest();
        noRules.rulesDir = dir.path().toStdString();
        auto r = usecases::analyseBundle(noRules);
        QVERIFY(!r.ok());
        QCOMPARE(r.failure.code, usecases::Exit::Catalog);
        QVERIFY2(r.failure.text().find("catalog.yaml") != std::string::npos, r.failure.text().c_str());

        auto nothing = sampleRequest();
        nothing.paths = { dir.filePath(QStringLiteral("does-not-exist")).toStdString() };
        r = usecases::analyseBundle(nothing);
        QCOMPARE(r.failure.code, usecases::Exit::NoEvidence);

        auto exists = sampleRequest();
        exists.saveAs = tests::sourcePath("README.md");
        r = usecases::analyseBundle(exists);
        QCOMPARE(r.failure.code, usecases::Exit::Case);
        QVERIFY2(r.failure.text().find("case-exists") != std::string::npos, r.failure.text().c_str());

        const auto notACase = usecases::reproduceCase(
            { tests::sourcePath("README.md"), usecases::Rules::Stored, tests::sourcePath("rules"), 0 });
        QCOMPARE(notACase.failure.code, usecases::Exit::Case);

        usecases::Analysis bare;
        QCOMPARE(usecases::addRun(bare).failure.code, usecases::Exit::Case);
        QCOMPARE(usecases::saveCase(dir.filePath(QStringLiteral("x.faultline")).toStdString(), bare).failure.code,
            usecases::Exit::Case);
    }

    void aCancelledCallReturnsCancelled()
    {
        std::atomic_bool cancel { true };
        usecases::Task task;
        task.cancel = &cancel;
        const auto r = usecases::analyseBundle(sampleRequest(), task);
        QVERIFY(!r.ok());
        QCOMPARE(r.failure.code, usecases::Exit::Cancelled);
    }

    void aCaseKeepsItsJobAndWindowThroughReproduceAndAddRun()
    {
        QTemporaryDir dir;
        auto request = sampleRequest();
        request.jobId = "48213";
        request.windowFromNs = 1793613600LL * 1000000000LL; // 2026-11-02T10:00:00Z
        request.windowToNs = 1793614800LL * 1000000000LL; // 2026-11-02T10:20:00Z
        request.saveAs = dir.filePath(QStringLiteral("case.faultline")).toStdString();
        const auto made = usecases::analyseBundle(request);
        QVERIFY2(made.ok(), made.failure.text().c_str());
        QVERIFY(made.value->saved);
        QCOMPARE(made.value->saved->path, request.saveAs);
        QCOMPARE(made.value->saved->files, made.value->analysis.input->files.size());

        for (const auto rules : { usecases::Rules::Stored, usecases::Rules::Current }) {
            const auto again = usecases::reproduceCase({ request.saveAs, rules, tests::sourcePath("rules"), 0 });
            QVERIFY2(again.ok(), again.failure.text().c_str());
            QVERIFY2(again.value->matchesStoredRun, again.value->rulesOrigin.c_str());
            QCOMPARE(again.value->jobOption, request.jobId);
            QCOMPARE(again.value->windowFromNs, request.windowFromNs);
            QCOMPARE(again.value->storedRun, std::int64_t(1));
            QVERIFY(!again.value->importDiffers);
        }
        // A re-run without the window would not reproduce run 1: the window is part of the verdict.
        auto unwindowed = sampleRequest();
        const auto plain = usecases::analyseBundle(unwindowed);
        QVERIFY(plain.ok());
        QVERIFY(core::verdictToJson(*plain.value->analysis.verdict, *plain.value->analysis.evidence)
            != core::verdictToJson(*made.value->analysis.verdict, *made.value->analysis.evidence));

        const auto reproduced =
            usecases::reproduceCase({ request.saveAs, usecases::Rules::Current, tests::sourcePath("rules"), 0 });
        const auto added = usecases::addRun(*reproduced.value);
        QVERIFY2(added.ok(), added.failure.text().c_str());
        QCOMPARE(added.value->id, std::int64_t(2));
        QVERIFY(added.value->diff && added.value->diff->same);
        std::vector<core::Diagnostic> errors;
        auto c = core::CaseFile::open(request.saveAs, { true, true }, errors);
        QVERIFY(c);
        QCOMPARE(c->runWindow(2, errors).first, request.windowFromNs);
        QCOMPARE(c->importJobOption(errors), request.jobId);
        const auto runs = c->runs(errors);
        QCOMPARE(runs.size(), std::size_t(2));
        QCOMPARE(runs.back().catalogHash, runs.front().catalogHash);
    }
};

QTEST_MAIN(TstUseCases)
#include "tst_use_cases.moc"
