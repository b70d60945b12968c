// SPDX-License-Identifier: Apache-2.0
#include "importers/bundle_loader.h"

#include "core/util/huge_pages.h"
#include "importers/application/application_parsers.h"
#include "importers/bundle/manifest.h"
#include "importers/fabric_manager/fabric_manager_parsers.h"
#include "importers/file_parse.h"
#include "importers/kernel/kernel_parsers.h"
#include "importers/kubernetes/kubernetes_parsers.h"
#include "importers/loki/loki_parsers.h"
#include "importers/prometheus/prometheus_parsers.h"
#include "importers/slurm/slurm_parsers.h"
#include "importers/support/archive_reader.h"
#include "importers/support/hostlist.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;

namespace faultline::importers {

using core::CoverageStatus;
using core::SourceKind;

namespace {

struct FormatInfo
{
    const char* id;
    SourceKind kind;
    void (*parse)(FileParse&, const BundleContext&);
    bool lineOriented; ///< records never span lines: a large file can be parsed in chunks
    bool scoping = false; ///< read first (phase A): it names the workload, its nodes and window
    /// Records without a time are placed between their timed neighbours. Not for kubectl's text output: there a
    /// record without a time has a relative age, and its neighbours' times say nothing about it.
    bool placeUntimed = true;
};

constexpr std::size_t kChunkBytes = 8u << 20;

constexpr FormatInfo kFormats[] = {
    { "sacct-parsable2", SourceKind::Scheduler, parseSacctParsable, false, true },
    { "sacct-json", SourceKind::Scheduler, parseSacctJson, false, true },
    { "kueue-workload", SourceKind::Scheduler, parseKueueWorkload, false, true },
    { "k8s-pods-json", SourceKind::Kubernetes, parseK8sPods, false },
    { "k8s-events-json", SourceKind::Kubernetes, parseK8sEvents, false },
    { "kubectl-events-table", SourceKind::Kubernetes, parseKubectlEventsTable, false, false, false },
    { "kubectl-describe", SourceKind::Kubernetes, parseKubectlDescribe, false, false, false },
    { "k8s-component-log", SourceKind::Kubernetes, parseComponentLog, true },
    { "kubectl-logs", SourceKind::AppLog, parseKubectlLogs, true },
    { "cri-log", SourceKind::AppLog, parseCriLog, false },
    { "docker-json", SourceKind::AppLog, parseDockerJson, false },
    { "slurmctld-log", SourceKind::Scheduler, parseSlurmDaemonLog, true },
    { "slurmd-log", SourceKind::Scheduler, parseSlurmDaemonLog, true },
    { "slurm-joblog", SourceKind::AppLog, parseJobLog, true },
    { "journal-json", SourceKind::Kernel, parseJournalJson, true },
    { "dmesg-raw", SourceKind::Kernel, parseDmesg, true },
    { "syslog", SourceKind::Kernel, parseSyslog, true },
    { "fabricmanager-log", SourceKind::FabricManager, parseFabricManager, true },
    { "logcli-jsonl", SourceKind::AppLog, parseLogcliJsonl, true },
    { "loki-query-range", SourceKind::AppLog, parseLokiQueryRange, false },
    { "promql-snapshot", SourceKind::Metrics, parsePromql, false },
    { "prometheus-query-range", SourceKind::Metrics, parsePromql, false },
    { "scontrol", SourceKind::Scheduler, parseScontrol, false, true },
    { "prometheus-text", SourceKind::Metrics, parsePromText, false },
    { "logcli-text", SourceKind::AppLog, parseLogcliText, true },
    { "logcli-raw", SourceKind::AppLog, parseLogcliText, true },
    { "text", SourceKind::Other, parseGenericText, true },
};

const FormatInfo* formatInfo(std::string_view id)
{
    for (const auto& f : kFormats)
        if (id == f.id)
            return &f;
    return nullptr;
}

bool startsWith(std::string_view s, std::string_view p)
{
    return s.substr(0, p.size()) == p;
}

std::string firstLine(std::string_view head)
{
    const auto nl = head.find('\n');
    return std::string(head.substr(0, nl));
}

} // namespace

namespace {

/// The value of the first "kind" key in a JSON text ("" when there is none in `head`).
std::string_view firstJsonKind(std::string_view head)
{
    const auto at = head.find("\"kind\"");
    if (at == std::string_view::npos)
        return {};
    std::size_t p = at + 6;
    while (p < head.size() && (head[p] == ' ' || head[p] == ':' || head[p] == '\t'))
        ++p;
    if (p >= head.size() || head[p] != '"')
        return {};
    const auto end = head.find('"', p + 1);
    return end == std::string_view::npos ? std::string_view() : head.substr(p + 1, end - p - 1);
}

/// True when `l` has the shape of a slurmctld/slurmd line (§1.4): "[ISO time] " (LogTimeFormat iso8601[_ms],
/// rfc5424[_ms], rfc3339), an optional slurmstepd "[48213.0] " prefix, then what the daemons write: a level prefix
/// ("error: ", "debug2: ", "sched: "), a C function name ("_job_complete: ", "update_node: ", "main: "), or a
/// Slurm id (JobId=, StepId=). A job's output stamped by its batch script ("[2026-11-02T08:15:02] starting") is not.
bool slurmDaemonLine(std::string_view l)
{
    core::CivilTime t;
    if (l.size() < 22 || l[0] != '[' || l[11] != 'T')
        return false;
    const std::size_t used = core::parseIsoTime(l.substr(1), t);
    if (used < 19 || 2 + used >= l.size() || l[1 + used] != ']' || l[2 + used] != ' ')
        return false;
    std::string_view msg = l.substr(3 + used);
    if (msg.size() > 3 && msg[0] == '[' && msg[1] >= '0' && msg[1] <= '9') { // slurmstepd "[48213.0] "
        const auto close = msg.find("] ");
        if (close != std::string_view::npos && msg.substr(1, close).find('.') != std::string_view::npos)
            return true;
    }
    for (std::string_view level : { "error: ", "fatal: ", "warning: ", "sched: ", "debug: ", "debug:  " })
        if (startsWith(msg, level))
            return true;
    if (startsWith(msg, "debug") && msg.size() > 7 && msg[5] >= '2' && msg[5] <= '5' && msg[6] == ':')
        return true;
    // "function: " (a lower-case C identifier) or "plugin_type/name: " ("select/cons_tres: "); a single word only
    // when it is one the daemons use (sched, backfill, main, ...).
    std::size_t p = 0;
    bool compound = false;
    while (p < msg.size()
        && ((msg[p] >= 'a' && msg[p] <= 'z') || (msg[p] >= '0' && msg[p] <= '9') || msg[p] == '_' || msg[p] == '/')) {
        compound = compound || msg[p] == '_' || msg[p] == '/';
        ++p;
    }
    if (p > 0 && msg.substr(p, 2) == ": ") {
        const std::string_view fn = msg.substr(0, p);
        if (compound || fn == "main" || fn == "backfill" || fn == "agent" || fn == "slurmctld" || fn == "slurmd"
            || fn == "slurmstepd" || fn == "select" || fn == "gres" || fn == "mcs")
            return true;
    }
    // Lines without a prefix: the start-up preamble and node/job state messages.
    for (std::string_view start : { "slurmctld version ", "slurmd version ", "slurmd started", "Recovered ",
             "Running as primary controller", "Node ", "Nodes ", "Killing JobId", "Removing failed node" })
        if (startsWith(msg, start))
            return true;
    return msg.find("JobId=") != std::string_view::npos || msg.find("JobID=") != std::string_view::npos
        || msg.find("StepId=") != std::string_view::npos;
}

/// "slurm-48213.out", "slurm-48100_7.err": sbatch's default --output/--error names (slurm-%j.out, slurm-%A_%a.out).
bool jobOutputName(const std::string& path)
{
    const std::string name = fs::path(path).filename().string();
    const bool ext = name.size() > 4
        && (name.compare(name.size() - 4, 4, ".out") == 0 || name.compare(name.size() - 4, 4, ".err") == 0);
    return ext && startsWith(name, "slurm-") && name.find("slurmctld") == std::string::npos
        && name.find("slurmd") == std::string::npos;
}

/// The Prometheus HTTP API envelope of a failed query (§4.1): {"status":"error","errorType":...,"error":...}.
bool prometheusErrorEnvelope(std::string_view head)
{
    const auto first = head.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || head[first] != '{')
        return false;
    // An "errorType" or an "error" key (some proxies send no errorType); "error" is also the status value.
    bool errorKey = head.find("\"errorType\"") != std::string_view::npos;
    for (auto at = head.find("\"error\""); !errorKey && at != std::string_view::npos;
         at = head.find("\"error\"", at + 7)) {
        const auto next = head.find_first_not_of(" \t\r\n", at + 7);
        errorKey = next != std::string_view::npos && head[next] == ':';
    }
    if (!errorKey)
        return false;
    const auto status = head.find("\"status\"");
    if (status == std::string_view::npos)
        return false;
    std::size_t p = status + 8;
    while (
        p < head.size() && (head[p] == ' ' || head[p] == ':' || head[p] == '\t' || head[p] == '\n' || head[p] == '\r'))
        ++p;
    return head.substr(p, 7) == "\"error\"";
}

} // namespace

