// SPDX-License-Identifier: Apache-2.0
// The rule trace: what one rule did in one analysis, and where it stopped short. For an extractor, the records it
// matched (file:line), the events it made and what became of each (kept, dropped by a filter, outside the workload
// window, merged as a duplicate, replaced through `supersedes`), and its near misses: records whose source kind it
// does not read although its pattern matches, records that hold the literals RE2 requires of its pattern but do not
// match it (with the part of the pattern that failed), and matches whose preceded_by context is missing. For a
// correlator, every link it drew with its window, and for each symptom candidate it did not link, the nearest cause
// candidate and the first clause that failed. Filters, metric rules, aggregates and hypotheses get what the
// analysis shows of them.
//
// Tracing is asked for explicitly: traceRules() runs the engine with AnalysisOptions::trace set and then re-reads
// the evidence for the one rule. A normal analysis records nothing and runs no trace code.
#pragma once

#include "core/analysis/analyzer.h"
#include "core/analysis/correlation.h"
#include "core/analysis/pattern_probe.h"
#include "core/model/verdict.h"
#include "core/rules/rule_catalog.h"
#include "core/util/diagnostic.h"

#include <climits>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace faultline::core {

struct AnalysisTrace;

/// What to trace.
struct TraceRequest
{
    std::string ruleId; ///< the rule; empty: every rule, for the one record `path`:`line` names
    std::string path; ///< optional: only this record (a source path as the bundle names it)
    std::uint64_t line = 0; ///< 1-based; with `path`
    std::size_t maxNearMisses = 100; ///< near misses listed per kind of miss (all are counted)
};

/// One record of the evidence, as a trace names it.
struct TracedRecord
{
    std::uint32_t observation = 0; ///< index into EvidenceSet::observations (a series index for metric events)
    std::string path; ///< the source file, as the bundle names it
    std::uint64_t line = 0;
    std::uint64_t byteOffset = 0;
    std::string kind; ///< the record's source kind, e.g. "kernel"
    std::string format; ///< its file's format, e.g. "dmesg-raw"
    std::string node; ///< "" when none
    std::int64_t timeNs = INT64_MIN;
    std::string text; ///< the record's text, capped
};

enum class EventFate {
    Kept, ///< in the verdict's events
    Merged, ///< merged as a duplicate into another copy of the same event, which the verdict keeps
    OutOfWindow, ///< outside the workload window plus the catalog's scope margin
    OtherJob, ///< its record names another job than the analysed one
    Dropped, ///< removed by a drop filter
    Superseded, ///< replaced by another rule's event on the same record (that rule's `supersedes`)
    Missing, ///< not in the verdict, for no reason the trace knows of
};
const char* eventFateName(EventFate f);

/// An event the traced rule made (or, for a filter, an event it acted on) and what became of it.
struct TracedEvent
{
    TracedRecord record;
    std::string rule; ///< the rule that made it
    std::string type;
    std::string label;
    std::string role; ///< as made (a filter may change it later; see changedBy)
    EventFate fate = EventFate::Kept;
    std::string
        by; ///< Dropped: the filter; Superseded: the rule(s) that replaced it; Merged: the kept copy's file:line
    std::vector<std::string> changedBy; ///< filters that changed its role and kept it: "filter-id (role context)"
    std::vector<std::string> replaced; ///< rules whose event on the same record this one replaced
    std::int64_t verdictIndex = -1; ///< Kept, Merged: the event in Verdict::events (for Merged, the kept copy)
    std::string inVerdict; ///< its part in the verdict: "the cause", "symptom of #3 via corr.x", ...
    std::string detail; ///< why this fate, in words
    std::vector<std::string> notes; ///< further facts (a filter whose selector chose it but whose text did not match)
};

/// The first clause an extractor failed on a record, in the engine's order.
enum class MissClause {
    SourceKind, ///< the record's source kind is not one the rule reads
    EmptyRecord, ///< the record has no text
    Literals, ///< the record lacks the literals RE2 requires of the pattern (a trace of one record only)
    Pattern, ///< the record holds the pattern's literals but the pattern does not match
    PrecededBy, ///< the pattern matches but its preceded_by context is not there
};
const char* missClauseName(MissClause c);

/// A record that got part of the way through an extractor and made no event.
struct ExtractorMiss
{
    TracedRecord record;
    MissClause clause = MissClause::Pattern;
    bool patternMatches = false; ///< SourceKind: whether the pattern matches the record's text
    PatternMiss pattern; ///< Pattern, Literals: the part of the pattern that failed, when the probe could tell
    std::string detail; ///< the first clause that failed, in words
};

/// One link a correlator (or an aggregate, to its members) drew.
struct TracedLink
{
    std::size_t cause = 0; ///< indices into Verdict::events
    std::size_t symptom = 0;
    TracedRecord causeRecord;
    TracedRecord symptomRecord;
    std::string causeLabel;
    std::string symptomLabel;
    bool byOrder = false; ///< untimed: related by line order in one file
    std::int64_t deltaNs = 0; ///< symptom minus cause on skew-aligned clocks (timed links)
    std::int64_t slackNs = 0; ///< both events' time precision, added to each side of the window
};

