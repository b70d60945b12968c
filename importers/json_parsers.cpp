// SPDX-License-Identifier: Apache-2.0
// JSON formats, read with simdjson: journalctl -o json (§6.1), logcli --output=jsonl (§2.2), Loki query_range
// (§2.1) and Prometheus query_range / promql-snapshot envelopes (§4.1, §4.5).
#include "importers/support/json_support.h"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <tuple>

namespace faultline::importers {

using core::kNsPerSec;
using core::Observation;
using core::SourceKind;
using core::TimeQuality;
using simdjson::SUCCESS;
namespace dom = simdjson::dom;
using json::getString;
using json::LineCounter;
const auto jsonError = json::errorText;

namespace {

std::int64_t parseInt64(std::string_view s, bool& ok)
{
    std::int64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    ok = ec == std::errc() && p == s.data() + s.size();
    return v;
}

/// A Loki stream's or record's labels as views into `labels` (valid while its document is), then the manifest's
/// common labels (logcli drops the labels shared by every stream), which the record's own override.
void collectLabels(dom::object labels, bool present, const std::map<std::string, std::string>& common, LokiLabels& out)
{
    out.clear();
    if (present)
        for (auto [k, v] : labels) {
            std::string_view val;
            if (v.get(val) == SUCCESS)
                out.emplace_back(k, val);
        }
    for (const auto& [k, v] : common)
        out.emplace_back(k, v);
}

/// Restores file order (byte offset) of the observations, keeping the indices that refer to them.
void sortByOffset(FileParse& fp)
{
    std::vector<std::size_t> order(fp.observations.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return fp.observations[a].where.byteOffset < fp.observations[b].where.byteOffset;
    });
    std::vector<std::size_t> newIndex(order.size());
    std::vector<Observation> sorted;
    sorted.reserve(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        newIndex[order[i]] = i;
        sorted.push_back(fp.observations[order[i]]);
    }
    fp.observations = std::move(sorted);
    for (auto& p : fp.pendingPidRank)
        p.first = newIndex[p.first];
    for (auto& p : fp.agentHostNodes)
        p.first = newIndex[p.first];
}

} // namespace

void parseJournalJson(FileParse& fp, const BundleContext&)
{
    dom::parser parser;
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (line.empty())
            return true;
        dom::element doc;
        if (auto err = parser.parse(line.data(), line.size()).get(doc); err != SUCCESS) {
            fp.warn(no, off, "json-malformed", "journal record is not valid JSON (" + jsonError(err) + "); skipped");
            return true;
        }
        // A valid UTF-8 MESSAGE is stored straight into the arena; only the byte-array form needs a buffer.
        std::string_view sv;
        std::string_view stored;
        dom::array bytes;
        if (getString(doc, "MESSAGE", sv)) {
            stored = fp.arena->store(sv);
        } else if (doc["MESSAGE"].get(bytes) == SUCCESS) {
            // journald stores non-UTF-8 messages as an array of byte values.
            std::string message;
            for (auto b : bytes) {
                std::uint64_t v = 0;
                if (b.get(v) == SUCCESS)
                    message += static_cast<char>(static_cast<unsigned char>(v));
            }
            stored = fp.arena->store(message);
        } else {
            fp.warn(no, off, "journal-no-message", "journal record has no MESSAGE; skipped");
            return true;
        }
        Observation& o = fp.add(stored, no, off, line.size());
        if (getString(doc, "_HOSTNAME", sv) && !sv.empty())
            o.node = fp.internHost(sv);
        std::string_view ident;
        getString(doc, "SYSLOG_IDENTIFIER", ident);
        std::string_view transport;
        getString(doc, "_TRANSPORT", transport);
        o.kind = transport == "kernel" ? SourceKind::Kernel : kindForIdentifier(ident);
        bool ok = false;
        if (getString(doc, "__REALTIME_TIMESTAMP", sv)) {
            const std::int64_t us = parseInt64(sv, ok);
            if (ok) {
                o.timeNs = us * 1000;
                o.precisionNs = 1000;
                o.quality = TimeQuality::Exact;
            }
        }
        if (!ok)
            fp.warn(no, off, "journal-no-time", "journal record has no valid __REALTIME_TIMESTAMP; time is inferred");
        return true;
    });
}

