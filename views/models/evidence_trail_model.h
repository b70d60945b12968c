// SPDX-License-Identifier: Apache-2.0
// Table model over a verdict's evidence trail: one row per event (time, node, rank, role, label, where).
// Thread affinity: UI thread. Data comes in as an immutable AnalysisResult via setResult().
#pragma once

#include "views/models/analysis_result.h"

#include <QAbstractTableModel>

namespace faultline::views {

class EvidenceTrailModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { TimeColumn, NodeColumn, RankColumn, WhyColumn, LabelColumn, SourceColumn, ColumnCount };
    enum Role { EventIndexRole = Qt::UserRole, TimestampNsRole, SortRole };

    explicit EvidenceTrailModel(QObject* parent = nullptr);

    void setResult(const AnalysisResult& result);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    AnalysisResult m_result;
};

} // namespace faultline::views
