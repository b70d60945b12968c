// SPDX-License-Identifier: Apache-2.0
// The story and the presentation in the workbench, offscreen, over the flagship sample saved as a case: a new case
// starts with the story proposed from its verdict (the cause step selects the cause); the current view becomes a
// step (its window, expanded lanes, selection, evidence lines and open panes as the case stores them), steps are
// reordered, edited and deleted (each a new revision, a deletion after a confirmation), and an edit made from an
// older revision than the case's is refused without losing the newer one. Going to a step restores the state it
// recorded in every view, also in another window opened on the case later. Presenting goes full screen with large
// type, steps with → ← Space PageUp PageDown Home End, each step restoring its state; exploring is live (another
// event, a zoom) and Backspace returns to the step; Esc gives the window back as it was. Without a story, the
// presentation steps through the evidence trail. Screenshots go to screenshots/story-*.png in the build tree.
#include "app/gui/case_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/story_controller.h"
#include "app/usecases/story.h"
#include "core/model/story.h"
#include "tests/common/gui_helpers.h"
#include "tests/common/sample_window.h"
#include "tests/common/test_helpers.h"
#include "views/evidence/evidence_viewer.h"
#include "views/state/workbench_selection.h"
#include "views/story/presentation_caption.h"
#include "views/story/step_editor.h"
#include "views/story/story_pane.h"
#include "views/timeline/timeline_view.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <memory>

using namespace faultline;
using views::TimelineView;

namespace {

using tests::rulesDir;
using tests::sampleDir;
using tests::screenshot;

/// The case's latest story, read the way the CLI reads it.
core::Story storedStory(const QString& path)
{
    const auto story = usecases::readStory(path.toStdString());
    return story.ok() ? *story.value : core::Story {};
}

QString titles(const std::vector<core::StoryStep>& steps)
{
    QStringList out;
    for (const auto& s : steps)
        out << QString::fromStdString(s.title);
    return out.join(QStringLiteral(" | "));
}

QString titles(const views::StoryPane& pane)
{
    QStringList out;
    for (const auto& s : pane.steps())
        out << s.title;
    return out.join(QStringLiteral(" | "));
}

QString panesOf(const core::StoryViewState& s)
{
    QStringList out;
    for (const auto& p : s.panes)
        out << QString::fromStdString(p);
    return out.join(QLatin1Char(','));
}

/// The verdict event of the first symptom on a node other than the cause's (-1: none).
int otherNodeSymptom(const core::Verdict& v)
{
    const auto causeNode = v.events[v.cause].node;
    for (const auto& g : v.symptoms)
        for (const std::size_t e : g.events)
            if (v.events[e].node != causeNode && v.events[e].timeNs != INT64_MIN)
                return static_cast<int>(e);
    return -1;
}

} // namespace

