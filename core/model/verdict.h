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

/// One kind of symptom behind a hypothesis: how many events of it, and the weight the catalog gives it.
struct HypothesisEvidence
{
    std::string type;
    std::string label; ///< label of the first event of the kind
    std::size_t count = 0;
    double weight = 0;
    std::string why;
    std::vector<std::size_t> events; ///< indices into Verdict::events
    bool faultAtReporter = false; ///< its support item places the fault on the reporting node
};

/// A domain/subdomain that the symptoms point at, with the support of the symptoms that point there.
struct HypothesisCandidate
{
    std::string id; ///< the catalog's hypothesis rule
    std::string domain;
    std::string subdomain;
    std::string label;
    double support = 0; ///< 0..1: kinds of symptoms combine as independent evidence, 1 - prod(1 - weight)
    std::vector<HypothesisEvidence> evidence;
    std::vector<std::string> nodes; ///< nodes that reported the supporting symptoms
    std::vector<std::int32_t> ranks; ///< ranks that reported them
};

/// Evidence that would confirm the leading hypothesis, and whether the bundle holds it.
struct ConfirmingEvidence
{
    std::string kind; ///< source kind
    std::string node; ///< whose source, "" for job-wide sources
    std::string what; ///< "the kernel log of node-02": what to collect or read
    std::string lookFor; ///< what in it would confirm the hypothesis
    std::string status; ///< missing: not in the bundle | silent: present and shows nothing that confirms it
};

/// The hypotheses of a verdict without an initiating event. `leading` is true when one candidate leads clearly:
/// the verdict then names its domain/subdomain with low confidence, as a hypothesis that is not confirmed.
struct Hypotheses
{
    bool leading = false;
    std::string basis; ///< why a candidate leads, or why none does
    std::vector<HypothesisCandidate> candidates; ///< best first; candidates[0] is the leader when `leading`
    std::vector<ConfirmingEvidence> confirm; ///< for the leader
};

struct Verdict
{
    std::string outcome; ///< infrastructure_failure | workload_failure | configuration_failure | scheduler_action |
                         ///< inconclusive
    /// established: an initiating event is the cause | hypothesis: no initiating event, the domain is the leading
    /// hypothesis (outcome inconclusive) | none: nothing points anywhere (outcome inconclusive, domain unknown)
    std::string evidenceStatus;
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
    Hypotheses hypotheses; ///< only for verdicts without a cause

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

/// A delay after the cause is stated only when the symptom's time is known to this precision; an inferred time
/// placed between neighbours further apart says too little.
inline constexpr std::int64_t kDelayKnownWithinNs = 60'000'000'000;

/// The widest span the group's inferred times were placed in (0 when every time is the record's own).
inline std::int64_t inferredSpan(const Verdict& v, const SymptomGroup& g)
{
    std::int64_t span = 0;
    for (const std::size_t i : g.events)
        if (i < v.events.size() && v.events[i].quality == TimeQuality::Inferred && v.events[i].precisionNs > span)
            span = v.events[i].precisionNs;
    return span;
}

} // namespace faultline::core
