// SPDX-License-Identifier: Apache-2.0
// An immutable analysis snapshot handed from the worker to the views.
#pragma once

#include "core/model/analysis.h"

#include <climits>
#include <cstdint>
#include <memory>
#include <string>

namespace faultline::views {

/// What the views show: the use cases' analysis itself (no copy, no conversion).
using AnalysisResult = core::Analysis;

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
