// SPDX-License-Identifier: Apache-2.0
#include "app/gui/story_controller.h"

#include "app/gui/case_controller.h"
#include "app/gui/main_window.h"
#include "app/usecases/story.h"
#include "core/model/story.h"
#include "views/common/time_text.h"
#include "views/evidence/evidence_viewer.h"
#include "views/models/symptoms_model.h"
#include "views/state/workbench_selection.h"
#include "views/story/presentation_caption.h"
#include "views/story/step_editor.h"
#include "views/story/story_pane.h"
#include "views/timeline/timeline_view.h"
#include "views/widgets/verdict_view.h"

#include <QAbstractItemModel>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QTextEdit>
#include <QTimer>
#include <QToolBar>

#include <algorithm>

namespace faultline::app {

namespace {

/// The panes a step can open, by the name a step stores (each is the dock "<name>Dock").
constexpr const char* kPanes[] = { "evidence", "symptoms", "metrics", "search", "rules", "annotations", "case",
    "story" };

/// A palette for a projector: black ground, white text, a yellow highlight, bright links.
QPalette presentationPalette()
{
    QPalette p;
    const QColor ground(0x10, 0x10, 0x10);
    const QColor panel(0x1c, 0x1c, 0x1c);
    p.setColor(QPalette::Window, ground);
    p.setColor(QPalette::WindowText, Qt::white);
    p.setColor(QPalette::Base, Qt::black);
    p.setColor(QPalette::AlternateBase, panel);
    p.setColor(QPalette::Text, Qt::white);
    p.setColor(QPalette::BrightText, QColor(0xff, 0xeb, 0x3b));
    p.setColor(QPalette::Button, panel);
    p.setColor(QPalette::ButtonText, Qt::white);
    p.setColor(QPalette::Highlight, QColor(0xff, 0xd6, 0x00));
    p.setColor(QPalette::HighlightedText, Qt::black);
    p.setColor(QPalette::ToolTipBase, Qt::black);
    p.setColor(QPalette::ToolTipText, Qt::white);
    p.setColor(QPalette::PlaceholderText, QColor(0xbd, 0xbd, 0xbd));
    p.setColor(QPalette::Link, QColor(0x82, 0xb1, 0xff));
    p.setColor(QPalette::Mid, QColor(0x9e, 0x9e, 0x9e));
    p.setColor(QPalette::Dark, QColor(0x61, 0x61, 0x61));
    p.setColor(QPalette::Light, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x9e, 0x9e, 0x9e));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x9e, 0x9e, 0x9e));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x9e, 0x9e, 0x9e));
    return p;
}

/// Whether a key press goes to a widget that types text (where the presentation keys keep their meaning).
bool typesText(const QWidget* w)
{
    if (!w)
        return false;
    if (qobject_cast<const QLineEdit*>(w) || qobject_cast<const QTextEdit*>(w) || qobject_cast<const QPlainTextEdit*>(w)
        || qobject_cast<const QAbstractSpinBox*>(w))
        return true;
    const auto* combo = qobject_cast<const QComboBox*>(w);
    return combo && combo->isEditable();
}

/// What a step's event is: "gpu.xid on node-02".
QString eventText(const core::StoryEventRef& e)
{
    return e.node.empty() ? QString::fromStdString(e.type)
                          : QObject::tr("%1 on %2").arg(QString::fromStdString(e.type), QString::fromStdString(e.node));
}

QString windowText(qint64 from, qint64 to)
{
    if (from == INT64_MIN || to == INT64_MIN)
        return {};
    return QObject::tr("%1 – %2 UTC").arg(views::utcClock(from, 1), views::utcClock(to, 1));
}

} // namespace

