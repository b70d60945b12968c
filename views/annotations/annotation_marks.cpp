// SPDX-License-Identifier: Apache-2.0
#include "views/annotations/annotation_marks.h"

#include "core/model/annotations.h"
#include "views/models/annotations_model.h"

#include <QCoreApplication>
#include <QStringList>

namespace faultline::views {

namespace {

QString qs(const std::string& s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QString tr(const char* text)
{
    return QCoreApplication::translate("faultline::views::AnnotationMarks", text);
}

const core::AnnotationResolution* resolutionOf(const std::vector<core::AnnotationResolution>& resolutions,
    const std::vector<core::Annotation>& annotations, std::size_t i)
{
    return resolutions.size() == annotations.size() ? &resolutions[i] : nullptr;
}

} // namespace

QString annotationTooltip(const core::Annotation& a, const core::AnnotationResolution* r)
{
    QString html =
        QStringLiteral("<b>%1</b> on %2").arg(qs(a.kind).toHtmlEscaped(), qs(core::describeTarget(a)).toHtmlEscaped());
    if (a.kind != "tag" && !a.text.empty())
        html += QStringLiteral("<br>") + qs(a.text).toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    QStringList tags;
    if (a.kind == "tag")
        tags << qs(a.text);
    for (const auto& t : a.tags)
        tags << qs(t);
    if (!tags.isEmpty())
        html += QStringLiteral("<br>") + tr("tags: %1").arg(tags.join(QStringLiteral(", ")).toHtmlEscaped());
    html += QStringLiteral("<br><i>%1, %2</i>")
                .arg(qs(a.author).toHtmlEscaped(), AnnotationsModel::formatCreated(a.createdAt).toHtmlEscaped());
    if (r && !r->matched)
        html += QStringLiteral("<br><span style=\"color:#b00020\">%1</span>").arg(qs(r->reason).toHtmlEscaped());
    return html;
}

std::vector<TimelineAnnotation> timelineAnnotations(
    const std::vector<core::Annotation>& annotations, const std::vector<core::AnnotationResolution>& resolutions)
{
    std::vector<TimelineAnnotation> out;
    for (std::size_t i = 0; i < annotations.size(); ++i) {
        const core::Annotation& a = annotations[i];
        const core::AnnotationResolution* r = resolutionOf(resolutions, annotations, i);
        if (a.kind == "narrative" || a.target == "case")
            continue;
        TimelineAnnotation t;
        t.id = a.id;
        t.bookmark = a.kind == "bookmark";
        t.matched = !r || r->matched;
        t.tooltip = annotationTooltip(a, r);
        t.node = r ? r->node : a.node;
        if (a.target == "lane") {
            t.shape = TimelineAnnotation::Shape::Lane;
            t.node = a.node;
        } else if (a.target == "range") {
            t.shape = TimelineAnnotation::Shape::Band;
            t.timeNs = a.fromNs;
            t.toNs = a.toNs;
            t.node = a.node;
        } else {
            // An event or symptom on its event's mark; a line, or an event no longer found, at its record's time.
            if (!r)
                continue;
            t.eventIndex = r->matched && r->eventIndex >= 0 ? static_cast<int>(r->eventIndex) : -1;
            t.timeNs = r->timeNs;
            if (t.eventIndex < 0 && t.timeNs == INT64_MIN)
                continue;
        }
        out.push_back(std::move(t));
    }
    return out;
}

std::vector<EvidenceLineMark> evidenceLineMarks(
    const std::vector<core::Annotation>& annotations, const std::vector<core::AnnotationResolution>& resolutions)
{
    std::vector<EvidenceLineMark> out;
    for (std::size_t i = 0; i < annotations.size(); ++i) {
        const core::Annotation& a = annotations[i];
        if ((a.target != "line" && a.target != "event") || a.path.empty() || a.line == 0)
            continue;
        const core::AnnotationResolution* r = resolutionOf(resolutions, annotations, i);
        EvidenceLineMark m;
        m.id = a.id;
        m.path = a.path;
        m.line = a.line;
        m.bookmark = a.kind == "bookmark";
        m.matched = !r || r->matched;
        m.tooltip = annotationTooltip(a, r);
        out.push_back(std::move(m));
    }
    return out;
}

} // namespace faultline::views
