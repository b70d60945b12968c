// SPDX-License-Identifier: Apache-2.0
// The report's pictures, drawn by the workbench's own timeline: a TimelineView that is never shown, at a fixed size,
// in Fusion's light palette (whatever the desktop's theme), set to the slot's time window with the slot's event
// selected, so its links to the symptoms it explains are drawn, the slot's lanes expanded and the case's annotations
// drawn as the workbench draws them (pins, lane badges, bands). For a redacted report every text of the result the
// view draws passes the draft's redactor first, so the lanes carry the report's pseudonyms (host-b, not node-02).
// Thread affinity: the UI thread (widgets), with a QApplication; works on the offscreen platform. Drawing indexes
// the analysis's events on the calling thread (O(n)).
#pragma once

#include "app/usecases/report.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

class QStyle;

namespace faultline::views {
class TimelineView;
}

namespace faultline::render {

/// The picture's size in logical pixels; the PNG holds kPictureScale times as many in each direction, for print.
inline constexpr int kPictureWidth = 900;
inline constexpr int kPictureMinHeight = 220;
inline constexpr int kPictureMaxHeight = 760;
inline constexpr int kPictureScale = 2;

/// One slot's picture before it is drawn: the hidden view set up for it (its window, selection, open lanes and the
/// draft's annotations), which draw() renders; for a test, where the view places a mark or a pin.
class PictureView
{
public:
    /// `width`: the picture's width in logical pixels (the PDF draws it at its text width, so its labels print at
    /// the size they are drawn, not scaled down).
    PictureView(const usecases::ReportDraft& draft, const usecases::PictureSlot& slot, int width = kPictureWidth);
    ~PictureView();
    PictureView(const PictureView&) = delete;
    PictureView& operator=(const PictureView&) = delete;

    /// Null when the analysis has nothing to place (no verdict or times, or the slot no window). The view lays itself
    /// out for its size and style as it is first drawn: where it places a mark or a pin is the picture's after draw().
    const views::TimelineView* view() const { return m_view.get(); }
    /// The PNG (kPictureScale times the view's pixels each way); nullopt for a null view or a failed encoding.
    std::optional<usecases::ReportPicture> draw() const;

private:
    std::unique_ptr<QStyle> m_style; ///< outlives the view, which uses it
    std::unique_ptr<views::TimelineView> m_view;
    std::string m_id;
};

/// Draws one slot from the draft's analysis; nullopt when the analysis has nothing to place (no verdict or times).
std::optional<usecases::ReportPicture> drawTimelinePicture(
    const usecases::ReportDraft& draft, const usecases::PictureSlot& slot, int width = kPictureWidth);

/// Draws every slot of the draft.
std::vector<usecases::ReportPicture> drawReportPictures(const usecases::ReportDraft& draft, int width = kPictureWidth);

} // namespace faultline::render
