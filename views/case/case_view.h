// SPDX-License-Identifier: Apache-2.0
// The case view: a saved case's history beside its verdict. It shows a core::CaseHistory (the runs with how each
// differs from the one before, the expected verdict and whether the latest run meets it, the narrative, the
// annotations, the case's notes and problems), or an empty, a loading or an error state. It never reads or writes
// the case: its buttons ask for a note, a narrative or the expectation (prompting with a dialog first) and a click on
// a run asks for that run's stored verdict, all through signals the app answers.
// Thread affinity: UI thread.
#pragma once

#include "core/model/case_records.h"

#include <QString>
#include <QWidget>

#include <functional>
#include <optional>

class QLabel;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QTextBrowser;

namespace faultline::views {

class CaseView : public QWidget
{
    Q_OBJECT
public:
    enum class State { Empty, Loading, Shown, Error };
    Q_ENUM(State)

    explicit CaseView(QWidget* parent = nullptr);

    /// No case open: says how to make one; the buttons are off.
    void showEmpty();
    /// The case at `path` is being read. A history already shown for the same case stays in view, marked as being
    /// updated, so that a refresh after a note does not blank the view; the buttons are off until it arrives.
    void showLoading(const QString& path);
    void setHistory(const core::CaseHistory& history);
    /// The case at `path` cannot be read; `message` is the reason (first line) and its located details.
    void showError(const QString& path, const QString& message);

    State state() const { return m_state; }
    /// The case shown, loading or failing ("" when none).
    const QString& casePath() const { return m_path; }
    /// The history shown (also while an update of it loads).
    const std::optional<core::CaseHistory>& history() const { return m_history; }
    /// The view's text as shown (for tests and copy/paste).
    QString text() const;

Q_SIGNALS:
    /// The user wrote a note on the case.
    void noteRequested(const QString& text);
    /// The user wrote the case's narrative (it replaces the current one).
    void narrativeRequested(const QString& text);
    /// The user marked the latest run's verdict as the expected one, saying why.
    void expectRequested(const QString& note);
    /// The user asked for run `run`'s stored verdict.
    void runRequested(qint64 run);

protected:
    void changeEvent(QEvent* event) override;

private:
    /// Opens a non-blocking input dialog; `accepted` gets the text the user confirmed.
    void prompt(const QString& title, const QString& label, bool multiLine, const QString& initial,
        std::function<void(const QString&)> accepted);
    void showMessage(State state, const QString& title, const QString& html);
    void render();
    void updateButtons();

    State m_state = State::Empty;
    QString m_path;
    std::optional<core::CaseHistory> m_history;
    bool m_updating = false; ///< a newer history of the shown case is loading
    QLabel* m_title;
    QLabel* m_subtitle;
    QStackedWidget* m_pages;
    QLabel* m_message;
    QProgressBar* m_busy;
    QTextBrowser* m_browser;
    QPushButton* m_note;
    QPushButton* m_narrative;
    QPushButton* m_expect;
};

} // namespace faultline::views
