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

struct AnalysisOptions
{
    unsigned threads = 0; ///< 0: use the hardware concurrency
    /// Optional override of the workload window (CLI --window); INT64_MIN keeps the scope's own.
    std::int64_t windowFromNs = INT64_MIN;
    std::int64_t windowToNs = INT64_MIN;
    const std::atomic_bool* cancel = nullptr; ///< polled between phases
};

/// Runs the whole engine. The evidence set is only read.
Verdict analyze(const EvidenceSet& evidence, const RuleCatalog& catalog, const AnalysisOptions& options = {});

/// Builds the coverage report (per expected source kind, and per node for per-node kinds).
std::vector<CoverageEntry> buildCoverage(const EvidenceSet& evidence, const CatalogSettings& settings);

} // namespace faultline::core
