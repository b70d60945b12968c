// SPDX-License-Identifier: Apache-2.0
// Line formats that carry structure in key=value or label sets: scontrol show job/node (§1.3), the Prometheus text
// exposition (§4.2) and logcli's default and raw text output (§2.3).
#include "importers/file_parse.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace faultline::importers {

using core::CivilTime;
using core::kNsPerMs;
using core::kNsPerSec;
using core::Observation;
using core::SourceKind;

namespace {

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

/// Splits "k=v k2=v2" where a key in `rest` takes the remainder of the line (free text such as Reason= of a node).
void keyValues(std::string_view line, bool nodeRecord, std::vector<std::pair<std::string, std::string>>& out)
{
    static constexpr std::string_view kRestOfLine[] = { "Command", "WorkDir", "StdOut", "StdErr", "StdIn", "Comment",
        "SubmitLine", "Reason", "JobName", "OS" };
    line = trimmed(line);
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
            line = trimmed(line.substr(userId + 1));
        } else if (wholeLine && (key != "Reason" || nodeRecord)) {
            value = line.substr(eq + 1);
            line = {};
        } else {
            value = line.substr(eq + 1, sp == std::string_view::npos ? std::string_view::npos : sp - eq - 1);
            line = sp == std::string_view::npos ? std::string_view() : trimmed(line.substr(sp + 1));
        }
        out.emplace_back(std::string(key), std::string(value));
    }
}

/// The pairs of a logcli label set body `k="v", k2="v2"` (Go-quoted values, kept with their escapes).
void goLabels(std::string_view body, LokiLabels& out)
{
    std::size_t p = 0;
    while (p < body.size()) {
        while (p < body.size() && (body[p] == ' ' || body[p] == ','))
            ++p;
        const auto eq = body.find('=', p);
        if (eq == std::string_view::npos || eq + 1 >= body.size() || body[eq + 1] != '"')
            return;
        std::size_t e = eq + 2;
        while (e < body.size() && body[e] != '"')
            e += body[e] == '\\' ? std::size_t(2) : std::size_t(1);
        out.emplace_back(trimmed(body.substr(p, eq - p)), body.substr(eq + 2, std::min(e, body.size()) - eq - 2));
        p = e + 1;
    }
}

} // namespace