StoryController::StoryController(MainWindow* window, CaseController* cases, views::StoryPane* pane)
    : QObject(window)
    , m_window(window)
    , m_cases(cases)
    , m_pane(pane)
{
    m_addAction = new QAction(tr("&Add Current View as Step…"), this);
    m_addAction->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_A));
    connect(m_addAction, &QAction::triggered, this, &StoryController::addCurrentView);
    m_presentAction = new QAction(tr("&Present"), this);
    m_presentAction->setShortcut(QKeySequence(Qt::Key_F11));
    m_presentAction->setToolTip(tr("Present the story full screen (without a story: the evidence trail)"));
    connect(m_presentAction, &QAction::triggered, this, [this] { isPresenting() ? stopPresenting() : present(); });
    m_proposeAction = new QAction(tr("P&ropose a Story from the Verdict"), this);
    connect(m_proposeAction, &QAction::triggered, this, &StoryController::proposeStory);

    connect(m_cases, &CaseController::storyChanged, this, &StoryController::showStory);
    connect(m_cases, &CaseController::storySaved, this,
        [this](qint64 revision) { m_window->showStatus(tr("Story saved in the case (revision %1)").arg(revision)); });
    connect(m_pane, &views::StoryPane::stepActivated, this, [this](int step) { goToStep(step); });
    connect(m_pane, &views::StoryPane::addRequested, this, &StoryController::addCurrentView);
    connect(m_pane, &views::StoryPane::editRequested, this, &StoryController::editStep);
    connect(m_pane, &views::StoryPane::moveRequested, this, &StoryController::moveStep);
    connect(m_pane, &views::StoryPane::removeRequested, this, &StoryController::removeStep);
    connect(m_pane, &views::StoryPane::proposeRequested, this, &StoryController::proposeStory);
    connect(m_pane, &views::StoryPane::presentRequested, this, &StoryController::present);

    // The presenter moving away from the step: another selection, another window, another line.
    auto* timeline = m_window->timeline();
    connect(timeline, &views::TimelineView::rangeChanged, this, [this, timeline](qint64 from, qint64 to) {
        if (!m_applying && !timeline->isAnimating() && std::make_pair(from, to) != m_target)
            markDetached();
    });
    connect(timeline, &views::TimelineView::rangeAnimationFinished, this, [this, timeline] {
        m_target = { timeline->rangeFrom(), timeline->rangeTo() };
    });
    connect(m_window->selection(), &views::WorkbenchSelection::eventChanged, this, [this] {
        if (!m_applying)
            markDetached();
    });
    connect(m_window->evidencePane()->viewer(), &views::EvidenceViewer::lineSelected, this, [this] {
        if (!m_applying)
            markDetached();
    });
    connect(m_window->evidencePane()->viewer(), &views::EvidenceViewer::highlightsChanged, this, [this] {
        if (!m_applying)
            markDetached();
    });
}

StoryController::~StoryController()
{
    if (m_presenting)
        qApp->removeEventFilter(this);
}

QDockWidget* StoryController::dock(const std::string& name) const
{
    return m_window->findChild<QDockWidget*>(QString::fromStdString(name) + QStringLiteral("Dock"));
}

const std::vector<core::StoryStep>& StoryController::steps() const
{
    static const std::vector<core::StoryStep> none;
    const auto& history = m_cases->history();
    return history ? history->story.steps : none;
}

int StoryController::eventOfStep(int step) const
{
    const auto& all = steps();
    if (step < 0 || static_cast<std::size_t>(step) >= all.size() || !all[static_cast<std::size_t>(step)].state.event)
        return -1;
    const auto& resolutions = m_cases->storyResolutions();
    if (resolutions.size() == all.size()) {
        const auto& r = resolutions[static_cast<std::size_t>(step)];
        return r.matched ? static_cast<int>(r.eventIndex) : -1;
    }
    // Resolutions made without the analysis shown (it arrived after the history): resolve this one now.
    const auto& result = m_window->result();
    if (!result.verdict || !result.evidence)
        return -1;
    core::Story one;
    one.steps.push_back(all[static_cast<std::size_t>(step)]);
    const auto r = CaseController::storyResolutions(one, *result.verdict, *result.evidence, "the analysis shown");
    return !r.empty() && r.front().matched ? static_cast<int>(r.front().eventIndex) : -1;
}

