// SPDX-License-Identifier: Apache-2.0
// What one format parser receives (the shared, read-only bundle context) and produces (one FileParse per file).
// Parsers run in parallel, one file each; FileParse is merged into the EvidenceSet on one thread.
#pragma once

#include "core/model/evidence.h"
#include "core/time/civil_time.h"
#include "core/util/huge_pages.h"
#include "importers/bundle/manifest.h"
#include "importers/support/mapped_file.h"

#include <atomic>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace faultline::importers {

/// Facts about the workload that scheduler files reveal (phase A), used to scope the rest (phase B).
struct SchedulerFacts
{
    std::string scheduler; ///< "slurm", "kueue"
    std::string jobId;
    std::string jobName;
    std::string state;
    std::string nodes; ///< hostlist
    std::int64_t startNs = INT64_MIN;
    std::int64_t endNs = INT64_MIN;
    std::string origin; ///< "file:line" that gave them
    bool zoned = false; ///< the window's times carry their own zone (epoch, RFC 3339): no zone is assumed
};

/// Source::zone of a file whose zone-less records were read in the zones of the different hosts they name.
inline constexpr const char* kZonePerHost = "each line's host zone";

struct BundleContext
{
    const Manifest* manifest = nullptr;
    int referenceYear = 0; ///< for year-less formats (glog, syslog, journal short)
    std::vector<std::string> scopeNodes; ///< allocation order
    int ranksPerNode = 0;
    std::map<std::string, std::string> ipToHost;
    std::string jobId;
    const std::atomic_bool* cancel = nullptr;
    std::map<std::string, std::string> podToNode; ///< from pod JSON (spec.nodeName), read before container logs
};

struct FileParse
{
    core::Source source;
    std::string_view data; ///< the bytes this parse covers: the whole file, or one chunk of a large file
    std::uint64_t baseOffset = 0; ///< offset of `data` in the file
    bool lastChunk = true; ///< only the last chunk can report a truncated file
    bool parsed = false; ///< false when the import was cancelled before this part was read
    std::string absPath;
    std::string hostName; ///< host the file belongs to, "" for multi-host files
    std::string zone = "UTC"; ///< zone for zone-less times
    bool zoneFromManifest = false;
    std::int64_t bootNs = INT64_MIN;
    std::map<std::string, std::string> labels; ///< manifest labels (Loki common labels)
    std::shared_ptr<const MappedFile> file;
    std::shared_ptr<core::TextArena> arena = std::make_shared<core::TextArena>();
    std::vector<core::Observation> observations; ///< node ids are local to `nodes`
    std::vector<core::MetricSeries> metrics;
    core::NodeTable nodes;
    SchedulerFacts facts;
    const std::atomic_bool* cancel = nullptr;
    /// NCCL "host:pid" → global rank from init lines, and records whose rank waits for an init line that may sit
    /// in another chunk; resolved when the chunks are merged.
    std::map<std::string, int> pidRank;
    std::vector<std::pair<std::size_t, std::string>> pendingPidRank;
    std::vector<core::RankIdentity> ranks; ///< from NCCL init lines; node ids local to `nodes`
    /// Rank → node statements other than NCCL init lines (the torchrun failure summary's host/rank pair); node ids
    /// local to `nodes`. With the init lines and the records that name both, they place ranked records without a
    /// node when the chunks are merged.
    std::vector<std::pair<std::int32_t, core::NodeId>> rankNodes;
    /// Records whose node only the shipping agent's host label names (a Loki host/hostname/instance label): applied
    /// when the chunks are merged, after the rank → node map, to those still without a node.
    std::vector<std::pair<std::size_t, core::NodeId>> agentHostNodes;

private:
    std::string m_lastHost;
    core::NodeId m_lastHostId = core::kNoNode;
    core::NodeId m_fileHostId = core::kNoNode;

public:
    /// Converts a civil time read from this file: explicit offsets are exact, others use the file's zone.
    void resolve(const core::CivilTime& t, core::Observation& o);
    /// The same with an explicit zone for zone-less times (a multi-host file whose records name their host).
    void resolve(const core::CivilTime& t, core::Observation& o, const std::string& zoneName);
    void warn(std::uint64_t line, std::uint64_t offset, std::string code, std::string message);
    /// A located diagnostic about the file that skips no record (a Prometheus answer's own warnings).
    void note(std::uint64_t line, std::uint64_t offset, core::Severity severity, std::string code, std::string message);
    /// Interns a host name, remembering the last one (records of one file mostly name the same host).
    core::NodeId internHost(std::string_view name);

    /// Observation for a record at [offset, offset+length) of `data` starting on `line`, with this file's host
    /// and kind.
    core::Observation& add(std::string_view text, std::uint64_t line, std::uint64_t offset, std::size_t length);

