// SPDX-License-Identifier: Apache-2.0
// sacct --json (openapi dbv0.0.37 and data_parser v0.0.39+), read with simdjson: each job and step becomes the same
// "sacct Field=value" record as a sacct -P row, so the same rules read both; times are epoch seconds (UTC, exact).
#include "importers/slurm/slurm_parsers.h"
#include "importers/support/json_support.h"

#include <simdjson.h>

namespace faultline::importers {

using core::kNsPerSec;
using core::Observation;
using core::TimeQuality;
using simdjson::SUCCESS;
namespace dom = simdjson::dom;
using json::getString;
using json::LineCounter;

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
