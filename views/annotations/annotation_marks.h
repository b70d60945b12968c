// SPDX-License-Identifier: Apache-2.0
// What the other views draw of a case's annotations, made from the annotations and how they resolved against the
// analysis shown: the timeline's pins, lane badges and bands, the evidence viewer's gutter ribbons, and the tooltip
// every one of them shows (what, on what, by whom, when, and why an event is no longer found).
#pragma once

#include "core/model/case_records.h"
#include "views/evidence/evidence_viewer.h"
#include "views/timeline/timeline_view.h"

#include <QString>

#include <vector>

namespace faultline::views {

/// Rich text: kind and target, the text, its tags, author and time, and the reason when it is not matched.
QString annotationTooltip(const core::Annotation& a, const core::AnnotationResolution* r);

/// Pins (events, symptoms, lines with a timed record), lane badges and range bands. `resolutions` run parallel to
/// `annotations` (or are empty: nothing is placed that needs one). Narratives and the case's own are not drawn.
std::vector<TimelineAnnotation> timelineAnnotations(
    const std::vector<core::Annotation>& annotations, const std::vector<core::AnnotationResolution>& resolutions);

/// Ribbons on annotated lines and on the records of annotated events.
std::vector<EvidenceLineMark> evidenceLineMarks(
    const std::vector<core::Annotation>& annotations, const std::vector<core::AnnotationResolution>& resolutions);

} // namespace faultline::views
