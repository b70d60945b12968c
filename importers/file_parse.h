// SPDX-License-Identifier: Apache-2.0
// The contract between the bundle import and the format parsers: what one parser receives (the shared, read-only
// bundle context) and produces (one FileParse per file, or per chunk of a large file). Parsers run in parallel, one
// file or chunk each; FileParse is merged into the EvidenceSet on one thread. The parsers themselves live in one
// folder per source family (slurm/, kernel/, loki/, ...).
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

/// Facts about the workload that scheduler files reveal (the scope phase), used to scope the rest (the parse phase).
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

} // namespace faultline::importers