bool journalBootAnchor(std::string_view bytes, std::string& host, std::int64_t& bootNs)
{
    dom::parser parser;
    bool truncated = false;
    bool found = false;
    forEachLine(bytes.substr(0, 1 << 20), truncated, [&](std::string_view line, std::uint64_t no, std::uint64_t) {
        dom::element doc;
        std::string_view rt;
        std::string_view mono;
        std::string_view h;
        bool okRt = false;
        bool okMono = false;
        if (parser.parse(line.data(), line.size()).get(doc) == SUCCESS && getString(doc, "__REALTIME_TIMESTAMP", rt)
            && getString(doc, "__MONOTONIC_TIMESTAMP", mono)) {
            const std::int64_t realUs = parseInt64(rt, okRt);
            const std::int64_t monoUs = parseInt64(mono, okMono);
            if (okRt && okMono && realUs > monoUs) {
                bootNs = (realUs - monoUs) * 1000;
                if (getString(doc, "_HOSTNAME", h))
                    host.assign(h);
                found = true;
                return false;
            }
        }
        return no < 64;
    });
    return found;
}

void parseLogcliJsonl(FileParse& fp, const BundleContext& ctx)
{
    dom::parser parser;
    AppLogLineReader app(fp, ctx);
    LokiLabels labels;
    // Loki streams of kernel logs vs job logs: decided by labels (per-line labels, then manifest common labels).
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (line.empty())
            return true;
        if (line.find("Common labels:") != std::string_view::npos && line.front() != '{')
            return true; // logcli's stderr note, captured into the same file
        dom::element doc;
        if (auto err = parser.parse(line.data(), line.size()).get(doc); err != SUCCESS) {
            fp.warn(no, off, "json-malformed", "logcli record is not valid JSON (" + jsonError(err) + "); skipped");
            return true;
        }
        std::string_view text;
        std::string_view ts;
        if (!getString(doc, "line", text)) {
            fp.warn(no, off, "logcli-no-line", "logcli record has no \"line\"; skipped");
            return true;
        }
        dom::object lab;
        const bool present = doc["labels"].get(lab) == SUCCESS || doc["stream"].get(lab) == SUCCESS;
        collectLabels(lab, present, fp.labels, labels);
        std::int64_t fallback = INT64_MIN;
        core::CivilTime t;
        if (getString(doc, "timestamp", ts) && core::parseIsoTime(ts, t) > 0 && t.hasOffset)
            fallback = core::civilAsUtcNs(t) - static_cast<std::int64_t>(t.offsetSeconds) * kNsPerSec;
        const std::string_view stored = fp.arena->store(text);
        const StreamIdentity id = lokiStreamIdentity(labels, ctx);
        if (lokiKernelStream(labels)) {
            Observation& o = fp.add(stored, no, off, line.size());
            o.kind = SourceKind::Kernel;
            if (!id.node.empty())
                o.node = fp.internHost(id.node);
            o.timeNs = fallback;
            o.quality = fallback == INT64_MIN ? TimeQuality::Missing : TimeQuality::Exact;
        } else {
            app.read(stored, no, off, line.size(), fallback, id);
        }
        return true;
    });
    app.flush();
}

