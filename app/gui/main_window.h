// SPDX-License-Identifier: Apache-2.0
// The workbench main window. It starts on a start page (sample, Open…, recent cases, how to collect a bundle), opens a
// bundle directory, an archive, a single file or a case file and shows its verdict in linked views (timeline,
// evidence, symptoms, metrics), saves an analysis as a case and adds runs to an open case, and annotates the case
// from every view (Annotate ▸ M and C, the Annotations dock).
#pragma once

#include "app/render/report_export.h"
#include "app/usecases/case_history.h"
#include "views/models/analysis_result.h"

#include <QMainWindow>

#include <cstdint>
#include <optional>

class QAction;
class QMenu;
class QProgressBar;
class QPushButton;
class QLabel;
class QSplitter;
class QStackedWidget;
class QTableView;

namespace faultline::views {
class AnnotationsPane;
class CaseView;
class EvidencePane;
class MetricsPane;
class RulesPane;
class SearchPane;
class StartPage;
class StoryPane;
class SymptomsModel;
class TimelineView;
class WorkbenchSelection;
class VerdictView;
} // namespace faultline::views

namespace faultline::app {

class AnalysisController;
class CaseController;
class CatalogController;
class RuleWorkbench;
class RedactDialog;
class SearchController;
class StoryController;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    /// `sampleDir` is the bundled sample incident the start page offers (empty: not installed). The rule catalog in
    /// `rulesDir`, with the user's own packs and the Rule Packs setting's directories (QSettings "rules/userPacks",
    /// "rules/packDirs") layered on it, starts loading off the UI thread at once.
    explicit MainWindow(const QString& rulesDir, const QString& sampleDir = {}, QWidget* parent = nullptr);

    void openBundle(const QString& path);
    /// Analyses several paths (directories, archives, files) as one bundle.
    void openBundles(const QStringList& paths);
    /// What `faultline PATH...` and a drop do: a case opens on its own, anything else as one bundle.
    void openPaths(const QStringList& paths);
    /// Every shortcut (keys, what it does): the menus' actions, then the panes' keys. Help ▸ Keyboard Shortcuts.
    QList<QPair<QString, QString>> shortcuts() const;
    void showShortcuts();
    views::CaseView* caseView() const { return m_caseView; }
    CaseController* caseController() const { return m_case; }
    views::StartPage* startPage() const { return m_start; }
    views::EvidencePane* evidencePane() const { return m_evidence; }
    views::VerdictView* verdictView() const { return m_view; }
    views::TimelineView* timeline() const { return m_timeline; }
    QTableView* symptomsTable() const { return m_symptoms; }
    views::WorkbenchSelection* selection() const { return m_selection; }
    views::MetricsPane* metrics() const { return m_metrics; }
    views::SearchPane* searchPane() const { return m_searchPane; }
    views::RulesPane* rulesPane() const { return m_rulesPane; }
    /// The analysis shown (empty before the first, or after a failure).
    const views::AnalysisResult& result() const { return m_result; }
    /// Shows a search hit: its line in the evidence pane, the cursor at its time.
    void showHit(const QString& path, quint64 line, qint64 timeNs);
    /// F3 / Shift+F3: the next or previous search hit (wrapping).
    void stepHit(int step);
    /// Selects the verdict's event `eventIndex` everywhere: the trail row, the timeline mark, the symptom row and its
    /// raw line in the evidence pane (through the shared WorkbenchSelection).
    void selectEvent(int eventIndex);
    /// The start page: the sample, Open…, the recent cases and how to collect a bundle.
    void showStartPage();
    /// Recent case files, newest first (QSettings "recentCases", at most 10).
    QStringList recentCases() const;
    void showAbout();
    void showHowToCollect();
    CatalogController* catalogController() const { return m_catalogs; }
    /// The rule editor, its case-library results and the Rules menu's editing actions.
    RuleWorkbench* ruleWorkbench() const { return m_ruleWorkbench; }
    /// Rules ▸ Reload Catalog: loads the catalog again off the UI thread; later analyses use it once it has loaded
    /// without errors (its errors are shown otherwise, and the catalog in use stays).
    void reloadCatalog();
    /// Rules ▸ Rule Packs…: the user's own packs on or off, and more pack directories; OK stores them and reloads.
    void showRulePacks();
    /// Rules ▸ Catalog Diagnostics…: the last load's errors and warnings, each at its file, line and column.
    void showCatalogDiagnostics();
    /// The status bar's permanent label for the catalog in use (version, hash, pack layers).
    QLabel* catalogStatus() const { return m_catalogStatus; }
    /// Opens a case file: its stored evidence is re-analysed off the UI thread (with its latest run's own rules, or
    /// the current ones) and compared with that run.
    void openCase(const QString& path, bool currentRules = false);
    /// Saves the shown analysis as a new case (off the UI thread).
    void saveCase(const QString& path);
    /// File ▸ Export Report…: asks for the format, the redaction and the file (ExportReportDialog), then exports.
    void showExportReport();
    /// Exports the open case's report off the UI thread (render::ReportExport) with a progress dialog and Cancel;
    /// reportExported follows, and a failure is shown in a message box. The request's case and rules are the
    /// window's when empty. False when no case is open or an export runs.
    bool exportReport(render::ExportRequest request);
    /// File ▸ Export Redacted Copy…: the redaction dialog for the open case (a preview of every replacement, then
    /// the copy); null when no case is open. It deletes itself when closed.
    RedactDialog* showExportRedacted();

