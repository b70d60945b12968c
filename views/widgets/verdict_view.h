// SPDX-License-Identifier: Apache-2.0
// The verdict panel: outcome banner, cause, action, blamed and symptom nodes, coverage, the ranked alternatives and
// the evidence trail. The verdict as text (what faultline-cli prints) opens from "Text Report…" for copying into a
// ticket; while a case's stored verdict is shown (before its re-analysis gives the trail), that text is shown inline.
#pragma once

#include "views/models/analysis_result.h"

#include <QWidget>

class QLabel;
class QToolButton;
class QTableView;
class QPlainTextEdit;
class QScrollArea;

namespace faultline::views {

class EvidenceTrailModel;

class VerdictView : public QWidget
{
    Q_OBJECT
public:
    explicit VerdictView(QWidget* parent = nullptr);

    void setResult(const AnalysisResult& result);
    void clear(const QString& message);
    /// Shows a case's stored verdict (banner and text) until the re-analysis gives the full result.
    void showStored(const StoredVerdictSummary& stored);
    /// Offers "Add Note on This Evidence Line…" in the trail's context menu (when the evidence lives in a case).
    void setNotesEnabled(bool enabled) { m_notesEnabled = enabled; }
    /// Makes the trail row of event `eventIndex` current (no signal); false when the trail does not list it.
    bool selectEvent(int eventIndex);
    QTableView* trail() const { return m_trail; }
    /// The verdict as text, as faultline-cli prints it ("" when none is shown).
    QString reportText() const;
    /// Opens the text report in a dialog.
    void showReport();
    /// The height that shows the banner, the cause and action text wrapped at the view's width, the coverage strip and
    /// `trailRows` rows of the evidence trail (with its header), as the view is laid out now.
    int heightFor(int trailRows) const;

Q_SIGNALS:
    /// The user asked to annotate the evidence line of the verdict's event `eventIndex`.
    void noteRequested(int eventIndex);
    /// A row of the evidence trail became current: the verdict's event `eventIndex`.
    void eventSelected(int eventIndex);

private:
    /// `hypothesis`: the verdict only names a leading hypothesis (amber, "not confirmed").
    void setBanner(const std::string& outcome, const QString& what, const QString& small, bool hypothesis = false);
    void showCoverage(const core::Verdict& v);
    void showAlternatives(const core::Verdict& v);

    QLabel* m_banner;
    QLabel* m_details;
    QScrollArea* m_detailsArea; ///< holds m_details: scrolls when squeezed rather than cutting off its last lines
    QLabel* m_coverage; ///< one line per verdict: each source kind's coverage, reasons in the tooltip
    QToolButton* m_alternatives; ///< the ranked alternatives, each with why it lost; picking one selects it
    QToolButton* m_reportButton;
    QTableView* m_trail;
    QPlainTextEdit* m_report; ///< the stored verdict's text, shown while a case's re-analysis runs
    QString m_reportText;
    EvidenceTrailModel* m_model;
    bool m_notesEnabled = false;
    bool m_selecting = false; ///< selectEvent is moving the current row: no eventSelected
};

} // namespace faultline::views
