// SPDX-License-Identifier: Apache-2.0
// Aggregate rules: facts that no single record states but many events do together (the same GPU faulting under
// several processes, the nodes of one job reporting different versions of a library).
#pragma once

#include "core/model/event.h"
#include "core/model/evidence.h"
#include "core/rules/rule_catalog.h"

#include <vector>

namespace faultline::core {

/// One event an aggregate rule made, and the events it was made from (indices into the events given).
struct AggregateResult
{
    Event event;
    std::size_t rule = 0; ///< index into RuleCatalog::aggregates()
    std::vector<std::size_t> members;
};

/// Runs every aggregate rule of `catalog` over `events` (in the analysis's event order). Node names come from
/// `nodes`. Deterministic: the result depends only on the events and their order.
std::vector<AggregateResult> runAggregates(
    const RuleCatalog& catalog, const std::vector<Event>& events, const NodeTable& nodes);

} // namespace faultline::core
