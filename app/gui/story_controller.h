// SPDX-License-Identifier: Apache-2.0
// The story and the presentation: captures the workbench's view state as a story step and restores a step's state
// in every view (the timeline's window, moved to smoothly, its expanded lanes and scroll, the selected event, lane or
// symptom, the evidence viewer's file and highlighted lines, the open panes, clock alignment), edits the case's
// story through the CaseController (every edit saves a new revision; a story changed meanwhile elsewhere is not
// overwritten), and presents it.
//
// Presentation mode: the window goes full screen with large type and a high-contrast palette, the menus and the
// status bar make room for a caption under the views (the step's number, title and text). → Space PageDown go to the
// next step, ← PageUp (Shift+Space) to the previous one, Home/End to the first and the last; without a story the
// steps are the verdict's evidence trail. Everything stays live: the presenter can click into any event, zoom, open
// the raw evidence; the caption then says so, and Backspace returns to the step. Esc (or F11) leaves and gives the
// window back as it was.
// Thread affinity: UI thread.
#pragma once

#include "core/model/case_records.h"

#include <QFont>
#include <QList>
#include <QObject>
#include <QPalette>
#include <QPointer>
#include <QString>

#include <climits>
#include <optional>
#include <vector>

class QAction;
class QDockWidget;
class QToolBar;

namespace faultline::views {
class PresentationCaption;
class StoryPane;
} // namespace faultline::views

namespace faultline::app {

class CaseController;
class MainWindow;

class StoryController : public QObject
{
    Q_OBJECT
public:
    StoryController(MainWindow* window, CaseController* cases, views::StoryPane* pane);
    ~StoryController() override;

    /// The views' state now, as a step keeps it.
    core::StoryViewState captureState() const;
    /// Moves every view to `state`; the timeline's window moves smoothly when `animate`. `eventIndex` is the state's
    /// event resolved in the analysis shown (-1: none or not found).
    void applyState(const core::StoryViewState& state, int eventIndex, bool animate);

    /// The case's story as last read (no steps: none, or no case).
    const std::vector<core::StoryStep>& steps() const;
    /// Step `step`'s event in the analysis shown (-1: none, or no longer found).
    int eventOfStep(int step) const;
    /// Moves the views to step `step` of the story (the pane's current row follows).
    void goToStep(int step, bool animate = true);

    /// Story ▸ Add Current View as Step: the step editor for the view now, inserted after the pane's current step.
    void addCurrentView();
    /// The same without the dialog.
    void addStep(const QString& title, const QString& text, int after = -1);
    void editStep(int step);
    void setStepText(int step, const QString& title, const QString& text);
    void moveStep(int from, int to);
    void removeStep(int step);
    /// Replaces the story by the one proposed from the verdict shown (a new revision).
    void proposeStory();

    /// Presentation mode (see above). present() starts at the pane's current step, or the first.
    void present();
    void stopPresenting();
    bool isPresenting() const { return m_presenting; }
    void next();
    void previous();
    /// Back to the presented step's state, after the presenter moved away from it.
    void returnToStep();
    /// The step presented (-1: none) and how many there are (the story's, or the trail's without a story).
    int presentedStep() const { return m_presented; }
    int presentedCount() const;
    /// Whether the presented steps are the evidence trail (the case has no story).
    bool presentingTrail() const { return m_trail; }
    views::PresentationCaption* caption() const { return m_caption; }
    /// How long a step's move of the time window takes (ms; 0 jumps). Default 350.
    void setAnimationMs(int ms) { m_animationMs = ms; }

    QAction* addAction() const { return m_addAction; }
    QAction* presentAction() const { return m_presentAction; }
    QAction* proposeAction() const { return m_proposeAction; }

Q_SIGNALS:
    /// The views show step `step` (of the story, or of the trail while presenting it).
    void stepShown(int step);
    void presentationChanged(bool presenting);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void showStory();
    void save(std::vector<core::StoryStep> steps, const QString& change);
    /// Saves the story with a user step of `state` inserted after step `after` (-1: at the end).
    void insertStep(const QString& title, const QString& text, const core::StoryViewState& state, int after);
    bool canEdit();
    QString describeState(const core::StoryViewState& state) const;
    /// The trail as presentation steps (no story): one per trail item.
    std::vector<core::StoryStep> trailSteps(std::vector<int>& events) const;
    void showPresented(bool animate);
    /// While presenting: the verdict gets the height its text needs in the larger type, the timeline the rest.
    void fitPresentationSplit();
    void markDetached();
    QDockWidget* dock(const std::string& name) const;

    QPointer<MainWindow> m_window;
    CaseController* m_cases;
    views::StoryPane* m_pane;
    views::PresentationCaption* m_caption = nullptr;
    QToolBar* m_captionBar = nullptr;
    QAction* m_addAction = nullptr;
    QAction* m_presentAction = nullptr;
    QAction* m_proposeAction = nullptr;
    int m_animationMs = 350;
    bool m_applying = false; ///< applyState in progress: the views' signals are the step's own
    std::pair<qint64, qint64> m_target { INT64_MIN, INT64_MIN }; ///< the window the step moved to
    int m_pendingStep = -1; ///< the step to make current once the story saved arrives

    // Presentation.
    bool m_presenting = false;
    bool m_trail = false;
    int m_presented = -1;
    std::vector<core::StoryStep> m_trailSteps;
    std::vector<int> m_trailEvents;
    struct Saved
    {
        Qt::WindowStates states;
        QPalette palette;
        QFont font;
        QFont evidenceFont; ///< the evidence viewer's own (fixed-pitch) font, which the window's does not reach
        QList<int> workbench; ///< the verdict/timeline splitter's sizes
        bool menuBar = true;
        bool statusBar = true;
    };
    std::optional<Saved> m_saved;
};

} // namespace faultline::app
