// SPDX-License-Identifier: Apache-2.0
// Table model over a case's current annotations (narratives aside) and how each stands in the analysis shown: kind,
// target, text, tags, author, time and whether its event is still found. Thread affinity: UI thread; data comes in
// as plain values the app read off the UI thread.
#pragma once

#include "core/model/case_records.h"

#include <QAbstractTableModel>

#include <cstdint>
#include <vector>

namespace faultline::views {

class AnnotationsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        KindColumn,
        TextColumn, ///< first after the kind: what a person wrote is what the list is for
        TargetColumn,
        StatusColumn, ///< whether it is still found in the analysis shown, and why not
        TagsColumn,
        AuthorColumn,
        TimeColumn,
        ColumnCount
    };
    enum Role {
        IdRole = Qt::UserRole, ///< Annotation::id
        MatchedRole, ///< bool: the target is found in the analysis shown
        KindRole, ///< "bookmark", "note", "tag"
        SortRole,
    };

    explicit AnnotationsModel(QObject* parent = nullptr);

    /// `resolutions` are the annotations' (same order, or empty: none resolved); narratives are left out.
    void setAnnotations(std::vector<core::Annotation> annotations, std::vector<core::AnnotationResolution> resolutions);
    const core::Annotation* annotation(int row) const;
    /// The row's resolution; null when none was made.
    const core::AnnotationResolution* resolution(int row) const;
    /// The row of annotation `id`, or -1.
    int rowOf(std::int64_t id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// "2026-12-01 16:00 UTC" for an RFC 3339 stamp.
    static QString formatCreated(const std::string& rfc3339);
    /// The status as the pane shows it: "matched (event 12)", or the reason it is not.
    static QString statusText(const core::Annotation& a, const core::AnnotationResolution* r);

private:
    std::vector<core::Annotation> m_annotations;
    std::vector<core::AnnotationResolution> m_resolutions; ///< by row; empty: none
};

} // namespace faultline::views
