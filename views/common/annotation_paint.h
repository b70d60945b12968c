// SPDX-License-Identifier: Apache-2.0
// How every view draws an annotation: one colour and one ribbon shape, so a bookmark on the timeline, in the
// evidence viewer's gutter and in the annotations pane looks the same.
#pragma once

#include <QColor>
#include <QPointF>

class QPainter;
class QPalette;

namespace faultline::views {

/// Annotations' teal: no domain colour, the measurement or the search ticks use it.
QColor annotationColour(bool dark);

/// An annotation's ribbon, 8 px wide and 11 high from `topLeft`: filled for a bookmark, hollow for a note or tag,
/// grey and dashed when its event is no longer found.
void drawAnnotationRibbon(QPainter& p, const QPointF& topLeft, bool filled, bool matched, const QPalette& pal);

} // namespace faultline::views
