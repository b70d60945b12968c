// SPDX-License-Identifier: Apache-2.0
#include "core/report/verdict_report.h"

#include "core/report/import_report.h"
#include "core/time/civil_time.h"
#include "core/util/json_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace faultline::core {
namespace {

std::string nodeName(const Verdict& v, NodeId id)
{
    return id == kNoNode ? std::string() : v.nodes.name(id);
}

void writeEvent(JsonWriter& w, const Verdict& v, const Event& e, const EvidenceSet& ev)
{
    w.beginObject();
    w.field("type", e.type);
    w.field("label", e.label);
    w.field("role", roleName(e.role));
    w.field("domain", e.domain);
    w.field("subdomain", e.subdomain);
    w.field("severity", e.severity);
    w.key("node");
    if (e.node == kNoNode)
        w.null();
    else
        w.value(nodeName(v, e.node));
    w.key("rank");
    if (e.rank < 0)
        w.null();
    else
        w.value(e.rank);
    w.key("gpu");
    if (e.gpu.empty())
        w.null();
    else
        w.value(e.gpu);
    w.field("time", formatUtc(e.timeNs));
    w.field("time_ns", e.timeNs == INT64_MIN ? std::int64_t(0) : e.timeNs);
    w.field("time_precision_ns", e.precisionNs);
    w.field("time_quality", timeQualityName(e.quality));
    w.field("rule", e.ruleId);
    w.key("fields").beginObject();
    for (const auto& [k, val] : e.fields)
        w.field(k, val);
    w.endObject();
    w.key("provenance").beginArray();
    for (const auto& p : e.provenance) {
        w.beginObject();
        w.field("file", ev.sources[p.source].path);
        w.field("line", p.line);
        w.field("offset", p.byteOffset);
        w.field("length", static_cast<std::uint64_t>(p.length));
        w.endObject();
    }
    w.endArray();
    w.field("text", e.excerpt);
    w.endObject();
}

void writeStrings(JsonWriter& w, const char* key, const std::vector<std::string>& list)
{
    w.key(key).beginArray();
    for (const auto& s : list)
        w.value(s);
    w.endArray();
}

void writeCandidate(JsonWriter& w, const HypothesisCandidate& c)
{
    w.beginObject();
    w.field("id", c.id).field("domain", c.domain).field("subdomain", c.subdomain).field("label", c.label);
    w.field("support", c.support);
    writeStrings(w, "nodes", c.nodes);
    w.key("ranks").beginArray();
    for (auto r : c.ranks)
        w.value(r);
    w.endArray();
    w.key("evidence").beginArray();
    for (const auto& e : c.evidence) {
        w.beginObject();
        w.field("type", e.type).field("label", e.label).field("count", static_cast<std::uint64_t>(e.count));
        w.field("weight", e.weight).field("why", e.why);
        w.endObject();
    }
    w.endArray();
    w.endObject();
}

/// null for a verdict with a cause; otherwise the ranked candidates, and what would confirm the leading one.
void writeHypotheses(JsonWriter& w, const Verdict& v)
{
    w.key("hypothesis");
    if (v.hasCause) {
        w.null();
        return;
    }
    const Hypotheses& h = v.hypotheses;
    w.beginObject();
    w.field("leading", h.leading);
    w.field("confirmed", false);
    w.field("basis", h.basis);
    w.key("candidates").beginArray();
    for (const auto& c : h.candidates)
        writeCandidate(w, c);
    w.endArray();
    w.key("would_confirm").beginArray();
    for (const auto& c : h.confirm) {
        w.beginObject();
        w.field("kind", c.kind).field("node", c.node).field("what", c.what).field("look_for", c.lookFor);
        w.field("status", c.status);
        w.endObject();
    }
    w.endArray();
    w.endObject();
}

} // namespace

std::string formatRankList(const std::vector<std::int32_t>& ranks)
{
    std::string out;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        if (!out.empty())
            out += ',';
        out += std::to_string(ranks[i]);
        if (j > i)
            out += '-' + std::to_string(ranks[j]);
        i = j + 1;
    }
    return out;
}

std::string locationOf(const Provenance& p, const EvidenceSet& evidence)
{
    return evidence.sources[p.source].path + ":" + std::to_string(p.line);
}

