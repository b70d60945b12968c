// SPDX-License-Identifier: Apache-2.0
// The rules pane: the catalog the open analysis used, one row per rule (kind, domain, how much it did in this case,
// its tests, where it is defined), filtered as you type, with the selected rule's details below. Double-click (or
// Enter) on a rule steps through the events it made or linked; selecting an event elsewhere selects its rule here.
//
// Thread affinity: UI thread. The pane shows what it is given (setResult) and emits eventRequested; it never runs
// the engine.
#pragma once

#include "views/models/analysis_result.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QTextBrowser;

namespace faultline::views {

class RulesModel;

class RulesPane : public QWidget
{
    Q_OBJECT
public:
    explicit RulesPane(QWidget* parent = nullptr);

    void setResult(const AnalysisResult& result);
    RulesModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    QLineEdit* filterBox() const { return m_filter; }
    /// The id of the rule in the current row ("" when none).
    QString currentRule() const;
    /// The details shown for the current rule (HTML as plain text, for tests).
    QString details() const;

public Q_SLOTS:
    /// Makes the rule that made event `eventIndex` current (no signal); clears the selection when no rule did.
    void selectRuleOfEvent(int eventIndex);
    /// Makes the rule with this id current and shows it (the filter is cleared when it hides the rule).
    void selectRule(const QString& id);

Q_SIGNALS:
    /// The user asked for the next event of the current rule: the verdict's event `eventIndex`.
    void eventRequested(int eventIndex);

private:
    void activate(const QModelIndex& index);
    void showDetails();

    RulesModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QLineEdit* m_filter;
    QTableView* m_view;
    QTextBrowser* m_details;
    QLabel* m_summary;
    QString m_stepping; ///< the rule whose events Enter/double-click steps through
    int m_step = -1;
};

} // namespace faultline::views
