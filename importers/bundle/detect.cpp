// SPDX-License-Identifier: Apache-2.0
// A file's format from its first 4 KiB and its name, when the manifest does not give it. Signatures are tried from
// the most specific (a JSON envelope, a table header) to the least (a bare stamp shape), then the name; text that
// matches none is generic text. Each answer says why it was chosen.
#include "core/time/civil_time.h"
#include "importers/bundle/formats.h"
#include "importers/bundle/phases.h"
#include "importers/bundle_loader.h"
#include "importers/kernel/kernel_parsers.h"
#include "importers/kubernetes/kubernetes_parsers.h"
#include "importers/slurm/slurm_parsers.h"
#include "importers/support/text_scan.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iterator>

namespace fs = std::filesystem;

namespace faultline::importers {

using core::CoverageStatus;

namespace {

std::string firstLine(std::string_view head)
{
    const auto nl = head.find('\n');
    return std::string(head.substr(0, nl));
}

/// Commands whose output people paste with the command line in front of it ("# ibstatus", "$ dmesg -T").
bool pastedCommand(std::string_view line)
{
    static constexpr std::string_view kTools[] = { "cat", "conda", "dmesg", "grep", "ibstat", "ibstatus", "ibv_devinfo",
        "journalctl", "kubectl", "less", "lspci", "nvidia-smi", "oc", "pip", "pip3", "sacct", "scontrol", "sinfo",
        "sudo", "systemctl", "tail" };
    const auto end = line.find(' ');
    const std::string_view word = line.substr(0, end);
    return std::find(std::begin(kTools), std::end(kTools), word) != std::end(kTools);
}

/// Whether `line` starts with a shell prompt ("[root@node045 ~]# ", "user@gpu-07:~$ "); `host` is the host it names
/// ("" for localhost or none).
bool shellPrompt(std::string_view line, std::string& host)
{
    auto hostOf = [](std::string_view userAtHost, std::string& out) {
        const auto at = userAtHost.find('@');
        if (at == std::string_view::npos || at == 0 || at + 1 >= userAtHost.size())
            return false;
        const std::string_view h = userAtHost.substr(at + 1);
        for (char c : h)
            if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_'))
                return false;
        out = h == "localhost" ? std::string() : std::string(h);
        return true;
    };
    host.clear();
    if (line.size() > 4 && line[0] == '[') {
        // "[user@host dir]# command"
        const auto close = line.find(']');
        if (close == std::string_view::npos || close + 2 >= line.size()
            || (line[close + 1] != '#' && line[close + 1] != '$') || line[close + 2] != ' ')
            return false;
        const std::string_view inside = line.substr(1, close - 1);
        return hostOf(inside.substr(0, inside.find(' ')), host);
    }
    // "user@host:dir$ command"
    const auto sp = line.find(' ');
    if (sp == std::string_view::npos || sp < 4 || (line[sp - 1] != '$' && line[sp - 1] != '#'))
        return false;
    const std::string_view prompt = line.substr(0, sp - 1);
    const auto colon = prompt.find(':');
    return colon != std::string_view::npos && hostOf(prompt.substr(0, colon), host);
}

/// systemctl status prints the unit's state above its journal lines: "● unit - description", "Loaded: ...",
/// "Active: ...", the control group's process tree.
bool systemctlHeader(std::string_view line)
{
    for (std::string_view mark : { "\xe2\x97\x8f ", "\xc3\x97 ", "\xe2\x97\x8b ", "\xe2\x86\xbb " }) // ● × ○ ↻
        if (line.substr(0, mark.size()) == mark)
            return true;
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || first == 0)
        return false;
    const std::string_view t = line.substr(first);
    for (std::string_view key : { "Loaded:", "Active:", "Docs:", "Main PID:", "Process:", "Tasks:", "Memory:", "CPU:",
             "CGroup:", "TriggeredBy:", "Invocation:", "Status:", "Drop-In:", "IP:", "IO:", "Mem peak:",
             "\xe2\x94\x94\xe2\x94\x80", "\xe2\x94\x9c\xe2\x94\x80", "\xe2\x94\x82" }) // └─ ├─ │
        if (t.substr(0, key.size()) == key)
            return true;
    return false;
}

} // namespace

