// SPDX-License-Identifier: Apache-2.0
// Runs the evidence search use case (app/usecases/search) off the UI thread for the search pane: one search at a
// time, a newer request cancels the older, results come back on the UI thread with the request's generation so the
// pane drops stale ones.
#pragma once

#include "views/models/analysis_result.h"
#include "views/models/search_results_model.h"
#include "views/search/search_pane.h"

#include <QObject>
#include <QThreadPool>

#include <atomic>
#include <memory>

namespace faultline::usecases {
struct SearchResult;
}

namespace faultline::app {

/// A search's counts as the search pane's status line shows them.
views::SearchSummary summaryOf(const usecases::SearchResult& result, std::size_t maxHits);

class SearchController : public QObject
{
    Q_OBJECT
public:
    explicit SearchController(QObject* parent = nullptr);
    ~SearchController() override;

    /// Searches `result`'s evidence (its input bytes and records); at most `maxHits` hits are listed.
    void search(const views::AnalysisResult& result, const QString& pattern, const views::SearchOptions& options,
        std::size_t maxHits = 10000);
    void cancel();

Q_SIGNALS:
    void finished(quint64 generation, std::vector<faultline::views::SearchHitRow> hits,
        const faultline::views::SearchSummary& summary);
    void failed(quint64 generation, const QString& message);

private:
    QThreadPool m_pool;
    std::shared_ptr<std::atomic_bool> m_cancel;
};

} // namespace faultline::app
