// SPDX-License-Identifier: Apache-2.0
// Annotating in the workbench, offscreen, over the flagship sample saved as a case: M on the timeline's selected
// event bookmarks it (a pin above its mark, stored in the case) and M again removes it; M on a lane's header gives
// the lane a badge, C on a measured range a shaded band; C on a line of the evidence viewer opens the comment editor
// and gives the line a gutter ribbon whose tooltip names the text, the author and the time. The annotations pane
// lists them, filters them, selects each target in every view, edits one on a double click and removes one after a
// confirmation. Without a saved case, M says so and offers to save. And annotations survive a re-run with a pack
// that disables a rule: the cause's bookmark is on the cause again at its new index, the disabled rule's event's
// bookmark says it is no longer matched, before and after the run is added to the case. Screenshots go to
// screenshots/annotations-*.png in the build tree.
#include "app/gui/case_controller.h"
#include "app/gui/main_window.h"
#include "app/usecases/case_history.h"
#include "tests/common/gui_helpers.h"
#include "tests/common/sample_window.h"
#include "tests/common/test_helpers.h"
#include "views/annotations/annotations_pane.h"
#include "views/annotations/comment_editor.h"
#include "views/evidence/evidence_viewer.h"
#include "views/models/annotations_model.h"
#include "views/models/symptoms_model.h"
#include "views/state/workbench_selection.h"
#include "views/timeline/timeline_view.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>

#include <filesystem>
#include <fstream>
#include <memory>

using namespace faultline;
using views::TimelineView;

namespace {

using tests::rulesDir;
using tests::sampleDir;
using tests::screenshot;

/// The stored annotations of `path`, read the way the CLI reads them.
std::vector<core::Annotation> stored(const QString& path)
{
    const auto h = usecases::caseHistory(path.toStdString());
    return h.ok() ? h.value->annotations : std::vector<core::Annotation> {};
}

QString listed(const std::vector<core::Annotation>& list)
{
    QStringList out;
    for (const auto& a : list)
        out << QString::fromStdString(a.kind + " on " + core::describeTarget(a) + ": " + a.text);
    return out.join(QLatin1Char('\n'));
}

/// The lane of node `node` among the timeline's lanes (-1: none).
int laneOf(const TimelineView& view, const std::string& node)
{
    const auto& lanes = view.timelineGeometry().lanes();
    for (std::size_t l = 0; l < lanes.size(); ++l)
        if (lanes[l].kind == views::LaneKind::Node && lanes[l].label == node)
            return static_cast<int>(l);
    return -1;
}

QAction* findAction(QMainWindow& window, const QString& text)
{
    for (QAction* menu : window.menuBar()->actions())
        if (menu->menu())
            for (QAction* a : menu->menu()->actions())
                if (QString(a->text()).remove(QLatin1Char('&')) == text)
                    return a;
    return nullptr;
}

} // namespace

