// SPDX-License-Identifier: Apache-2.0
// Feeds the case view: reads the shown case's history with the use cases (app/usecases/case_history.h) on a worker
// thread and hands the snapshot to the view, and answers the view's requests (a note, the narrative, the expected
// verdict, a run's stored verdict, shown in a dialog) the same way, each write followed by a fresh history. The
// workbench's annotations go the same way (annotate, edit, remove); each history read also resolves the annotations
// against the analysis shown (setAnalysis), on the worker, for the panes that draw them. Jobs run
// one at a time in the order asked, so writes never race; a history read for an older request (another case, or a
// refresh superseded by a newer one) is dropped by its generation, as in AnalysisController.
// Thread affinity: the object lives on the UI thread; signals are emitted there. The destructor waits for the job
// in progress.
#pragma once

#include "app/usecases/case_history.h"
#include "core/model/analysis.h"
#include "core/model/case_records.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QThreadPool>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace faultline::views {
class CaseView;
}

namespace faultline::app {

class CaseController : public QObject
{
    Q_OBJECT
public:
    /// Drives `view`: its requests are connected to this controller.
    explicit CaseController(views::CaseView* view, QObject* parent = nullptr);
    ~CaseController() override;

    /// Shows `casePath`'s history ("" shows the empty state). The view is in its loading state until it arrives.
    void showCase(const QString& casePath);
    /// Reads the shown case's history again.
    void refresh();
    const QString& casePath() const { return m_path; }
    /// True while a job (read or write) is queued or running.
    bool isBusy() const { return m_pending > 0; }

    void addNote(const QString& text);
    /// A note on line `line` of the stored evidence file `path` (as the import report names it).
    void addLineNote(const QString& path, quint64 line, const QString& text);
    /// Writes the narrative; it supersedes the current one.
    void setNarrative(const QString& text);
    void markLatestExpected(const QString& note);
    /// Reads run `run`'s stored verdict and shows it in a dialog (runVerdictShown), or reports `failed`.
    void showRun(qint64 run);

    /// The analysis the workbench shows: each history read from now on resolves the annotations against it (named
    /// "run N" when it reproduces stored run N, or when `latestRun`: it was just added as the case's latest run). An
    /// empty analysis resolves against the case's latest stored run.
    void setAnalysis(const core::Analysis& analysis, bool latestRun = false);
    /// Writes `steps` as the shown case's story's new revision (`change` says what the edit did), made from the
    /// revision last shown: when the case's story changed meanwhile, nothing is written and `failed` says so. A
    /// fresh history follows (storyChanged), then storySaved.
    void saveStory(std::vector<core::StoryStep> steps, const QString& change, const QString& author);
    /// Per step of history()->story (same order): its event resolved against the analysis shown (matched with the
    /// event's index, or why not); a step without an event is matched with no event.
    const std::vector<core::AnnotationResolution>& storyResolutions() const { return m_storyResolutions; }
    /// Resolves each step's event of `story` against an analysis (what storyResolutions holds).
    static std::vector<core::AnnotationResolution> storyResolutions(const core::Story& story,
        const core::Verdict& verdict, const core::EvidenceSet& evidence, const std::string& name);
    /// Adds, edits, toggles or removes an annotation of the shown case (request.casePath is filled in here).
    void annotate(usecases::AnnotateRequest request);
    /// The history last shown (none before the first, or when it failed) and its annotations' resolutions against
    /// the analysis shown (or the latest run), parallel to history()->annotations.
    const std::optional<core::CaseHistory>& history() const { return m_history; }
    const std::vector<core::AnnotationResolution>& resolutions() const { return m_resolutions; }
    /// What the resolutions were made against: "run 2", "the analysis shown (not stored as a run)".
    const QString& resolvedAgainst() const { return m_resolvedAgainst; }

Q_SIGNALS:
    /// The view shows a history (or the error state) read for the latest request.
    void historyShown();
    /// A write to the case succeeded.
    void caseChanged();
    /// A write or a run's verdict failed: the reason and its located details, one per line.
    void failed(const QString& message);
    /// Run `run`'s stored verdict is shown in a dialog.
    void runVerdictShown(qint64 run, const QString& text);
    /// A history (and its annotations' resolutions) arrived, or the case was closed: the annotations changed.
    void annotationsChanged();
    /// An annotation was written: `id` is the new one, or the removed one when `removed`.
    void annotated(qint64 id, bool removed);
    /// A history arrived (or the case was closed): the story and its resolutions may have changed.
    void storyChanged();
    /// The story was saved as revision `revision`.
    void storySaved(qint64 revision);

private:
    /// Runs `write` (when set; it returns "" or why it failed) on the worker for the shown case, then reads the
    /// case's history, and shows what came back.
    void launch(std::function<std::string(const std::string& path)> write, std::function<void()> written = {});
    void showVerdictDialog(qint64 run, const QString& text);

    QPointer<views::CaseView> m_view;
    QString m_path;
    std::shared_ptr<const core::Verdict> m_verdict; ///< the analysis shown, resolved against
    std::shared_ptr<const core::EvidenceSet> m_evidence;
    std::string m_scopeName;
    std::int64_t m_scopeRun = 0; ///< the stored run it is; -1: the case's latest; 0: none
    std::optional<core::CaseHistory> m_history;
    std::vector<core::AnnotationResolution> m_resolutions;
    std::vector<core::AnnotationResolution> m_storyResolutions;
    QString m_resolvedAgainst;
    QThreadPool m_pool;
    quint64 m_generation = 0;
    int m_pending = 0;
};

} // namespace faultline::app
