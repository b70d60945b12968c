// SPDX-License-Identifier: Apache-2.0
#include "app/render/report_export.h"

#include "app/render/pdf_report.h"
#include "app/render/timeline_picture.h"
#include "app/usecases/redact.h"

#include <QFileInfo>
#include <QPromise>
#include <QtConcurrent>

#include <algorithm>
#include <cmath>

namespace faultline::render {

namespace {

/// A use case's progress through the promise, scaled into [from, to], its cancellation read from the flag.
template <class Promise> usecases::Task taskFor(Promise& promise, const std::atomic_bool& cancel, int from, int to)
{
    usecases::Task task;
    task.cancel = &cancel;
    task.progress = [&promise, from, to](int percent, const std::string& step) {
        promise.setProgressValueAndText(from + (to - from) * percent / 100, QString::fromStdString(step));
    };
    return task;
}

ExportOutcome failed(const usecases::Failure& f)
{
    return { f.code, QString::fromStdString(f.text()), {}, 0, 0 };
}

ExportOutcome cancelledOutcome()
{
    return { usecases::Exit::Cancelled, ReportExport::tr("Export cancelled"), {}, 0, 0 };
}

} // namespace

std::optional<ExportFormat> exportFormatFrom(const QString& name)
{
    if (name == QLatin1String("md") || name == QLatin1String("markdown"))
        return ExportFormat::Markdown;
    if (name == QLatin1String("html"))
        return ExportFormat::Html;
    if (name == QLatin1String("pdf"))
        return ExportFormat::Pdf;
    return std::nullopt;
}

struct ReportExport::Prepared
{
    std::optional<usecases::ReportDraft> draft;
    usecases::Failure failure;
};

ReportExport::ReportExport(QObject* parent)
    : QObject(parent)
{
    m_pool.setMaxThreadCount(1);
    qRegisterMetaType<ExportOutcome>();
}

ReportExport::~ReportExport()
{
    cancel();
    m_pool.waitForDone();
}

void ReportExport::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void ReportExport::finish(const ExportOutcome& outcome)
{
    m_running = false;
    Q_EMIT finished(outcome);
}

bool ReportExport::start(const ExportRequest& request)
{
    if (m_running)
        return false;
    m_running = true;
    m_request = request;
    m_cancel = std::make_shared<std::atomic_bool>(false);
    // The target first: nothing is read or analysed for a report that could not be written.
    QString problem;
    if (request.casePath.isEmpty())
        problem = tr("no case to export");
    else if (request.outPath.isEmpty())
        problem = tr("the report needs a file to be written to");
    else
        problem = QString::fromStdString(
            usecases::reportTargetProblem(request.outPath.toStdString(), request.casePath.toStdString()));
    if (!problem.isEmpty()) {
        QMetaObject::invokeMethod(
            this,
            [this, problem] {
                finish({ usecases::Exit::Usage, problem, {}, 0, 0 });
            },
            Qt::QueuedConnection);
        return true;
    }

    auto cancel = m_cancel;
    auto* watcher = new QFutureWatcher<std::shared_ptr<Prepared>>(this);
    connect(watcher, &QFutureWatcher<std::shared_ptr<Prepared>>::progressValueChanged, this,
        [this, watcher](int value) { Q_EMIT progressChanged(value, watcher->progressText()); });
    connect(watcher, &QFutureWatcher<std::shared_ptr<Prepared>>::finished, this, [this, watcher, cancel] {
        watcher->deleteLater();
        const std::shared_ptr<Prepared> prepared = watcher->result();
        if (cancel->load())
            finish(cancelledOutcome());
        else if (!prepared->draft)
            finish(failed(prepared->failure));
        else
            drawAndWrite(prepared);
    });
    watcher->setFuture(QtConcurrent::run(&m_pool, [request, cancel](QPromise<std::shared_ptr<Prepared>>& promise) {
        promise.setProgressRange(0, 100);
        auto out = std::make_shared<Prepared>();
        usecases::ReportRequest r;
        r.casePath = request.casePath.toStdString();
        r.currentRulesDir = request.rulesDir.toStdString();
        if (!request.redaction.isEmpty()) {
            auto profile = usecases::loadRedactionProfile(request.redaction.toStdString());
            if (!profile.ok()) {
                out->failure = profile.failure;
                promise.addResult(out);
                return;
            }
            r.redaction = std::move(*profile.value);
        }
        auto draft = usecases::prepareCaseReport(r, taskFor(promise, *cancel, 0, 70));
        if (draft.ok())
            out->draft = std::move(*draft.value);
        else
            out->failure = draft.failure;
        promise.addResult(out);
    }));
    return true;
}

void ReportExport::drawAndWrite(std::shared_ptr<Prepared> prepared)
{
    const ExportRequest request = m_request;
    // Widgets draw on this (the UI) thread; the rest goes back to the worker.
    std::vector<usecases::ReportPicture> pictures;
    if (request.pictures && !prepared->draft->pictures.empty()) {
        Q_EMIT progressChanged(72, tr("Drawing the report's pictures"));
        // A PDF's pictures are drawn as wide as its text, so they are not scaled down and their labels stay legible.
        pictures = drawReportPictures(*prepared->draft,
            request.format == ExportFormat::Pdf ? std::min(kPictureWidth, pdfTextWidth()) : kPictureWidth);
    }
    auto cancel = m_cancel;
    auto* watcher = new QFutureWatcher<ExportOutcome>(this);
    connect(watcher, &QFutureWatcher<ExportOutcome>::progressValueChanged, this,
        [this, watcher](int value) { Q_EMIT progressChanged(value, watcher->progressText()); });
    // The worker decides: a cancel that comes after the files are written does not unwrite them.
    connect(watcher, &QFutureWatcher<ExportOutcome>::finished, this, [this, watcher] {
        watcher->deleteLater();
        finish(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(
        &m_pool, [request, prepared, pictures = std::move(pictures), cancel](QPromise<ExportOutcome>& promise) mutable {
            promise.setProgressRange(0, 100);
            const usecases::ReportDraft& draft = *prepared->draft;
            const std::string outPath = request.outPath.toStdString();
            ExportOutcome out;
            out.pictures = static_cast<int>(pictures.size());
            if (cancel->load()) {
                promise.addResult(cancelledOutcome());
                return;
            }
            if (request.format != ExportFormat::Pdf) {
                promise.setProgressValueAndText(85, tr("Writing the report"));
                const auto format = request.format == ExportFormat::Html ? usecases::ReportFormat::Html
                                                                         : usecases::ReportFormat::Markdown;
                const auto rendered =
                    usecases::renderCaseReport(draft, pictures, usecases::renderOptionsFor(format, outPath));
                const auto written = usecases::writeCaseReport(rendered, outPath, request.casePath.toStdString());
                if (!written.ok()) {
                    promise.addResult(failed(written.failure));
                    return;
                }
                out.path = request.outPath;
                out.message = tr("report written to %1").arg(request.outPath);
                if (!written.value->assets.empty())
                    out.message +=
                        tr(" (with %n picture file(s) in %1)", nullptr, static_cast<int>(written.value->assets.size()))
                            .arg(QFileInfo(QString::fromStdString(written.value->assets.front())).path());
                promise.addResult(out);
                return;
            }
            // PDF: the HTML with its pictures as files the document holds as resources, none wider than the page.
            promise.setProgressValueAndText(80, tr("Laying out the PDF"));
            const int width = pdfTextWidth();
            for (auto& p : pictures)
                if (p.width > width) {
                    p.height = static_cast<int>(std::lround(p.height * static_cast<double>(width) / p.width));
                    p.width = width;
                }
            const auto rendered = usecases::renderCaseReport(draft, pictures,
                usecases::RenderOptions {
                    usecases::ReportFormat::Html, usecases::PictureLinks::Files, {}, pdfStyleSheet() });
            const PdfResult pdf = writePdfReport(
                { rendered.text, rendered.assets, request.outPath, QString::fromStdString(draft.title) }, cancel.get());
            if (pdf.cancelled) {
                promise.addResult(cancelledOutcome());
                return;
            }
            if (!pdf.error.isEmpty()) {
                promise.addResult(ExportOutcome { usecases::Exit::Usage, pdf.error, {}, 0, out.pictures });
                return;
            }
            out.path = request.outPath;
            out.pages = pdf.pages;
            out.message = tr("report written to %1 (%n page(s))", nullptr, pdf.pages).arg(request.outPath);
            promise.setProgressValueAndText(100, tr("Done"));
            promise.addResult(out);
        }));
}

} // namespace faultline::render