std::string detectFormat(std::string_view head, const std::string& fileName, std::string& reason)
{
    const std::string l1 = firstLine(head);
    const auto has = [&](std::string_view x) { return head.find(x) != std::string_view::npos; };
    if (startsWith(l1, "{\"log\":") && l1.find("\"time\"") != std::string::npos) {
        reason = "content: {\"log\":...,\"time\":...} lines (docker json-file)";
        return "docker-json";
    }
    if (has("\"jobs\"") && (has("\"job_id\"") || has("\"meta\"")) && startsWith(l1, "{")) {
        reason = "content: a \"jobs\" array of Slurm job objects (sacct --json)";
        return "sacct-json";
    }
    // Kubernetes objects. Only events have "involvedObject" (whose kind may be Pod or Workload); otherwise the
    // first "kind" in the text is the object's, or the first item's in a List (kubectl sorts keys).
    if (has("\"involvedObject\"")) {
        reason = "content: Kubernetes events (involvedObject)";
        return "k8s-events-json";
    }
    const std::string_view kind = firstJsonKind(head);
    if (kind == "Workload" || (kind.empty() && has("kind: Workload"))) {
        reason = "content: a Kueue Workload object";
        return "kueue-workload";
    }
    if (kind == "Pod" || has("\"containerStatuses\"")) {
        reason = "content: Kubernetes pod objects (\"kind\": \"Pod\")";
        return "k8s-pods-json";
    }
    if (const std::string_view k = kubectlTextFormat(head, reason); !k.empty())
        return std::string(k);
    if (l1.size() > 4 && l1[0] == '<' && l1.find(">1 ") != std::string::npos && l1.find(">1 ") <= 4) {
        reason = "content: <PRI>1 TIMESTAMP HOST APP ... lines (RFC 5424 syslog)";
        return "syslog";
    }
    if (startsWith(l1, "JobId=") || startsWith(l1, "NodeName=")) {
        reason = "content: scontrol show job/node records (JobId=/NodeName=)";
        return "scontrol";
    }
    if (startsWith(l1, "# HELP ") || startsWith(l1, "# TYPE ")) {
        reason = "content: # HELP/# TYPE lines (Prometheus text exposition)";
        return "prometheus-text";
    }
    {
        core::CivilTime t;
        const std::size_t used = core::parseIsoTime(l1, t);
        if (used > 0 && t.hasOffset && used + 1 < l1.size() && l1[used] == ' ' && l1[used + 1] == '{') {
            reason = "content: <time> {labels} <line> (logcli default output)";
            return "logcli-text";
        }
        if (used > 0 && t.hasOffset && used < l1.size() && l1[used] == ' ') {
            const std::string_view rest = std::string_view(l1).substr(used);
            if ((rest.substr(0, 8) == " stdout " || rest.substr(0, 8) == " stderr ") && rest.size() > 9
                && (rest[8] == 'P' || rest[8] == 'F')) {
                reason = "content: <time> <stream> <P|F> lines (CRI container log)";
                return "cri-log";
            }
            if (t.fractionDigits == 9) {
                reason = "content: RFC 3339 nanosecond stamp then the line (kubectl logs --timestamps)";
                return "kubectl-logs";
            }
        }
    }
    if (head.find("\"__REALTIME_TIMESTAMP\"") != std::string_view::npos && startsWith(l1, "{")) {
        reason = "content: JSON lines with __REALTIME_TIMESTAMP (journalctl -o json)";
        return "journal-json";
    }
    if (startsWith(l1, "{") && l1.find("\"line\"") != std::string::npos
        && l1.find("\"timestamp\"") != std::string::npos) {
        reason = "content: JSON lines with \"line\" and \"timestamp\" (logcli --output=jsonl)";
        return "logcli-jsonl";
    }
    if (head.find("\"promql-snapshot\"") != std::string_view::npos) {
        reason = "content: \"kind\": \"promql-snapshot\" envelope";
        return "promql-snapshot";
    }
    if (prometheusErrorEnvelope(head)) {
        // The envelope alone does not say which API answered; Loki's shares it, and the file's path may tell.
        std::string lower = fileName;
        std::transform(lower.begin(), lower.end(), lower.begin(),
            [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        if (lower.find("loki") != std::string::npos || lower.find("logcli") != std::string::npos) {
            reason = "content: API error envelope (status error, errorType, error); path says Loki";
            return "loki-query-range";
        }
        reason = "content: Prometheus API error envelope (status error, errorType, error)";
        return "prometheus-query-range";
    }
    if (head.find("\"resultType\"") != std::string_view::npos) {
        if (head.find("\"streams\"") != std::string_view::npos) {
            reason = "content: Loki API response with resultType streams";
            return "loki-query-range";
        }
        reason = "content: Prometheus API response with a resultType";
        return "prometheus-query-range";
    }
    if (l1.find("JobID") != std::string::npos && l1.find('|') != std::string::npos) {
        reason = "content: first line is a sacct -P header (JobID|...)";
        return "sacct-parsable2";
    }
    const bool jobOutput = jobOutputName(fileName);
    if (l1.size() > 25 && l1[0] == '[' && l1[5] == '-' && l1[11] == 'T' && !jobOutput) {
        // Most of the first lines must have the daemon's shape, the first one included or not: a copytruncate can
        // leave a stray line first, and a job's output can start with a stamped line of its own.
        std::size_t daemon = 0;
        std::size_t stamped = 0;
        std::size_t n = 0;
        for (std::size_t p = 0; p < head.size() && n < 32; ++n) {
            const auto nl = head.find('\n', p);
            const std::string_view l = head.substr(p, nl == std::string_view::npos ? std::string_view::npos : nl - p);
            if (nl == std::string_view::npos && p > 0)
                break; // a line cut by the 4 KiB head
            if (l.size() > 12 && l[0] == '[' && l[11] == 'T') {
                ++stamped;
                if (slurmDaemonLine(l))
                    ++daemon;
            }
            if (nl == std::string_view::npos)
                break;
            p = nl + 1;
        }
        if (daemon > 0 && daemon * 2 >= stamped && daemon * 2 >= n) {
            if (fileName.find("slurmd") != std::string::npos) {
                reason = "content: [ISO time] lines (Slurm daemon log); name says slurmd";
                return "slurmd-log";
            }
            reason = "content: [ISO time] lines (Slurm daemon log)";
            return "slurmctld-log";
        }
    }
    {
        // dmesg's own envelopes: --decode's "kern  :err   : " prefix, -T's ctime "[Tue Nov  3 10:04:11 2026]", and
        // --time-format iso's "2026-11-03T10:04:11,123456+00:00" (a comma before the microseconds, which syslog and
        // journald never write).
        const std::size_t decode = dmesgDecodePrefix(l1);
        const std::string_view body = std::string_view(l1).substr(decode);
        if (decode > 0) {
            reason = "content: facility:level prefixes (dmesg --decode)";
            return "dmesg-raw";
        }
        static constexpr std::string_view kWeekdays[] = { "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun" };
        if (body.size() > 26 && body[0] == '[' && body[4] == ' ' && body[8] == ' ' && body[25] == ']'
            && std::find(std::begin(kWeekdays), std::end(kWeekdays), body.substr(1, 3)) != std::end(kWeekdays)
            && core::monthFromAbbrev(body.substr(5, 3)) != 0) {
            reason = "content: [Www Mmm dd HH:MM:SS YYYY] stamps (dmesg -T)";
            return "dmesg-raw";
        }
        core::CivilTime t;
        if (core::parseIsoTime(body, t) > 0 && t.hasOffset && body.size() > 20 && body[19] == ',') {
            reason = "content: ISO stamps with a comma before the microseconds (dmesg --time-format iso)";
            return "dmesg-raw";
        }
    }
    if (l1.size() > 3 && (l1[0] == '[' || l1[0] == '<')) {
        const auto close = l1.find(']');
        const std::size_t open = l1[0] == '<' ? l1.find('[') + 1 : 1;
        bool monotonic = close != std::string::npos && close > open;
        for (std::size_t i = open; monotonic && i < close; ++i)
            monotonic = (l1[i] >= '0' && l1[i] <= '9') || l1[i] == '.' || l1[i] == ' ';
        // The kernel prints seconds and microseconds ("[ 4012.118201]"); a bare "[3]" is a rank or a counter (a
        // rank-labelled NCCL line), not a kernel stamp.
        monotonic = monotonic && l1.find('.', open) < close;
        if (monotonic) {
            reason = "content: [seconds.micros] stamps (raw dmesg)";
            return "dmesg-raw";
        }
        if (l1.size() > 22 && core::monthFromAbbrev(l1.substr(1, 3)) != 0 && l1[7] == ' ' && l1[12] == ' ') {
            reason = "content: [Mon DD YYYY HH:MM:SS] [LEVEL] lines (Fabric Manager)";
            return "fabricmanager-log";
        }
    }
    core::CivilTime t;
    const std::size_t isoUsed = core::parseIsoTime(l1, t);
    if ((isoUsed > 0 && t.hasOffset && l1.find(": ", isoUsed) != std::string::npos)
        || (l1.size() > 16 && core::monthFromAbbrev(l1.substr(0, 3)) != 0 && l1[3] == ' ' && l1[9] != ' '
            && l1.find(": ") != std::string::npos)) {
        reason = "content: syslog-style 'time host ident: message' lines";
        return "syslog";
    }
    {
        // "dmesg -t" (no stamps) has no signature of its own: the collector's file name says what it is.
        std::string lower = fs::path(fileName).filename().string();
        std::transform(lower.begin(), lower.end(), lower.begin(),
            [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        if (lower.find("dmesg") != std::string::npos) {
            reason = "name: dmesg (kernel ring buffer without stamps)";
            return "dmesg-raw";
        }
    }
    // Application logs: srun labels or NCCL/PyTorch markers in the first KiB.
    std::size_t labelled = 0;
    std::size_t lines = 0;
    for (std::size_t p = 0; p < head.size() && lines < 64;) {
        const auto nl = head.find('\n', p);
        std::string_view l = head.substr(p, nl == std::string_view::npos ? std::string_view::npos : nl - p);
        std::size_t d = 0;
        while (d < l.size() && l[d] == ' ')
            ++d;
        const std::size_t ds = d;
        while (d < l.size() && l[d] >= '0' && l[d] <= '9')
            ++d;
        if (d > ds && d < l.size() && l[d] == ':')
            ++labelled;
        ++lines;
        if (nl == std::string_view::npos)
            break;
        p = nl + 1;
    }
    if (lines > 0 && labelled * 2 >= lines) {
        reason = "content: most lines carry an srun --label task prefix";
        return "slurm-joblog";
    }
    if (head.find("NCCL INFO") != std::string_view::npos || head.find("NCCL WARN") != std::string_view::npos
        || head.find("[rank") != std::string_view::npos || head.find("torch") != std::string_view::npos) {
        reason = "content: NCCL/PyTorch markers (application log)";
        return "slurm-joblog";
    }
    if (lines > 0 && !jobOutput) {
        // Cluster components' logs (device plugin, GPU operator) as kubectl logs prints them without --timestamps.
        std::size_t enveloped = 0;
        std::size_t n = 0;
        for (std::size_t p = 0; p < head.size() && n < 32; ++n) {
            const auto nl = head.find('\n', p);
            if (nl == std::string_view::npos && p > 0)
                break; // a line cut by the 4 KiB head
            if (componentLogLine(head.substr(p, nl == std::string_view::npos ? std::string_view::npos : nl - p)))
                ++enveloped;
            if (nl == std::string_view::npos)
                break;
            p = nl + 1;
        }
        if (enveloped > 0 && enveloped * 2 >= n) {
            reason = "content: klog, Go log or logrus envelopes (Kubernetes component log)";
            return "k8s-component-log";
        }
    }
    if (jobOutput) {
        reason = "name: slurm-<jobid>.out/.err (sbatch's job output)";
        return "slurm-joblog";
    }
    reason = "no known signature matched: imported as generic text";
    return "text";
}

namespace {

/// What places records without a node once every file is merged.
struct RankPlacement
{
    std::vector<std::pair<std::int32_t, core::NodeId>> stated; ///< rank → node besides NCCL init lines (torchrun)
    std::vector<std::pair<std::size_t, core::NodeId>> agentHost; ///< observation → its stream's agent host
};

/// A record with a rank and no node takes its rank's node; then a record still without one takes the host of the
/// agent that shipped it. The rank → node map: the NCCL init lines (ev.ranks) first, then the torchrun summary's
/// host/rank pairs and the records that name both a rank and a node (an srun-labelled [rankN]: line, a pod's
/// stream), when they all agree on one node for that rank.
void placeRankedRecords(core::EvidenceSet& ev, const RankPlacement& placement)
{
    constexpr core::NodeId kConflict = core::kNoNode - 1;
    std::map<std::int32_t, core::NodeId> rankNode;
    for (const auto& r : ev.ranks)
        if (r.rank >= 0 && r.node != core::kNoNode)
            rankNode.emplace(r.rank, r.node);
    std::map<std::int32_t, core::NodeId> seen;
    auto see = [&](std::int32_t rank, core::NodeId node) {
        auto [it, added] = seen.emplace(rank, node);
        if (!added && it->second != node)
            it->second = kConflict;
    };
    for (const auto& [rank, node] : placement.stated)
        see(rank, node);
    for (const auto& o : ev.observations)
        if (o.rank >= 0 && o.node != core::kNoNode)
            see(o.rank, o.node);
    for (const auto& [rank, node] : seen)
        if (node != kConflict)
            rankNode.emplace(rank, node); // never replaces an init line's node
    if (!rankNode.empty())
        for (auto& o : ev.observations)
            if (o.rank >= 0 && o.node == core::kNoNode)
                if (auto it = rankNode.find(o.rank); it != rankNode.end())
                    o.node = it->second;
    for (const auto& [index, node] : placement.agentHost)
        if (index < ev.observations.size() && ev.observations[index].node == core::kNoNode)
            ev.observations[index].node = node;
}

std::int64_t mtimeNs(const fs::path& p)
{
    std::error_code ec;
    const auto t = fs::last_write_time(p, ec);
    if (ec)
        return INT64_MIN;
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::file_clock::to_sys(t).time_since_epoch())
        .count();
}

/// A file on disk as input: mapped, or unreadable with the reason.
core::InputFile mappedInput(const fs::path& file, std::string displayPath)
{
    core::InputFile f;
    f.path = std::move(displayPath);
    f.origin = file.string();
    std::string error;
    if (auto mapped = MappedFile::open(f.origin, error)) {
        f.bytes = mapped->bytes();
        f.owner = std::move(mapped);
    } else {
        f.readable = false;
        f.readError = error;
    }
    f.mtimeNs = mtimeNs(file);
    return f;
}

bool skippedName(const std::string& rel, const std::string& name)
{
    return rel == "expected.yaml" || name.empty() || name.rfind("README", 0) == 0 || name[0] == '.';
}

} // namespace

core::BundleInput collectBundle(const std::vector<std::string>& paths, const LoadOptions& options)
{
    core::BundleInput in;
    in.root = paths.empty() ? std::string() : paths.front();
    auto diag = [&](std::string file, std::string code, std::string message) {
        in.diagnostics.push_back(
            core::makeDiagnostic(core::Severity::Error, std::move(code), std::move(message), std::move(file)));
    };
    auto byPath = [](const core::InputFile& a, const core::InputFile& b) { return a.path < b.path; };
    for (const auto& p : paths) {
        std::error_code ec;
        const fs::path root(p);
        if (fs::is_directory(root, ec)) {
            if (fs::exists(root / "faultline.yaml", ec)) {
                in.hasManifest = true;
                in.manifestPath = "faultline.yaml";
                std::ifstream file(root / "faultline.yaml", std::ios::binary);
                std::ostringstream text;
                text << file.rdbuf();
                in.manifestReadable = static_cast<bool>(file);
                in.manifestText = in.manifestReadable ? text.str() : std::string();
            }
            std::vector<core::InputFile> here;
            for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
                 !ec && it != end; it.increment(ec)) {
                if (!it->is_regular_file(ec))
                    continue;
                const std::string rel = fs::relative(it->path(), root, ec).generic_string();
                if (rel == "faultline.yaml" || skippedName(rel, it->path().filename().string()))
                    continue;
                here.push_back(
                    mappedInput(it->path(), paths.size() > 1 ? (root.filename() / rel).generic_string() : rel));
            }
            if (ec)
                diag(p, "walk-error", "cannot list the bundle directory: " + ec.message());
            std::sort(here.begin(), here.end(), byPath);
            std::move(here.begin(), here.end(), std::back_inserter(in.files));
        } else if (fs::is_regular_file(root, ec) && looksLikeArchive(root.filename().string())) {
            ArchiveRead read = readArchive(p, options.archiveLimits);
            const std::string prefix = paths.size() > 1 ? root.filename().string() + "/" : std::string();
            const std::int64_t archiveTime = mtimeNs(root);
            std::vector<core::InputFile> here;
            for (auto& m : read.members) {
                if (m.path == "faultline.yaml") {
                    in.hasManifest = true;
                    in.manifestPath = prefix + m.path;
                    in.manifestText = *m.content;
                    continue;
                }
                if (skippedName(m.path, fs::path(m.path).filename().string()))
                    continue;
                core::InputFile f;
                f.path = prefix + m.path;
                f.origin = p + "!/" + m.path;
                f.bytes = *m.content;
                f.owner = m.content;
                f.cut = m.cut;
                f.mtimeNs = archiveTime;
                here.push_back(std::move(f));
            }
            std::sort(here.begin(), here.end(), byPath);
            std::move(here.begin(), here.end(), std::back_inserter(in.files));
            if (!read.complete)
                in.archiveStops.push_back({ root.filename().string(), !read.members.empty(),
                    fs::is_regular_file(root, ec) ? fs::file_size(root, ec) : 0, read.stopCode,
                    read.stopReason + "; " + std::to_string(read.members.size()) + " member(s) were read" });
        } else if (fs::is_regular_file(root, ec)) {
            in.files.push_back(mappedInput(root, root.filename().string()));
        } else {
            diag(p, "no-such-path", "bundle path does not exist or is not a file or directory");
        }
    }
    return in;
}

core::EvidenceSet loadBundle(const std::vector<std::string>& paths, const LoadOptions& options)
{
    return importBundle(collectBundle(paths, options), options);
}

core::EvidenceSet importBundle(const core::BundleInput& input, const LoadOptions& options)
{
    core::EvidenceSet ev;
    ev.root = input.root;
    auto diag = [&](std::string file, std::string code, std::string message,
                    core::Severity sev = core::Severity::Error) {
        ev.diagnostics.push_back(core::makeDiagnostic(sev, std::move(code), std::move(message), std::move(file)));
    };
    ev.diagnostics = input.diagnostics;
    const std::vector<core::InputFile>& entries = input.files;
    Manifest manifest;
    if (input.hasManifest) {
        if (input.manifestReadable) {
            manifest = readManifestText(input.manifestText, input.manifestPath);
        } else {
            manifest.path = input.manifestPath;
            manifest.diagnostics.push_back(core::makeDiagnostic(
                core::Severity::Error, "manifest-unreadable", "cannot read the manifest", input.manifestPath));
        }
    }
    for (auto& d : manifest.diagnostics)
        ev.diagnostics.push_back(d);

    // 2. Decide formats and per-file hints.
    BundleContext ctx;
    ctx.manifest = &manifest;
    ctx.cancel = options.cancel;
    ctx.jobId = !options.jobId.empty() ? options.jobId : manifest.jobId;
    ctx.ranksPerNode = manifest.ranksPerNode;
    for (const auto& [host, info] : manifest.hosts)
        if (!info.ip.empty())
            ctx.ipToHost[info.ip] = host;
    std::vector<FileParse> files(entries.size());
    std::vector<const FormatInfo*> formats(entries.size(), nullptr);
    for (std::size_t i = 0; i < entries.size(); ++i) {
        FileParse& fp = files[i];
        fp.absPath = entries[i].origin;
        fp.source.path = entries[i].path;
        if (!entries[i].readable) {
            fp.source.status = CoverageStatus::Error;
            fp.warn(0, 0, "unreadable", "cannot read file: " + entries[i].readError);
            continue;
        }
        fp.file = MappedFile::fromView(entries[i].owner, entries[i].bytes);
        fp.source.bytes = fp.file->bytes().size();
        const FileHint* hint = nullptr;
        if (auto it = manifest.files.find(entries[i].path); it != manifest.files.end())
            hint = &it->second;
        std::string fmt;
        if (hint && !hint->format.empty()) {
            fmt = hint->format;
            fp.source.formatReason = "manifest: files['" + entries[i].path + "'].format";
            if (!formatInfo(fmt)) {
                fp.warn(0, 0, "unknown-format", "manifest names unknown format '" + fmt + "'; detecting from content");
                fmt.clear();
            }
        }
        if (fmt.empty() && looksLikeArchive(entries[i].path)) {
            // An archive inside a bundle directory is not opened recursively; it is listed so coverage shows it.
            fp.source.status = CoverageStatus::Error;
            fp.source.format = "archive";
            fp.warn(0, 0, "nested-archive", "an archive inside the bundle is not opened: give it as a bundle path");
            continue;
        }
        if (entries[i].cut) {
            fp.source.status = CoverageStatus::Truncated;
            fp.warn(0, 0, "archive-member-cut", "the archive read stopped inside this member: it ends early");
        }
        if (fmt.empty())
            fmt = detectFormat(fp.file->bytes().substr(0, 4096), entries[i].path, fp.source.formatReason);
        const FormatInfo* info = formatInfo(fmt);
        formats[i] = info;
        fp.source.format = info->id;
        fp.source.kind = info->kind;
        // Host: manifest, else a path component that names a manifest host or looks like the allocation's hosts.
        if (hint && !hint->host.empty())
            fp.hostName = hint->host;
        fp.labels = hint ? hint->labels : std::map<std::string, std::string> {};
        if (fp.hostName.empty()) {
            for (const auto& part : fs::path(entries[i].path).parent_path())
                if (manifest.hosts.count(part.string()))
                    fp.hostName = part.string();
        }
        const HostInfo* host = nullptr;
        if (auto it = manifest.hosts.find(fp.hostName); it != manifest.hosts.end())
            host = &it->second;
        if (hint && !hint->zone.empty()) {
            fp.zone = hint->zone;
            fp.zoneFromManifest = true;
        } else if (host && !host->zone.empty()) {
            fp.zone = host->zone;
            fp.zoneFromManifest = true;
        }
        if (host)
            fp.bootNs = host->bootNs;
    }

    // 3. Phase A: scheduler files give the workload scope (job, nodes, window) and the reference year.
    auto runParse = [&](std::size_t i) {
        if (!formats[i] || files[i].source.status == CoverageStatus::Error)
            return;
        files[i].data = files[i].file->bytes();
        files[i].cancel = options.cancel;
        try {
            formats[i]->parse(files[i], ctx);
        } catch (const std::exception& e) {
            files[i].source.status = CoverageStatus::Error;
            files[i].warn(0, 0, "parser-exception", std::string("import failed: ") + e.what());
        }
    };
    SchedulerFacts facts;
    bool factsZoneAssumed = false;
    for (std::size_t i = 0; i < files.size(); ++i)
        if (formats[i] && formats[i]->scoping) {
            runParse(i);
            if (!files[i].facts.jobId.empty() && facts.jobId.empty()) {
                facts = files[i].facts;
                factsZoneAssumed = !files[i].zoneFromManifest && !files[i].facts.zoned;
            }
        }
    core::Scope& scope = ev.scope;
    scope.scheduler = !manifest.scheduler.empty() ? manifest.scheduler : facts.scheduler;
    scope.jobId = !ctx.jobId.empty() ? ctx.jobId : facts.jobId;
    scope.jobName = facts.jobName;
    scope.state = facts.state;
    scope.startNs = manifest.windowFromNs != INT64_MIN ? manifest.windowFromNs : facts.startNs;
    scope.endNs = manifest.windowToNs != INT64_MIN ? manifest.windowToNs : facts.endNs;
    scope.windowZoneAssumed = manifest.windowFromNs == INT64_MIN && factsZoneAssumed && facts.startNs != INT64_MIN;
    scope.ranksPerNode = manifest.ranksPerNode;
    scope.origin = manifest.present ? "manifest faultline.yaml" : "";
    if (!facts.origin.empty())
        scope.origin += (scope.origin.empty() ? "" : " + ") + (facts.scheduler + " " + facts.origin);
    const std::string nodeExpr = !manifest.nodes.empty() ? manifest.nodes : facts.nodes;
    if (!nodeExpr.empty()) {
        if (auto hosts = expandHostlist(nodeExpr)) {
            ctx.scopeNodes = *hosts;
            for (const auto& h : *hosts)
                scope.nodes.push_back(ev.nodes.intern(h));
        } else {
            diag(manifest.present ? "faultline.yaml" : facts.origin, "bad-hostlist",
                "cannot expand hostlist '" + nodeExpr + "'", core::Severity::Warning);
        }
    }
    // Without a manifest, a per-node file's host comes from a path component that names an allocated node
    // ("nodes/node-02/dmesg.txt"), else from a file name that starts with one ("node-04-trainer-json.log"; the
    // next character must not continue the name, so node-1 never claims node-10's files).
    for (auto& fp : files) {
        if (!fp.hostName.empty())
            continue;
        for (const auto& part : fs::path(fp.source.path).parent_path())
            if (std::find(ctx.scopeNodes.begin(), ctx.scopeNodes.end(), part.string()) != ctx.scopeNodes.end())
                fp.hostName = part.string();
        if (!fp.hostName.empty())
            continue;
        const std::string name = fs::path(fp.source.path).filename().string();
        std::size_t best = 0;
        for (const auto& node : ctx.scopeNodes)
            if (node.size() > best && name.size() > node.size() && name.compare(0, node.size(), node) == 0
                && !std::isalnum(static_cast<unsigned char>(name[node.size()]))) {
                fp.hostName = node;
                best = node.size();
            }
    }
    // Container logs name pods; the pods' JSON names their nodes.
    for (const auto& fp : files)
        if (fp.file && fp.source.format == "k8s-pods-json")
            for (auto& [pod, node] : podNodesFromJson(fp.file->bytes()))
                ctx.podToNode.emplace(pod, node);
    // Raw dmesg stamps count seconds since boot: without a manifest boot_time, the host's journald export gives
    // the boot time (realtime minus monotonic of one record).
    std::map<std::string, std::pair<std::int64_t, std::string>> bootAnchors;
    for (const auto& fp : files)
        if (fp.file && fp.source.format == "journal-json") {
            std::string host;
            std::int64_t boot = INT64_MIN;
            if (journalBootAnchor(fp.file->bytes(), host, boot)) {
                if (!fp.hostName.empty())
                    host = fp.hostName;
                bootAnchors.emplace(core::NodeTable::normalise(host), std::make_pair(boot, fp.source.path));
            }
        }
    for (auto& fp : files)
        if (fp.source.format == "dmesg-raw" && fp.bootNs == INT64_MIN && !fp.hostName.empty())
            if (auto it = bootAnchors.find(core::NodeTable::normalise(fp.hostName)); it != bootAnchors.end()) {
                fp.bootNs = it->second.first;
                fp.source.formatReason += "; boot time from " + it->second.second;
            }
    // Year-less stamps (syslog, journald short, glog) take the workload's year; without a workload window, the year
    // the bundle's files were last written (collection time), which the diagnostics say.
    if (scope.startNs != INT64_MIN) {
        ctx.referenceYear = core::yearOfUtcNs(scope.startNs);
    } else {
        std::int64_t newest = INT64_MIN;
        for (const auto& e : entries)
            newest = std::max(newest, e.mtimeNs);
        ctx.referenceYear = newest == INT64_MIN ? 1970 : core::yearOfUtcNs(newest);
        if (!entries.empty())
            diag(input.root, "year-assumed",
                "no workload window: timestamps without a year (syslog, journald short, glog) are placed in "
                    + std::to_string(ctx.referenceYear) + ", the year the bundle's files were written",
                core::Severity::Info);
    }

    // 4. Phase B: every other file, in parallel. Large line-oriented files are cut into chunks at line boundaries
    // so one big job log does not serialise the import; chunks are merged back in order below.
    const unsigned threads = std::max(1u, options.threads ? options.threads : std::thread::hardware_concurrency());
    std::vector<std::vector<FileParse>> parts(files.size());
    struct Task
    {
        std::size_t file;
        std::size_t part;
    };
    std::vector<Task> tasks;
    for (std::size_t i = 0; i < files.size(); ++i) {
        const bool phaseA = formats[i] && formats[i]->scoping;
        const std::string_view bytes = files[i].file ? files[i].file->bytes() : std::string_view();
        std::size_t chunks = 1;
        if (!phaseA && formats[i] && formats[i]->lineOriented && threads > 1 && bytes.size() > kChunkBytes)
            chunks = std::min<std::size_t>(threads * 2, bytes.size() / (kChunkBytes / 2));
        std::size_t begin = 0;
        for (std::size_t c = 0; c < chunks; ++c) {
            std::size_t end = c + 1 == chunks ? bytes.size() : bytes.size() * (c + 1) / chunks;
            if (end < bytes.size()) {
                const auto nl = bytes.find('\n', end);
                end = nl == std::string_view::npos ? bytes.size() : nl + 1;
            }
            if (end <= begin && c + 1 < chunks)
                continue;
            FileParse part;
            if (chunks == 1) {
                part = std::move(files[i]);
            } else {
                part.source = files[i].source;
                part.absPath = files[i].absPath;
                part.hostName = files[i].hostName;
                part.zone = files[i].zone;
                part.zoneFromManifest = files[i].zoneFromManifest;
                part.bootNs = files[i].bootNs;
                part.labels = files[i].labels;
                part.file = files[i].file;
                part.source.warnings.clear();
            }
            part.data = bytes.substr(begin, end - begin);
            part.baseOffset = begin;
            part.lastChunk = end >= bytes.size();
            part.cancel = options.cancel;
            parts[i].push_back(std::move(part));
            if (!phaseA)
                tasks.push_back({ i, parts[i].size() - 1 });
            begin = end;
        }
        if (chunks > 1) // warnings found while choosing the format stay with the first chunk
            parts[i].front().source.warnings = files[i].source.warnings;
    }
    auto runPart = [&](const Task& t) {
        FileParse& part = parts[t.file][t.part];
        if (!formats[t.file] || part.source.status == CoverageStatus::Error)
            return;
        try {
            formats[t.file]->parse(part, ctx);
        } catch (const std::exception& e) {
            part.source.status = CoverageStatus::Error;
            part.warn(0, 0, "parser-exception", std::string("import failed: ") + e.what());
        }
        part.parsed = !(options.cancel && options.cancel->load());
    };
    std::atomic<std::size_t> next { 0 };
    std::atomic<std::size_t> finished { 0 };
    auto worker = [&](bool callingThread) {
        for (std::size_t k; (k = next.fetch_add(1)) < tasks.size();) {
            if (options.cancel && options.cancel->load())
                return;
            runPart(tasks[k]);
            const std::size_t n = finished.fetch_add(1) + 1;
            if (callingThread && options.progress) {
                const core::Source& src = parts[tasks[k].file][tasks[k].part].source;
                options.progress(n, tasks.size(), src.path, src.format);
            }
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < std::min<std::size_t>(threads, tasks.size()); ++t)
        pool.emplace_back(worker, false);
    worker(true);
    for (auto& t : pool)
        t.join();
    if (options.progress)
        options.progress(tasks.size(), tasks.size(), {}, {});

    // 5. Merge in file order (chunks in order); resolve NCCL pid → rank across chunks; fill missing times between
    // neighbours; compute per-source figures.
    std::size_t total = 0;
    for (const auto& ps : parts)
        for (const auto& part : ps)
            total += part.observations.size();
    ev.observations.reserve(total);
    core::adviseHugePages(ev.observations.data(), total * sizeof(core::Observation));
    RankPlacement placement;
    for (std::size_t i = 0; i < files.size(); ++i) {
        if (parts[i].empty())
            continue;
        const auto sourceIndex = static_cast<std::uint32_t>(ev.sources.size());
        core::Source src = parts[i].front().source;
        const std::size_t first = ev.observations.size();
        std::uint64_t lineBase = 0;
        std::map<std::string, int> pidRank;
        for (const auto& part : parts[i])
            pidRank.insert(part.pidRank.begin(), part.pidRank.end());
        for (std::size_t p = 0; p < parts[i].size(); ++p) {
            FileParse& part = parts[i][p];
            if (p > 0) {
                src.lines += part.source.lines;
                src.skipped += part.source.skipped;
                if (part.source.status != CoverageStatus::Ok)
                    src.status = part.source.status;
                for (auto d : part.source.warnings) {
                    if (d.where.line > 0)
                        d.where.line += lineBase;
                    src.warnings.push_back(std::move(d));
                }
            }
            for (const auto& [idx, key] : part.pendingPidRank)
                if (auto it = pidRank.find(key); it != pidRank.end())
                    part.observations[idx].rank = it->second;
            std::vector<core::NodeId> remap(part.nodes.size());
            for (core::NodeId k = 0; k < part.nodes.size(); ++k)
                remap[k] = ev.nodes.intern(part.nodes.name(k));
            const std::size_t partFirst = ev.observations.size();
            for (const auto& [idx, node] : part.agentHostNodes)
                placement.agentHost.emplace_back(partFirst + idx, remap[node]);
            for (const auto& [rank, node] : part.rankNodes)
                placement.stated.emplace_back(rank, remap[node]);
            for (auto o : part.observations) {
                o.where.source = sourceIndex;
                o.where.line += lineBase;
                if (o.node != core::kNoNode)
                    o.node = remap[o.node];
                ev.observations.push_back(o);
            }
            for (auto id : part.ranks) {
                id.where.source = sourceIndex;
                id.where.line += lineBase;
                if (id.node != core::kNoNode)
                    id.node = remap[id.node];
                ev.ranks.push_back(std::move(id));
            }
            for (auto& m : part.metrics) {
                m.where.source = sourceIndex;
                if (m.node != core::kNoNode)
                    m.node = remap[m.node];
                ev.metrics.push_back(std::move(m));
            }
            lineBase += part.source.lines;
            ev.keepAlive.push_back(part.arena);
            part.observations = {};
        }
        const bool cancelled = std::any_of(parts[i].begin(), parts[i].end(), [&](const FileParse& part) {
            return !part.parsed && formats[i] && part.source.status != CoverageStatus::Error && !formats[i]->scoping;
        });
        if (cancelled) {
            // Partial but consistent: what was read stays, and the source says it is incomplete.
            src.status = CoverageStatus::Truncated;
            src.warnings.push_back(core::makeDiagnostic(core::Severity::Warning, "import-cancelled",
                "the import was cancelled before this file was read completely", src.path));
        }
        const FileParse& head = parts[i].front();
        if (!head.hostName.empty())
            src.host = ev.nodes.intern(head.hostName);
        if (src.host == core::kNoNode && src.kind != SourceKind::AppLog && src.kind != SourceKind::Scheduler
            && ev.observations.size() > first) {
            // A kernel or fabric log whose records all name one host (journald _HOSTNAME, syslog) is that host's.
            const core::NodeId only = ev.observations[first].node;
            bool single = only != core::kNoNode;
            for (std::size_t k = first; single && k < ev.observations.size(); ++k)
                single = ev.observations[k].node == only;
            if (single)
                src.host = only;
        }
        // The chunks of one file decide their zone alone (a syslog takes each line's host zone): the file's zone is
        // assumed when any chunk's was.
        src.zone = head.zone;
        src.zoneAssumed = false;
        for (const FileParse& part : parts[i]) {
            src.zoneAssumed = src.zoneAssumed || !part.zoneFromManifest;
            if (part.zone != head.zone)
                src.zone = kZonePerHost;
        }
        // Inferred times: a record without its own time sits between its timed neighbours, somewhere in
        // [previous, next] (the precision says how wide). Before the first timed record or after the last one
        // nothing bounds it, so its time stays missing (it keeps its place in the file) rather than taking a
        // neighbour's time as if it were known.
        std::int64_t prev = INT64_MIN;
        std::vector<std::size_t> pending;
        auto settle = [&](std::int64_t nextTime) {
            for (std::size_t k : pending) {
                auto& o = ev.observations[k];
                if (prev == INT64_MIN || nextTime == INT64_MIN)
                    continue;
                o.timeNs = prev;
                o.precisionNs = std::max<std::int64_t>(0, nextTime - prev);
                o.quality = core::TimeQuality::Inferred;
            }
            pending.clear();
        };
        bool anyZoneless = false;
        for (std::size_t k = first; k < ev.observations.size(); ++k) {
            auto& o = ev.observations[k];
            if (o.timeNs == INT64_MIN) {
                if (!formats[i] || formats[i]->placeUntimed)
                    pending.push_back(k);
                continue;
            }
            anyZoneless = anyZoneless || o.quality == core::TimeQuality::AssumedZone;
            settle(o.timeNs);
            prev = std::max(prev, o.timeNs);
            src.firstTimeNs = src.firstTimeNs == INT64_MIN ? o.timeNs : std::min(src.firstTimeNs, o.timeNs);
            src.lastTimeNs = std::max(src.lastTimeNs, o.timeNs);
        }
        settle(INT64_MIN);
        if (!anyZoneless) {
            src.zone.clear();
            src.zoneAssumed = false;
        } else if (src.zoneAssumed) {
            src.warnings.push_back(core::makeDiagnostic(core::Severity::Warning, "zone-assumed",
                "times without a zone are read as UTC: the manifest gives no tz for this file or its host", src.path));
        }
        if (ev.observations.size() > first)
            src.records = ev.observations.size() - first;
        // Scoping: records outside the workload window are kept and marked.
        if (scope.startNs != INT64_MIN && scope.endNs != INT64_MIN && !scope.windowZoneAssumed)
            for (std::size_t k = first; k < ev.observations.size(); ++k) {
                auto& o = ev.observations[k];
                if (o.timeNs != INT64_MIN && (o.timeNs + o.precisionNs < scope.startNs || o.timeNs > scope.endNs)) {
                    o.outOfScope = true;
                    ++src.outOfScope;
                }
            }
        // Loki answers at most `limit` entries: exactly that many means the answer was probably cut there.
        if (src.format == "logcli-jsonl" || src.format == "logcli-text" || src.format == "loki-query-range") {
            const auto hint = manifest.files.find(src.path);
            const long long limit = hint != manifest.files.end() ? hint->second.limit : 0;
            const auto n = static_cast<long long>(src.records);
            const bool atLimit = limit > 0 ? n == limit : (n == 30 || n == 100 || n == 1000 || n == 5000);
            if (atLimit) {
                src.status = CoverageStatus::Truncated;
                src.warnings.push_back(core::makeDiagnostic(core::Severity::Warning, "loki-limit",
                    "exactly " + std::to_string(n) + " entries, "
                        + (limit > 0 ? std::string("the query's limit") : std::string("a Loki/logcli default limit"))
                        + ": the export was probably cut there; re-run the query with a higher --limit",
                    src.path));
            }
        }
        if (src.status == CoverageStatus::Ok && src.records == 0)
            src.status = CoverageStatus::Empty;
        if (head.file)
            ev.keepAlive.push_back(head.file);
        ev.sources.push_back(std::move(src));
    }
    for (const auto& stop : input.archiveStops) {
        core::Source src;
        src.path = stop.path;
        src.format = "archive";
        src.formatReason = "archive read with libarchive";
        src.status = stop.partial ? CoverageStatus::Truncated : CoverageStatus::Error;
        src.bytes = stop.bytes;
        src.warnings.push_back(core::makeDiagnostic(core::Severity::Error, stop.code, stop.message, src.path));
        ev.sources.push_back(std::move(src));
    }
    // One identity per rank: the first statement of it (Loki and the job log repeat the same init lines).
    std::stable_sort(ev.ranks.begin(), ev.ranks.end(),
        [](const core::RankIdentity& a, const core::RankIdentity& b) { return a.rank < b.rank; });
    ev.ranks.erase(std::unique(ev.ranks.begin(), ev.ranks.end(),
                       [](const core::RankIdentity& a, const core::RankIdentity& b) { return a.rank == b.rank; }),
        ev.ranks.end());
    placeRankedRecords(ev, placement);
    return ev;
}

} // namespace faultline::importers
