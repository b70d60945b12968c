// SPDX-License-Identifier: Apache-2.0
// An immutable analysis snapshot handed from the worker to the views (../shared/STYLE.md §4.5).
#pragma once

#include "core/model/bundle_input.h"
#include "core/model/verdict.h"
#include "core/rules/rule_catalog.h"

#include <climits>
#include <cstdint>
#include <memory>
#include <string>

namespace faultline::views {

struct AnalysisResult
{
    std::shared_ptr<const core::EvidenceSet> evidence;
    std::shared_ptr<const core::Verdict> verdict;
    std::shared_ptr<const core::BundleInput> input; ///< the raw input, kept so the analysis can be saved as a case
    std::string casePath; ///< the case file the evidence came from ("" for a bundle)
    std::int64_t storedRun = 0; ///< the case's latest run when it was opened
    bool matchesStoredRun = false; ///< this analysis gives the stored run's verdict, byte for byte
    std::string rulesOrigin; ///< for a case: whose rules made this analysis ("run 2's rules", "current rules")

    // How the analysis was made, so that saving it or adding it to its case records the same run.
    std::shared_ptr<const core::RuleCatalog> catalog;
    std::string rulesDir;
    std::string jobOption;
    std::int64_t windowFromNs = INT64_MIN;
    std::int64_t windowToNs = INT64_MIN;
    std::int64_t importMs = 0;
    std::int64_t analyseMs = 0;
};

/// A case's latest stored verdict, shown at once while the case's evidence is re-analysed.
struct StoredVerdictSummary
{
    std::string casePath;
    std::int64_t run = 0;
    std::size_t runs = 0;
    std::string createdAt;
    std::string outcome;
    std::string domain;
    std::string subdomain;
    std::string catalog; ///< "name version"
    std::string text; ///< the stored verdict as text
};

} // namespace faultline::views