/// A symptom candidate the correlator did not link: the cause candidate that came nearest, and the first clause that
/// failed against it.
struct CorrelationMiss
{
    std::size_t symptom = 0; ///< index into Verdict::events
    TracedRecord symptomRecord;
    std::string symptomLabel;
    std::optional<std::size_t> cause; ///< the nearest cause candidate; none when no event matches the cause selector
    TracedRecord causeRecord;
    std::string causeLabel;
    std::size_t causeCandidates = 0; ///< cause candidates tried
    LinkClause clause = LinkClause::Holds; ///< Holds: every clause holds; `detail` says why it is linked elsewhere
    std::int64_t deltaNs = 0; ///< timed: symptom minus cause
    std::int64_t excessNs = 0; ///< Window: how far outside the window
    std::string linkedInstead; ///< the link the engine drew for this symptom instead, "" when none
    std::string detail;
};
const char* linkClauseName(LinkClause c);

enum class TraceRuleKind { Extractor, Metric, Filter, Correlator, Aggregate, Hypothesis };
const char* traceRuleKindName(TraceRuleKind k);

struct RuleTrace
{
    std::string id;
    TraceRuleKind kind = TraceRuleKind::Extractor;
    std::string origin; ///< "packs/gpu.yaml:42"
    std::string description;
    std::vector<std::pair<std::string, std::string>> settings; ///< what the rule is, as shown: "sources" → "kernel"

    // Extractors.
    std::vector<std::string> literals; ///< the literals RE2 requires of the pattern (lower case); empty: none
    std::size_t recordsScanned = 0; ///< records looked at (every kind)
    std::size_t recordsRead = 0; ///< of those, records of a kind the rule reads
    std::size_t recordsMatched = 0; ///< records of such a kind its pattern matched
    std::vector<ExtractorMiss> misses; ///< listed near misses: at most maxNearMisses per clause, in record order

    // Events it made, or (filters) acted on.
    std::vector<TracedEvent> events;
    std::vector<TracedEvent> filterMisses; ///< filters: events the selector chose whose text did not match

    // Correlators and aggregates.
    std::int64_t windowBeforeNs = 0;
    std::int64_t windowAfterNs = 0;
    std::size_t causeCandidates = 0;
    std::size_t symptomCandidates = 0;
    std::vector<TracedLink> links;
    std::vector<CorrelationMiss> linkMisses; ///< listed: the nearest maxNearMisses

    std::map<std::string, std::size_t> missCounts; ///< every near miss, by clause name
    std::vector<std::string> findings; ///< facts without a structure of their own (hypotheses)
    std::vector<std::string> notes; ///< the trace's own limits ("near misses listed: 100 of 2345")
};

struct TraceReport
{
    std::vector<RuleTrace> rules;
    std::optional<TracedRecord> focus; ///< the record a request with a path and line named
    std::string focusNote; ///< when the line named is not the first line of a record
    /// A trace of one record over every rule: how many extractors read its kind, and which of them (their RE2::Set
    /// holds the whole patterns) matched it.
    std::size_t extractorsReading = 0;
    std::vector<std::string> matchedBy;
    std::string outcome; ///< the verdict the trace followed: outcome and summary
    std::string summary;
};

/// Rule ids of the catalog closest to `id` (by edit distance, or containing it), best first.
std::vector<std::string> closeRuleIds(const RuleCatalog& catalog, const std::string& id, std::size_t max = 3);

/// Checks a request against the catalog before anything runs: the rule exists (else `unknown-rule`, naming close
/// ids), a record is named when no rule is, and the line is positive.
bool checkTraceRequest(const RuleCatalog& catalog, const TraceRequest& request, std::vector<Diagnostic>& errors);

/// What AnalysisTrace::ruleId must be for a request (every step when the request traces one record over all rules).
std::string traceScope(const TraceRequest& request);

/// Explains an analysis that ran with AnalysisOptions::trace pointing at `recorded` (scoped by traceScope()).
/// Fails (nullopt, with located errors) on an unknown rule, an unknown file or a line outside it.
std::optional<TraceReport> explainRules(const EvidenceSet& evidence, const RuleCatalog& catalog, const Verdict& verdict,
    const AnalysisTrace& recorded, const TraceRequest& request, std::vector<Diagnostic>& errors);

/// Runs the engine with tracing on (`options.trace` is set here) and explains it. `verdict`, when given, receives the
/// verdict the trace followed.
std::optional<TraceReport> traceRules(const EvidenceSet& evidence, const RuleCatalog& catalog,
    const TraceRequest& request, AnalysisOptions options, std::vector<Diagnostic>& errors, Verdict* verdict = nullptr);

} // namespace faultline::core
