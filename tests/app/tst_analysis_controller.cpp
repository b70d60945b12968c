// SPDX-License-Identifier: Apache-2.0
// AnalysisController runs import and analysis off the UI thread: the event loop keeps turning, progress arrives,
// a cancelled run reports "cancelled" and never a result, and a superseded run's result is dropped. CaseController
// does the same for a saved case's history: the case view shows it, the notes, narrative and expectation asked for
// from the view are written and read back, a run's stored verdict comes back in a dialog, and an earlier request's
// history is dropped.
#include "app/gui/analysis_controller.h"
#include "app/gui/case_controller.h"
#include "app/usecases/use_cases.h"
#include "core/analysis/analyzer.h"
#include "core/casefile/case_file.h"
#include "importers/bundle_loader.h"
#include "tests/common/test_helpers.h"
#include "views/case/case_view.h"

#include <QDialog>
#include <QFile>
#include <QSignalSpy>
#include <QTest>

#include <filesystem>

using namespace faultline;

class TstAnalysisController : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void finishesWithAVerdict()
    {
        app::AnalysisController controller(QString::fromStdString(tests::sourcePath("rules")));
        QSignalSpy finished(&controller, &app::AnalysisController::analysisFinished);
        QSignalSpy failed(&controller, &app::AnalysisController::analysisFailed);
        QSignalSpy progress(&controller, &app::AnalysisController::progressChanged);
        controller.start({ QString::fromStdString(tests::sourcePath("resources/samples/bundle-48213")) });
        QVERIFY(controller.isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QCOMPARE(failed.count(), 0);
        QVERIFY(progress.count() >= 2);
        const auto result = finished.takeFirst().at(0).value<views::AnalysisResult>();
        QVERIFY(result.verdict);
        QCOMPARE(result.verdict->outcome, std::string("infrastructure_failure"));
    }

    void cancelReportsCancelled()
    {
        app::AnalysisController controller(QString::fromStdString(tests::sourcePath("rules")));
        QSignalSpy finished(&controller, &app::AnalysisController::analysisFinished);
        QSignalSpy failed(&controller, &app::AnalysisController::analysisFailed);
        controller.start({ QString::fromStdString(tests::sourcePath("resources/samples/bundle-48213")) });
        controller.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        QCOMPARE(finished.count(), 0);
        QVERIFY(failed.takeFirst().at(0).toString().contains(QLatin1String("cancel")));
    }

    void newerRunSupersedesOlder()
    {
        app::AnalysisController controller(QString::fromStdString(tests::sourcePath("rules")));
        QSignalSpy finished(&controller, &app::AnalysisController::analysisFinished);
        controller.start({ QString::fromStdString(tests::sourcePath("resources/samples/bundle-48213")) });
        controller.start({ QString::fromStdString(tests::sourcePath("resources/samples/cuda-oom")) });
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QTest::qWait(200);
        QCOMPARE(finished.count(), 1);
        const auto result = finished.takeFirst().at(0).value<views::AnalysisResult>();
        QCOMPARE(result.verdict->outcome, std::string("workload_failure"));
    }

    void savesOpensAndAddsRunsToACase()
    {
        QTemporaryDir dir;
        const QString casePath = dir.filePath(QStringLiteral("incident.faultline"));
        app::AnalysisController controller(QString::fromStdString(tests::sourcePath("rules")));
        QSignalSpy finished(&controller, &app::AnalysisController::analysisFinished);
        QSignalSpy saved(&controller, &app::AnalysisController::caseSaved);
        QSignalSpy failedWrite(&controller, &app::AnalysisController::caseFailed);
        controller.start({ QString::fromStdString(tests::sourcePath("resources/samples/bundle-48213")) });
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        const auto analysed = finished.takeFirst().at(0).value<views::AnalysisResult>();
        QVERIFY(analysed.input);
        controller.saveCase(casePath, analysed);
        QTRY_COMPARE_WITH_TIMEOUT(saved.count() + failedWrite.count(), 1, 30000);
        QCOMPARE(saved.count(), 1);
        QCOMPARE(saved.takeFirst().at(0).toString(), casePath);

        // Saving again onto the same file is refused: a case is never overwritten.
        controller.saveCase(casePath, analysed);
        QTRY_COMPARE_WITH_TIMEOUT(failedWrite.count(), 1, 30000);
        QVERIFY(failedWrite.takeFirst().at(0).toString().contains(QLatin1String("case-exists")));

        // Opening the case re-analyses its stored evidence and reproduces the stored run.
        controller.openCase(casePath);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        const auto reopened = finished.takeFirst().at(0).value<views::AnalysisResult>();
        QCOMPARE(reopened.casePath, casePath.toStdString());
        QCOMPARE(reopened.storedRun, std::int64_t(1));
        QVERIFY(reopened.matchesStoredRun);
        QCOMPARE(reopened.verdict->outcome, std::string("infrastructure_failure"));

        controller.addRun(reopened);
        QTRY_COMPARE_WITH_TIMEOUT(saved.count(), 1, 30000);
        QVERIFY(saved.takeFirst().at(1).toString().contains(QLatin1String("run 2 added (same verdict as run 1)")));

        // The case view lists the runs and keeps notes, the narrative and the expected verdict; the case controller
        // reads and writes them off the UI thread.
        views::CaseView view;
        app::CaseController cases(&view);
        QSignalSpy shown(&cases, &app::CaseController::historyShown);
        QSignalSpy changed(&cases, &app::CaseController::caseChanged);
        QSignalSpy caseFailed(&cases, &app::CaseController::failed);
        QSignalSpy verdicts(&cases, &app::CaseController::runVerdictShown);
        cases.showCase(casePath);
        QCOMPARE(view.state(), views::CaseView::State::Loading);
        QTRY_COMPARE_WITH_TIMEOUT(view.state(), views::CaseView::State::Shown, 30000);
        QCOMPARE(shown.count(), 1);
        VERIFY_CONTAINS(view.text(), QStringLiteral("same verdict as run 1"));
        Q_EMIT view.noteRequested(QStringLiteral("reseated the NVLink cable"));
        Q_EMIT view.narrativeRequested(QStringLiteral("first draft"));
        Q_EMIT view.narrativeRequested(QStringLiteral("NVLink failure on node-02"));
        Q_EMIT view.expectRequested(QStringLiteral("postmortem"));
        QCOMPARE(cases.isBusy(), true);
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 4, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(cases.isBusy(), false, 30000);
        QCOMPARE(caseFailed.count(), 0);
        QCOMPARE(view.state(), views::CaseView::State::Shown);
        const QString text = view.text();
        VERIFY_CONTAINS(text, QStringLiteral("reseated the NVLink cable"));
        VERIFY_CONTAINS(text, QStringLiteral("NVLink failure on node-02"));
        VERIFY_LACKS(text, QStringLiteral("first draft"));
        VERIFY_CONTAINS(text, QStringLiteral("Expected verdict: run 2"));
        VERIFY_CONTAINS(text, QStringLiteral("meets it"));

        // A run's stored verdict, asked for from the view, comes back in a dialog.
        Q_EMIT view.runRequested(1);
        QTRY_COMPARE_WITH_TIMEOUT(verdicts.count(), 1, 30000);
        QCOMPARE(verdicts.at(0).at(0).toLongLong(), qint64(1));
        VERIFY_CONTAINS(verdicts.at(0).at(1).toString(), QStringLiteral("Xid 149"));
        auto* dialog = view.findChild<QDialog*>(QStringLiteral("storedVerdict"));
        QVERIFY2(dialog && dialog->isVisible(), "no stored-verdict dialog is shown");
        dialog->close();

        cases.addLineNote(QStringLiteral("nodes/node-02/dmesg.txt"), 70, QStringLiteral("the Xid line"));
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 5, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(cases.isBusy(), false, 30000);
        VERIFY_CONTAINS(view.text(), QStringLiteral("nodes/node-02/dmesg.txt:70"));
        cases.addLineNote(QStringLiteral("nowhere.txt"), 1, QStringLiteral("x"));
        QTRY_COMPARE_WITH_TIMEOUT(caseFailed.count(), 1, 30000);
        VERIFY_CONTAINS(caseFailed.at(0).at(0).toString(), QStringLiteral("case-no-file"));
        cases.showRun(99);
        QTRY_COMPARE_WITH_TIMEOUT(caseFailed.count(), 2, 30000);
        VERIFY_CONTAINS(caseFailed.at(1).at(0).toString(), QStringLiteral("case-no-run"));
        QTRY_COMPARE_WITH_TIMEOUT(cases.isBusy(), false, 30000);
        QCOMPARE(changed.count(), 5);
        QCOMPARE(verdicts.count(), 1);

        // A damaged case is reported, not shown.
        QSignalSpy failed(&controller, &app::AnalysisController::analysisFailed);
        const QString broken = dir.filePath(QStringLiteral("broken.faultline"));
        QFile f(broken);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a case");
        f.close();
        controller.openCase(broken);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        QVERIFY(failed.takeFirst().at(0).toString().contains(QLatin1String("case-not-sqlite")));

        // The case view shows it as an error; a history read for an earlier request is dropped, not shown.
        const auto before = shown.count();
        cases.showCase(casePath);
        cases.showCase(broken);
        QTRY_COMPARE_WITH_TIMEOUT(view.state(), views::CaseView::State::Error, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(cases.isBusy(), false, 30000);
        QCOMPARE(shown.count(), before + 1);
        QCOMPARE(view.state(), views::CaseView::State::Error);
        VERIFY_CONTAINS(view.text(), QStringLiteral("case-not-sqlite"));
        cases.showCase({});
        QCOMPARE(view.state(), views::CaseView::State::Empty);
    }

    void aCaseReopensWithItsOwnRules()
    {
        // A case analysed with an older catalog (here: without the GPU pack) reopens with those rules and reproduces
        // its run; re-running it with the workbench's current rules finds the Xid and differs.
        QTemporaryDir dir;
        const std::string rules = dir.filePath(QStringLiteral("rules-nogpu")).toStdString();
        std::filesystem::copy(tests::sourcePath("rules"), rules, std::filesystem::copy_options::recursive);
        std::filesystem::remove(rules + "/packs/gpu.yaml");
        const auto catalog = core::RuleCatalog::load(rules);
        QVERIFY(catalog.ok());
        const auto input = importers::collectBundle({ tests::sourcePath("resources/samples/bundle-48213") });
        const auto evidence = importers::importBundle(input);
        const auto verdict = core::analyze(evidence, *catalog.catalog);
        QVERIFY(verdict.hasCause && verdict.events[verdict.cause].type != "gpu.xid");
        core::CaseCreateRequest req;
        req.input = &input;
        req.evidence = &evidence;
        req.verdict = &verdict;
        req.run.catalog = catalog.catalog.get();
        req.run.rulesDir = rules;
        const std::string casePath = dir.filePath(QStringLiteral("old-rules.faultline")).toStdString();
        std::vector<core::Diagnostic> errors;
        QVERIFY(core::CaseFile::create(casePath, req, errors));
        std::filesystem::remove_all(rules); // the old rules are gone from disk; the case still has them

        app::AnalysisController controller(QString::fromStdString(tests::sourcePath("rules")));
        QSignalSpy finished(&controller, &app::AnalysisController::analysisFinished);
        controller.openCase(QString::fromStdString(casePath));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        const auto own = finished.takeFirst().at(0).value<views::AnalysisResult>();
        QCOMPARE(own.rulesOrigin, std::string("run 1's rules"));
        QVERIFY(own.matchesStoredRun);
        QVERIFY(own.verdict->events[own.verdict->cause].type != "gpu.xid");

        controller.openCase(QString::fromStdString(casePath), true);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        const auto current = finished.takeFirst().at(0).value<views::AnalysisResult>();
        QCOMPARE(current.rulesOrigin, std::string("current rules"));
        QVERIFY(!current.matchesStoredRun);
        QCOMPARE(current.verdict->events[current.verdict->cause].type, std::string("gpu.xid"));
    }

    void aWindowedCaseReproducesAndKeepsItsWindow()
    {
        // A case made with a workload-window override (faultline-cli analyze --window) is re-analysed with that
        // window: with its own rules and with the current ones it reproduces run 1, and a run added from the
        // workbench records the same window.
        QTemporaryDir dir;
        const std::string casePath = dir.filePath(QStringLiteral("windowed.faultline")).toStdString();
        usecases::BundleRequest request;
        request.paths = { tests::sourcePath("resources/samples/bundle-48213") };
        request.rulesDir = tests::sourcePath("rules");
        request.windowFromNs = 1793613600LL * 1000000000LL; // 2026-11-02T10:00:00Z
        request.windowToNs = 1793614800LL * 1000000000LL; // 2026-11-02T10:20:00Z
        request.saveAs = casePath;
        const auto made = usecases::analyseBundle(request);
        QVERIFY2(made.ok(), made.failure.text().c_str());

        app::AnalysisController controller(QString::fromStdString(tests::sourcePath("rules")));
        QSignalSpy finished(&controller, &app::AnalysisController::analysisFinished);
        QSignalSpy saved(&controller, &app::AnalysisController::caseSaved);
        for (const bool currentRules : { false, true }) {
            controller.openCase(QString::fromStdString(casePath), currentRules);
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
            const auto r = finished.takeFirst().at(0).value<views::AnalysisResult>();
            QVERIFY2(r.matchesStoredRun,
                qPrintable(QStringLiteral("with %1 the re-run differs from run 1")
                               .arg(QString::fromStdString(r.rulesOrigin))));
            QCOMPARE(r.storedRun, std::int64_t(1));
            QCOMPARE(r.windowFromNs, request.windowFromNs);
            QCOMPARE(r.windowToNs, request.windowToNs);
            if (currentRules) {
                controller.addRun(r);
                QTRY_COMPARE_WITH_TIMEOUT(saved.count(), 1, 30000);
                QVERIFY(saved.takeFirst().at(1).toString().contains(QLatin1String("same verdict as run 1")));
            }
        }
        std::vector<core::Diagnostic> errors;
        auto c = core::CaseFile::open(casePath, { true, true }, errors);
        QVERIFY(c);
        const auto [from, to] = c->runWindow(2, errors);
        QCOMPARE(from, request.windowFromNs);
        QCOMPARE(to, request.windowToNs);
    }

    void aCaseShowsItsStoredVerdictBeforeTheReRun()
    {
        QTemporaryDir dir;
        auto request = usecases::BundleRequest {};
        request.paths = { tests::sourcePath("resources/samples/bundle-48213") };
        request.rulesDir = tests::sourcePath("rules");
        request.saveAs = dir.filePath(QStringLiteral("stored.faultline")).toStdString();
        QVERIFY(usecases::analyseBundle(request).ok());

        app::AnalysisController controller(QString::fromStdString(tests::sourcePath("rules")));
        QSignalSpy finished(&controller, &app::AnalysisController::analysisFinished);
        int finishedWhenStored = -1;
        views::StoredVerdictSummary stored;
        connect(
            &controller, &app::AnalysisController::storedVerdictReady, this, [&](const views::StoredVerdictSummary& s) {
                finishedWhenStored = static_cast<int>(finished.count());
                stored = s;
            });
        controller.openCase(QString::fromStdString(request.saveAs));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QCOMPARE(finishedWhenStored, 0); // the stored verdict came first
        QCOMPARE(stored.run, std::int64_t(1));
        QCOMPARE(stored.runs, std::size_t(1));
        QCOMPARE(stored.outcome, std::string("infrastructure_failure"));
        QVERIFY2(stored.text.find("Xid 149") != std::string::npos, stored.text.c_str());

        // A damaged case shows no stored verdict, only the failure.
        QSignalSpy failed(&controller, &app::AnalysisController::analysisFailed);
        finishedWhenStored = -1;
        controller.openCase(dir.filePath(QStringLiteral("missing.faultline")));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        QCOMPARE(finishedWhenStored, -1);
    }

    void brokenCatalogIsReported()
    {
        QTemporaryDir empty;
        app::AnalysisController controller(empty.path());
        QSignalSpy failed(&controller, &app::AnalysisController::analysisFailed);
        controller.start({ QString::fromStdString(tests::sourcePath("resources/samples/bundle-48213")) });
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        QVERIFY(failed.takeFirst().at(0).toString().contains(QLatin1String("catalog.yaml")));
    }
};

QTEST_MAIN(TstAnalysisController)
#include "tst_analysis_controller.moc"
