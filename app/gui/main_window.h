// SPDX-License-Identifier: Apache-2.0
// The workbench main window. In this first version it opens a bundle and shows its verdict; the linked views
// (timeline, provenance, charts) arrive with the Workbench issue.
#pragma once

#include "views/models/analysis_result.h"

#include <QMainWindow>

class QProgressBar;
class QPushButton;
class QLabel;

namespace faultline::views {
class VerdictView;
}

namespace faultline::app {

class AnalysisController;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(const QString& rulesDir, QWidget* parent = nullptr);

    void openBundle(const QString& path);

Q_SIGNALS:
    void resultShown();

private:
    void chooseBundle();
    void showResult(const views::AnalysisResult& result);
    void showFailure(const QString& message);

    AnalysisController* m_controller;
    views::VerdictView* m_view;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QLabel* m_status;
    QString m_bundle;
};

} // namespace faultline::app
