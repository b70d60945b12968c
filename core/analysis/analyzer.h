// SPDX-License-Identifier: Apache-2.0
// The attribution engine: extraction → filtering → correlation → outcome mapping → verdict, over one
// EvidenceSet with one RuleCatalog. Deterministic: the same inputs give the same verdict whatever the thread
// count.
#pragma once

#include "core/model/verdict.h"
#include "core/rules/rule_catalog.h"

#include <atomic>
#include <functional>

namespace faultline::core {

struct AnalysisTrace;

struct AnalysisOptions
{
    unsigned threads = 0; ///< 0: use the hardware concurrency
    /// Optional override of the workload window (CLI --window); INT64_MIN keeps the scope's own.
    std::int64_t windowFromNs = INT64_MIN;
    std::int64_t windowToNs = INT64_MIN;
    const std::atomic_bool* cancel = nullptr; ///< polled between phases
    /// When set, the filter and correlation phases record what they did there (the rule trace); null, the default:
    /// nothing is recorded. The verdict is the same either way.
    AnalysisTrace* trace = nullptr;
};

/// Runs the whole engine. The evidence set is only read.
Verdict analyze(const EvidenceSet& evidence, const RuleCatalog& catalog, const AnalysisOptions& options = {});

/// Builds the coverage report (per expected source kind, and per node for per-node kinds). `readAs`, when given,
/// holds per source the kind a file of unknown format was read as (from the rules its lines matched; Other when
/// none): such a file counts for that kind, and the entry says so.
std::vector<CoverageEntry> buildCoverage(
    const EvidenceSet& evidence, const CatalogSettings& settings, const std::vector<SourceKind>* readAs = nullptr);

} // namespace faultline::core
