// SPDX-License-Identifier: Apache-2.0
#include "views/models/evidence_trail_model.h"

#include "core/report/verdict_report.h"
#include "core/time/civil_time.h"

#include <QBrush>
#include <QColor>

namespace faultline::views {

EvidenceTrailModel::EvidenceTrailModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void EvidenceTrailModel::setResult(const AnalysisResult& result)
{
    beginResetModel();
    m_result = result;
    endResetModel();
}

int EvidenceTrailModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !m_result.verdict)
        return 0;
    return static_cast<int>(m_result.verdict->trail.size());
}

int EvidenceTrailModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EvidenceTrailModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_result.verdict)
        return {};
    const core::Verdict& v = *m_result.verdict;
    const core::TrailItem& item = v.trail[static_cast<std::size_t>(index.row())];
    const core::Event& e = v.events[item.event];
    if (role == EventIndexRole)
        return static_cast<qulonglong>(item.event);
    if (role == TimestampNsRole)
        return static_cast<qlonglong>(e.timeNs);
    if (role == Qt::ForegroundRole && item.why == "cause")
        return QBrush(QColor(0xb0, 0x20, 0x20));
    if (role == Qt::ToolTipRole)
        return QString::fromUtf8(e.excerpt.data(), static_cast<qsizetype>(e.excerpt.size()));
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    switch (index.column()) {
    case TimeColumn:
        if (role == SortRole)
            return static_cast<qlonglong>(e.timeNs);
        return QString::fromStdString(core::formatUtc(e.timeNs));
    case NodeColumn:
        return e.node == core::kNoNode ? QString() : QString::fromStdString(v.nodes.name(e.node));
    case RankColumn:
        return e.rank < 0 ? QVariant() : QVariant(e.rank);
    case WhyColumn:
        return QString::fromStdString(item.why);
    case LabelColumn:
        return QString::fromStdString(e.label);
    case SourceColumn:
        return m_result.evidence ? QString::fromStdString(core::locationOf(e.provenance.front(), *m_result.evidence))
                                 : QString();
    default:
        return {};
    }
}

QVariant EvidenceTrailModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time (UTC)");
    case NodeColumn:
        return tr("Node");
    case RankColumn:
        return tr("Rank");
    case WhyColumn:
        return tr("Role in verdict");
    case LabelColumn:
        return tr("Event");
    case SourceColumn:
        return tr("Evidence");
    default:
        return {};
    }
}

} // namespace faultline::views
