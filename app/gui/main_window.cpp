// SPDX-License-Identifier: Apache-2.0
#include "app/gui/main_window.h"

#include "app/gui/analysis_controller.h"
#include "views/widgets/verdict_view.h"

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>

namespace faultline::app {

MainWindow::MainWindow(const QString& rulesDir, QWidget* parent)
    : QMainWindow(parent)
    , m_controller(new AnalysisController(rulesDir, this))
    , m_view(new views::VerdictView(this))
    , m_progress(new QProgressBar(this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_status(new QLabel(this))
{
    setWindowTitle(tr("Faultline"));
    setCentralWidget(m_view);
    m_view->clear(tr("Open an evidence bundle (File ▸ Open Bundle…)"));
    auto* file = menuBar()->addMenu(tr("&File"));
    auto* open = file->addAction(tr("&Open Bundle…"), this, &MainWindow::chooseBundle);
    open->setShortcut(QKeySequence::Open);
    auto* quit = file->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    connect(m_cancel, &QPushButton::clicked, m_controller, &AnalysisController::cancel);
    connect(m_controller, &AnalysisController::progressChanged, this, [this](int percent, const QString& what) {
        m_progress->setValue(percent);
        m_status->setText(what);
    });
    connect(m_controller, &AnalysisController::analysisFinished, this, &MainWindow::showResult);
    connect(m_controller, &AnalysisController::analysisFailed, this, &MainWindow::showFailure);
    resize(1280, 820);
}

void MainWindow::chooseBundle()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Evidence Bundle"), m_bundle);
    if (!dir.isEmpty())
        openBundle(dir);
}

void MainWindow::openBundle(const QString& path)
{
    m_bundle = path;
    setWindowTitle(tr("%1 — Faultline").arg(QFileInfo(path).fileName()));
    m_view->clear(tr("Analysing %1…").arg(path));
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_cancel->setVisible(true);
    m_controller->start({ path });
}

void MainWindow::showResult(const views::AnalysisResult& result)
{
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    m_view->setResult(result);
    const auto& v = *result.verdict;
    m_status->setText(tr("%1 sources, %2 records, %3 events · catalog %4 %5")
                          .arg(result.evidence->sources.size())
                          .arg(result.evidence->observations.size())
                          .arg(v.events.size())
                          .arg(QString::fromStdString(v.catalogName), QString::fromStdString(v.catalogVersion)));
    Q_EMIT resultShown();
}

void MainWindow::showFailure(const QString& message)
{
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    m_view->clear(message.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")));
    m_status->setText(message.section(QLatin1Char('\n'), 0, 0));
    Q_EMIT resultShown();
}

} // namespace faultline::app
