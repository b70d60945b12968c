// SPDX-License-Identifier: Apache-2.0
// One analysis: the input, the evidence, the verdict and how they were made. The use cases return it and the views
// show it (as views::AnalysisResult), so one immutable snapshot crosses from the worker to the UI
// without conversion.
#pragma once

#include "core/model/bundle_input.h"
#include "core/model/verdict.h"
#include "core/rules/rule_catalog.h"
#include "core/util/diagnostic.h"

#include <climits>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace faultline::core {

struct Analysis
{
    std::shared_ptr<const BundleInput> input; ///< the raw input, kept so the analysis can be saved as a case
    std::shared_ptr<const EvidenceSet> evidence;
    std::shared_ptr<const Verdict> verdict;
    std::shared_ptr<const RuleCatalog> catalog;
    std::string rulesDir; ///< absolute; where `catalog` was loaded from
    std::string jobOption; ///< the job the import was asked to pick ("" when none)
    std::int64_t windowFromNs = INT64_MIN; ///< the workload-window override (INT64_MIN: the scope's own)
    std::int64_t windowToNs = INT64_MIN;
    std::int64_t importMs = 0;
    std::int64_t analyseMs = 0;
    std::vector<Diagnostic> catalogWarnings; ///< the catalog loaded, with these warnings

    // For an analysis of a case's stored evidence:
    std::string casePath; ///< "" for a bundle
    std::int64_t storedRun = 0; ///< the case's latest run when it was opened (0: none)
    bool matchesStoredRun = false; ///< the verdict equals that run's, byte for byte (JSON)
    std::string rulesOrigin; ///< "run 2's rules", "current rules", "current rules (why)"
    bool importDiffers = false; ///< this build imports the stored evidence differently from the case's import
};

} // namespace faultline::core
