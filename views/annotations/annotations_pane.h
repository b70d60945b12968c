// SPDX-License-Identifier: Apache-2.0
// The annotations pane: every current annotation of the case shown (bookmarks, notes, tags on events, lines,
// symptoms, lanes, ranges and the case), with whether each is still found in the analysis shown, filterable by text
// and kind. Selecting a row asks for its target to be selected in every view; a double click (or Enter) asks to edit
// it; Delete asks to remove it after a confirmation. It never reads or writes the case: requests go out as signals.
// Thread affinity: UI thread.
#pragma once

#include "core/model/case_records.h"

#include <QWidget>

#include <cstdint>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace faultline::views {

class AnnotationsModel;

class AnnotationsPane : public QWidget
{
    Q_OBJECT
public:
    explicit AnnotationsPane(QWidget* parent = nullptr);

    /// Lists `annotations` (narratives left out) with their resolutions in the analysis named `scope` ("run 2").
    void setAnnotations(const std::vector<core::Annotation>& annotations,
        const std::vector<core::AnnotationResolution>& resolutions, const QString& scope);
    /// No list: `message` says why (no case is open, the case is loading).
    void showMessage(const QString& message);
    /// Makes annotation `id` the current row (without emitting annotationActivated).
    void selectAnnotation(std::int64_t id);
    /// The current row's annotation id (0: none).
    std::int64_t currentId() const;
    /// The current row's annotation (null: none).
    const core::Annotation* currentAnnotation() const;

    AnnotationsModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    QLineEdit* filterBox() const { return m_filter; }
    QComboBox* kindFilter() const { return m_kinds; }
    /// Rows shown after filtering.
    int shownRows() const;

Q_SIGNALS:
    /// The user made annotation `id` current: its target should be selected everywhere.
    void annotationActivated(std::int64_t id);
    void editRequested(std::int64_t id);
    /// The user confirmed removing annotation `id`.
    void removeRequested(std::int64_t id);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void confirmRemove();
    void updateSummary();

    AnnotationsModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QLineEdit* m_filter;
    QComboBox* m_kinds;
    QPushButton* m_remove;
    QLabel* m_summary;
    QString m_scope;
    bool m_selecting = false;
};

} // namespace faultline::views