    /// Annotate ▸ Toggle Bookmark (M): bookmarks the current selection of the pane in use (the timeline's event,
    /// lane or measured range, the evidence viewer's line, the symptom row, the trail's event, the annotations
    /// pane's row), or removes its bookmark. Without a saved case, says so and offers to save it.
    void toggleBookmark();
    /// Annotate ▸ Comment… (C): the comment editor (text and tags) for the current selection.
    void comment();
    /// Selects annotation `id`'s target in every view (the annotations pane does so when a row becomes current).
    void selectAnnotationTarget(std::int64_t id);
    /// Opens the comment editor on annotation `id` (a double click in the annotations pane).
    void editAnnotation(std::int64_t id);
    /// Who annotations are written by: the Annotate ▸ Annotation Author… setting (QSettings "annotations/author"),
    /// else the OS user.
    QString annotationAuthor() const;
    views::AnnotationsPane* annotationsPane() const { return m_annotations; }
    /// The story pane and what drives it (capturing and restoring view states, editing, presenting).
    views::StoryPane* storyPane() const { return m_storyPane; }
    StoryController* storyController() const { return m_story; }
    /// Shows `text` in the status bar.
    void showStatus(const QString& text);
    /// False when no saved case can take annotations or story steps: says why, offering to save an analysis first.
    bool canAnnotate();
    QAction* bookmarkAction() const { return m_bookmark; }
    QAction* commentAction() const { return m_comment; }

Q_SIGNALS:
    void resultShown();
    /// A catalog load finished (at start or after reloadCatalog); `ok` as CatalogController::loaded.
    void catalogLoaded(bool ok);
    /// A case's stored verdict is shown (before its re-analysis ends with resultShown).
    void storedVerdictShown();
    /// The annotations every pane draws were updated (after a case's history arrived or an annotation was written).
    void annotationsShown();
    /// An export of the report ended (written, failed or cancelled).
    void reportExported(const faultline::render::ExportOutcome& outcome);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void chooseBundle();
    void chooseFile();
    void chooseCase();
    void rememberCase(const QString& path);
    /// Shows the selected event in every pane (the WorkbenchSelection's eventChanged).
    void presentEvent(int eventIndex);
    void selectSymptomRowOf(int eventIndex);
    /// Empties the panes that show an analysis (timeline, evidence) while the next one is made.
    void clearPanes();
    void alignMetrics();
    void refreshRecent();
    void chooseSaveCase();
    void updateActions();
    /// Gives the timeline the height its lanes need (up to 60%), the verdict and its trail the rest, until the
    /// user moves the splitter.
    void fitWorkbench();
    void showResult(const views::AnalysisResult& result);
    void showFailure(const QString& message);
    void catalogFinished(bool ok);
    /// The About text's catalog part, from the catalog in use.
    QString aboutText() const;

    QString m_rulesDir;
    CatalogController* m_catalogs;
    RuleWorkbench* m_ruleWorkbench = nullptr;
    QLabel* m_catalogStatus;
    bool m_reloadAsked = false; ///< the running load is one the user asked for: its errors are shown at once
    QString m_sampleDir;
    AnalysisController* m_controller;
    QStackedWidget* m_stack;
    QSplitter* m_workbench = nullptr; ///< the verdict view over the timeline
    bool m_workbenchSized = false; ///< the user moved the splitter (or it was restored): leave it
    views::StartPage* m_start;
    views::VerdictView* m_view;
    views::EvidencePane* m_evidence;
    views::TimelineView* m_timeline;
    views::WorkbenchSelection* m_selection;
    views::MetricsPane* m_metrics;
    std::pair<int, int> m_metricsMargins; ///< the pane's own plot margins, used when it cannot align with the timeline
    views::SearchPane* m_searchPane;
    views::RulesPane* m_rulesPane;
    SearchController* m_searcher;
    QTableView* m_symptoms = nullptr;
    views::SymptomsModel* m_symptomsModel = nullptr;
    QMenu* m_recentMenu = nullptr;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QLabel* m_status;
    QString m_bundle;
    views::AnalysisResult m_result;
    views::CaseView* m_caseView = nullptr;
    CaseController* m_case = nullptr;
    QAction* m_saveCase = nullptr;
    QAction* m_addRun = nullptr;
    QAction* m_rerun = nullptr;
    QAction* m_exportReport = nullptr;
    QAction* m_exportRedacted = nullptr;
    render::ReportExport* m_reportExport = nullptr;

    /// What M and C annotate: the target and how to name it.
    struct AnnotationAim
    {
        usecases::AnnotationTarget target;
        QString what; ///< "event Xid 149 … at nodes/node-02/dmesg.txt:70"
    };
    /// The current selection of the pane in use; nullopt (with `why`) when it has none.
    std::optional<AnnotationAim> currentAim(QString& why) const;
    AnnotationAim eventAim(int eventIndex) const;
    void showAnnotations();
    void chooseAnnotationAuthor();
    views::AnnotationsPane* m_annotations = nullptr;
    views::StoryPane* m_storyPane = nullptr;
    StoryController* m_story = nullptr;
    QAction* m_bookmark = nullptr;
    QAction* m_comment = nullptr;
    QWidget* m_lastPane = nullptr; ///< the pane that had the focus last (the one M and C annotate)
};

} // namespace faultline::app
