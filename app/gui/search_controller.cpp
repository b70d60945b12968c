// SPDX-License-Identifier: Apache-2.0
#include "app/gui/search_controller.h"

#include "app/usecases/search.h"

#include <QMetaObject>
#include <QtConcurrent>

namespace faultline::app {

views::SearchSummary summaryOf(const usecases::SearchResult& result, std::size_t maxHits)
{
    views::SearchSummary s;
    s.files = result.counts.files;
    s.bytes = result.counts.bytes;
    s.lines = result.counts.lines;
    s.hits = result.counts.hits;
    s.untimedExcluded = result.counts.untimedExcluded;
    s.truncated = result.counts.truncated;
    s.maxHits = maxHits;
    s.elapsedUs = result.elapsedUs;
    return s;
}

SearchController::SearchController(QObject* parent)
    : QObject(parent)
{
    m_pool.setMaxThreadCount(1); // the search itself uses every core
}

SearchController::~SearchController()
{
    cancel();
    m_pool.waitForDone();
}

void SearchController::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void SearchController::search(const views::AnalysisResult& result, const QString& pattern,
    const views::SearchOptions& options, std::size_t maxHits)
{
    cancel();
    auto cancelFlag = std::make_shared<std::atomic_bool>(false);
    m_cancel = cancelFlag;
    usecases::SearchRequest request;
    request.input = result.input;
    request.evidence = result.evidence;
    request.pattern = pattern.toStdString();
    request.ignoreCase = options.ignoreCase;
    request.literal = options.literal;
    if (!options.node.isEmpty())
        request.nodes = { options.node.toStdString() };
    if (!options.path.isEmpty())
        request.paths = { options.path.toStdString() };
    if (options.kind >= 0)
        request.kinds = { static_cast<core::SourceKind>(options.kind) };
    request.minSeverity = options.minSeverity.toStdString();
    request.verdict = result.verdict;
    request.fromNs = options.fromNs;
    request.toNs = options.toNs;
    request.maxHits = maxHits;
    const quint64 generation = options.generation;
    // The worker ends before the controller goes (the destructor waits for the pool); a queued call to a destroyed
    // context object is dropped.
    SearchController* self = this;
    (void)QtConcurrent::run(&m_pool, [self, request, generation, cancelFlag] {
        usecases::Task task;
        task.cancel = cancelFlag.get();
        const auto res = usecases::searchEvidence(request, task);
        if (res.ok()) {
            auto rows = res.value->hits;
            const auto s = summaryOf(*res.value, request.maxHits);
            QMetaObject::invokeMethod(
                self,
                [self, generation, rows = std::move(rows), s]() mutable {
                    Q_EMIT self->finished(generation, std::move(rows), s);
                },
                Qt::QueuedConnection);
        } else if (res.failure.code != usecases::Exit::Cancelled) {
            const QString message = QString::fromStdString(res.failure.text());
            QMetaObject::invokeMethod(
                self, [self, generation, message] { Q_EMIT self->failed(generation, message); }, Qt::QueuedConnection);
        }
    });
}

} // namespace faultline::app
