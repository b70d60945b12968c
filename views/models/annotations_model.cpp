// SPDX-License-Identifier: Apache-2.0
#include "views/models/annotations_model.h"

#include "core/model/annotations.h"

#include <QColor>
#include <QStringList>

namespace faultline::views {

namespace {

QString qs(const std::string& s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QString tagsText(const core::Annotation& a)
{
    QStringList tags;
    if (a.kind == "tag")
        tags << qs(a.text);
    for (const auto& t : a.tags)
        tags << qs(t);
    return tags.join(QStringLiteral(", "));
}

} // namespace

AnnotationsModel::AnnotationsModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void AnnotationsModel::setAnnotations(
    std::vector<core::Annotation> annotations, std::vector<core::AnnotationResolution> resolutions)
{
    beginResetModel();
    m_annotations.clear();
    m_resolutions.clear();
    const bool resolved = resolutions.size() == annotations.size();
    for (std::size_t i = 0; i < annotations.size(); ++i) {
        if (annotations[i].kind == "narrative")
            continue;
        m_annotations.push_back(std::move(annotations[i]));
        if (resolved)
            m_resolutions.push_back(std::move(resolutions[i]));
    }
    endResetModel();
}

const core::Annotation* AnnotationsModel::annotation(int row) const
{
    return row >= 0 && static_cast<std::size_t>(row) < m_annotations.size()
        ? &m_annotations[static_cast<std::size_t>(row)]
        : nullptr;
}

const core::AnnotationResolution* AnnotationsModel::resolution(int row) const
{
    return row >= 0 && static_cast<std::size_t>(row) < m_resolutions.size()
        ? &m_resolutions[static_cast<std::size_t>(row)]
        : nullptr;
}

int AnnotationsModel::rowOf(std::int64_t id) const
{
    for (std::size_t i = 0; i < m_annotations.size(); ++i)
        if (m_annotations[i].id == id)
            return static_cast<int>(i);
    return -1;
}

int AnnotationsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_annotations.size());
}

int AnnotationsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString AnnotationsModel::formatCreated(const std::string& rfc3339)
{
    QString s = qs(rfc3339.substr(0, 16));
    s.replace(QLatin1Char('T'), QLatin1Char(' '));
    return s.isEmpty() ? s : s + QStringLiteral(" UTC");
}

QString AnnotationsModel::statusText(const core::Annotation& a, const core::AnnotationResolution* r)
{
    if (!r)
        return {};
    if (!r->matched)
        return qs(r->reason);
    if ((a.target == "event" || a.target == "symptom") && r->eventIndex >= 0)
        return tr("matched (event %1)").arg(r->eventIndex);
    return tr("matched");
}

QVariant AnnotationsModel::data(const QModelIndex& index, int role) const
{
    const auto* a = annotation(index.row());
    if (!a || index.column() < 0 || index.column() >= ColumnCount)
        return {};
    const auto* r = resolution(index.row());
    switch (role) {
    case IdRole:
        return QVariant::fromValue<qint64>(a->id);
    case MatchedRole:
        return !r || r->matched;
    case KindRole:
        return qs(a->kind);
    case Qt::ForegroundRole:
        // An annotation whose event is no longer found stands out in every column, so a narrow pane shows it too.
        if (r && !r->matched)
            return QColor(176, 0, 32);
        return {};
    case Qt::ToolTipRole:
        if (r && !r->matched)
            return statusText(*a, r);
        if (index.column() == StatusColumn || index.column() == TextColumn)
            return index.column() == StatusColumn ? statusText(*a, r) : qs(a->text);
        return {};
    case Qt::DisplayRole:
    case SortRole:
        switch (static_cast<Column>(index.column())) {
        case KindColumn:
            return qs(a->kind);
        case TargetColumn:
            return qs(core::describeTarget(*a));
        case TextColumn: {
            QString t = a->kind == "tag" ? QString() : qs(a->text);
            return role == Qt::DisplayRole ? t.section(QLatin1Char('\n'), 0, 0) : t;
        }
        case TagsColumn:
            return tagsText(*a);
        case AuthorColumn:
            return qs(a->author);
        case TimeColumn:
            return role == SortRole ? QVariant(qs(a->createdAt)) : QVariant(formatCreated(a->createdAt));
        case StatusColumn:
            return statusText(*a, r);
        case ColumnCount:
            break;
        }
        return {};
    default:
        return {};
    }
}

QVariant AnnotationsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (static_cast<Column>(section)) {
    case KindColumn:
        return tr("Kind");
    case TargetColumn:
        return tr("On");
    case TextColumn:
        return tr("Text");
    case TagsColumn:
        return tr("Tags");
    case AuthorColumn:
        return tr("Author");
    case TimeColumn:
        return tr("Time");
    case StatusColumn:
        return tr("In this analysis");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace faultline::views
