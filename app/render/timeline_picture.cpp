// SPDX-License-Identifier: Apache-2.0
#include "app/render/timeline_picture.h"

#include "views/annotations/annotation_marks.h"
#include "views/timeline/timeline_view.h"

#include <QBuffer>
#include <QImage>
#include <QStyle>
#include <QStyleFactory>

#include <algorithm>
#include <memory>

namespace faultline::render {

namespace {

/// The draft's annotations as the workbench's timeline draws them. A picture shows no tooltip, but a redacted
/// draft's are made from its annotations with every text redacted all the same (where they stand is the original's:
/// the lanes are found by the nodes' real names).
std::vector<views::TimelineAnnotation> pictureAnnotations(const usecases::ReportDraft& draft)
{
    std::vector<views::TimelineAnnotation> out = views::timelineAnnotations(draft.annotations, draft.resolutions);
    if (!draft.redactor)
        return out;
    core::Redactor& r = *draft.redactor;
    std::vector<core::Annotation> shown = draft.annotations;
    for (auto& a : shown) {
        for (std::string* text : { &a.text, &a.author, &a.path, &a.node, &a.eventType, &a.ruleId })
            *text = r.redact(*text, nullptr, false);
        for (auto& tag : a.tags)
            tag = r.redact(tag, nullptr, false);
    }
    std::vector<core::AnnotationResolution> reasons = draft.resolutions;
    for (auto& res : reasons) {
        res.node = r.redact(res.node, nullptr, false);
        res.reason = r.redact(res.reason, nullptr, false);
    }
    const std::vector<views::TimelineAnnotation> texts = views::timelineAnnotations(shown, reasons);
    for (std::size_t i = 0; i < out.size() && i < texts.size(); ++i)
        out[i].tooltip = texts[i].tooltip;
    return out;
}

} // namespace

PictureView::PictureView(const usecases::ReportDraft& draft, const usecases::PictureSlot& slot, int width)
    : m_id(slot.id)
{
    const core::Analysis& a = draft.analysis;
    if (!a.verdict || !a.evidence || slot.fromNs == INT64_MIN || slot.toNs <= slot.fromNs)
        return;
    // The light palette of Fusion, owned here: the picture looks the same on any desktop and in any theme.
    m_style.reset(QStyleFactory::create(QStringLiteral("Fusion")));
    m_view = std::make_unique<views::TimelineView>();
    views::TimelineView& view = *m_view;
    view.setAttribute(Qt::WA_DontShowOnScreen);
    if (m_style) {
        view.setStyle(m_style.get());
        view.setPalette(m_style->standardPalette());
    }
    view.setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    view.setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    view.setAsyncIndexThreshold(SIZE_MAX); // indexed at once: the picture is drawn right after
    if (const std::shared_ptr<core::Redactor> redactor = draft.redactor)
        view.setTextFilter([redactor](const QString& text) {
            return QString::fromStdString(redactor->redact(text.toStdString(), nullptr, false));
        });
    view.resize(width, kPictureMaxHeight);
    view.setResult(a);
    if (!view.hasTimes()) {
        m_view.reset();
        return;
    }
    view.setAnnotations(pictureAnnotations(draft));
    // The slot's open lanes, by node (a node lane's label is its node's name).
    const auto& lanes = view.timelineGeometry().lanes();
    for (const auto& node : slot.expandedLanes)
        for (std::size_t i = 0; i < lanes.size(); ++i)
            if (lanes[i].kind == views::LaneKind::Node && lanes[i].label == node)
                view.setLaneExpanded(static_cast<int>(i), true);
    // The height every lane needs, less the horizontal scroll bar's, which the picture does not have.
    const int scrollBar = view.style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, &view);
    const int height = std::clamp(view.preferredHeight() - scrollBar, kPictureMinHeight, kPictureMaxHeight);
    view.resize(width, height);
    view.setRange(slot.fromNs, slot.toNs);
    if (slot.focusEvent)
        view.selectEvent(static_cast<int>(*slot.focusEvent));
    // selectEvent scrolls the event into the range; the slot's window is what the picture shows.
    view.setRange(slot.fromNs, slot.toNs);
}

PictureView::~PictureView() = default;

std::optional<usecases::ReportPicture> PictureView::draw() const
{
    if (!m_view)
        return std::nullopt;
    const views::TimelineView& view = *m_view;
    QImage image(view.size() * kPictureScale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(kPictureScale);
    image.fill(view.palette().color(QPalette::Base));
    m_view->render(&image);
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG"))
        return std::nullopt;
    usecases::ReportPicture out;
    out.id = m_id;
    out.png = png.toStdString();
    out.width = view.width();
    out.height = view.height();
    return out;
}

std::optional<usecases::ReportPicture> drawTimelinePicture(
    const usecases::ReportDraft& draft, const usecases::PictureSlot& slot, int width)
{
    return PictureView(draft, slot, width).draw();
}

std::vector<usecases::ReportPicture> drawReportPictures(const usecases::ReportDraft& draft, int width)
{
    std::vector<usecases::ReportPicture> out;
    for (const auto& slot : draft.pictures)
        if (auto p = drawTimelinePicture(draft, slot, width))
            out.push_back(std::move(*p));
    return out;
}

} // namespace faultline::render
