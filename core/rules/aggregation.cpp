// SPDX-License-Identifier: Apache-2.0
#include "core/rules/aggregation.h"

#include "core/rules/template.h"

#include <algorithm>
#include <map>
#include <set>

namespace faultline::core {

namespace {

constexpr std::size_t kValuesListed = 8;

struct Group
{
    std::vector<std::size_t> members;
    std::vector<std::string> valueOrder; ///< values in the order they first appear
    std::map<std::string, std::vector<std::size_t>> byValue;
};

/// The group an event belongs to, or false when the event lacks one of the grouping attributes (an Xid without a
/// known GPU is not grouped with other such Xids).
bool groupKey(const AggregateRule& rule, const Event& e, const NodeTable& nodes, std::string& key)
{
    key.clear();
    for (const auto& g : rule.groupBy) {
        std::string part;
        if (g == "node") {
            if (e.node == kNoNode)
                return false;
            part = nodes.name(e.node);
        } else if (g == "gpu") {
            if (e.gpu.empty())
                return false;
            part = e.gpu;
        } else if (g == "rank") {
            if (e.rank < 0)
                return false;
            part = std::to_string(e.rank);
        } else {
            const std::string* v = e.field(g);
            if (!v || v->empty())
                return false;
            part = *v;
        }
        key += part;
        key += '\x1f';
    }
    return true;
}

bool groupsBy(const AggregateRule& rule, std::string_view what)
{
    return std::find(rule.groupBy.begin(), rule.groupBy.end(), what) != rule.groupBy.end();
}

void setField(Event& e, const std::string& key, std::string value)
{
    for (auto& [k, v] : e.fields)
        if (k == key) {
            v = std::move(value);
            return;
        }
    e.fields.emplace_back(key, std::move(value));
}

/// The value that the fewest nodes report and its first record with a node, when exactly one value is the fewest;
/// nullptr on a tie or when no record has a node.
const std::string* oddValue(const std::vector<Event>& events, const Group& g, std::size_t& record)
{
    const std::string* odd = nullptr;
    std::size_t fewest = 0;
    bool tie = false;
    for (const auto& v : g.valueOrder) {
        std::set<NodeId> where;
        std::size_t first = 0;
        for (std::size_t i : g.byValue.at(v))
            if (events[i].node != kNoNode && where.insert(events[i].node).second && where.size() == 1)
                first = i;
        if (where.empty())
            continue;
        if (!odd || where.size() < fewest) {
            odd = &v;
            fewest = where.size();
            record = first;
            tie = false;
        } else if (where.size() == fewest)
            tie = true;
    }
    return tie ? nullptr : odd;
}

Event makeEvent(const AggregateRule& rule, const std::vector<Event>& events, const Group& g, const NodeTable& nodes)
{
    // The difference is known from the record whose value made the count: the first record of the
    // at_least-th value. The event sits there, on that record's node and GPU, unless the rule locates it on the
    // odd value out (then on that value's first record, or on no node when nodes tie).
    const std::string* value = &g.valueOrder[rule.atLeast - 1];
    const Event* anchor = &events[g.byValue.at(*value).front()];
    bool located = true;
    if (rule.locate == AggregateRule::Locate::Minority) {
        std::size_t record = 0;
        if (const std::string* odd = oddValue(events, g, record)) {
            value = odd;
            anchor = &events[record];
        } else
            located = false;
    }

    Event e;
    e.type = rule.eventType;
    e.ruleId = rule.id;
    e.role = rule.role;
    e.domain = rule.domain;
    e.subdomain = rule.subdomain;
    e.severity = rule.severity;
    e.action = rule.action;
    e.priority = rule.priority;
    e.timeNs = anchor->timeNs;
    e.precisionNs = anchor->precisionNs;
    e.quality = anchor->quality;
    e.provenance = { anchor->provenance.front() };
    e.observation = anchor->observation;
    e.excerpt = anchor->excerpt;
    if (located) {
        e.node = anchor->node;
        e.gpu = anchor->gpu;
        e.rank = anchor->rank;
    }

    for (const auto& key : rule.groupBy)
        if (key != "node" && key != "gpu" && key != "rank")
            if (const std::string* v = anchor->field(key))
                setField(e, key, *v);
    setField(e, rule.distinct, *value);
    setField(e, "count", std::to_string(g.valueOrder.size()));
    std::string listed;
    for (std::size_t k = 0; k < g.valueOrder.size() && k < kValuesListed; ++k) {
        const std::string& v = g.valueOrder[k];
        std::set<std::string> where;
        for (std::size_t i : g.byValue.at(v))
            if (events[i].node != kNoNode)
                where.insert(nodes.name(events[i].node));
        listed += (listed.empty() ? "" : "; ") + v;
        if (!where.empty() && !groupsBy(rule, "node")) {
            std::string names;
            for (const auto& n : where)
                names += (names.empty() ? "" : ", ") + n;
            listed += " on " + names;
        }
    }
    if (g.valueOrder.size() > kValuesListed)
        listed += "; and " + std::to_string(g.valueOrder.size() - kValuesListed) + " more";
    setField(e, "values", listed);
    std::sort(e.fields.begin(), e.fields.end());

    const std::string nodeName = e.node == kNoNode ? std::string() : nodes.name(e.node);
    const FieldLookup lookup = [&](std::string_view k) -> const std::string* {
        if (k == "gpu")
            return e.gpu.empty() ? nullptr : &e.gpu;
        if (k == "node")
            return nodeName.empty() ? nullptr : &nodeName;
        return e.field(k);
    };
    e.label = expandTemplate(rule.labelTemplate, lookup);
    e.action = expandTemplate(rule.action, lookup); // "install {component} at one version"
    return e;
}

} // namespace

std::vector<AggregateResult> runAggregates(
    const RuleCatalog& catalog, const std::vector<Event>& events, const NodeTable& nodes)
{
    std::vector<AggregateResult> out;
    std::string key;
    for (std::size_t r = 0; r < catalog.aggregates().size(); ++r) {
        const AggregateRule& rule = catalog.aggregates()[r];
        std::map<std::string, Group> groups;
        std::vector<std::string> order; // groups in the order they first appear, for a stable result
        for (std::size_t i = 0; i < events.size(); ++i) {
            const Event& e = events[i];
            if (!rule.over.matches(e))
                continue;
            const std::string* value = e.field(rule.distinct);
            if (!value || value->empty() || !groupKey(rule, e, nodes, key))
                continue;
            auto [it, fresh] = groups.try_emplace(key);
            if (fresh)
                order.push_back(key);
            Group& g = it->second;
            g.members.push_back(i);
            auto& list = g.byValue[*value];
            if (list.empty())
                g.valueOrder.push_back(*value);
            list.push_back(i);
        }
        for (const auto& k : order) {
            const Group& g = groups.at(k);
            if (g.valueOrder.size() < rule.atLeast)
                continue;
            AggregateResult res;
            res.event = makeEvent(rule, events, g, nodes);
            res.rule = r;
            res.members = g.members;
            out.push_back(std::move(res));
        }
    }
    return out;
}

} // namespace faultline::core
