// SPDX-License-Identifier: Apache-2.0
#include "views/rules/library_results.h"

#include <QCheckBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace faultline::views {

namespace {

constexpr int kCaseRole = Qt::UserRole;
constexpr int kFileRole = Qt::UserRole + 1;
constexpr int kLineRole = Qt::UserRole + 2;

enum Column { CaseColumn, OpenColumn, StatusColumn, DetailColumn };

QColor flaggedInk(const QPalette& pal)
{
    return pal.color(QPalette::Base).lightness() < 128 ? QColor(0xff, 0x8a, 0x80) : QColor(0xb7, 0x1c, 0x1c);
}

} // namespace

LibraryResultsPane::LibraryResultsPane(QWidget* parent)
    : QWidget(parent)
    , m_summary(new QLabel(this))
    , m_onlyFlagged(new QCheckBox(this))
    , m_tree(new QTreeWidget(this))
    , m_progress(new QLabel(this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
{
    setObjectName(QStringLiteral("libraryResults"));
    m_summary->setObjectName(QStringLiteral("librarySummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setText(tr("Rules ▸ Regression over a Case Library… runs the edited catalog over every case of a "
                          "folder; Rules ▸ Must-Not-Fire Sweep… lists where the edited rule would fire."));
    m_onlyFlagged->setObjectName(QStringLiteral("libraryOnlyFlagged"));
    m_onlyFlagged->setChecked(true);
    m_tree->setObjectName(QStringLiteral("libraryCases"));
    m_tree->setHeaderLabels({ tr("Case"), QString(), tr("Status"), tr("Details") });
    m_tree->setAlternatingRowColors(true);
    m_tree->setUniformRowHeights(true);
    m_tree->header()->setStretchLastSection(true);
    m_tree->setToolTip(tr("Open a case with its button; double-click a line to open the case at it"));
    m_cancel->setObjectName(QStringLiteral("libraryCancel"));
    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_summary, 1);
    top->addWidget(m_onlyFlagged);
    auto* busy = new QHBoxLayout;
    busy->setContentsMargins(0, 0, 0, 0);
    busy->addWidget(m_progress, 1);
    busy->addWidget(m_cancel);
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addLayout(top);
    layout->addWidget(m_tree, 1);
    layout->addLayout(busy);
    m_onlyFlagged->setText(tr("Only cases that flip"));
    connect(m_onlyFlagged, &QCheckBox::toggled, this, &LibraryResultsPane::rebuild);
    connect(m_cancel, &QPushButton::clicked, this, &LibraryResultsPane::cancelRequested);
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        Q_EMIT openRequested(item->data(CaseColumn, kCaseRole).toString(), item->data(CaseColumn, kFileRole).toString(),
            item->data(CaseColumn, kLineRole).toULongLong());
    });
}

void LibraryResultsPane::setResults(const LibraryResults& results)
{
    m_results = results;
    const bool sweep = results.kind == LibraryResults::Kind::Sweep;
    m_onlyFlagged->setText(sweep ? tr("Only cases where it fires") : tr("Only cases that flip"));
    m_summary->setText(QStringLiteral("<b>%1</b> — %2<br>%3")
                           .arg(sweep ? tr("Must-not-fire sweep of %1").arg(results.subject.toHtmlEscaped())
                                      : tr("Regression of %1").arg(results.subject.toHtmlEscaped()),
                               results.library.toHtmlEscaped(), results.summary.toHtmlEscaped()));
    rebuild();
}