PastedPreamble pastedPreamble(std::string_view head)
{
    PastedPreamble out;
    std::size_t p = 0;
    for (int n = 0; n < 40 && p < head.size(); ++n) {
        const auto nl = head.find('\n', p);
        if (nl == std::string_view::npos)
            break; // the last, possibly cut, line of the head is the tool's output
        std::string_view line = head.substr(p, nl - p);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        std::string host;
        const bool prompt = shellPrompt(line, host);
        const bool comment = (line.substr(0, 2) == "# " || line.substr(0, 2) == "$ ") && pastedCommand(line.substr(2));
        if (prompt) {
            if (out.promptHost.empty() && !host.empty()) {
                out.promptHost = host;
                out.promptLine = static_cast<std::uint64_t>(n + 1);
            }
        } else if (!(line.find_first_not_of(" \t") == std::string_view::npos || comment || systemctlHeader(line))) {
            break;
        }
        p = nl + 1;
        out.bodyOffset = p;
    }
    return out;
}

PbsMailHost pbsMailHost(std::string_view head)
{
    PbsMailHost out;
    std::size_t p = 0;
    bool header = false;
    for (std::uint64_t n = 1; n <= 12 && p < head.size(); ++n) {
        const auto nl = head.find('\n', p);
        std::string_view line = head.substr(p, nl == std::string_view::npos ? std::string_view::npos : nl - p);
        p = nl == std::string_view::npos ? head.size() : nl + 1;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (!header) {
            if (line.find_first_not_of(" \t") == std::string_view::npos)
                continue;
            if (line.substr(0, 11) != "PBS Job Id:")
                return out;
            header = true;
            continue;
        }
        constexpr std::string_view kExec = "Exec host:";
        if (line.substr(0, kExec.size()) != kExec)
            continue;
        // "gpu-2-17/5", or "n1/0*8+n2/0*8" for a job on several hosts: only a single host names the file's node.
        std::string_view value = line.substr(kExec.size());
        value.remove_prefix(std::min(value.find_first_not_of(" \t"), value.size()));
        while (!value.empty() && (value.back() == ' ' || value.back() == '\t'))
            value.remove_suffix(1);
        std::string host;
        while (!value.empty()) {
            const auto plus = value.find('+');
            const std::string_view chunk = value.substr(0, plus);
            const std::string_view h = chunk.substr(0, chunk.find('/'));
            if (h.empty() || (!host.empty() && h != host))
                return out;
            for (char c : h)
                if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_'))
                    return out;
            host = std::string(h);
            value = plus == std::string_view::npos ? std::string_view() : value.substr(plus + 1);
        }
        out.host = std::move(host);
        out.line = n;
        return out;
    }
    return out;
}

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

/// True when `l` has the shape of a slurmctld/slurmd line: "[ISO time] " (LogTimeFormat iso8601[_ms],
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

