// SPDX-License-Identifier: Apache-2.0
// The report's pictures, drawn by the workbench's own timeline: a TimelineView that is never shown, at a fixed size,
// in Fusion's light palette (whatever the desktop's theme), set to the slot's time window with the slot's event
// selected, so its links to the symptoms it explains are drawn. For a redacted report every text of the result the
// view draws passes the draft's redactor first, so the lanes carry the report's pseudonyms (host-b, not node-02).
// Thread affinity: the UI thread (widgets), with a QApplication; works on the offscreen platform. Drawing indexes
// the analysis's events on the calling thread (O(n)).
#pragma once

#include "app/usecases/report.h"

#include <optional>
#include <vector>

namespace faultline::render {

/// The picture's size in logical pixels; the PNG holds twice as many in each direction, for print.
inline constexpr int kPictureWidth = 900;
inline constexpr int kPictureMinHeight = 220;
inline constexpr int kPictureMaxHeight = 760;

/// Draws one slot from the draft's analysis; nullopt when the analysis has nothing to place (no verdict or times).
std::optional<usecases::ReportPicture> drawTimelinePicture(
    const usecases::ReportDraft& draft, const usecases::PictureSlot& slot);

/// Draws every slot of the draft.
std::vector<usecases::ReportPicture> drawReportPictures(const usecases::ReportDraft& draft);

} // namespace faultline::render
