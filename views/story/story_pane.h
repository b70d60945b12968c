// SPDX-License-Identifier: Apache-2.0
// The story pane: a case's story as an ordered list of steps (number, title, time window, what it selects, and
// whether its event is still found in the analysis shown), with the actions that edit it (add the current view as a
// step, edit, move up or down, delete, propose a story from the verdict) and one that presents it. It never reads or
// writes the case: every request goes out as a signal, and the app answers by showing the story again.
// Keys in the list: Enter goes to the step, Alt+Up/Alt+Down move it, Delete deletes it (after a confirmation).
// Thread affinity: UI thread.
#pragma once

#include <QString>
#include <QWidget>

#include <vector>

class QLabel;
class QListWidget;
class QToolButton;

namespace faultline::views {

/// A step as the pane lists it.
struct StoryStepRow
{
    QString title;
    QString window; ///< "10:14:02 – 10:15:30 UTC" ("" when the step keeps the verdict's window)
    QString selects; ///< "Xid 149 on node-02" ("" when it selects nothing)
    QString text;
    bool proposed = false; ///< built from the verdict, not yet edited
    bool matched = true; ///< false: its event is no longer found in the analysis shown
    QString reason; ///< why not (unmatched)
};

class StoryPane : public QWidget
{
    Q_OBJECT
public:
    explicit StoryPane(QWidget* parent = nullptr);

    /// Lists the steps of revision `revision`; `editable` false greys the editing actions out (a read-only case),
    /// `why` saying why.
    void setSteps(std::vector<StoryStepRow> steps, qint64 revision, bool editable, const QString& why = {});
    /// No list: `message` says why (no case is open, the case is loading).
    void showMessage(const QString& message);
    /// The current step (-1: none).
    int currentStep() const;
    /// Makes step `step` current without emitting stepActivated.
    void setCurrentStep(int step);
    int stepCount() const { return static_cast<int>(m_steps.size()); }
    const std::vector<StoryStepRow>& steps() const { return m_steps; }
    qint64 revision() const { return m_revision; }
    QListWidget* list() const { return m_list; }

Q_SIGNALS:
    /// The user chose step `step` (a click, Enter): the views should move to it.
    void stepActivated(int step);
    void addRequested();
    void editRequested(int step);
    /// Move step `from` to position `to`.
    void moveRequested(int from, int to);
    /// The user confirmed deleting step `step`.
    void removeRequested(int step);
    void proposeRequested();
    void presentRequested();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void updateButtons();
    void confirmRemove(int step);

    QLabel* m_header;
    QListWidget* m_list;
    QLabel* m_message;
    QToolButton* m_add;
    QToolButton* m_edit;
    QToolButton* m_up;
    QToolButton* m_down;
    QToolButton* m_remove;
    QToolButton* m_propose;
    QToolButton* m_present;
    std::vector<StoryStepRow> m_steps;
    qint64 m_revision = 0;
    bool m_editable = false;
    bool m_quiet = false; ///< setCurrentStep in progress: no stepActivated
};

} // namespace faultline::views
