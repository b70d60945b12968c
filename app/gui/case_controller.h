// SPDX-License-Identifier: Apache-2.0
// Feeds the case view: reads the shown case's history with the use cases (app/usecases/case_history.h) on a worker
// thread and hands the snapshot to the view, and answers the view's requests (a note, the narrative, the expected
// verdict, a run's stored verdict, shown in a dialog) the same way, each write followed by a fresh history. Jobs run
// one at a time in the order asked, so writes never race; a history read for an older request (another case, or a
// refresh superseded by a newer one) is dropped by its generation, as in AnalysisController.
// Thread affinity: the object lives on the UI thread; signals are emitted there. The destructor waits for the job
// in progress.
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <QThreadPool>

#include <functional>
#include <string>

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

Q_SIGNALS:
    /// The view shows a history (or the error state) read for the latest request.
    void historyShown();
    /// A write to the case succeeded.
    void caseChanged();
    /// A write or a run's verdict failed: the reason and its located details, one per line.
    void failed(const QString& message);
    /// Run `run`'s stored verdict is shown in a dialog.
    void runVerdictShown(qint64 run, const QString& text);

private:
    /// Runs `write` (when set; it returns "" or why it failed) on the worker for the shown case, then reads the
    /// case's history, and shows what came back.
    void launch(std::function<std::string(const std::string& path)> write);
    void showVerdictDialog(qint64 run, const QString& text);

    QPointer<views::CaseView> m_view;
    QString m_path;
    QThreadPool m_pool;
    quint64 m_generation = 0;
    int m_pending = 0;
};

} // namespace faultline::app
