// SPDX-License-Identifier: Apache-2.0
#include "app/gui/main_window.h"

#include "app/gui/analysis_controller.h"
#include "app/gui/case_controller.h"
#include "app/gui/catalog_controller.h"
#include "app/gui/export_report_dialog.h"
#include "app/gui/redact_dialog.h"
#include "app/gui/rule_packs_dialog.h"
#include "app/gui/rule_workbench.h"
#include "app/gui/search_controller.h"
#include "app/gui/story_controller.h"
#include "app/usecases/use_cases.h"
#include "core/model/annotations.h"
#include "core/model/evidence_text.h"
#include "core/rules/rule_catalog.h"
#include "core/time/civil_time.h"
#include "core/version.h"
#include "views/annotations/annotation_marks.h"
#include "views/annotations/annotations_pane.h"
#include "views/annotations/comment_editor.h"
#include "views/case/case_view.h"
#include "views/charts/metric_chart_view.h"
#include "views/evidence/evidence_viewer.h"
#include "views/help/help_dialogs.h"
#include "views/models/symptoms_model.h"
#include "views/rules/rules_pane.h"
#include "views/search/search_pane.h"
#include "views/start/start_page.h"
#include "views/state/workbench_selection.h"
#include "views/story/story_pane.h"
#include "views/timeline/timeline_view.h"
#include "views/widgets/verdict_view.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPointer>
#include <QProgressBar>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>
#include <QUrl>

#include <algorithm>
#include <memory>
#include <utility>

