// SPDX-License-Identifier: Apache-2.0
#include "app/gui/analysis_controller.h"

#include "core/analysis/analyzer.h"
#include "core/casefile/case_file.h"
#include "core/report/verdict_report.h"
#include "importers/bundle_loader.h"

#include <QPromise>
#include <QTemporaryDir>
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

void AnalysisController::launch(std::function<void(QPromise<Outcome>&, const std::string&, std::atomic_bool&)> work)
{
    cancel();
    const quint64 generation = ++m_generation;
    m_cancel = std::make_shared<std::atomic_bool>(false);
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
    QFuture<Outcome> future = QtConcurrent::run(&m_pool, [work, rules, cancelFlag](QPromise<Outcome>& promise) {
        promise.setProgressRange(0, 100);
        work(promise, rules, *cancelFlag);
    });
    watcher->setFuture(future);
}

namespace {

QString diagnosticsText(const std::vector<core::Diagnostic>& errors)
{
    QStringList lines;
    for (const auto& d : errors)
        lines << QString::fromStdString(d.format());
    return lines.join(QLatin1Char('\n'));
}

/// Loads the catalog, imports `input` and analyses it: the common tail of opening a bundle and opening a case.
template <class Promise, class Outcome>
bool importAndAnalyse(Promise& promise, const std::string& rules, std::atomic_bool& cancel,
    std::shared_ptr<core::BundleInput> input, Outcome& out, const std::string& jobId = {})
{
    promise.setProgressValueAndText(2, QObject::tr("Loading rules"));
    auto catalog = core::RuleCatalog::load(rules);
    if (!catalog.ok()) {
        out.error = QObject::tr("The rule catalog has errors:\n%1").arg(QString::fromStdString(catalog.asText()));
        return false;
    }
    importers::LoadOptions load;
    load.cancel = &cancel;
    load.jobId = jobId;
    load.progress = [&promise](std::size_t done, std::size_t total, const std::string&) {
        if (total > 0)
            promise.setProgressValueAndText(
                25 + static_cast<int>(50 * done / total), QObject::tr("Importing evidence"));
    };
    promise.setProgressValueAndText(25, QObject::tr("Importing evidence"));
    auto evidence = std::make_shared<core::EvidenceSet>(importers::importBundle(*input, load));
    if (promise.isCanceled() || cancel.load())
        return false;
    promise.setProgressValueAndText(75, QObject::tr("Correlating"));
    core::AnalysisOptions opts;
    opts.cancel = &cancel;
    auto verdict = std::make_shared<core::Verdict>(core::analyze(*evidence, *catalog.catalog, opts));
    if (promise.isCanceled() || cancel.load())
        return false;
    if (evidence->sources.empty())
        out.error = QObject::tr("No readable evidence in %1").arg(QString::fromStdString(input->root));
    out.result.evidence = std::move(evidence);
    out.result.verdict = std::move(verdict);
    out.result.input = std::move(input);
    return true;
}

} // namespace

void AnalysisController::start(const QStringList& bundlePaths)
{
    std::vector<std::string> paths;
    for (const auto& p : bundlePaths)
        paths.push_back(p.toStdString());
    launch([paths](QPromise<Outcome>& promise, const std::string& rules, std::atomic_bool& cancel) {
        Outcome out;
        promise.setProgressValueAndText(5, QObject::tr("Reading the bundle"));
        importers::LoadOptions load;
        load.cancel = &cancel;
        auto input = std::make_shared<core::BundleInput>(importers::collectBundle(paths, load));
        if (!importAndAnalyse(promise, rules, cancel, std::move(input), out) && out.error.isEmpty())
            return;
        promise.setProgressValueAndText(100, QObject::tr("Done"));
        promise.addResult(out);
    });
}

