// SPDX-License-Identifier: Apache-2.0
#include "app/gui/rule_edit_controller.h"

#include <QFutureWatcher>
#include <QPromise>
#include <QtConcurrent>

namespace faultline::app {

namespace {

bool sameRequest(const usecases::RuleCheckRequest& a, const usecases::RuleCheckRequest& b)
{
    auto sameTexts = [](const std::vector<core::CatalogText>& x, const std::vector<core::CatalogText>& y) {
        return x.size() == y.size() && std::equal(x.begin(), x.end(), y.begin(), [](const auto& p, const auto& q) {
            return p.path == q.path && p.text == q.text;
        });
    };
    return a.text == b.text && a.target.dir == b.target.dir && a.target.packFile == b.target.packFile
        && a.target.replaceId == b.target.replaceId && a.sources.root == b.sources.root
        && a.sources.packDirs == b.sources.packDirs && sameTexts(a.sources.texts, b.sources.texts);
}

/// The edited catalog, checked now unless `cached` is that request's.
usecases::Result<std::shared_ptr<const core::RuleCatalog>> editedCatalog(
    const usecases::RuleCheckRequest& request, std::shared_ptr<const core::RuleCatalog> cached)
{
    usecases::Result<std::shared_ptr<const core::RuleCatalog>> out;
    if (cached) {
        out.value = std::move(cached);
        return out;
    }
    const usecases::RuleCheck check = usecases::checkRule(request);
    if (!check.catalog) {
        std::vector<core::Diagnostic> errors;
        for (const auto& d : check.diagnostics)
            if (d.diagnostic.severity == core::Severity::Error)
                errors.push_back(d.diagnostic);
        return usecases::Result<std::shared_ptr<const core::RuleCatalog>>::fail(
            usecases::Exit::Catalog, "the edited rule has errors: fix them first", errors);
    }
    out.value = check.catalog;
    return out;
}

} // namespace

RuleEditController::RuleEditController(QObject* parent)
    : QObject(parent)
{
    m_checkPool.setMaxThreadCount(1);
    m_workPool.setMaxThreadCount(1);
}

RuleEditController::~RuleEditController()
{
    cancel();
    m_workPool.waitForDone();
    m_checkPool.waitForDone();
}

void RuleEditController::check(quint64 generation, usecases::RuleCheckRequest request)
{
    m_pendingCheck = std::make_pair(generation, std::move(request));
    if (!m_checking)
        startCheck();
}

void RuleEditController::startCheck()
{
    if (!m_pendingCheck)
        return;
    auto [generation, request] = std::move(*m_pendingCheck);
    m_pendingCheck.reset();
    m_checking = true;
    auto* watcher = new QFutureWatcher<usecases::RuleCheck>(this);
    connect(watcher, &QFutureWatcher<usecases::RuleCheck>::finished, this, [this, watcher, generation, request] {
        watcher->deleteLater();
        m_checking = false;
        const usecases::RuleCheck check = watcher->result();
        m_lastChecked = request;
        m_lastCatalog = check.catalog;
        Q_EMIT checked(generation, check);
        startCheck(); // the newest request that came meanwhile
    });
    watcher->setFuture(QtConcurrent::run(&m_checkPool, [request] { return usecases::checkRule(request); }));
}

std::shared_ptr<const core::RuleCatalog> RuleEditController::checkedCatalog(
    const usecases::RuleCheckRequest& request) const
{
    return m_lastCatalog && sameRequest(request, m_lastChecked) ? m_lastCatalog : nullptr;
}

void RuleEditController::setBusy(bool busy)
{
    if (busy == m_busy)
        return;
    m_busy = busy;
    Q_EMIT busyChanged(busy);
}

void RuleEditController::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

template <class T>
void RuleEditController::launch(const QString& what, std::function<usecases::Result<T>(const usecases::Task&)> work,
    std::function<void(const T&)> done)
{
    cancel();
    const quint64 generation = ++m_work;
    auto flag = std::make_shared<std::atomic_bool>(false);
    m_cancel = flag;
    setBusy(true);
    auto* watcher = new QFutureWatcher<usecases::Result<T>>(this);
    connect(watcher, &QFutureWatcher<usecases::Result<T>>::progressValueChanged, this,
        [this, watcher, generation](int value) {
            if (generation == m_work)
                Q_EMIT progressChanged(value, watcher->progressText());
        });
    connect(watcher, &QFutureWatcher<usecases::Result<T>>::finished, this, [this, watcher, generation, what, done] {
        watcher->deleteLater();
        if (generation != m_work)
            return; // a newer job replaced this one
        setBusy(false);
        const usecases::Result<T> r = watcher->result();
        if (r.ok())
            done(*r.value);
        else
            Q_EMIT failed(what,
                r.failure.code == usecases::Exit::Cancelled ? tr("Cancelled.")
                                                            : QString::fromStdString(r.failure.text()));
    });
    watcher->setFuture(QtConcurrent::run(&m_workPool, [work, flag](QPromise<usecases::Result<T>>& promise) {
        promise.setProgressRange(0, 100);
        usecases::Task task;
        task.cancel = flag.get();
        task.progress = [&promise](int percent, const std::string& step) {
            promise.setProgressValueAndText(percent, QString::fromStdString(step));
        };
        promise.addResult(work(task));
    }));
}

void RuleEditController::run(usecases::RuleCheckRequest request, views::AnalysisResult shown, std::string ruleId)
{
    auto cached = checkedCatalog(request);
    launch<usecases::RuleRun>(
        QStringLiteral("run"),
        [request, shown, cached, ruleId](const usecases::Task& task) -> usecases::Result<usecases::RuleRun> {
            task.report(2, "Checking the rule");
            const auto catalog = editedCatalog(request, cached);
            if (!catalog.ok())
                return usecases::Result<usecases::RuleRun>::fail(
                    catalog.failure.code, catalog.failure.message, catalog.failure.diagnostics);
            usecases::RuleRunRequest run;
            run.shown = shown;
            run.catalog = *catalog.value;
            run.ruleId = ruleId;
            return usecases::runEditedRule(run, task);
        },
        [this](const usecases::RuleRun& r) { Q_EMIT ran(r); });
}

void RuleEditController::save(usecases::RuleCheckRequest request)
{
    launch<usecases::SavedRule>(
        QStringLiteral("save"), [request](const usecases::Task&) { return usecases::saveRule(request); },
        [this](const usecases::SavedRule& s) { Q_EMIT saved(s); });
}

void RuleEditController::regress(
    QString dir, std::optional<usecases::RuleCheckRequest> edited, std::shared_ptr<const core::RuleCatalog> current)
{
    auto cached = edited ? checkedCatalog(*edited) : nullptr;
    launch<usecases::Regression>(
        QStringLiteral("regression"),
        [dir, edited, current, cached](const usecases::Task& task) -> usecases::Result<usecases::Regression> {
            usecases::RegressRequest r;
            r.casesDir = dir.toStdString();
            r.catalog = current;
            if (edited) {
                const auto catalog = editedCatalog(*edited, cached);
                if (!catalog.ok())
                    return usecases::Result<usecases::Regression>::fail(
                        catalog.failure.code, catalog.failure.message, catalog.failure.diagnostics);
                r.catalog = *catalog.value;
            }
            if (!r.catalog)
                return usecases::Result<usecases::Regression>::fail(
                    usecases::Exit::Catalog, "no catalog has loaded without errors yet");
            return usecases::regressCases(r, task);
        },
        [this, dir](const usecases::Regression& r) { Q_EMIT regressed(dir, r); });
}

void RuleEditController::sweep(QString dir, usecases::RuleCheckRequest request, std::string ruleId)
{
    auto cached = checkedCatalog(request);
    launch<usecases::Sweep>(
        QStringLiteral("sweep"),
        [dir, request, cached, ruleId](const usecases::Task& task) -> usecases::Result<usecases::Sweep> {
            task.report(0, "Checking the rule");
            const auto catalog = editedCatalog(request, cached);
            if (!catalog.ok())
                return usecases::Result<usecases::Sweep>::fail(
                    catalog.failure.code, catalog.failure.message, catalog.failure.diagnostics);
            usecases::SweepRequest s;
            s.casesDir = dir.toStdString();
            s.catalog = *catalog.value;
            s.ruleId = ruleId;
            return usecases::sweepRule(s, task);
        },
        [this, dir](const usecases::Sweep& s) { Q_EMIT swept(dir, s); });
}

} // namespace faultline::app
