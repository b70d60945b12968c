// SPDX-License-Identifier: Apache-2.0
// Kubernetes and Kueue objects: events and pod status (kubectl get -o json) and Kueue Workloads (YAML or JSON).
// Objects become one observation per fact, written as "key=value" text the rule catalog matches ("pod ml/x
// container trainer terminated reason=OOMKilled exitCode=137").
#include "core/util/yaml_nodes.h"
#include "importers/kubernetes/kubernetes_parsers.h"
#include "importers/support/json_support.h"

#include <simdjson.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>

namespace faultline::importers {

using core::CivilTime;
using core::Observation;
using core::SourceKind;
using simdjson::SUCCESS;
namespace dom = simdjson::dom;
using json::stringAt;

namespace {

/// Applies an RFC 3339 time; returns false when `text` is not one.
bool setTime(FileParse& fp, Observation& o, std::string_view text)
{
    CivilTime t;
    if (text.empty() || core::parseIsoTime(text, t) == 0)
        return false;
    fp.resolve(t, o);
    return true;
}

/// Finds the next occurrence of `needle` from `from` and returns its offset (or `from` when absent), so object
/// records point at their own place in a pretty-printed JSON file.
std::size_t locate(std::string_view buf, std::string_view needle, std::size_t& from)
{
    const std::size_t at = needle.empty() ? std::string_view::npos : buf.find(needle, from);
    if (at == std::string_view::npos)
        return from;
    from = at + needle.size();
    return at;
}

std::uint64_t lineOf(std::string_view buf, std::size_t offset)
{
    return static_cast<std::uint64_t>(
               std::count(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(std::min(offset, buf.size())), '\n'))
        + 1;
}

/// Items of a v1 List, or the object itself.
std::vector<dom::element> items(dom::element doc)
{
    std::vector<dom::element> out;
    dom::array arr;
    if (doc["items"].get(arr) == SUCCESS)
        for (dom::element e : arr)
            out.push_back(e);
    else
        out.push_back(doc);
    return out;
}

} // namespace

// kubectl get events -o json: one observation per event.
void parseK8sEvents(FileParse& fp, const BundleContext& ctx)
{
    dom::parser parser;
    dom::element doc;
    if (!json::parseDocument(fp, parser, doc, "the object list"))
        return;
    std::size_t from = 0;
    for (dom::element ev : items(doc)) {
        const std::string_view name = stringAt(ev["metadata"], "name");
        const std::size_t at = locate(fp.data, name, from);
        dom::element obj;
        const bool hasObj = ev["involvedObject"].get(obj) == SUCCESS;
        const std::string_view kind = hasObj ? stringAt(obj, "kind") : std::string_view();
        const std::string_view objName = hasObj ? stringAt(obj, "name") : std::string_view();
        const std::string_view ns = hasObj ? stringAt(obj, "namespace") : std::string_view();
        std::string text = "event " + std::string(kind) + " " + (ns.empty() ? "" : std::string(ns) + "/")
            + std::string(objName) + " type=" + std::string(stringAt(ev, "type")) + " reason="
            + std::string(stringAt(ev, "reason")) + " message=" + quoteRecordValue(stringAt(ev, "message"));
        std::uint64_t count = 0;
        if (ev["count"].get(count) == SUCCESS && count > 1)
            text += " count=" + std::to_string(count);
        Observation& o = fp.add(fp.arena->store(text), lineOf(fp.data, at), at, name.size());
        // Node: the object itself when it is a Node, a pod's node (pods.json), else the kubelet that reported it.
        // A control-plane reporter ("default-scheduler-k8s-cp-02") is not a node of the workload.
        std::string_view host;
        dom::element source;
        if (ev["source"].get(source) == SUCCESS)
            host = stringAt(source, "host");
        if (host.empty() && stringAt(ev, "reportingComponent") == "kubelet")
            host = stringAt(ev, "reportingInstance");
        if (kind == "Pod")
            if (auto it = ctx.podToNode.find(std::string(objName)); it != ctx.podToNode.end())
                host = it->second;
        if (kind == "Node")
            host = objName;
        if (!host.empty())
            o.node = fp.internHost(host);
        if (!setTime(fp, o, stringAt(ev, "lastTimestamp")) && !setTime(fp, o, stringAt(ev, "eventTime"))
            && !setTime(fp, o, stringAt(ev, "firstTimestamp")))
            setTime(fp, o, stringAt(ev["metadata"], "creationTimestamp"));
    }
}

std::map<std::string, std::string> podNodesFromJson(std::string_view bytes)
{
    std::map<std::string, std::string> out;
    dom::parser parser;
    dom::element doc;
    if (parser.parse(bytes.data(), bytes.size()).get(doc) != SUCCESS)
        return out;
    for (dom::element pod : items(doc)) {
        const std::string_view name = stringAt(pod["metadata"], "name");
        const std::string_view node = stringAt(pod["spec"], "nodeName");
        if (!name.empty() && !node.empty())
            out.emplace(std::string(name), std::string(node));
    }
    return out;
}

// kubectl get pods -o json: one observation per container state that ended (terminated now or last time).
void parseK8sPods(FileParse& fp, const BundleContext&)
{
    dom::parser parser;
    dom::element doc;
    if (!json::parseDocument(fp, parser, doc, "the object list"))
        return;
    std::size_t from = 0;
    for (dom::element pod : items(doc)) {
        const std::string_view name = stringAt(pod["metadata"], "name");
        const std::string_view ns = stringAt(pod["metadata"], "namespace");
        const std::string_view node = stringAt(pod["spec"], "nodeName");
        const std::size_t at = locate(fp.data, name, from);
        const std::string who = "pod " + (ns.empty() ? "" : std::string(ns) + "/") + std::string(name);
        auto record = [&](const std::string& text, std::string_view time) {
            Observation& o = fp.add(fp.arena->store(text), lineOf(fp.data, at), at, name.size());
            if (!node.empty())
                o.node = fp.internHost(node);
            setTime(fp, o, time);
        };
        const std::string_view phase = stringAt(pod["status"], "phase");
        const std::string_view reason = stringAt(pod["status"], "reason"); // Evicted, Preempting, ...
        if (!reason.empty())
            record(who + " phase=" + std::string(phase) + " reason=" + std::string(reason)
                    + " message=" + quoteRecordValue(stringAt(pod["status"], "message")),
                stringAt(pod["status"], "startTime"));
        dom::array conditions;
        if (pod["status"]["conditions"].get(conditions) == SUCCESS)
            for (dom::element c : conditions)
                if (stringAt(c, "type") == "DisruptionTarget" && stringAt(c, "status") == "True")
                    record(who + " condition DisruptionTarget=True reason=" + std::string(stringAt(c, "reason"))
                            + " message=" + quoteRecordValue(stringAt(c, "message")),
                        stringAt(c, "lastTransitionTime"));
        dom::array statuses;
        if (pod["status"]["containerStatuses"].get(statuses) != SUCCESS)
            continue;
        for (dom::element cs : statuses) {
            const std::string_view container = stringAt(cs, "name");
            for (const char* which : { "state", "lastState" }) {
                dom::element term;
                if (cs[which]["terminated"].get(term) != SUCCESS)
                    continue;
                std::int64_t exitCode = 0;
                if (term["exitCode"].get(exitCode) != SUCCESS)
                    exitCode = -1;
                std::string text = who + " container " + std::string(container) + " terminated reason="
                    + std::string(stringAt(term, "reason")) + " exitCode=" + std::to_string(exitCode);
                std::int64_t signal = 0;
                if (term["signal"].get(signal) == SUCCESS)
                    text += " signal=" + std::to_string(signal);
                if (const std::string_view msg = stringAt(term, "message"); !msg.empty())
                    text += " message=" + quoteRecordValue(msg);
                if (std::string_view(which) == "lastState")
                    text += " (previous restart)";
                record(text, stringAt(term, "finishedAt"));
            }
        }
    }
}

// Kueue Workload (YAML or JSON): one observation per condition, the admission, and the scope facts.
void parseKueueWorkload(FileParse& fp, const BundleContext& ctx)
{
    fp.source.lines = static_cast<std::uint64_t>(std::count(fp.data.begin(), fp.data.end(), '\n')) + 1;
    std::vector<YAML::Node> docs;
    try {
        docs = YAML::LoadAll(std::string(fp.data));
    } catch (const YAML::ParserException& e) {
        fp.source.status = core::CoverageStatus::Error;
        fp.warn(
            static_cast<std::uint64_t>(e.mark.line + 1), 0, "yaml-malformed", "Workload is not valid YAML: " + e.msg);
        return;
    }
    using core::yaml::child;
    using core::yaml::isMap;
    using core::yaml::isScalar;
    using core::yaml::isSequence;
    const auto scalar = core::yaml::scalarAt;
    for (const YAML::Node& doc : docs) {
        std::vector<YAML::Node> objs;
        if (isSequence(child(doc, "items")))
            for (const auto& i : doc["items"])
                objs.push_back(i);
        else if (doc.IsMap())
            objs.push_back(doc);
        for (const YAML::Node& w : objs) {
            if (scalar(w, "kind") != "Workload")
                continue;
            const YAML::Node meta = w["metadata"];
            const std::string name = scalar(meta, "name");
            const std::string who = "workload " + scalar(meta, "namespace") + "/" + name;
            const YAML::Node status = w["status"];
            if (!isMap(status))
                continue;
            const YAML::Node conds = status["conditions"];
            std::int64_t start = INT64_MIN;
            std::int64_t end = INT64_MIN;
            std::string state;
            if (isSequence(conds))
                for (const auto& c : conds) {
                    const std::uint64_t line = static_cast<std::uint64_t>(c.Mark().line + 1);
                    const std::string text = who + " condition " + scalar(c, "type") + "=" + scalar(c, "status")
                        + " reason=" + scalar(c, "reason") + " message=" + quoteRecordValue(scalar(c, "message"));
                    Observation& o = fp.add(fp.arena->store(text), line, static_cast<std::uint64_t>(c.Mark().pos), 1);
                    o.kind = SourceKind::Scheduler;
                    setTime(fp, o, scalar(c, "lastTransitionTime"));
                    if ((scalar(c, "type") == "Admitted" || scalar(c, "type") == "QuotaReserved")
                        && scalar(c, "status") == "True")
                        start = start == INT64_MIN ? o.timeNs : std::min(start, o.timeNs);
                    if (scalar(c, "type") == "Finished" && scalar(c, "status") == "True") {
                        end = o.timeNs;
                        state = scalar(c, "reason");
                    }
                }
            // The admission (v1beta1 and v1beta2): each pod set's count and flavors, and with topology-aware
            // scheduling the hosts it was placed on, which give the allocation's nodes.
            std::vector<std::string> hosts;
            const YAML::Node admission = status["admission"];
            const YAML::Node assignments = child(admission, "podSetAssignments");
            if (isSequence(assignments))
                for (const auto& a : assignments) {
                    if (!a.IsMap())
                        continue;
                    std::string text = who + " admitted to ClusterQueue " + scalar(admission, "clusterQueue")
                        + " podSet " + scalar(a, "name") + " count=" + scalar(a, "count");
                    if (const YAML::Node flavors = a["flavors"]; isMap(flavors))
                        for (const auto& f : flavors)
                            if (f.second.IsScalar())
                                text += " flavor[" + f.first.Scalar() + "]=" + f.second.Scalar();
                    const YAML::Node topo = a["topologyAssignment"];
                    const YAML::Node levels = child(topo, "levels");
                    const YAML::Node domains = child(topo, "domains");
                    // The hostname is the last level; each domain's values run level by level.
                    const bool byHost = isSequence(levels) && levels.size() > 0 && isScalar(levels[levels.size() - 1])
                        && levels[levels.size() - 1].Scalar() == "kubernetes.io/hostname";
                    std::string placed;
                    if (byHost && isSequence(domains))
                        for (const auto& d : domains) {
                            const YAML::Node values = child(d, "values");
                            if (!isSequence(values) || values.size() == 0 || !isScalar(values[values.size() - 1]))
                                continue;
                            const std::string host = values[values.size() - 1].Scalar();
                            placed += (placed.empty() ? "" : ",") + host;
                            if (std::find(hosts.begin(), hosts.end(), host) == hosts.end())
                                hosts.push_back(host);
                        }
                    if (!placed.empty())
                        text += " nodes=" + placed;
                    Observation& o = fp.add(fp.arena->store(text), static_cast<std::uint64_t>(a.Mark().line + 1),
                        static_cast<std::uint64_t>(a.Mark().pos), 1);
                    o.kind = SourceKind::Scheduler;
                    if (start != INT64_MIN) {
                        o.timeNs = start;
                        o.quality = core::TimeQuality::Exact;
                    }
                }
            // Why earlier attempts ended: eviction counts, requeues, and nodes TAS found unhealthy.
            const YAML::Node stats = status["schedulingStats"];
            const YAML::Node evictions = child(stats, "evictions");
            if (isSequence(evictions))
                for (const auto& e : evictions) {
                    Observation& o =
                        fp.add(fp.arena->store(who + " evicted reason=" + scalar(e, "reason") + " underlyingCause="
                                   + scalar(e, "underlyingCause") + " count=" + scalar(e, "count")),
                            static_cast<std::uint64_t>(e.Mark().line + 1), static_cast<std::uint64_t>(e.Mark().pos), 1);
                    o.kind = SourceKind::Scheduler;
                }
            if (const YAML::Node unhealthy = status["unhealthyNodes"]; isSequence(unhealthy))
                for (const auto& u : unhealthy) {
                    const std::string node = scalar(u, "name");
                    if (node.empty())
                        continue;
                    Observation& o = fp.add(fp.arena->store(who + " unhealthy node " + node),
                        static_cast<std::uint64_t>(u.Mark().line + 1), static_cast<std::uint64_t>(u.Mark().pos), 1);
                    o.kind = SourceKind::Scheduler;
                    o.node = fp.internHost(node);
                }
            if (ctx.jobId.empty() || ctx.jobId == name) {
                std::string nodeList;
                for (const auto& h : hosts)
                    nodeList += (nodeList.empty() ? "" : ",") + h;
                fp.facts.nodes = nodeList;
                fp.facts.scheduler = "kueue";
                fp.facts.jobId = name;
                fp.facts.jobName = name;
                fp.facts.state = state;
                fp.facts.startNs = start;
                fp.facts.zoned = true; // RFC 3339 with Z
                fp.facts.endNs = end;
                fp.facts.origin = fp.source.path + ":" + std::to_string(w.Mark().line + 1);
            }
        }
    }
}

std::string quoteRecordValue(std::string_view s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '\n')
            out += "\\n";
        else if (c == '"')
            out += "\\\"";
        else
            out += c;
    }
    return out + "\"";
}

} // namespace faultline::importers