std::string verdictToJson(const Verdict& v, const EvidenceSet& ev)
{
    JsonWriter w;
    w.beginObject();
    w.field("schema", "faultline.verdict/2");
    w.field("bundle", ev.root);
    w.key("engine").beginObject().field("version", v.engineVersion).endObject();
    w.key("catalog").beginObject();
    w.field("name", v.catalogName).field("version", v.catalogVersion).field("hash", v.catalogHash);
    w.endObject();
    w.key("scope").beginObject();
    w.field("scheduler", v.scope.scheduler);
    w.field("job_id", v.scope.jobId);
    w.field("job_name", v.scope.jobName);
    w.field("state", v.scope.state);
    w.key("nodes").beginArray();
    for (NodeId n : v.scope.nodes)
        w.value(v.nodes.name(n));
    w.endArray();
    w.field("ranks_per_node", v.scope.ranksPerNode);
    w.field("start", formatUtc(v.scope.startNs));
    w.field("end", formatUtc(v.scope.endNs));
    w.field("origin", v.scope.origin);
    w.endObject();
    w.field("outcome", v.outcome);
    w.field("evidence_status", v.evidenceStatus);
    w.field("domain", v.domain);
    w.field("subdomain", v.subdomain);
    w.field("summary", v.summary);
    w.field("action", v.action);
    w.key("confidence").beginObject();
    w.field("value", v.confidence);
    w.field("level", v.confidenceLevel);
    writeStrings(w, "notes", v.confidenceNotes);
    w.endObject();
    w.key("cause");
    if (v.hasCause)
        writeEvent(w, v, v.events[v.cause], ev);
    else
        w.null();
    writeStrings(w, "blamed_nodes", v.blamedNodes);
    writeStrings(w, "origin_nodes", v.originNodes);
    writeStrings(w, "symptom_nodes", v.symptomNodes);
    w.key("symptoms").beginArray();
    for (const auto& g : v.symptoms) {
        w.beginObject();
        w.field("type", g.type).field("label", g.label).field("count", static_cast<std::uint64_t>(g.count));
        writeStrings(w, "nodes", g.nodes);
        w.key("ranks").beginArray();
        for (auto r : g.ranks)
            w.value(r);
        w.endArray();
        w.field("first", formatUtc(g.firstNs)).field("last", formatUtc(g.lastNs));
        w.field("correlator", g.correlator);
        w.endObject();
    }
    w.endArray();
    w.key("alternatives").beginArray();
    for (const auto& a : v.alternatives) {
        w.beginObject();
        w.field("reason", a.reason);
        w.key("event");
        writeEvent(w, v, v.events[a.event], ev);
        w.endObject();
    }
    w.endArray();
    w.key("evidence").beginArray();
    for (const auto& t : v.trail) {
        w.beginObject();
        w.field("why", t.why);
        w.key("event");
        writeEvent(w, v, v.events[t.event], ev);
        w.endObject();
    }
    w.endArray();
    writeStrings(w, "inconclusive_reasons", v.inconclusiveReasons);
    writeHypotheses(w, v);
    w.key("clock_skew").beginArray();
    for (const auto& k : v.clockSkew) {
        w.beginObject();
        w.field("node", k.node).field("offset_ns", k.offsetNs).field("samples", static_cast<std::uint64_t>(k.samples));
        w.field("basis", k.basis);
        w.endObject();
    }
    w.endArray();
    w.key("coverage").beginArray();
    for (const auto& c : v.coverage) {
        w.beginObject();
        writeCoverageFields(w, c);
        writeStrings(w, "files", c.files);
        w.endObject();
    }
    w.endArray();
    w.key("sources").beginArray();
    for (const auto& s : ev.sources) {
        w.beginObject();
        writeSourceFields(w, ev, s);
        w.field("first", formatUtc(s.firstTimeNs)).field("last", formatUtc(s.lastTimeNs));
        w.key("warnings").beginArray();
        for (const auto& d : s.warnings)
            w.value(d.format());
        w.endArray();
        w.endObject();
    }
    w.endArray();
    w.key("diagnostics").beginArray();
    for (const auto& d : ev.diagnostics)
        w.value(d.format());
    w.endArray();
    w.key("stats").beginObject();
    w.field("observations", static_cast<std::uint64_t>(ev.observations.size()));
    w.field("metric_series", static_cast<std::uint64_t>(ev.metrics.size()));
    w.field("events", static_cast<std::uint64_t>(v.events.size()));
    w.field("filtered_events", static_cast<std::uint64_t>(v.filteredEvents));
    w.endObject();
    w.endObject();
    return w.str() + "\n";
}