core::StoryViewState StoryController::captureState() const
{
    core::StoryViewState s;
    const auto* timeline = m_window->timeline();
    const auto& result = m_window->result();
    if (timeline->hasTimes()) {
        s.fromNs = timeline->rangeFrom();
        s.toNs = timeline->rangeTo();
    }
    s.expandedLanes = timeline->expandedNodes();
    s.topLane = timeline->topNode();
    s.clocksAligned = timeline->clocksAligned();
    const int selected = m_window->selection()->event();
    if (selected >= 0 && result.verdict && result.evidence)
        s.event = core::storyEventOf(*result.verdict, *result.evidence, static_cast<std::size_t>(selected));
    if (!s.event && timeline->focus() == views::TimelineView::Focus::Lane)
        s.lane = timeline->selectedLaneNode();
    if (const QModelIndex row = m_window->symptomsTable()->currentIndex(); row.isValid() && result.verdict) {
        const int first = row.siblingAtColumn(0).data(views::SymptomsModel::FirstEventRole).toInt();
        for (const auto& g : result.verdict->symptoms)
            if (!g.events.empty() && static_cast<int>(g.events.front()) == first)
                s.symptom = g.type;
    }
    const auto* evidence = m_window->evidencePane();
    s.evidencePath = evidence->currentPath().toStdString();
    if (!s.evidencePath.empty()) {
        if (const auto line = evidence->viewer()->highlightedLine(); line > 0)
            s.evidenceLines.push_back(line);
        for (const auto line : evidence->viewer()->extraHighlights())
            if (std::find(s.evidenceLines.begin(), s.evidenceLines.end(), line) == s.evidenceLines.end())
                s.evidenceLines.push_back(line);
    }
    for (const char* name : kPanes)
        if (const auto* d = dock(name); d && d->isVisible())
            s.panes.emplace_back(name);
    return s;
}

void StoryController::applyState(const core::StoryViewState& s, int eventIndex, bool animate)
{
    m_applying = true;
    auto* timeline = m_window->timeline();
    if (timeline->hasClockSkew())
        timeline->setClocksAligned(s.clocksAligned);
    timeline->setExpandedNodes(s.expandedLanes);
    const auto& result = m_window->result();
    if (eventIndex < 0 && !s.symptom.empty() && result.verdict)
        for (const auto& g : result.verdict->symptoms)
            if (g.type == s.symptom && !g.events.empty())
                eventIndex = static_cast<int>(g.events.front());
    m_window->selectEvent(eventIndex);
    if (eventIndex < 0) {
        timeline->selectEvent(-1);
        timeline->selectLane(s.lane);
    }
    // The panes after the selection, which opens the evidence pane: the step says which are open.
    if (!s.panes.empty())
        for (const char* name : kPanes)
            if (auto* d = dock(name)) {
                const bool open = std::find(s.panes.begin(), s.panes.end(), name) != s.panes.end();
                // The story pane stays as the presenter has it.
                if (std::string_view(name) != "story" || open)
                    d->setVisible(open);
            }
    if (!s.evidencePath.empty()) {
        auto* evidence = m_window->evidencePane();
        const std::uint64_t line = s.evidenceLines.empty() ? 0 : s.evidenceLines.front();
        if (evidence->currentPath().toStdString() != s.evidencePath || evidence->viewer()->highlightedLine() != line)
            evidence->showLine(QString::fromStdString(s.evidencePath), line);
        evidence->viewer()->setExtraHighlights(s.evidenceLines.size() > 1
                ? std::vector<std::uint64_t>(s.evidenceLines.begin() + 1, s.evidenceLines.end())
                : std::vector<std::uint64_t> {});
    }
    if (s.fromNs != INT64_MIN && s.toNs > s.fromNs) {
        m_target = { s.fromNs, s.toNs };
        timeline->animateRange(s.fromNs, s.toNs, animate ? m_animationMs : 0);
    } else {
        timeline->fitToVerdict();
    }
    if (!timeline->isAnimating())
        m_target = { timeline->rangeFrom(), timeline->rangeTo() };
    timeline->scrollToNode(s.topLane);
    // Whatever the window's height now, the selected event's lane is on screen.
    timeline->ensureEventVisible(eventIndex);
    m_applying = false;
}