namespace faultline::app {

namespace {

constexpr int kMaxRecent = 10;
const QString kRecentKey = QStringLiteral("recentCases");
const QString kPackDirsKey = QStringLiteral("rules/packDirs");
const QString kUserPacksKey = QStringLiteral("rules/userPacks");

/// Bumped when the docks change, so that an older saved layout is not restored over a different set of panes.
constexpr int kStateVersion = 6;
const QString kAuthorKey = QStringLiteral("annotations/author");

/// The local files and directories a drop carries.
QStringList localPaths(const QMimeData* mime)
{
    QStringList paths;
    if (mime && mime->hasUrls())
        for (const QUrl& url : mime->urls())
            if (url.isLocalFile())
                paths << url.toLocalFile();
    return paths;
}

QString resourceText(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

MainWindow::MainWindow(const QString& rulesDir, const QString& sampleDir, QWidget* parent)
    : QMainWindow(parent)
    , m_rulesDir(rulesDir)
    , m_catalogs(new CatalogController(rulesDir, this))
    , m_catalogStatus(new QLabel(this))
    , m_sampleDir(sampleDir)
    , m_controller(new AnalysisController(rulesDir, this))
    , m_stack(new QStackedWidget(this))
    , m_start(new views::StartPage(this))
    , m_view(new views::VerdictView(this))
    , m_evidence(new views::EvidencePane(this))
    , m_timeline(new views::TimelineView(this))
    , m_selection(new views::WorkbenchSelection(this))
    , m_metrics(new views::MetricsPane(this))
    , m_searchPane(new views::SearchPane(this))
    , m_rulesPane(new views::RulesPane(this))
    , m_searcher(new SearchController(this))
    , m_progress(new QProgressBar(this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_status(new QLabel(this))
{
    setWindowTitle(tr("Faultline"));
    // The workbench: the verdict and its trail above the per-node timeline.
    auto* workbench = new QSplitter(Qt::Vertical, this);
    workbench->setObjectName(QStringLiteral("workbench"));
    workbench->addWidget(m_view);
    workbench->addWidget(m_timeline);
    workbench->setStretchFactor(0, 1);
    workbench->setStretchFactor(1, 1);
    m_workbench = workbench;
    connect(workbench, &QSplitter::splitterMoved, this, [this] { m_workbenchSized = true; });
    m_stack->addWidget(m_start);
    m_stack->addWidget(workbench);
    setCentralWidget(m_stack);
    m_view->clear(tr("Open an evidence bundle (File ▸ Open Bundle…)"));
    m_start->setSampleAvailable(!m_sampleDir.isEmpty(),
        m_sampleDir.isEmpty() ? tr("The sample incident is not installed with this build.") : QString());
    connect(m_start, &views::StartPage::openSampleRequested, this, [this] { openBundle(m_sampleDir); });
    connect(m_start, &views::StartPage::openBundleRequested, this, &MainWindow::chooseBundle);
    connect(m_start, &views::StartPage::openFileRequested, this, &MainWindow::chooseFile);
    connect(m_start, &views::StartPage::openCaseRequested, this, &MainWindow::chooseCase);
    connect(m_start, &views::StartPage::openRecentRequested, this, [this](const QString& path) { openCase(path); });
    connect(m_start, &views::StartPage::howToCollectRequested, this, &MainWindow::showHowToCollect);

    auto* file = menuBar()->addMenu(tr("&File"));
    auto* open = file->addAction(tr("&Open Bundle Directory…"), this, &MainWindow::chooseBundle);
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open &Archive or File…"), this, &MainWindow::chooseFile);
    auto* openCaseAction = file->addAction(tr("Open &Case…"), this, &MainWindow::chooseCase);
    openCaseAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_recentMenu = file->addMenu(tr("Open &Recent Case"));
    file->addAction(tr("Open the &Sample Incident"), this, [this] { openBundle(m_sampleDir); })
        ->setEnabled(!m_sampleDir.isEmpty());
    file->addSeparator();
    m_saveCase = file->addAction(tr("&Save as Case…"), this, &MainWindow::chooseSaveCase);
    m_saveCase->setShortcut(QKeySequence::Save);
    m_rerun = file->addAction(tr("&Re-run the Case with Current Rules"), this, [this] {
        if (!m_result.casePath.empty())
            openCase(QString::fromStdString(m_result.casePath), true);
    });
    m_addRun = file->addAction(tr("&Add This Run to the Case"), this, [this] {
        m_status->setText(tr("Adding the run to the case…"));
        m_controller->addRun(m_result);
    });
    file->addSeparator();
    m_exportReport = file->addAction(tr("Export &Report…"), this, &MainWindow::showExportReport);
    m_exportReport->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportRedacted = file->addAction(tr("Export Re&dacted Copy…"), this, &MainWindow::showExportRedacted);
    m_reportExport = new render::ReportExport(this);
    file->addSeparator();
    auto* quit = file->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);
    statusBar()->addWidget(m_status, 1);
    m_catalogStatus->setObjectName(QStringLiteral("catalogStatus"));
    statusBar()->addPermanentWidget(m_catalogStatus);
    m_progress->setObjectName(QStringLiteral("analysisProgress"));
    m_cancel->setObjectName(QStringLiteral("cancelAnalysis"));
    m_cancel->setToolTip(tr("Stop the import and analysis; nothing is kept from it"));
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    connect(m_cancel, &QPushButton::clicked, m_controller, &AnalysisController::cancel);
    connect(m_controller, &AnalysisController::progressChanged, this, [this](int percent, const QString& what) {
        m_progress->setValue(percent);
        m_status->setText(what);
    });
    connect(m_controller, &AnalysisController::analysisFinished, this, &MainWindow::showResult);
    connect(
        m_controller, &AnalysisController::storedVerdictReady, this, [this](const views::StoredVerdictSummary& stored) {
            m_view->showStored(stored);
            m_status->setText(
                tr("Showing the stored verdict of run %1; re-analysing the case's evidence…").arg(stored.run));
            Q_EMIT storedVerdictShown();
        });
    connect(m_controller, &AnalysisController::analysisFailed, this, &MainWindow::showFailure);
    connect(m_controller, &AnalysisController::caseSaved, this, [this](const QString& path, const QString& summary) {
        if (m_result.casePath.empty()) {
            // The shown analysis now lives in that case: later runs can be added to it.
            m_result.casePath = path.toStdString();
            m_result.storedRun = 1;
            m_result.matchesStoredRun = true;
            m_case->setAnalysis(m_result);
        } else {
            // A run added to the case: the analysis shown is its latest run now.
            m_case->setAnalysis(m_result, true);
        }
        m_status->setText(tr("%1: %2").arg(QFileInfo(path).fileName(), summary));
        rememberCase(path);
        m_case->showCase(path);
        m_caseView->parentWidget()->setVisible(true);
        m_annotations->parentWidget()->setVisible(true);
        m_storyPane->parentWidget()->setVisible(true);
        m_view->setNotesEnabled(true);
        updateActions();
    });
    connect(m_controller, &AnalysisController::caseFailed, this, [this](const QString& message) {
        m_status->setText(message.section(QLatin1Char('\n'), 0, 0));
        m_status->setToolTip(message);
    });
    auto* dock = new QDockWidget(tr("Case"), this);
    dock->setObjectName(QStringLiteral("caseDock"));
    m_caseView = new views::CaseView(dock);
    m_case = new CaseController(m_caseView, this);
    dock->setWidget(m_caseView);
    addDockWidget(Qt::RightDockWidgetArea, dock);
    dock->setVisible(false);
    connect(m_case, &CaseController::failed, this, [this](const QString& message) {
        m_status->setText(message.section(QLatin1Char('\n'), 0, 0));
        m_status->setToolTip(message);
    });
    // The annotations pane, beside the case's history: every annotation, selecting one selects its target.
    auto* annotationsDock = new QDockWidget(tr("Annotations"), this);
    annotationsDock->setObjectName(QStringLiteral("annotationsDock"));
    m_annotations = new views::AnnotationsPane(annotationsDock);
    annotationsDock->setWidget(m_annotations);
    addDockWidget(Qt::RightDockWidgetArea, annotationsDock);
    tabifyDockWidget(dock, annotationsDock);
    annotationsDock->setVisible(false);
    // The story, beside them: its steps, edited there and presented full screen.
    auto* storyDock = new QDockWidget(tr("Story"), this);
    storyDock->setObjectName(QStringLiteral("storyDock"));
    m_storyPane = new views::StoryPane(storyDock);
    storyDock->setWidget(m_storyPane);
    addDockWidget(Qt::RightDockWidgetArea, storyDock);
    tabifyDockWidget(annotationsDock, storyDock);
    storyDock->setVisible(false);
    connect(m_case, &CaseController::annotationsChanged, this, &MainWindow::showAnnotations);
    connect(m_case, &CaseController::annotated, this, [this](qint64 id, bool removed) {
        m_status->setText(removed ? tr("Annotation #%1 removed (the case keeps it in its history)").arg(id)
                                  : tr("Annotation #%1 saved in the case").arg(id));
        if (!removed)
            m_annotations->selectAnnotation(id);
    });
    connect(m_annotations, &views::AnnotationsPane::annotationActivated, this, &MainWindow::selectAnnotationTarget);
    connect(m_annotations, &views::AnnotationsPane::editRequested, this, &MainWindow::editAnnotation);
    connect(m_annotations, &views::AnnotationsPane::removeRequested, this, [this](std::int64_t id) {
        usecases::AnnotateRequest request;
        request.removeId = id;
        request.author = annotationAuthor().toStdString();
        m_case->annotate(request);
    });
    connect(m_view, &views::VerdictView::noteRequested, this, [this](int eventIndex) {
        if (!m_result.verdict || !m_result.evidence || eventIndex < 0
            || static_cast<std::size_t>(eventIndex) >= m_result.verdict->events.size())
            return;
        const auto& e = m_result.verdict->events[static_cast<std::size_t>(eventIndex)];
        if (e.provenance.empty() || e.provenance.front().source >= m_result.evidence->sources.size())
            return;
        const auto& where = e.provenance.front();
        const QString path = QString::fromStdString(m_result.evidence->sources[where.source].path);
        bool ok = false;
        const QString text = QInputDialog::getMultiLineText(this, tr("Add Note"),
            tr("Note on %1:%2 (%3):").arg(path).arg(where.line).arg(QString::fromStdString(e.label)), {}, &ok);
        if (ok && !text.trimmed().isEmpty())
            m_case->addLineNote(path, where.line, text);
    });
    auto* evidenceDock = new QDockWidget(tr("Evidence"), this);
    evidenceDock->setObjectName(QStringLiteral("evidenceDock"));
    evidenceDock->setWidget(m_evidence);
    addDockWidget(Qt::BottomDockWidgetArea, evidenceDock);
    evidenceDock->setVisible(false);
    resizeDocks({ evidenceDock }, { 200 }, Qt::Vertical);
    auto* symptomsDock = new QDockWidget(tr("Symptoms"), this);
    symptomsDock->setObjectName(QStringLiteral("symptomsDock"));
    m_symptoms = new QTableView(symptomsDock);
    m_symptoms->setObjectName(QStringLiteral("symptoms"));
    m_symptomsModel = new views::SymptomsModel(m_symptoms);
    auto* sortable = new QSortFilterProxyModel(m_symptoms);
    sortable->setSourceModel(m_symptomsModel);
    sortable->setSortRole(views::SymptomsModel::SortRole);
    m_symptoms->setModel(sortable);
    m_symptoms->setSortingEnabled(true);
    m_symptoms->sortByColumn(views::SymptomsModel::FirstColumn, Qt::AscendingOrder);
    m_symptoms->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_symptoms->setSelectionMode(QAbstractItemView::SingleSelection);
    m_symptoms->verticalHeader()->hide();
    m_symptoms->horizontalHeader()->setStretchLastSection(true);
    symptomsDock->setWidget(m_symptoms);
    addDockWidget(Qt::BottomDockWidgetArea, symptomsDock);
    splitDockWidget(symptomsDock, evidenceDock, Qt::Horizontal);
    symptomsDock->setVisible(false);
    resizeDocks({ symptomsDock, evidenceDock }, { 480, 800 }, Qt::Horizontal);
    connect(m_symptoms->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) {
            if (current.isValid())
                m_selection->selectEvent(current.data(views::SymptomsModel::FirstEventRole).toInt());
        });

    auto* metricsDock = new QDockWidget(tr("Metrics"), this);
    metricsDock->setObjectName(QStringLiteral("metricsDock"));
    metricsDock->setWidget(m_metrics);
    addDockWidget(Qt::BottomDockWidgetArea, metricsDock);
    tabifyDockWidget(evidenceDock, metricsDock);
    evidenceDock->raise();
    metricsDock->setVisible(false);
    m_metricsMargins = { m_metrics->plotLeftMargin(), m_metrics->plotRightMargin() };
    connect(m_metrics, &views::MetricsPane::cursorMoved, m_selection, &views::WorkbenchSelection::setCursor);
    connect(m_selection, &views::WorkbenchSelection::cursorChanged, m_metrics, &views::MetricsPane::setCursor);
    connect(m_selection, &views::WorkbenchSelection::rangeChanged, m_metrics, [this](qint64 from, qint64 to) {
        alignMetrics();
        m_metrics->setRange(from, to);
    });

    auto* searchDock = new QDockWidget(tr("Search"), this);
    searchDock->setObjectName(QStringLiteral("searchDock"));
    searchDock->setWidget(m_searchPane);
    addDockWidget(Qt::BottomDockWidgetArea, searchDock);
    tabifyDockWidget(symptomsDock, searchDock);
    auto* rulesDock = new QDockWidget(tr("Rules"), this);
    rulesDock->setObjectName(QStringLiteral("rulesDock"));
    rulesDock->setWidget(m_rulesPane);
    addDockWidget(Qt::BottomDockWidgetArea, rulesDock);
    tabifyDockWidget(searchDock, rulesDock);
    symptomsDock->raise();
    searchDock->setVisible(false);
    rulesDock->setVisible(false);
    // The rule of the selected event is selected in the rules pane; stepping through a rule's events selects them.
    connect(m_rulesPane, &views::RulesPane::eventRequested, this, &MainWindow::selectEvent);
    connect(m_searchPane, &views::SearchPane::searchRequested, this,
        [this](const QString& pattern, const views::SearchOptions& options) {
            if (!m_result.input || !m_result.evidence)
                return;
            m_searchPane->setBusy(true);
            m_searcher->search(m_result, pattern, options);
        });
    connect(m_searchPane, &views::SearchPane::cancelRequested, m_searcher, &SearchController::cancel);
    connect(m_searcher, &SearchController::finished, this,
        [this](quint64 generation, std::vector<views::SearchHitRow> hits, const views::SearchSummary& summary) {
            m_searchPane->setBusy(false);
            m_searchPane->setResults(generation, std::move(hits), summary);
        });
    connect(m_searcher, &SearchController::failed, this, [this](quint64 generation, const QString& message) {
        m_searchPane->setBusy(false);
        m_searchPane->setFailed(generation, message);
    });
    connect(m_searchPane, &views::SearchPane::hitActivated, this, &MainWindow::showHit);
    // The hits the pane lists are marked on the timeline, whatever changed them (a result, a new pattern, a clear).
    auto markHits = [this] {
        std::vector<views::TimelineSearchMark> marks;
        marks.reserve(m_searchPane->model()->hits().size());
        for (const auto& h : m_searchPane->model()->hits())
            marks.push_back({ h.timeNs, h.node });
        m_timeline->setSearchMarks(marks);
    };
    connect(m_searchPane->model(), &QAbstractItemModel::modelReset, this, markHits);
    connect(m_searchPane->model(), &QAbstractItemModel::rowsInserted, this, markHits);
    connect(m_searchPane->model(), &QAbstractItemModel::rowsRemoved, this, markHits);
    connect(m_selection, &views::WorkbenchSelection::rangeChanged, m_searchPane, &views::SearchPane::setTimeRange);

    // One selection, shown by every pane: the trail's row, the timeline's mark and cursor, the evidence line, the
    // metrics' cursor and series.
    connect(m_view, &views::VerdictView::eventSelected, m_selection, &views::WorkbenchSelection::selectEvent);
    connect(m_timeline, &views::TimelineView::eventSelected, m_selection, &views::WorkbenchSelection::selectEvent);
    connect(m_timeline, &views::TimelineView::cursorMoved, m_selection, &views::WorkbenchSelection::setCursor);
    connect(m_timeline, &views::TimelineView::rangeChanged, m_selection, &views::WorkbenchSelection::setRange);
    connect(m_selection, &views::WorkbenchSelection::eventChanged, this, &MainWindow::presentEvent);
    connect(m_selection, &views::WorkbenchSelection::cursorChanged, m_timeline, [this](qint64 ns) {
        if (m_timeline->cursorTime() != ns)
            m_timeline->setCursor(ns);
    });

    auto* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Start Page"), this, &MainWindow::showStartPage);
    view->addAction(dock->toggleViewAction());
    view->addAction(evidenceDock->toggleViewAction());
    view->addAction(symptomsDock->toggleViewAction());
    view->addAction(metricsDock->toggleViewAction());
    view->addAction(searchDock->toggleViewAction());
    view->addAction(rulesDock->toggleViewAction());
    view->addAction(annotationsDock->toggleViewAction());
    view->addAction(storyDock->toggleViewAction());
    view->addSeparator();
    view->addAction(m_timeline->alignClocksAction());
    auto* find = menuBar()->addMenu(tr("&Search"));
    find->addAction(tr("&Find in the Evidence…"), this,
            [this] {
                m_searchPane->parentWidget()->setVisible(true);
                m_searchPane->parentWidget()->raise();
                m_searchPane->focusSearch();
            })
        ->setShortcut(QKeySequence::Find);
    find->addAction(tr("&Next Hit"), this, [this] { stepHit(1); })->setShortcut(QKeySequence::FindNext);
    find->addAction(tr("&Previous Hit"), this, [this] { stepHit(-1); })->setShortcut(QKeySequence::FindPrevious);
    // Annotating: M and C act on the selection of the pane in use (the one that had the focus last).
    auto* annotate = menuBar()->addMenu(tr("&Annotate"));
    m_bookmark = annotate->addAction(tr("Toggle &Bookmark on the Selection"), this, &MainWindow::toggleBookmark);
    m_bookmark->setShortcut(QKeySequence(Qt::Key_M));
    m_comment = annotate->addAction(tr("&Comment on the Selection…"), this, &MainWindow::comment);
    m_comment->setShortcut(QKeySequence(Qt::Key_C));
    annotate->addSeparator();
    annotate->addAction(tr("Annotation &Author…"), this, &MainWindow::chooseAnnotationAuthor);
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget*, QWidget* now) {
        for (QWidget* w = now; w; w = w->parentWidget())
            for (QWidget* pane : { static_cast<QWidget*>(m_timeline), static_cast<QWidget*>(m_evidence),
                     static_cast<QWidget*>(m_symptoms), static_cast<QWidget*>(m_view),
                     static_cast<QWidget*>(m_annotations) })
                if (w == pane) {
                    m_lastPane = pane;
                    return;
                }
    });
    // The story: the steps a postmortem walks through, and presenting them.
    m_story = new StoryController(this, m_case, m_storyPane);
    auto* story = menuBar()->addMenu(tr("S&tory"));
    story->addAction(m_story->addAction());
    story->addAction(m_story->proposeAction());
    story->addSeparator();
    story->addAction(m_story->presentAction());
    auto* rules = menuBar()->addMenu(tr("&Rules"));
    rules->addAction(tr("&Reload Catalog"), this, &MainWindow::reloadCatalog)->setShortcut(QKeySequence(Qt::Key_F5));
    rules->addAction(tr("Rule &Packs…"), this, &MainWindow::showRulePacks);
    rules->addAction(tr("Catalog &Diagnostics…"), this, &MainWindow::showCatalogDiagnostics);
    // The rule editor and the case library: their docks and the Rules menu's editing actions.
    m_ruleWorkbench = new RuleWorkbench(this, rules);
    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("How to &Collect a Bundle"), this, &MainWindow::showHowToCollect);
    help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts)
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
    help->addSeparator();
    help->addAction(tr("&About Faultline"), this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    updateActions();
    refreshRecent();
    showStartPage();
    setAcceptDrops(true);
    resize(1280, 820);
    // The layout the user left (docks, sizes), unless the panes have changed since.
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray(), kStateVersion);
    m_workbenchSized = m_workbench->restoreState(settings.value(QStringLiteral("window/workbench")).toByteArray());

    // The rule catalog: loaded now, off the UI thread, and again only on Rules ▸ Reload Catalog.
    m_catalogs->setUserPacks(settings.value(kUserPacksKey, true).toBool());
    m_catalogs->setPackDirs(settings.value(kPackDirsKey).toStringList());
    connect(m_catalogs, &CatalogController::loaded, this, &MainWindow::catalogFinished);
    m_catalogStatus->setText(tr("Loading rules…"));
    m_catalogs->reload();
    m_controller->setCatalog(m_catalogs->catalog(), m_catalogs->catalogSources());
}