    /// Runs fn(line, lineNo, offset) over every line of `data` (offsets relative to `data`); counts lines,
    /// reserves the observations, polls cancellation and flags a last line without a newline as truncation.
    /// fn returns false to stop early.
    template <class Fn> void eachLine(Fn&& fn);
};

/// Calls fn(line, lineNo, offset) for every line (without "\n" or "\r\n"); sets `truncated` when the last line
/// has no newline.
template <class Fn> void forEachLine(std::string_view buf, bool& truncated, Fn&& fn)
{
    std::uint64_t lineNo = 0;
    std::size_t pos = 0;
    truncated = false;
    while (pos < buf.size()) {
        const std::size_t nl = buf.find('\n', pos);
        const std::size_t end = nl == std::string_view::npos ? buf.size() : nl;
        std::string_view line = buf.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        ++lineNo;
        if (nl == std::string_view::npos)
            truncated = true;
        if (!fn(line, lineNo, static_cast<std::uint64_t>(pos)))
            return;
        pos = end + 1;
    }
}

template <class Fn> void FileParse::eachLine(Fn&& fn)
{
    // Reserve generously instead of counting lines first: untouched reserved pages cost no memory, and a second
    // pass over the bytes costs time.
    observations.reserve(observations.size() + data.size() / 24 + 16);
    core::adviseHugePages(observations.data(), observations.capacity() * sizeof(core::Observation));
    bool truncated = false;
    forEachLine(data, truncated, [&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        ++source.lines;
        if (cancel && (no & 0xffff) == 0 && cancel->load())
            return false;
        return fn(line, no, off);
    });
    if (truncated && lastChunk) {
        source.status = core::CoverageStatus::Truncated;
        warn(source.lines, data.size(), "truncated", "file ends mid-line (the collector may have cut it short)");
    }
}

// Format parsers (each fills `fp` from fp.data).
void parseSacctParsable(FileParse& fp, const BundleContext& ctx);
void parseSacctJson(FileParse& fp, const BundleContext& ctx);
void parseSlurmDaemonLog(FileParse& fp, const BundleContext& ctx);
void parseJobLog(FileParse& fp, const BundleContext& ctx);
void parseDmesg(FileParse& fp, const BundleContext& ctx);
void parseSyslog(FileParse& fp, const BundleContext& ctx);
void parseFabricManager(FileParse& fp, const BundleContext& ctx);
void parseJournalJson(FileParse& fp, const BundleContext& ctx);
void parseLogcliJsonl(FileParse& fp, const BundleContext& ctx);
void parseLokiQueryRange(FileParse& fp, const BundleContext& ctx);
void parsePromql(FileParse& fp, const BundleContext& ctx);
void parseGenericText(FileParse& fp, const BundleContext& ctx);
void parseKubectlLogs(FileParse& fp, const BundleContext& ctx);
void parseCriLog(FileParse& fp, const BundleContext& ctx);
void parseDockerJson(FileParse& fp, const BundleContext& ctx);
void parseK8sEvents(FileParse& fp, const BundleContext& ctx);
void parseK8sPods(FileParse& fp, const BundleContext& ctx);
void parseKueueWorkload(FileParse& fp, const BundleContext& ctx);
void parseKubectlEventsTable(FileParse& fp, const BundleContext& ctx);
void parseKubectlDescribe(FileParse& fp, const BundleContext& ctx);
void parseComponentLog(FileParse& fp, const BundleContext& ctx);

/// Quotes a free-text value for the "key=value" text of a Kubernetes record (the JSON and the kubectl text readers
/// write the same text, so one rule matches both): '"' becomes '\"' and a newline the two characters "\n".
std::string quoteRecordValue(std::string_view s);

/// kubectl's text output by its first lines: "kubectl-events-table", "kubectl-describe", or "" (sets `reason`).
std::string_view kubectlTextFormat(std::string_view head, std::string& reason);
/// True when `line` has the envelope of a Kubernetes component's log: klog ("I1102 10:15:01.123456 1 file.go:12] "),
/// Go's log package ("2026/11/02 10:15:01 ") or logrus/slog text ('time="..." level=').
bool componentLogLine(std::string_view line);

/// glog/klog header time "1102 10:15:06.211734912" (MMDD HH:MM:SS.frac) read in `year`. Returns the bytes used, 0
/// when `s` does not start with one.
std::size_t parseGlogTime(std::string_view s, int year, core::CivilTime& t);

/// Fills a metric series' name, node (Hostname/node labels, else the scrape instance's IP via the manifest, else the
/// file's host), GPU index and device from its labels (sorted here).
void identifyMetric(core::MetricSeries& ms, FileParse& fp, const BundleContext& ctx);
void parsePromText(FileParse& fp, const BundleContext& ctx);
void parseScontrol(FileParse& fp, const BundleContext& ctx);
void parseLogcliText(FileParse& fp, const BundleContext& ctx);