class TstAnnotationsGui : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    /// A window showing the flagship sample saved as the case `name`, on screen and active.
    std::unique_ptr<app::MainWindow> savedCase(const QString& name, QString& path)
    {
        path = m_dir.filePath(name);
        return tests::sampleSavedAsCase(path);
    }

    /// Waits until the case holds `n` annotations and the panes show them.
    static bool waitForAnnotations(app::MainWindow& window, std::size_t n)
    {
        return QTest::qWaitFor(
            [&] {
                const auto& h = window.caseController()->history();
                return !window.caseController()->isBusy() && h && h->annotations.size() == n
                    && window.annotationsPane()->model()->rowCount() == static_cast<int>(n);
            },
            30000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationDomain(QStringLiteral("faultline.dev"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_annotations_gui"));
    }

    void init()
    {
        QSettings().clear();
        QSettings().setValue(QStringLiteral("annotations/author"), QStringLiteral("ana"));
    }

    void annotatingNeedsASavedCase()
    {
        app::MainWindow window(rulesDir(), sampleDir());
        QSignalSpy shown(&window, &app::MainWindow::resultShown);
        window.openBundle(sampleDir());
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 60000);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        window.timeline()->setFocus();
        QTest::keyClick(window.timeline()->viewport(), Qt::Key_M);
        QMessageBox* box = nullptr;
        QTRY_VERIFY((box = window.findChild<QMessageBox*>(QStringLiteral("annotationNeedsCase"))));
        QVERIFY2(box->text().contains(QLatin1String("not saved as a case")), qPrintable(box->text()));
        QStringList buttons;
        for (auto* b : box->buttons())
            buttons << b->text();
        QVERIFY2(buttons.contains(QStringLiteral("Save as Case…")), qPrintable(buttons.join(u',')));
        box->reject();
        QVERIFY(!window.caseController()->isBusy());
    }

    void annotateFromTheTimeline()
    {
        QString path;
        auto window = savedCase(QStringLiteral("timeline.faultline"), path);
        QVERIFY(window);
        auto* timeline = window->timeline();
        const auto& result = window->result();
        const int cause = static_cast<int>(result.verdict->cause);
        // Click the cause's mark, then M: a bookmark on the cause, stored by its rule and record. (Selected again
        // now that the window has its size, so that its row is scrolled into view.)
        timeline->selectEvent(cause);
        const auto at = timeline->markPosition(cause);
        QVERIFY2(at && timeline->viewport()->rect().contains(at->toPoint()), "the cause's mark is not on screen");
        QTest::mouseClick(timeline->viewport(), Qt::LeftButton, {}, at->toPoint());
        QCOMPARE(timeline->focus(), TimelineView::Focus::Event);
        QTest::keyClick(timeline->viewport(), Qt::Key_M);
        QVERIFY2(waitForAnnotations(*window, 1), qPrintable(listed(stored(path))));
        auto list = stored(path);
        QCOMPARE(list.size(), std::size_t(1));
        const auto& e = result.verdict->events[static_cast<std::size_t>(cause)];
        QCOMPARE(list[0].kind, std::string("bookmark"));
        QCOMPARE(list[0].target, std::string("event"));
        QCOMPARE(list[0].ruleId, e.ruleId);
        QCOMPARE(list[0].path, std::string("nodes/node-02/dmesg.txt"));
        QCOMPARE(list[0].line, std::uint64_t(70));
        QCOMPARE(list[0].author, std::string("ana"));
        // The timeline draws a pin above the cause's mark, in the annotations' colour.
        const auto& pins = timeline->annotations();
        QCOMPARE(pins.size(), std::size_t(1));
        QCOMPARE(pins[0].eventIndex, cause);
        const auto head = timeline->annotationPosition(list[0].id);
        QVERIFY2(head,
            qPrintable(QStringLiteral("no pin drawn for #%1 (pin #%2 on event %3; range %4..%5, event at %6)")
                           .arg(list[0].id)
                           .arg(pins[0].id)
                           .arg(pins[0].eventIndex)
                           .arg(timeline->rangeFrom())
                           .arg(timeline->rangeTo())
                           .arg(timeline->shownTime(cause))));
        QVERIFY2(head->x() < at->x() && at->x() - head->x() < 16 && head->y() < at->y(),
            qPrintable(
                QStringLiteral("pin at %1,%2, mark at %3,%4").arg(head->x()).arg(head->y()).arg(at->x()).arg(at->y())));
        const QImage img = timeline->viewport()->grab().toImage();
        const QColor pixel = img.pixelColor(static_cast<int>(head->x()), static_cast<int>(head->y()) + 4);
        QVERIFY2(
            std::abs(pixel.red() - 0) < 40 && std::abs(pixel.green() - 128) < 40 && std::abs(pixel.blue() - 110) < 40,
            qPrintable(QStringLiteral("the pin's pixel is %1").arg(pixel.name())));
        // Its tooltip says what it is on, by whom and when.
        {
            const QPoint tip = head->toPoint() + QPoint(0, 4);
            QHelpEvent help(QEvent::ToolTip, tip, timeline->viewport()->mapToGlobal(tip));
            QApplication::sendEvent(timeline->viewport(), &help);
            QTRY_VERIFY(QToolTip::isVisible());
            const QString text = QToolTip::text();
            for (const QString& want : { QStringLiteral("bookmark"), QString::fromStdString(e.ruleId),
                     QStringLiteral("nodes/node-02/dmesg.txt:70"), QStringLiteral("ana"),
                     views::AnnotationsModel::formatCreated(list[0].createdAt) })
                QVERIFY2(text.contains(want), qPrintable(QStringLiteral("no '%1' in %2").arg(want, text)));
            QToolTip::hideText();
        }
        // M again removes it (the case keeps it in its history), and once more puts it back.
        QTest::keyClick(timeline->viewport(), Qt::Key_M);
        QVERIFY(waitForAnnotations(*window, 0));
        QVERIFY(timeline->annotations().empty());
        QTest::keyClick(timeline->viewport(), Qt::Key_M);
        QVERIFY(waitForAnnotations(*window, 1));

        // A lane: click node-02's header (its name, not its ▸), then M: a badge on the header.
        timeline->verticalScrollBar()->setValue(0);
        const int lane = laneOf(*timeline, "node-02");
        QVERIFY(lane >= 0);
        const auto row = timeline->timelineGeometry().rowOfLane(static_cast<std::uint32_t>(lane));
        QVERIFY(row >= 0);
        const bool expanded = timeline->timelineGeometry().isExpanded(static_cast<std::uint32_t>(lane));
        QTest::mouseClick(timeline->viewport(), Qt::LeftButton, {},
            QPoint(60, static_cast<int>(timeline->timelineGeometry().rowCenterY(static_cast<std::size_t>(row)))));
        QCOMPARE(timeline->focus(), TimelineView::Focus::Lane);
        QCOMPARE(timeline->selectedLaneNode(), std::string("node-02"));
        QCOMPARE(timeline->timelineGeometry().isExpanded(static_cast<std::uint32_t>(lane)), expanded);
        QTest::keyClick(timeline->viewport(), Qt::Key_M);
        QVERIFY(waitForAnnotations(*window, 2));
        list = stored(path);
        QCOMPARE(list[1].target, std::string("lane"));
        QCOMPARE(list[1].node, std::string("node-02"));
        QVERIFY(timeline->annotationPosition(list[1].id));

        // A range: shift-click twice on node-01's row, then C: a comment with tags, drawn as a band.
        const int lane1 = laneOf(*timeline, "node-01");
        const auto row1 = timeline->timelineGeometry().rowOfLane(static_cast<std::uint32_t>(lane1));
        QVERIFY(row1 >= 0);
        const auto& g = timeline->timelineGeometry();
        const int y1 = static_cast<int>(g.rowCenterY(static_cast<std::size_t>(row1)));
        const int xa = static_cast<int>(g.plotLeft() + g.plotWidth() * 0.55);
        const int xb = static_cast<int>(g.plotLeft() + g.plotWidth() * 0.7);
        QTest::mouseClick(timeline->viewport(), Qt::LeftButton, Qt::ShiftModifier, QPoint(xa, y1));
        QTest::mouseClick(timeline->viewport(), Qt::LeftButton, Qt::ShiftModifier, QPoint(xb, y1));
        QCOMPARE(timeline->focus(), TimelineView::Focus::Range);
        const auto range = timeline->measuredRange();
        QVERIFY(range);
        QCOMPARE(timeline->measuredNode(), std::string("node-01"));
        QTest::keyClick(timeline->viewport(), Qt::Key_C);
        views::CommentEditor* editor = nullptr;
        QTRY_VERIFY((editor = window->findChild<views::CommentEditor*>(QStringLiteral("commentEditor"))));
        editor->textEdit()->setPlainText(QStringLiteral("IB errors on node-01 while rank 5 waited"));
        editor->tagsEdit()->setText(QStringLiteral("ib, to-review"));
        editor->accept();
        QVERIFY(waitForAnnotations(*window, 3));
        list = stored(path);
        QCOMPARE(list[2].target, std::string("range"));
        QCOMPARE(list[2].fromNs, static_cast<std::int64_t>(range->first));
        QCOMPARE(list[2].toNs, static_cast<std::int64_t>(range->second));
        QCOMPARE(list[2].node, std::string("node-01"));
        QCOMPARE(list[2].tags, (std::vector<std::string> { "ib", "to-review" }));
        QVERIFY(timeline->annotationPosition(list[2].id));
        screenshot(timeline, QStringLiteral("annotations-timeline.png"));
    }

    void commentFromTheEvidenceViewer()
    {
        QString path;
        auto window = savedCase(QStringLiteral("evidence.faultline"), path);
        QVERIFY(window);
        // A taller evidence pane, so that the lines around the cause are on screen.
        window->resizeDocks({ window->findChild<QDockWidget*>(QStringLiteral("evidenceDock")) }, { 320 }, Qt::Vertical);
        window->selectEvent(static_cast<int>(window->result().verdict->cause));
        auto* viewer = window->evidencePane()->viewer();
        QTRY_VERIFY(viewer->isVisible());
        QCOMPARE(viewer->highlightedLine(), std::uint64_t(70));
        // Click line 71 (the Xid 45 after the cause), then C.
        const auto at = viewer->linePosition(71);
        QVERIFY2(at, "line 71 is not on screen");
        QTest::mouseClick(viewer->viewport(), Qt::LeftButton, {}, QPoint(at->x() + 120, at->y()));
        QCOMPARE(viewer->highlightedLine(), std::uint64_t(71));
        QTest::keyClick(viewer->viewport(), Qt::Key_C);
        views::CommentEditor* editor = nullptr;
        QTRY_VERIFY((editor = window->findChild<views::CommentEditor*>(QStringLiteral("commentEditor"))));
        QVERIFY2(editor->findChildren<QLabel*>().size() > 0, "the editor names no target");
        editor->textEdit()->setPlainText(QStringLiteral("Xid 45: the driver killed the process after the link went"));
        editor->tagsEdit()->setText(QStringLiteral("xid, , xid, driver"));
        editor->accept();
        QVERIFY(waitForAnnotations(*window, 1));
        const auto list = stored(path);
        QCOMPARE(list[0].kind, std::string("note"));
        QCOMPARE(list[0].target, std::string("line"));
        QCOMPARE(list[0].path, std::string("nodes/node-02/dmesg.txt"));
        QCOMPARE(list[0].line, std::uint64_t(71));
        QCOMPARE(list[0].tags, (std::vector<std::string> { "xid", "driver" }));
        // The gutter marks the line; its tooltip says what, by whom and when.
        const auto marks = viewer->marksOn(71);
        QCOMPARE(marks.size(), std::size_t(1));
        for (const char* want : { "Xid 45: the driver killed", "xid, driver", "ana" })
            QVERIFY2(marks[0]->tooltip.contains(QLatin1String(want)), qPrintable(marks[0]->tooltip));
        QVERIFY2(marks[0]->tooltip.contains(views::AnnotationsModel::formatCreated(list[0].createdAt)),
            qPrintable(marks[0]->tooltip));
        QVERIFY(viewer->marksOn(70).empty());
        // M on another line bookmarks it: a filled ribbon. (The window is active again once the editor has gone.)
        window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(window.get()));
        const auto at73 = viewer->linePosition(73);
        QVERIFY2(at73, "line 73 is not on screen");
        QTest::mouseClick(viewer->viewport(), Qt::LeftButton, {}, QPoint(at73->x() + 120, at73->y()));
        QTest::keyClick(viewer->viewport(), Qt::Key_M);
        QVERIFY(waitForAnnotations(*window, 2));
        QCOMPARE(viewer->marksOn(73).size(), std::size_t(1));
        QVERIFY(viewer->marksOn(73).front()->bookmark);
        QCOMPARE(stored(path)[1].line, std::uint64_t(73));
        // A note's ribbon is hollow: its outline in the annotations' colour, in the gutter left of the number.
        const QImage img = viewer->viewport()->grab().toImage();
        img.save(QStringLiteral("screenshots/annotations-evidence-viewport.png"));
        const auto at71 = viewer->linePosition(71);
        QVERIFY(at71);
        int teal = 0;
        for (int x = 2; x < 14; ++x)
            for (int y = at71->y() - 7; y <= at71->y() + 7; ++y) {
                const QColor c = img.pixelColor(x, y);
                teal += c.red() < 70 && std::abs(c.green() - 128) < 40 && std::abs(c.blue() - 110) < 40 ? 1 : 0;
            }
        QVERIFY2(teal >= 10, qPrintable(QStringLiteral("%1 pixels of the ribbon's colour beside line 71").arg(teal)));
        screenshot(window->evidencePane(), QStringLiteral("annotations-evidence.png"));
    }

    void bookmarkASymptom()
    {
        QString path;
        auto window = savedCase(QStringLiteral("symptom.faultline"), path);
        QVERIFY(window);
        // A row of the symptoms table, then M: the symptom (its type) is bookmarked, a pin on its first event.
        auto* symptoms = window->symptomsTable();
        QVERIFY(symptoms->model()->rowCount() > 1);
        const QModelIndex second = symptoms->model()->index(1, 0);
        QTest::mouseClick(symptoms->viewport(), Qt::LeftButton, {}, symptoms->visualRect(second).center());
        QCOMPARE(symptoms->currentIndex().row(), 1);
        const int first = second.data(views::SymptomsModel::FirstEventRole).toInt();
        QTest::keyClick(symptoms->viewport(), Qt::Key_M);
        QVERIFY(waitForAnnotations(*window, 1));
        const auto list = stored(path);
        QCOMPARE(list[0].target, std::string("symptom"));
        QCOMPARE(list[0].eventType, window->result().verdict->events[static_cast<std::size_t>(first)].type);
        const auto& pins = window->timeline()->annotations();
        QCOMPARE(pins.size(), std::size_t(1));
        QCOMPARE(pins[0].eventIndex, first);
        // Selecting it in the pane selects its first event everywhere.
        window->selectEvent(static_cast<int>(window->result().verdict->cause));
        window->annotationsPane()->parentWidget()->raise();
        auto* table = window->annotationsPane()->view();
        QTest::mouseClick(
            table->viewport(), Qt::LeftButton, {}, table->visualRect(table->model()->index(0, 0)).center());
        QCOMPARE(window->selection()->event(), first);
        QCOMPARE(window->timeline()->selectedEvent(), first);
    }

    void thePaneListsSelectsEditsAndRemoves()
    {
        QString path;
        auto window = savedCase(QStringLiteral("pane.faultline"), path);
        QVERIFY(window);
        const int cause = static_cast<int>(window->result().verdict->cause);
        // Four annotations written through the use case, as another workbench or the CLI would.
        using K = usecases::AnnotationKind;
        using T = usecases::AnnotationTarget;
        const auto& ev = window->result().verdict->events[static_cast<std::size_t>(cause)];
        std::vector<usecases::AnnotateRequest> asks(4);
        asks[0].kind = K::Bookmark;
        asks[0].text = "the cause";
        asks[0].target = T::event(1, cause);
        asks[1].kind = K::Note;
        asks[1].text = "Xid 45 followed";
        asks[1].target = T::lineOf("nodes/node-02/dmesg.txt", 71);
        asks[2].kind = K::Tag;
        asks[2].text = "suspect";
        asks[2].target = T::lane("node-02");
        asks[3].kind = K::Note;
        asks[3].text = "the minute it fell apart";
        asks[3].target = T::range(ev.timeNs, ev.timeNs + 60'000'000'000, "node-02");
        for (auto& a : asks) {
            a.casePath = path.toStdString();
            QVERIFY(usecases::annotateCase(a).ok());
        }
        window->caseController()->refresh();
        QVERIFY(waitForAnnotations(*window, 4));
        auto* pane = window->annotationsPane();
        pane->parentWidget()->raise();
        auto* model = pane->model();
        // Filtering by text, and by kind.
        pane->filterBox()->setText(QStringLiteral("fell apart"));
        QCOMPARE(pane->shownRows(), 1);
        pane->filterBox()->clear();
        pane->kindFilter()->setCurrentIndex(pane->kindFilter()->findData(QStringLiteral("tag")));
        QCOMPARE(pane->shownRows(), 1);
        pane->kindFilter()->setCurrentIndex(0);
        QCOMPARE(pane->shownRows(), 4);
        const auto list = window->caseController()->history()->annotations;
        auto select = [&](std::size_t i) {
            auto* table = pane->view();
            for (int r = 0; r < table->model()->rowCount(); ++r)
                if (table->model()->index(r, 0).data(views::AnnotationsModel::IdRole).toLongLong() == list[i].id) {
                    table->setCurrentIndex(table->model()->index(r, 0));
                    return table->visualRect(table->model()->index(r, views::AnnotationsModel::KindColumn)).center();
                }
            return QPoint();
        };
        // Selecting a row selects its target in every view.
        window->selectEvent(static_cast<int>(window->result().verdict->events.size()) - 1);
        select(0);
        QCOMPARE(window->selection()->event(), cause);
        QCOMPARE(window->timeline()->selectedEvent(), cause);
        QCOMPARE(model->index(model->rowOf(list[0].id), views::AnnotationsModel::StatusColumn).data().toString(),
            QStringLiteral("matched (event %1)").arg(cause));
        select(1);
        QCOMPARE(window->evidencePane()->viewer()->highlightedLine(), std::uint64_t(71));
        select(2);
        QCOMPARE(window->timeline()->selectedLaneNode(), std::string("node-02"));
        select(3);
        const auto shownRange = window->timeline()->measuredRange();
        QVERIFY(shownRange);
        QCOMPARE(static_cast<std::int64_t>(shownRange->first), list[3].fromNs);
        QCOMPARE(static_cast<std::int64_t>(shownRange->second), list[3].toNs);
        QVERIFY(window->timeline()->rangeFrom() <= list[3].fromNs && window->timeline()->rangeTo() >= list[3].toNs);
        screenshot(window.get(), QStringLiteral("annotations-workbench.png"));
        // A double click edits: the editor opens with the text, and the edit replaces the note.
        const QPoint cell = select(1);
        // (A user's double click: a click, then the second press comes as a double click.)
        QTest::mouseClick(pane->view()->viewport(), Qt::LeftButton, {}, cell);
        QTest::mouseDClick(pane->view()->viewport(), Qt::LeftButton, {}, cell);
        views::CommentEditor* editor = nullptr;
        QTRY_VERIFY((editor = window->findChild<views::CommentEditor*>(QStringLiteral("commentEditor"))));
        QCOMPARE(editor->text(), QStringLiteral("Xid 45 followed"));
        editor->textEdit()->setPlainText(QStringLiteral("Xid 45 followed, 8 ms later"));
        editor->accept();
        QTRY_VERIFY_WITH_TIMEOUT(!window->caseController()->isBusy()
                && window->caseController()->history()->annotations.back().text == "Xid 45 followed, 8 ms later",
            30000);
        QVERIFY(waitForAnnotations(*window, 4));
        const auto edited = stored(path);
        QCOMPARE(edited.back().supersedes, list[1].id);
        QCOMPARE(edited.back().line, std::uint64_t(71));
        // Remove asks first; Cancel keeps it, Yes removes it.
        select(2);
        pane->findChild<QPushButton*>(QStringLiteral("removeAnnotation"))->click();
        QMessageBox* box = nullptr;
        QTRY_VERIFY((box = pane->findChild<QMessageBox*>(QStringLiteral("removeAnnotationConfirm"))));
        QVERIFY2(box->text().contains(QLatin1String("lane node-02")), qPrintable(box->text()));
        box->button(QMessageBox::Cancel)->click();
        QTest::qWait(50);
        QCOMPARE(stored(path).size(), std::size_t(4));
        select(2);
        pane->findChild<QPushButton*>(QStringLiteral("removeAnnotation"))->click();
        QTRY_VERIFY((box = pane->findChild<QMessageBox*>(QStringLiteral("removeAnnotationConfirm"))));
        box->button(QMessageBox::Yes)->click();
        QVERIFY(waitForAnnotations(*window, 3));
        QCOMPARE(stored(path).size(), std::size_t(3));
    }

    void shortcutsAreListed()
    {
        app::MainWindow window(rulesDir(), sampleDir());
        QStringList lines;
        for (const auto& [keys, what] : window.shortcuts())
            lines << keys + QStringLiteral("  ") + what;
        const QString all = lines.join(QLatin1Char('\n'));
        for (const char* want : { "M  Toggle Bookmark on the Selection", "C  Comment on the Selection…" })
            QVERIFY2(all.contains(QString::fromUtf8(want)),
                qPrintable(QStringLiteral("no '%1' in:\n%2").arg(QString::fromUtf8(want), all)));
        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("annotationsDock"));
        QVERIFY(dock);
        QVERIFY(findAction(window, QStringLiteral("Annotations")));
    }

    void annotationsSurviveARerun()
    {
        QString path;
        std::int64_t onCause = 0;
        std::int64_t onNetwork = 0;
        int causeBefore = -1;
        {
            auto window = savedCase(QStringLiteral("rerun.faultline"), path);
            QVERIFY(window);
            const auto& v = *window->result().verdict;
            causeBefore = static_cast<int>(v.cause);
            int network = -1;
            for (std::size_t i = 0; i < v.events.size() && network < 0; ++i)
                if (v.events[i].ruleId == "env.nccl-network")
                    network = static_cast<int>(i);
            QVERIFY2(network >= 0 && network < causeBefore, "no env.nccl-network event before the cause");
            auto* timeline = window->timeline();
            timeline->setFocus();
            QTest::keyClick(timeline->viewport(), Qt::Key_M); // the cause is selected on arrival
            QVERIFY(waitForAnnotations(*window, 1));
            window->selectEvent(network);
            QTest::keyClick(timeline->viewport(), Qt::Key_M);
            QVERIFY(waitForAnnotations(*window, 2));
            const auto list = stored(path);
            onCause = list[0].id;
            onNetwork = list[1].id;
            QCOMPARE(list[1].ruleId, std::string("env.nccl-network"));
        }
        // A pack that disables env.nccl-network: the cause comes earlier in the events, that rule makes none.
        QTemporaryDir pack;
        std::filesystem::create_directories(pack.path().toStdString() + "/packs");
        std::ofstream(pack.path().toStdString() + "/packs/quiet.yaml")
            << "pack: quiet\ndescription: Without the NCCL network lines.\ndisable: [env.nccl-network]\n";
        QSettings().setValue(QStringLiteral("rules/packDirs"), QStringList { pack.path() });
        app::MainWindow window(rulesDir(), sampleDir());
        window.resize(1500, 980);
        window.show();
        QSignalSpy shown(&window, &app::MainWindow::resultShown);
        window.openCase(path, true); // File ▸ Re-run the Case with Current Rules
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 60000);
        QVERIFY(!window.result().matchesStoredRun);
        const int causeAfter = static_cast<int>(window.result().verdict->cause);
        QVERIFY2(
            causeAfter < causeBefore, qPrintable(QStringLiteral("cause %1 → %2").arg(causeBefore).arg(causeAfter)));
        QVERIFY(waitForAnnotations(window, 2));
        auto check = [&](const QString& scope) {
            auto* model = window.annotationsPane()->model();
            const QString causeStatus =
                model->index(model->rowOf(onCause), views::AnnotationsModel::StatusColumn).data().toString();
            QCOMPARE(causeStatus, QStringLiteral("matched (event %1)").arg(causeAfter));
            const QString gone =
                model->index(model->rowOf(onNetwork), views::AnnotationsModel::StatusColumn).data().toString();
            QVERIFY2(gone.startsWith(
                         QStringLiteral("no longer matched in %1: rule 'env.nccl-network' made no event").arg(scope)),
                qPrintable(gone));
            // The cause's bookmark is drawn on the cause's mark again.
            const auto& pins = window.timeline()->annotations();
            const auto pin = std::find_if(pins.begin(), pins.end(), [&](const auto& a) { return a.id == onCause; });
            QVERIFY(pin != pins.end());
            QCOMPARE(pin->eventIndex, causeAfter);
        };
        check(QStringLiteral("the analysis shown (not stored as a run)"));
        window.annotationsPane()->parentWidget()->raise();
        window.annotationsPane()->selectAnnotation(onNetwork);
        screenshot(&window, QStringLiteral("annotations-rerun.png"));
        // Kept as run 2 (File ▸ Add This Run to the Case): resolved against run 2 now.
        QAction* add = findAction(window, QStringLiteral("Add This Run to the Case"));
        QVERIFY(add && add->isEnabled());
        add->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(window.caseController()->resolvedAgainst() == QStringLiteral("run 2"), 60000);
        QVERIFY(waitForAnnotations(window, 2));
        check(QStringLiteral("run 2"));
        // The use case agrees, reading the case alone.
        const auto res = usecases::resolveAnnotations(path.toStdString(), 2);
        QVERIFY(res.ok());
        QCOMPARE((*res.value)[0].eventIndex, static_cast<std::int64_t>(causeAfter));
        QVERIFY(!(*res.value)[1].matched);
    }
};

QTEST_MAIN(TstAnnotationsGui)
#include "tst_annotations_gui.moc"
