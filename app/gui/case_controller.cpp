// SPDX-License-Identifier: Apache-2.0
#include "app/gui/case_controller.h"

#include "app/usecases/case_history.h"
#include "app/usecases/story.h"
#include "core/model/annotations.h"
#include "core/model/story.h"
#include "views/case/case_view.h"

#include <QDialog>
#include <QFontDatabase>
#include <QFutureWatcher>
#include <QPlainTextEdit>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <optional>

namespace faultline::app {

namespace {

/// What a job brings back to the UI thread.
struct Outcome
{
    bool wrote = false; ///< the job tried a write
    std::string writeError; ///< why the write failed ("" : it succeeded)
    std::optional<core::CaseHistory> history;
    std::string historyError;
    std::vector<core::AnnotationResolution> resolutions; ///< of history's annotations, against the analysis shown
    std::string resolvedAgainst;
    std::vector<core::AnnotationResolution> storyResolutions; ///< per story step: its event in the analysis shown
};

/// What a run's verdict job brings back.
struct VerdictOutcome
{
    std::string text;
    std::string error;
};

} // namespace

CaseController::CaseController(views::CaseView* view, QObject* parent)
    : QObject(parent)
    , m_view(view)
{
    m_pool.setMaxThreadCount(1); // one job at a time, in order: a write is read back before the next one starts
    connect(view, &views::CaseView::noteRequested, this, &CaseController::addNote);
    connect(view, &views::CaseView::narrativeRequested, this, &CaseController::setNarrative);
    connect(view, &views::CaseView::expectRequested, this, &CaseController::markLatestExpected);
    connect(view, &views::CaseView::runRequested, this, &CaseController::showRun);
}

CaseController::~CaseController()
{
    m_pool.waitForDone();
}

void CaseController::showCase(const QString& casePath)
{
    m_path = casePath;
    if (m_path.isEmpty()) {
        ++m_generation; // a history still on its way is dropped
        if (m_view)
            m_view->showEmpty();
        m_history.reset();
        m_resolutions.clear();
        m_storyResolutions.clear();
        m_resolvedAgainst.clear();
        Q_EMIT annotationsChanged();
        Q_EMIT storyChanged();
        return;
    }
    launch({});
}

void CaseController::refresh()
{
    showCase(m_path);
}

void CaseController::setAnalysis(const core::Analysis& analysis, bool latestRun)
{
    m_verdict = analysis.verdict;
    m_evidence = analysis.evidence;
    m_scopeRun = latestRun ? -1 : analysis.matchesStoredRun ? analysis.storedRun : 0;
    m_scopeName = m_scopeRun > 0 ? "run " + std::to_string(m_scopeRun) : "the analysis shown (not stored as a run)";
}

void CaseController::saveStory(std::vector<core::StoryStep> steps, const QString& change, const QString& author)
{
    if (m_path.isEmpty()) {
        Q_EMIT failed(tr("No case is open: save the analysis as a case first (File ▸ Save as Case…)."));
        return;
    }
    usecases::SaveStoryRequest request;
    request.steps = std::move(steps);
    request.change = change.toStdString();
    request.author = author.toStdString();
    // The story this edit was made from: a story saved meanwhile by another window or the CLI is not overwritten.
    request.baseRevision = m_history ? m_history->story.revision : -1;
    auto saved = std::make_shared<std::int64_t>(0);
    launch(
        [request, saved](const std::string& casePath) mutable {
            request.casePath = casePath;
            auto written = usecases::saveStory(request);
            if (!written.ok())
                return written.failure.text();
            *saved = written.value->revision;
            return std::string();
        },
        [this, saved] { Q_EMIT storySaved(*saved); });
}

std::vector<core::AnnotationResolution> CaseController::storyResolutions(
    const core::Story& story, const core::Verdict& verdict, const core::EvidenceSet& evidence, const std::string& name)
{
    std::vector<core::Annotation> refs;
    std::vector<std::size_t> stepOf;
    for (std::size_t i = 0; i < story.steps.size(); ++i)
        if (story.steps[i].state.event) {
            refs.push_back(core::storyEventAnnotation(*story.steps[i].state.event, static_cast<std::int64_t>(i + 1)));
            stepOf.push_back(i);
        }
    std::vector<core::AnnotationResolution> out(story.steps.size());
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i].annotation = static_cast<std::int64_t>(i + 1);
    if (refs.empty())
        return out;
    const auto resolved = core::resolveAnnotations(refs, core::annotationScope(refs, verdict, evidence, name));
    for (std::size_t k = 0; k < resolved.size() && k < stepOf.size(); ++k)
        out[stepOf[k]] = resolved[k];
    return out;
}

void CaseController::annotate(usecases::AnnotateRequest request)
{
    if (m_path.isEmpty()) {
        Q_EMIT failed(tr("No case is open: save the analysis as a case first (File ▸ Save as Case…)."));
        return;
    }
    auto done = std::make_shared<usecases::Annotated>();
    launch(
        [request, done](const std::string& casePath) mutable {
            request.casePath = casePath;
            auto written = usecases::annotateCase(request);
            if (!written.ok())
                return written.failure.text();
            *done = std::move(*written.value);
            return std::string();
        },
        [this, done] { Q_EMIT annotated(done->id, done->removed); });
}