// scontrol show job / show node, multi-line ("   key=value" continuations) or one-line (-o).
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
        if (trimmed(line).empty()) {
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

// Prometheus text exposition: "name{labels} value [timestamp_ms]". A scrape file without timestamps takes its time
// from its name ("..._20261102T101515Z.prom") or is flagged.
void parsePromText(FileParse& fp, const BundleContext& ctx)
{
    std::int64_t fileTime = INT64_MIN;
    {
        const std::string& path = fp.source.path;
        for (std::size_t i = 0; i + 16 <= path.size(); ++i)
            if (path[i + 8] == 'T' && path[i + 15] == 'Z'
                && std::all_of(path.begin() + static_cast<std::ptrdiff_t>(i),
                    path.begin() + static_cast<std::ptrdiff_t>(i) + 8, [](char c) { return c >= '0' && c <= '9'; })) {
                const std::string iso = path.substr(i, 4) + "-" + path.substr(i + 4, 2) + "-" + path.substr(i + 6, 2)
                    + "T" + path.substr(i + 9, 2) + ":" + path.substr(i + 11, 2) + ":" + path.substr(i + 13, 2) + "Z";
                CivilTime t;
                if (core::parseIsoTime(iso, t) == iso.size()) {
                    fileTime = core::civilAsUtcNs(t);
                    break;
                }
            }
    }
    std::map<std::string, std::size_t> seriesIndex;
    bool warnedNoTime = false;
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        line = trimmed(line);
        if (line.empty() || line.front() == '#')
            return true;
        core::MetricSeries ms;
        std::size_t p = 0;
        while (p < line.size() && line[p] != '{' && line[p] != ' ' && line[p] != '\t')
            ++p;
        ms.labels.emplace_back("__name__", std::string(line.substr(0, p)));
        if (p < line.size() && line[p] == '{') {
            ++p;
            while (p < line.size() && line[p] != '}') {
                const auto eq = line.find('=', p);
                if (eq == std::string_view::npos || eq + 1 >= line.size() || line[eq + 1] != '"')
                    break;
                std::string key(trimmed(line.substr(p, eq - p)));
                std::string value;
                std::size_t q = eq + 2;
                for (; q < line.size() && line[q] != '"'; ++q) {
                    if (line[q] == '\\' && q + 1 < line.size()) {
                        ++q;
                        value += line[q] == 'n' ? '\n' : line[q];
                    } else {
                        value += line[q];
                    }
                }
                ms.labels.emplace_back(std::move(key), std::move(value));
                p = q + 1;
                while (p < line.size() && (line[p] == ',' || line[p] == ' '))
                    ++p;
            }
            if (p >= line.size()) {
                fp.warn(no, off, "prom-malformed", "unterminated label set; sample skipped");
                return true;
            }
            ++p;
        }
        std::string_view rest = trimmed(line.substr(p));
        const auto sp = rest.find_first_of(" \t");
        const std::string_view valueText = rest.substr(0, sp);
        double value = 0;
        if (valueText == "NaN")
            value = std::nan("");
        else if (valueText == "+Inf")
            value = HUGE_VAL;
        else if (valueText == "-Inf")
            value = -HUGE_VAL;
        else if (std::from_chars(valueText.data(), valueText.data() + valueText.size(), value).ec != std::errc()) {
            fp.warn(
                no, off, "prom-malformed", "value '" + std::string(valueText) + "' is not a number; sample skipped");
            return true;
        }
        std::int64_t when = fileTime;
        if (sp != std::string_view::npos) {
            const std::string_view ts = trimmed(rest.substr(sp));
            std::int64_t millis = 0;
            if (std::from_chars(ts.data(), ts.data() + ts.size(), millis).ec == std::errc())
                when = millis * kNsPerMs;
        }
        if (when == INT64_MIN) {
            if (!warnedNoTime)
                fp.warn(no, off, "prom-no-time",
                    "samples carry no timestamp and the file name holds no time (…_YYYYMMDDTHHMMSSZ.prom): skipped");
            warnedNoTime = true;
            return true;
        }
        identifyMetric(ms, fp, ctx);
        std::string key = ms.name;
        for (const auto& [k, v] : ms.labels)
            key += "|" + k + "=" + v;
        auto [it, inserted] = seriesIndex.emplace(key, fp.metrics.size());
        if (inserted) {
            ms.where.line = no;
            ms.where.byteOffset = off + fp.baseOffset;
            fp.metrics.push_back(std::move(ms));
        }
        fp.metrics[it->second].samples.emplace_back(when, value);
        ++fp.source.records;
        return true;
    });
    for (auto& m : fp.metrics)
        std::sort(m.samples.begin(), m.samples.end());
}

// logcli default ("<time> {labels} <line>", or "<time> <line>" with --no-labels) and raw ("<line>") output.
void parseLogcliText(FileParse& fp, const BundleContext& ctx)
{
    AppLogLineReader app(fp, ctx);
    LokiLabels labels;
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (trimmed(line).empty())
            return true;
        CivilTime t;
        const std::size_t used = core::parseIsoTime(line, t);
        std::int64_t ns = INT64_MIN;
        std::string_view text = line;
        labels.clear();
        if (used > 0 && t.hasOffset && used < line.size() && line[used] == ' ') {
            ns = core::civilAsUtcNs(t) - static_cast<std::int64_t>(t.offsetSeconds) * kNsPerSec;
            text = line.substr(used + 1);
            if (!text.empty() && text.front() == '{') {
                // Balanced {...} with Go-quoted values.
                std::size_t k = 1;
                bool inQuote = false;
                for (; k < text.size(); ++k) {
                    if (text[k] == '\\' && inQuote)
                        ++k;
                    else if (text[k] == '"')
                        inQuote = !inQuote;
                    else if (text[k] == '}' && !inQuote)
                        break;
                }
                goLabels(text.substr(1, k == 0 ? 0 : k - 1), labels);
                text = trimmed(text.substr(std::min(k + 1, text.size())));
            }
        }
        for (const auto& [key, value] : fp.labels) // the manifest's common labels, which logcli left out
            labels.emplace_back(key, value);
        const StreamIdentity id = lokiStreamIdentity(labels, ctx);
        if (lokiKernelStream(labels)) {
            Observation& o = fp.add(text, no, off, line.size());
            o.kind = SourceKind::Kernel;
            if (!id.node.empty())
                o.node = fp.internHost(id.node);
            o.timeNs = ns;
            o.precisionNs = ns == INT64_MIN ? 0 : t.precisionNs();
            o.quality = ns == INT64_MIN ? core::TimeQuality::Missing : core::TimeQuality::Exact;
        } else {
            app.read(text, no, off, line.size(), ns, id);
        }
        return true;
    });
    app.flush();
}

} // namespace faultline::importers