void MainWindow::reloadCatalog()
{
    m_reloadAsked = true;
    m_catalogStatus->setText(tr("Reloading rules…"));
    m_catalogs->reload();
    // Before any load has succeeded, analyses wait for this one.
    m_controller->setCatalog(m_catalogs->catalog(), m_catalogs->catalogSources());
}

void MainWindow::catalogFinished(bool ok)
{
    const bool asked = std::exchange(m_reloadAsked, false);
    m_controller->setCatalog(m_catalogs->catalog(), m_catalogs->catalogSources());
    const auto& last = m_catalogs->lastResult();
    const QFuture<core::CatalogLoadResult> current = m_catalogs->catalog();
    const core::CatalogLoadResult& inUse = current.isFinished() ? current.result() : last;
    QString tip = QString::fromStdString(inUse.ok() ? inUse.catalog->loadedFrom() : m_catalogs->sources().root);
    if (inUse.ok())
        if (const QString layers = CatalogController::layersText(*inUse.catalog); !layers.isEmpty())
            tip += QLatin1Char('\n') + layers;
    if (ok) {
        m_catalogStatus->setText(tr("Rules in use: %1").arg(m_catalogs->describe(*last.catalog)));
        if (asked)
            m_status->setText(
                tr("Rule catalog reloaded: %1; analyses from now on use it").arg(m_catalogs->describe(*last.catalog)));
    } else {
        const auto errors = std::count_if(last.diagnostics.begin(), last.diagnostics.end(),
            [](const core::Diagnostic& d) { return d.severity == core::Severity::Error; });
        m_catalogStatus->setText(inUse.ok() ? tr("Rules in use: %1 (reload failed: %2 error(s))")
                                                  .arg(m_catalogs->describe(*inUse.catalog))
                                                  .arg(errors)
                                            : tr("Rule catalog has %1 error(s)").arg(errors));
        tip += QLatin1Char('\n') + tr("Rules ▸ Catalog Diagnostics… lists the errors.");
        if (asked)
            showCatalogDiagnostics();
    }
    m_catalogStatus->setToolTip(tip);
    Q_EMIT catalogLoaded(ok);
}

