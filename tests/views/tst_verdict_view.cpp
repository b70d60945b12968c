// SPDX-License-Identifier: Apache-2.0
// The verdict panel renders the flagship sample; the grab is kept as an artefact for a human to look at.
#include "core/analysis/analyzer.h"
#include "importers/bundle_loader.h"
#include "tests/common/test_helpers.h"
#include "views/widgets/verdict_view.h"

#include <QLabel>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QTableView>
#include <QTest>

using namespace faultline;

class TstVerdictView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void showsVerdict()
    {
        views::VerdictView view;
        view.resize(1200, 800);
        auto ev = std::make_shared<core::EvidenceSet>(
            importers::loadBundle({ tests::sourcePath("resources/samples/bundle-48213") }));
        auto verdict = std::make_shared<core::Verdict>(core::analyze(*ev, *tests::bundledCatalog()));
        views::AnalysisResult result;
        result.evidence = ev;
        result.verdict = verdict;
        view.setResult(result);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const auto labels = view.findChildren<QLabel*>();
        QString text;
        for (auto* l : labels)
            text += l->text();
        QVERIFY(text.contains(QLatin1String("infrastructure_failure")));
        QVERIFY(text.contains(QLatin1String("node-02")));
        QVERIFY(view.findChild<QTableView*>()->model()->rowCount() > 5);
        QVERIFY(view.findChild<QPlainTextEdit*>()->toPlainText().contains(QLatin1String("Xid 149")));
        const QPixmap shot = view.grab();
        QVERIFY(!shot.isNull());
        shot.save(QStringLiteral("verdict_view.png"));
        view.clear(QStringLiteral("cleared"));
        QCOMPARE(view.findChild<QTableView*>()->model()->rowCount(), 0);
    }
};

QTEST_MAIN(TstVerdictView)
#include "tst_verdict_view.moc"
