// SPDX-License-Identifier: Apache-2.0
// The clauses a correlator's link must satisfy, in the order the engine tests them: time (or, without a time, line
// order in one file), the node relation, and the order of a root-capable symptom. The engine and the rule trace both
// call these, so a trace says exactly which clause kept the engine from linking two events.
#pragma once

#include "core/model/event.h"
#include "core/model/evidence.h"
#include "core/rules/rule_catalog.h"

#include <climits>
#include <cstddef>
#include <cstdint>

namespace faultline::core {

/// Where a symptom's record lies relative to a cause's in the file both came from.
enum class OrderRelation { Unrelated, Before, After };

/// Records of one file are in the order they were written: an event whose record follows (or is) the cause's comes
/// after it. Events from different files have no order without times.
inline OrderRelation fileOrder(const Event& cause, const Event& symptom)
{
    const Provenance& c = cause.provenance.front();
    const Provenance& s = symptom.provenance.front();
    if (c.source != s.source)
        return OrderRelation::Unrelated;
    return s.line >= c.line ? OrderRelation::After : OrderRelation::Before;
}

/// True when both events were read from one file that is one machine's own log (a kernel or Fabric Manager log):
/// they happened on one host even when nothing names it. A job's output or a merged export may hold many hosts.
inline bool fromOneHostLog(const Event& a, const Event& b, const std::vector<Source>& sources)
{
    const std::size_t s = a.provenance.front().source;
    if (s != b.provenance.front().source || s >= sources.size())
        return false;
    return sources[s].kind == SourceKind::Kernel || sources[s].kind == SourceKind::FabricManager;
}

/// `oneHostLog`: both events come from one host's own log (fromOneHostLog), which places two unnamed events on one
/// node.
inline bool nodesRelate(Correlator::Nodes rel, const Event& cause, const Event& symptom, bool oneHostLog = false)
{
    const bool unnamedOnOneHost = oneHostLog && cause.node == kNoNode && symptom.node == kNoNode;
    switch (rel) {
    case Correlator::Nodes::Any:
        return true;
    case Correlator::Nodes::Same:
        // One rank is one process on one node: the same rank is the same node even when no evidence names it.
        return (cause.node != kNoNode && cause.node == symptom.node)
            || (cause.node == kNoNode && symptom.node == kNoNode && cause.rank >= 0 && cause.rank == symptom.rank)
            || unnamedOnOneHost;
    case Correlator::Nodes::SameGpu:
        return ((cause.node != kNoNode && cause.node == symptom.node) || unnamedOnOneHost)
            && (symptom.gpu.empty() || cause.gpu.empty() || symptom.gpu == cause.gpu);
    case Correlator::Nodes::Other:
        return cause.node != symptom.node;
    case Correlator::Nodes::Unnamed:
        return cause.node != kNoNode && symptom.node == kNoNode;
    }
    return false;
}

/// The first clause a link fails, in the engine's order.
enum class LinkClause {
    Holds, ///< every clause holds
    Untimed, ///< one side has no time and the two records are in different files
    LineOrder, ///< untimed, one file, but the lines are in the wrong order for the relation
    Window, ///< the delay lies outside [-before, after] widened by both events' time precision
    Nodes, ///< the correlator's node relation does not hold
    RootOrder, ///< the symptom can initiate a failure and the cause comes later in the event order
};

struct LinkCheck
{
    LinkClause clause = LinkClause::Holds;
    bool byOrder = false; ///< untimed: related by line order only
    std::int64_t deltaNs = 0; ///< timed: symptom minus cause, on clocks aligned by the skew estimate
    std::int64_t slackNs = 0; ///< timed: both events' precision, added to each side of the window
};

/// Tests the link cause → symptom of `corr`; `j` and `i` are their indices in the engine's event order and
/// `skewOf(node)` gives the clock offset corrected for on that node.
template <class SkewOf>
inline LinkCheck checkLink(const Correlator& corr, const Event& cause, std::size_t j, const Event& symptom,
    std::size_t i, const SkewOf& skewOf, bool oneHostLog = false)
{
    LinkCheck r;
    if (cause.timeNs == INT64_MIN || symptom.timeNs == INT64_MIN) {
        // Without a time on one side, only the order of the lines in one file relates them: a symptom follows its
        // cause there (a precursor comes before it). Nothing bounds the distance.
        const OrderRelation o = fileOrder(cause, symptom);
        if (o == OrderRelation::Unrelated) {
            r.clause = LinkClause::Untimed;
            return r;
        }
        if (corr.relation == "precursor" ? o != OrderRelation::Before : o != OrderRelation::After) {
            r.clause = LinkClause::LineOrder;
            return r;
        }
        r.byOrder = true;
    } else {
        r.slackNs = symptom.precisionNs + cause.precisionNs;
        // Cross-node comparisons are made on clocks aligned by the skew estimate.
        r.deltaNs = (symptom.orderTimeNs() - skewOf(symptom.node)) - (cause.orderTimeNs() - skewOf(cause.node));
        if (r.deltaNs < -(corr.beforeNs + r.slackNs) || r.deltaNs > corr.afterNs + r.slackNs) {
            r.clause = LinkClause::Window;
            return r;
        }
    }
    if (!nodesRelate(corr.nodes, cause, symptom, oneHostLog)) {
        r.clause = LinkClause::Nodes;
        return r;
    }
    // A root-capable event is only explained by an earlier one (in the deterministic event order): two candidates
    // must never explain each other through wide, inferred time intervals. Untimed events of one file have no place
    // in that order beyond their lines, so there the cause's line must come first.
    if (corr.relation != "precursor" && symptom.role == Role::Root
        && (r.byOrder ? symptom.provenance.front().line <= cause.provenance.front().line : j > i))
        r.clause = LinkClause::RootOrder;
    return r;
}

} // namespace faultline::core