/// The Prometheus HTTP API envelope of a failed query: {"status":"error","errorType":...,"error":...}.
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
    if (const auto nl = head.find('\n'); nl != std::string_view::npos && l1.find("JobID") != std::string::npos) {
        const auto nl2 = head.find('\n', nl + 1);
        std::string_view l2 =
            head.substr(nl + 1, nl2 == std::string_view::npos ? std::string_view::npos : nl2 - nl - 1);
        if (!l2.empty() && l2.back() == '\r')
            l2.remove_suffix(1);
        std::string_view h = l1;
        if (!h.empty() && h.back() == '\r')
            h.remove_suffix(1);
        if (sacctTableHeader(h, l2)) {
            reason = "content: a sacct table header (JobID ...) over a rule line of dashes";
            return "sacct-table";
        }
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
        std::string_view talosHost;
        if (talosDmesgPrefix(l1, talosHost) > 0) {
            reason = "content: node: facility: level: [RFC 3339 time] lines (talosctl dmesg)";
            return "dmesg-raw";
        }
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
    std::string_view host, ident, message;
    if ((isoUsed > 0 && t.hasOffset && splitSyslogRest(l1.substr(isoUsed), host, ident, message))
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

/// Fills `fp` for one input file: its path, bytes and status, its format (the manifest's, else detectFormat's) and
/// what the manifest or the path says about it (host, zone, labels, boot time). Returns the format, or null when
/// the file is not parsed (unreadable, or an archive inside the bundle).
const FormatInfo* detectFile(const core::InputFile& input, const Manifest& manifest, FileParse& fp)
{
    fp.absPath = input.origin;
    fp.source.path = input.path;
    if (!input.readable) {
        fp.source.status = CoverageStatus::Error;
        fp.warn(0, 0, "unreadable", "cannot read file: " + input.readError);
        return nullptr;
    }
    fp.file = MappedFile::fromView(input.owner, input.bytes);
    fp.source.bytes = fp.file->bytes().size();
    const FileHint* hint = nullptr;
    if (auto it = manifest.files.find(input.path); it != manifest.files.end())
        hint = &it->second;
    std::string fmt;
    if (hint && !hint->format.empty()) {
        fmt = hint->format;
        fp.source.formatReason = "manifest: files['" + input.path + "'].format";
        if (!formatInfo(fmt)) {
            fp.warn(0, 0, "unknown-format", "manifest names unknown format '" + fmt + "'; detecting from content");
            fmt.clear();
        }
    }
    if (fmt.empty() && looksLikeArchive(input.path)) {
        // An archive inside a bundle directory is not opened recursively; it is listed so coverage shows it.
        fp.source.status = CoverageStatus::Error;
        fp.source.format = "archive";
        fp.warn(0, 0, "nested-archive", "an archive inside the bundle is not opened: give it as a bundle path");
        return nullptr;
    }
    if (input.cut) {
        fp.source.status = CoverageStatus::Truncated;
        fp.warn(0, 0, "archive-member-cut", "the archive read stopped inside this member: it ends early");
    }
    // A pasted excerpt may start with the command that printed it: the format is the output's, and the prompt
    // names the host it ran on.
    const PastedPreamble pre = pastedPreamble(fp.file->bytes().substr(0, 4096));
    if (fmt.empty())
        fmt = detectFormat(fp.file->bytes().substr(pre.bodyOffset, 4096), input.path, fp.source.formatReason);
    const FormatInfo* info = formatInfo(fmt);
    fp.source.format = info->id;
    fp.source.kind = info->kind;
    // Host: manifest, else a path component that names a manifest host or looks like the allocation's hosts.
    if (hint && !hint->host.empty())
        fp.hostName = hint->host;
    fp.labels = hint ? hint->labels : std::map<std::string, std::string> {};
    if (fp.hostName.empty()) {
        for (const auto& part : fs::path(input.path).parent_path())
            if (manifest.hosts.count(part.string()))
                fp.hostName = part.string();
    }
    if (fp.hostName.empty() && !pre.promptHost.empty()) {
        fp.hostName = pre.promptHost;
        fp.source.formatReason +=
            "; host " + pre.promptHost + " from the shell prompt on line " + std::to_string(pre.promptLine);
    }
    if (fp.hostName.empty()) {
        const PbsMailHost pbs = pbsMailHost(fp.file->bytes().substr(0, 4096));
        if (!pbs.host.empty()) {
            fp.hostName = pbs.host;
            fp.source.formatReason +=
                "; host " + pbs.host + " from the PBS mail's Exec host on line " + std::to_string(pbs.line);
        }
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
    return info;
}

} // namespace

DetectedFiles detectFiles(const std::vector<core::InputFile>& inputs, const Manifest& manifest)
{
    DetectedFiles detected;
    detected.files.resize(inputs.size());
    detected.formats.assign(inputs.size(), nullptr);
    for (std::size_t i = 0; i < inputs.size(); ++i)
        detected.formats[i] = detectFile(inputs[i], manifest, detected.files[i]);
    return detected;
}

} // namespace faultline::importers