void StoryController::showStory()
{
    const auto& history = m_cases->history();
    if (!history) {
        m_pane->showMessage(m_cases->casePath().isEmpty()
                ? tr("Open or save a case to tell its story: a new case starts with a story proposed from its "
                     "verdict, and Add View makes the current view a step.")
                : tr("Reading the case…"));
        return;
    }
    const auto& story = history->story;
    const auto& resolutions = m_cases->storyResolutions();
    std::vector<views::StoryStepRow> rows;
    for (std::size_t i = 0; i < story.steps.size(); ++i) {
        const auto& step = story.steps[i];
        views::StoryStepRow row;
        row.title = QString::fromStdString(step.title);
        row.text = QString::fromStdString(step.text);
        row.window = windowText(step.state.fromNs, step.state.toNs);
        row.proposed = step.origin == "proposed";
        if (step.state.event) {
            row.selects = eventText(*step.state.event);
            if (i < resolutions.size() && !resolutions[i].matched) {
                row.matched = false;
                row.reason = QString::fromStdString(resolutions[i].reason);
            }
        } else if (!step.state.lane.empty()) {
            row.selects = tr("lane %1").arg(QString::fromStdString(step.state.lane));
        }
        rows.push_back(std::move(row));
    }
    m_pane->setSteps(std::move(rows), story.revision, !history->readOnly,
        history->readOnly ? tr("the case is read-only") : QString());
    if (m_pendingStep >= 0) {
        m_pane->setCurrentStep(std::min(m_pendingStep, m_pane->stepCount() - 1));
        m_pendingStep = -1;
    }
    if (m_presenting && !m_trail) {
        if (story.steps.empty()) {
            stopPresenting();
        } else if (m_presented >= static_cast<int>(story.steps.size())) {
            m_presented = static_cast<int>(story.steps.size()) - 1;
            showPresented(false);
        }
    }
}

void StoryController::goToStep(int step, bool animate)
{
    if (step < 0 || static_cast<std::size_t>(step) >= steps().size())
        return;
    applyState(steps()[static_cast<std::size_t>(step)].state, eventOfStep(step), animate);
    m_pane->setCurrentStep(step);
    Q_EMIT stepShown(step);
}

bool StoryController::canEdit()
{
    if (!m_window->canAnnotate())
        return false;
    if (!m_cases->history()) {
        m_window->showStatus(tr("The case is still being read: try again in a moment."));
        return false;
    }
    return true;
}

void StoryController::save(std::vector<core::StoryStep> steps, const QString& change)
{
    m_cases->saveStory(std::move(steps), change, m_window->annotationAuthor());
}

QString StoryController::describeState(const core::StoryViewState& s) const
{
    QStringList parts;
    if (const QString w = windowText(s.fromNs, s.toNs); !w.isEmpty())
        parts << w;
    if (s.event)
        parts << eventText(*s.event);
    else if (!s.lane.empty())
        parts << tr("lane %1").arg(QString::fromStdString(s.lane));
    if (!s.evidencePath.empty())
        parts << (s.evidenceLines.empty()
                ? QString::fromStdString(s.evidencePath)
                : tr("%1:%2").arg(QString::fromStdString(s.evidencePath)).arg(s.evidenceLines.front()));
    return parts.join(QStringLiteral(" · "));
}

void StoryController::addCurrentView()
{
    if (!canEdit())
        return;
    const core::StoryViewState state = captureState();
    const int after = m_pane->currentStep();
    const QString what = (after >= 0 ? tr("New step after step %1").arg(after + 1) : tr("New step at the end"))
        + QStringLiteral(" · ") + describeState(state);
    const QString title = state.event ? eventText(*state.event) : QString();
    auto* editor = new views::StepEditor(what, title, {}, m_window);
    editor->setAttribute(Qt::WA_DeleteOnClose);
    connect(editor, &QDialog::accepted, this,
        [this, editor, state, after] { insertStep(editor->title(), editor->text(), state, after); });
    editor->open();
}

void StoryController::addStep(const QString& title, const QString& text, int after)
{
    if (canEdit())
        insertStep(title, text, captureState(), after);
}

