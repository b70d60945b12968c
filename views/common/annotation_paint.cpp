// SPDX-License-Identifier: Apache-2.0
#include "views/common/annotation_paint.h"

#include <QPainter>
#include <QPainterPath>
#include <QPalette>

namespace faultline::views {

QColor annotationColour(bool dark)
{
    return dark ? QColor(64, 214, 186) : QColor(0, 128, 110);
}

void drawAnnotationRibbon(QPainter& p, const QPointF& topLeft, bool filled, bool matched, const QPalette& pal)
{
    const bool dark = pal.color(QPalette::Base).lightness() < 128;
    const QColor colour = matched ? annotationColour(dark) : pal.color(QPalette::PlaceholderText);
    const double x = topLeft.x();
    const double y = topLeft.y();
    QPainterPath ribbon;
    ribbon.moveTo(x, y);
    ribbon.lineTo(x + 8, y);
    ribbon.lineTo(x + 8, y + 11);
    ribbon.lineTo(x + 4, y + 8);
    ribbon.lineTo(x, y + 11);
    ribbon.closeSubpath();
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    QPen pen(colour, 1.3);
    if (!matched)
        pen.setStyle(Qt::DashLine);
    p.setPen(pen);
    p.setBrush(filled ? QBrush(colour) : QBrush(pal.color(QPalette::Base)));
    p.drawPath(ribbon);
    p.restore();
}

} // namespace faultline::views
