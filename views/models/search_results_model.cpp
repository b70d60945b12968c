// SPDX-License-Identifier: Apache-2.0
#include "views/models/search_results_model.h"

#include "core/time/civil_time.h"

#include <QFontDatabase>

#include <algorithm>

namespace faultline::views {

namespace {

QString fromUtf8(const std::string& s, std::size_t n = std::string::npos)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(std::min(n, s.size())));
}

} // namespace

SearchResultsModel::SearchResultsModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void SearchResultsModel::setHits(std::vector<SearchHitRow> hits)
{
    beginResetModel();
    m_hits = std::move(hits);
    endResetModel();
}

void SearchResultsModel::appendHits(std::vector<SearchHitRow> hits)
{
    if (hits.empty())
        return;
    const int first = static_cast<int>(m_hits.size());
    beginInsertRows({}, first, first + static_cast<int>(hits.size()) - 1);
    m_hits.insert(m_hits.end(), std::make_move_iterator(hits.begin()), std::make_move_iterator(hits.end()));
    endInsertRows();
}

void SearchResultsModel::clear()
{
    setHits({});
}

int SearchResultsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_hits.size());
}

int SearchResultsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SearchResultsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const SearchHitRow& h = m_hits[static_cast<std::size_t>(index.row())];
    switch (role) {
    case PathRole:
        return fromUtf8(h.path);
    case LineRole:
        return static_cast<quint64>(h.line);
    case ByteOffsetRole:
        return static_cast<quint64>(h.byteOffset);
    case TimestampNsRole:
        return static_cast<qint64>(h.timeNs);
    case NodeRole:
        return fromUtf8(h.node);
    case ObservationRole:
        return static_cast<qint64>(h.observation);
    case FileIndexRole:
        return static_cast<qulonglong>(h.file);
    case MatchStartRole:
        // The display string is the UTF-8 line converted: the match's byte offsets become UTF-16 positions.
        return static_cast<int>(fromUtf8(h.text, h.matchStart).size());
    case MatchLengthRole: {
        if (h.matchStart >= h.text.size())
            return 0;
        const std::string match = h.text.substr(h.matchStart, h.matchLength);
        return static_cast<int>(fromUtf8(match).size());
    }
    case Qt::FontRole:
        if (index.column() == TextColumn || index.column() == LineColumn)
            return QFontDatabase::systemFont(QFontDatabase::FixedFont);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == LineColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole:
        switch (index.column()) {
        case TimeColumn:
            return h.timeNs == INT64_MIN ? tr("No timed record holds this line") : QVariant();
        case TextColumn:
            return QString(fromUtf8(h.path) + QLatin1Char(':') + QString::number(h.line) + QLatin1Char('\n')
                + fromUtf8(h.text) + (h.textCut ? tr("… (line cut at 4 KiB)") : QString()));
        case FileColumn:
            return fromUtf8(h.path);
        default:
            return {};
        }
    case SortRole:
        switch (index.column()) {
        case FileColumn:
            return fromUtf8(h.path);
        case LineColumn:
            return static_cast<quint64>(h.line);
        case NodeColumn:
            return fromUtf8(h.node);
        case TimeColumn:
            return static_cast<qint64>(h.timeNs);
        case TextColumn:
            return fromUtf8(h.text);
        default:
            return {};
        }
    case Qt::DisplayRole:
        switch (index.column()) {
        case FileColumn:
            return fromUtf8(h.path);
        case LineColumn:
            return QString::number(h.line);
        case NodeColumn:
            return fromUtf8(h.node);
        case TimeColumn:
            return h.timeNs == INT64_MIN ? QString() : QString::fromStdString(core::formatUtc(h.timeNs));
        case TextColumn:
            return fromUtf8(h.text);
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant SearchResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case FileColumn:
        return tr("File");
    case LineColumn:
        return tr("Line");
    case NodeColumn:
        return tr("Node");
    case TimeColumn:
        return tr("Time (UTC)");
    case TextColumn:
        return tr("Text");
    default:
        return {};
    }
}

} // namespace faultline::views
