// SPDX-License-Identifier: Apache-2.0
// Annotations against an analysis: which event, symptom, line or lane of an analysis an annotation is about, found
// again in a later run. An event annotation names the event's rule and the record it was made from (file and byte
// offset, the line as a check), never only its index, since indices shift when rules or the engine change; it is
// matched when the analysis has an event of the same rule from the same record, and otherwise says why not.
//
// AnnotationScope is what the resolution reads of one analysis, gathered only for the annotations being resolved
// (one pass over the events): from an analysis in memory (annotationScope below) or from a run stored in a case
// (CaseFile::annotationScope). Pure functions, no I/O.
#pragma once

#include "core/model/case_records.h"

#include <climits>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace faultline::core {

struct EvidenceSet;
struct Verdict;

/// One event of an analysis, as an annotation needs it.
struct AnnotatedEvent
{
    std::int64_t index = -1; ///< in the analysis's events
    std::string ruleId;
    std::string type;
    std::string node;
    std::int64_t timeNs = INT64_MIN;
    std::uint64_t line = 0;
};

/// What annotations are resolved against: one analysis, read for a given set of annotations.
struct AnnotationScope
{
    std::string name; ///< how reasons name it: "run 3", "the analysis shown"
    std::int64_t run = 0; ///< the stored run it is (0: none)
    /// The events made from each record the annotations name, by (path, byte offset).
    std::map<std::pair<std::string, std::uint64_t>, std::vector<AnnotatedEvent>> atRecord;
    /// The events of each rule the annotations name (rules with none are absent).
    std::map<std::string, std::size_t> eventsOfRule;
    /// Events named by index (annotations without a rule, made on run `run`).
    std::map<std::int64_t, AnnotatedEvent> byIndex;
    /// The analysis's symptoms: type → its first event (-1 when not known).
    std::map<std::string, std::int64_t> symptoms;
    /// The nodes the analysis knows (lanes).
    std::set<std::string> nodes;
    /// The record on each line the annotations name: (path, line) → (time, node). Absent lines have no time.
    std::map<std::pair<std::string, std::uint64_t>, std::pair<std::int64_t, std::string>> lines;
};

/// Reads `verdict` and `evidence` for `annotations` (one pass over the events, one over the observations when a
/// line is annotated).
AnnotationScope annotationScope(const std::vector<Annotation>& annotations, const Verdict& verdict,
    const EvidenceSet& evidence, std::string name, std::int64_t run = 0);

/// Each annotation (same order) against `scope`: an event by its rule and record (or, without a rule, by its index
/// when `scope` is the run it was made on), a symptom by its type, a lane by its node; lines, ranges and the case
/// always stand. An unmatched one says why, naming the scope.
std::vector<AnnotationResolution> resolveAnnotations(
    const std::vector<Annotation>& annotations, const AnnotationScope& scope);

/// Whether two annotations are about the same thing (an event: the same rule and record).
bool sameTarget(const Annotation& a, const Annotation& b);

/// A short text for an annotation's target: "event nccl.remote-error at joblogs/slurm-1.out:233", "lane node-02".
std::string describeTarget(const Annotation& a);

} // namespace faultline::core
