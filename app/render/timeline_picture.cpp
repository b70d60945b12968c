// SPDX-License-Identifier: Apache-2.0
#include "app/render/timeline_picture.h"

#include "views/timeline/timeline_view.h"

#include <QBuffer>
#include <QImage>
#include <QStyle>
#include <QStyleFactory>

#include <algorithm>
#include <memory>

namespace faultline::render {

namespace {

constexpr int kScale = 2; ///< PNG pixels per logical pixel

} // namespace

std::optional<usecases::ReportPicture> drawTimelinePicture(
    const usecases::ReportDraft& draft, const usecases::PictureSlot& slot)
{
    const core::Analysis& a = draft.analysis;
    if (!a.verdict || !a.evidence || slot.fromNs == INT64_MIN || slot.toNs <= slot.fromNs)
        return std::nullopt;
    // The light palette of Fusion, owned here: the picture looks the same on any desktop and in any theme.
    const std::unique_ptr<QStyle> style(QStyleFactory::create(QStringLiteral("Fusion")));
    views::TimelineView view;
    view.setAttribute(Qt::WA_DontShowOnScreen);
    if (style) {
        view.setStyle(style.get());
        view.setPalette(style->standardPalette());
    }
    view.setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    view.setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    view.setAsyncIndexThreshold(SIZE_MAX); // indexed at once: the picture is drawn right after
    if (const std::shared_ptr<core::Redactor> redactor = draft.redactor)
        view.setTextFilter([redactor](const QString& text) {
            return QString::fromStdString(redactor->redact(text.toStdString(), nullptr, false));
        });
    view.resize(kPictureWidth, kPictureMaxHeight);
    view.setResult(a);
    if (!view.hasTimes())
        return std::nullopt;
    // The height every lane needs, less the horizontal scroll bar's, which the picture does not have.
    const int scrollBar = view.style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, &view);
    const int height = std::clamp(view.preferredHeight() - scrollBar, kPictureMinHeight, kPictureMaxHeight);
    view.resize(kPictureWidth, height);
    view.setRange(slot.fromNs, slot.toNs);
    if (slot.focusEvent)
        view.selectEvent(static_cast<int>(*slot.focusEvent));
    // selectEvent scrolls the event into the range; the slot's window is what the picture shows.
    view.setRange(slot.fromNs, slot.toNs);

    QImage image(view.size() * kScale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(kScale);
    image.fill(view.palette().color(QPalette::Base));
    view.render(&image);
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG"))
        return std::nullopt;
    usecases::ReportPicture out;
    out.id = slot.id;
    out.png = png.toStdString();
    out.width = view.width();
    out.height = view.height();
    return out;
}

std::vector<usecases::ReportPicture> drawReportPictures(const usecases::ReportDraft& draft)
{
    std::vector<usecases::ReportPicture> out;
    for (const auto& slot : draft.pictures)
        if (auto p = drawTimelinePicture(draft, slot))
            out.push_back(std::move(*p));
    return out;
}

} // namespace faultline::render
