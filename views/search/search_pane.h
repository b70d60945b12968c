// SPDX-License-Identifier: Apache-2.0
// The evidence search pane: a search box (RE2, with match-case and regular-expression toggles), node and source
// filters filled from the evidence, a severity filter (lines an event of that severity or worse came from), an optional
// "visible time range" filter, the hits as a table with each match highlighted, and a status line (hits, files, bytes,
// time, "truncated at N").
//
// The pane does not search: it emits searchRequested (after a short pause in typing, or at once on Enter) and shows
// what the app hands back. Each request carries a generation; results of any other generation are dropped, so a
// slow search that finishes after a newer one started never shows. Enter or a double-click on a hit emits
// hitActivated.
//
// Thread affinity: UI thread.
#pragma once

#include "core/model/evidence.h"
#include "views/models/search_results_model.h"

#include <QMetaType>
#include <QWidget>

#include <climits>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
class QTimer;
class QToolButton;

namespace faultline::views {

/// A search request as the pane states it; the app turns it into a usecases::SearchRequest.
struct SearchOptions
{
    bool ignoreCase = true; ///< the "Aa" toggle off
    bool literal = false; ///< the ".*" toggle off
    QString node; ///< only lines of this node ("": every node)
    QString path; ///< only this file, by display path ("": every file)
    int kind = -1; ///< only files of this core::SourceKind (-1: every kind)
    /// Only lines that an event of at least this severity was extracted from: info, warning, error, fatal ("": every
    /// line, events or not).
    QString minSeverity;
    qint64 fromNs = INT64_MIN; ///< only lines whose record's time lies in [fromNs, toNs] (INT64_MIN: no window)
    qint64 toNs = INT64_MAX;
    quint64 generation = 0; ///< hand it back to setResults / appendHits / finishResults / setFailed
};

class SearchPane : public QWidget
{
    Q_OBJECT
public:
    explicit SearchPane(QWidget* parent = nullptr);

    /// Fills the node and source filters from the evidence (nullptr: empties them). Keeps the choice when the new
    /// evidence has it.
    void setEvidence(const core::EvidenceSet* evidence);
    /// The range the "visible range" toggle filters to (the timeline's); INT64_MIN: none, the toggle is disabled.
    void setTimeRange(qint64 fromNs, qint64 toNs);

    /// The hits of request `generation`, all at once, and the summary.
    void setResults(quint64 generation, std::vector<SearchHitRow> hits, const SearchSummary& summary);
    /// More hits of request `generation` while it runs (the first batch replaces the previous request's hits).
    void appendHits(quint64 generation, std::vector<SearchHitRow> hits);
    /// Request `generation` ended after its hits were streamed with appendHits.
    void finishResults(quint64 generation, const SearchSummary& summary);
    /// Request `generation` failed (a pattern RE2 rejects: its message); the hits are cleared.
    void setFailed(quint64 generation, const QString& message);
    /// A search runs: shows it and the Stop button.
    void setBusy(bool busy);

    /// Sets the search box's text (a search follows, as if typed).
    void setPattern(const QString& pattern);
    QString pattern() const;
    /// The options the next request would carry (its generation is the last one emitted).
    SearchOptions options() const;
    /// Puts the keyboard focus in the search box, text selected.
    void focusSearch();

    SearchResultsModel* model() const { return m_model; }
    QTableView* resultsView() const { return m_view; }
    QLineEdit* searchBox() const { return m_box; }
    QString status() const;

Q_SIGNALS:
    void searchRequested(const QString& pattern, const faultline::views::SearchOptions& options);
    /// The user stopped the running search (Stop, or Escape in the search box).
    void cancelRequested();
    void hitActivated(const QString& path, quint64 line, qint64 timeNs);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void requestSearch();
    void scheduleSearch();
    void showSummary(const SearchSummary& summary);
    void setStatus(const QString& text, bool error = false);
    void activate(const QModelIndex& index);

    QLineEdit* m_box;
    QToolButton* m_case;
    QToolButton* m_regex;
    QToolButton* m_range;
    QComboBox* m_nodes;
    QComboBox* m_files;
    QComboBox* m_severity;
    QToolButton* m_stop;
    QTableView* m_view;
    QLabel* m_status;
    QString m_statusText; ///< the status line as plain text
    QTimer* m_debounce;
    SearchResultsModel* m_model;
    quint64 m_generation = 0; ///< the last request emitted
    quint64 m_shown = 0; ///< the request whose hits the model holds
    qint64 m_rangeFrom = INT64_MIN;
    qint64 m_rangeTo = INT64_MIN;
    bool m_busy = false;
};

} // namespace faultline::views

Q_DECLARE_METATYPE(faultline::views::SearchOptions)
