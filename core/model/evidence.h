// SPDX-License-Identifier: Apache-2.0
// The imported evidence: sources, observations (one per log record) and metric series. Every observation keeps
// its provenance (source, line, byte offset, length) so any later fact can be traced back to the raw bytes.
//
// Ownership: an EvidenceSet owns the bytes its observations' string_views point into (mapped files and text
// arenas). It is built by one importer run, then treated as immutable and may be read from several threads.
#pragma once

#include "core/util/diagnostic.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace faultline::core {

enum class SourceKind : std::uint8_t { Scheduler, AppLog, Kernel, Metrics, FabricManager, Kubernetes, Other };
const char* sourceKindName(SourceKind k);
bool sourceKindFromName(std::string_view name, SourceKind& out);

/// How an observation's time was obtained.
enum class TimeQuality : std::uint8_t {
    Exact, ///< absolute time with zone, or epoch
    AssumedZone, ///< wall clock without zone, converted with a zone from the manifest or a default
    Inferred, ///< no time on the record; placed between its neighbours
    Missing ///< no time could be established
};
const char* timeQualityName(TimeQuality q);

using NodeId = std::uint32_t;
inline constexpr NodeId kNoNode = 0xffffffffu;

struct Provenance
{
    std::uint64_t line = 0; ///< 1-based line of the record's first byte
    std::uint64_t byteOffset = 0; ///< offset of the record's first byte in the source file
    std::uint32_t source = 0;
    std::uint32_t length = 0; ///< bytes of the record in the source file
};

struct Observation
{
    std::string_view text; ///< the message, envelope stripped (owned by the EvidenceSet)
    std::int64_t timeNs = INT64_MIN;
    std::int64_t precisionNs = 0; ///< the true time lies in [timeNs, timeNs + precisionNs)
    Provenance where;
    NodeId node = kNoNode;
    std::int32_t rank = -1;
    std::int32_t gpu = -1; ///< NVML / CUDA index when the envelope names it
    SourceKind kind = SourceKind::Other;
    TimeQuality quality = TimeQuality::Missing;
    bool outOfScope = false; ///< outside the workload window (kept, and shown; the engine applies its own margin)
};

enum class CoverageStatus { Ok, Empty, Error, Truncated, Missing };
const char* coverageStatusName(CoverageStatus s);

/// One imported file (or archive member).
struct Source
{
    std::string path; ///< as shown to the user: relative to the bundle root
    std::string format; ///< importer format id, e.g. "journal-json"
    std::string formatReason; ///< why that format was chosen (manifest, signature, ...)
    SourceKind kind = SourceKind::Other;
    NodeId host = kNoNode; ///< the host the file belongs to, when it is per-host
    std::string zone; ///< zone applied to zone-less times ("" when none needed)
    bool zoneAssumed = false;
    CoverageStatus status = CoverageStatus::Ok;
    std::uint64_t bytes = 0;
    std::uint64_t lines = 0;
    std::uint64_t records = 0;
    std::uint64_t skipped = 0;
    std::uint64_t outOfScope = 0; ///< records outside the workload window
    std::int64_t firstTimeNs = INT64_MIN;
    std::int64_t lastTimeNs = INT64_MIN;
    std::vector<Diagnostic> warnings;
};

/// A metric time series (one label set).
struct MetricSeries
{
    std::string name;
    std::vector<std::pair<std::string, std::string>> labels; ///< sorted by key
    NodeId node = kNoNode;
    std::int32_t gpu = -1;
    std::string device; ///< IB device/port, NVLink id, ... when the labels carry one
    std::vector<std::pair<std::int64_t, double>> samples;
    Provenance where;
};

/// Host names, interned. Names are normalised (short name, lower case) before interning.
class NodeTable
{
public:
    NodeId intern(std::string_view rawName);
    NodeId find(std::string_view rawName) const;
    const std::string& name(NodeId id) const;
    std::size_t size() const { return m_names.size(); }
    static std::string normalise(std::string_view rawName);

private:
    std::vector<std::string> m_names;
    std::map<std::string, NodeId, std::less<>> m_ids;
};

/// The workload attempt the analysis is about.
struct Scope
{
    std::string scheduler; ///< "slurm", "kueue", "" when unknown
    std::string jobId;
    std::string jobName;
    std::string state; ///< final scheduler state, e.g. FAILED
    std::vector<NodeId> nodes; ///< allocated nodes, allocation order
    int ranksPerNode = 0;
    std::int64_t startNs = INT64_MIN;
    std::int64_t endNs = INT64_MIN;
    std::string origin; ///< where the scope came from
    /// The window's times were written without a zone and none was given (sacct -P local time read as UTC): the
    /// engine then does not filter by window, since the true window may be hours away.
    bool windowZoneAssumed = false;
};

/// One rank's identity, as the evidence states it (NCCL init lines: host, pid, rank, CUDA device, PCI bus id).
struct RankIdentity
{
    std::int32_t rank = -1;
    NodeId node = kNoNode;
    std::string gpu; ///< normalised PCI bus id, "" when unknown
    std::int32_t cudaDevice = -1;
    std::int64_t pid = -1;
    Provenance where;
};

/// Append-only storage for decoded text with stable addresses.
class TextArena
{
public:
    std::string_view store(std::string_view s);

private:
    std::vector<std::unique_ptr<char[]>> m_blocks;
    std::size_t m_used = 0;
    std::size_t m_capacity = 0;
};

struct EvidenceSet
{
    std::string root; ///< bundle path as given
    std::vector<Source> sources;
    std::vector<Observation> observations; ///< grouped by source, in file order (sources in path order)
    std::vector<MetricSeries> metrics;
    std::vector<RankIdentity> ranks; ///< sorted by rank; one entry per rank the evidence identifies
    NodeTable nodes;
    /// The nodes' addresses the manifest states (10.10.0.3 → node-03), for records that name a peer by address.
    std::map<std::string, NodeId, std::less<>> addressNodes;
    Scope scope;
    std::vector<Diagnostic> diagnostics; ///< bundle-level problems (manifest, unreadable files, ...)
    std::vector<std::shared_ptr<const void>> keepAlive; ///< mapped files and arenas backing the text
    std::shared_ptr<TextArena> arena = std::make_shared<TextArena>();

    std::string nodeName(NodeId id) const { return id == kNoNode ? std::string() : nodes.name(id); }
    /// The rank that drives `gpu` (a normalised PCI bus id) on `node`, or -1.
    std::int32_t rankOnGpu(NodeId node, const std::string& gpu) const;
};

} // namespace faultline::core