void StoryController::insertStep(
    const QString& title, const QString& text, const core::StoryViewState& state, int after)
{
    auto all = steps();
    core::StoryStep step;
    step.title = title.toStdString();
    step.text = text.toStdString();
    step.state = state;
    step.origin = "user";
    const auto at = after >= 0 ? std::min(all.size(), static_cast<std::size_t>(after) + 1) : all.size();
    all.insert(all.begin() + static_cast<std::ptrdiff_t>(at), std::move(step));
    m_pendingStep = static_cast<int>(at);
    save(std::move(all), tr("added step %1").arg(at + 1));
}

void StoryController::editStep(int step)
{
    if (!canEdit() || step < 0 || static_cast<std::size_t>(step) >= steps().size())
        return;
    const auto& s = steps()[static_cast<std::size_t>(step)];
    auto* editor = new views::StepEditor(tr("Step %1 · %2").arg(step + 1).arg(describeState(s.state)),
        QString::fromStdString(s.title), QString::fromStdString(s.text), m_window);
    editor->setAttribute(Qt::WA_DeleteOnClose);
    connect(
        editor, &QDialog::accepted, this, [this, editor, step] { setStepText(step, editor->title(), editor->text()); });
    editor->open();
}

void StoryController::setStepText(int step, const QString& title, const QString& text)
{
    if (!canEdit() || step < 0 || static_cast<std::size_t>(step) >= steps().size())
        return;
    auto all = steps();
    auto& s = all[static_cast<std::size_t>(step)];
    if (s.title == title.toStdString() && s.text == text.toStdString())
        return;
    s.title = title.toStdString();
    s.text = text.toStdString();
    s.origin = "user";
    m_pendingStep = step;
    save(std::move(all), tr("edited step %1").arg(step + 1));
}

void StoryController::moveStep(int from, int to)
{
    const int n = static_cast<int>(steps().size());
    if (!canEdit() || from < 0 || from >= n || to < 0 || to >= n || from == to)
        return;
    auto all = steps();
    auto moved = std::move(all[static_cast<std::size_t>(from)]);
    all.erase(all.begin() + from);
    all.insert(all.begin() + to, std::move(moved));
    m_pendingStep = to;
    save(std::move(all), tr("moved step %1 to %2").arg(from + 1).arg(to + 1));
}

void StoryController::removeStep(int step)
{
    if (!canEdit() || step < 0 || static_cast<std::size_t>(step) >= steps().size())
        return;
    auto all = steps();
    const QString title = QString::fromStdString(all[static_cast<std::size_t>(step)].title);
    all.erase(all.begin() + step);
    m_pendingStep = all.empty() ? -1 : std::min(step, static_cast<int>(all.size()) - 1);
    save(std::move(all), tr("deleted step %1 (%2)").arg(step + 1).arg(title));
}

void StoryController::proposeStory()
{
    if (!canEdit())
        return;
    const auto& result = m_window->result();
    if (!result.verdict || !result.evidence) {
        m_window->showStatus(tr("No verdict to propose a story from yet."));
        return;
    }
    m_pendingStep = 0;
    save(usecases::proposedStory(result),
        result.storedRun > 0 && result.matchesStoredRun ? tr("proposed from run %1").arg(result.storedRun)
                                                        : tr("proposed from the analysis shown"));
}

// ---- Presentation ---------------------------------------------------------------------------------------------