void parseLokiQueryRange(FileParse& fp, const BundleContext& ctx)
{
    const std::string_view buf = fp.data;
    dom::parser parser;
    dom::element doc;
    if (!json::parseDocument(fp, parser, doc, "Loki response"))
        return;
    // Loki's API answers a failed query with the Prometheus-style envelope (status "error", errorType, error).
    std::string_view status;
    if (getString(doc, "status", status) && status != "success") {
        const std::string_view errorType = json::stringAt(doc, "errorType");
        const std::string_view error = json::stringAt(doc, "error");
        fp.source.status = core::CoverageStatus::Error;
        fp.warn(1, 0, "loki-status",
            "the Loki query failed (status '" + std::string(status) + "'"
                + (errorType.empty() ? std::string() : ", errorType " + std::string(errorType)) + ")"
                + (error.empty() ? std::string() : ": " + std::string(error)));
    }
    dom::array result;
    if (doc["data"]["result"].get(result) != SUCCESS) {
        fp.source.status = core::CoverageStatus::Error;
        if (fp.source.warnings.empty() || fp.source.warnings.back().code != "loki-status")
            fp.warn(1, 0, "loki-shape", "no data.result array in the Loki response");
        return;
    }
    AppLogLineReader app(fp, ctx);
    LineCounter lines(buf);
    std::size_t searchFrom = 0;
    LokiLabels view;
    for (dom::element stream : result) {
        std::map<std::string, std::string> labels = fp.labels;
        dom::object lab;
        if (stream["stream"].get(lab) == SUCCESS)
            for (auto [k, v] : lab) {
                std::string_view val;
                if (v.get(val) == SUCCESS)
                    labels[std::string(k)] = std::string(val);
            }
        dom::array values;
        if (stream["values"].get(values) != SUCCESS)
            continue;
        LokiLabels streamView;
        for (const auto& [k, v] : labels)
            streamView.emplace_back(k, v);
        const bool streamKernel = lokiKernelStream(streamView);
        const StreamIdentity streamId = lokiStreamIdentity(streamView, ctx);
        for (dom::element val : values) {
            dom::array pair;
            std::string_view ts;
            std::string_view text;
            if (val.get(pair) != SUCCESS || pair.at(0).get(ts) != SUCCESS || pair.at(1).get(text) != SUCCESS) {
                fp.warn(lines.lineAt(searchFrom), searchFrom, "loki-value",
                    "stream value is not [\"ns\", \"line\"]; skipped");
                continue;
            }
            // Loki 3 with categorize-labels: a third element carries structured metadata and parsed labels,
            // which name the entry's host, pod or rank as stream labels otherwise would.
            bool kernel = streamKernel;
            StreamIdentity id = streamId;
            std::map<std::string, std::string> withMeta;
            dom::object meta;
            if (pair.at(2).get(meta) == SUCCESS) {
                withMeta = labels;
                for (const char* group : { "structuredMetadata", "parsed" }) {
                    dom::object m;
                    if (meta[group].get(m) == SUCCESS)
                        for (auto [k, v] : m) {
                            std::string_view mv;
                            if (v.get(mv) == SUCCESS)
                                withMeta[std::string(k)] = std::string(mv);
                        }
                }
                view.clear();
                for (const auto& [k, v] : withMeta)
                    view.emplace_back(k, v);
                kernel = lokiKernelStream(view);
                id = lokiStreamIdentity(view, ctx);
            }
            // Provenance: the value's timestamp string, searched forward in the raw text.
            const std::string needle = "\"" + std::string(ts) + "\"";
            std::size_t at = buf.find(needle, searchFrom);
            if (at == std::string_view::npos)
                at = searchFrom;
            else
                searchFrom = at + needle.size();
            bool ok = false;
            const std::int64_t ns = parseInt64(ts, ok);
            const std::string_view stored = fp.arena->store(text);
            if (kernel) {
                Observation& o = fp.add(stored, lines.lineAt(at), at, needle.size() + text.size());
                o.kind = SourceKind::Kernel;
                if (!id.node.empty())
                    o.node = fp.internHost(id.node);
                if (ok) {
                    o.timeNs = ns;
                    o.quality = TimeQuality::Exact;
                }
            } else {
                app.read(stored, lines.lineAt(at), at, needle.size() + text.size(), ok ? ns : INT64_MIN, id);
            }
        }
    }
    // Streams come newest-first by default: restore time order within the file.
    sortByOffset(fp);
    app.flush();
}

void identifyMetric(core::MetricSeries& ms, FileParse& fp, const BundleContext& ctx)
{
    std::sort(ms.labels.begin(), ms.labels.end());
    std::string host;
    for (const auto& [k, v] : ms.labels) {
        if (k == "__name__")
            ms.name = v;
        else if (k == "Hostname" || k == "hostname" || k == "node" || k == "nodename" || k == "kubernetes_node")
            host = v;
        else if (k == "gpu")
            std::from_chars(v.data(), v.data() + v.size(), ms.gpu);
        else if (k == "device" && ms.device.empty())
            ms.device = v;
        else if (k == "port")
            ms.device += (ms.device.empty() ? "port " : " port ") + v;
    }
    // dcgm-exporter's Hostname can be the pod's name; the scrape target's address names the node.
    if (host.empty())
        for (const auto& [k, v] : ms.labels)
            if (k == "instance") {
                const std::string ip = v.substr(0, v.find(':'));
                auto it = ctx.ipToHost.find(ip);
                host = it != ctx.ipToHost.end() ? it->second : ip;
            }
    if (host.empty())
        host = fp.hostName; // a per-node scrape file
    if (!host.empty())
        ms.node = fp.internHost(host);
}

