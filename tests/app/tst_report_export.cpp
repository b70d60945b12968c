// SPDX-License-Identifier: Apache-2.0
// Exporting from the workbench, offscreen: File ▸ Export Report… and Export Redacted Copy… are disabled until a case is
// open; a PDF export lands (a PDF with pages and its picture), HTML carries the timeline picture inline and Markdown
// beside it, the picture's lanes pass the redactor, an export over the case itself is refused and shown, a cancelled
// one writes nothing; the redaction dialog previews every replacement (node-02 becomes host-b) and then writes a copy
// that opens; the pictures pin the case's annotations (a bookmark on the cause, redacted with the report); a PDF's
// heading is not left alone at a page's foot. Screenshots of the dialogs and the picture go to the build tree's
// screenshots/ for a person to look at.
#include "app/gui/export_report_dialog.h"
#include "app/gui/main_window.h"
#include "app/gui/redact_dialog.h"
#include "app/render/pdf_report.h"
#include "app/render/report_export.h"
#include "app/render/timeline_picture.h"
#include "app/usecases/case_history.h"
#include "app/usecases/story.h"
#include "app/usecases/use_cases.h"
#include "tests/common/test_helpers.h"
#include "views/timeline/timeline_view.h"

#include <QAbstractTextDocumentLayout>
#include <QAction>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QUrl>

using namespace faultline;

