// SPDX-License-Identifier: Apache-2.0
// The verdict panel: outcome banner, cause, action, blamed and symptom nodes, coverage, and the evidence trail.
// The full linked workbench (timeline, provenance, charts) comes with the Workbench issue.
#pragma once

#include "views/models/analysis_result.h"

#include <QWidget>

class QLabel;
class QTableView;
class QPlainTextEdit;

namespace faultline::views {

class EvidenceTrailModel;

class VerdictView : public QWidget
{
    Q_OBJECT
public:
    explicit VerdictView(QWidget* parent = nullptr);

    void setResult(const AnalysisResult& result);
    void clear(const QString& message);

private:
    QLabel* m_banner;
    QLabel* m_details;
    QTableView* m_trail;
    QPlainTextEdit* m_report;
    EvidenceTrailModel* m_model;
};

} // namespace faultline::views