void parsePromql(FileParse& fp, const BundleContext& ctx)
{
    const std::string_view buf = fp.data;
    dom::parser parser;
    dom::element doc;
    if (!json::parseDocument(fp, parser, doc, "Prometheus response"))
        return;
    dom::element response = doc;
    dom::element inner;
    if (doc["response"].get(inner) == SUCCESS)
        response = inner; // promql-snapshot envelope (§4.5)
    LineCounter lines(buf);
    // The API envelope (§4.1): "status" "error" is a failed query (HTTP 400/422/503) with "errorType" and "error";
    // its "data" may still hold what was collected. "warnings" (and Prometheus 3 "infos") accompany an answer,
    // even a successful one: each is kept as a located diagnostic.
    std::string_view status;
    const bool failed = getString(response, "status", status) && status != "success";
    if (failed) {
        const std::string_view errorType = json::stringAt(response, "errorType");
        const std::string_view error = json::stringAt(response, "error");
        fp.source.status = core::CoverageStatus::Error;
        fp.warn(1, 0, "prom-status",
            "the Prometheus query failed (status '" + std::string(status) + "'"
                + (errorType.empty() ? std::string() : ", errorType " + std::string(errorType)) + ")"
                + (error.empty() ? std::string() : ": " + std::string(error)));
    }
    for (const auto& [key, code, severity] : { std::tuple { "warnings", "prom-warning", core::Severity::Warning },
             std::tuple { "infos", "prom-info", core::Severity::Info } }) {
        dom::array notes;
        if (response[key].get(notes) != SUCCESS)
            continue;
        const std::string quotedKey = "\"" + std::string(key) + "\"";
        std::size_t from = buf.rfind(quotedKey);
        from = from == std::string_view::npos ? 0 : from;
        for (dom::element n : notes) {
            std::string_view text;
            if (n.get(text) != SUCCESS)
                continue;
            // Located at the warning's own text (its first characters, before any JSON escape).
            const std::string_view head = text.substr(0, std::min(text.find_first_of("\"\\/<>&"), std::size_t(32)));
            std::size_t at = head.empty() ? std::string_view::npos : buf.find(head, from);
            if (at == std::string_view::npos)
                at = from;
            else
                from = at + head.size();
            fp.note(lines.lineAt(at), at, severity, code,
                std::string(severity == core::Severity::Info ? "Prometheus info" : "Prometheus warning") + ": "
                    + std::string(text));
        }
    }
    dom::array result;
    std::string_view type;
    dom::element data;
    if (response["data"].get(data) == SUCCESS)
        getString(data, "resultType", type);
    if (response["data"]["result"].get(result) != SUCCESS) {
        fp.source.status = core::CoverageStatus::Error;
        if (!failed) // a failed query's answer need not carry data: prom-status said why there is none
            fp.warn(1, 0, "prom-shape", "no data.result array in the Prometheus response");
        return;
    }
    std::size_t searchFrom = 0;
    for (dom::element series : result) {
        if (!series.is_object())
            continue; // a scalar or string result: no series to attribute (prom-type says so below)
        core::MetricSeries ms;
        dom::object metric;
        if (series["metric"].get(metric) == SUCCESS)
            for (auto [k, v] : metric) {
                std::string_view val;
                if (v.get(val) == SUCCESS)
                    ms.labels.emplace_back(std::string(k), std::string(val));
            }
        identifyMetric(ms, fp, ctx);
        const std::size_t at = buf.find("\"metric\"", searchFrom);
        if (at != std::string_view::npos)
            searchFrom = at + 8;
        ms.where.line = lines.lineAt(at == std::string_view::npos ? 0 : at);
        ms.where.byteOffset = at == std::string_view::npos ? 0 : at;
        auto addSample = [&](dom::element pairEl) {
            dom::array pair;
            if (pairEl.get(pair) != SUCCESS)
                return;
            double t = 0;
            std::string_view vs;
            if (pair.at(0).get(t) != SUCCESS) {
                std::int64_t ti = 0;
                if (pair.at(0).get(ti) != SUCCESS)
                    return;
                t = static_cast<double>(ti);
            }
            if (pair.at(1).get(vs) != SUCCESS)
                return;
            double v = 0;
            if (vs == "NaN")
                v = std::nan("");
            else if (vs == "+Inf")
                v = HUGE_VAL;
            else if (vs == "-Inf")
                v = -HUGE_VAL;
            else if (std::from_chars(vs.data(), vs.data() + vs.size(), v).ec != std::errc())
                return;
            // Seconds with ms fraction → ns, rounded to ms to avoid double noise.
            const auto ms_ = static_cast<std::int64_t>(std::llround(t * 1000.0));
            ms.samples.emplace_back(ms_ * 1000000, v);
        };
        dom::array values;
        if (series["values"].get(values) == SUCCESS)
            for (dom::element p : values)
                addSample(p);
        else if (dom::element value; series["value"].get(value) == SUCCESS)
            addSample(value);
        fp.source.records += ms.samples.size();
        if (!ms.samples.empty()) {
            fp.source.firstTimeNs = fp.source.firstTimeNs == INT64_MIN
                ? ms.samples.front().first
                : std::min(fp.source.firstTimeNs, ms.samples.front().first);
            fp.source.lastTimeNs = std::max(fp.source.lastTimeNs, ms.samples.back().first);
        }
        fp.metrics.push_back(std::move(ms));
    }
    if (type != "matrix" && type != "vector")
        fp.warn(1, 0, "prom-type", "resultType '" + std::string(type) + "' is not matrix or vector");
}

} // namespace faultline::importers

