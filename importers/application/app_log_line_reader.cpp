// SPDX-License-Identifier: Apache-2.0
// Application logs: srun --label "12: ", torchrun "[rank3]:" / "[default3]:", NCCL "host:pid:tid [dev]",
// c10 "[E1102 10:15:06.211734912 file:line]", glog "E1102 10:15:08.412000 pid file:line]", Python logging.
#include "importers/application/app_log_line_reader.h"

#include "core/rules/template.h"
#include "importers/support/log_time.h"
#include "importers/support/text_scan.h"

#include <algorithm>
#include <charconv>

namespace faultline::importers {

using core::CivilTime;
using core::TimeQuality;

std::string_view stripGrepFilePrefix(std::string_view s)
{
    std::size_t p = 0;
    while (p < s.size() && p < 256 && s[p] != ':' && s[p] != ' ' && s[p] != '\t' && s[p] != '[' && s[p] != '(')
        ++p;
    if (p == 0 || p >= s.size() || s[p] != ':')
        return s;
    const std::string_view name = s.substr(0, p);
    const auto dot = name.rfind('.');
    if (dot == std::string_view::npos)
        return s;
    static constexpr std::string_view kExtensions[] = { "log", "txt", "out", "err", "stdout", "stderr", "jsonl" };
    const std::string_view ext = name.substr(dot + 1);
    if (std::find(std::begin(kExtensions), std::end(kExtensions), ext) == std::end(kExtensions))
        return s;
    s.remove_prefix(p + 1);
    // grep -n: the line number and its colon.
    std::size_t d = 0;
    while (d < s.size() && d < 12 && isDigit(s[d]))
        ++d;
    if (d > 0 && d < s.size() && s[d] == ':')
        s.remove_prefix(d + 1);
    return s;
}

void AppLogLineReader::read(std::string_view line, std::uint64_t lineNo, std::uint64_t offset, std::size_t length,
    std::int64_t fallbackNs, const StreamIdentity& stream)
{
    std::string_view s = line;
    // grep over several files (or -H) puts the file's name and a colon before each line, -n its line number and
    // another colon: "rank0.log:", "logs/rank0.err:12:". The name is a path ending in a log file's extension.
    s = stripGrepFilePrefix(s);
    int task = -1;
    // srun --label: optional padding, task id, ": "
    {
        std::size_t p = 0;
        while (p < s.size() && s[p] == ' ')
            ++p;
        std::size_t d = p;
        while (d < s.size() && isDigit(s[d]))
            ++d;
        if (d > p && d - p <= 6 && d < s.size() && s[d] == ':' && (d + 1 == s.size() || s[d + 1] == ' ')) {
            std::from_chars(s.data() + p, s.data() + d, task);
            s = s.substr(std::min(s.size(), d + 2));
        }
    }
    // Ray: "(RayTrainWorker pid=4242, ip=10.10.0.2) message": the worker's IP names its node.
    std::string_view rayIp;
    if (s.size() > 8 && s[0] == '(') {
        const auto close = s.find(") ");
        const auto pid = s.find(" pid=");
        if (close != std::string_view::npos && pid != std::string_view::npos && pid < close && close < 160) {
            if (const auto ip = s.find("ip=", pid); ip != std::string_view::npos && ip < close)
                rayIp = s.substr(ip + 3, close - ip - 3);
            s = s.substr(close + 2);
        }
    }
    int rank = -1;
    // Stacked launcher prefixes: [rankN]:, [defaultN]: (local rank), Open MPI [job,rank]<stdout>:
    for (bool again = true; again;) {
        again = false;
        if (s.substr(0, 5) == "[rank" || s.substr(0, 8) == "[default") {
            const auto close = s.find("]:");
            if (close != std::string_view::npos && close < 20) {
                const std::size_t numStart = s[1] == 'r' ? 5 : 8;
                int v = -1;
                if (std::from_chars(s.data() + numStart, s.data() + close, v).ptr == s.data() + close && s[1] == 'r')
                    rank = v;
                s = s.substr(close + 2);
                // PyTorch ≥ 2.3 writes "[rank3]: message"; older writers glue prefixes ("[rank12]:[E1102 ...").
                if (!s.empty() && s.front() == ' ')
                    s.remove_prefix(1);
                again = true;
            }
        } else if (s.size() > 4 && s[0] == '[' && isDigit(s[1])) {
            const auto comma = s.find(',');
            const auto close = s.find(']');
            if (comma != std::string_view::npos && close != std::string_view::npos && comma < close && close < 24
                && s.substr(close + 1, 1) == "<") {
                const auto colon = s.find(">:", close);
                int v = -1;
                if (colon != std::string_view::npos
                    && std::from_chars(s.data() + comma + 1, s.data() + close, v).ptr == s.data() + close) {
                    rank = v;
                    s = s.substr(colon + 2);
                    again = true;
                }
            }
        }
    }
    // tqdm and friends redraw a line with '\r': the last state counts (the launcher prefix came before it).
    if (s.find('\r') != std::string_view::npos) // memchr first: almost no line has one
        s = s.substr(s.rfind('\r') + 1);
    // Python tracebacks are grouped per stream (srun task, rank) into one record, from "Traceback (most recent
    // call last):" through its indented frames to the exception line that ends it.
    const auto streamKey = std::make_pair(task, rank);
    if (auto open = m_tracebacks.find(streamKey); open != m_tracebacks.end()) {
        PendingTraceback& tb = open->second;
        tb.text += '\n';
        tb.text.append(s);
        tb.end = offset + length;
        const bool frame = s.empty() || s.front() == ' ' || s.front() == '\t';
        if (!frame || ++tb.lines >= kMaxTracebackLines) {
            PendingTraceback done = std::move(tb);
            m_tracebacks.erase(open);
            addRecord(m_fp.arena->store(done.text), done.task, done.rank, done.rayIp, done.line, done.offset,
                static_cast<std::size_t>(done.end - done.offset), done.fallbackNs,
                { done.streamNode, done.streamAgentHost, done.streamRank });
        }
        return;
    }
    if (s.rfind("Traceback (most recent call last):", 0) == 0) {
        PendingTraceback tb;
        tb.text.assign(s);
        tb.task = task;
        tb.rank = rank;
        tb.rayIp = std::string(rayIp);
        tb.line = lineNo;
        tb.offset = offset;
        tb.end = offset + length;
        tb.fallbackNs = fallbackNs;
        tb.streamNode = std::string(stream.node);
        tb.streamAgentHost = stream.agentHost;
        tb.streamRank = stream.rank;
        m_tracebacks.emplace(streamKey, std::move(tb));
        return;
    }
    const std::string summaryNode = noteSummaryIdentity(s, streamKey);
    addRecord(s, task, rank, rayIp, lineNo, offset, length, fallbackNs, stream);
    // The summary's rank line is about its host: an event read from it (the root cause's rank) is on that node.
    if (!summaryNode.empty() && m_fp.observations.back().node == core::kNoNode)
        m_fp.observations.back().node = m_fp.internHost(summaryNode);
}

std::string AppLogLineReader::noteSummaryIdentity(std::string_view text, std::pair<int, int> streamKey)
{
    // ChildFailedError blocks: keys padded to 10 characters, then ": ". The host is socket.getfqdn() of the
    // agent, which may be a pod name or nonsense: where the bundle names its nodes (an allocation, manifest hosts or
    // pods), it only counts when it names one of them, or a pod whose node pods.json gives. A bare excerpt names no
    // node any other way, so there the host counts as it is, as NCCL's host prefix does.
    const std::string_view t = trim(text);
    auto value = [&](std::string_view key) -> std::string_view {
        if (t.substr(0, key.size()) != key)
            return {};
        std::size_t p = key.size();
        while (p < t.size() && t[p] == ' ')
            ++p;
        return t.substr(p, 2) == ": " ? trim(t.substr(p + 2)) : std::string_view();
    };
    if (const std::string_view host = value("host"); !host.empty()) {
        const std::string name = core::NodeTable::normalise(host);
        std::string node;
        if (std::find(m_ctx.scopeNodes.begin(), m_ctx.scopeNodes.end(), name) != m_ctx.scopeNodes.end()
            || (m_ctx.manifest && m_ctx.manifest->hosts.count(name)))
            node = name;
        else if (auto pod = m_ctx.podToNode.find(std::string(host)); pod != m_ctx.podToNode.end())
            node = pod->second;
        else if (m_ctx.scopeNodes.empty() && (!m_ctx.manifest || m_ctx.manifest->hosts.empty())
            && m_ctx.podToNode.empty())
            node = name;
        m_summaryHost[streamKey] = node;
        return {};
    }
    const std::string_view rank = value("rank");
    const auto host = m_summaryHost.find(streamKey);
    if (rank.empty() || host == m_summaryHost.end())
        return {};
    int r = -1;
    std::string node;
    if (std::from_chars(rank.data(), rank.data() + rank.size(), r).ec == std::errc() && r >= 0
        && !host->second.empty()) {
        m_fp.rankNodes.emplace_back(r, m_fp.nodes.intern(host->second));
        node = host->second;
    }
    m_summaryHost.erase(host);
    return node;
}

void AppLogLineReader::flush()
{
    // A traceback cut off by the end of the input still counts.
    for (auto& [key, tb] : m_tracebacks)
        addRecord(m_fp.arena->store(tb.text), tb.task, tb.rank, tb.rayIp, tb.line, tb.offset,
            static_cast<std::size_t>(tb.end - tb.offset), tb.fallbackNs,
            { tb.streamNode, tb.streamAgentHost, tb.streamRank });
    m_tracebacks.clear();
}

void AppLogLineReader::addRecord(std::string_view s, int task, int rank, std::string_view rayIp, std::uint64_t lineNo,
    std::uint64_t offset, std::size_t length, std::int64_t fallbackNs, const StreamIdentity& stream)
{
    core::Observation& o = m_fp.add(s, lineNo, offset, length);
    const std::size_t index = m_fp.observations.size() - 1;
    if (!stream.node.empty() && o.node == core::kNoNode && !stream.agentHost)
        o.node = m_fp.internHost(stream.node);
    o.rank = rank;
    if (!rayIp.empty())
        if (auto it = m_ctx.ipToHost.find(std::string(rayIp)); it != m_ctx.ipToHost.end())
            o.node = m_fp.internHost(it->second);
    if (task >= 0 && static_cast<std::size_t>(task) < m_ctx.scopeNodes.size()
        && (m_ctx.ranksPerNode == 0 || m_ctx.scopeNodes.size() > 0))
        o.node = m_fp.internHost(m_ctx.scopeNodes[static_cast<std::size_t>(task)]);

    std::string_view r = s;
    CivilTime t;
    // Year-less stamps (glog, c10) take the year of the record's collector stamp when there is one (Loki, kubectl,
    // CRI), else the workload's.
    const int year = fallbackNs != INT64_MIN ? core::yearOfUtcNs(fallbackNs) : m_ctx.referenceYear;
    bool timed = false;
    // The application's own stamp has no zone. When a collector stamped the record exactly (kubectl, CRI, docker,
    // Loki), that stamp is the record's time and the zone of the container is never guessed; the application's
    // stamp stays in the text.
    auto take = [&](const CivilTime& ct) {
        if (!ct.hasOffset && fallbackNs != INT64_MIN)
            return false;
        m_fp.resolve(ct, o);
        return true;
    };
    // NCCL: "[2026-11-02 10:15:06] node-02:48815:48815 [4] ..." (NCCL_DEBUG_TIMESTAMP_FORMAT default)
    if (r.size() > 21 && r[0] == '[' && core::parseIsoTime(r.substr(1), t) == 19 && r[20] == ']') {
        timed = take(t);
        r = trim(r.substr(21));
    }
    // "host:pid:tid [dev] ..." (NCCL) — host is the record's own node.
    {
        const auto c1 = r.find(':');
        if (c1 != std::string_view::npos && c1 > 0 && c1 < 64 && r.find(' ') > c1) {
            std::size_t p = c1 + 1;
            std::size_t pidEnd = p;
            while (pidEnd < r.size() && isDigit(r[pidEnd]))
                ++pidEnd;
            if (pidEnd > p && pidEnd < r.size() && r[pidEnd] == ':') {
                std::size_t tidEnd = pidEnd + 1;
                while (tidEnd < r.size() && isDigit(r[tidEnd]))
                    ++tidEnd;
                if (tidEnd > pidEnd + 1 && tidEnd + 2 < r.size() && r[tidEnd] == ' ' && r[tidEnd + 1] == '[') {
                    const std::string_view host = r.substr(0, c1);
                    o.node = m_fp.internHost(host);
                    m_key = m_fp.nodes.name(o.node);
                    m_key += ':';
                    m_key.append(r.substr(p, pidEnd - p));
                    const auto devEnd = r.find(']', tidEnd);
                    if (devEnd != std::string_view::npos)
                        std::from_chars(r.data() + tidEnd + 2, r.data() + devEnd, o.gpu);
                    // NCCL init lines map pid → global rank: "... rank 13 nranks 32 cudaDev 5 ..."
                    if (const auto rk = r.find(" rank ");
                        rk != std::string_view::npos && r.find(" nranks ") != std::string_view::npos) {
                        int v = -1;
                        const char* b = r.data() + rk + 6;
                        if (std::from_chars(b, r.data() + r.size(), v).ec == std::errc()) {
                            m_fp.pidRank.emplace(m_key, v);
                            // "... cudaDev 5 nvmlDev 5 busId c3000": the rank's GPU.
                            core::RankIdentity id;
                            id.rank = v;
                            id.node = o.node;
                            id.cudaDevice = o.gpu;
                            std::from_chars(r.data() + c1 + 1, r.data() + pidEnd, id.pid);
                            if (const auto bus = r.find(" busId "); bus != std::string_view::npos) {
                                const std::string_view rest = r.substr(bus + 7);
                                id.gpu = core::normalisePci(rest.substr(0, rest.find(' ')));
                            }
                            id.where = o.where;
                            m_fp.ranks.push_back(std::move(id));
                        }
                    }
                    if (o.rank < 0) {
                        if (auto it = m_fp.pidRank.find(m_key); it != m_fp.pidRank.end())
                            o.rank = it->second;
                        else
                            m_fp.pendingPidRank.emplace_back(m_fp.observations.size() - 1, m_key);
                    }
                }
            }
        }
    }
    if (!timed && s.size() > 6 && s[0] == '[' && (s[1] == 'E' || s[1] == 'W' || s[1] == 'I' || s[1] == 'F')) {
        // c10: "[E1102 10:15:06.211734912 ProcessGroupNCCL.cpp:1910]"
        if (parseGlogTime(s.substr(2), year, t) > 0)
            timed = take(t);
    }
    if (!timed && s.size() > 6 && (s[0] == 'E' || s[0] == 'W' || s[0] == 'I' || s[0] == 'F') && isDigit(s[1])) {
        // glog (torchrun elastic agent): "E1102 10:15:08.412000 48790 file:line]"
        if (parseGlogTime(s.substr(1), year, t) > 0)
            timed = take(t);
    }
    if (!timed) {
        // Python logging "2026-11-02 10:15:06,123 ...", torchrun summary "  time      : 2026-11-02_10:15:08"
        std::string_view ts = trim(s);
        if (ts.substr(0, 4) == "time") {
            const auto colon = ts.find(": ");
            if (colon != std::string_view::npos)
                ts = ts.substr(colon + 2);
        }
        if (core::parseIsoTime(ts, t) > 0)
            timed = take(t);
    }
    if (!timed && fallbackNs != INT64_MIN) {
        o.timeNs = fallbackNs;
        o.precisionNs = 0;
        o.quality = TimeQuality::Exact;
    }
    // The stream's labels come last: what the record itself says (its host, srun task, [rankN]:, NCCL pid) wins.
    if (o.rank < 0 && stream.rank >= 0)
        o.rank = stream.rank;
    if (o.node == core::kNoNode && stream.agentHost && !stream.node.empty())
        m_fp.agentHostNodes.emplace_back(index, m_fp.internHost(stream.node));
}

} // namespace faultline::importers
