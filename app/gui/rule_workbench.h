// SPDX-License-Identifier: Apache-2.0
// The rule editor in the workbench: the Rule Editor dock (views::RuleEditor) and the Case Library dock
// (views::LibraryResultsPane), the Rules menu's editing actions, and their wiring to the use cases through a
// RuleEditController.
//
// * Rules ▸ Edit Rule (F2; also the Rules pane's context menu) opens the rule selected in the Rules pane: a rule of a
//   pack layer in its own file, a bundled rule as an override in the user's pack directory.
// * Rules ▸ New Rule from Selected Line (Ctrl+Shift+N; also the evidence viewer's context menu) drafts an extractor
//   from the record at the evidence viewer's selected line and runs it on the case at once.
// * Rules ▸ Run on This Case (Ctrl+R) re-runs the engine on the open case's evidence with the edited catalog: the
//   verdict diff against the saved run, the rule's trace and its near misses.
// * Rules ▸ Save to User Pack (Ctrl+Shift+S) writes the pack file (version bumped) and reloads the catalog.
// * Rules ▸ Regression over a Case Library… and Must-Not-Fire Sweep… run the edited catalog over a folder of cases;
//   each case listed opens in one click.
//
// Thread affinity: UI thread.
#pragma once

#include "app/usecases/rule_edit.h"

#include <QObject>
#include <QString>

#include <optional>

class QAction;
class QDockWidget;
class QMenu;

namespace faultline::views {
class LibraryResultsPane;
class RuleEditor;
} // namespace faultline::views

namespace faultline::app {

class MainWindow;
class RuleEditController;

class RuleWorkbench : public QObject
{
    Q_OBJECT
public:
    /// Adds the docks to `window` and the actions to `rulesMenu`.
    RuleWorkbench(MainWindow* window, QMenu* rulesMenu);

    views::RuleEditor* editor() const { return m_editor; }
    views::LibraryResultsPane* library() const { return m_library; }
    RuleEditController* controller() const { return m_controller; }
    QDockWidget* editorDock() const { return m_editorDock; }
    QDockWidget* libraryDock() const { return m_libraryDock; }
    QAction* runAction() const { return m_runAction; }
    QAction* saveAction() const { return m_saveAction; }

    /// Opens rule `id` of the catalog in use (the Rules pane's current rule when empty). False, with the reason in the
    /// status bar, when there is none.
    bool editRule(const QString& id = {});
    /// Drafts a rule from line `line` of the evidence file `path` (the evidence viewer's selected line when empty).
    bool newRuleFromLine(const QString& path = {}, quint64 line = 0);
    void runOnCase();
    void save();
    /// The regression and the must-not-fire sweep over the library in `dir` (asked for when empty).
    void regress(const QString& dir = {});
    void sweep(const QString& dir = {});
    /// What the last check, run, save or library job said (the editor's note, the status bar).
    QString lastMessage() const { return m_message; }

Q_SIGNALS:
    void checked();
    void ran();
    void saved();
    void libraryFinished();
    void failed(const QString& message);

private:
    usecases::RuleCheckRequest request() const;
    QString chooseLibrary(const QString& title);
    void openDocument(const usecases::RuleDocument& doc, bool runAfterCheck);
    void tell(const QString& message);
    void showLibrary();
    void updateActions();

    MainWindow* m_window;
    RuleEditController* m_controller;
    views::RuleEditor* m_editor;
    views::LibraryResultsPane* m_library;
    QDockWidget* m_editorDock;
    QDockWidget* m_libraryDock;
    QAction* m_editAction = nullptr;
    QAction* m_draftAction = nullptr;
    QAction* m_runAction = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_regressAction = nullptr;
    QAction* m_sweepAction = nullptr;
    std::optional<usecases::RuleDocument> m_document;
    bool m_runWhenValid = false; ///< a drafted rule runs on the case as soon as its check passes
    QString m_pendingFile; ///< a case opened from the library: the line to show once it is shown
    quint64 m_pendingLine = 0;
    QString m_message;
};

} // namespace faultline::app
