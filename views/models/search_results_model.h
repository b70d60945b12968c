// SPDX-License-Identifier: Apache-2.0
// Table model over the hits of one evidence search: one row per matching line (file, line, node, time, the line with
// its match). The rows are the search use case's own hits (core::SearchHit); the model converts to QString only in
// data(), for the rows on screen.
//
// Thread affinity: UI thread. Rows arrive whole (setHits) or in batches while a search streams (appendHits).
#pragma once

#include "core/model/search_hit.h"

#include <QAbstractTableModel>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace faultline::views {

/// One matching line, as the search use case returns it.
using SearchHitRow = core::SearchHit;

/// What a finished search looked at, for the status line.
struct SearchSummary
{
    std::uint64_t files = 0;
    std::uint64_t bytes = 0;
    std::uint64_t lines = 0;
    std::uint64_t hits = 0;
    std::uint64_t untimedExcluded = 0; ///< matching lines the time filter dropped because they have no time
    bool truncated = false; ///< stopped at maxHits
    std::uint64_t maxHits = 0;
    std::int64_t elapsedUs = 0;
};

class SearchResultsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { FileColumn, LineColumn, NodeColumn, TimeColumn, TextColumn, ColumnCount };
    enum Role {
        PathRole = Qt::UserRole, ///< QString: the file's display path
        LineRole, ///< quint64
        ByteOffsetRole, ///< quint64
        TimestampNsRole, ///< qint64; INT64_MIN when the line has no time
        NodeRole, ///< QString
        MatchStartRole, ///< int: where the match starts in the TextColumn's display string (UTF-16 units)
        MatchLengthRole, ///< int: its length in the display string
        ObservationRole, ///< qint64: index into EvidenceSet::observations, -1 when no record holds the line
        FileIndexRole, ///< qulonglong: index into the input files
        SortRole, ///< typed value to sort a column by (path, line number, node, time)
    };

    explicit SearchResultsModel(QObject* parent = nullptr);

    void setHits(std::vector<SearchHitRow> hits);
    void appendHits(std::vector<SearchHitRow> hits);
    void clear();
    const std::vector<SearchHitRow>& hits() const { return m_hits; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<SearchHitRow> m_hits;
};

} // namespace faultline::views