std::string verdictToText(const Verdict& v, const EvidenceSet& ev, const TextOptions& o)
{
    const char* bold = o.color ? "\033[1m" : "";
    const char* red = o.color ? "\033[1;31m" : "";
    const char* yellow = o.color ? "\033[33m" : "";
    const char* cyan = o.color ? "\033[36m" : "";
    const char* reset = o.color ? "\033[0m" : "";
    std::string out;
    auto line = [&](const std::string& s) {
        out += s;
        out += '\n';
    };
    auto where = [&](const Event& e) {
        std::string s;
        for (std::size_t i = 0; i < e.provenance.size(); ++i) {
            if (i == 1)
                s += " (also ";
            else if (i > 1)
                s += ", ";
            s += locationOf(e.provenance[i], ev);
        }
        if (e.provenance.size() > 1)
            s += ")";
        return s;
    };
    // Where an event happened: its node, GPU and rank. A rank whose node no evidence names is said so; "job-level"
    // is kept for events that belong to no node and no rank (the scheduler's view of the job).
    auto who = [&](const Event& e) {
        std::string s;
        if (e.node != kNoNode)
            s = v.nodes.name(e.node);
        else if (e.rank < 0)
            s = "job-level";
        if (!e.gpu.empty())
            s += (s.empty() ? "" : " ") + std::string("gpu ") + e.gpu;
        if (e.rank >= 0)
            s += (s.empty() ? "" : " ") + std::string("rank ") + std::to_string(e.rank);
        if (e.node == kNoNode && e.rank >= 0)
            s += " (node unknown)";
        return s;
    };

    std::string head = ev.root;
    if (!v.scope.jobId.empty())
        head += " (job " + v.scope.jobId + (v.scope.state.empty() ? "" : " " + v.scope.state) + ")";
    const char* colour = v.outcome == "inconclusive" ? yellow : red;
    const bool hypothesis = !v.hasCause && v.hypotheses.leading;
    auto pct = [](double x) { return std::to_string(static_cast<int>(std::lround(x * 100))) + "%"; };
    line(std::string(bold) + head + ": " + colour + v.outcome + reset + bold
        + (hypothesis ? std::string(" — leading hypothesis, not confirmed:") : std::string())
        + (v.domain.empty() || v.domain == "unknown" ? "" : " [" + domainPath(v.domain, v.subdomain) + "]") + reset
        + "  confidence " + v.confidenceLevel + " (" + std::to_string(static_cast<int>(v.confidence * 100)) + "%)");
    if (hypothesis) {
        const HypothesisCandidate& h = v.hypotheses.candidates.front();
        line(std::string(bold) + "hypothesis: " + reset + h.label + "  {" + h.id + "}, support " + pct(h.support)
            + " — NOT CONFIRMED: no initiating event in the evidence");
        std::string at = h.nodes.empty() ? std::string() : "node(s) " + [&] {
            std::string s;
            for (const auto& n : h.nodes)
                s += (s.empty() ? "" : ", ") + n;
            return s;
        }();
        if (!h.ranks.empty())
            at += (at.empty() ? "" : " ") + std::string("rank(s) ") + formatRankList(h.ranks);
        if (!at.empty())
            line("  points at: " + at);
        for (const auto& e : h.evidence)
            line("  from: " + std::to_string(e.count) + "x " + e.type + " (" + e.label + "), weight " + pct(e.weight)
                + ": " + e.why);
        line("  basis: " + v.hypotheses.basis);
        if (!v.hypotheses.confirm.empty()) {
            line(std::string(bold) + "would confirm it:" + reset);
            for (const auto& c : v.hypotheses.confirm)
                line("  - " + c.what
                    + (c.status == "missing" ? " (not in the bundle)" : " (in the bundle, shows nothing of it)") + ": "
                    + c.lookFor);
        }
    }
    if (!v.hasCause && v.hypotheses.candidates.size() > (hypothesis ? 1u : 0u)) {
        line(std::string(bold) + (hypothesis ? "rival hypotheses:" : "hypotheses (none leads):") + reset);
        if (!hypothesis)
            line("  " + v.hypotheses.basis);
        for (std::size_t i = hypothesis ? 1 : 0; i < v.hypotheses.candidates.size(); ++i) {
            const HypothesisCandidate& c = v.hypotheses.candidates[i];
            std::string from;
            for (const auto& e : c.evidence)
                from += (from.empty() ? "" : ", ") + e.type + " " + pct(e.weight);
            line("  - " + domainPath(c.domain, c.subdomain) + ": " + c.label + ", support " + pct(c.support) + " ("
                + from + ")");
        }
    }
    if (v.hasCause) {
        const Event& c = v.events[v.cause];
        line(std::string(bold) + "cause: " + reset + c.label + "  {" + c.type + "}");
        line("  " + who(c) + " at " + formatUtc(c.timeNs) + " (" + timeQualityName(c.quality) + ")");
        line(std::string("  ") + cyan + "--> " + where(c) + reset);
        // One "|" line per line of the record (a traceback is one record).
        for (std::size_t start = 0; start <= c.excerpt.size();) {
            const auto nl = c.excerpt.find('\n', start);
            line("   | "
                + escapeForDisplay(std::string_view(c.excerpt).substr(
                    start, nl == std::string::npos ? std::string::npos : nl - start)));
            if (nl == std::string::npos)
                break;
            start = nl + 1;
        }
        for (const auto& [k, val] : c.fields)
            if (k == "unit" || k == "link" || k == "severity_text" || k == "investigatory" || k == "immediate")
                line("   = " + k + ": " + val);
    } else {
        line(std::string(bold) + "cause: " + reset + "none found");
        for (const auto& r : v.inconclusiveReasons)
            line("  - " + r);
    }
    if (!v.action.empty())
        line(std::string(bold) + "action: " + reset + v.action);
    auto list = [](const std::vector<std::string>& l) {
        std::string s;
        for (const auto& x : l)
            s += (s.empty() ? "" : ", ") + x;
        return s.empty() ? std::string("none") : s;
    };
    line(std::string(bold) + "blamed nodes: " + reset + list(v.blamedNodes));
    if (v.originNodes != v.blamedNodes)
        line(std::string(bold) + "origin nodes: " + reset + list(v.originNodes));
    line(std::string(bold) + "symptom nodes: " + reset + list(v.symptomNodes));
    if (!v.symptoms.empty()) {
        line(std::string(bold) + "symptoms:" + reset);
        for (const auto& g : v.symptoms) {
            // "on node-04 ranks 24-31", "on ranks 24-31" when no evidence names their nodes, never "on none".
            std::string s = "  " + std::to_string(g.count) + "x " + g.type;
            if (!g.nodes.empty())
                s += " on " + list(g.nodes);
            if (!g.ranks.empty())
                s += (g.nodes.empty() ? " on ranks " : " ranks ") + formatRankList(g.ranks);
            if (g.nodes.empty() && g.ranks.empty())
                s += " (node unknown)";
            // A time inferred from neighbours far apart says little: the delay is not stated as if it were known.
            const std::int64_t bracket = inferredSpan(v, g);
            const std::int64_t causeNs = v.hasCause ? v.events[v.cause].timeNs : INT64_MIN;
            if (g.firstNs == INT64_MIN)
                s += ", time not in the evidence";
            else if (bracket > kDelayKnownWithinNs)
                s += ", time known only within " + formatDelta(bracket).substr(1)
                    + " (no stamp on its lines): delay after the cause unknown";
            else if (causeNs != INT64_MIN)
                s += ", " + formatDelta(g.firstNs - causeNs) + " .. " + formatDelta(g.lastNs - causeNs)
                    + " after the cause";
            line(s);
        }
    }
    line(std::string(bold) + "evidence trail:" + reset);
    std::size_t shown = 0;
    for (const auto& t : v.trail) {
        if (shown++ >= o.maxTrail) {
            line("  ... " + std::to_string(v.trail.size() - o.maxTrail) + " more (use --json for all)");
            break;
        }
        const Event& e = v.events[t.event];
        line("  " + formatUtc(e.timeNs) + "  " + who(e) + "  " + e.label);
        line(std::string("      ") + cyan + "--> " + where(e) + reset + "  [" + t.why + "]");
    }
    if (!v.alternatives.empty()) {
        line(std::string(bold) + "alternatives (why they lost):" + reset);
        int k = 0;
        for (const auto& a : v.alternatives) {
            const Event& e = v.events[a.event];
            line("  " + std::to_string(++k) + ". " + e.label + " — " + who(e) + " at " + formatUtc(e.timeNs));
            line("     " + a.reason);
            line(std::string("     ") + cyan + "--> " + where(e) + reset);
        }
    }
    for (const auto& k : v.clockSkew)
        if (std::llabs(k.offsetNs) >= 50 * kNsPerMs)
            line(std::string(bold) + "clock skew: " + reset + k.node + " runs " + formatDelta(k.offsetNs)
                + " against the other nodes (from " + k.basis + "); times are compared on aligned clocks");
    line(std::string(bold) + "coverage:" + reset);
    for (const auto& c : v.coverage) {
        std::string s = "  " + c.kind + (c.node.empty() ? "" : " " + c.node) + ": " + coverageStatusName(c.status);
        if (c.status == CoverageStatus::Ok)
            s += " (" + std::to_string(c.files.size()) + " file(s), " + std::to_string(c.records) + " records)";
        if (!c.reason.empty())
            s += " — " + c.reason;
        line(s);
    }
    std::size_t warnings = 0;
    for (const auto& s : ev.sources)
        warnings += s.warnings.size();
    if (warnings + ev.diagnostics.size() > 0)
        line(std::to_string(warnings + ev.diagnostics.size()) + " import warning(s); run with --json for the list");
    for (const auto& note : v.confidenceNotes)
        line(std::string("note: ") + note);
    line("catalog " + v.catalogName + " " + v.catalogVersion + " (sha256 " + v.catalogHash.substr(0, 12) + "), engine "
        + v.engineVersion);
    return out;
}

} // namespace faultline::core
