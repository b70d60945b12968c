// SPDX-License-Identifier: Apache-2.0
// Exports a saved case's report as Markdown, HTML or PDF, with its pictures: the use case reads and re-analyses the
// case on a worker thread (usecases::prepareCaseReport), the pictures are drawn on the UI thread (timeline_picture.h),
// then the worker renders the text, or lays the PDF out (pdf_report.h), and writes the files. The workbench's
// File ▸ Export Report… and the headless `faultline --export-report` run the same object.
// Thread affinity: the object lives on the UI thread; its signals are emitted there. The destructor cancels and waits
// for the worker.
#pragma once

#include "app/usecases/report.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QThreadPool>

#include <atomic>
#include <memory>
#include <optional>

namespace faultline::render {

enum class ExportFormat { Markdown, Html, Pdf };

/// "md" (or "markdown"), "html", "pdf"; nullopt for anything else.
std::optional<ExportFormat> exportFormatFrom(const QString& name);

struct ExportRequest
{
    QString casePath;
    ExportFormat format = ExportFormat::Pdf;
    QString outPath;
    /// "" (not redacted), "default" or a redaction profile file.
    QString redaction;
    QString rulesDir; ///< for a case that does not hold its run's rules
    bool pictures = true; ///< draw the report's pictures (Markdown and HTML can do without)
};

struct ExportOutcome
{
    usecases::Exit code = usecases::Exit::Ok;
    QString message; ///< the error with its located details, or what was written
    QString path; ///< the report written (empty on failure)
    int pages = 0; ///< PDF: its pages
    int pictures = 0;
};

class ReportExport : public QObject
{
    Q_OBJECT
public:
    explicit ReportExport(QObject* parent = nullptr);
    ~ReportExport() override;

    /// Starts an export; one at a time (false, and nothing starts, while one runs). The output path is checked
    /// first: never the case itself nor another case file.
    bool start(const ExportRequest& request);
    void cancel();
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    void progressChanged(int percent, const QString& step);
    /// The export ended: written, failed or cancelled (code Exit::Cancelled).
    void finished(const faultline::render::ExportOutcome& outcome);

private:
    struct Prepared;
    void drawAndWrite(std::shared_ptr<Prepared> prepared);
    void finish(const ExportOutcome& outcome);

    QThreadPool m_pool;
    std::shared_ptr<std::atomic_bool> m_cancel;
    ExportRequest m_request;
    bool m_running = false;
};

} // namespace faultline::render

Q_DECLARE_METATYPE(faultline::render::ExportOutcome)