void LibraryResultsPane::rebuild()
{
    m_tree->clear();
    const bool sweep = m_results.kind == LibraryResults::Kind::Sweep;
    m_tree->setHeaderLabels({ tr("Case"), QString(), tr("Status"), sweep ? tr("Where it fires") : tr("Verdict") });
    // Flagged cases first (their own order kept), then the others.
    QVector<const LibraryCaseRow*> rows;
    for (const auto& c : m_results.cases)
        if (c.flagged)
            rows << &c;
    if (!m_onlyFlagged->isChecked())
        for (const auto& c : m_results.cases)
            if (!c.flagged)
                rows << &c;
    for (const LibraryCaseRow* c : rows) {
        auto* item = new QTreeWidgetItem;
        item->setText(CaseColumn, QFileInfo(c->path).fileName());
        item->setToolTip(CaseColumn, c->path);
        item->setData(CaseColumn, kCaseRole, c->path);
        item->setText(StatusColumn, c->status);
        if (c->flagged)
            item->setForeground(StatusColumn, flaggedInk(palette()));
        if (sweep)
            item->setText(DetailColumn,
                c->failed ? c->details.value(0) : tr("%n line(s)", nullptr, static_cast<int>(c->lines.size())));
        else
            item->setText(
                DetailColumn, c->failed ? c->details.value(0) : QStringLiteral("%1 → %2").arg(c->before, c->after));
        item->setToolTip(DetailColumn, item->text(DetailColumn));
        m_tree->addTopLevelItem(item);
        auto* open = new QPushButton(tr("Open"), m_tree);
        open->setObjectName(QStringLiteral("openCase"));
        open->setToolTip(tr("Open %1 in the workbench").arg(c->path));
        const QString path = c->path;
        QString firstFile;
        quint64 firstLine = 0;
        if (!c->lines.isEmpty()) {
            firstFile = c->lines.front().file;
            firstLine = c->lines.front().line;
        }
        connect(open, &QPushButton::clicked, this,
            [this, path, firstFile, firstLine] { Q_EMIT openRequested(path, firstFile, firstLine); });
        m_tree->setItemWidget(item, OpenColumn, open);
        if (sweep) {
            for (const auto& l : c->lines) {
                auto* child = new QTreeWidgetItem(item);
                child->setText(CaseColumn, QStringLiteral("%1:%2").arg(l.file).arg(l.line));
                // What became of its event in a word (kept, merged, dropped...), the whole of it in the tooltip; the
                // line's text is what a reviewer reads.
                const QString fate = l.what.section(QStringLiteral(" → "), -1).section(QLatin1Char(':'), 0, 0);
                child->setText(StatusColumn, fate);
                child->setToolTip(StatusColumn, l.what);
                child->setText(DetailColumn, l.text);
                child->setToolTip(DetailColumn, l.text);
                child->setData(CaseColumn, kCaseRole, c->path);
                child->setData(CaseColumn, kFileRole, l.file);
                child->setData(CaseColumn, kLineRole, l.line);
            }
        } else {
            // The diff's lines across the whole row: they are sentences, not columns.
            for (const QString& d : c->details) {
                auto* child = new QTreeWidgetItem(item);
                child->setText(CaseColumn, d);
                child->setToolTip(CaseColumn, d);
                child->setData(CaseColumn, kCaseRole, c->path);
                child->setFirstColumnSpanned(true);
            }
        }
        item->setExpanded(c->flagged);
    }
    // The case column fits the case names (the spanned lines below them do not count).
    int widest = m_tree->header()->sectionSizeHint(CaseColumn);
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i)
        widest =
            std::max(widest, m_tree->fontMetrics().horizontalAdvance(m_tree->topLevelItem(i)->text(CaseColumn)) + 48);
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i)
        for (int k = 0; k < m_tree->topLevelItem(i)->childCount(); ++k)
            if (!m_tree->topLevelItem(i)->child(k)->isFirstColumnSpanned())
                widest = std::max(widest,
                    m_tree->fontMetrics().horizontalAdvance(m_tree->topLevelItem(i)->child(k)->text(CaseColumn)) + 48);
    m_tree->setColumnWidth(CaseColumn, widest);
    m_tree->resizeColumnToContents(OpenColumn);
    m_tree->resizeColumnToContents(StatusColumn);
}

void LibraryResultsPane::setBusy(bool busy, const QString& what)
{
    m_progress->setVisible(busy);
    m_cancel->setVisible(busy);
    m_progress->setText(what);
}

void LibraryResultsPane::setFailed(const QString& message)
{
    m_results = {};
    m_tree->clear();
    m_summary->setText(
        QStringLiteral("<b>%1</b><br>%2").arg(tr("The library could not be run."), message.toHtmlEscaped()));
}

QStringList LibraryResultsPane::shownCases() const
{
    QStringList out;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i)
        out << m_tree->topLevelItem(i)->data(CaseColumn, kCaseRole).toString();
    return out;
}

QPushButton* LibraryResultsPane::openButton(const QString& casePath) const
{
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = m_tree->topLevelItem(i);
        if (item->data(CaseColumn, kCaseRole).toString() == casePath)
            return qobject_cast<QPushButton*>(m_tree->itemWidget(item, OpenColumn));
    }
    return nullptr;
}

} // namespace faultline::views