void MainWindow::showRulePacks()
{
    RulePacksDialog dialog(m_catalogs->userDir(), m_catalogs->userPacks(), m_catalogs->packDirs(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    QSettings settings;
    settings.setValue(kUserPacksKey, dialog.userPacks());
    settings.setValue(kPackDirsKey, dialog.directories());
    m_catalogs->setUserPacks(dialog.userPacks());
    m_catalogs->setPackDirs(dialog.directories());
    reloadCatalog();
}

void MainWindow::showCatalogDiagnostics()
{
    const auto& last = m_catalogs->lastResult();
    QString text;
    if (m_catalogs->isLoading() && last.diagnostics.empty() && !last.catalog)
        text = tr("The rule catalog is loading.");
    else if (last.diagnostics.empty())
        text = tr("The last load of the rule catalog reported nothing.");
    else
        text = QString::fromStdString(
            (last.ok() ? std::string() : usecases::catalogErrorsMessage(m_catalogs->lastSources()) + ":\n\n")
            + last.asText());
    auto* dialog = new views::TextDialog(tr("Catalog Diagnostics"),
        QStringLiteral("<pre>%1</pre>").arg(text.toHtmlEscaped()), views::TextDialog::Format::Html, this);
    dialog->setObjectName(QStringLiteral("catalogDiagnosticsDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void MainWindow::fitWorkbench()
{
    if (m_workbenchSized)
        return;
    const int total = m_workbench->height();
    const int wanted = m_timeline->preferredHeight();
    const int timeline = std::clamp(wanted, std::min(220, total / 2), total * 6 / 10);
    m_workbench->setSizes({ total - timeline, timeline });
}

void MainWindow::selectEvent(int eventIndex)
{
    m_selection->selectEvent(eventIndex);
}

void MainWindow::presentEvent(int eventIndex)
{
    if (!m_result.verdict || !m_result.evidence || eventIndex < 0
        || static_cast<std::size_t>(eventIndex) >= m_result.verdict->events.size())
        return;
    m_view->selectEvent(eventIndex);
    selectSymptomRowOf(eventIndex);
    m_rulesPane->selectRuleOfEvent(eventIndex);
    const auto& selected = m_result.verdict->events[static_cast<std::size_t>(eventIndex)];
    if (selected.timeNs != INT64_MIN)
        m_selection->setCursor(selected.timeNs);
    // An event made from a metric condition brings its series up in one step.
    if (m_metrics->showSeriesOfEvent(eventIndex) && selected.type.rfind("metric.", 0) == 0) {
        m_metrics->parentWidget()->setVisible(true);
        m_metrics->parentWidget()->raise();
    }
    if (m_timeline->selectedEvent() != eventIndex)
        m_timeline->selectEvent(eventIndex);
    const auto& e = m_result.verdict->events[static_cast<std::size_t>(eventIndex)];
    if (e.provenance.empty() || e.provenance.front().source >= m_result.evidence->sources.size())
        return;
    const auto& where = e.provenance.front();
    m_evidence->parentWidget()->setVisible(true);
    // The record's message is what to look at in a long line (a JSON record): its first line.
    const QString focus = QString::fromStdString(e.excerpt).section(QLatin1Char('\n'), 0, 0).trimmed();
    m_evidence->showLine(QString::fromStdString(m_result.evidence->sources[where.source].path), where.line, focus);
}

void MainWindow::selectSymptomRowOf(int eventIndex)
{
    const auto& symptoms = m_result.verdict->symptoms;
    auto* proxy = m_symptoms->model();
    for (int row = 0; row < proxy->rowCount(); ++row) {
        const QModelIndex index = proxy->index(row, 0);
        const int group = static_cast<QSortFilterProxyModel*>(proxy)->mapToSource(index).row();
        const auto& events = symptoms[static_cast<std::size_t>(group)].events;
        if (std::find(events.begin(), events.end(), static_cast<std::size_t>(eventIndex)) != events.end()) {
            const QSignalBlocker block(m_symptoms->selectionModel());
            m_symptoms->setCurrentIndex(index);
            m_symptoms->scrollTo(index);
            return;
        }
    }
    const QSignalBlocker block(m_symptoms->selectionModel());
    m_symptoms->clearSelection();
}

void MainWindow::showHit(const QString& path, quint64 line, qint64 timeNs)
{
    m_evidence->parentWidget()->setVisible(true);
    m_evidence->parentWidget()->raise();
    m_evidence->showLine(path, line);
    if (timeNs != INT64_MIN)
        m_selection->setCursor(timeNs);
}

void MainWindow::stepHit(int step)
{
    auto* table = m_searchPane->resultsView();
    const auto& hits = m_searchPane->model()->hits();
    if (hits.empty())
        return;
    const int rows = static_cast<int>(hits.size());
    const int current = table->currentIndex().isValid() ? table->currentIndex().row() : (step > 0 ? -1 : rows);
    const int next = (current + step + rows) % rows;
    table->selectRow(next);
    const auto& h = hits[static_cast<std::size_t>(next)];
    showHit(QString::fromStdString(h.path), h.line, h.timeNs);
}

void MainWindow::alignMetrics()
{
    // When the metrics pane spans the same columns as the timeline, the charts' plots start and end where the
    // timeline's plot does, so both time axes line up; beside another pane it keeps its own margins (its legends).
    const int paneX = m_metrics->mapTo(this, QPoint()).x();
    const int timelineX = m_timeline->mapTo(this, QPoint()).x();
    if (paneX != timelineX || m_metrics->width() != m_timeline->width()) {
        m_metrics->setPlotMargins(m_metricsMargins.first, m_metricsMargins.second);
        return;
    }
    const auto& geo = m_timeline->timelineGeometry();
    const int left = m_timeline->viewport()->x() + static_cast<int>(geo.plotLeft());
    m_metrics->setPlotMargins(left, std::max(0, m_timeline->width() - left - static_cast<int>(geo.plotWidth())));
}

void MainWindow::clearPanes()
{
    m_selection->clear();
    m_timeline->setResult({});
    m_evidence->setText(nullptr);
    m_symptomsModel->setResult({});
    m_metrics->setResult({});
    m_searcher->cancel();
    m_searchPane->setEvidence(nullptr);
    m_rulesPane->setResult({});
}

void MainWindow::showStartPage()
{
    refreshRecent();
    m_stack->setCurrentWidget(m_start);
}

QStringList MainWindow::recentCases() const
{
    return QSettings().value(kRecentKey).toStringList();
}

void MainWindow::rememberCase(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList recent = recentCases();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    QSettings().setValue(kRecentKey, recent);
    refreshRecent();
}

void MainWindow::refreshRecent()
{
    const QStringList recent = recentCases();
    m_start->setRecentCases(recent);
    m_recentMenu->clear();
    for (const QString& path : recent) {
        auto* a = m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] { openCase(path); });
        a->setToolTip(path);
        a->setEnabled(QFileInfo::exists(path));
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

QString MainWindow::aboutText() const
{
    views::AboutInfo info;
    info.version = QString::fromLatin1(core::kVersion);
    info.catalogDir = m_rulesDir;
    // The catalog in use, as loaded at start or by the last successful reload: nothing is loaded here.
    const QFuture<core::CatalogLoadResult> current = m_catalogs->catalog();
    if (!current.isValid() || !current.isFinished()) {
        info.catalogLoading = true;
    } else if (const core::CatalogLoadResult& loaded = current.result(); loaded.ok()) {
        info.catalogName = QString::fromStdString(loaded.catalog->name());
        info.catalogVersion = QString::fromStdString(loaded.catalog->version());
        info.catalogHash = QString::fromStdString(loaded.catalog->contentHash());
        info.catalogLayers = CatalogController::layersText(*loaded.catalog);
        if (const auto& last = m_catalogs->lastResult(); !last.ok() && !m_catalogs->isLoading())
            info.catalogProblem = QString::fromStdString(last.asText());
    } else {
        info.catalogProblem = QString::fromStdString(loaded.asText());
    }
    info.licences = resourceText(QStringLiteral(":/faultline/copyright.txt"));
    return views::aboutHtml(info);
}

void MainWindow::showAbout()
{
    auto* dialog = new views::TextDialog(tr("About Faultline"), aboutText(), views::TextDialog::Format::Html, this);
    dialog->setObjectName(QStringLiteral("aboutDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    // Opened while the catalog loads: its part follows once the load is done.
    if (m_catalogs->isLoading()) {
        const QPointer<views::TextDialog> open(dialog);
        auto once = std::make_shared<QMetaObject::Connection>();
        *once = connect(m_catalogs, &CatalogController::loaded, dialog, [this, open, once] {
            disconnect(*once);
            if (open)
                open->browser()->setHtml(aboutText());
        });
    }
}

void MainWindow::showHowToCollect()
{
    auto* dialog = new views::TextDialog(tr("How to Collect a Bundle"),
        resourceText(QStringLiteral(":/faultline/how-to-collect.md")), views::TextDialog::Format::Markdown, this);
    dialog->setObjectName(QStringLiteral("howToCollectDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void MainWindow::chooseBundle()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Evidence Bundle"), m_bundle);
    if (!dir.isEmpty())
        openBundle(dir);
}

void MainWindow::chooseFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Archive or File"), m_bundle,
        tr("Evidence archives (*.tar *.tar.gz *.tgz *.tar.zst *.zip);;All files (*)"));
    if (!path.isEmpty())
        openBundle(path);
}

void MainWindow::chooseCase()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open Case"), m_bundle, tr("Faultline cases (*.faultline)"));
    if (!path.isEmpty())
        openCase(path);
}

void MainWindow::chooseSaveCase()
{
    QString path = QFileDialog::getSaveFileName(this, tr("Save as Case"), m_bundle + QStringLiteral(".faultline"),
        tr("Faultline cases (*.faultline)"), nullptr, QFileDialog::DontConfirmOverwrite);
    if (path.isEmpty())
        return;
    if (!path.endsWith(QLatin1String(".faultline")))
        path += QStringLiteral(".faultline");
    saveCase(path);
}

void MainWindow::saveCase(const QString& path)
{
    m_status->setText(tr("Saving the case…"));
    m_controller->saveCase(path, m_result);
}

void MainWindow::updateActions()
{
    const bool analysed = m_result.verdict != nullptr;
    m_saveCase->setEnabled(analysed && m_result.input && m_result.casePath.empty());
    m_addRun->setEnabled(analysed && !m_result.casePath.empty() && !m_result.matchesStoredRun);
    m_rerun->setEnabled(analysed && !m_result.casePath.empty());
    // A report and a redacted copy are made from the case file: they need an open case.
    m_exportReport->setEnabled(!m_result.casePath.empty() && !m_reportExport->isRunning());
    m_exportRedacted->setEnabled(!m_result.casePath.empty());
}

void MainWindow::showExportReport()
{
    if (m_result.casePath.empty() || m_reportExport->isRunning())
        return;
    ExportReportDialog dialog(QString::fromStdString(m_result.casePath), this);
    if (dialog.exec() == QDialog::Accepted)
        exportReport(dialog.request());
}

bool MainWindow::exportReport(render::ExportRequest request)
{
    if (m_reportExport->isRunning())
        return false;
    if (request.casePath.isEmpty())
        request.casePath = QString::fromStdString(m_result.casePath);
    if (request.casePath.isEmpty())
        return false;
    if (request.rulesDir.isEmpty())
        request.rulesDir = m_rulesDir;
    auto* progress = new QProgressDialog(tr("Exporting the report…"), tr("Cancel"), 0, 100, this);
    progress->setObjectName(QStringLiteral("exportProgress"));
    progress->setWindowTitle(tr("Export Report"));
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(0);
    progress->setAutoClose(false);
    progress->setAutoReset(false);
    progress->setAttribute(Qt::WA_DeleteOnClose);
    connect(progress, &QProgressDialog::canceled, m_reportExport, &render::ReportExport::cancel);
    auto progressConn = connect(
        m_reportExport, &render::ReportExport::progressChanged, progress, [progress](int percent, const QString& step) {
            progress->setValue(percent);
            progress->setLabelText(step);
        });
    auto once = std::make_shared<QMetaObject::Connection>();
    *once = connect(m_reportExport, &render::ReportExport::finished, this,
        [this, progress = QPointer<QProgressDialog>(progress), progressConn, once](
            const render::ExportOutcome& outcome) {
            disconnect(*once);
            disconnect(progressConn);
            if (progress)
                progress->close();
            updateActions();
            if (outcome.code == usecases::Exit::Ok) {
                m_status->setText(outcome.message);
            } else if (outcome.code == usecases::Exit::Cancelled) {
                m_status->setText(tr("Report export cancelled; nothing was written"));
            } else {
                m_status->setText(
                    tr("The report was not exported: %1").arg(outcome.message.section(QLatin1Char('\n'), 0, 0)));
                auto* box = new QMessageBox(QMessageBox::Warning, tr("Export Report"),
                    tr("The report was not exported."), QMessageBox::Ok, this);
                box->setObjectName(QStringLiteral("exportReportError"));
                box->setInformativeText(outcome.message);
                box->setAttribute(Qt::WA_DeleteOnClose);
                box->open();
            }
            Q_EMIT reportExported(outcome);
        });
    m_reportExport->start(request);
    m_status->setText(tr("Exporting the report of %1…").arg(QFileInfo(request.casePath).fileName()));
    progress->show();
    updateActions();
    return true;
}

RedactDialog* MainWindow::showExportRedacted()
{
    if (m_result.casePath.empty())
        return nullptr;
    auto* dialog = new RedactDialog(QString::fromStdString(m_result.casePath), m_rulesDir, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &RedactDialog::copyWritten, this,
        [this](const QString&, const QString& summary) { m_status->setText(summary); });
    dialog->show();
    dialog->preview(); // the built-in profile's replacements at once
    return dialog;
}

void MainWindow::openCase(const QString& path, bool currentRules)
{
    m_bundle = path;
    m_result = {};
    updateActions();
    m_stack->setCurrentWidget(m_view->parentWidget());
    setWindowTitle(tr("%1 — Faultline").arg(QFileInfo(path).fileName()));
    m_view->clear(tr("Opening case %1…").arg(path));
    clearPanes();
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_cancel->setVisible(true);
    m_controller->openCase(path, currentRules);
}

void MainWindow::openBundle(const QString& path)
{
    openBundles({ path });
}

void MainWindow::openBundles(const QStringList& paths)
{
    if (paths.isEmpty())
        return;
    m_result = {};
    updateActions();
    m_bundle = paths.constFirst();
    m_stack->setCurrentWidget(m_view->parentWidget());
    const QString name = QFileInfo(m_bundle).fileName();
    setWindowTitle(paths.size() == 1 ? tr("%1 — Faultline").arg(name)
                                     : tr("%1 and %2 more — Faultline").arg(name).arg(paths.size() - 1));
    m_view->clear(tr("Analysing %1…").arg(paths.join(QStringLiteral(", "))));
    clearPanes();
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_cancel->setVisible(true);
    m_controller->start(paths);
}

void MainWindow::openPaths(const QStringList& paths)
{
    // A case opens on its own; anything else (directories, archives, files) is one bundle of several paths.
    for (const QString& p : paths)
        if (p.endsWith(QLatin1String(".faultline"))) {
            if (paths.size() > 1)
                m_status->setText(tr("Opened the case %1 only: a case is opened on its own").arg(p));
            openCase(p);
            return;
        }
    openBundles(paths);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (!localPaths(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QStringList paths = localPaths(event->mimeData());
    if (paths.isEmpty())
        return;
    event->acceptProposedAction();
    openPaths(paths);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState(kStateVersion));
    if (m_workbenchSized)
        settings.setValue(QStringLiteral("window/workbench"), m_workbench->saveState());
    QMainWindow::closeEvent(event);
}

QList<QPair<QString, QString>> MainWindow::shortcuts() const
{
    QList<QPair<QString, QString>> out;
    // The menus' own shortcuts, read from their actions so that the list cannot drift from them.
    for (QAction* menu : menuBar()->actions())
        if (menu->menu())
            for (QAction* a : menu->menu()->actions())
                if (!a->shortcut().isEmpty())
                    out.append({ a->shortcut().toString(QKeySequence::NativeText),
                        QString(a->text()).remove(QLatin1Char('&')) });
    // The panes' keys.
    out.append(
        { tr("↑ / ↓"), tr("Evidence trail, symptoms: step to the previous or next event (every pane follows)") });
    out.append({ tr("Wheel, Ctrl++ / Ctrl+-, W / S"), tr("Timeline: zoom in or out around the pointer or cursor") });
    out.append({ tr("Shift+Wheel, ← / →, A / D, middle drag"), tr("Timeline: pan") });
    out.append({ tr("Drag"), tr("Timeline: zoom to the dragged range") });
    out.append({ tr("Click, Shift+Click twice"), tr("Timeline: select a mark or set the cursor; measure a delta") });
    out.append({ tr("Ctrl+0, Home, Esc"), tr("Timeline: the verdict's range, everything, clear the measurement") });
    out.append({ tr("Home / End, Page Up / Page Down"), tr("Evidence: first or last line, a page up or down") });
    out.append({ tr("Click a lane's header, click a line"),
        tr("Timeline: select the lane; evidence: select the line (M and C annotate the selection)") });
    out.append({ tr("Enter or double click, Delete"), tr("Annotations: edit the selected annotation, remove it") });
    out.append({ tr("Shift+Click a line"),
        tr("Evidence: highlight the lines from the selected one (a story step keeps them)") });
    out.append({ tr("Enter, Alt+↑ / Alt+↓, Delete"), tr("Story: go to the step, move it up or down, delete it") });
    out.append({ tr("→ Space Page Down, ← Page Up, Home / End"),
        tr("Presenting: the next or previous step, the first or the last") });
    out.append({ tr("Backspace, Esc"), tr("Presenting: back to the step after exploring, leave the presentation") });
    return out;
}

void MainWindow::showShortcuts()
{
    QString html = QStringLiteral("<table cellspacing=\"6\">");
    for (const auto& [keys, what] : shortcuts())
        html +=
            QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(keys.toHtmlEscaped(), what.toHtmlEscaped());
    html += QStringLiteral("</table>");
    auto* dialog = new views::TextDialog(tr("Keyboard Shortcuts"), html, views::TextDialog::Format::Html, this);
    dialog->setObjectName(QStringLiteral("shortcutsDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void MainWindow::showResult(const views::AnalysisResult& result)
{
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    m_view->setResult(result);
    m_result = result;
    m_evidence->setText(core::inputText(result.input));
    m_timeline->setResult(result);
    // Once the docks are laid out for this result: the timeline's lanes decide how the two halves share the height.
    QTimer::singleShot(0, this, &MainWindow::fitWorkbench);
    m_symptomsModel->setResult(result);
    m_metrics->setResult(result);
    m_searchPane->setEvidence(result.evidence.get());
    m_rulesPane->setResult(result);
    alignMetrics();
    m_metrics->setRange(m_timeline->rangeFrom(), m_timeline->rangeTo());
    m_metrics->parentWidget()->setVisible(!result.evidence->metrics.empty());
    // The cause's raw line first; a metric event brings the charts up. Deferred: a dock shown just now becomes its
    // tab group's current tab once the layout has run.
    QTimer::singleShot(0, m_evidence->parentWidget(), &QWidget::raise);
    m_symptoms->resizeColumnsToContents();
    m_symptoms->parentWidget()->setVisible(!result.verdict->symptoms.empty());
    m_selection->clear();
    if (result.verdict && result.verdict->hasCause)
        selectEvent(static_cast<int>(result.verdict->cause));
    m_case->setAnalysis(result);
    m_case->showCase(QString::fromStdString(result.casePath));
    if (!result.casePath.empty())
        rememberCase(QString::fromStdString(result.casePath));
    m_view->setNotesEnabled(!result.casePath.empty());
    m_caseView->parentWidget()->setVisible(!result.casePath.empty());
    m_annotations->parentWidget()->setVisible(!result.casePath.empty());
    m_storyPane->parentWidget()->setVisible(!result.casePath.empty());
    updateActions();
    const auto& v = *result.verdict;
    // The case and run first, then the catalog that made the verdict, then the size of the evidence.
    QStringList status;
    if (!result.casePath.empty())
        status << tr("%1 · %2").arg(QFileInfo(QString::fromStdString(result.casePath)).fileName(),
            result.matchesStoredRun
                ? tr("reproduces run %1").arg(result.storedRun)
                : tr("differs from run %1 (File ▸ Add This Run to the Case keeps it)").arg(result.storedRun));
    // The catalog that made the verdict, its pack layers named (a case's stored rules included).
    const QString catalog = result.catalog
        ? m_catalogs->describe(*result.catalog, result.rulesDir)
        : tr("catalog %1 %2 (%3)")
              .arg(QString::fromStdString(v.catalogName), QString::fromStdString(v.catalogVersion),
                  QString::fromStdString(v.catalogHash.substr(0, 12)));
    // The status bar's permanent label names the catalog in use: when the verdict was made with that one, the
    // message says so instead of naming it a second time.
    const QFuture<core::CatalogLoadResult> loaded = m_catalogs->catalog();
    const bool inUse = result.catalog && loaded.isFinished() && loaded.result().ok()
        && loaded.result().catalog->contentHash() == result.catalog->contentHash();
    status << (inUse ? tr("made with the rules in use") : catalog)
            + (result.casePath.empty() ? QString() : tr(", %1").arg(QString::fromStdString(result.rulesOrigin)));
    status << tr("%1 sources, %2 records, %3 events")
                  .arg(result.evidence->sources.size())
                  .arg(result.evidence->observations.size())
                  .arg(v.events.size());
    m_status->setText(status.join(QStringLiteral(" · ")));
    Q_EMIT resultShown();
}

void MainWindow::showFailure(const QString& message)
{
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    m_view->clear(message.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")));
    clearPanes();
    m_status->setText(message.section(QLatin1Char('\n'), 0, 0));
    Q_EMIT resultShown();
}

// ---- Annotations ----------------------------------------------------------------------------------------------

QString MainWindow::annotationAuthor() const
{
    const QString set = QSettings().value(kAuthorKey).toString().trimmed();
    if (!set.isEmpty())
        return set;
    for (const char* var : { "FAULTLINE_AUTHOR", "USER", "LOGNAME" })
        if (const QString v = qEnvironmentVariable(var); !v.isEmpty())
            return v;
    return tr("unknown");
}

void MainWindow::chooseAnnotationAuthor()
{
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Annotation Author"),
        tr("Annotations are written by (empty: the user you are logged in as):"), QLineEdit::Normal,
        QSettings().value(kAuthorKey).toString(), &ok);
    if (ok)
        QSettings().setValue(kAuthorKey, name.trimmed());
}

MainWindow::AnnotationAim MainWindow::eventAim(int eventIndex) const
{
    const auto i = static_cast<std::size_t>(eventIndex);
    const core::Event& e = m_result.verdict->events[i];
    AnnotationAim aim;
    QString where;
    if (!e.provenance.empty() && e.provenance.front().source < m_result.evidence->sources.size()) {
        const auto& p = e.provenance.front();
        const std::string& path = m_result.evidence->sources[p.source].path;
        aim.target = usecases::AnnotationTarget::eventAt(e.ruleId, path, p.line, p.byteOffset);
        where = QStringLiteral(" (%1:%2)").arg(QString::fromStdString(path)).arg(p.line);
    } else {
        aim.target.kind = usecases::AnnotationTarget::Kind::Event;
    }
    aim.target.type = e.type;
    aim.target.node = e.node == core::kNoNode ? std::string() : m_result.verdict->nodes.name(e.node);
    aim.target.fromNs = e.timeNs;
    // An analysis that reproduces a stored run names the run's event too.
    if (m_result.matchesStoredRun && m_result.storedRun > 0) {
        aim.target.run = m_result.storedRun;
        aim.target.eventIdx = eventIndex;
    }
    aim.what = tr("event %1%2").arg(QString::fromStdString(e.label), where);
    return aim;
}

std::optional<MainWindow::AnnotationAim> MainWindow::currentAim(QString& why) const
{
    if (!m_result.verdict || !m_result.evidence) {
        why = tr("Nothing to annotate: open a bundle or a case first.");
        return std::nullopt;
    }
    using T = usecases::AnnotationTarget;
    if (m_lastPane == m_timeline) {
        using F = views::TimelineView::Focus;
        if (m_timeline->focus() == F::Lane && !m_timeline->selectedLaneNode().empty()) {
            const std::string node = m_timeline->selectedLaneNode();
            return AnnotationAim { T::lane(node), tr("lane %1").arg(QString::fromStdString(node)) };
        }
        if (m_timeline->focus() == F::Range)
            if (const auto range = m_timeline->measuredRange()) {
                const std::string& node = m_timeline->measuredNode();
                AnnotationAim aim { T::range(range->first, range->second, node), {} };
                aim.what = tr("the range %1 – %2%3")
                               .arg(QString::fromStdString(core::formatUtc(range->first)),
                                   QString::fromStdString(core::formatUtc(range->second)),
                                   node.empty() ? QString() : tr(" on %1").arg(QString::fromStdString(node)));
                return aim;
            }
    } else if (m_lastPane == m_evidence) {
        const auto line = m_evidence->viewer()->highlightedLine();
        const QString path = m_evidence->currentPath();
        if (line > 0 && !path.isEmpty())
            return AnnotationAim { T::lineOf(path.toStdString(), line), tr("%1:%2").arg(path).arg(line) };
        why = tr("Click a line of the evidence first.");
        return std::nullopt;
    } else if (m_lastPane == m_symptoms) {
        const QModelIndex current = m_symptoms->currentIndex();
        const auto* proxy = static_cast<const QSortFilterProxyModel*>(m_symptoms->model());
        const int row = current.isValid() ? proxy->mapToSource(current).row() : -1;
        if (row >= 0 && static_cast<std::size_t>(row) < m_result.verdict->symptoms.size()) {
            const std::string& type = m_result.verdict->symptoms[static_cast<std::size_t>(row)].type;
            return AnnotationAim { T::symptom(type), tr("symptom %1").arg(QString::fromStdString(type)) };
        }
    } else if (m_lastPane == m_annotations) {
        if (const core::Annotation* a = m_annotations->currentAnnotation())
            return AnnotationAim { T::of(*a), QString::fromStdString(core::describeTarget(*a)) };
    }
    // The shared selection: the selected event.
    const int event = m_selection->event();
    if (event >= 0 && static_cast<std::size_t>(event) < m_result.verdict->events.size())
        return eventAim(event);
    why = tr("Select something to annotate first: an event, a line, a symptom, a lane or a measured range.");
    return std::nullopt;
}

void MainWindow::showStatus(const QString& text)
{
    m_status->setText(text);
}

bool MainWindow::canAnnotate()
{
    if (!m_result.verdict) {
        m_status->setText(tr("Nothing to annotate: open a bundle or a case first."));
        return false;
    }
    if (m_result.casePath.empty()) {
        // Annotations live in the case file: offer to save the analysis as one.
        auto* box = new QMessageBox(QMessageBox::Information, tr("Annotate"),
            tr("Annotations are stored in the case file, and this analysis is not saved as a case yet."),
            QMessageBox::Cancel, this);
        box->setObjectName(QStringLiteral("annotationNeedsCase"));
        box->setInformativeText(tr("Save it as a case, then annotate it."));
        auto* save = box->addButton(tr("Save as Case…"), QMessageBox::AcceptRole);
        box->setDefaultButton(save);
        box->setAttribute(Qt::WA_DeleteOnClose);
        connect(save, &QPushButton::clicked, this, &MainWindow::chooseSaveCase);
        box->open();
        return false;
    }
    if (m_case->history() && m_case->history()->readOnly) {
        m_status->setText(tr("The case is read-only: its annotations cannot be changed."));
        return false;
    }
    return true;
}

void MainWindow::toggleBookmark()
{
    if (!canAnnotate())
        return;
    QString why;
    const auto aim = currentAim(why);
    if (!aim) {
        m_status->setText(why);
        return;
    }
    usecases::AnnotateRequest request;
    request.kind = usecases::AnnotationKind::Bookmark;
    request.text = aim->what.toStdString();
    request.target = aim->target;
    request.author = annotationAuthor().toStdString();
    request.toggle = true;
    m_status->setText(tr("Bookmarking %1…").arg(aim->what));
    m_case->annotate(request);
}

void MainWindow::comment()
{
    if (!canAnnotate())
        return;
    QString why;
    const auto aim = currentAim(why);
    if (!aim) {
        m_status->setText(why);
        return;
    }
    auto* editor = new views::CommentEditor(aim->what, {}, {}, this);
    editor->setAttribute(Qt::WA_DeleteOnClose);
    const usecases::AnnotationTarget target = aim->target;
    connect(editor, &QDialog::accepted, this, [this, editor, target] {
        usecases::AnnotateRequest request;
        request.kind = usecases::AnnotationKind::Note;
        request.text = editor->text().toStdString();
        for (const QString& t : editor->tags())
            request.tags.push_back(t.toStdString());
        request.target = target;
        request.author = annotationAuthor().toStdString();
        m_case->annotate(request);
    });
    editor->open();
}

void MainWindow::editAnnotation(std::int64_t id)
{
    const auto& history = m_case->history();
    if (!history || !canAnnotate())
        return;
    const auto it = std::find_if(history->annotations.begin(), history->annotations.end(),
        [id](const core::Annotation& a) { return a.id == id; });
    if (it == history->annotations.end())
        return;
    const core::Annotation a = *it;
    // A tag's own text is its first tag in the editor.
    QStringList tags;
    if (a.kind == "tag")
        tags << QString::fromStdString(a.text);
    for (const auto& t : a.tags)
        tags << QString::fromStdString(t);
    auto* editor = new views::CommentEditor(QString::fromStdString(core::describeTarget(a)),
        a.kind == "tag" ? QString() : QString::fromStdString(a.text), tags, this);
    editor->setAttribute(Qt::WA_DeleteOnClose);
    connect(editor, &QDialog::accepted, this, [this, editor, a] {
        usecases::AnnotateRequest request;
        request.kind = a.kind == "bookmark" ? usecases::AnnotationKind::Bookmark
            : a.kind == "tag"               ? usecases::AnnotationKind::Tag
                                            : usecases::AnnotationKind::Note;
        QStringList typed = editor->tags();
        request.text = editor->text().toStdString();
        if (a.kind == "tag" && !typed.isEmpty())
            request.text = typed.takeFirst().toStdString();
        for (const QString& t : typed)
            request.tags.push_back(t.toStdString());
        request.editId = a.id;
        request.author = annotationAuthor().toStdString();
        m_case->annotate(request);
    });
    editor->open();
}

void MainWindow::selectAnnotationTarget(std::int64_t id)
{
    const auto& history = m_case->history();
    if (!history || !m_result.verdict)
        return;
    const auto& list = history->annotations;
    const auto it = std::find_if(list.begin(), list.end(), [id](const core::Annotation& a) { return a.id == id; });
    if (it == list.end())
        return;
    const auto i = static_cast<std::size_t>(it - list.begin());
    const core::AnnotationResolution* r = i < m_case->resolutions().size() ? &m_case->resolutions()[i] : nullptr;
    const core::Annotation& a = *it;
    if (r && !r->matched)
        m_status->setText(QString::fromStdString(r->reason));
    if ((a.target == "event" || a.target == "symptom") && r && r->matched && r->eventIndex >= 0
        && static_cast<std::size_t>(r->eventIndex) < m_result.verdict->events.size()) {
        // Through the shared selection: the trail, the timeline, the symptoms, the evidence and the metrics follow.
        m_selection->selectEvent(static_cast<int>(r->eventIndex));
        return;
    }
    if (a.target == "line" || a.target == "event") {
        // A line, or an event no longer found: its record in the evidence, the cursor at its time.
        showHit(QString::fromStdString(a.path), a.line, r ? r->timeNs : a.fromNs);
        return;
    }
    if (a.target == "lane") {
        m_timeline->selectLane(a.node);
        return;
    }
    if (a.target == "range") {
        m_timeline->showRange(a.fromNs, a.toNs, a.node);
        m_selection->setCursor(a.fromNs);
        return;
    }
    m_caseView->parentWidget()->setVisible(true);
    m_caseView->parentWidget()->raise();
}

void MainWindow::showAnnotations()
{
    const auto& history = m_case->history();
    if (!history) {
        m_annotations->showMessage(m_case->casePath().isEmpty()
                ? tr("Annotations are stored in a case: save the analysis as a case (File ▸ Save as Case…), then M "
                     "bookmarks the selection and C comments on it.")
                : tr("Reading the case…"));
        m_timeline->setAnnotations({});
        m_evidence->viewer()->setLineMarks({});
        Q_EMIT annotationsShown();
        return;
    }
    const auto& resolutions = m_case->resolutions();
    m_annotations->setAnnotations(history->annotations, resolutions, m_case->resolvedAgainst());
    m_timeline->setAnnotations(views::timelineAnnotations(history->annotations, resolutions));
    m_evidence->viewer()->setLineMarks(views::evidenceLineMarks(history->annotations, resolutions));
    Q_EMIT annotationsShown();
}

} // namespace faultline::app
