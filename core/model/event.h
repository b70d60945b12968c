// SPDX-License-Identifier: Apache-2.0
// Typed events extracted from observations by the rule catalog.
#pragma once

#include "core/model/evidence.h"

#include <string>
#include <utility>
#include <vector>

namespace faultline::core {

/// The causal role an event can play (NVRx's taxonomy).
enum class Role {
    Root, ///< can initiate a failure (root candidate)
    Cascade, ///< a usual consequence of another failure; searched for an earlier cause
    Teardown, ///< process/job shutdown after a failure; never a cause
    Companion, ///< accompanies another event (Xid 45/154, SXid detail lines); never a cause on its own
    Precursor, ///< warning sign that precedes a cause (rising CRC counters)
    Context, ///< informational (identity lines, confirmations, outcome markers)
};
const char* roleName(Role r);
bool roleFromName(std::string_view name, Role& out);

/// "domain/subdomain", or the domain alone when the subdomain is empty (a hypothesis or rule without one).
inline std::string domainPath(const std::string& domain, const std::string& subdomain)
{
    return subdomain.empty() ? domain : domain + "/" + subdomain;
}

struct Event
{
    std::string type; ///< e.g. "gpu.xid"
    std::string ruleId; ///< the extractor that produced it
    std::string label; ///< human summary, e.g. "Xid 149 NVLINK: NETIR Error"
    std::string domain; ///< infrastructure | workload | scheduler | unknown
    std::string subdomain; ///< accelerator-fabric, network-fabric, application, ...
    std::string severity; ///< fatal | error | warning | info
    std::string action; ///< recommended action
    std::string excerpt; ///< the record's text (capped), for reports
    Role role = Role::Context;
    int priority = 0; ///< precedence among simultaneous candidates (higher wins)

    NodeId node = kNoNode;
    std::int32_t rank = -1;
    std::string gpu; ///< normalised PCI bus id "0000:c3:00.0", or "" when unknown
    std::int64_t timeNs = INT64_MIN;
    std::int64_t precisionNs = 0;
    TimeQuality quality = TimeQuality::Missing;

    std::vector<std::pair<std::string, std::string>> fields; ///< named captures plus table columns, sorted by key
    std::vector<Provenance> provenance; ///< first = where it was extracted; more when duplicates merged
    std::uint32_t observation = 0; ///< index into EvidenceSet::observations (or metric series for metrics)

    const std::string* field(std::string_view key) const;
    /// Midpoint of the event's time interval: orders a 1-s-precision line after a µs line of the same second.
    std::int64_t orderTimeNs() const { return timeNs + precisionNs / 2; }
};

} // namespace faultline::core
