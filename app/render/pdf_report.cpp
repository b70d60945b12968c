// SPDX-License-Identifier: Apache-2.0
#include "app/render/pdf_report.h"

#include "core/version.h"

#include <QAbstractTextDocumentLayout>
#include <QFile>
#include <QFontMetricsF>
#include <QGuiApplication>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextLayout>
#include <QTextOption>
#include <QUrl>

namespace faultline::render {

namespace {

/// 1/96 inch: the unit of the HTML's sizes, used as the PDF's resolution so the layout's pixels are the HTML's.
constexpr int kDpi = 96;

QPageLayout pageLayout()
{
    return QPageLayout(
        QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(16, 14, 16, 12), QPageLayout::Millimeter);
}

/// Print's sizes in QTextDocument's subset of CSS: the page is the column (no margins of the body), tables with
/// rules, excerpts wrapped instead of running off the page and indented under their trail entry.
const char* kPrintStyle = "body{font-size:9pt;margin:0;padding:0}\nh1{font-size:16pt}\nh2{font-size:12.5pt}\n"
                          "table{border-collapse:collapse;margin-top:4px;margin-bottom:4px}\n"
                          "td,th{border:1px solid #999999;padding:2px 4px;font-size:8pt;vertical-align:top;"
                          "text-align:left}\nth{background-color:#eeeeee}\n"
                          "pre{font-size:7.5pt;white-space:pre-wrap;background-color:#f4f4f4;margin-left:40px}\n"
                          ".caption{font-size:8pt;font-style:italic;color:#333333}\n";

/// How much of the block must stand on a heading's page with it: its first line (a picture's paragraph: the picture).
qreal firstLineHeight(const QTextBlock& block)
{
    const QTextLayout* layout = block.layout();
    return layout && layout->lineCount() > 0 ? layout->lineAt(0).height() : 0;
}

/// What a block takes on a page: its lines and its margins. A block whose lines the layout moved to the next page
/// spans the gap left above them; its lines do not.
qreal contentHeight(const QTextBlock& block)
{
    qreal height = block.blockFormat().topMargin() + block.blockFormat().bottomMargin();
    if (const QTextLayout* layout = block.layout())
        for (int i = 0; i < layout->lineCount(); ++i)
            height += layout->lineAt(i).height();
    return height;
}

} // namespace

std::string pdfStyleSheet()
{
    return kPrintStyle;
}

int pdfTextWidth()
{
    return pageLayout().paintRectPixels(kDpi).width();
}

int keepHeadingsWithNext(QTextDocument& doc, qreal pageHeight)
{
    int moves = 0;
    if (pageHeight <= 0)
        return moves;
    QAbstractTextDocumentLayout* layout = doc.documentLayout();
    doc.pageCount(); // laid out to its end
    QTextBlock from = doc.begin();
    for (int moved = 0; moved < 200 && from.isValid(); ++moved) {
        QTextBlock heading;
        for (QTextBlock b = from; b.isValid(); b = b.next()) {
            if (b.blockFormat().headingLevel() == 0)
                continue;
            QTextBlock next = b.next();
            while (next.isValid() && next.length() <= 1 && next.blockFormat().headingLevel() == 0)
                next = next.next(); // an empty block (between a list and what follows it) heads nothing
            if (!next.isValid())
                break;
            const QRectF h = layout->blockBoundingRect(b);
            const QRectF n = layout->blockBoundingRect(next);
            const auto page = static_cast<int>(h.top() / pageHeight);
            bool alone = n.top() + firstLineHeight(next) > (page + 1) * pageHeight;
            if (const int level = b.blockFormat().headingLevel(); level >= 3 && !alone) {
                // A part of a section (a story's step: its text, facts and picture) stays whole when a page holds it.
                // Its height is its blocks' lines and margins, without the gap the layout left where it pushed a
                // picture on to the next page.
                QTextBlock end = next;
                qreal height = contentHeight(b);
                while (end.isValid()
                    && (end.blockFormat().headingLevel() == 0 || end.blockFormat().headingLevel() > level)) {
                    height += contentHeight(end);
                    end = end.next();
                }
                const qreal bottom =
                    end.isValid() ? layout->blockBoundingRect(end).top() : layout->documentSize().height();
                alone = height <= pageHeight && bottom > (page + 1) * pageHeight;
            }
            // A heading already at a page's top stays: moving it would not bring its text any closer.
            if (alone && h.top() > page * pageHeight + 1) {
                heading = b;
                break;
            }
        }
        if (!heading.isValid())
            return moves;
        QTextCursor cursor(heading);
        QTextBlockFormat format = heading.blockFormat();
        format.setPageBreakPolicy(format.pageBreakPolicy() | QTextFormat::PageBreak_AlwaysBefore);
        cursor.setBlockFormat(format);
        // The document lays itself out again lazily; a block not laid out yet has no place to measure.
        doc.pageCount();
        from = heading.next();
        ++moves;
    }
    return moves;
}

PdfResult writePdfReport(const PdfRequest& request, const std::atomic_bool* cancel)
{
    PdfResult out;
    auto cancelled = [cancel] { return cancel && cancel->load(); };
    QTextDocument doc;
    QFont font = QGuiApplication::font();
    font.setPointSizeF(9);
    doc.setDefaultFont(font);
    QTextOption wrap = doc.defaultTextOption();
    wrap.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    doc.setDefaultTextOption(wrap);
    doc.setDocumentMargin(0);
    for (const auto& a : request.assets) {
        QImage image;
        if (!image.loadFromData(
                reinterpret_cast<const uchar*>(a.bytes.data()), static_cast<int>(a.bytes.size()), "PNG"))
            return { QStringLiteral("cannot read the report's picture %1").arg(QString::fromStdString(a.path)), 0,
                false };
        doc.addResource(QTextDocument::ImageResource, QUrl(QString::fromStdString(a.path)), image);
    }

    // Written beside the target and renamed once complete: a failed or cancelled PDF leaves an older one in place.
    const QString part = request.path + QStringLiteral(".part");
    QPdfWriter writer(part);
    writer.setResolution(kDpi);
    writer.setPageLayout(pageLayout());
    writer.setTitle(request.title);
    writer.setCreator(QStringLiteral("Faultline %1").arg(QString::fromLatin1(core::kVersion)));
    QPainter painter;
    if (!painter.begin(&writer))
        return { QStringLiteral("cannot write %1").arg(request.path), 0, false };

    // The page's text area less a foot for the page number; the layout paginates the document into it.
    const QRectF area(QPointF(0, 0), QSizeF(writer.pageLayout().paintRectPixels(kDpi).size()));
    QFont footFont = font;
    footFont.setPointSizeF(7.5);
    const QFontMetricsF foot(footFont, &writer);
    const qreal footHeight = foot.height() * 2.2;
    const QSizeF body(area.width(), area.height() - footHeight);
    doc.documentLayout()->setPaintDevice(&writer);
    doc.setPageSize(body);
    doc.setHtml(QString::fromStdString(request.html));
    keepHeadingsWithNext(doc, body.height());
    const int pages = doc.pageCount();
    for (int i = 0; i < pages; ++i) {
        if (cancelled()) {
            painter.end();
            QFile::remove(part);
            return { {}, 0, true };
        }
        if (i > 0)
            writer.newPage();
        painter.save();
        painter.translate(0, -i * body.height());
        doc.drawContents(&painter, QRectF(QPointF(0, i * body.height()), body));
        painter.restore();
        painter.setFont(footFont);
        painter.setPen(QColor(0x55, 0x55, 0x55));
        const QRectF footRect(0, area.height() - foot.height(), area.width(), foot.height());
        painter.drawLine(QPointF(0, footRect.top() - foot.height() * 0.6),
            QPointF(area.width(), footRect.top() - foot.height() * 0.6));
        painter.drawText(footRect, Qt::AlignLeft | Qt::AlignVCenter,
            foot.elidedText(request.title, Qt::ElideMiddle, area.width() * 0.7));
        painter.drawText(
            footRect, Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("page %1 of %2").arg(i + 1).arg(pages));
    }
    if (!painter.end() || (QFile::exists(request.path) && !QFile::remove(request.path))
        || !QFile::rename(part, request.path)) {
        QFile::remove(part);
        return { QStringLiteral("cannot write %1").arg(request.path), 0, false };
    }
    out.pages = pages;
    return out;
}

} // namespace faultline::render
