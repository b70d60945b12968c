// SPDX-License-Identifier: Apache-2.0
// The result of one analysis: outcome, cause, symptoms, alternatives, evidence trail and coverage.
#pragma once

#include "core/model/event.h"

#include <cstdint>
#include <string>
#include <vector>

namespace faultline::core {

/// A group of symptom events of one type explained by the cause.
struct SymptomGroup
{
    std::string type;
    std::string label; ///< label of the first event of the group
    std::string correlator;
    std::size_t count = 0;
    std::vector<std::string> nodes;
    std::vector<std::int32_t> ranks;
    std::int64_t firstNs = INT64_MIN;
    std::int64_t lastNs = INT64_MIN;
    std::vector<std::size_t> events; ///< indices into Verdict::events
};

struct Alternative
{
    std::size_t event = 0; ///< index into Verdict::events
    std::string reason; ///< why it lost
};

/// One entry of the evidence trail: an event and why it is in the trail.
struct TrailItem
{
    std::size_t event = 0;
    std::string why; ///< "cause", "companion of cause", "symptom via <correlator>", "precursor", ...
};

/// How far a node's clock seems to run ahead (+) or behind (-) the others, from events every node logs.
/// Clock-skew estimates at least this large are corrected for when comparing times across nodes; smaller ones are
/// within the precision of the NCCL and c10 stamps they rest on.
inline constexpr std::int64_t kSkewCorrectionNs = 50'000'000;

struct ClockSkew
{
    std::string node;
    std::int64_t offsetNs = 0;
    std::size_t samples = 0; ///< collectives the estimate rests on
    std::string basis;
};

struct CoverageEntry
{
    std::string kind; ///< source kind
    std::string node; ///< "" for bundle-wide kinds
    CoverageStatus status = CoverageStatus::Missing;
    std::string reason;
    std::uint64_t records = 0;
    std::vector<std::string> files;
};

struct Verdict
{
    std::string outcome; ///< infrastructure_failure | workload_failure | scheduler_action | inconclusive
    std::string domain;
    std::string subdomain;
    std::string summary;
    std::string action;
    double confidence = 0;
    std::string confidenceLevel; ///< high | medium | low
    std::vector<std::string> confidenceNotes;

    bool hasCause = false;
    std::size_t cause = 0; ///< index into events
    std::vector<std::string> blamedNodes; ///< nodes to exclude/drain (infrastructure causes only)
    std::vector<std::string> originNodes; ///< where the cause was observed
    std::vector<std::string> symptomNodes; ///< nodes that only showed symptoms
    std::vector<SymptomGroup> symptoms;
    std::vector<Alternative> alternatives;
    std::vector<TrailItem> trail;
    std::vector<CoverageEntry> coverage;
    std::vector<ClockSkew> clockSkew; ///< estimates only: the evidence keeps its own times
    std::vector<std::string> inconclusiveReasons;

    std::vector<Event> events; ///< every in-scope event, sorted by time
    std::vector<std::int64_t> causeOf; ///< per event: index of the event that explains it, -1 when none
    std::vector<std::string> linkVia; ///< per event: correlator id of that link
    std::vector<std::string> linkRelation; ///< per event: symptom | companion | precursor | confirmation
    NodeTable nodes; ///< evidence hosts plus hosts named only inside records
    std::size_t filteredEvents = 0;

    // Identity of the inputs.
    std::string catalogName;
    std::string catalogVersion;
    std::string catalogHash;
    std::string engineVersion;
    Scope scope;
};

} // namespace faultline::core
