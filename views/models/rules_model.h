// SPDX-License-Identifier: Apache-2.0
// Table model over a rule catalog: one row per rule (extractors, metric rules, filters, correlators, hypotheses)
// with its kind, the domain it assigns, where it is defined, how many tests it carries and how much it did in the
// open analysis (events it made; links a correlator drew). Thread affinity: UI thread; data comes in as an immutable
// AnalysisResult (its catalog and verdict).
#pragma once

#include "views/models/analysis_result.h"

#include <QAbstractTableModel>

#include <string>
#include <unordered_map>
#include <vector>

namespace faultline::views {

class RulesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        IdColumn,
        VersionColumn,
        KindColumn,
        DomainColumn,
        UsedColumn,
        TestsColumn,
        OriginColumn,
        ColumnCount
    };
    enum Role {
        RuleIdRole = Qt::UserRole, ///< the rule's id
        EventsRole, ///< QList<int>: the verdict's events this rule made (or linked, for a correlator), in time order
        DetailsRole, ///< HTML: description, what it matches or selects, its tests
        SortRole,
    };

    explicit RulesModel(QObject* parent = nullptr);

    void setResult(const AnalysisResult& result);

    /// The row of the rule that made event `eventIndex` (its extractor or metric rule), or -1.
    int rowOfEvent(int eventIndex) const;
    /// The row of the rule with this id, or -1.
    int rowOfRule(const QString& id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        QString id;
        QString kind;
        QString domain;
        QString origin;
        QString details;
        int tests = 0;
        int version = 0; ///< the rule's own version, 0 when it states none
        std::vector<int> events;
        bool counts = true; ///< the kind makes or links events (filters and hypotheses show no count)
        bool correlator = false; ///< counts the links it drew, not events it made
    };
    std::vector<Row> m_rows;
    std::unordered_map<std::string, int> m_rowOfId;
    AnalysisResult m_result;
};

} // namespace faultline::views
