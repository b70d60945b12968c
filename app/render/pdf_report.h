// SPDX-License-Identifier: Apache-2.0
// A report's HTML as a PDF: QTextDocument lays it out on A4 pages (margins, the report's title and "page N of M" at
// the foot of every page) and QPdfWriter writes it with its fonts embedded. The pictures are the HTML's files
// (RenderOptions with PictureLinks::Files and no directory), given to the document as image resources, so the PDF
// needs nothing beside it. A heading is kept on the page of what it heads.
// Thread affinity: any thread (QTextDocument and QPdfWriter are reentrant; images are QImage, never QPixmap); a
// QGuiApplication must exist for the fonts.
#pragma once

#include "app/usecases/report.h"

#include <QString>
#include <QtGlobal>

#include <atomic>
#include <vector>

class QTextDocument;

namespace faultline::render {

/// The width of the PDF's text, in the CSS pixels of the HTML (1/96 inch): a picture wider than this is shown
/// scaled to it.
int pdfTextWidth();

/// The CSS the report's HTML is laid out with for print (RenderOptions::style): QTextDocument's subset of CSS.
std::string pdfStyleSheet();

/// Moves each heading that would end a page, with what it heads beginning the next, to the next page (a page break
/// before it): QTextDocument's CSS has no page-break-after: avoid, its page breaks are only "always" or "auto". A
/// heading of level 3 or more (a story's step) is moved as well when what it heads, up to the next heading of its
/// level or above, would fit on one page but runs over two. One at a time from the top, since every move lays the
/// rest out again. Returns how many it moved.
int keepHeadingsWithNext(QTextDocument& doc, qreal pageHeight);

struct PdfRequest
{
    std::string html;
    std::vector<usecases::ReportAsset> assets; ///< the pictures the HTML links to, by path
    QString path;
    QString title; ///< the document's title (its metadata and every page's foot)
};

struct PdfResult
{
    QString error; ///< empty: written
    int pages = 0;
    bool cancelled = false;
};

/// Writes the PDF at request.path. `cancel` (may be null) is read between pages; a cancelled or failed PDF is
/// removed.
PdfResult writePdfReport(const PdfRequest& request, const std::atomic_bool* cancel = nullptr);

} // namespace faultline::render
