// SPDX-License-Identifier: Apache-2.0
// The workbench main window. In this first version it opens a bundle or a case file and shows its verdict, saves an
// analysis as a case and adds runs to an open case; the linked views (timeline, provenance, charts) arrive with the
// Workbench issue.
#pragma once

#include "views/models/analysis_result.h"

#include <QMainWindow>

class QAction;
class QProgressBar;
class QPushButton;
class QLabel;

namespace faultline::views {
class VerdictView;
}

namespace faultline::app {

class AnalysisController;
class CasePanel;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(const QString& rulesDir, QWidget* parent = nullptr);

    void openBundle(const QString& path);
    CasePanel* casePanel() const { return m_casePanel; }
    /// Opens a case file: its stored evidence is re-analysed off the UI thread (with its latest run's own rules, or
    /// the current ones) and compared with that run.
    void openCase(const QString& path, bool currentRules = false);
    /// Saves the shown analysis as a new case (off the UI thread).
    void saveCase(const QString& path);

Q_SIGNALS:
    void resultShown();

private:
    void chooseBundle();
    void chooseCase();
    void chooseSaveCase();
    void updateActions();
    void showResult(const views::AnalysisResult& result);
    void showFailure(const QString& message);

    AnalysisController* m_controller;
    views::VerdictView* m_view;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QLabel* m_status;
    QString m_bundle;
    views::AnalysisResult m_result;
    CasePanel* m_casePanel = nullptr;
    QAction* m_saveCase = nullptr;
    QAction* m_addRun = nullptr;
    QAction* m_rerun = nullptr;
};

} // namespace faultline::app
