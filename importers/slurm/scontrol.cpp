// SPDX-License-Identifier: Apache-2.0
// scontrol show job / show node, multi-line ("   key=value" continuations) or one-line (-o).
#include "importers/slurm/slurm_parsers.h"
#include "importers/support/text_scan.h"

#include <algorithm>

namespace faultline::importers {

using core::CivilTime;
using core::Observation;
using core::SourceKind;

namespace {

/// Splits "k=v k2=v2" where a key in `rest` takes the remainder of the line (free text such as Reason= of a node).
void keyValues(std::string_view line, bool nodeRecord, std::vector<std::pair<std::string, std::string>>& out)
{
    static constexpr std::string_view kRestOfLine[] = { "Command", "WorkDir", "StdOut", "StdErr", "StdIn", "Comment",
        "SubmitLine", "Reason", "JobName", "OS" };
    line = trim(line);
    while (!line.empty()) {
        const auto eq = line.find('=');
        if (eq == std::string_view::npos)
            break;
        const std::string_view key = line.substr(0, eq);
        std::string_view value;
        const bool wholeLine = std::find(std::begin(kRestOfLine), std::end(kRestOfLine), key) != std::end(kRestOfLine);
        const auto sp = line.find(' ', eq + 1);
        // A node's Reason= is free text to the end of the line; a job's has '_' for spaces (state_desc).
        // JobName may hold spaces: it runs to the end of the line, or to " UserId=" in the one-line (-o) form.
        const auto userId = key == "JobName" ? line.find(" UserId=", eq) : std::string_view::npos;
        if (userId != std::string_view::npos) {
            value = line.substr(eq + 1, userId - eq - 1);
            line = trim(line.substr(userId + 1));
        } else if (wholeLine && (key != "Reason" || nodeRecord)) {
            value = line.substr(eq + 1);
            line = {};
        } else {
            value = line.substr(eq + 1, sp == std::string_view::npos ? std::string_view::npos : sp - eq - 1);
            line = sp == std::string_view::npos ? std::string_view() : trim(line.substr(sp + 1));
        }
        out.emplace_back(std::string(key), std::string(value));
    }
}

} // namespace

void parseScontrol(FileParse& fp, const BundleContext& ctx)
{
    std::vector<std::pair<std::string, std::string>> kv;
    std::uint64_t recLine = 0;
    std::uint64_t recOff = 0;
    std::uint64_t recEnd = 0;
    bool nodeRecord = false;
    auto flush = [&] {
        if (kv.empty())
            return;
        auto get = [&](std::string_view k) -> std::string {
            for (const auto& [key, v] : kv)
                if (key == k)
                    return v;
            return {};
        };
        const bool job = kv.front().first == "JobId";
        std::string text = "scontrol";
        for (const auto& [k, v] : kv)
            if (job ? (k == "JobId" || k == "JobName" || k == "JobState" || k == "Reason" || k == "ExitCode"
                    || k == "NodeList" || k == "BatchHost" || k == "StartTime" || k == "EndTime" || k == "FailedNode")
                    : (k == "NodeName" || k == "State" || k == "Reason" || k == "NodeHostName"))
                text += " " + k + "=" + v;
        Observation& o = fp.add(fp.arena->store(text), recLine, recOff, recEnd - recOff);
        o.kind = SourceKind::Scheduler;
        CivilTime t;
        if (job) {
            const std::string end = get("EndTime");
            if (core::parseIsoTime(end, t) == end.size() && !end.empty())
                fp.resolve(t, o);
            // The job asked for, else the first job record of the file.
            if (ctx.jobId == get("JobId") || (ctx.jobId.empty() && fp.facts.jobId.empty())) {
                fp.facts.scheduler = "slurm";
                fp.facts.jobId = get("JobId");
                fp.facts.jobName = get("JobName");
                fp.facts.state = get("JobState");
                fp.facts.nodes = get("NodeList");
                fp.facts.origin = fp.source.path + ":" + std::to_string(recLine);
                Observation tmp;
                const std::string start = get("StartTime");
                if (core::parseIsoTime(start, t) == start.size() && !start.empty()) {
                    fp.resolve(t, tmp);
                    fp.facts.startNs = tmp.timeNs;
                }
                if (o.timeNs != INT64_MIN)
                    fp.facts.endNs = o.timeNs + o.precisionNs;
            }
        } else {
            o.node = fp.internHost(get("NodeName"));
            // "Reason=NHC: GPU5 Xid 149 NVLink fatal [root@2026-11-02T10:15:44]": the time the reason was set.
            const std::string reason = get("Reason");
            const auto at = reason.rfind('@');
            if (at != std::string::npos && core::parseIsoTime(std::string_view(reason).substr(at + 1), t) > 0)
                fp.resolve(t, o);
        }
        kv.clear();
    };
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (trim(line).empty()) {
            flush();
            return true;
        }
        const bool start = line.rfind("JobId=", 0) == 0 || line.rfind("NodeName=", 0) == 0;
        if (start) {
            flush();
            recLine = no;
            recOff = off;
        } else if (kv.empty()) {
            fp.warn(no, off, "scontrol-stray", "line outside a JobId=/NodeName= record; skipped");
            return true;
        }
        if (start)
            nodeRecord = line.rfind("NodeName=", 0) == 0;
        keyValues(line, nodeRecord, kv);
        recEnd = off + line.size();
        return true;
    });
    flush();
}

} // namespace faultline::importers
