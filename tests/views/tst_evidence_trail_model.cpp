// SPDX-License-Identifier: Apache-2.0
#include "core/analysis/analyzer.h"
#include "importers/bundle_loader.h"
#include "tests/common/test_helpers.h"
#include "views/models/evidence_trail_model.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace faultline;

class TstEvidenceTrailModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void modelIsConsistent()
    {
        views::EvidenceTrailModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        auto ev = std::make_shared<core::EvidenceSet>(
            importers::loadBundle({ tests::sourcePath("resources/samples/bundle-48213") }));
        auto verdict = std::make_shared<core::Verdict>(core::analyze(*ev, *tests::bundledCatalog()));
        views::AnalysisResult result;
        result.evidence = ev;
        result.verdict = verdict;
        model.setResult(result);
        QCOMPARE(model.rowCount(), static_cast<int>(verdict->trail.size()));
        QVERIFY(model.rowCount() > 5);
        // The cause row says so and points at its evidence.
        int causeRow = -1;
        for (int r = 0; r < model.rowCount(); ++r)
            if (model.index(r, views::EvidenceTrailModel::WhyColumn).data().toString() == QLatin1String("cause"))
                causeRow = r;
        QVERIFY(causeRow >= 0);
        QCOMPARE(
            model.index(causeRow, views::EvidenceTrailModel::NodeColumn).data().toString(), QStringLiteral("node-02"));
        QVERIFY(model.index(causeRow, views::EvidenceTrailModel::SourceColumn)
                    .data()
                    .toString()
                    .startsWith(QLatin1String("nodes/node-02/")));
        QCOMPARE(model.index(causeRow, 0).data(views::EvidenceTrailModel::TimestampNsRole).toLongLong(),
            static_cast<qlonglong>(verdict->events[verdict->cause].timeNs));
        model.setResult({});
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TstEvidenceTrailModel)
#include "tst_evidence_trail_model.moc"