void AnalysisController::openCase(const QString& casePath, bool currentRules)
{
    const std::string path = casePath.toStdString();
    launch([path, currentRules](QPromise<Outcome>& promise, const std::string& rules, std::atomic_bool& cancel) {
        Outcome out;
        promise.setProgressValueAndText(5, QObject::tr("Reading the case"));
        std::vector<core::Diagnostic> errors;
        auto c = core::CaseFile::open(path, {}, errors);
        std::optional<core::BundleInput> input;
        if (c)
            input = c->loadInput(errors);
        if (!c || !input) {
            out.error = QObject::tr("Cannot open the case:\n%1").arg(diagnosticsText(errors));
            promise.addResult(out);
            return;
        }
        const auto runs = c->runs(errors);
        // By default the latest run is reproduced with its own rules, stored in the case; the workbench's current
        // rules are used on request, or when the case does not hold them (runs written before schema 2).
        QTemporaryDir storedRules;
        std::string useRules = rules;
        std::string rulesOrigin = "current rules";
        if (!currentRules && !runs.empty() && storedRules.isValid()) {
            std::vector<core::Diagnostic> missing;
            if (c->extractCatalog(runs.back().id, storedRules.path().toStdString(), missing)) {
                useRules = storedRules.path().toStdString();
                rulesOrigin = "run " + std::to_string(runs.back().id) + "'s rules";
            } else if (!missing.empty()) {
                rulesOrigin = "current rules (" + missing.front().message + ")";
            }
        }
        const std::string job = c->importJobOption(errors);
        if (!importAndAnalyse(
                promise, useRules, cancel, std::make_shared<core::BundleInput>(std::move(*input)), out, job)
            && out.error.isEmpty())
            return;
        out.result.casePath = path;
        out.result.rulesOrigin = rulesOrigin;
        if (!runs.empty() && out.result.verdict) {
            out.result.storedRun = runs.back().id;
            const auto stored = c->verdictJson(runs.back().id, errors);
            out.result.matchesStoredRun =
                stored && *stored == core::verdictToJson(*out.result.verdict, *out.result.evidence);
        }
        promise.setProgressValueAndText(100, QObject::tr("Done"));
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
    const std::string rules = m_rulesDir.toStdString();
    runCaseWrite([path, rules, result](QString& summary) -> QString {
        if (!result.input || !result.evidence || !result.verdict)
            return QObject::tr("Nothing to save: analyse a bundle first");
        auto catalog = core::RuleCatalog::load(rules);
        core::CaseCreateRequest req;
        req.input = result.input.get();
        req.evidence = result.evidence.get();
        req.verdict = result.verdict.get();
        req.run.rulesDir = rules;
        req.run.catalog = catalog.catalog.get();
        std::vector<core::Diagnostic> errors;
        if (!core::CaseFile::create(path, req, errors))
            return QObject::tr("The case was not saved:\n%1").arg(diagnosticsText(errors));
        summary = QString::fromStdString(path) + QLatin1Char('\t') + QObject::tr("case saved with run 1");
        return {};
    });
}

void AnalysisController::addRun(const views::AnalysisResult& result)
{
    const std::string rules = m_rulesDir.toStdString();
    runCaseWrite([rules, result](QString& summary) -> QString {
        if (result.casePath.empty() || !result.evidence || !result.verdict)
            return QObject::tr("This analysis did not come from a case: save it as a case instead");
        std::vector<core::Diagnostic> errors;
        auto c = core::CaseFile::open(result.casePath, {}, errors);
        if (!c)
            return QObject::tr("Cannot open the case:\n%1").arg(diagnosticsText(errors));
        auto catalog = core::RuleCatalog::load(rules);
        core::RunContext ctx;
        ctx.rulesDir = rules;
        ctx.catalog = catalog.catalog.get();
        ctx.fingerprint = core::evidenceFingerprint(*result.evidence);
        ctx.input = result.input.get();
        ctx.jobOption = c->importJobOption(errors);
        const auto id = c->addRun(*result.verdict, *result.evidence, ctx, errors);
        if (id == 0)
            return QObject::tr("The run was not added:\n%1").arg(diagnosticsText(errors));
        QString text = QObject::tr("run %1 added").arg(id);
        if (result.storedRun > 0)
            if (const auto d = c->diff(result.storedRun, id, errors))
                text += d->same
                    ? QObject::tr(" (same verdict as run %1)").arg(result.storedRun)
                    : QObject::tr(" (%1 change(s) from run %2)").arg(d->changes.size()).arg(result.storedRun);
        summary = QString::fromStdString(result.casePath) + QLatin1Char('\t') + text;
        return {};
    });
}

} // namespace faultline::app
