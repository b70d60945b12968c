// SPDX-License-Identifier: Apache-2.0
// Runs the rule editor's use cases (app/usecases/rule_edit.h, regress.h) off the UI thread. Checks of the document
// run on their own lane and never queue up: while one runs, only the newest request waits. Runs, saves, regressions
// and sweeps share a second lane, one at a time: a new one cancels the one running, whose result is then dropped
// (generation counter). Every long job reports progress and can be cancelled. Thread affinity: the object lives on
// the UI thread; its signals are emitted there.
#pragma once

#include "app/usecases/regress.h"
#include "app/usecases/rule_edit.h"
#include "views/models/analysis_result.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace faultline::app {

class RuleEditController : public QObject
{
    Q_OBJECT
public:
    explicit RuleEditController(QObject* parent = nullptr);
    ~RuleEditController() override;

    /// Checks a document; `checked` follows with the generation.
    void check(quint64 generation, usecases::RuleCheckRequest request);
    bool isChecking() const { return m_checking; }
    /// The catalog of the last check of exactly this request (sources, target and text), when it built one.
    std::shared_ptr<const core::RuleCatalog> checkedCatalog(const usecases::RuleCheckRequest& request) const;

    /// Re-runs the edited rules on the shown analysis (checking the document first unless its check is at hand) and
    /// traces rule `ruleId`.
    void run(usecases::RuleCheckRequest request, views::AnalysisResult shown, std::string ruleId);
    void save(usecases::RuleCheckRequest request);
    /// The regression over the library with the edited catalog (`edited` checked first) or, without an edit, with
    /// `current`.
    void regress(QString dir, std::optional<usecases::RuleCheckRequest> edited,
        std::shared_ptr<const core::RuleCatalog> current);
    /// The must-not-fire sweep of rule `ruleId` of the edited catalog over the library.
    void sweep(QString dir, usecases::RuleCheckRequest request, std::string ruleId);
    void cancel();
    bool isBusy() const { return m_busy; }

Q_SIGNALS:
    void checked(quint64 generation, const faultline::usecases::RuleCheck& check);
    void ran(const faultline::usecases::RuleRun& run);
    void saved(const faultline::usecases::SavedRule& saved);
    void regressed(const QString& dir, const faultline::usecases::Regression& regression);
    void swept(const QString& dir, const faultline::usecases::Sweep& sweep);
    /// A job failed or was cancelled: `what` is "run", "save", "regression" or "sweep".
    void failed(const QString& what, const QString& message);
    void progressChanged(int percent, const QString& step);
    void busyChanged(bool busy);

private:
    template <class T>
    void launch(const QString& what, std::function<usecases::Result<T>(const usecases::Task&)> work,
        std::function<void(const T&)> done);
    void startCheck();
    void setBusy(bool busy);

    QThreadPool m_checkPool;
    QThreadPool m_workPool;
    bool m_checking = false;
    std::optional<std::pair<quint64, usecases::RuleCheckRequest>> m_pendingCheck;
    usecases::RuleCheckRequest m_lastChecked;
    std::shared_ptr<const core::RuleCatalog> m_lastCatalog;
    std::shared_ptr<std::atomic_bool> m_cancel;
    quint64 m_work = 0;
    bool m_busy = false;
};

} // namespace faultline::app
