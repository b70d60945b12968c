// SPDX-License-Identifier: Apache-2.0
// The verdict panel renders the flagship sample; the grab is kept as an artefact for a human to look at.
#include "core/analysis/analyzer.h"
#include "importers/bundle_loader.h"
#include "tests/common/analysis_fixture.h"
#include "views/help/help_dialogs.h"
#include "views/widgets/verdict_view.h"

#include <QLabel>
#include <QMenu>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>

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
        // The text report is one click away, not in the way of the trail.
        QVERIFY(view.findChild<QPlainTextEdit*>()->isHidden());
        QVERIFY(view.reportText().contains(QLatin1String("Xid 149")));
        view.findChild<QToolButton*>(QStringLiteral("textReport"))->click();
        auto* dialog = view.findChild<views::TextDialog*>(QStringLiteral("textReportDialog"));
        QVERIFY(dialog);
        QVERIFY(dialog->browser()->toPlainText().contains(QLatin1String("Xid 149")));
        const QPixmap shot = view.grab();
        QVERIFY(!shot.isNull());
        shot.save(QStringLiteral("verdict_view.png"));
        view.clear(QStringLiteral("cleared"));
        QCOMPARE(view.findChild<QTableView*>()->model()->rowCount(), 0);
    }

    void showsALeadingHypothesisAsNotConfirmed()
    {
        // One rank's stderr with NCCL IB error 12: the banner names the hypothesis, says it is not confirmed, and
        // the details say what would confirm it.
        views::VerdictView view;
        view.setResult(tests::analysedBundle("tests/data/partial/ib-one-rank-stderr"));
        QString text;
        for (auto* l : view.findChildren<QLabel*>())
            text += l->text();
        QVERIFY2(
            text.contains(QLatin1String("leading hypothesis:</b> infrastructure/network-fabric")), qPrintable(text));
        QVERIFY(text.contains(QLatin1String("not confirmed")));
        QVERIFY(text.contains(QLatin1String("Would confirm it:</b> the kernel log of node-02")));
        QVERIFY(text.contains(QLatin1String("Rivals:</b> workload/application")));
        // A rival says what it means, not only its domain.
        QVERIFY2(
            text.contains(QRegularExpression(QStringLiteral("Rivals:</b> workload/application \\d+% \\([^)<]+\\)"))),
            qPrintable(text));
    }

    void showsCoverageAndAlternatives()
    {
        const auto resultOf = tests::analysedBundle;
        views::VerdictView view;
        const auto full = resultOf("resources/samples/bundle-48213");
        view.setResult(full);
        auto* coverage = view.findChild<QLabel*>(QStringLiteral("coverage"));
        QVERIFY(coverage);
        QVERIFY2(coverage->text().contains(QStringLiteral("kernel 4/4 ✓")), qPrintable(coverage->text()));

        // Missing telemetry is visible at a glance, with the reason on hover.
        view.setResult(resultOf("resources/samples/inconclusive-no-infra"));
        QVERIFY2(coverage->text().contains(QStringLiteral("kernel 2/4 ⚠")), qPrintable(coverage->text()));
        QVERIFY2(
            coverage->toolTip().contains(QLatin1String("kernel node-03: missing")), qPrintable(coverage->toolTip()));

        // The alternatives, each with why it lost; picking one selects its event.
        view.setResult(full);
        auto* alternatives = view.findChild<QToolButton*>(QStringLiteral("alternatives"));
        QVERIFY(alternatives);
        const auto& alts = full.verdict->alternatives;
        if (alts.empty()) {
            QVERIFY(alternatives->isHidden());
            return;
        }
        QVERIFY(!alternatives->isHidden());
        const auto actions = alternatives->menu()->actions();
        QCOMPARE(actions.size(), static_cast<qsizetype>(alts.size()));
        QVERIFY2(actions.front()->text().contains(QString::fromStdString(alts.front().reason)),
            qPrintable(actions.front()->text()));
        QSignalSpy selected(&view, &views::VerdictView::eventSelected);
        actions.front()->trigger();
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.front().front().toInt(), static_cast<int>(alts.front().event));
    }
};

QTEST_MAIN(TstVerdictView)
#include "tst_verdict_view.moc"