namespace {

QString rulesDir()
{
    return QString::fromStdString(tests::sourcePath("rules"));
}

void screenshot(QWidget* w, const QString& name)
{
    const QString dir = QStringLiteral(FAULTLINE_SCREENSHOT_DIR);
    QDir().mkpath(dir);
    QVERIFY2(w->grab().save(dir + QLatin1Char('/') + name), qPrintable(name));
}

QAction* fileAction(app::MainWindow& window, const QString& text)
{
    for (QAction* menu : window.menuBar()->actions())
        if (menu->menu())
            for (QAction* a : menu->menu()->actions())
                if (a->text() == text)
                    return a;
    return nullptr;
}

QByteArray fileBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TstReportExport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationDomain(QStringLiteral("faultline.dev"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_report_export"));
        QSettings().clear();
        QVERIFY(m_dir.isValid());
        m_case = m_dir.filePath(QStringLiteral("incident.faultline"));
        usecases::BundleRequest r;
        r.paths = { tests::sourcePath("resources/samples/bundle-48213") };
        r.rulesDir = rulesDir().toStdString();
        r.saveAs = m_case.toStdString();
        const auto saved = usecases::analyseBundle(r);
        QVERIFY2(saved.ok(), saved.failure.text().c_str());
    }

    void theExportsNeedAnOpenCase()
    {
        app::MainWindow window(rulesDir());
        QAction* report = fileAction(window, QStringLiteral("Export &Report…"));
        QAction* redacted = fileAction(window, QStringLiteral("Export Re&dacted Copy…"));
        QVERIFY(report && redacted);
        QVERIFY(!report->isEnabled());
        QVERIFY(!redacted->isEnabled());
        QVERIFY(!window.exportReport({}));
        QVERIFY(!window.showExportRedacted());
        // A bundle's analysis is no case either.
        QSignalSpy shown(&window, &app::MainWindow::resultShown);
        window.openBundle(QString::fromStdString(tests::sourcePath("resources/samples/bundle-48213")));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        QVERIFY(!report->isEnabled());
        shown.clear();
        window.openCase(m_case);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        QVERIFY(report->isEnabled());
        QVERIFY(redacted->isEnabled());
    }

    void aPdfExportLands()
    {
        app::MainWindow window(rulesDir());
        QSignalSpy shown(&window, &app::MainWindow::resultShown);
        window.openCase(m_case);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        QSignalSpy exported(&window, &app::MainWindow::reportExported);
        render::ExportRequest request;
        request.format = render::ExportFormat::Pdf;
        request.outPath = m_dir.filePath(QStringLiteral("incident.pdf"));
        QVERIFY(window.exportReport(request));
        QVERIFY(!fileAction(window, QStringLiteral("Export &Report…"))->isEnabled()); // one export at a time
        QTRY_COMPARE_WITH_TIMEOUT(exported.count(), 1, 60000);
        const auto outcome = exported.front().front().value<render::ExportOutcome>();
        QVERIFY2(outcome.code == usecases::Exit::Ok, qPrintable(outcome.message));
        QCOMPARE(outcome.path, request.outPath);
        // The cause's window and one picture per step of the story the case was saved with.
        const auto story = usecases::readStory(m_case.toStdString());
        QVERIFY2(story.ok(), story.failure.text().c_str());
        QVERIFY(story.value->steps.size() >= 2);
        QCOMPARE(outcome.pictures, 1 + static_cast<int>(story.value->steps.size()));
        QVERIFY2(outcome.pages >= 2 && outcome.pages <= 40, qPrintable(QString::number(outcome.pages)));
        const QByteArray pdf = fileBytes(request.outPath);
        QVERIFY2(pdf.startsWith("%PDF-"), pdf.left(16).constData());
        QVERIFY2(pdf.size() > 50000, qPrintable(QString::number(pdf.size()))); // fonts and the picture embedded
        QCOMPARE(pdf.count("/Type /Page\n") + pdf.count("/Type /Page\r") + pdf.count("/Type /Page "),
            static_cast<qsizetype>(outcome.pages));
        QVERIFY(!QFile::exists(request.outPath + QStringLiteral(".part")));
        QVERIFY(fileAction(window, QStringLiteral("Export &Report…"))->isEnabled());
    }

    void htmlAndMarkdownCarryThePicture()
    {
        render::ReportExport exporter;
        QSignalSpy done(&exporter, &render::ReportExport::finished);
        render::ExportRequest request;
        request.casePath = m_case;
        request.rulesDir = rulesDir();
        request.format = render::ExportFormat::Html;
        request.outPath = m_dir.filePath(QStringLiteral("incident.html"));
        QVERIFY(exporter.start(request));
        QVERIFY(!exporter.start(request)); // one at a time
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
        auto outcome = done.takeFirst().front().value<render::ExportOutcome>();
        QVERIFY2(outcome.code == usecases::Exit::Ok, qPrintable(outcome.message));
        const QString html = QString::fromUtf8(fileBytes(request.outPath));
        VERIFY_CONTAINS(html, QStringLiteral("<img src=\"data:image/png;base64,iVBORw0KGgo"));
        VERIFY_CONTAINS(html, QStringLiteral("<p class=\"caption\">Timeline of the cause"));

        request.format = render::ExportFormat::Markdown;
        request.outPath = m_dir.filePath(QStringLiteral("incident report.md"));
        QVERIFY(exporter.start(request));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
        outcome = done.takeFirst().front().value<render::ExportOutcome>();
        QVERIFY2(outcome.code == usecases::Exit::Ok, qPrintable(outcome.message));
        const QString md = QString::fromUtf8(fileBytes(request.outPath));
        VERIFY_CONTAINS(md, QStringLiteral("](incident%20report.assets/cause-window.png)"));
        const QString picture = m_dir.filePath(QStringLiteral("incident report.assets/cause-window.png"));
        QImage image;
        QVERIFY2(image.load(picture), qPrintable(picture));
        QCOMPARE(image.width(), render::kPictureWidth * 2);
        QVERIFY(image.height() >= render::kPictureMinHeight * 2 && image.height() <= render::kPictureMaxHeight * 2);
        QVERIFY(QFile::copy(picture, QStringLiteral(FAULTLINE_SCREENSHOT_DIR "/report-cause-window.png"))
            || QFile::exists(QStringLiteral(FAULTLINE_SCREENSHOT_DIR "/report-cause-window.png")));
    }

    void thePicturesLanesPassTheRedactor()
    {
        usecases::ReportRequest r;
        r.casePath = m_case.toStdString();
        r.currentRulesDir = rulesDir().toStdString();
        auto draft = usecases::prepareCaseReport(r);
        QVERIFY(draft.ok());
        QStringList seen;
        views::TimelineView view;
        view.setTextFilter([&seen](const QString& text) {
            seen << text;
            return QStringLiteral("hidden");
        });
        view.resize(900, 400);
        view.setResult(draft.value->analysis);
        view.selectEvent(static_cast<int>(draft.value->analysis.verdict->cause));
        QVERIFY2(seen.contains(QStringLiteral("node-02")), qPrintable(seen.join(QStringLiteral(" | "))));
        QImage image(view.size(), QImage::Format_ARGB32);
        view.render(&image); // the cause's callout label passes it as it is drawn
        QVERIFY2(std::any_of(
                     seen.begin(), seen.end(), [](const QString& s) { return s.startsWith(QLatin1String("Xid 149")); }),
            qPrintable(seen.join(QStringLiteral(" | "))));
        // A redacted draft's picture is drawn with its pseudonyms (and differs from the plain one where the names are).
        r.redaction = core::defaultRedactionProfile();
        auto redacted = usecases::prepareCaseReport(r);
        QVERIFY(redacted.ok());
        const auto plain = render::drawTimelinePicture(*draft.value, draft.value->pictures.front());
        const auto hidden = render::drawTimelinePicture(*redacted.value, redacted.value->pictures.front());
        QVERIFY(plain && hidden);
        QCOMPARE(hidden->width, plain->width);
        QVERIFY(hidden->png != plain->png);
        QImage::fromData(QByteArray::fromStdString(hidden->png))
            .save(QStringLiteral(FAULTLINE_SCREENSHOT_DIR "/report-cause-window-redacted.png"));
    }

    void thePicturesPinTheCasesAnnotations()
    {
        // A copy of the case with a bookmark on the cause (its text names the node).
        const QString bookmarked = m_dir.filePath(QStringLiteral("bookmarked.faultline"));
        QVERIFY(QFile::copy(m_case, bookmarked));
        usecases::ReportRequest r;
        r.casePath = bookmarked.toStdString();
        r.currentRulesDir = rulesDir().toStdString();
        const auto plain = usecases::prepareCaseReport(r);
        QVERIFY2(plain.ok(), plain.failure.text().c_str());
        QVERIFY(plain.value->annotations.empty());
        const std::size_t cause = plain.value->analysis.verdict->cause;
        usecases::AnnotateRequest bookmark;
        bookmark.casePath = r.casePath;
        bookmark.kind = usecases::AnnotationKind::Bookmark;
        bookmark.text = "the first fault, on node-02";
        bookmark.target =
            usecases::AnnotationTarget::event(plain.value->analysis.storedRun, static_cast<std::int64_t>(cause));
        const auto added = usecases::annotateCase(bookmark);
        QVERIFY2(added.ok(), added.failure.text().c_str());

        auto draft = usecases::prepareCaseReport(r);
        QVERIFY2(draft.ok(), draft.failure.text().c_str());
        QCOMPARE(draft.value->annotations.size(), std::size_t(1));
        QCOMPARE(draft.value->resolutions.size(), std::size_t(1));
        QVERIFY2(draft.value->resolutions.front().matched, draft.value->resolutions.front().reason.c_str());
        QCOMPARE(draft.value->resolutions.front().eventIndex, static_cast<std::int64_t>(cause));
        QCOMPARE(draft.value->pictures.front().id, std::string("cause-window"));

        // The cause picture's view pins it on the cause's mark; the PNG has the pin's colour there, the picture of
        // the case without the bookmark does not.
        const render::PictureView pinned(*draft.value, draft.value->pictures.front());
        const render::PictureView bare(*plain.value, plain.value->pictures.front());
        QVERIFY(pinned.view() && bare.view());
        // Drawn first: the view lays itself out for its size and style as it is rendered, and the positions are then
        // those of the picture.
        const auto pinnedPng = pinned.draw();
        const auto barePng = bare.draw();
        QVERIFY(pinnedPng && barePng);
        QImage::fromData(QByteArray::fromStdString(pinnedPng->png))
            .save(QStringLiteral(FAULTLINE_SCREENSHOT_DIR "/report-cause-window-bookmarked.png"));
        const auto head = pinned.view()->annotationPosition(added.value->id);
        QVERIFY2(head, "the bookmark is not drawn in the cause's picture");
        const auto mark = pinned.view()->markPosition(static_cast<int>(cause));
        QVERIFY(mark);
        QVERIFY2(head->x() < mark->x() && mark->x() - head->x() < 16 && head->y() < mark->y(),
            qPrintable(QStringLiteral("pin at %1,%2, cause at %3,%4")
                           .arg(head->x())
                           .arg(head->y())
                           .arg(mark->x())
                           .arg(mark->y())));
        // Inside the ribbon, 4 px under its head (viewport to widget coordinates, then the PNG's pixels).
        const QPoint at =
            ((QPointF(pinned.view()->viewport()->pos()) + *head + QPointF(0, 4)) * render::kPictureScale).toPoint();
        auto pixelAt = [&at](const usecases::ReportPicture& p) {
            return QImage::fromData(QByteArray::fromStdString(p.png)).pixelColor(at);
        };
        const QColor pin = pixelAt(*pinnedPng);
        QVERIFY2(std::abs(pin.red() - 0) < 40 && std::abs(pin.green() - 128) < 40 && std::abs(pin.blue() - 110) < 40,
            qPrintable(QStringLiteral("the picture's pixel at the pin (%1,%2) is %3, expected the bookmark's teal "
                                      "(#00806e)")
                           .arg(at.x())
                           .arg(at.y())
                           .arg(pin.name())));
        const QColor none = pixelAt(*barePng);
        QVERIFY2(std::abs(none.green() - none.red()) < 40,
            qPrintable(QStringLiteral("without the bookmark the pixel is %1, not the background").arg(none.name())));

        // A redacted report's picture pins it too, its tooltip in pseudonyms.
        r.redaction = core::defaultRedactionProfile();
        const auto redacted = usecases::prepareCaseReport(r);
        QVERIFY2(redacted.ok(), redacted.failure.text().c_str());
        const render::PictureView hidden(*redacted.value, redacted.value->pictures.front());
        QVERIFY(hidden.view());
        QVERIFY(hidden.view()->annotationPosition(added.value->id));
        QCOMPARE(hidden.view()->annotations().size(), std::size_t(1));
        const QString tip = hidden.view()->annotations().front().tooltip;
        VERIFY_CONTAINS(tip, QStringLiteral("the first fault, on host-b"));
        VERIFY_LACKS(tip, QStringLiteral("node-02"));
    }

    void aHeadingIsNotLeftAtAPagesFoot()
    {
        // Fillers until the heading ends page 1 with its text on page 2, as the layout leaves it by itself.
        constexpr qreal kPage = 300;
        auto layOut = [](QTextDocument& doc, int fillers) {
            doc.setDocumentMargin(0);
            doc.setPageSize(QSizeF(400, kPage));
            QString html;
            for (int i = 0; i < fillers; ++i)
                html += QStringLiteral("<p>filler %1</p>").arg(i);
            doc.setHtml(html + QStringLiteral("<h2>The heading</h2><p>What it heads.</p><p>More.</p>"));
            doc.pageCount();
        };
        auto pagesOf = [](QTextDocument& doc) {
            QTextBlock heading = doc.begin();
            while (heading.isValid() && heading.blockFormat().headingLevel() == 0)
                heading = heading.next();
            const auto* layout = doc.documentLayout();
            return std::make_pair(static_cast<int>(layout->blockBoundingRect(heading).top() / kPage),
                static_cast<int>(layout->blockBoundingRect(heading.next()).bottom() / kPage));
        };
        int alone = -1;
        for (int fillers = 1; fillers < 60 && alone < 0; ++fillers) {
            QTextDocument doc;
            layOut(doc, fillers);
            const auto [heading, text] = pagesOf(doc);
            if (heading == 0 && text == 1)
                alone = fillers;
            // Any other case leaves the heading where it is.
            if (heading == text)
                QCOMPARE(render::keepHeadingsWithNext(doc, kPage), 0);
        }
        QVERIFY2(alone > 0, "no number of fillers leaves the heading alone at the foot of page 1");
        QTextDocument doc;
        layOut(doc, alone);
        QCOMPARE(render::keepHeadingsWithNext(doc, kPage), 1);
        QCOMPARE(pagesOf(doc), std::make_pair(1, 1));

        // A story's step (a third-level heading) that a page can hold is not split over two: fillers until its
        // heading and first line stand on page 1 and the rest runs onto page 2.
        auto layOutStep = [](QTextDocument& step, int fillers) {
            step.setDocumentMargin(0);
            step.setPageSize(QSizeF(400, kPage));
            QString html;
            for (int i = 0; i < fillers; ++i)
                html += QStringLiteral("<p>filler %1</p>").arg(i);
            html += QStringLiteral("<h3>Step 1</h3>");
            for (int i = 0; i < 6; ++i)
                html += QStringLiteral("<p>line %1 of the step</p>").arg(i);
            step.setHtml(html + QStringLiteral("<h2>Coverage</h2><p>After the story.</p>"));
            step.pageCount();
        };
        auto stepPages = [](QTextDocument& step) {
            QTextBlock b = step.begin();
            std::vector<int> pages; // of the step's heading, its first line, the next section's heading
            for (; b.isValid(); b = b.next())
                if (b.blockFormat().headingLevel() > 0 || (!pages.empty() && pages.size() < 2))
                    pages.push_back(static_cast<int>(step.documentLayout()->blockBoundingRect(b).top() / kPage));
            return pages;
        };
        int split = -1;
        for (int fillers = 1; fillers < 60 && split < 0; ++fillers) {
            QTextDocument step;
            layOutStep(step, fillers);
            const auto pages = stepPages(step);
            if (pages.size() == 3 && pages[0] == 0 && pages[1] == 0 && pages[2] == 1)
                split = fillers;
        }
        QVERIFY2(split > 0, "no number of fillers splits the step over pages 1 and 2");
        QTextDocument step;
        layOutStep(step, split);
        QCOMPARE(render::keepHeadingsWithNext(step, kPage), 1);
        QCOMPARE(stepPages(step), (std::vector<int> { 1, 1, 1 }));

        // A step whose picture the layout pushed to page 2 is measured by its blocks, not across the gap left at the
        // foot of page 1: heading, line and picture fit on one page, so the heading moves to page 2 too.
        auto layOutPicture = [](QTextDocument& pd, int fillers) {
            pd.setDocumentMargin(0);
            pd.setPageSize(QSizeF(400, kPage));
            QImage picture(300, static_cast<int>(kPage * 0.5), QImage::Format_RGB32);
            picture.fill(Qt::gray);
            pd.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("step.png")), picture);
            QString html;
            for (int i = 0; i < fillers; ++i)
                html += QStringLiteral("<p>filler %1</p>").arg(i);
            html += QStringLiteral("<h3>Step 1</h3><p>What it shows.</p><p><img src=\"step.png\"></p>");
            pd.setHtml(html + QStringLiteral("<h3>Step 2</h3><p>Next.</p>"));
            pd.pageCount();
        };
        auto pageOf = [](QTextDocument& pd, const QString& text) {
            for (QTextBlock b = pd.begin(); b.isValid(); b = b.next())
                if (b.text().startsWith(text))
                    return static_cast<int>(pd.documentLayout()->blockBoundingRect(b).top() / kPage);
            return -1;
        };
        int pushed = -1;
        for (int fillers = 1; fillers < 60 && pushed < 0; ++fillers) {
            QTextDocument trial;
            layOutPicture(trial, fillers);
            // The heading and its line on page 1, the picture (the block after the line) on page 2, with a gap
            // above it that, added to the step, is more than a page.
            QTextBlock heading;
            for (QTextBlock b = trial.begin(); b.isValid(); b = b.next())
                if (b.text() == QStringLiteral("Step 1"))
                    heading = b;
            if (!heading.isValid() || !heading.next().isValid() || !heading.next().next().isValid())
                continue;
            const auto* layout = trial.documentLayout();
            const QRectF head = layout->blockBoundingRect(heading);
            const QTextBlock picture = heading.next().next();
            if (!picture.layout() || picture.layout()->lineCount() == 0)
                continue;
            const QTextLine line = picture.layout()->lineAt(0);
            const qreal pictureTop = layout->blockBoundingRect(picture).top() + line.y();
            if (static_cast<int>(head.top() / kPage) == 0 && static_cast<int>(pictureTop / kPage) == 1
                && pictureTop + line.height() - head.top() > kPage)
                pushed = fillers;
        }
        QVERIFY2(pushed > 0, "no number of fillers pushes the step's picture to page 2 with a gap above it");
        QTextDocument pushedDoc;
        layOutPicture(pushedDoc, pushed);
        QCOMPARE(render::keepHeadingsWithNext(pushedDoc, kPage), 1);
        QCOMPARE(pageOf(pushedDoc, QStringLiteral("Step 1")), 1);
    }

    void anExportOverTheCaseIsRefusedAndShown()
    {
        const QByteArray before = fileBytes(m_case);
        app::MainWindow window(rulesDir());
        QSignalSpy shown(&window, &app::MainWindow::resultShown);
        window.openCase(m_case);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        QSignalSpy exported(&window, &app::MainWindow::reportExported);
        render::ExportRequest request;
        request.outPath = m_case;
        QVERIFY(window.exportReport(request));
        QTRY_COMPARE_WITH_TIMEOUT(exported.count(), 1, 30000);
        const auto outcome = exported.front().front().value<render::ExportOutcome>();
        QCOMPARE(outcome.code, usecases::Exit::Usage);
        VERIFY_CONTAINS(outcome.message, QStringLiteral("refusing to write the report over the case"));
        auto* box = window.findChild<QMessageBox*>(QStringLiteral("exportReportError"));
        QVERIFY(box);
        VERIFY_CONTAINS(box->informativeText(), QStringLiteral("refusing"));
        QCOMPARE(fileBytes(m_case), before);
    }

    void aCancelledExportWritesNothing()
    {
        render::ReportExport exporter;
        QSignalSpy done(&exporter, &render::ReportExport::finished);
        render::ExportRequest request;
        request.casePath = m_case;
        request.rulesDir = rulesDir();
        request.outPath = m_dir.filePath(QStringLiteral("cancelled.pdf"));
        QVERIFY(exporter.start(request));
        exporter.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
        QCOMPARE(done.front().front().value<render::ExportOutcome>().code, usecases::Exit::Cancelled);
        QVERIFY(!QFile::exists(request.outPath));
        QVERIFY(!QFile::exists(request.outPath + QStringLiteral(".part")));
    }

    void theExportDialogAsks()
    {
        app::ExportReportDialog dialog(m_case);
        QCOMPARE(dialog.request().format, render::ExportFormat::Pdf);
        QCOMPARE(dialog.request().outPath, m_dir.filePath(QStringLiteral("incident-report.pdf")));
        QCOMPARE(dialog.request().redaction, QString());
        dialog.setFormat(render::ExportFormat::Markdown);
        QCOMPARE(dialog.request().outPath, m_dir.filePath(QStringLiteral("incident-report.md")));
        dialog.setRedaction(m_dir.filePath(QStringLiteral("no-such-profile.yaml")));
        VERIFY_CONTAINS(dialog.problem(), QStringLiteral("does not exist"));
        dialog.setRedaction(QStringLiteral("default"));
        QCOMPARE(dialog.request().redaction, QStringLiteral("default"));
        QCOMPARE(dialog.problem(), QString());
        dialog.setFormat(render::ExportFormat::Pdf);
        dialog.show();
        screenshot(&dialog, QStringLiteral("export-report-dialog.png"));
    }

    void theRedactedCopyIsPreviewedThenWritten()
    {
        app::MainWindow window(rulesDir());
        QSignalSpy shown(&window, &app::MainWindow::resultShown);
        window.openCase(m_case);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        app::RedactDialog* dialog = window.showExportRedacted();
        QVERIFY(dialog);
        QSignalSpy previewed(dialog, &app::RedactDialog::previewShown);
        QSignalSpy written(dialog, &app::RedactDialog::copyWritten);
        QSignalSpy failed(dialog, &app::RedactDialog::failed);
        QVERIFY(!dialog->writeButton()->isEnabled()); // nothing is written before the preview is shown
        QTRY_COMPARE_WITH_TIMEOUT(previewed.count() + failed.count(), 1, 60000);
        QVERIFY2(failed.isEmpty(), qPrintable(dialog->statusText()));
        QTableWidget* table = dialog->replacementsTable();
        QVERIFY(table->rowCount() >= 4);
        int node02 = -1;
        for (int row = 0; row < table->rowCount(); ++row)
            if (table->item(row, 1)->text() == QLatin1String("node-02"))
                node02 = row;
        QVERIFY2(node02 >= 0, "node-02 is not in the preview");
        QCOMPARE(table->item(node02, 0)->text(), QStringLiteral("host"));
        QCOMPARE(table->item(node02, 2)->text(), QStringLiteral("host-b"));
        QVERIFY(table->item(node02, 3)->data(Qt::DisplayRole).toULongLong() > 0);
        screenshot(dialog, QStringLiteral("redact-dialog-preview.png"));

        const QString copy = m_dir.filePath(QStringLiteral("incident-redacted.faultline"));
        dialog->setCopyPath(copy);
        QVERIFY(dialog->writeButton()->isEnabled());
        // Another profile needs its own preview first.
        dialog->setProfile(m_dir.filePath(QStringLiteral("some-profile.yaml")));
        QVERIFY(!dialog->writeButton()->isEnabled());
        dialog->setProfile(QStringLiteral("default"));
        QVERIFY(dialog->writeButton()->isEnabled());
        dialog->writeButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(written.count() + failed.count(), 1, 120000);
        QVERIFY2(failed.isEmpty(), qPrintable(dialog->statusText()));
        QCOMPARE(written.front().front().toString(), copy);
        VERIFY_CONTAINS(dialog->statusText(), QStringLiteral("Redacted copy written"));
        const auto stored = usecases::storedVerdict(copy.toStdString());
        QVERIFY2(stored.ok(), stored.failure.text().c_str());
        VERIFY_LACKS(QString::fromStdString(stored.value->text), QStringLiteral("node-02"));
        VERIFY_CONTAINS(QString::fromStdString(stored.value->text), QStringLiteral("host-b"));
        screenshot(dialog, QStringLiteral("redact-dialog-written.png"));
        // A second copy at the same path is refused, and the error is shown in the dialog.
        dialog->writeButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 60000);
        QVERIFY2(!dialog->statusText().isEmpty(), "no error shown");
    }

private:
    QTemporaryDir m_dir;
    QString m_case;
};

QTEST_MAIN(TstReportExport)
#include "tst_report_export.moc"
