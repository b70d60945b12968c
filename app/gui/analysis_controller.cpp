// SPDX-License-Identifier: Apache-2.0
#include "app/gui/analysis_controller.h"

#include "core/analysis/analyzer.h"
#include "importers/bundle_loader.h"

#include <QPromise>
#include <QtConcurrent>

namespace faultline::app {

AnalysisController::AnalysisController(QString rulesDir, QObject* parent)
    : QObject(parent)
    , m_rulesDir(std::move(rulesDir))
{
    m_pool.setMaxThreadCount(1);
    qRegisterMetaType<views::AnalysisResult>();
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

void AnalysisController::start(const QStringList& bundlePaths)
{
    cancel();
    const quint64 generation = ++m_generation;
    m_cancel = std::make_shared<std::atomic_bool>(false);
    std::vector<std::string> paths;
    for (const auto& p : bundlePaths)
        paths.push_back(p.toStdString());
    const std::string rules = m_rulesDir.toStdString();
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
    QFuture<Outcome> future = QtConcurrent::run(&m_pool, [paths, rules, cancelFlag](QPromise<Outcome>& promise) {
        promise.setProgressRange(0, 100);
        promise.setProgressValueAndText(2, QObject::tr("Loading rules"));
        Outcome out;
        auto catalog = core::RuleCatalog::load(rules);
        if (!catalog.ok()) {
            out.error = QObject::tr("The rule catalog has errors:\n%1").arg(QString::fromStdString(catalog.asText()));
            promise.addResult(out);
            return;
        }
        importers::LoadOptions load;
        load.cancel = cancelFlag.get();
        load.progress = [&promise](std::size_t done, std::size_t total, const std::string&) {
            if (total > 0)
                promise.setProgressValueAndText(
                    5 + static_cast<int>(70 * done / total), QObject::tr("Importing evidence"));
        };
        promise.setProgressValueAndText(5, QObject::tr("Importing evidence"));
        auto evidence = std::make_shared<core::EvidenceSet>(importers::loadBundle(paths, load));
        if (promise.isCanceled() || cancelFlag->load())
            return;
        promise.setProgressValueAndText(75, QObject::tr("Correlating"));
        core::AnalysisOptions opts;
        opts.cancel = cancelFlag.get();
        auto verdict = std::make_shared<core::Verdict>(core::analyze(*evidence, *catalog.catalog, opts));
        if (promise.isCanceled() || cancelFlag->load())
            return;
        if (evidence->sources.empty())
            out.error = QObject::tr("No readable evidence in %1")
                            .arg(QString::fromStdString(paths.empty() ? "" : paths.front()));
        out.result.evidence = std::move(evidence);
        out.result.verdict = std::move(verdict);
        promise.setProgressValueAndText(100, QObject::tr("Done"));
        promise.addResult(out);
    });
    watcher->setFuture(future);
}

} // namespace faultline::app