void CaseController::launch(std::function<std::string(const std::string& path)> write, std::function<void()> written)
{
    const quint64 generation = ++m_generation;
    const std::string path = m_path.toStdString();
    if (m_view)
        m_view->showLoading(m_path);
    ++m_pending;
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher, generation, written] {
        watcher->deleteLater();
        --m_pending;
        const Outcome out = watcher->result();
        const bool changed = out.wrote && out.writeError.empty();
        if (out.wrote && !changed)
            Q_EMIT failed(QString::fromStdString(out.writeError)); // the user asked for it: reported even if stale
        if (generation == m_generation) {
            m_history = out.history;
            m_resolutions = out.resolutions;
            m_storyResolutions = out.storyResolutions;
            m_resolvedAgainst = QString::fromStdString(out.resolvedAgainst);
            if (m_view) {
                if (out.history)
                    m_view->setHistory(*out.history);
                else
                    m_view->showError(m_path, QString::fromStdString(out.historyError));
            }
            Q_EMIT annotationsChanged();
            Q_EMIT storyChanged();
            Q_EMIT historyShown();
        }
        if (changed && written)
            written();
        if (changed)
            Q_EMIT caseChanged();
    });
    watcher->setFuture(QtConcurrent::run(&m_pool,
        [path, write, verdict = m_verdict, evidence = m_evidence, name = m_scopeName, run = m_scopeRun]() mutable {
            Outcome out;
            if (write) {
                out.wrote = true;
                out.writeError = write(path);
            }
            auto read = usecases::caseHistory(path);
            if (read.ok())
                out.history = std::move(read.value);
            else
                out.historyError = read.failure.text();
            if (out.history && verdict && evidence) {
                // Against the analysis shown, whose event indices the panes use.
                if (run < 0 && !out.history->runs.empty()) {
                    run = out.history->runs.back().info.id;
                    name = "run " + std::to_string(run);
                }
                const auto& notes = out.history->annotations;
                out.resolutions =
                    core::resolveAnnotations(notes, core::annotationScope(notes, *verdict, *evidence, name, run));
                out.resolvedAgainst = name;
                out.storyResolutions = storyResolutions(out.history->story, *verdict, *evidence, name);
            } else if (out.history) {
                out.resolutions = out.history->resolutions;
                out.resolvedAgainst = "run " + std::to_string(out.history->resolvedRun);
            }
            return out;
        }));
}

void CaseController::addNote(const QString& text)
{
    addLineNote({}, 0, text);
}

void CaseController::addLineNote(const QString& path, quint64 line, const QString& text)
{
    if (m_path.isEmpty()) {
        Q_EMIT failed(tr("No case is open: save the analysis as a case first (File ▸ Save as Case…)."));
        return;
    }
    usecases::AnnotateRequest request;
    request.kind = usecases::AnnotationKind::Note;
    request.text = text.toStdString();
    if (!path.isEmpty())
        request.target = usecases::AnnotationTarget::lineOf(path.toStdString(), line);
    launch([request](const std::string& casePath) mutable {
        request.casePath = casePath;
        const auto done = usecases::annotateCase(request);
        return done.ok() ? std::string() : done.failure.text();
    });
}

void CaseController::setNarrative(const QString& text)
{
    if (m_path.isEmpty())
        return;
    usecases::AnnotateRequest request;
    request.kind = usecases::AnnotationKind::Narrative;
    request.text = text.toStdString();
    launch([request](const std::string& casePath) mutable {
        request.casePath = casePath;
        const auto done = usecases::annotateCase(request);
        return done.ok() ? std::string() : done.failure.text();
    });
}

void CaseController::markLatestExpected(const QString& note)
{
    if (m_path.isEmpty())
        return;
    launch([note = note.toStdString()](const std::string& casePath) {
        const auto done = usecases::expectRun(casePath, 0, {}, note);
        return done.ok() ? std::string() : done.failure.text();
    });
}

void CaseController::showRun(qint64 run)
{
    if (m_path.isEmpty())
        return;
    const QString casePath = m_path;
    auto* watcher = new QFutureWatcher<VerdictOutcome>(this);
    connect(watcher, &QFutureWatcher<VerdictOutcome>::finished, this, [this, watcher, run, casePath] {
        watcher->deleteLater();
        const VerdictOutcome out = watcher->result();
        if (!out.error.empty())
            Q_EMIT failed(QString::fromStdString(out.error));
        else if (casePath == m_path) // not when another case is shown by now
            showVerdictDialog(run, QString::fromStdString(out.text));
    });
    watcher->setFuture(QtConcurrent::run(&m_pool, [path = casePath.toStdString(), run] {
        const auto read = usecases::runVerdictText(path, run);
        return read.ok() ? VerdictOutcome { *read.value, {} } : VerdictOutcome { {}, read.failure.text() };
    }));
}

void CaseController::showVerdictDialog(qint64 run, const QString& text)
{
    auto* dialog = new QDialog(m_view);
    dialog->setObjectName(QStringLiteral("storedVerdict"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Run %1 — stored verdict").arg(run));
    auto* view = new QPlainTextEdit(text, dialog);
    view->setReadOnly(true);
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(view);
    dialog->resize(900, 600);
    dialog->show();
    Q_EMIT runVerdictShown(run, text);
}

} // namespace faultline::app
