// SPDX-License-Identifier: Apache-2.0
// First contact: with nothing open the window shows the start page (sample, Open…, recent cases, how to collect);
// the sample opens to its verdict; opened cases become recent; Help ▸ About names the version, the catalog's version
// and hash and the bundled libraries' licences; the how-to shows the collection commands.
#include "app/gui/main_window.h"
#include "core/version.h"
#include "tests/common/gui_helpers.h"
#include "tests/common/test_helpers.h"
#include "views/charts/metric_chart_view.h"
#include "views/evidence/evidence_viewer.h"
#include "views/help/help_dialogs.h"
#include "views/models/rules_model.h"
#include "views/models/search_results_model.h"
#include "views/models/symptoms_model.h"
#include "views/rules/rules_pane.h"
#include "views/search/search_pane.h"
#include "views/start/start_page.h"
#include "views/state/workbench_selection.h"
#include "views/timeline/timeline_view.h"
#include "views/widgets/verdict_view.h"

#include <QCommandLinkButton>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>
#include <QUrl>

#include <cstdlib>

using namespace faultline;

namespace {

using tests::rulesDir;
using tests::sampleDir;
using tests::screenshot;

/// Writes a picture of `w` under screenshots/ in the test's working directory (the build tree), for a person to
/// look at; the tests do not compare pixels.
QStringList buttonTitles(QWidget* page)
{
    QStringList titles;
    for (auto* b : page->findChildren<QCommandLinkButton*>())
        titles << b->text();
    return titles;
}

} // namespace

class TstMainWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationDomain(QStringLiteral("faultline.dev"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_main_window"));
    }

    void init() { QSettings().clear(); }

    void startsOnTheStartPage()
    {
        app::MainWindow window(rulesDir(), sampleDir());
        auto* stack = window.findChild<QStackedWidget*>();
        QVERIFY(stack);
        QCOMPARE(stack->currentWidget(), static_cast<QWidget*>(window.startPage()));
        const QStringList titles = buttonTitles(window.startPage());
        for (const char* want :
            { "Open the sample incident", "Open a bundle…", "Open a case…", "How to collect a bundle" })
            QVERIFY2(titles.contains(QString::fromUtf8(want)),
                qPrintable(QStringLiteral("no '%1' on the start page; it has: %2")
                               .arg(QString::fromUtf8(want), titles.join(QStringLiteral(", ")))));
        auto* sample = window.startPage()->findChild<QCommandLinkButton*>(QStringLiteral("openSample"));
        QVERIFY(sample->isEnabled());
        screenshot(&window, QStringLiteral("start-page.png"));
    }

    void sampleIsDisabledWhenNotInstalled()
    {
        app::MainWindow window(rulesDir(), QString());
        auto* sample = window.startPage()->findChild<QCommandLinkButton*>(QStringLiteral("openSample"));
        QVERIFY(!sample->isEnabled());
    }

    void theSampleOpensToItsVerdict()
    {
        app::MainWindow window(rulesDir(), sampleDir());
        QSignalSpy shown(&window, &app::MainWindow::resultShown);
        window.startPage()->findChild<QCommandLinkButton*>(QStringLiteral("openSample"))->click();
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        QVERIFY(window.findChild<QStackedWidget*>()->currentWidget() != window.startPage());
        QVERIFY2(window.windowTitle().startsWith(QLatin1String("bundle-48213")), qPrintable(window.windowTitle()));
        // The evidence pane opens on the cause's raw line, highlighted.
        auto* viewer = window.evidencePane()->viewer();
        QCOMPARE(viewer->text()->path(viewer->file()), std::string("nodes/node-02/dmesg.txt"));
        QCOMPARE(viewer->highlightedLine(), std::uint64_t(70));
        QCOMPARE(window.evidencePane()->position(), QStringLiteral("line 70 of 75"));
    }

    void aTrailRowShowsItsEvidenceLine()
    {
        app::MainWindow window(rulesDir(), sampleDir());
        QSignalSpy shown(&window, &app::MainWindow::resultShown);
        window.openBundle(sampleDir());
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        auto* trail = window.verdictView()->trail();
        auto* viewer = window.evidencePane()->viewer();
        // Walk the trail: each current row shows the line of its event's first provenance.
        int moved = 0;
        for (int row = 0; row < trail->model()->rowCount(); ++row) {
            trail->setCurrentIndex(trail->model()->index(row, 0));
            const std::string path = viewer->text()->path(viewer->file());
            const auto line = viewer->highlightedLine();
            QVERIFY2(line > 0, qPrintable(QStringLiteral("row %1 highlights no line").arg(row)));
            if (path != "nodes/node-02/dmesg.txt" || line != 70)
                ++moved;
        }
        QVERIFY2(moved > 0, "no trail row moved the evidence pane off the cause's line");
        // The timeline follows the trail ...
        const int current = trail->currentIndex().data(Qt::UserRole).toInt();
        QCOMPARE(window.timeline()->selectedEvent(), current);
        // ... and a mark clicked on the timeline moves the trail and the evidence: click the cause's mark.
        window.resize(1280, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const auto& result = *window.timeline();
        const int causeIndex = static_cast<int>(trail->model()->index(1, 0).data(Qt::UserRole).toInt());
        trail->setCurrentIndex(trail->model()->index(2, 0)); // a companion, beside the cause
        QVERIFY(window.timeline()->selectedEvent() != causeIndex);
        const auto at = result.markPosition(causeIndex);
        QVERIFY2(
            at && window.timeline()->viewport()->rect().contains(at->toPoint()), "the cause's mark is not on screen");
        QTest::mouseClick(window.timeline()->viewport(), Qt::LeftButton, {}, at->toPoint());
        QCOMPARE(window.timeline()->selectedEvent(), causeIndex);
        QCOMPARE(trail->currentIndex().data(Qt::UserRole).toInt(), causeIndex);
        QCOMPARE(viewer->highlightedLine(), std::uint64_t(70));
        // A symptom row selects its first event everywhere.
        auto* symptoms = window.symptomsTable();
        QVERIFY(symptoms->model()->rowCount() > 0);
        const QModelIndex last = symptoms->model()->index(symptoms->model()->rowCount() - 1, 0);
        symptoms->setCurrentIndex(last);
        const int first = last.data(views::SymptomsModel::FirstEventRole).toInt();
        QCOMPARE(window.selection()->event(), first);
        QCOMPARE(window.timeline()->selectedEvent(), first);
        QCOMPARE(trail->currentIndex().data(Qt::UserRole).toInt(), first);
        QVERIFY(viewer->highlightedLine() > 0);
        // ... and selecting the cause again leaves no symptom row current.
        window.selectEvent(causeIndex);
        QVERIFY(!symptoms->selectionModel()->hasSelection());
        // The precursor came from a metric condition: selecting it brings its series up, cursor on its time.
        int precursorRow = -1;
        for (int row = 0; row < trail->model()->rowCount(); ++row)
            if (trail->model()->index(row, 3).data().toString().startsWith(QLatin1String("precursor")))
                precursorRow = row;
        QVERIFY(precursorRow >= 0);
        trail->setCurrentIndex(trail->model()->index(precursorRow, 0));
        const int precursor = trail->currentIndex().data(Qt::UserRole).toInt();
        QVERIFY(window.metrics()->parentWidget()->isVisible());
        QVERIFY2(!window.metrics()->highlightedSeries().empty(), "the precursor's series is not emphasised");
        QCOMPARE(window.metrics()->cursorTime(), window.timeline()->cursorTime());
        QCOMPARE(window.selection()->event(), precursor);
        screenshot(&window, QStringLiteral("workbench-bundle-48213-precursor.png"));
        window.selectEvent(causeIndex);
        screenshot(&window, QStringLiteral("workbench-bundle-48213.png"));
        // Squeezed (a laptop screen, the timeline given most of the height), the wrapped cause and action text is
        // never cut off: its area shows the whole text or scrolls.
        auto* details = window.findChild<QScrollArea*>(QStringLiteral("verdictDetails"));
        QVERIFY(details);
        auto* workbench = window.findChild<QSplitter*>(QStringLiteral("workbench"));
        QVERIFY(workbench);
        window.resize(1024, 640);
        workbench->setSizes({ 150, 10000 });
        QTest::qWait(50);
        const int needed = details->widget()->heightForWidth(details->viewport()->width());
        const bool whole = details->viewport()->height() >= needed;
        QVERIFY2(whole || details->verticalScrollBar()->isVisible(),
            qPrintable(QStringLiteral("the verdict text needs %1 px, its area shows %2 px and cannot scroll")
                           .arg(needed)
                           .arg(details->viewport()->height())));
        screenshot(&window, QStringLiteral("workbench-squeezed.png"));
    }

    void savedAndOpenedCasesBecomeRecent()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a.faultline"));
        const QString b = dir.filePath(QStringLiteral("b.faultline"));
        {
            app::MainWindow window(rulesDir(), sampleDir());
            QSignalSpy shown(&window, &app::MainWindow::resultShown);
            for (const QString& path : { a, b }) {
                window.openBundle(sampleDir());
                QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
                shown.clear();
                window.saveCase(path);
                QTRY_VERIFY_WITH_TIMEOUT(window.recentCases().contains(path), 30000);
            }
            QCOMPARE(window.recentCases(), QStringList({ b, a }));
            window.openCase(a);
            QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
            QCOMPARE(window.recentCases(), QStringList({ a, b }));
            // The status bar names the case, whether it reproduces, and the catalog with its hash.
            QString status;
            for (auto* l : window.statusBar()->findChildren<QLabel*>())
                status += l->text();
            QVERIFY2(status.contains(QStringLiteral("a.faultline · reproduces run 1")), qPrintable(status));
            QVERIFY2(status.contains(QString::fromStdString(tests::bundledCatalog()->contentHash().substr(0, 12))),
                qPrintable(status));
            // A case that cannot be opened is not remembered.
            shown.clear();
            window.openCase(dir.filePath(QStringLiteral("none.faultline")));
            QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
            QCOMPARE(window.recentCases(), QStringList({ a, b }));
        }
        QFile::remove(b);
        app::MainWindow reopened(rulesDir(), sampleDir());
        auto* list = reopened.startPage()->recentList();
        QCOMPARE(list->count(), 2);
        QCOMPARE(list->item(0)->data(Qt::UserRole).toString(), a);
        QVERIFY(list->item(0)->flags() & Qt::ItemIsEnabled);
        // A case that has gone is listed, greyed out and marked.
        QVERIFY2(list->item(1)->text().contains(QLatin1String("(missing)")), qPrintable(list->item(1)->text()));
        QVERIFY(!(list->item(1)->flags() & Qt::ItemIsEnabled));
    }

    void searchFindsAndStepsThroughHits()
    {
        app::MainWindow window(rulesDir(), sampleDir());
        QSignalSpy shown(&window, &app::MainWindow::resultShown);
        window.openBundle(sampleDir());
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        auto* pane = window.searchPane();
        pane->setPattern(QStringLiteral("NVRM: Xid"));
        QTest::keyClick(pane->searchBox(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(pane->model()->rowCount() > 0, 30000);
        const auto& hits = pane->model()->hits();
        // The timeline marks every timed hit on its node's lane.
        std::size_t timed = 0;
        for (const auto& h : hits)
            timed += h.timeNs != INT64_MIN && !h.node.empty() ? 1 : 0;
        QVERIFY2(timed > 0, "no Xid hit has a time and a node");
        QCOMPARE(window.timeline()->searchMarksShown(), timed);
        // F3 walks the hits, and each one shows its line in the evidence pane.
        auto* viewer = window.evidencePane()->viewer();
        for (std::size_t i = 0; i < std::min<std::size_t>(hits.size(), 3); ++i) {
            window.stepHit(1);
            QCOMPARE(viewer->text()->path(viewer->file()), hits[i].path);
            QCOMPARE(viewer->highlightedLine(), hits[i].line);
        }
        // Shift+F3 goes back.
        window.stepHit(-1);
        QCOMPARE(viewer->highlightedLine(), hits[std::min<std::size_t>(hits.size(), 3) - 2].line);
        // A pattern RE2 rejects says so in the pane.
        pane->setPattern(QStringLiteral("Xid ("));
        QTest::keyClick(pane->searchBox(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(pane->status().contains(QLatin1String("invalid")), 30000);
    }

    void theRulesPaneFollowsTheSelection()
    {
        app::MainWindow window(rulesDir(), sampleDir());
        QSignalSpy shown(&window, &app::MainWindow::resultShown);
        window.openBundle(sampleDir());
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        auto* rules = window.rulesPane();
        QVERIFY(rules->model()->rowCount() > 50);
        // The cause is selected on arrival: its rule is current in the rules pane.
        const int cause = window.timeline()->selectedEvent();
        QVERIFY2(cause >= 0, "no event is selected after the analysis");
        QCOMPARE(rules->currentRule().toStdString(),
            rules->model()->index(rules->model()->rowOfEvent(cause), 0).data().toString().toStdString());
        QVERIFY(!rules->currentRule().isEmpty());
        // Stepping through a rule's events from the pane selects them everywhere.
        const int busy = rules->model()->rowOfRule(QStringLiteral("pytorch.watchdog-exception"));
        QVERIFY(busy >= 0);
        rules->selectRule(QStringLiteral("pytorch.watchdog-exception"));
        QTest::keyClick(rules->view(), Qt::Key_Return);
        const auto events = rules->model()->index(busy, 0).data(views::RulesModel::EventsRole).value<QList<int>>();
        QVERIFY(!events.isEmpty());
        QCOMPARE(window.timeline()->selectedEvent(), events.front());
        QCOMPARE(rules->currentRule(), QStringLiteral("pytorch.watchdog-exception"));
    }

    void cancellingAnAnalysisLeavesACleanWindow()
    {
        app::MainWindow window(rulesDir(), sampleDir());
        QSignalSpy shown(&window, &app::MainWindow::resultShown);
        window.openBundle(sampleDir());
        auto* cancel = window.findChild<QPushButton*>(QStringLiteral("cancelAnalysis"));
        auto* progress = window.findChild<QProgressBar*>(QStringLiteral("analysisProgress"));
        QVERIFY(cancel && progress);
        QVERIFY(!cancel->isHidden() && !progress->isHidden());
        cancel->click();
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        QString status;
        for (auto* l : window.statusBar()->findChildren<QLabel*>())
            status += l->text();
        QVERIFY2(status.contains(QLatin1String("cancel"), Qt::CaseInsensitive),
            qPrintable(QStringLiteral("expected the status to say the analysis was cancelled, got: ") + status));
        QVERIFY(cancel->isHidden() && progress->isHidden());
        // Nothing of the cancelled run is shown or can be saved.
        QCOMPARE(window.timeline()->timelineGeometry().itemCount(), std::size_t(0));
        QCOMPARE(window.searchPane()->model()->rowCount(), 0);
        // And the window still works.
        window.openBundle(sampleDir());
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 2, 30000);
        QVERIFY(window.timeline()->timelineGeometry().itemCount() > 0);
    }

    void anArchiveOpensToItsVerdict()
    {
        QTemporaryDir dir;
        const QString archive = dir.filePath(QStringLiteral("bundle-48213.tar.zst"));
        const QString samples = QString::fromStdString(tests::sourcePath("resources/samples"));
        const QString command = QStringLiteral("tar --zstd -cf '%1' -C '%2' bundle-48213").arg(archive, samples);
        QCOMPARE(std::system(command.toLocal8Bit().constData()), 0);
        app::MainWindow window(rulesDir(), sampleDir());
        QSignalSpy shown(&window, &app::MainWindow::resultShown);
        window.openPaths({ archive });
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        auto* viewer = window.evidencePane()->viewer();
        QCOMPARE(viewer->highlightedLine(), std::uint64_t(70));
        QVERIFY2(viewer->text()->path(viewer->file()).find("dmesg.txt") != std::string::npos,
            viewer->text()->path(viewer->file()).c_str());
    }

    void theKubernetesSampleInEveryPane()
    {
        // The Kueue/Kubernetes rendering of the flagship: the same cause, through pods, events and container logs.
        app::MainWindow window(rulesDir(), sampleDir());
        window.resize(1280, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy shown(&window, &app::MainWindow::resultShown);
        window.openBundle(QString::fromStdString(tests::sourcePath("resources/samples/bundle-48213-k8s")));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        QVERIFY(window.timeline()->selectedEvent() >= 0);
        QVERIFY(window.evidencePane()->viewer()->highlightedLine() > 0);
        screenshot(&window, QStringLiteral("workbench-bundle-48213-k8s.png"));
        screenshot(window.timeline(), QStringLiteral("timeline-bundle-48213-k8s.png"));
        screenshot(window.symptomsTable(), QStringLiteral("symptoms-bundle-48213-k8s.png"));
        screenshot(window.evidencePane(), QStringLiteral("evidence-bundle-48213-k8s.png"));
    }

    void aDroppedBundleIsAnalysed()
    {
        app::MainWindow window(rulesDir(), sampleDir());
        QSignalSpy shown(&window, &app::MainWindow::resultShown);
        auto* mime = new QMimeData;
        mime->setUrls({ QUrl::fromLocalFile(sampleDir()) });
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &drop);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        QVERIFY2(window.windowTitle().startsWith(QLatin1String("bundle-48213")), qPrintable(window.windowTitle()));
        delete mime;
        // A drop of something that is no local file is refused.
        QMimeData text;
        text.setText(QStringLiteral("hello"));
        QDragEnterEvent refused(QPoint(10, 10), Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
        refused.setAccepted(false);
        QCoreApplication::sendEvent(&window, &refused);
        QVERIFY(!refused.isAccepted());
    }

    void theLayoutPersists()
    {
        {
            app::MainWindow window(rulesDir(), sampleDir());
            auto* dock = window.findChild<QDockWidget*>(QStringLiteral("evidenceDock"));
            QVERIFY(dock);
            window.addDockWidget(Qt::RightDockWidgetArea, dock);
            dock->setVisible(true);
            window.close();
        }
        app::MainWindow reopened(rulesDir(), sampleDir());
        auto* dock = reopened.findChild<QDockWidget*>(QStringLiteral("evidenceDock"));
        QCOMPARE(reopened.dockWidgetArea(dock), Qt::RightDockWidgetArea);
    }

    void shortcutsAreListedFromTheActions()
    {
        app::MainWindow window(rulesDir(), sampleDir());
        QStringList lines;
        for (const auto& [keys, what] : window.shortcuts())
            lines << keys + QStringLiteral("  ") + what;
        const QString all = lines.join(QLatin1Char('\n'));
        for (const QString& want : QStringList { QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText)
                     + QStringLiteral("  Open Bundle Directory…"),
                 QStringLiteral("Timeline: pan"), QStringLiteral("K  Align Node Clocks by Estimated Skew") })
            QVERIFY2(all.contains(want), qPrintable(QStringLiteral("no '%1' in:\n%2").arg(want, all)));
        window.showShortcuts();
        QVERIFY(window.findChild<views::TextDialog*>(QStringLiteral("shortcutsDialog")));
    }

    void aboutNamesVersionCatalogAndLicences()
    {
        app::MainWindow window(rulesDir(), sampleDir());
        // Opened at once, while the catalog still loads off the UI thread: its part follows when the load is done.
        window.showAbout();
        auto* dialog = window.findChild<views::TextDialog*>(QStringLiteral("aboutDialog"));
        QVERIFY(dialog);
        const auto catalog = tests::bundledCatalog();
        QTRY_VERIFY2_WITH_TIMEOUT(
            dialog->browser()->toPlainText().contains(QString::fromStdString(catalog->contentHash())),
            qPrintable(dialog->browser()->toPlainText().left(600)), 30000);
        screenshot(dialog, QStringLiteral("about.png"));
        const QString text = dialog->browser()->toPlainText();
        for (const QString& want : { QString::fromLatin1(core::kVersion), QString::fromStdString(catalog->version()),
                 QString::fromStdString(catalog->contentHash()), QStringLiteral("yaml-cpp"), QStringLiteral("RE2"),
                 QStringLiteral("SQLite"), QStringLiteral("Qt 6"), QStringLiteral("LGPL-3") })
            QVERIFY2(text.contains(want),
                qPrintable(QStringLiteral("About does not say '%1'; it says:\n%2").arg(want, text.left(600))));
    }

    void aboutSaysWhenTheCatalogIsBroken()
    {
        QTemporaryDir dir;
        tests::writeFiles(dir, { { "catalog.yaml", "name: [unclosed\n" } });
        app::MainWindow window(dir.path(), sampleDir());
        window.showAbout();
        auto* browser = window.findChild<views::TextDialog*>(QStringLiteral("aboutDialog"))->browser();
        QTRY_VERIFY2_WITH_TIMEOUT(browser->toPlainText().contains(QLatin1String("could not be loaded")),
            qPrintable(browser->toPlainText().left(600)), 30000);
    }

    void howToCollectShowsTheCommands()
    {
        app::MainWindow window(rulesDir(), sampleDir());
        window.startPage()->findChild<QCommandLinkButton*>(QStringLiteral("howToCollect"))->click();
        auto* dialog = window.findChild<views::TextDialog*>(QStringLiteral("howToCollectDialog"));
        QVERIFY(dialog);
        screenshot(dialog, QStringLiteral("how-to-collect.png"));
        const QString text = dialog->browser()->toPlainText();
        for (const char* want : { "faultline-collect", "sacct", "journalctl", "faultline.yaml" })
            QVERIFY2(text.contains(QLatin1String(want)),
                qPrintable(
                    QStringLiteral("the how-to does not mention '%1':\n%2").arg(QLatin1String(want), text.left(600))));
    }
};

QTEST_MAIN(TstMainWindow)
#include "tst_main_window.moc"
