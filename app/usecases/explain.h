// SPDX-License-Identifier: Apache-2.0
// Explaining a rule's work in one analysis (faultline-cli explain; the workbench later): opens a case read-only and
// re-imports its stored evidence, or imports a bundle, analyses it, then runs the engine once more with tracing on and
// returns the rule trace (core/analysis/rule_trace.h) as a plain value. Nothing is written anywhere. Qt-free.
#pragma once

#include "app/usecases/use_cases.h"
#include "core/analysis/rule_trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace faultline::usecases {

struct ExplainRequest
{
    /// One case file, or the paths of a bundle (directories, archives, files). A file that is an SQLite database is
    /// read as a case.
    std::vector<std::string> paths;
    std::string ruleId; ///< the rule to explain; empty: every rule, for the record linePath:line
    std::string linePath; ///< optional: one record, as PATH:N names it (PATH as the bundle names the file)
    std::uint64_t line = 0;
    /// The catalog: the bundled layer and the rule pack layers on it. A bundle is explained with it; a case only when
    /// `currentRules` is set or its latest run did not store its rules (otherwise the case is explained with that run's
    /// own rules, as the run saw it).
    core::CatalogSources sources;
    bool currentRules = false;
    std::string jobId; ///< a bundle's job, as analyze --job picks it
    unsigned threads = 0;
    std::size_t maxNearMisses = 100; ///< near misses listed per kind (all are counted)
};

struct Explanation
{
    core::TraceReport trace;
    /// The analysis the trace followed: its evidence, catalog and verdict (the trace's event indices are into
    /// `analysis.verdict->events`).
    Analysis analysis;
    bool isCase = false;
    std::string input; ///< the case's path, or the bundle's first path
    std::string rulesOrigin; ///< "run 2's rules", "current rules", or the catalog directory of a bundle
};

/// Traces the request's rule (or every rule, for one record). Fails with Usage (an unknown rule, with the closest
/// ids; an unknown file or a line it does not have), Catalog, NoEvidence, Case or Cancelled.
Result<Explanation> explainRule(const ExplainRequest& request, const Task& task = {});

/// The trace for a reader: per rule, what it is, what it matched (file:line), what became of its events, its links,
/// and its near misses with the first clause that failed. Long lists are cut at `maxListed` lines each.
std::string explanationText(const Explanation& e, std::size_t maxListed = 25);

/// The trace as JSON (schema "faultline.rule-trace/1", resources/schema/rule-trace.schema.json): every list whole.
std::string explanationJson(const Explanation& e);

} // namespace faultline::usecases
