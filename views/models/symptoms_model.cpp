// SPDX-License-Identifier: Apache-2.0
#include "views/models/symptoms_model.h"

#include "views/common/time_text.h"

#include <QDateTime>
#include <QStringList>

#include <algorithm>
#include <climits>
#include <cstdlib>

namespace faultline::views {

namespace {

QString utc(std::int64_t ns)
{
    return ns == INT64_MIN ? QObject::tr("time missing") : utcClock(ns, 3);
}

QString spread(const std::vector<std::string>& nodes)
{
    QStringList l;
    for (const auto& n : nodes)
        l << QString::fromStdString(n);
    return l.join(QStringLiteral(", "));
}

/// Ranks as compact ranges: 0-7, 12, 24-31.
QString ranks(std::vector<std::int32_t> r)
{
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
    QStringList out;
    for (std::size_t i = 0; i < r.size();) {
        std::size_t j = i;
        while (j + 1 < r.size() && r[j + 1] == r[j] + 1)
            ++j;
        out << (j > i ? QStringLiteral("%1-%2").arg(r[i]).arg(r[j]) : QString::number(r[i]));
        i = j + 1;
    }
    return out.join(QStringLiteral(", "));
}

} // namespace

SymptomsModel::SymptomsModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void SymptomsModel::setResult(const AnalysisResult& result)
{
    beginResetModel();
    m_result = result;
    endResetModel();
}

int SymptomsModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !m_result.verdict)
        return 0;
    return static_cast<int>(m_result.verdict->symptoms.size());
}

int SymptomsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString SymptomsModel::formatDelay(qint64 ns)
{
    if (ns == INT64_MIN)
        return QString();
    const QChar sign = ns < 0 ? QLatin1Char('-') : QLatin1Char('+');
    const qint64 a = std::llabs(ns);
    const qint64 s = a / 1000000000;
    if (s < 60)
        return QStringLiteral("%1%2s").arg(sign).arg(static_cast<double>(a) / 1e9, 0, 'f', 1);
    if (s < 3600)
        return QStringLiteral("%1%2m %3s").arg(sign).arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1%2h %3m").arg(sign).arg(s / 3600).arg((s / 60) % 60, 2, 10, QLatin1Char('0'));
}

QVariant SymptomsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_result.verdict || index.row() >= rowCount())
        return {};
    const core::Verdict& v = *m_result.verdict;
    const core::SymptomGroup& g = v.symptoms[static_cast<std::size_t>(index.row())];
    const qint64 causeNs = v.hasCause && v.cause < v.events.size() ? v.events[v.cause].timeNs : INT64_MIN;
    const qint64 delay = causeNs != INT64_MIN && g.firstNs != INT64_MIN ? g.firstNs - causeNs : INT64_MIN;
    switch (role) {
    case FirstEventRole:
        return g.events.empty() ? QVariant() : QVariant(static_cast<int>(g.events.front()));
    case FirstTimeNsRole:
        return QVariant::fromValue<qint64>(g.firstNs);
    case DelayNsRole:
        return QVariant::fromValue<qint64>(delay);
    case SortRole:
        switch (index.column()) {
        case CountColumn:
            return QVariant::fromValue<qulonglong>(g.count);
        case FirstColumn:
            return QVariant::fromValue<qint64>(g.firstNs);
        case LastColumn:
            return QVariant::fromValue<qint64>(g.lastNs);
        case DelayColumn:
            return QVariant::fromValue<qint64>(delay);
        default:
            return data(index, Qt::DisplayRole);
        }
    case Qt::ToolTipRole:
        return tr("%1 (%2)\nexplained by correlator %3\n%4 event(s) on %5")
            .arg(QString::fromStdString(g.label), QString::fromStdString(g.type), QString::fromStdString(g.correlator))
            .arg(g.count)
            .arg(spread(g.nodes));
    case Qt::TextAlignmentRole:
        return index.column() == CountColumn || index.column() == DelayColumn
            ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
            : QVariant();
    case Qt::DisplayRole:
        switch (index.column()) {
        case TypeColumn:
            return QString::fromStdString(g.type);
        case CountColumn:
            return QVariant::fromValue<qulonglong>(g.count);
        case NodesColumn:
            return spread(g.nodes);
        case RanksColumn:
            return ranks(g.ranks);
        case FirstColumn:
            return utc(g.firstNs);
        case LastColumn:
            return utc(g.lastNs);
        case DelayColumn:
            // Not stated when the times are inferred between neighbours too far apart to say.
            if (const qint64 span = core::inferredSpan(v, g); span > core::kDelayKnownWithinNs)
                return tr("unknown (±%1)").arg(formatDelay(span).mid(1));
            return formatDelay(delay);
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant SymptomsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TypeColumn:
        return tr("Symptom");
    case CountColumn:
        return tr("Count");
    case NodesColumn:
        return tr("Nodes");
    case RanksColumn:
        return tr("Ranks");
    case FirstColumn:
        return tr("First (UTC)");
    case LastColumn:
        return tr("Last (UTC)");
    case DelayColumn:
        return tr("After cause");
    default:
        return {};
    }
}

} // namespace faultline::views
