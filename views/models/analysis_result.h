// SPDX-License-Identifier: Apache-2.0
// An immutable analysis snapshot handed from the worker to the views (../shared/STYLE.md §4.5).
#pragma once

#include "core/model/verdict.h"

#include <memory>

namespace faultline::views {

struct AnalysisResult
{
    std::shared_ptr<const core::EvidenceSet> evidence;
    std::shared_ptr<const core::Verdict> verdict;
};

} // namespace faultline::views
