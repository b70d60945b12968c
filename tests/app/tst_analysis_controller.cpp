// SPDX-License-Identifier: Apache-2.0
// AnalysisController runs import and analysis off the UI thread: the event loop keeps turning, progress arrives,
// a cancelled run reports "cancelled" and never a result, and a superseded run's result is dropped.
#include "app/gui/analysis_controller.h"
#include "tests/common/test_helpers.h"

#include <QSignalSpy>
#include <QTest>

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