std::vector<core::StoryStep> StoryController::trailSteps(std::vector<int>& events) const
{
    std::vector<core::StoryStep> out;
    events.clear();
    const auto& result = m_window->result();
    if (!result.verdict)
        return out;
    const auto& v = *result.verdict;
    const std::int64_t causeNs = v.hasCause && v.cause < v.events.size() ? v.events[v.cause].timeNs : INT64_MIN;
    for (const auto& item : v.trail) {
        if (item.event >= v.events.size())
            continue;
        const auto& e = v.events[item.event];
        core::StoryStep step;
        step.title = e.label;
        step.text = item.why + (e.node == core::kNoNode ? std::string() : " · " + v.nodes.name(e.node));
        if (e.timeNs != INT64_MIN) {
            // The event with the cause beside it (or a minute around it), so the delay shows.
            std::int64_t from = e.timeNs;
            std::int64_t to = e.timeNs;
            if (causeNs != INT64_MIN) {
                from = std::min(from, causeNs);
                to = std::max(to, causeNs);
            }
            const std::int64_t pad = std::max<std::int64_t>((to - from) / 5, 30'000'000'000);
            step.state.fromNs = from - pad;
            step.state.toNs = to + pad;
        }
        step.state.panes = { "evidence", "symptoms" };
        out.push_back(std::move(step));
        events.push_back(static_cast<int>(item.event));
    }
    return out;
}

int StoryController::presentedCount() const
{
    return m_trail ? static_cast<int>(m_trailSteps.size()) : static_cast<int>(steps().size());
}

void StoryController::present()
{
    if (m_presenting)
        return;
    if (!m_window->result().verdict) {
        m_window->showStatus(tr("Nothing to present: open a bundle or a case first."));
        return;
    }
    m_trail = steps().empty();
    if (m_trail)
        m_trailSteps = trailSteps(m_trailEvents);
    if (presentedCount() == 0) {
        m_window->showStatus(tr("Nothing to present: the case has no story and the verdict no evidence trail."));
        return;
    }
    Saved saved;
    saved.states = m_window->windowState();
    saved.palette = m_window->palette();
    saved.font = m_window->font();
    saved.evidenceFont = m_window->evidencePane()->viewer()->font();
    saved.menuBar = m_window->menuBar()->isVisible();
    saved.statusBar = m_window->statusBar()->isVisible();
    auto* workbench = m_window->findChild<QSplitter*>(QStringLiteral("workbench"));
    if (workbench)
        saved.workbench = workbench->sizes();
    m_saved = saved;
    if (!m_captionBar) {
        m_captionBar = new QToolBar(tr("Presentation"), m_window);
        m_captionBar->setObjectName(QStringLiteral("presentationBar"));
        m_captionBar->setMovable(false);
        m_captionBar->setFloatable(false);
        m_caption = new views::PresentationCaption(m_captionBar);
        m_caption->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
        m_captionBar->addWidget(m_caption);
        m_window->addToolBar(Qt::BottomToolBarArea, m_captionBar);
    }
    QFont big = saved.font;
    big.setPointSizeF(big.pointSizeF() * 1.4);
    m_window->setFont(big);
    QFont code = saved.evidenceFont;
    code.setPointSizeF(code.pointSizeF() * 1.4);
    m_window->evidencePane()->viewer()->setFont(code);
    m_window->setPalette(presentationPalette());
    m_window->menuBar()->setVisible(false);
    m_window->statusBar()->setVisible(false);
    m_captionBar->setVisible(true);
    m_window->setWindowState(saved.states | Qt::WindowFullScreen);
    // The timeline is what the room looks at: it gets most of the height, the verdict above it the rest.
    // Measured once the window has its full-screen size and the larger type is laid out (and again on each resize).
    QTimer::singleShot(0, this, &StoryController::fitPresentationSplit);
    m_presenting = true;
    qApp->installEventFilter(this);
    const int current = m_trail ? -1 : m_pane->currentStep();
    m_presented = current >= 0 && current < presentedCount() ? current : 0;
    showPresented(false);
    Q_EMIT presentationChanged(true);
}

void StoryController::fitPresentationSplit()
{
    auto* workbench = m_window->findChild<QSplitter*>(QStringLiteral("workbench"));
    if (!m_presenting || !workbench)
        return;
    const QList<int> sizes = workbench->sizes();
    const int total = sizes.value(0) + sizes.value(1);
    // The verdict keeps the height its wrapped lines need in the larger type, with two trail rows under them; the
    // timeline, which the room looks at, gets the rest.
    const int top = std::clamp(m_window->verdictView()->heightFor(2), total / 4, total * 3 / 5);
    if (sizes.value(0) != top)
        workbench->setSizes({ top, total - top });
}

void StoryController::stopPresenting()
{
    if (!m_presenting)
        return;
    m_presenting = false;
    qApp->removeEventFilter(this);
    if (m_captionBar)
        m_captionBar->setVisible(false);
    if (m_saved) {
        m_window->setWindowState(m_saved->states);
        m_window->setPalette(m_saved->palette);
        m_window->setFont(m_saved->font);
        m_window->evidencePane()->viewer()->setFont(m_saved->evidenceFont);
        m_window->menuBar()->setVisible(m_saved->menuBar);
        m_window->statusBar()->setVisible(m_saved->statusBar);
        if (auto* workbench = m_window->findChild<QSplitter*>(QStringLiteral("workbench"));
            workbench && !m_saved->workbench.isEmpty())
            workbench->setSizes(m_saved->workbench);
        m_saved.reset();
    }
    m_trailSteps.clear();
    m_trailEvents.clear();
    m_presented = -1;
    Q_EMIT presentationChanged(false);
}

void StoryController::showPresented(bool animate)
{
    const int count = presentedCount();
    if (m_presented < 0 || m_presented >= count)
        return;
    const auto i = static_cast<std::size_t>(m_presented);
    const core::StoryStep& step = m_trail ? m_trailSteps[i] : steps()[i];
    if (m_trail) {
        applyState(step.state, m_trailEvents[i], animate);
    } else {
        applyState(step.state, eventOfStep(m_presented), animate);
        m_pane->setCurrentStep(m_presented);
    }
    m_caption->setStep(m_presented, count, QString::fromStdString(step.title), QString::fromStdString(step.text),
        m_trail ? tr("evidence trail") : tr("story"));
    Q_EMIT stepShown(m_presented);
}

void StoryController::next()
{
    if (m_presenting && m_presented + 1 < presentedCount()) {
        ++m_presented;
        showPresented(true);
    }
}

void StoryController::previous()
{
    if (m_presenting && m_presented > 0) {
        --m_presented;
        showPresented(true);
    }
}

void StoryController::returnToStep()
{
    if (m_presenting)
        showPresented(true);
}

void StoryController::markDetached()
{
    if (m_presenting && m_caption)
        m_caption->setDetached(true);
}

bool StoryController::eventFilter(QObject* watched, QEvent* event)
{
    // Going full screen, larger type and the caption change the timeline's height after the step was shown: its
    // event's lane is brought back on screen (unless the presenter is exploring).
    if (m_presenting && event->type() == QEvent::Resize && watched == m_window->timeline() && m_caption
        && !m_caption->isDetached())
        QTimer::singleShot(0, this, [this] {
            if (m_presenting)
                m_window->timeline()->ensureEventVisible(m_window->selection()->event());
        });
    if (m_presenting && event->type() == QEvent::Resize && watched == m_window->verdictView())
        QTimer::singleShot(0, this, &StoryController::fitPresentationSplit);
    if (!m_presenting || event->type() != QEvent::KeyPress)
        return QObject::eventFilter(watched, event);
    auto* widget = qobject_cast<QWidget*>(watched);
    // Keys for the window only (not a dialog opened meanwhile), and not while typing.
    if (!widget || widget->window() != m_window || QApplication::activeModalWidget() || typesText(widget))
        return QObject::eventFilter(watched, event);
    const auto* key = static_cast<QKeyEvent*>(event);
    const bool shift = key->modifiers() & Qt::ShiftModifier;
    switch (key->key()) {
    case Qt::Key_Right:
    case Qt::Key_PageDown:
        next();
        return true;
    case Qt::Key_Space:
        shift ? previous() : next();
        return true;
    case Qt::Key_Left:
    case Qt::Key_PageUp:
        previous();
        return true;
    case Qt::Key_Home:
        m_presented = 0;
        showPresented(true);
        return true;
    case Qt::Key_End:
        m_presented = presentedCount() - 1;
        showPresented(true);
        return true;
    case Qt::Key_Backspace:
        returnToStep();
        return true;
    case Qt::Key_Escape:
    case Qt::Key_F11:
        stopPresenting();
        return true;
    default:
        return QObject::eventFilter(watched, event);
    }
}

} // namespace faultline::app