/// Status of a JSON document that failed to parse: a document that starts like JSON but does not end like it was
/// cut short (truncated); anything else (an HTML error page, a plain-text 429 body) is an error.
core::CoverageStatus failedJsonStatus(std::string_view bytes);

/// Length of the "facility:level: " prefix that `dmesg --decode` (-x) writes before each record ("kern  :err   : ",
/// names padded to six columns), or 0 when `line` does not start with one.
std::size_t dmesgDecodePrefix(std::string_view line);

/// Source kind of a syslog/journald record by its identifier (kernel, nv-fabricmanager, slurmd, ...).
core::SourceKind kindForIdentifier(std::string_view ident);

/// Pod name → node name from a pods JSON file (a v1 List or a single Pod); empty when the text is not one.
std::map<std::string, std::string> podNodesFromJson(std::string_view bytes);

/// Boot time of the host that wrote a journalctl -o json file, from a record's __REALTIME_TIMESTAMP minus its
/// __MONOTONIC_TIMESTAMP: the anchor that places raw dmesg stamps of the same boot when no manifest gives one.
/// Returns false when the first records hold no such pair.
bool journalBootAnchor(std::string_view bytes, std::string& host, std::int64_t& bootNs);

/// What the labels of a log stream (a Loki stream, §2.4) say about its records. A record's own content wins: a
/// host it names, its srun label, its [rankN]: prefix.
struct StreamIdentity
{
    std::string_view node; ///< the node the stream's records come from, "" when the labels name none
    /// `node` is the shipping agent's own host (host/hostname/instance), not a pod's node: it is applied after the
    /// rank → node map (see FileParse::agentHostNodes).
    bool agentHost = false;
    std::int32_t rank = -1; ///< a rank/global_rank label
};

/// Labels of one Loki stream or record as (name, value); the first entry of a name wins, so a record's own labels
/// go before the manifest's common labels.
using LokiLabels = std::vector<std::pair<std::string_view, std::string_view>>;

/// The node, rank and pod-derived node a Loki stream's labels give its records (priority order documented in
/// loki_labels.cpp). A job log on a shared filesystem carries the collector's labels (trap 3, §9.7): there no
/// label names the record's node.
StreamIdentity lokiStreamIdentity(const LokiLabels& labels, const BundleContext& ctx);
/// A kernel stream (transport="kernel", or a journald job): its records are the labelled host's, whatever the file.
bool lokiKernelStream(const LokiLabels& labels);

/// Application-log line handling shared by job logs and Loki streams: strips launcher prefixes (srun label,
/// [rankN]:, [defaultN]:), finds the record's own time and host, and stores the observation.
class AppLogLineReader
{
public:
    AppLogLineReader(FileParse& fp, const BundleContext& ctx)
        : m_fp(fp)
        , m_ctx(ctx)
    { }
    /// `fallbackNs` (Loki's own timestamp) is used when the line carries no time; `stream` (the stream's labels:
    /// a pod's node, the agent's host, a rank) when the line names no host or rank itself.
    void read(std::string_view line, std::uint64_t lineNo, std::uint64_t offset, std::size_t length,
        std::int64_t fallbackNs = INT64_MIN, const StreamIdentity& stream = {});
    /// Emits what is still grouped (a traceback the input ends in). Call once after the last read().
    void flush();

private:
    struct PendingTraceback
    {
        std::string text;
        int task = -1;
        int rank = -1;
        std::string rayIp;
        std::string streamNode;
        bool streamAgentHost = false;
        std::int32_t streamRank = -1;
        std::uint64_t line = 0;
        std::uint64_t offset = 0;
        std::uint64_t end = 0;
        std::int64_t fallbackNs = INT64_MIN;
        int lines = 1;
    };
    static constexpr int kMaxTracebackLines = 400;

    void addRecord(std::string_view text, int task, int rank, std::string_view rayIp, std::uint64_t lineNo,
        std::uint64_t offset, std::size_t length, std::int64_t fallbackNs, const StreamIdentity& stream);
    /// torchrun's failure summary: "  host      : node-02" then "  rank      : 12 (local_rank: 4)" in one stream
    /// state that rank's node.
    void noteSummaryIdentity(std::string_view text, std::pair<int, int> streamKey);

    FileParse& m_fp;
    const BundleContext& m_ctx;
    std::string m_key; ///< scratch for "host:pid"
    std::map<std::pair<int, int>, PendingTraceback> m_tracebacks; ///< open tracebacks per (srun task, rank)
    std::map<std::pair<int, int>, std::string> m_summaryHost; ///< last torchrun summary "host :" per stream
};

} // namespace faultline::importers
