// SPDX-License-Identifier: Apache-2.0
#include "views/rules/rules_pane.h"

#include "views/models/rules_model.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace faultline::views {

RulesPane::RulesPane(QWidget* parent)
    : QWidget(parent)
    , m_model(new RulesModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_filter(new QLineEdit(this))
    , m_view(new QTableView(this))
    , m_details(new QTextBrowser(this))
    , m_summary(new QLabel(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(RulesModel::SortRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1); // id, kind, domain and file all match
    m_filter->setObjectName(QStringLiteral("ruleFilter"));
    m_filter->setPlaceholderText(tr("Filter rules (id, kind, domain, file)…"));
    m_filter->setClearButtonEnabled(true);
    m_view->setObjectName(QStringLiteral("rules"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(RulesModel::UsedColumn, Qt::DescendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->setShowGrid(false);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_view->setToolTip(tr("Double-click or Enter: step through the events this rule made in the case"));
    m_details->setObjectName(QStringLiteral("ruleDetails"));
    m_details->setOpenLinks(false);
    m_summary->setObjectName(QStringLiteral("rulesSummary"));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
    split->addWidget(m_details);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addWidget(m_filter);
    layout->addWidget(split, 1);
    layout->addWidget(m_summary);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_view, &QAbstractItemView::activated, this, &RulesPane::activate);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &RulesPane::showDetails);
    setResult({});
}

void RulesPane::setResult(const AnalysisResult& result)
{
    m_model->setResult(result);
    m_stepping.clear();
    m_step = -1;
    m_view->resizeColumnsToContents();
    if (!result.catalog) {
        m_summary->setText(tr("No analysis loaded: the rules of its catalog show here."));
        m_details->clear();
        return;
    }
    int used = 0;
    for (int r = 0; r < m_model->rowCount(); ++r)
        used += m_model->index(r, RulesModel::UsedColumn).data(RulesModel::SortRole).toInt() > 0 ? 1 : 0;
    m_summary->setText(
        tr("catalog %1 %2 (%3) · %4 rules · %5 fired in this case")
            .arg(QString::fromStdString(result.catalog->name()), QString::fromStdString(result.catalog->version()),
                QString::fromStdString(result.catalog->contentHash().substr(0, 12)))
            .arg(m_model->rowCount())
            .arg(used));
    showDetails();
}

QString RulesPane::currentRule() const
{
    return m_view->currentIndex().isValid() ? m_view->currentIndex().data(RulesModel::RuleIdRole).toString()
                                            : QString();
}

QString RulesPane::details() const
{
    return m_details->toPlainText();
}

void RulesPane::selectRule(const QString& id)
{
    const int row = m_model->rowOfRule(id);
    if (row < 0)
        return;
    QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    if (!index.isValid()) {
        m_filter->clear(); // the filter hid it
        index = m_proxy->mapFromSource(m_model->index(row, 0));
    }
    m_view->setCurrentIndex(index);
    m_view->scrollTo(index);
}

void RulesPane::selectRuleOfEvent(int eventIndex)
{
    const int row = m_model->rowOfEvent(eventIndex);
    if (row < 0) {
        m_view->clearSelection();
        return;
    }
    const QString id = m_model->index(row, 0).data(RulesModel::RuleIdRole).toString();
    selectRule(id);
    // Stepping from here continues after this event.
    const auto events = m_model->index(row, 0).data(RulesModel::EventsRole).value<QList<int>>();
    m_stepping = id;
    m_step = static_cast<int>(events.indexOf(eventIndex));
}

void RulesPane::activate(const QModelIndex& index)
{
    if (!index.isValid())
        return;
    const QString id = index.data(RulesModel::RuleIdRole).toString();
    const auto events = index.data(RulesModel::EventsRole).value<QList<int>>();
    if (events.isEmpty())
        return;
    if (id != m_stepping) {
        m_stepping = id;
        m_step = -1;
    }
    m_step = (m_step + 1) % static_cast<int>(events.size());
    Q_EMIT eventRequested(events[m_step]);
}

void RulesPane::showDetails()
{
    const QModelIndex index = m_view->currentIndex();
    if (!index.isValid()) {
        m_details->setHtml(tr("<p>Select a rule to see what it matches; double-click it to step through its "
                              "events in this case.</p>"));
        return;
    }
    const auto events = index.data(RulesModel::EventsRole).value<QList<int>>();
    QString html = index.data(RulesModel::DetailsRole).toString();
    const int row = m_proxy->mapToSource(index).row();
    html += tr("<br>defined at %1 · %2 test(s) · %3 event(s) in this case")
                .arg(m_model->index(row, RulesModel::OriginColumn).data().toString())
                .arg(m_model->index(row, RulesModel::TestsColumn).data().toInt())
                .arg(events.size());
    m_details->setHtml(html);
}

} // namespace faultline::views
