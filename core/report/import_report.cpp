// SPDX-License-Identifier: Apache-2.0
#include "core/report/import_report.h"

#include "core/time/civil_time.h"
#include "core/util/json_writer.h"

namespace faultline::core {

std::string importReportToText(const EvidenceSet& ev, const std::vector<CoverageEntry>& coverage)
{
    std::string out;
    auto line = [&](const std::string& s) {
        out += s;
        out += '\n';
    };
    const Scope& sc = ev.scope;
    std::string nodes;
    for (NodeId n : sc.nodes)
        nodes += (nodes.empty() ? "" : ",") + ev.nodeName(n);
    line(ev.root + ": " + std::to_string(ev.sources.size()) + " source(s), " + std::to_string(ev.observations.size())
        + " record(s), " + std::to_string(ev.metrics.size()) + " metric series");
    line("scope: " + (sc.jobId.empty() ? std::string("no workload identified") : sc.scheduler + " job " + sc.jobId)
        + (sc.state.empty() ? "" : " " + sc.state) + (nodes.empty() ? "" : " on " + nodes) + ", "
        + formatUtc(sc.startNs) + " .. " + formatUtc(sc.endNs)
        + (sc.windowZoneAssumed ? " (scheduler times read as UTC: no tz given)" : "")
        + (sc.origin.empty() ? "" : " [" + sc.origin + "]"));
    for (const auto& d : ev.diagnostics)
        line(d.format());
    for (const auto& s : ev.sources) {
        line("");
        line(s.path + "  " + s.format + "  " + coverageStatusName(s.status));
        line("  why:     " + s.formatReason);
        line("  kind:    " + std::string(sourceKindName(s.kind))
            + (s.host == kNoNode ? "" : ", host " + ev.nodeName(s.host))
            + (s.zone.empty() ? "" : ", zone " + s.zone + (s.zoneAssumed ? " (assumed)" : "")));
        line("  records: " + std::to_string(s.records) + " of " + std::to_string(s.lines) + " line(s), "
            + std::to_string(s.bytes) + " bytes" + (s.skipped ? ", " + std::to_string(s.skipped) + " skipped" : "")
            + (s.outOfScope ? ", " + std::to_string(s.outOfScope) + " outside the workload window" : ""));
        line("  time:    " + formatUtc(s.firstTimeNs) + " .. " + formatUtc(s.lastTimeNs));
        for (const auto& w : s.warnings)
            line("  " + w.format());
    }
    if (!ev.ranks.empty()) {
        line("");
        line("ranks (" + std::to_string(ev.ranks.size()) + ", from NCCL init lines):");
        for (const auto& r : ev.ranks)
            line("  rank " + std::to_string(r.rank) + " -> " + ev.nodeName(r.node)
                + (r.gpu.empty() ? std::string() : " GPU " + r.gpu)
                + (r.cudaDevice >= 0 ? " (cudaDev " + std::to_string(r.cudaDevice) + ")" : std::string())
                + (r.pid >= 0 ? " pid " + std::to_string(r.pid) : std::string()) + "  "
                + ev.sources[r.where.source].path + ":" + std::to_string(r.where.line));
    }
    line("");
    line("coverage:");
    for (const auto& c : coverage)
        line("  " + c.kind + (c.node.empty() ? "" : " " + c.node) + ": " + coverageStatusName(c.status)
            + (c.reason.empty() ? "" : " — " + c.reason));
    return out;
}

void writeCoverageFields(JsonWriter& w, const CoverageEntry& c)
{
    w.field("kind", c.kind);
    w.key("node");
    if (c.node.empty())
        w.null();
    else
        w.value(c.node);
    w.field("status", coverageStatusName(c.status)).field("reason", c.reason).field("records", c.records);
}

void writeSourceFields(JsonWriter& w, const EvidenceSet& ev, const Source& s)
{
    w.field("path", s.path).field("format", s.format).field("format_reason", s.formatReason);
    w.field("kind", sourceKindName(s.kind));
    w.key("host");
    if (s.host == kNoNode)
        w.null();
    else
        w.value(ev.nodeName(s.host));
    w.field("zone", s.zone).field("zone_assumed", s.zoneAssumed).field("status", coverageStatusName(s.status));
    w.field("bytes", s.bytes).field("lines", s.lines).field("records", s.records).field("skipped", s.skipped);
}

std::string importReportToJson(const EvidenceSet& ev, const std::vector<CoverageEntry>& coverage)
{
    JsonWriter w;
    w.beginObject();
    w.field("schema", "faultline.import-report/1");
    w.field("bundle", ev.root);
    w.key("scope").beginObject();
    w.field("scheduler", ev.scope.scheduler).field("job_id", ev.scope.jobId).field("state", ev.scope.state);
    w.key("nodes").beginArray();
    for (NodeId n : ev.scope.nodes)
        w.value(ev.nodeName(n));
    w.endArray();
    w.field("start", formatUtc(ev.scope.startNs)).field("end", formatUtc(ev.scope.endNs));
    w.field("window_zone_assumed", ev.scope.windowZoneAssumed).field("origin", ev.scope.origin);
    w.endObject();
    w.key("sources").beginArray();
    for (const auto& s : ev.sources) {
        w.beginObject();
        writeSourceFields(w, ev, s);
        w.field("out_of_scope", s.outOfScope);
        w.field("first", formatUtc(s.firstTimeNs)).field("last", formatUtc(s.lastTimeNs));
        w.key("warnings").beginArray();
        for (const auto& d : s.warnings) {
            w.beginObject();
            w.field("code", d.code)
                .field("message", d.message)
                .field("line", d.where.line)
                .field("offset", d.where.byteOffset);
            w.endObject();
        }
        w.endArray();
        w.endObject();
    }
    w.endArray();
    w.key("ranks").beginArray();
    for (const auto& r : ev.ranks) {
        w.beginObject();
        w.field("rank", r.rank).field("node", ev.nodeName(r.node)).field("gpu", r.gpu);
        w.field("cuda_device", r.cudaDevice).field("pid", r.pid);
        w.field("at", ev.sources[r.where.source].path + ":" + std::to_string(r.where.line));
        w.endObject();
    }
    w.endArray();
    w.key("coverage").beginArray();
    for (const auto& c : coverage) {
        w.beginObject();
        writeCoverageFields(w, c);
        w.endObject();
    }
    w.endArray();
    w.key("diagnostics").beginArray();
    for (const auto& d : ev.diagnostics)
        w.value(d.format());
    w.endArray();
    w.endObject();
    return w.str() + "\n";
}

} // namespace faultline::core
