// SPDX-License-Identifier: Apache-2.0
// Runs import + analysis off the UI thread (QtConcurrent "run with promise"), reports progress, can be
// cancelled, and drops results of superseded runs (generation counter, as hotspot's JobTracker).
// Thread affinity: the object lives on the UI thread; signals are emitted there.
#pragma once

#include "views/models/analysis_result.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QThreadPool>

#include <atomic>
#include <memory>

namespace faultline::app {

class AnalysisController : public QObject
{
    Q_OBJECT
public:
    explicit AnalysisController(QString rulesDir, QObject* parent = nullptr);
    ~AnalysisController() override;

    void start(const QStringList& bundlePaths);
    void cancel();
    bool isRunning() const;

Q_SIGNALS:
    void progressChanged(int percent, const QString& what);
    void analysisFinished(const faultline::views::AnalysisResult& result);
    void analysisFailed(const QString& message);

private:
    struct Outcome
    {
        views::AnalysisResult result;
        QString error;
    };

    QString m_rulesDir;
    QThreadPool m_pool;
    QPointer<QFutureWatcher<Outcome>> m_watcher; ///< null once the finished watcher is deleted
    std::shared_ptr<std::atomic_bool> m_cancel;
    quint64 m_generation = 0;
};

} // namespace faultline::app

Q_DECLARE_METATYPE(faultline::views::AnalysisResult)