namespace faultline::importers {
namespace {

/// A Slurm data_parser number: a plain int (older) or {set, infinite, number}.
bool slurmNumber(dom::element e, std::int64_t& out)
{
    if (e.get(out) == SUCCESS)
        return true;
    bool set = false;
    if (e["set"].get(set) == SUCCESS && !set)
        return false;
    return e["number"].get(out) == SUCCESS;
}

/// state.current ["FAILED", ...] (v0.0.40+) or "FAILED" (older).
std::string slurmState(simdjson::simdjson_result<dom::element> found)
{
    dom::element state;
    if (found.get(state) != SUCCESS)
        return {};
    std::string_view s;
    if (state.get(s) == SUCCESS)
        return std::string(s);
    dom::array flags;
    dom::element current;
    if (state["current"].get(current) == SUCCESS) {
        if (current.get(s) == SUCCESS)
            return std::string(s);
        if (current.get(flags) == SUCCESS)
            state = current;
    }
    std::string out;
    if (state.get(flags) == SUCCESS)
        for (dom::element f : flags)
            if (f.get(s) == SUCCESS)
                out += (out.empty() ? "" : ",") + std::string(s);
    return out;
}

std::string slurmExit(simdjson::simdjson_result<dom::element> found)
{
    dom::element exit;
    if (found.get(exit) != SUCCESS)
        return {};
    std::int64_t rc = 0;
    std::int64_t sig = 0;
    if (exit.get(rc) == SUCCESS)
        return std::to_string(rc) + ":0";
    dom::element e;
    if (exit["return_code"].get(e) == SUCCESS && !slurmNumber(e, rc))
        rc = 0;
    if (exit["signal"]["id"].get(e) == SUCCESS || exit["signal"]["signal_id"].get(e) == SUCCESS)
        if (!slurmNumber(e, sig))
            sig = 0;
    return std::to_string(rc) + ":" + std::to_string(sig);
}

} // namespace

// sacct --json (openapi dbv0.0.37 and data_parser v0.0.39+): each job and step becomes the same "sacct Field=value"
// record as a sacct -P row, so the same rules read both; times are epoch seconds (UTC, exact).
void parseSacctJson(FileParse& fp, const BundleContext& ctx)
{
    const std::string_view buf = fp.data;
    dom::parser parser;
    dom::element doc;
    if (!json::parseDocument(fp, parser, doc, "sacct --json output"))
        return;
    dom::array jobs;
    if (doc["jobs"].get(jobs) != SUCCESS) {
        fp.source.status = core::CoverageStatus::Error;
        fp.warn(1, 0, "sacct-json-shape", "no \"jobs\" array in the sacct --json output");
        return;
    }
    LineCounter lines(buf);
    std::size_t searchFrom = 0;
    for (dom::element job : jobs) {
        std::int64_t id = 0;
        if (job["job_id"].get(id) != SUCCESS)
            continue;
        const std::string jobId = std::to_string(id);
        const std::string needle = "\"job_id\"";
        std::size_t at = buf.find(needle, searchFrom);
        if (at == std::string_view::npos)
            at = searchFrom;
        else
            searchFrom = at + needle.size();
        std::string_view name;
        getString(job, "name", name);
        std::string_view nodes;
        getString(job, "nodes", nodes);
        std::string_view reason;
        getString(job["state"], "reason", reason);
        std::string_view failedNode;
        getString(job, "failed_node", failedNode);
        std::string_view killer;
        getString(job, "kill_request_user", killer);
        std::string state = slurmState(job["state"]);
        if (state.rfind("CANCELLED", 0) == 0 && !killer.empty())
            state = "CANCELLED by " + std::string(killer);
        std::int64_t start = 0;
        std::int64_t end = 0;
        dom::element tv;
        if (job["time"]["start"].get(tv) == SUCCESS && !slurmNumber(tv, start))
            start = 0;
        if (job["time"]["end"].get(tv) == SUCCESS && !slurmNumber(tv, end))
            end = 0;
        auto record = [&](const std::string& text, std::int64_t endSec, std::int64_t startSec) {
            Observation& o = fp.add(fp.arena->store(text), lines.lineAt(at), at, needle.size());
            const std::int64_t t = endSec > 0 ? endSec : startSec;
            if (t > 0) {
                o.timeNs = t * kNsPerSec;
                o.precisionNs = kNsPerSec;
                o.quality = TimeQuality::Exact;
            }
        };
        record("sacct JobID=" + jobId + " JobName=" + std::string(name) + " State=" + state + " ExitCode="
                + slurmExit(job["exit_code"]) + " NodeList=" + std::string(nodes) + " Reason=" + std::string(reason)
                + (failedNode.empty() ? "" : " FailedNode=" + std::string(failedNode)),
            end, start);
        if (ctx.jobId == jobId || (ctx.jobId.empty() && fp.facts.jobId.empty())) {
            fp.facts.scheduler = "slurm";
            fp.facts.jobId = jobId;
            fp.facts.jobName = std::string(name);
            fp.facts.state = state;
            fp.facts.nodes = std::string(nodes);
            fp.facts.startNs = start > 0 ? start * kNsPerSec : INT64_MIN;
            fp.facts.zoned = true; // epoch seconds
            fp.facts.endNs = end > 0 ? (end + 1) * kNsPerSec : INT64_MIN;
            fp.facts.origin = fp.source.path + ":" + std::to_string(lines.lineAt(at));
        }
        dom::array steps;
        if (job["steps"].get(steps) == SUCCESS)
            for (dom::element step : steps) {
                std::string_view stepId;
                std::int64_t numeric = 0;
                std::string sid;
                if (getString(step["step"], "id", stepId))
                    sid = stepId.find('.') == std::string_view::npos ? jobId + "." + std::string(stepId)
                                                                     : std::string(stepId);
                else if (step["step"]["id"].get(numeric) == SUCCESS)
                    sid = jobId + "." + std::to_string(numeric);
                std::string_view stepName;
                getString(step["step"], "name", stepName);
                std::string_view range;
                getString(step["nodes"], "range", range);
                std::int64_t stepStart = 0;
                std::int64_t stepEnd = 0;
                if (step["time"]["start"].get(tv) == SUCCESS && !slurmNumber(tv, stepStart))
                    stepStart = 0;
                if (step["time"]["end"].get(tv) == SUCCESS && !slurmNumber(tv, stepEnd))
                    stepEnd = 0;
                record("sacct JobID=" + sid + " JobName=" + std::string(stepName)
                        + " State=" + slurmState(step["state"]) + " ExitCode=" + slurmExit(step["exit_code"])
                        + " NodeList=" + std::string(range),
                    stepEnd, stepStart);
            }
    }
}

} // namespace faultline::importers
