// SPDX-License-Identifier: Apache-2.0
// Phase 1: turns observations into typed events with the catalog's extractors, and metric series into events
// with its metric rules. One pass per record: an RE2::Set prefilter picks the candidate rules, and only those run
// their capturing match.
#pragma once

#include "core/model/event.h"
#include "core/rules/rule_catalog.h"

#include <span>
#include <vector>

namespace faultline::core {

/// An event straight out of an extractor, before hosts are resolved.
struct RawEvent
{
    Event event;
    std::string nodeHint; ///< host named by the record itself (NCCL "node-02:pid:tid"), "" when none
};

/// Per-thread scratch buffers, reused across records so the hot loop does not allocate.
struct ExtractionScratch
{
    std::vector<int> hits;
    std::string batch; ///< records joined by '\n' for the batch prefilter
};

class Extraction
{
public:
    explicit Extraction(const RuleCatalog& catalog)
        : m_catalog(catalog)
    { }

    /// Extracts from `records[begin, end)`. Records of one source must be contiguous and in file order (the
    /// multi-line `preceded_by` context looks back within the same source). Thread-safe (const).
    void run(std::span<const Observation> records, std::size_t begin, std::size_t end, ExtractionScratch& scratch,
        std::vector<RawEvent>& out) const;

    /// Extracts from every record, splitting the work across `threads` workers; the result is in record order,
    /// whatever the thread count.
    std::vector<RawEvent> runAll(std::span<const Observation> records, unsigned threads) const;

    /// Batching lets one prefilter call rule out many records at once (on by default); off, every record is
    /// matched on its own. Both give the same events; tests compare them.
    void setBatching(bool on) { m_batching = on; }

    /// Evaluates the metric rules over every series.
    std::vector<RawEvent> runMetrics(std::span<const MetricSeries> series) const;

    /// The event `rule` alone makes of record `i` (none when its pattern or its preceded_by context does not match
    /// there), before any other rule's `supersedes` applies. The engine's own code, for the rule trace.
    void runRule(std::span<const Observation> records, std::size_t i, const ExtractorRule& rule,
        std::vector<RawEvent>& out) const
    {
        emit(records, i, rule, out);
    }

    /// The events the engine keeps of record `i`: every rule its source kind runs, then `supersedes`.
    void runRecord(std::span<const Observation> records, std::size_t i, ExtractionScratch& scratch,
        std::vector<RawEvent>& out) const
    {
        runOne(records, i, scratch, out);
    }

private:
    void emit(std::span<const Observation> records, std::size_t i, const ExtractorRule& rule,
        std::vector<RawEvent>& out) const;

    void runOne(std::span<const Observation> records, std::size_t i, ExtractionScratch& scratch,
        std::vector<RawEvent>& out) const;

    const RuleCatalog& m_catalog;
    bool m_batching = true;
};

} // namespace faultline::core
