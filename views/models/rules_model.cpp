// SPDX-License-Identifier: Apache-2.0
#include "views/models/rules_model.h"

#include <algorithm>

namespace faultline::views {

namespace {

QString qs(const std::string& s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QString where(const core::RuleOrigin& o)
{
    return QStringLiteral("%1:%2").arg(qs(o.file)).arg(o.line);
}

QString domainOf(const std::string& domain, const std::string& subdomain)
{
    if (domain.empty() || domain == "unknown")
        return {};
    return qs(core::domainPath(domain, subdomain));
}

QString selectorText(const core::EventSelector& s)
{
    QStringList parts;
    for (const auto& t : s.types)
        parts << qs(t);
    return parts.isEmpty() ? QObject::tr("any event") : parts.join(QStringLiteral(", "));
}

} // namespace

RulesModel::RulesModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void RulesModel::setResult(const AnalysisResult& result)
{
    beginResetModel();
    m_result = result;
    m_rows.clear();
    m_rowOfId.clear();
    const core::RuleCatalog* c = result.catalog.get();
    if (c) {
        for (const auto& r : c->extractors()) {
            Row row;
            row.id = qs(r.id);
            row.version = r.version;
            row.kind = tr("extractor");
            row.domain = domainOf(r.domain, r.subdomain);
            row.origin = where(r.origin);
            row.tests = static_cast<int>(r.tests.size());
            row.details =
                tr("<b>%1</b> — %2<br>makes <tt>%3</tt> (%4, %5)<br>pattern: <tt>%6</tt>")
                    .arg(row.id.toHtmlEscaped(), qs(r.description).toHtmlEscaped(), qs(r.eventType).toHtmlEscaped(),
                        qs(core::roleName(r.role)), qs(r.severity), qs(r.patternText).toHtmlEscaped());
            m_rows.push_back(std::move(row));
        }
        for (const auto& r : c->metricRules()) {
            Row row;
            row.id = qs(r.id);
            row.version = r.version;
            row.kind = tr("metric");
            row.domain = domainOf(r.domain, r.subdomain);
            row.origin = where(r.origin);
            row.tests = static_cast<int>(r.tests.size());
            row.details = tr("<b>%1</b> — %2<br>makes <tt>%3</tt> from series <tt>%4</tt>")
                              .arg(row.id.toHtmlEscaped(), qs(r.description).toHtmlEscaped(),
                                  qs(r.eventType).toHtmlEscaped(), qs(r.metricText).toHtmlEscaped());
            m_rows.push_back(std::move(row));
        }
        for (const auto& r : c->aggregates()) {
            Row row;
            row.id = qs(r.id);
            row.version = r.version;
            row.kind = tr("aggregate");
            row.domain = domainOf(r.domain, r.subdomain);
            row.origin = where(r.origin);
            row.tests = static_cast<int>(r.tests.size());
            row.details = tr("<b>%1</b> — %2<br>makes <tt>%3</tt> when %4 take %5 or more values of <tt>%6</tt>")
                              .arg(row.id.toHtmlEscaped(), qs(r.description).toHtmlEscaped(),
                                  qs(r.eventType).toHtmlEscaped(), selectorText(r.over).toHtmlEscaped())
                              .arg(static_cast<qulonglong>(r.atLeast))
                              .arg(qs(r.distinct).toHtmlEscaped());
            m_rows.push_back(std::move(row));
        }
        for (const auto& r : c->correlators()) {
            Row row;
            row.id = qs(r.id);
            row.version = r.version;
            row.kind = tr("correlator");
            row.correlator = true;
            row.origin = where(r.origin);
            row.details = tr("<b>%1</b> — %2<br>links %3 (%4) to a cause of %5")
                              .arg(row.id.toHtmlEscaped(), qs(r.description).toHtmlEscaped(),
                                  selectorText(r.symptom).toHtmlEscaped(), qs(r.relation).toHtmlEscaped(),
                                  selectorText(r.cause).toHtmlEscaped());
            m_rows.push_back(std::move(row));
        }
        for (const auto& r : c->filters()) {
            Row row;
            row.id = qs(r.id);
            row.version = r.version;
            row.kind = tr("filter");
            row.origin = where(r.origin);
            row.counts = false;
            row.details = tr("<b>%1</b> — %2<br>applies to %3: %4")
                              .arg(row.id.toHtmlEscaped(), qs(r.description).toHtmlEscaped(),
                                  selectorText(r.when).toHtmlEscaped(), qs(r.reason).toHtmlEscaped());
            m_rows.push_back(std::move(row));
        }
        for (const auto& r : c->hypotheses()) {
            Row row;
            row.id = qs(r.id);
            row.version = r.version;
            row.kind = tr("hypothesis");
            row.origin = where(r.origin);
            row.counts = false;
            row.details = tr("<b>%1</b>").arg(row.id.toHtmlEscaped());
            m_rows.push_back(std::move(row));
        }
        for (std::size_t i = 0; i < m_rows.size(); ++i)
            m_rowOfId.emplace(m_rows[i].id.toStdString(), static_cast<int>(i));
    }
    // What each rule did in this analysis: the events it made, the links it drew (in the verdict's order, which is
    // time order).
    if (const core::Verdict* v = result.verdict.get())
        for (std::size_t i = 0; i < v->events.size(); ++i) {
            if (auto it = m_rowOfId.find(v->events[i].ruleId); it != m_rowOfId.end())
                m_rows[static_cast<std::size_t>(it->second)].events.push_back(static_cast<int>(i));
            if (i < v->linkVia.size() && !v->linkVia[i].empty())
                if (auto it = m_rowOfId.find(v->linkVia[i]);
                    it != m_rowOfId.end() && m_rows[static_cast<std::size_t>(it->second)].correlator)
                    m_rows[static_cast<std::size_t>(it->second)].events.push_back(static_cast<int>(i));
        }
    endResetModel();
}

int RulesModel::rowOfEvent(int eventIndex) const
{
    const core::Verdict* v = m_result.verdict.get();
    if (!v || eventIndex < 0 || static_cast<std::size_t>(eventIndex) >= v->events.size())
        return -1;
    const auto it = m_rowOfId.find(v->events[static_cast<std::size_t>(eventIndex)].ruleId);
    return it == m_rowOfId.end() ? -1 : it->second;
}

int RulesModel::rowOfRule(const QString& id) const
{
    const auto it = m_rowOfId.find(id.toStdString());
    return it == m_rowOfId.end() ? -1 : it->second;
}

int RulesModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int RulesModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RulesModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const Row& r = m_rows[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case IdColumn:
            return r.id;
        case VersionColumn:
            return r.version > 0 ? QVariant(r.version) : QVariant(QStringLiteral("–"));
        case KindColumn:
            return r.kind;
        case DomainColumn:
            return r.domain;
        case UsedColumn:
            return r.counts ? QVariant(static_cast<int>(r.events.size())) : QVariant(QStringLiteral("–"));
        case TestsColumn:
            return r.tests;
        case OriginColumn:
            return r.origin;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == UsedColumn || index.column() == TestsColumn || index.column() == VersionColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole:
        return QStringLiteral("<qt>%1</qt>").arg(r.details);
    case RuleIdRole:
        return r.id;
    case EventsRole: {
        QList<int> events(r.events.begin(), r.events.end());
        return QVariant::fromValue(events);
    }
    case DetailsRole:
        return r.details;
    case SortRole:
        if (index.column() == UsedColumn)
            return r.counts ? static_cast<int>(r.events.size()) : -1;
        if (index.column() == TestsColumn)
            return r.tests;
        if (index.column() == VersionColumn)
            return r.version;
        return data(index, Qt::DisplayRole);
    default:
        return {};
    }
}

QVariant RulesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case IdColumn:
        return tr("Rule");
    case VersionColumn:
        return tr("Version");
    case KindColumn:
        return tr("Kind");
    case DomainColumn:
        return tr("Domain");
    case UsedColumn:
        return tr("In this case");
    case TestsColumn:
        return tr("Tests");
    case OriginColumn:
        return tr("Defined at");
    }
    return {};
}

} // namespace faultline::views
