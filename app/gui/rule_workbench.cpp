// SPDX-License-Identifier: Apache-2.0
#include "app/gui/rule_workbench.h"

#include "app/gui/catalog_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/rule_edit_controller.h"
#include "core/model/evidence_text.h"
#include "views/evidence/evidence_viewer.h"
#include "views/rules/library_results.h"
#include "views/rules/rule_editor.h"
#include "views/rules/rules_pane.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>

#include <climits>

namespace faultline::app {

namespace {

const QString kLibraryKey = QStringLiteral("rules/caseLibrary");

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

/// A verdict in one line: outcome, domain, cause.
QString verdictLine(const core::Verdict& v)
{
    QString s = q(v.outcome);
    if (v.hasCause && v.cause < v.events.size()) {
        s += QStringLiteral(" ") + q(core::domainPath(v.domain, v.subdomain));
        s += QObject::tr(", cause %1").arg(q(v.events[v.cause].label));
    }
    return s;
}

views::RuleEditorCheck toView(quint64 generation, const usecases::RuleCheck& c)
{
    views::RuleEditorCheck v;
    v.generation = generation;
    v.ok = c.catalog != nullptr;
    v.ruleId = q(c.ruleId);
    v.testsRun = static_cast<int>(c.testsRun);
    v.testsFailed = static_cast<int>(c.testsFailed);
    v.ms = c.ms;
    for (const auto& e : c.diagnostics) {
        if (e.diagnostic.severity == core::Severity::Info)
            continue;
        views::RuleEditorDiagnostic d;
        d.line = static_cast<int>(e.line);
        d.column = static_cast<int>(e.column);
        d.length = static_cast<int>(e.length);
        d.error = e.diagnostic.severity == core::Severity::Error;
        d.code = q(e.diagnostic.code);
        d.ruleId = q(e.diagnostic.ruleId);
        d.message = q(e.diagnostic.message);
        const auto& w = e.diagnostic.where;
        d.where = q(w.file) + (w.line > 0 ? QStringLiteral(":%1:%2").arg(w.line).arg(w.column) : QString());
        v.diagnostics << d;
    }
    return v;
}

views::RuleEditorRun toView(const usecases::RuleRun& r, const views::AnalysisResult& shown)
{
    views::RuleEditorRun v;
    v.baseline = q(r.baseline);
    v.baselineNote = q(r.baselineNote);
    v.same = r.diff.same;
    for (const auto& c : r.diff.changes)
        v.changes << q(c);
    if (shown.verdict)
        v.before = verdictLine(*shown.verdict);
    if (r.analysis.verdict)
        v.after = verdictLine(*r.analysis.verdict);
    if (r.trace && !r.trace->rules.empty()) {
        v.trace = r.trace->rules.front();
        v.ruleId = q(v.trace->id);
    }
    v.traceNote = q(r.traceNote);
    v.ms = r.analyseMs;
    v.records = r.analysis.evidence ? static_cast<qint64>(r.analysis.evidence->observations.size()) : 0;
    return v;
}

views::LibraryResults toView(const QString& dir, const usecases::Regression& r, bool edited)
{
    views::LibraryResults v;
    v.kind = views::LibraryResults::Kind::Regression;
    v.library = dir;
    v.subject = QStringLiteral("%1 %2 (%3)%4")
                    .arg(q(r.catalogName), q(r.catalogVersion), q(r.catalogHash.substr(0, 12)),
                        edited ? QObject::tr(", edited") : QString());
    std::size_t flipped = 0;
    for (const auto& c : r.cases) {
        views::LibraryCaseRow row;
        row.path = q(c.path);
        row.failed = c.outcome == usecases::CaseOutcome::Failed;
        row.flagged = row.failed || !c.diff.same;
        flipped += !row.failed && !c.diff.same ? 1 : 0;
        row.status = row.failed ? QObject::tr("failed")
            : !c.diff.same ? QObject::tr("flips (%1)").arg(QString::fromLatin1(usecases::caseOutcomeName(c.outcome)))
                           : QString::fromLatin1(usecases::caseOutcomeName(c.outcome));
        row.before = q(c.before);
        row.after = q(c.after);
        if (row.failed)
            row.details << q(c.error);
        for (const auto& d : c.diff.changes)
            row.details << q(d);
        for (const auto& m : c.misses)
            row.details << QObject::tr("expected: %1").arg(q(m));
        row.ms = c.ms;
        v.cases << row;
    }
    v.summary = QObject::tr("%1 case(s): %2 would flip, %3 broken, %4 fixed, %5 failed · %6 s on %7 thread(s)")
                    .arg(r.cases.size())
                    .arg(flipped)
                    .arg(r.count(usecases::CaseOutcome::Broken))
                    .arg(r.count(usecases::CaseOutcome::Fixed))
                    .arg(r.count(usecases::CaseOutcome::Failed))
                    .arg(static_cast<double>(r.elapsedMs) / 1000.0, 0, 'f', 1)
                    .arg(r.threads);
    return v;
}

views::LibraryResults toView(const QString& dir, const usecases::Sweep& s)
{
    views::LibraryResults v;
    v.kind = views::LibraryResults::Kind::Sweep;
    v.library = dir;
    v.subject = q(s.ruleId);
    std::size_t failed = 0;
    for (const auto& c : s.cases) {
        views::LibraryCaseRow row;
        row.path = q(c.path);
        row.failed = !c.error.empty();
        failed += row.failed ? 1 : 0;
        row.flagged = row.failed || c.fired > 0;
        row.status = row.failed ? QObject::tr("failed")
            : c.fired > 0       ? QObject::tr("fires %1×").arg(c.fired)
                                : QObject::tr("does not fire");
        if (row.failed)
            row.details << q(c.error);
        for (const auto& h : c.hits)
            row.lines.push_back({ q(h.path), h.line, q(h.text), q(h.label + " → " + h.fate) });
        row.ms = c.ms;
        v.cases << row;
    }
    v.summary = QObject::tr("fires on %1 line(s) in %2 of %3 case(s)%4 · %5 s on %6 thread(s)")
                    .arg(s.fired)
                    .arg(s.casesFired)
                    .arg(s.cases.size())
                    .arg(failed ? QObject::tr(", %1 failed").arg(failed) : QString())
                    .arg(static_cast<double>(s.elapsedMs) / 1000.0, 0, 'f', 1)
                    .arg(s.threads);
    return v;
}

/// The catalog in use (the last load that succeeded), or null while none has.
std::shared_ptr<const core::RuleCatalog> catalogInUse(const CatalogController* catalogs)
{
    const auto future = catalogs->catalog();
    if (!future.isValid() || !future.isFinished())
        return nullptr;
    return future.result().catalog;
}

} // namespace

RuleWorkbench::RuleWorkbench(MainWindow* window, QMenu* rulesMenu)
    : QObject(window)
    , m_window(window)
    , m_controller(new RuleEditController(this))
    , m_editor(new views::RuleEditor(window))
    , m_library(new views::LibraryResultsPane(window))
    , m_editorDock(new QDockWidget(tr("Rule Editor"), window))
    , m_libraryDock(new QDockWidget(tr("Case Library"), window))
{
    m_editorDock->setObjectName(QStringLiteral("ruleEditorDock"));
    m_editorDock->setWidget(m_editor);
    window->addDockWidget(Qt::RightDockWidgetArea, m_editorDock);
    if (auto* caseDock = window->findChild<QDockWidget*>(QStringLiteral("caseDock")))
        window->tabifyDockWidget(caseDock, m_editorDock);
    m_editorDock->setVisible(false);
    // The library's results beside the editor: the right column is the one tall enough for a list of cases with
    // their diffs.
    m_libraryDock->setObjectName(QStringLiteral("caseLibraryDock"));
    m_libraryDock->setWidget(m_library);
    window->addDockWidget(Qt::RightDockWidgetArea, m_libraryDock);
    window->tabifyDockWidget(m_editorDock, m_libraryDock);
    m_libraryDock->setVisible(false);

    rulesMenu->addSeparator();
    m_editAction = rulesMenu->addAction(tr("&Edit Rule"), this, [this] { editRule(); });
    m_editAction->setShortcut(QKeySequence(Qt::Key_F2));
    m_editAction->setToolTip(tr("Edit the rule selected in the Rules pane (a bundled rule becomes an override in "
                                "your pack directory)"));
    m_draftAction = rulesMenu->addAction(tr("&New Rule from Selected Line"), this, [this] { newRuleFromLine(); });
    m_draftAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
    m_runAction = rulesMenu->addAction(tr("Run on &This Case"), this, &RuleWorkbench::runOnCase);
    m_runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_saveAction = rulesMenu->addAction(tr("&Save to User Pack"), this, &RuleWorkbench::save);
    m_saveAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    rulesMenu->addSeparator();
    m_regressAction = rulesMenu->addAction(tr("Re&gression over a Case Library…"), this, [this] { regress(); });
    m_sweepAction = rulesMenu->addAction(tr("&Must-Not-Fire Sweep…"), this, [this] { sweep(); });
    rulesMenu->addSeparator();
    rulesMenu->addAction(m_editorDock->toggleViewAction());
    rulesMenu->addAction(m_libraryDock->toggleViewAction());

    // The Rules pane's and the evidence viewer's context menus.
    auto* rulesView = window->rulesPane()->view();
    rulesView->addAction(m_editAction);
    rulesView->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto* viewer = window->evidencePane()->viewer();
    viewer->addAction(m_draftAction);
    viewer->setContextMenuPolicy(Qt::ActionsContextMenu);

    connect(m_editor, &views::RuleEditor::textEdited, this, [this](quint64 generation, const QString&) {
        if (m_document)
            m_controller->check(generation, request());
    });
    connect(
        m_controller, &RuleEditController::checked, this, [this](quint64 generation, const usecases::RuleCheck& check) {
            if (!m_editor->setCheck(toView(generation, check)))
                return; // the text changed since
            updateActions();
            Q_EMIT checked();
            if (std::exchange(m_runWhenValid, false) && check.catalog && check.errors() == 0)
                runOnCase();
        });
    connect(m_editor, &views::RuleEditor::runRequested, this, &RuleWorkbench::runOnCase);
    connect(m_editor, &views::RuleEditor::saveRequested, this, &RuleWorkbench::save);
    connect(m_editor, &views::RuleEditor::sweepRequested, this, [this] { sweep(); });
    connect(m_editor, &views::RuleEditor::regressionRequested, this, [this] { regress(); });
    connect(m_editor, &views::RuleEditor::cancelRequested, m_controller, &RuleEditController::cancel);
    connect(m_library, &views::LibraryResultsPane::cancelRequested, m_controller, &RuleEditController::cancel);
    connect(m_editor, &views::RuleEditor::recordActivated, this,
        [this](const QString& path, quint64 line, qint64 timeNs) { m_window->showHit(path, line, timeNs); });
    connect(m_controller, &RuleEditController::progressChanged, this, [this](int, const QString& step) {
        m_editor->setProgress(step);
        m_library->setBusy(m_controller->isBusy(), step);
    });
    connect(m_controller, &RuleEditController::busyChanged, this, [this](bool busy) {
        if (!busy) {
            m_editor->setBusy(false);
            m_library->setBusy(false);
        }
        updateActions();
    });
    connect(m_controller, &RuleEditController::ran, this, [this](const usecases::RuleRun& run) {
        m_editor->setRun(toView(run, m_window->result()));
        QStringList changes;
        for (const auto& c : run.diff.changes)
            changes << q(c);
        tell(run.diff.same ? tr("Run on this case: same verdict as %1 (%2 ms)").arg(q(run.baseline)).arg(run.analyseMs)
                : views::RuleEditor::changesVerdict(changes)
                ? tr("Run on this case: the verdict changes from %1 (%2 difference(s), %3 ms)")
                      .arg(q(run.baseline))
                      .arg(run.diff.changes.size())
                      .arg(run.analyseMs)
                : tr("Run on this case: the same outcome and cause as %1; %2 (%3 ms)")
                      .arg(q(run.baseline), changes.join(QStringLiteral("; ")))
                      .arg(run.analyseMs));
        Q_EMIT ran();
    });
    connect(m_controller, &RuleEditController::saved, this, [this](const usecases::SavedRule& s) {
        m_document = s.document;
        m_editor->replaceText(q(s.document.text), q(s.document.from));
        QString message = tr("Saved %1 (version %2) to %3").arg(q(s.document.ruleId)).arg(s.version).arg(q(s.path));
        if (!s.backup.empty())
            message += tr("; the file as it was is kept in %1").arg(q(s.backup));
        const auto* catalogs = m_window->catalogController();
        const bool layered =
            QDir::cleanPath(q(s.document.target.dir)) != QDir::cleanPath(catalogs->userDir()) || catalogs->userPacks();
        message += layered ? tr(". The catalog reloads: later analyses use it.")
                           : tr(". Your own packs are off (Rules ▸ Rule Packs…): analyses read this file once they "
                                "are on.");
        tell(message);
        m_window->reloadCatalog();
        Q_EMIT saved();
    });
    connect(
        m_controller, &RuleEditController::regressed, this, [this](const QString& dir, const usecases::Regression& r) {
            m_library->setResults(toView(dir, r, m_editor->hasDocument()));
            showLibrary();
            tell(tr("Regression over %1: %2").arg(dir, m_library->results().summary));
            Q_EMIT libraryFinished();
        });
    connect(m_controller, &RuleEditController::swept, this, [this](const QString& dir, const usecases::Sweep& s) {
        m_library->setResults(toView(dir, s));
        showLibrary();
        tell(tr("Must-not-fire sweep of %1 over %2: %3").arg(q(s.ruleId), dir, m_library->results().summary));
        Q_EMIT libraryFinished();
    });
    connect(m_controller, &RuleEditController::failed, this, [this](const QString& what, const QString& message) {
        if (what == QLatin1String("run"))
            m_editor->setRunFailed(message);
        else if (what == QLatin1String("regression") || what == QLatin1String("sweep"))
            m_library->setFailed(message);
        tell(message.section(QLatin1Char('\n'), 0, 0));
        Q_EMIT failed(message);
    });
    connect(m_library, &views::LibraryResultsPane::openRequested, this,
        [this](const QString& casePath, const QString& file, quint64 line) {
            m_pendingFile = file;
            m_pendingLine = line;
            m_window->openCase(casePath);
        });
    connect(m_window, &MainWindow::resultShown, this, [this] {
        if (!m_pendingFile.isEmpty() && m_window->result().evidence)
            m_window->showHit(std::exchange(m_pendingFile, QString()), std::exchange(m_pendingLine, 0), INT64_MIN);
        updateActions();
    });
    connect(m_window, &MainWindow::catalogLoaded, this, &RuleWorkbench::updateActions);
    updateActions();
}

usecases::RuleCheckRequest RuleWorkbench::request() const
{
    usecases::RuleCheckRequest r;
    r.sources = m_window->catalogController()->sources();
    if (m_document)
        r.target = m_document->target;
    r.text = m_editor->text().toStdString();
    return r;
}

void RuleWorkbench::tell(const QString& message)
{
    m_message = message;
    m_editor->setNote(message);
    m_window->statusBar()->showMessage(message, 15000);
}

void RuleWorkbench::updateActions()
{
    const bool analysed = m_window->result().verdict != nullptr;
    const bool document = m_document.has_value();
    const bool valid = document && m_editor->lastCheck().ok;
    m_runAction->setEnabled(document && analysed);
    m_saveAction->setEnabled(document);
    m_sweepAction->setEnabled(valid);
    m_draftAction->setEnabled(analysed);
    m_editor->setRunnable(analysed);
}

void RuleWorkbench::showLibrary()
{
    const bool wasHidden = !m_libraryDock->isVisible() && !m_editorDock->isVisible();
    m_libraryDock->setVisible(true);
    m_libraryDock->raise();
    if (wasHidden)
        m_window->resizeDocks({ m_libraryDock }, { std::max(520, m_window->width() * 45 / 100) }, Qt::Horizontal);
}

void RuleWorkbench::openDocument(const usecases::RuleDocument& doc, bool runAfterCheck)
{
    m_document = doc;
    m_runWhenValid = runAfterCheck && m_window->result().verdict != nullptr;
    const bool wasHidden = !m_editorDock->isVisible();
    m_editorDock->setVisible(true);
    m_editorDock->raise();
    if (wasHidden)
        m_window->resizeDocks({ m_editorDock }, { std::max(520, m_window->width() * 45 / 100) }, Qt::Horizontal);
    QString savedTo = q(doc.target.path());
    const auto* catalogs = m_window->catalogController();
    if (QDir::cleanPath(q(doc.target.dir)) == QDir::cleanPath(catalogs->userDir()) && !catalogs->userPacks())
        savedTo += tr(" (your own packs are off: Rules ▸ Rule Packs…)");
    m_editor->setDocument(q(doc.text), q(doc.ruleId), q(doc.from), savedTo);
    m_editor->textEdit()->setFocus(Qt::OtherFocusReason);
    updateActions();
}

bool RuleWorkbench::editRule(const QString& id)
{
    const QString rule = id.isEmpty() ? m_window->rulesPane()->currentRule() : id;
    if (rule.isEmpty()) {
        tell(tr("Select a rule in the Rules pane first (View ▸ Rules)."));
        return false;
    }
    const auto catalog = catalogInUse(m_window->catalogController());
    if (!catalog) {
        tell(tr("The rule catalog has not loaded yet (or has errors: Rules ▸ Catalog Diagnostics…)."));
        return false;
    }
    const auto doc =
        usecases::openRuleForEdit(*catalog, rule.toStdString(), m_window->catalogController()->userDir().toStdString());
    if (!doc.ok()) {
        tell(q(doc.failure.text()));
        return false;
    }
    openDocument(*doc.value, false);
    return true;
}

bool RuleWorkbench::newRuleFromLine(const QString& path, quint64 line)
{
    const views::AnalysisResult& result = m_window->result();
    if (!result.evidence) {
        tell(tr("Open a case or a bundle first, then select a line of its evidence."));
        return false;
    }
    QString file = path;
    quint64 at = line;
    if (file.isEmpty()) {
        auto* viewer = m_window->evidencePane()->viewer();
        if (viewer->text() && viewer->file() < viewer->text()->fileCount() && viewer->highlightedLine() > 0) {
            file = q(viewer->text()->path(viewer->file()));
            at = viewer->highlightedLine();
        }
    }
    if (file.isEmpty() || at == 0) {
        tell(tr("Select a line in the evidence viewer first (click it), then Rules ▸ New Rule from Selected Line."));
        return false;
    }
    const auto record = usecases::recordAt(*result.evidence, file.toStdString(), at);
    if (!record) {
        tell(tr("%1:%2 holds no record the rules read (the import skipped it, or it is a metrics file): no rule can "
                "fire on it.")
                 .arg(file)
                 .arg(at));
        return false;
    }
    usecases::DraftHints hints;
    for (std::size_t i = 0; i < result.evidence->nodes.size(); ++i)
        hints.hosts.push_back(result.evidence->nodes.name(static_cast<core::NodeId>(i)));
    hints.where = record->path + ":" + std::to_string(record->line);
    const auto catalog = catalogInUse(m_window->catalogController());
    hints.catalog = catalog ? catalog.get() : result.catalog.get();
    const usecases::RuleDraft draft = usecases::draftRuleFromLine(record->text, record->kind, hints);
    usecases::RuleDocument doc;
    doc.text = draft.text;
    doc.ruleId = draft.id;
    doc.target = { m_window->catalogController()->userDir().toStdString(), usecases::kLocalPack, {} };
    doc.from = "drafted from " + hints.where
        + (record->line != at ? " (the record that holds line " + std::to_string(at) + ")" : std::string());
    openDocument(doc, true);
    return true;
}

void RuleWorkbench::runOnCase()
{
    if (!m_document) {
        tell(tr("Open a rule first: Rules ▸ Edit Rule, or Rules ▸ New Rule from Selected Line."));
        return;
    }
    if (!m_window->result().verdict) {
        tell(tr("Open a case or a bundle to run the rule on."));
        return;
    }
    m_editor->setBusy(true, tr("Running the edited rules on this case…"));
    m_controller->run(request(), m_window->result(), m_editor->ruleId().toStdString());
}

void RuleWorkbench::save()
{
    if (!m_document) {
        tell(tr("Open a rule first: Rules ▸ Edit Rule, or Rules ▸ New Rule from Selected Line."));
        return;
    }
    m_editor->setBusy(true, tr("Saving…"));
    m_controller->save(request());
}

QString RuleWorkbench::chooseLibrary(const QString& title)
{
    QSettings settings;
    const QString dir =
        QFileDialog::getExistingDirectory(m_window, title, settings.value(kLibraryKey, QDir::homePath()).toString());
    if (!dir.isEmpty())
        settings.setValue(kLibraryKey, dir);
    return dir;
}

void RuleWorkbench::regress(const QString& dir)
{
    const QString library = dir.isEmpty() ? chooseLibrary(tr("Regression over a Case Library")) : dir;
    if (library.isEmpty())
        return;
    std::optional<usecases::RuleCheckRequest> edited;
    if (m_document)
        edited = request();
    showLibrary();
    m_library->setBusy(true, tr("Re-analysing the cases of %1…").arg(library));
    m_controller->regress(library, edited, catalogInUse(m_window->catalogController()));
}

void RuleWorkbench::sweep(const QString& dir)
{
    if (!m_document || !m_editor->lastCheck().ok) {
        tell(tr("The sweep runs the rule in the editor: open one and fix its errors first."));
        return;
    }
    const QString library = dir.isEmpty() ? chooseLibrary(tr("Must-Not-Fire Sweep over a Case Library")) : dir;
    if (library.isEmpty())
        return;
    showLibrary();
    m_library->setBusy(true, tr("Sweeping the cases of %1 for %2…").arg(library, m_editor->ruleId()));
    m_controller->sweep(library, request(), m_editor->ruleId().toStdString());
}

} // namespace faultline::app
