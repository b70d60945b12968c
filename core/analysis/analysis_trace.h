// SPDX-License-Identifier: Apache-2.0
// What the engine's filter phase did to events, recorded only when AnalysisOptions::trace points at an AnalysisTrace
// (the rule trace asks for it; a normal analysis records nothing). Filled by the analysing thread; read after
// analyze() returns.
#pragma once

#include "core/model/event.h"

#include <climits>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace faultline::core {

/// One thing the filter phase did to one event, before duplicates merged.
struct FilterStep
{
    enum class What {
        OutOfWindow, ///< its time lies outside the workload window plus the scope margin
        OtherJob, ///< its record names another job than the analysed one
        Dropped, ///< a drop filter removed it
        Changed, ///< a suppress or set-role filter changed its role and kept it
        TextMissed, ///< a filter's selector chose it, but the record's text did not match the filter's text pattern
    };
    What what = What::Dropped;
    std::string eventRule; ///< the rule that made the event
    std::string type; ///< the event's type and label
    std::string label;
    std::uint32_t observation = 0; ///< the event's record (for a metric event, its series)
    std::string filter; ///< Dropped, Changed, TextMissed: the filter's id
    Role role = Role::Context; ///< Changed: the role the filter gave the event
    std::int64_t timeNs = INT64_MIN;
    std::string job; ///< OtherJob: the job the record names
};

struct AnalysisTrace
{
    /// Steps of events this rule made, or steps this filter took, are recorded; empty: every step.
    std::string ruleId;

    // What the filter phase used (set whenever tracing).
    std::int64_t windowLoNs = INT64_MIN; ///< the scope window with its margin; INT64_MIN: unbounded
    std::int64_t windowHiNs = INT64_MAX; ///< INT64_MAX: unbounded
    bool windowTrusted = true; ///< false: the window's times had no zone and nothing was filtered by time
    std::string jobId; ///< the analysed job ("" when unknown)
    std::vector<FilterStep> steps;

    /// The clock offsets the correlation phase corrected for, per node.
    std::map<NodeId, std::int64_t> skew;

    bool wants(const std::string& eventRule, const std::string& filter = {}) const
    {
        return ruleId.empty() || ruleId == eventRule || (!filter.empty() && ruleId == filter);
    }
};

} // namespace faultline::core
