// SPDX-License-Identifier: Apache-2.0
#include "core/model/annotations.h"

#include "core/model/evidence.h"
#include "core/model/verdict.h"
#include "core/time/civil_time.h"

#include <algorithm>
#include <unordered_map>

namespace faultline::core {

namespace {

bool isEvent(const Annotation& a)
{
    return a.target == "event";
}

std::string where(const Annotation& a)
{
    return a.path + ":" + std::to_string(a.line);
}

std::string quoted(const std::string& s)
{
    return "'" + s + "'";
}

/// The rules of `events`, quoted and joined ("'a', 'b'").
std::string ruleList(const std::vector<AnnotatedEvent>& events)
{
    std::vector<std::string> rules;
    for (const auto& e : events)
        if (std::find(rules.begin(), rules.end(), e.ruleId) == rules.end())
            rules.push_back(e.ruleId);
    std::string out;
    for (const auto& r : rules)
        out += (out.empty() ? "" : ", ") + quoted(r);
    return out;
}

AnnotationResolution resolveEvent(const Annotation& a, const AnnotationScope& scope)
{
    AnnotationResolution r;
    r.annotation = a.id;
    r.timeNs = a.fromNs;
    r.node = a.node;
    const std::string lead = "no longer matched in " + scope.name + ": ";
    auto carry = [&](const AnnotatedEvent& e) {
        r.matched = true;
        r.eventIndex = e.index;
        r.timeNs = e.timeNs;
        r.node = e.node;
    };
    if (a.ruleId.empty()) {
        // Written without the event's rule (its run was gone when the case was migrated): only its own run has it.
        if (a.runId == scope.run && a.runId > 0)
            if (const auto it = scope.byIndex.find(a.eventIdx); it != scope.byIndex.end()) {
                carry(it->second);
                return r;
            }
        r.matched = false;
        r.reason = lead + "the annotation names event " + std::to_string(a.eventIdx) + " of run "
            + std::to_string(a.runId) + " but not its rule, so it is found in that run only";
        return r;
    }
    const std::vector<AnnotatedEvent>* here = nullptr;
    if (a.byteOffset >= 0)
        if (const auto it = scope.atRecord.find({ a.path, static_cast<std::uint64_t>(a.byteOffset) });
            it != scope.atRecord.end())
            here = &it->second;
    if (here) {
        // The same rule on the same record; of several (a rule firing twice on one record), the one on the line.
        const AnnotatedEvent* best = nullptr;
        for (const auto& e : *here)
            if (e.ruleId == a.ruleId && (!best || (e.line == a.line && best->line != a.line)))
                best = &e;
        if (best) {
            carry(*best);
            return r;
        }
    }
    r.matched = false;
    const auto rule = scope.eventsOfRule.find(a.ruleId);
    const std::size_t ofRule = rule == scope.eventsOfRule.end() ? 0 : rule->second;
    if (ofRule == 0)
        r.reason = lead + "rule " + quoted(a.ruleId) + " made no event (it was removed, disabled or changed)";
    else
        r.reason = lead + "rule " + quoted(a.ruleId) + " made no event from " + where(a) + " (its "
            + std::to_string(ofRule) + " event" + (ofRule == 1 ? "" : "s") + " come from other records)";
    if (here && !here->empty())
        r.reason += "; that record now gives " + ruleList(*here);
    return r;
}

} // namespace

AnnotationScope annotationScope(const std::vector<Annotation>& annotations, const Verdict& verdict,
    const EvidenceSet& evidence, std::string name, std::int64_t run)
{
    AnnotationScope scope;
    scope.name = std::move(name);
    scope.run = run;
    // The records and rules the annotations name, by source index and byte offset.
    std::unordered_map<std::string, std::vector<std::uint32_t>> sourcesOfPath;
    for (std::uint32_t s = 0; s < evidence.sources.size(); ++s)
        sourcesOfPath[evidence.sources[s].path].push_back(s);
    std::map<std::pair<std::uint32_t, std::uint64_t>, std::pair<std::string, std::uint64_t>> wanted;
    std::set<std::pair<std::uint32_t, std::uint64_t>> wantedLines;
    std::set<std::int64_t> wantedIndex;
    bool anyLine = false;
    for (const auto& a : annotations) {
        if (isEvent(a)) {
            if (!a.ruleId.empty())
                scope.eventsOfRule.emplace(a.ruleId, 0);
            else if (a.runId == run && run > 0)
                wantedIndex.insert(a.eventIdx);
            if (a.byteOffset >= 0)
                if (const auto it = sourcesOfPath.find(a.path); it != sourcesOfPath.end())
                    for (const auto s : it->second)
                        wanted[{ s, static_cast<std::uint64_t>(a.byteOffset) }] = { a.path,
                            static_cast<std::uint64_t>(a.byteOffset) };
        } else if (a.target == "line") {
            if (const auto it = sourcesOfPath.find(a.path); it != sourcesOfPath.end())
                for (const auto s : it->second) {
                    wantedLines.insert({ s, a.line });
                    anyLine = true;
                }
        }
    }
    auto nodeOf = [&](NodeId id) { return id == kNoNode ? std::string() : verdict.nodes.name(id); };
    for (std::size_t i = 0; i < verdict.events.size(); ++i) {
        const Event& e = verdict.events[i];
        const auto idx = static_cast<std::int64_t>(i);
        if (!scope.eventsOfRule.empty())
            if (const auto it = scope.eventsOfRule.find(e.ruleId); it != scope.eventsOfRule.end())
                ++it->second;
        const bool byIndex = wantedIndex.count(idx) != 0;
        if (e.provenance.empty() && !byIndex)
            continue;
        const Provenance* p = e.provenance.empty() ? nullptr : &e.provenance.front();
        const auto w = p ? wanted.find({ p->source, p->byteOffset }) : wanted.end();
        if (w == wanted.end() && !byIndex)
            continue;
        AnnotatedEvent ae { idx, e.ruleId, e.type, nodeOf(e.node), e.timeNs, p ? p->line : 0 };
        if (byIndex)
            scope.byIndex[idx] = ae;
        if (w != wanted.end())
            scope.atRecord[w->second].push_back(std::move(ae));
    }
    // Every host of the evidence and every host a record names has a lane.
    for (NodeId n = 0; n < verdict.nodes.size(); ++n)
        scope.nodes.insert(verdict.nodes.name(n));
    for (NodeId n = 0; n < evidence.nodes.size(); ++n)
        scope.nodes.insert(evidence.nodes.name(n));
    for (const auto& g : verdict.symptoms)
        scope.symptoms.emplace(g.type, g.events.empty() ? -1 : static_cast<std::int64_t>(g.events.front()));
    if (anyLine)
        for (const auto& o : evidence.observations)
            if (wantedLines.count({ o.where.source, o.where.line }))
                scope.lines.emplace(std::make_pair(evidence.sources[o.where.source].path, o.where.line),
                    std::make_pair(o.timeNs, evidence.nodeName(o.node)));
    return scope;
}

std::vector<AnnotationResolution> resolveAnnotations(
    const std::vector<Annotation>& annotations, const AnnotationScope& scope)
{
    std::vector<AnnotationResolution> out;
    out.reserve(annotations.size());
    for (const auto& a : annotations) {
        if (isEvent(a)) {
            out.push_back(resolveEvent(a, scope));
            continue;
        }
        AnnotationResolution r;
        r.annotation = a.id;
        r.node = a.node;
        if (a.target == "symptom") {
            const auto it = scope.symptoms.find(a.eventType);
            if (it == scope.symptoms.end()) {
                r.matched = false;
                r.reason = "no longer matched in " + scope.name + ": it has no symptom " + quoted(a.eventType);
            } else {
                r.eventIndex = it->second;
            }
        } else if (a.target == "lane") {
            if (!scope.nodes.count(a.node)) {
                r.matched = false;
                r.reason = "no longer matched in " + scope.name + ": it has no lane for node " + quoted(a.node);
            }
        } else if (a.target == "range") {
            r.timeNs = a.fromNs;
            r.toNs = a.toNs;
        } else if (a.target == "line") {
            if (const auto it = scope.lines.find({ a.path, a.line }); it != scope.lines.end()) {
                r.timeNs = it->second.first;
                r.node = it->second.second;
            }
        }
        out.push_back(std::move(r));
    }
    return out;
}

bool sameTarget(const Annotation& a, const Annotation& b)
{
    if (a.target != b.target)
        return false;
    if (a.target == "event") {
        if (a.ruleId.empty() || b.ruleId.empty())
            return a.runId == b.runId && a.eventIdx == b.eventIdx;
        return a.ruleId == b.ruleId && a.path == b.path && a.byteOffset == b.byteOffset;
    }
    if (a.target == "line")
        return a.path == b.path && a.line == b.line;
    if (a.target == "symptom")
        return a.eventType == b.eventType;
    if (a.target == "lane")
        return a.node == b.node;
    if (a.target == "range")
        return a.fromNs == b.fromNs && a.toNs == b.toNs && a.node == b.node;
    return true; // the case
}

std::string describeTarget(const Annotation& a)
{
    if (a.target == "event")
        return "event " + (a.ruleId.empty() ? std::to_string(a.runId) + ":" + std::to_string(a.eventIdx) : a.ruleId)
            + " at " + where(a);
    if (a.target == "line")
        return where(a);
    if (a.target == "symptom")
        return "symptom " + a.eventType;
    if (a.target == "lane")
        return "lane " + a.node;
    if (a.target == "range")
        return "range " + formatUtc(a.fromNs) + " – " + formatUtc(a.toNs) + (a.node.empty() ? "" : " on " + a.node);
    return "the case";
}

} // namespace faultline::core
