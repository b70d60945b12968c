// SPDX-License-Identifier: Apache-2.0
#include "app/gui/analysis_controller.h"

#include "app/usecases/use_cases.h"

#include <QPromise>
#include <QtConcurrent>

namespace faultline::app {

namespace {

/// A use case's progress reported through the promise, its cancellation read from the flag.
template <class Promise> usecases::Task taskFor(Promise& promise, const std::atomic_bool& cancel)
{
    usecases::Task task;
    task.cancel = &cancel;
    task.progress = [&promise](int percent, const std::string& step) {
        promise.setProgressValueAndText(percent, QString::fromStdString(step));
    };
    return task;
}

} // namespace

AnalysisController::AnalysisController(QString rulesDir, QObject* parent)
    : QObject(parent)
    , m_rulesDir(std::move(rulesDir))
{
    m_pool.setMaxThreadCount(1);
    qRegisterMetaType<views::AnalysisResult>();
    qRegisterMetaType<views::StoredVerdictSummary>();
}

void AnalysisController::setCatalog(QFuture<core::CatalogLoadResult> catalog, core::CatalogSources sources)
{
    m_catalog = std::move(catalog);
    m_sources = std::move(sources);
}

AnalysisController::~AnalysisController()
{
    cancel();
    m_pool.waitForDone();
}

bool AnalysisController::isRunning() const
{
    return m_watcher && m_watcher->isRunning();
}

void AnalysisController::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
    if (m_watcher)
        m_watcher->cancel();
}

void AnalysisController::launch(std::function<void(QPromise<Outcome>&, const Rules&, std::atomic_bool&, quint64)> work)
{
    cancel();
    const quint64 generation = ++m_generation;
    m_cancel = std::make_shared<std::atomic_bool>(false);
    const QFuture<core::CatalogLoadResult> catalog = m_catalog;
    const core::CatalogSources sources =
        catalog.isValid() ? m_sources : core::CatalogSources { m_rulesDir.toStdString(), {}, {} };
    auto cancelFlag = m_cancel;

    auto* watcher = new QFutureWatcher<Outcome>(this);
    if (m_watcher)
        m_watcher->disconnect(this);
    m_watcher = watcher;
    connect(watcher, &QFutureWatcher<Outcome>::progressValueChanged, this, [this, watcher, generation](int value) {
        if (generation == m_generation)
            Q_EMIT progressChanged(value, watcher->progressText());
    });
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_generation)
            return; // superseded by a newer run
        if (watcher->isCanceled() || watcher->future().resultCount() == 0) {
            Q_EMIT analysisFailed(tr("Analysis cancelled"));
            return;
        }
        const Outcome out = watcher->result();
        if (!out.error.isEmpty())
            Q_EMIT analysisFailed(out.error);
        else
            Q_EMIT analysisFinished(out.result);
    });
    QFuture<Outcome> future =
        QtConcurrent::run(&m_pool, [work, catalog, sources, cancelFlag, generation](QPromise<Outcome>& promise) {
            promise.setProgressRange(0, 100);
            Rules rules;
            rules.sources = sources;
            if (catalog.isValid()) {
                // The workbench's catalog, waited for while it loads (at start); never loaded again here.
                promise.setProgressValueAndText(1, tr("Loading rules"));
                const core::CatalogLoadResult loaded = catalog.result();
                rules.catalog = loaded.catalog;
                if (!loaded.ok())
                    rules.error = QString::fromStdString(usecases::Failure {
                        usecases::Exit::Catalog, usecases::catalogErrorsMessage(sources), loaded.diagnostics }
                                                             .text());
            }
            work(promise, rules, *cancelFlag, generation);
        });
    watcher->setFuture(future);
}

void AnalysisController::start(const QStringList& bundlePaths)
{
    usecases::BundleRequest request;
    for (const auto& p : bundlePaths)
        request.paths.push_back(p.toStdString());
    launch([request](QPromise<Outcome>& promise, const Rules& rules, std::atomic_bool& cancel, quint64) mutable {
        if (!rules.error.isEmpty()) {
            promise.addResult(Outcome { {}, rules.error });
            return;
        }
        request.rulesDir = rules.sources.root;
        request.packDirs = rules.sources.packDirs;
        request.catalog = rules.catalog;
        auto result = usecases::analyseBundle(request, taskFor(promise, cancel));
        Outcome out;
        if (result.ok())
            out.result = std::move(result.value->analysis);
        else if (result.failure.code == usecases::Exit::Cancelled)
            return; // no result: reported as cancelled
        else
            out.error = QString::fromStdString(result.failure.text());
        promise.addResult(out);
    });
}

