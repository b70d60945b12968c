// SPDX-License-Identifier: Apache-2.0
// What one format parser receives (the shared, read-only bundle context) and produces (one FileParse per file).
// Parsers run in parallel, one file each; FileParse is merged into the EvidenceSet on one thread.
#pragma once

#include "core/model/evidence.h"
#include "core/time/civil_time.h"
#include "importers/manifest.h"
#include "importers/mapped_file.h"

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace faultline::importers {

/// Facts about the workload that scheduler files reveal (phase A), used to scope the rest (phase B).
struct SchedulerFacts
{
    std::string jobId;
    std::string jobName;
    std::string state;
    std::string nodes; ///< hostlist
    std::int64_t startNs = INT64_MIN;
    std::int64_t endNs = INT64_MIN;
    std::string origin; ///< "file:line" that gave them
};

struct BundleContext
{
    const Manifest* manifest = nullptr;
    int referenceYear = 0; ///< for year-less formats (glog, syslog, journal short)
    std::vector<std::string> scopeNodes; ///< allocation order
    int ranksPerNode = 0;
    std::map<std::string, std::string> ipToHost;
    std::string jobId;
    const std::atomic_bool* cancel = nullptr;
};

struct FileParse
{
    core::Source source;
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

    /// Converts a civil time read from this file: explicit offsets are exact, others use the file's zone.
    void resolve(const core::CivilTime& t, core::Observation& o);
    void warn(std::uint64_t line, std::uint64_t offset, std::string code, std::string message);
    /// Observation for a record at [offset, offset+length) starting on `line`, with this file's host and kind.
    core::Observation& add(std::string_view text, std::uint64_t line, std::uint64_t offset, std::size_t length);
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

// Format parsers (each fills `fp` from fp.file).
void parseSacctParsable(FileParse& fp, const BundleContext& ctx);
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

/// Application-log line handling shared by job logs and Loki streams: strips launcher prefixes (srun label,
/// [rankN]:, [defaultN]:), finds the record's own time and host, and stores the observation.
class AppLogLineReader
{
public:
    AppLogLineReader(FileParse& fp, const BundleContext& ctx)
        : m_fp(fp)
        , m_ctx(ctx)
    { }
    /// `fallbackNs` (Loki's own timestamp) is used when the line carries no time.
    void read(std::string_view line, std::uint64_t lineNo, std::uint64_t offset, std::size_t length,
        std::int64_t fallbackNs = INT64_MIN);

private:
    FileParse& m_fp;
    const BundleContext& m_ctx;
    std::map<std::string, int> m_pidRank; ///< "host:pid" → global rank, from NCCL init lines
};

} // namespace faultline::importers
