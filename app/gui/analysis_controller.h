// SPDX-License-Identifier: Apache-2.0
// Runs the use cases (app/usecases) off the UI thread (QtConcurrent "run with promise"), reports progress, can be
// cancelled, and drops results of superseded runs (generation counter, as hotspot's JobTracker). The same worker
// opens case files (re-importing their stored evidence), saves an analysis as a new case, and adds a run to one.
// Analyses use the catalog they are given (the workbench's, loaded by CatalogController), waiting for it in the worker
// while it loads; without one, each loads the catalog in its rules directory. Thread affinity: the object lives on
// the UI thread; signals are emitted there.
#pragma once

#include "core/rules/rule_catalog.h"
#include "views/models/analysis_result.h"

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QPromise>
#include <QString>
#include <QStringList>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>

namespace faultline::app {

class AnalysisController : public QObject
{
    Q_OBJECT
public:
    explicit AnalysisController(QString rulesDir, QObject* parent = nullptr);
    ~AnalysisController() override;

    /// The catalog later analyses use (a load that may still run) and the sources it reads. A catalog with errors
    /// fails a bundle's analysis and a re-run with current rules with those errors; a case still opens with its own
    /// stored rules (one too old to hold them is analysed with `sources`, loaded then).
    void setCatalog(QFuture<core::CatalogLoadResult> catalog, core::CatalogSources sources);

    void start(const QStringList& bundlePaths);
    /// Opens a case: its stored evidence is re-imported and analysed with the rules of its latest run (stored in the
    /// case), or with the workbench's current rules when `currentRules` is set or the case lacks them; the result
    /// says whether it reproduces the case's latest run.
    void openCase(const QString& casePath, bool currentRules = false);
    /// Saves `result` (an analysed bundle) as a new case file; `caseSaved` or `caseFailed` follows.
    void saveCase(const QString& casePath, const faultline::views::AnalysisResult& result);
    /// Adds `result`'s verdict to the case it came from as a new run.
    void addRun(const faultline::views::AnalysisResult& result);
    void cancel();
    bool isRunning() const;

Q_SIGNALS:
    void progressChanged(int percent, const QString& what);
    void analysisFinished(const faultline::views::AnalysisResult& result);
    /// openCase: the case's latest stored verdict, read before the re-analysis starts.
    void storedVerdictReady(const faultline::views::StoredVerdictSummary& stored);
    void analysisFailed(const QString& message);
    void caseSaved(const QString& casePath, const QString& summary);
    void caseFailed(const QString& message);

private:
    struct Outcome;
    /// The catalog a run is given: loaded (or failed), or only where to load it from.
    struct Rules
    {
        core::CatalogSources sources;
        std::shared_ptr<const core::RuleCatalog> catalog; ///< null: load `sources` (no catalog was set)
        QString error; ///< the set catalog has errors: their text
    };
    void launch(std::function<void(QPromise<Outcome>&, const Rules&, std::atomic_bool&, quint64)> work);
    void runCaseWrite(std::function<QString(QString&)> work);

    struct Outcome
    {
        views::AnalysisResult result;
        QString error;
    };

    QString m_rulesDir;
    QFuture<core::CatalogLoadResult> m_catalog; ///< invalid: none set
    core::CatalogSources m_sources;
    QThreadPool m_pool;
    QPointer<QFutureWatcher<Outcome>> m_watcher; ///< null once the finished watcher is deleted
    std::shared_ptr<std::atomic_bool> m_cancel;
    quint64 m_generation = 0;
};

} // namespace faultline::app

Q_DECLARE_METATYPE(faultline::views::AnalysisResult)
Q_DECLARE_METATYPE(faultline::views::StoredVerdictSummary)