void AnalysisController::openCase(const QString& casePath, bool currentRules)
{
    usecases::ReproduceRequest request;
    request.casePath = casePath.toStdString();
    request.rules = currentRules ? usecases::Rules::Current : usecases::Rules::Stored;
    // The worker ends before the controller is destroyed (the destructor waits for the pool), and a queued call to a
    // destroyed context object is dropped, so `self` may be used as the context from the worker.
    AnalysisController* self = this;
    launch([request, self](
               QPromise<Outcome>& promise, const Rules& rules, std::atomic_bool& cancel, quint64 generation) mutable {
        // The stored verdict first: it is read in a moment, while reproducing the case can take a while.
        if (const auto stored = usecases::storedVerdict(request.casePath); stored.ok()) {
            const auto& run = stored.value->run;
            views::StoredVerdictSummary s { request.casePath, run.id, stored.value->runs, run.createdAt, run.outcome,
                run.domain, run.subdomain, run.catalogName + " " + run.catalogVersion, stored.value->text };
            QMetaObject::invokeMethod(
                self,
                [self, generation, s] {
                    if (self->m_generation == generation)
                        Q_EMIT self->storedVerdictReady(s);
                },
                Qt::QueuedConnection);
        }
        if (cancel.load())
            return;
        // The current rules are the workbench's catalog; a case reproduced with its own stored rules needs them only
        // when it lacks those.
        if (request.rules == usecases::Rules::Current && !rules.error.isEmpty()) {
            promise.addResult(Outcome { {}, rules.error });
            return;
        }
        request.currentRulesDir = rules.sources.root;
        request.currentPackDirs = rules.sources.packDirs;
        request.currentCatalog = rules.catalog;
        auto result = usecases::reproduceCase(request, taskFor(promise, cancel));
        Outcome out;
        if (result.ok())
            out.result = std::move(*result.value);
        else if (result.failure.code == usecases::Exit::Cancelled)
            return;
        else
            out.error = QString::fromStdString(result.failure.text());
        promise.addResult(out);
    });
}

void AnalysisController::runCaseWrite(std::function<QString(QString&)> work)
{
    auto* watcher = new QFutureWatcher<std::pair<QString, QString>>(this);
    connect(watcher, &QFutureWatcher<std::pair<QString, QString>>::finished, this, [this, watcher] {
        watcher->deleteLater();
        const auto [error, summary] = watcher->result();
        if (error.isEmpty())
            Q_EMIT caseSaved(summary.section(QLatin1Char('\t'), 0, 0), summary.section(QLatin1Char('\t'), 1));
        else
            Q_EMIT caseFailed(error);
    });
    watcher->setFuture(QtConcurrent::run(&m_pool, [work] {
        QString summary;
        QString error = work(summary);
        return std::make_pair(error, summary);
    }));
}

void AnalysisController::saveCase(const QString& casePath, const views::AnalysisResult& result)
{
    const std::string path = casePath.toStdString();
    runCaseWrite([path, result](QString& summary) -> QString {
        const auto saved = usecases::saveCase(path, result);
        if (!saved.ok())
            return QString::fromStdString(saved.failure.text());
        summary = QString::fromStdString(path) + QLatin1Char('\t') + tr("case saved with run %1").arg(saved.value->run);
        return {};
    });
}

void AnalysisController::addRun(const views::AnalysisResult& result)
{
    runCaseWrite([result](QString& summary) -> QString {
        const auto added = usecases::addRun(result);
        if (!added.ok())
            return QString::fromStdString(added.failure.text());
        const auto& run = *added.value;
        QString text = tr("run %1 added").arg(run.id);
        if (run.diff)
            text += run.diff->same
                ? tr(" (same verdict as run %1)").arg(run.diff->from)
                : tr(" (%1 change(s) from run %2)").arg(run.diff->changes.size()).arg(run.diff->from);
        summary = QString::fromStdString(result.casePath) + QLatin1Char('\t') + text;
        return {};
    });
}

} // namespace faultline::app
