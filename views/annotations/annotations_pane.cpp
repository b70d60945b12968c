// SPDX-License-Identifier: Apache-2.0
#include "views/annotations/annotations_pane.h"

#include "views/models/annotations_model.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace faultline::views {

namespace {

/// The pane's filter: a text in any column, and one kind (or only the annotations no longer matched).
class AnnotationFilter : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    void setKind(const QString& kind)
    {
        m_kind = kind;
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override
    {
        const QModelIndex first = sourceModel()->index(row, 0, parent);
        if (m_kind == QLatin1String("unmatched") && first.data(AnnotationsModel::MatchedRole).toBool())
            return false;
        if (!m_kind.isEmpty() && m_kind != QLatin1String("unmatched")
            && first.data(AnnotationsModel::KindRole).toString() != m_kind)
            return false;
        return QSortFilterProxyModel::filterAcceptsRow(row, parent);
    }

private:
    QString m_kind;
};

} // namespace

AnnotationsPane::AnnotationsPane(QWidget* parent)
    : QWidget(parent)
    , m_model(new AnnotationsModel(this))
    , m_proxy(new AnnotationFilter(this))
    , m_view(new QTableView(this))
    , m_filter(new QLineEdit(this))
    , m_kinds(new QComboBox(this))
    , m_remove(new QPushButton(tr("Remove…"), this))
    , m_summary(new QLabel(this))
{
    setObjectName(QStringLiteral("annotationsPane"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setSortRole(AnnotationsModel::SortRole);
    m_view->setObjectName(QStringLiteral("annotations"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(AnnotationsModel::TimeColumn, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    m_view->installEventFilter(this);
    m_filter->setObjectName(QStringLiteral("annotationsFilter"));
    m_filter->setPlaceholderText(tr("Filter: text, tag, author, target…"));
    m_filter->setClearButtonEnabled(true);
    m_kinds->setObjectName(QStringLiteral("annotationsKind"));
    m_kinds->addItem(tr("All kinds"), QString());
    m_kinds->addItem(tr("Bookmarks"), QStringLiteral("bookmark"));
    m_kinds->addItem(tr("Notes"), QStringLiteral("note"));
    m_kinds->addItem(tr("Tags"), QStringLiteral("tag"));
    m_kinds->addItem(tr("No longer matched"), QStringLiteral("unmatched"));
    m_remove->setObjectName(QStringLiteral("removeAnnotation"));
    m_remove->setToolTip(tr("Remove the selected annotation (the case keeps it in its history)"));
    m_remove->setEnabled(false);
    m_summary->setObjectName(QStringLiteral("annotationsSummary"));
    m_summary->setWordWrap(true);
    auto* top = new QHBoxLayout;
    top->setContentsMargins(4, 2, 4, 0);
    top->addWidget(m_filter, 1);
    top->addWidget(m_kinds);
    top->addWidget(m_remove);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_summary);
    layout->addWidget(m_view, 1);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text);
        updateSummary();
    });
    connect(m_kinds, &QComboBox::currentIndexChanged, this, [this] {
        static_cast<AnnotationFilter*>(m_proxy)->setKind(m_kinds->currentData().toString());
        updateSummary();
    });
    connect(
        m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
            m_remove->setEnabled(current.isValid());
            if (current.isValid() && !m_selecting)
                Q_EMIT annotationActivated(current.data(AnnotationsModel::IdRole).toLongLong());
        });
    // A click on the current row selects its target again (the views may have moved on since).
    connect(m_view, &QTableView::clicked, this, [this](const QModelIndex& index) {
        if (index.isValid() && index.row() == m_view->currentIndex().row())
            Q_EMIT annotationActivated(index.data(AnnotationsModel::IdRole).toLongLong());
    });
    connect(m_view, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.isValid())
            Q_EMIT editRequested(index.data(AnnotationsModel::IdRole).toLongLong());
    });
    connect(m_remove, &QPushButton::clicked, this, &AnnotationsPane::confirmRemove);
    showMessage(tr("Open or save a case to annotate it: M bookmarks the selection, C comments on it."));
}

void AnnotationsPane::setAnnotations(const std::vector<core::Annotation>& annotations,
    const std::vector<core::AnnotationResolution>& resolutions, const QString& scope)
{
    const std::int64_t current = currentId();
    m_scope = scope;
    m_model->setAnnotations(annotations, resolutions);
    m_view->setVisible(true);
    m_view->resizeColumnsToContents();
    for (int c = 0; c < AnnotationsModel::ColumnCount; ++c)
        m_view->setColumnWidth(c, std::min(m_view->columnWidth(c), 320));
    if (current)
        selectAnnotation(current);
    updateSummary();
}

void AnnotationsPane::showMessage(const QString& message)
{
    m_model->setAnnotations({}, {});
    m_scope.clear();
    m_summary->setText(message);
    m_remove->setEnabled(false);
}

void AnnotationsPane::updateSummary()
{
    const int all = m_model->rowCount();
    int unmatched = 0;
    for (int r = 0; r < all; ++r)
        unmatched += m_model->index(r, 0).data(AnnotationsModel::MatchedRole).toBool() ? 0 : 1;
    QString text = all == 0 ? tr("No annotations yet: M bookmarks the selection in any view, C comments on it.")
                            : tr("%n annotation(s)", nullptr, all);
    if (shownRows() != all)
        text += tr(", %1 shown").arg(shownRows());
    if (unmatched > 0)
        text += tr(" · %n no longer matched in %1", nullptr, unmatched).arg(m_scope);
    m_summary->setText(text);
}

void AnnotationsPane::selectAnnotation(std::int64_t id)
{
    const int row = m_model->rowOf(id);
    const QModelIndex index = row < 0 ? QModelIndex() : m_proxy->mapFromSource(m_model->index(row, 0));
    m_selecting = true;
    if (index.isValid()) {
        m_view->setCurrentIndex(index);
        m_view->scrollTo(index);
    } else {
        m_view->clearSelection();
    }
    m_selecting = false;
}

std::int64_t AnnotationsPane::currentId() const
{
    const QModelIndex current = m_view->currentIndex();
    return current.isValid() ? current.data(AnnotationsModel::IdRole).toLongLong() : 0;
}

const core::Annotation* AnnotationsPane::currentAnnotation() const
{
    const QModelIndex current = m_view->currentIndex();
    return current.isValid() ? m_model->annotation(m_proxy->mapToSource(current).row()) : nullptr;
}

int AnnotationsPane::shownRows() const
{
    return m_proxy->rowCount();
}

bool AnnotationsPane::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Delete || key->key() == Qt::Key_Backspace) {
            confirmRemove();
            return true;
        }
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) && currentId()) {
            Q_EMIT editRequested(currentId());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void AnnotationsPane::confirmRemove()
{
    const core::Annotation* a = currentAnnotation();
    if (!a)
        return;
    const std::int64_t id = a->id;
    auto* box = new QMessageBox(QMessageBox::Question, tr("Remove Annotation"),
        tr("Remove this %1 on %2?\n\nThe case keeps it in its history.")
            .arg(QString::fromStdString(a->kind),
                m_model->index(m_model->rowOf(id), AnnotationsModel::TargetColumn).data().toString()),
        QMessageBox::Yes | QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("removeAnnotationConfirm"));
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, id](int result) {
        if (result == QMessageBox::Yes)
            Q_EMIT removeRequested(id);
    });
    box->open();
}

} // namespace faultline::views