class TstStoryGui : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    /// A window showing the flagship sample saved as the case `name`, on screen and active, its story read.
    std::unique_ptr<app::MainWindow> savedCase(const QString& name, QString& path)
    {
        path = m_dir.filePath(name);
        auto window = tests::sampleSavedAsCase(path);
        if (window)
            window->storyController()->setAnimationMs(0);
        return window;
    }

    /// Waits until the case controller is idle with a history read.
    static bool waitIdle(app::MainWindow& window)
    {
        return QTest::qWaitFor(
            [&] { return !window.caseController()->isBusy() && window.caseController()->history().has_value(); },
            60000);
    }

    /// Waits until the window shows the story's revision `revision`.
    static bool waitForRevision(app::MainWindow& window, std::int64_t revision)
    {
        return QTest::qWaitFor(
            [&] {
                const auto& h = window.caseController()->history();
                return !window.caseController()->isBusy() && h && h->story.revision == revision
                    && window.storyPane()->revision() == revision;
            },
            60000);
    }

    /// Moves the views to a recognisable state: a symptom on another node selected, its node's lanes expanded,
    /// a window of 40 s around it, the evidence pane open at its line, the metrics pane open.
    static int exploreSymptom(app::MainWindow& window)
    {
        const auto& v = *window.result().verdict;
        const int symptom = otherNodeSymptom(v);
        if (symptom < 0)
            return -1;
        window.selectEvent(symptom);
        const auto& e = v.events[static_cast<std::size_t>(symptom)];
        window.timeline()->setExpandedNodes({ v.nodes.name(e.node) });
        window.timeline()->setRange(e.timeNs - 20'000'000'000, e.timeNs + 20'000'000'000);
        window.findChild<QDockWidget*>(QStringLiteral("metricsDock"))->setVisible(true);
        return symptom;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qputenv("FAULTLINE_AUTHOR", "story-tester");
        QApplication::setStyle(QStringLiteral("Fusion"));
    }

    /// A new case starts with the story proposed from its verdict, and its cause step selects the cause.
    void newCaseStartsWithProposedStory()
    {
        QString path;
        auto window = savedCase(QStringLiteral("proposed.faultline"), path);
        QVERIFY(window);
        const core::Story story = storedStory(path);
        QVERIFY2(story.revision == 1, qPrintable(QStringLiteral("revision %1").arg(story.revision)));
        QVERIFY2(story.steps.size() >= 2, qPrintable(titles(story.steps)));
        QCOMPARE(window->storyPane()->stepCount(), static_cast<int>(story.steps.size()));
        QCOMPARE(titles(*window->storyPane()), titles(story.steps));
        const auto& v = *window->result().verdict;
        int causeStep = -1;
        for (int i = 0; i < static_cast<int>(story.steps.size()); ++i)
            if (window->storyController()->eventOfStep(i) == static_cast<int>(v.cause))
                causeStep = i;
        QVERIFY2(causeStep >= 0, qPrintable(QStringLiteral("no step selects the cause: ") + titles(story.steps)));
        for (const auto& s : story.steps)
            QCOMPARE(QString::fromStdString(s.origin), QStringLiteral("proposed"));
        QVERIFY(window->findChild<QDockWidget*>(QStringLiteral("storyDock"))->isVisible());
        window->findChild<QDockWidget*>(QStringLiteral("storyDock"))->raise();
        window->storyController()->goToStep(causeStep, false);
        QCOMPARE(window->selection()->event(), static_cast<int>(v.cause));
        QCOMPARE(window->storyPane()->currentStep(), causeStep);
        screenshot(window.get(), QStringLiteral("story-proposed.png"));
    }

    /// The current view becomes a step that holds every part of the state; going to another step and back
    /// restores it in every view.
    void addedStepRestoresItsState()
    {
        QString path;
        auto window = savedCase(QStringLiteral("add.faultline"), path);
        QVERIFY(window);
        auto* story = window->storyController();
        const std::int64_t start = storedStory(path).revision;
        const std::size_t before = storedStory(path).steps.size();
        const int symptom = exploreSymptom(*window);
        QVERIFY(symptom >= 0);
        // Shift+click in the evidence viewer highlights the next line too.
        auto* viewer = window->evidencePane()->viewer();
        const std::uint64_t line = viewer->highlightedLine();
        QVERIFY(line > 0);
        QTest::qWait(20);
        const auto next = viewer->linePosition(line + 1);
        QVERIFY2(next.has_value(), qPrintable(QStringLiteral("line %1 not on screen").arg(line + 1)));
        QTest::mouseClick(viewer->viewport(), Qt::LeftButton, Qt::ShiftModifier, QPoint(next->x() + 60, next->y()));
        const core::StoryViewState captured = story->captureState();
        QVERIFY(captured.event.has_value());
        QCOMPARE(captured.evidenceLines, (std::vector<std::uint64_t> { line, line + 1 }));
        window->storyPane()->setCurrentStep(-1);
        story->addStep(QStringLiteral("The first symptom elsewhere"), QStringLiteral("Ten seconds later, node-03."));
        QVERIFY(waitForRevision(*window, start + 1));
        const core::Story saved = storedStory(path);
        QCOMPARE(saved.steps.size(), before + 1);
        const core::StoryStep& step = saved.steps.back();
        QCOMPARE(QString::fromStdString(step.title), QStringLiteral("The first symptom elsewhere"));
        QCOMPARE(QString::fromStdString(step.origin), QStringLiteral("user"));
        QCOMPARE(QString::fromStdString(core::storyStateToJson(step.state)),
            QString::fromStdString(core::storyStateToJson(captured)));
        QVERIFY2(panesOf(step.state).contains(QStringLiteral("metrics")), qPrintable(panesOf(step.state)));
        QVERIFY2(panesOf(step.state).contains(QStringLiteral("evidence")), qPrintable(panesOf(step.state)));
        QCOMPARE(window->storyPane()->currentStep(), static_cast<int>(before));

        // Elsewhere, then back to the step.
        const int last = static_cast<int>(before);
        story->goToStep(0, false);
        window->timeline()->setExpandedNodes({});
        viewer->setExtraHighlights({});
        window->findChild<QDockWidget*>(QStringLiteral("metricsDock"))->setVisible(false);
        window->timeline()->fitAll();
        QVERIFY(window->selection()->event() != symptom || window->timeline()->rangeFrom() != captured.fromNs);
        story->goToStep(last, false);
        QCOMPARE(window->selection()->event(), symptom);
        QCOMPARE(window->timeline()->selectedEvent(), symptom);
        QCOMPARE(window->timeline()->rangeFrom(), captured.fromNs);
        QCOMPARE(window->timeline()->rangeTo(), captured.toNs);
        QCOMPARE(window->timeline()->expandedNodes(), captured.expandedLanes);
        QCOMPARE(window->evidencePane()->currentPath().toStdString(), captured.evidencePath);
        QCOMPARE(window->evidencePane()->viewer()->highlightedLine(), captured.evidenceLines.front());
        QCOMPARE(window->evidencePane()->viewer()->extraHighlights(), (std::vector<std::uint64_t> { line + 1 }));
        QVERIFY(window->findChild<QDockWidget*>(QStringLiteral("metricsDock"))->isVisible());
        QCOMPARE(QString::fromStdString(core::storyStateToJson(story->captureState())),
            QString::fromStdString(core::storyStateToJson(captured)));

        // The same step in another window, opened on the case later: the same event and window.
        auto other = std::make_unique<app::MainWindow>(rulesDir(), sampleDir());
        QSignalSpy shown(other.get(), &app::MainWindow::resultShown);
        other->openCase(path);
        QVERIFY(QTest::qWaitFor([&] { return shown.count() == 1; }, 60000));
        QVERIFY(waitIdle(*other));
        other->resize(1500, 980);
        other->show();
        other->storyController()->setAnimationMs(0);
        QCOMPARE(other->storyPane()->stepCount(), static_cast<int>(before + 1));
        QCOMPARE(other->storyController()->eventOfStep(last), symptom);
        other->storyController()->goToStep(last, false);
        QCOMPARE(other->selection()->event(), symptom);
        QCOMPARE(other->timeline()->rangeFrom(), captured.fromNs);
        QCOMPARE(other->timeline()->expandedNodes(), captured.expandedLanes);
    }

    /// Reorder, edit and delete, each a new revision; earlier revisions stay readable.
    void reorderEditDelete()
    {
        QString path;
        auto window = savedCase(QStringLiteral("edit.faultline"), path);
        QVERIFY(window);
        auto* story = window->storyController();
        auto* pane = window->storyPane();
        const core::Story first = storedStory(path);
        QVERIFY(first.steps.size() >= 2);
        std::int64_t revision = first.revision;

        // Alt+Down in the list moves the current step down.
        pane->setCurrentStep(0);
        pane->list()->setFocus();
        QTest::keyClick(pane->list(), Qt::Key_Down, Qt::AltModifier);
        QVERIFY(waitForRevision(*window, ++revision));
        core::Story s = storedStory(path);
        QCOMPARE(s.steps[0].title, first.steps[1].title);
        QCOMPARE(s.steps[1].title, first.steps[0].title);
        QCOMPARE(pane->currentStep(), 1);
        QCOMPARE(QString::fromStdString(s.change), QStringLiteral("moved step 1 to 2"));

        // Edit through the dialog.
        QMetaObject::invokeMethod(
            this,
            [&] {
                auto* editor = window->findChild<views::StepEditor*>(QStringLiteral("stepEditor"));
                QVERIFY(editor);
                editor->titleEdit()->setText(QStringLiteral("Renamed step"));
                editor->textEdit()->setPlainText(QStringLiteral("What the presenter says."));
                editor->accept();
            },
            Qt::QueuedConnection);
        story->editStep(1);
        QVERIFY(waitForRevision(*window, ++revision));
        s = storedStory(path);
        QCOMPARE(QString::fromStdString(s.steps[1].title), QStringLiteral("Renamed step"));
        QCOMPARE(QString::fromStdString(s.steps[1].text), QStringLiteral("What the presenter says."));
        QCOMPARE(QString::fromStdString(s.steps[1].origin), QStringLiteral("user"));
        QCOMPARE(pane->steps()[1].title, QStringLiteral("Renamed step"));

        // Delete asks first; Cancel keeps the step.
        pane->setCurrentStep(1);
        pane->list()->setFocus();
        QTest::keyClick(pane->list(), Qt::Key_Delete);
        auto* confirm = pane->findChild<QMessageBox*>(QStringLiteral("removeStepConfirm"));
        QVERIFY(confirm);
        confirm->button(QMessageBox::Cancel)->click();
        QTest::qWait(50);
        QCOMPARE(storedStory(path).revision, revision);
        QTest::keyClick(pane->list(), Qt::Key_Delete);
        QVERIFY(QTest::qWaitFor([&] {
            confirm = pane->findChild<QMessageBox*>(QStringLiteral("removeStepConfirm"));
            return confirm && confirm->isVisible();
        }));
        confirm->button(QMessageBox::Yes)->click();
        QVERIFY(waitForRevision(*window, ++revision));
        s = storedStory(path);
        QCOMPARE(s.steps.size(), first.steps.size() - 1);
        QVERIFY2(!titles(s.steps).contains(QStringLiteral("Renamed step")), qPrintable(titles(s.steps)));

        // Every revision is kept: the first one still reads as it was.
        const auto original = usecases::readStory(path.toStdString(), first.revision);
        QVERIFY(original.ok());
        QCOMPARE(titles(original.value->steps), titles(first.steps));
        const auto history = usecases::storyRevisions(path.toStdString());
        QVERIFY(history.ok());
        QCOMPARE(static_cast<std::int64_t>(history.value->size()), revision);
        screenshot(pane->window(), QStringLiteral("story-edited.png"));
    }

    /// A story saved meanwhile by someone else (the CLI) is not overwritten by an edit made from the older one.
    void concurrentSaveIsRefused()
    {
        QString path;
        auto window = savedCase(QStringLiteral("conflict.faultline"), path);
        QVERIFY(window);
        const core::Story shown = storedStory(path);
        usecases::SaveStoryRequest elsewhere;
        elsewhere.casePath = path.toStdString();
        elsewhere.steps = { shown.steps.front() };
        elsewhere.steps.front().title = "Saved by the CLI";
        elsewhere.change = "edited elsewhere";
        QVERIFY(usecases::saveStory(elsewhere).ok());
        QSignalSpy failed(window->caseController(), &app::CaseController::failed);
        window->storyController()->setStepText(0, QStringLiteral("Edited in the window"), {});
        QVERIFY(QTest::qWaitFor([&] { return failed.count() >= 1; }, 60000));
        QVERIFY2(failed.first().first().toString().contains(QStringLiteral("story")),
            qPrintable(failed.first().first().toString()));
        const core::Story now = storedStory(path);
        QCOMPARE(now.revision, shown.revision + 1);
        QCOMPARE(QString::fromStdString(now.steps.front().title), QStringLiteral("Saved by the CLI"));
        // The window shows the newer story once the failed write's history arrives.
        QVERIFY(waitForRevision(*window, now.revision));
        QCOMPARE(window->storyPane()->steps().front().title, QStringLiteral("Saved by the CLI"));
    }

    /// Presenting: full screen with large type, the keys step, each step restores its state, exploring is live and
    /// Backspace returns; Esc gives the window back.
    void presentation()
    {
        QString path;
        auto window = savedCase(QStringLiteral("present.faultline"), path);
        QVERIFY(window);
        auto* story = window->storyController();
        // A user step after the proposed ones, with its own window and lanes.
        const int symptom = exploreSymptom(*window);
        QVERIFY(symptom >= 0);
        const core::StoryViewState explored = story->captureState();
        const std::int64_t revision = storedStory(path).revision;
        window->storyPane()->setCurrentStep(-1);
        story->addStep(QStringLiteral("Explored"), QStringLiteral("The symptom on another node."));
        QVERIFY(waitForRevision(*window, revision + 1));
        const core::Story saved = storedStory(path);
        const int count = static_cast<int>(saved.steps.size());

        const double normalFont = window->font().pointSizeF();
        const QPalette normalPalette = window->palette();
        story->setAnimationMs(120);
        window->storyPane()->setCurrentStep(0);
        QSignalSpy changed(story, &app::StoryController::presentationChanged);
        story->present();
        QCOMPARE(changed.count(), 1);
        QVERIFY(story->isPresenting());
        QVERIFY(!story->presentingTrail());
        QVERIFY(window->windowState() & Qt::WindowFullScreen);
        QVERIFY2(window->font().pointSizeF() >= normalFont * 1.3,
            qPrintable(QStringLiteral("font %1 pt, was %2").arg(window->font().pointSizeF()).arg(normalFont)));
        QVERIFY(!window->menuBar()->isVisible());
        QVERIFY(story->caption()->isVisible());
        QCOMPARE(story->presentedStep(), 0);
        QCOMPARE(story->caption()->positionText(), QStringLiteral("1 / %1").arg(count));
        QCOMPARE(story->caption()->titleText(), QString::fromStdString(saved.steps[0].title));
        QCOMPARE(window->selection()->event(), story->eventOfStep(0));

        // → Space PageDown go on; ← PageUp go back; Home and End.
        auto expectStep = [&](int step) {
            QCOMPARE(story->presentedStep(), step);
            QVERIFY(QTest::qWaitFor([&] { return !window->timeline()->isAnimating(); }, 5000));
            QCOMPARE(story->caption()->positionText(), QStringLiteral("%1 / %2").arg(step + 1).arg(count));
            const auto& state = saved.steps[static_cast<std::size_t>(step)].state;
            QCOMPARE(window->selection()->event(), story->eventOfStep(step));
            if (state.fromNs != INT64_MIN) {
                QCOMPARE(window->timeline()->rangeFrom(), state.fromNs);
                QCOMPARE(window->timeline()->rangeTo(), state.toNs);
            }
            QCOMPARE(window->timeline()->expandedNodes(), state.expandedLanes);
            // The step's event is on screen, whatever the presentation did to the timeline's height.
            if (const int e = story->eventOfStep(step); e >= 0 && state.fromNs != INT64_MIN) {
                QTest::qWait(20);
                const auto at = window->timeline()->markPosition(e);
                QVERIFY2(at && window->timeline()->viewport()->rect().contains(at->toPoint()),
                    qPrintable(QStringLiteral("step %1: event %2 not on screen").arg(step + 1).arg(e)));
            }
        };
        QWidget* focus = window->timeline();
        focus->setFocus();
        QTest::keyClick(focus, Qt::Key_Right);
        QVERIFY(window->timeline()->isAnimating() || count < 2); // the window moves smoothly
        expectStep(1);
        QTest::keyClick(focus, Qt::Key_Left);
        expectStep(0);
        QTest::keyClick(focus, Qt::Key_Space);
        expectStep(1);
        QTest::keyClick(focus, Qt::Key_PageUp);
        expectStep(0);
        QTest::keyClick(focus, Qt::Key_PageDown);
        expectStep(1);
        QTest::keyClick(focus, Qt::Key_End);
        expectStep(count - 1);
        QTest::keyClick(focus, Qt::Key_Right); // past the end: stays
        expectStep(count - 1);
        QCOMPARE(story->caption()->titleText(), QStringLiteral("Explored"));
        QCOMPARE(story->caption()->bodyText(), QStringLiteral("The symptom on another node."));
        QCOMPARE(window->timeline()->rangeFrom(), explored.fromNs);
        screenshot(window.get(), QStringLiteral("story-presenting.png"));

        // Exploring: another event, another window; the caption says so, and Backspace returns.
        const int cause = static_cast<int>(window->result().verdict->cause);
        window->selectEvent(cause);
        window->timeline()->fitAll();
        QVERIFY(story->caption()->isDetached());
        QCOMPARE(window->selection()->event(), cause);
        QTest::keyClick(focus, Qt::Key_Backspace);
        expectStep(count - 1);
        QCOMPARE(window->selection()->event(), symptom);
        QVERIFY(!story->caption()->isDetached());

        // Typing in the search box keeps its keys.
        if (auto* box = window->findChild<QLineEdit*>(); box && box->isVisible()) {
            box->setFocus();
            QTest::keyClick(box, Qt::Key_Left);
            QCOMPARE(story->presentedStep(), count - 1);
        }

        QTest::keyClick(window->timeline(), Qt::Key_Escape);
        QVERIFY(!story->isPresenting());
        QCOMPARE(changed.count(), 2);
        QVERIFY(!(window->windowState() & Qt::WindowFullScreen));
        QCOMPARE(window->font().pointSizeF(), normalFont);
        QCOMPARE(window->palette().color(QPalette::Base), normalPalette.color(QPalette::Base));
        QVERIFY(window->menuBar()->isVisible());
        QVERIFY(!story->caption()->isVisible());
    }

    /// Without a story, the presentation steps through the verdict's evidence trail.
    void presentsTheTrailWithoutAStory()
    {
        QString path;
        auto window = savedCase(QStringLiteral("trail.faultline"), path);
        QVERIFY(window);
        usecases::SaveStoryRequest empty;
        empty.casePath = path.toStdString();
        empty.change = "emptied";
        QVERIFY(usecases::saveStory(empty).ok());
        window->caseController()->refresh();
        QVERIFY(waitForRevision(*window, storedStory(path).revision));
        QCOMPARE(window->storyPane()->stepCount(), 0);
        auto* story = window->storyController();
        story->present();
        QVERIFY(story->isPresenting());
        QVERIFY(story->presentingTrail());
        const auto& trail = window->result().verdict->trail;
        QCOMPARE(story->presentedCount(), static_cast<int>(trail.size()));
        QCOMPARE(window->selection()->event(), static_cast<int>(trail[0].event));
        QTest::keyClick(window->timeline(), Qt::Key_Right);
        QCOMPARE(window->selection()->event(), static_cast<int>(trail[1].event));
        QVERIFY(story->caption()->positionText().startsWith(QStringLiteral("2 / ")));
        QTest::keyClick(window->timeline(), Qt::Key_Escape);
        QVERIFY(!story->isPresenting());
    }
};

QTEST_MAIN(TstStoryGui)
#include "tst_story_gui.moc"
