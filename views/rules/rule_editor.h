// SPDX-License-Identifier: Apache-2.0
// The rule editor: one rule's YAML (its section key and its entry) with highlighting, validated as you type, and what
// running it on the open case gave.
//
// * RuleTextEdit is the text: line numbers, and each diagnostic drawn where it lies (a wavy underline from its
//   column, a marker in the gutter, its message in a tooltip).
// * RuleEditor adds the rule's name and where it is saved, the check's status ("valid · 5 tests pass", "2 errors"),
//   the actions (Run on This Case, Save to User Pack, Must-Not-Fire Sweep, Regression), and below the text the results:
//   the problems (click one to go to it), the verdict diff against the saved run, the rule's trace (the records it
//   matched and what became of each; double-click shows one in the evidence) and its near misses.
//
// The editor validates nothing itself: after a pause in typing it emits textEdited with a generation, and the app
// hands back what the catalog builder found (setCheck); a check of an older generation is dropped. Runs, saves and
// sweeps are requested with signals too.
//
// Thread affinity: UI thread.
#pragma once

#include "core/analysis/rule_trace.h"

#include <QPlainTextEdit>
#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>

#include <optional>

class QLabel;
class QPushButton;
class QTabWidget;
class QTextBrowser;
class QTimer;
class QTreeWidget;
class QTreeWidgetItem;

namespace faultline::views {

class RuleHighlighter;

/// A problem the catalog builder found, as the editor shows it.
struct RuleEditorDiagnostic
{
    int line = 0; ///< 1-based line in the document; 0: elsewhere (another rule, another layer)
    int column = 0; ///< 1-based
    int length = 0; ///< characters marked from the column; 0: to the end of the line
    bool error = true; ///< false: a warning
    QString code; ///< "bad-regex", "yaml-syntax", "rule-test-failed", ...
    QString ruleId;
    QString message;
    QString where; ///< "file:line:col" as the builder located it
};

/// What one check of the document found.
struct RuleEditorCheck
{
    quint64 generation = 0; ///< the textEdited generation it answers
    bool ok = false; ///< the document gives a catalog (its tests may still fail)
    QString ruleId; ///< the document's rule ("" when it holds none)
    QVector<RuleEditorDiagnostic> diagnostics;
    int testsRun = 0;
    int testsFailed = 0;
    qint64 ms = 0;
};

/// What running the edited rules on the open case gave.
struct RuleEditorRun
{
    QString ruleId;
    QString baseline; ///< what the verdict is compared with: "run 2", "the shown verdict"
    QString baselineNote; ///< a caveat about the baseline (it was made with a case's stored rules)
    bool same = true;
    QStringList changes; ///< one line per difference, "outcome: a → b"
    QString before; ///< the verdicts in one line each
    QString after;
    std::optional<core::RuleTrace> trace; ///< the rule's trace
    QString traceNote; ///< why there is none
    qint64 ms = 0; ///< the engine
    qint64 records = 0; ///< records it ran over
};

class RuleTextEdit : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit RuleTextEdit(QWidget* parent = nullptr);

    void setDiagnostics(const QVector<RuleEditorDiagnostic>& diagnostics);
    const QVector<RuleEditorDiagnostic>& diagnostics() const { return m_diagnostics; }
    /// The diagnostics marked at a position of the text (line and column 1-based).
    QVector<RuleEditorDiagnostic> diagnosticsAt(int line, int column) const;
    /// Puts the cursor at line:column (1-based) and shows it.
    void goTo(int line, int column);
    int gutterWidth() const;
    void paintGutter(QPaintEvent* event);
    RuleHighlighter* highlighter() const { return m_highlighter; }

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void updateMarks();
    QWidget* m_gutter;
    RuleHighlighter* m_highlighter;
    QVector<RuleEditorDiagnostic> m_diagnostics;
};

class RuleEditor : public QWidget
{
    Q_OBJECT
public:
    explicit RuleEditor(QWidget* parent = nullptr);

    /// Opens a document: its text, the rule's name, where it comes from and where Save writes it. Emits textEdited at
    /// once (a check follows).
    void setDocument(const QString& text, const QString& ruleId, const QString& from, const QString& savedTo);
    /// Replaces the text after a save (its new version), keeping the cursor's line.
    void replaceText(const QString& text, const QString& from);
    QString text() const;
    bool hasDocument() const { return m_hasDocument; }
    /// The rule the document holds (the last check's; before any, the one it was opened with).
    QString ruleId() const { return m_ruleId; }
    quint64 generation() const { return m_generation; }

    /// A check's result; one of an older generation than the text's is dropped (returns false).
    bool setCheck(const RuleEditorCheck& check);
    const RuleEditorCheck& lastCheck() const { return m_check; }
    /// A run's result (the verdict diff, the trace, the near misses); shown in its tab.
    void setRun(const RuleEditorRun& run);
    void setRunFailed(const QString& message);
    /// Work runs (a run, a save, a sweep): its progress, and Cancel.
    void setBusy(bool busy, const QString& what = {});
    void setProgress(const QString& what);
    /// A line under the status: what the last save or action did.
    void setNote(const QString& note);
    /// Run, Save and the library actions are possible (an analysis is open; the check found no errors for Save).
    void setRunnable(bool canRun);

    /// Whether a diff's lines change the verdict itself (outcome, cause, symptoms), not only its count of events or
    /// its inputs (a new context rule).
    static bool changesVerdict(const QStringList& changes);

    RuleTextEdit* textEdit() const { return m_edit; }
    QLabel* title() const { return m_title; }
    QLabel* status() const { return m_status; }
    QLabel* note() const { return m_note; }
    QTabWidget* results() const { return m_tabs; }
    QTreeWidget* problems() const { return m_problems; }
    QTextBrowser* diffView() const { return m_diff; }
    QTreeWidget* traceView() const { return m_trace; }
    QTreeWidget* missesView() const { return m_misses; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* saveButton() const { return m_save; }

Q_SIGNALS:
    /// The text changed and typing paused (or a document was opened): check it.
    void textEdited(quint64 generation, const QString& text);
    void runRequested();
    void saveRequested();
    void sweepRequested();
    void regressionRequested();
    void cancelRequested();
    /// The user asked to see a record of the trace or of the near misses in the evidence.
    void recordActivated(const QString& path, quint64 line, qint64 timeNs);

private:
    void emitEdited();
    void updateActions();
    void showProblem(QTreeWidgetItem* item);

    QLabel* m_title;
    QLabel* m_status;
    QLabel* m_note;
    RuleTextEdit* m_edit;
    QTabWidget* m_tabs;
    QTreeWidget* m_problems;
    QTextBrowser* m_diff;
    QTreeWidget* m_trace;
    QTreeWidget* m_misses;
    QPushButton* m_run;
    QPushButton* m_save;
    QPushButton* m_sweep;
    QPushButton* m_regress;
    QPushButton* m_cancel;
    QLabel* m_progress;
    QTimer* m_debounce;
    quint64 m_generation = 0;
    RuleEditorCheck m_check;
    QString m_ruleId;
    bool m_hasDocument = false;
    bool m_canRun = false;
    bool m_busy = false;
    bool m_checking = false;
};

} // namespace faultline::views
