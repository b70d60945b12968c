// SPDX-License-Identifier: Apache-2.0
// Table model over a verdict's symptom groups: type, count, node and rank spread, first and last seen, and the
// delay after the cause. Thread affinity: UI thread; data comes in as an immutable AnalysisResult.
#pragma once

#include "views/models/analysis_result.h"

#include <QAbstractTableModel>

namespace faultline::views {

class SymptomsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        TypeColumn,
        CountColumn,
        DelayColumn, ///< next to the count: how long after the cause, the first thing an SRE compares
        NodesColumn,
        RanksColumn,
        FirstColumn,
        LastColumn,
        ColumnCount
    };
    enum Role {
        FirstEventRole = Qt::UserRole, ///< index into Verdict::events of the group's first event
        FirstTimeNsRole,
        DelayNsRole, ///< first seen minus the cause's time (INT64_MIN when there is no cause)
        SortRole,
    };

    explicit SymptomsModel(QObject* parent = nullptr);

    void setResult(const AnalysisResult& result);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// "+4.9s", "+10m 00s", "-1.2s": a delay as an SRE reads it.
    static QString formatDelay(qint64 ns);

private:
    AnalysisResult m_result;
};

} // namespace faultline::views
