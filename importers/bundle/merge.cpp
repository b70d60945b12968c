// SPDX-License-Identifier: Apache-2.0
// The merge phase: the parsed parts become the EvidenceSet on one thread, in input order and chunk order, so the
// same input gives the same evidence whatever the thread count. Per file it resolves what a part could not alone
// (NCCL pid → rank across chunks, line numbers, node ids), places untimed records, and sums the source's figures;
// across files it places ranked records without a node.
#include "core/util/huge_pages.h"
#include "importers/bundle/formats.h"
#include "importers/bundle/phases.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>

namespace faultline::importers {

using core::CoverageStatus;
using core::SourceKind;

namespace {

/// What places records without a node once every file is merged.
struct RankPlacement
{
    std::vector<std::pair<std::int32_t, core::NodeId>> stated; ///< rank → node besides NCCL init lines (torchrun)
    std::vector<std::pair<std::size_t, core::NodeId>> agentHost; ///< observation → its stream's agent host
};

/// Appends a file's parts to `ev` in order: their records, rank identities and metric series, with the file's
/// source index, line numbers counted from the file's start and node ids of ev.nodes; a record whose NCCL rank waits
/// for an init line in another chunk gets it. Returns the file's source with its parts' figures and warnings.
core::Source appendParts(std::vector<FileParse>& parts, core::EvidenceSet& ev, RankPlacement& placement)
{
    const auto sourceIndex = static_cast<std::uint32_t>(ev.sources.size());
    core::Source src = parts.front().source;
    std::uint64_t lineBase = 0;
    std::map<std::string, int> pidRank;
    for (const auto& part : parts)
        pidRank.insert(part.pidRank.begin(), part.pidRank.end());
    for (std::size_t p = 0; p < parts.size(); ++p) {
        FileParse& part = parts[p];
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
    return src;
}

/// True when the import was cancelled before a part of the file was read completely. Parts the import never meant
/// to parse (no format, already failed) and the scoping files (parsed whole by the scope phase) do not count.
bool cancelledBeforeRead(const std::vector<FileParse>& parts, const FormatInfo* format)
{
    return std::any_of(parts.begin(), parts.end(), [&](const FileParse& part) {
        return !part.parsed && format && part.source.status != CoverageStatus::Error && !format->scoping;
    });
}

/// The file's host: the one the manifest or its path names, else, for a kernel or fabric log whose records (from
/// `first` on) all name one host (journald _HOSTNAME, syslog), that host.
void sourceHost(core::Source& src, const FileParse& head, std::size_t first, core::EvidenceSet& ev)
{
    if (!head.hostName.empty())
        src.host = ev.nodes.intern(head.hostName);
    if (src.host == core::kNoNode && src.kind != SourceKind::AppLog && src.kind != SourceKind::Scheduler
        && ev.observations.size() > first) {
        const core::NodeId only = ev.observations[first].node;
        bool single = only != core::kNoNode;
        for (std::size_t k = first; single && k < ev.observations.size(); ++k)
            single = ev.observations[k].node == only;
        if (single)
            src.host = only;
    }
}

/// A pasted excerpt named after its host ("node045-ibstatus.txt", "instance-8g-96c-1-standalone.txt") whose records
/// that name a host all name that one belongs to that host, and so do its records that name none (a bare NCCL
/// version line, a traceback). Both must agree: a name alone may be a job's, records alone may be one rank's of many.
void hostFromFileName(core::Source& src, std::size_t first, core::EvidenceSet& ev)
{
    if (src.host != core::kNoNode)
        return;
    core::NodeId only = core::kNoNode;
    for (std::size_t k = first; k < ev.observations.size(); ++k) {
        const core::NodeId node = ev.observations[k].node;
        if (node == core::kNoNode)
            continue;
        if (only == core::kNoNode)
            only = node;
        else if (node != only)
            return;
    }
    if (only == core::kNoNode)
        return;
    const std::string& host = ev.nodes.name(only);
    const std::string file = std::filesystem::path(src.path).filename().string();
    if (host.empty() || file.size() < host.size() || file.compare(0, host.size(), host) != 0
        || (file.size() > host.size() && std::isalnum(static_cast<unsigned char>(file[host.size()]))))
        return;
    src.host = only;
    for (std::size_t k = first; k < ev.observations.size(); ++k)
        if (ev.observations[k].node == core::kNoNode)
            ev.observations[k].node = only;
    src.formatReason += "; host " + host + " from the file's name, as its records name it";
}

/// The chunks of one file decide their zone alone (a syslog takes each line's host zone): the file's zone is assumed
/// when any chunk's was.
void sourceZone(core::Source& src, const std::vector<FileParse>& parts)
{
    const FileParse& head = parts.front();
    src.zone = head.zone;
    src.zoneAssumed = false;
    for (const FileParse& part : parts) {
        src.zoneAssumed = src.zoneAssumed || !part.zoneFromManifest;
        if (part.zone != head.zone)
            src.zone = kZonePerHost;
    }
}

/// Inferred times: a record without its own time sits between its timed neighbours, somewhere in [previous, next]
/// (the precision says how wide). Before the first timed record or after the last one nothing bounds it, so its
/// time stays missing (it keeps its place in the file) rather than taking a neighbour's time as if it were known.
/// Also sets the source's first and last times. Returns whether a record's time was read in an assumed zone.
bool placeUntimedRecords(
    std::vector<core::Observation>& observations, std::size_t first, const FormatInfo* format, core::Source& src)
{
    std::int64_t prev = INT64_MIN;
    std::vector<std::size_t> pending;
    auto settle = [&](std::int64_t nextTime) {
        for (std::size_t k : pending) {
            auto& o = observations[k];
            if (prev == INT64_MIN || nextTime == INT64_MIN)
                continue;
            o.timeNs = prev;
            o.precisionNs = std::max<std::int64_t>(0, nextTime - prev);
            o.quality = core::TimeQuality::Inferred;
        }
        pending.clear();
    };
    bool anyZoneless = false;
    for (std::size_t k = first; k < observations.size(); ++k) {
        auto& o = observations[k];
        if (o.timeNs == INT64_MIN) {
            if (!format || format->placeUntimed)
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
    return anyZoneless;
}

/// Records outside the workload window are kept and marked (not when the window's own zone was assumed).
void markOutOfScope(
    std::vector<core::Observation>& observations, std::size_t first, const core::Scope& scope, core::Source& src)
{
    if (scope.startNs == INT64_MIN || scope.endNs == INT64_MIN || scope.windowZoneAssumed)
        return;
    for (std::size_t k = first; k < observations.size(); ++k) {
        auto& o = observations[k];
        if (o.timeNs != INT64_MIN && (o.timeNs + o.precisionNs < scope.startNs || o.timeNs > scope.endNs)) {
            o.outOfScope = true;
            ++src.outOfScope;
        }
    }
}

/// Loki answers at most `limit` entries: exactly that many means the answer was probably cut there.
void checkLokiLimit(core::Source& src, const Manifest& manifest)
{
    if (src.format != "logcli-jsonl" && src.format != "logcli-text" && src.format != "loki-query-range")
        return;
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

/// Merges one file's parts into `ev` and adds its source.
void mergeFile(std::vector<FileParse>& parts, const FormatInfo* format, const Manifest& manifest, core::EvidenceSet& ev,
    RankPlacement& placement)
{
    const std::size_t first = ev.observations.size();
    core::Source src = appendParts(parts, ev, placement);
    if (cancelledBeforeRead(parts, format)) {
        // Partial but consistent: what was read stays, and the source says it is incomplete.
        src.status = CoverageStatus::Truncated;
        src.warnings.push_back(core::makeDiagnostic(core::Severity::Warning, "import-cancelled",
            "the import was cancelled before this file was read completely", src.path));
    }
    const FileParse& head = parts.front();
    sourceHost(src, head, first, ev);
    hostFromFileName(src, first, ev);
    sourceZone(src, parts);
    if (!placeUntimedRecords(ev.observations, first, format, src)) {
        src.zone.clear();
        src.zoneAssumed = false;
    } else if (src.zoneAssumed) {
        src.warnings.push_back(core::makeDiagnostic(core::Severity::Warning, "zone-assumed",
            "times without a zone are read as UTC: the manifest gives no tz for this file or its host", src.path));
    }
    if (ev.observations.size() > first)
        src.records = ev.observations.size() - first;
    markOutOfScope(ev.observations, first, ev.scope, src);
    checkLokiLimit(src, manifest);
    if (src.status == CoverageStatus::Ok && src.records == 0)
        src.status = CoverageStatus::Empty;
    if (head.file)
        ev.keepAlive.push_back(head.file);
    ev.sources.push_back(std::move(src));
}

/// An archive whose read stopped early, as a source of its own so coverage shows the gap.
core::Source archiveStopSource(const core::ArchiveStop& stop)
{
    core::Source src;
    src.path = stop.path;
    src.format = "archive";
    src.formatReason = "archive read with libarchive";
    src.status = stop.partial ? CoverageStatus::Truncated : CoverageStatus::Error;
    src.bytes = stop.bytes;
    src.warnings.push_back(core::makeDiagnostic(core::Severity::Error, stop.code, stop.message, src.path));
    return src;
}

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

} // namespace

void mergeFiles(ParsedFiles& parsed, const std::vector<const FormatInfo*>& formats, const Manifest& manifest,
    const std::vector<core::ArchiveStop>& archiveStops, core::EvidenceSet& ev)
{
    std::size_t total = 0;
    for (const auto& parts : parsed)
        for (const auto& part : parts)
            total += part.observations.size();
    ev.observations.reserve(total);
    core::adviseHugePages(ev.observations.data(), total * sizeof(core::Observation));
    RankPlacement placement;
    for (std::size_t i = 0; i < parsed.size(); ++i)
        if (!parsed[i].empty())
            mergeFile(parsed[i], formats[i], manifest, ev, placement);
    for (const auto& stop : archiveStops)
        ev.sources.push_back(archiveStopSource(stop));
    // One identity per rank: the first statement of it (Loki and the job log repeat the same init lines).
    std::stable_sort(ev.ranks.begin(), ev.ranks.end(),
        [](const core::RankIdentity& a, const core::RankIdentity& b) { return a.rank < b.rank; });
    ev.ranks.erase(std::unique(ev.ranks.begin(), ev.ranks.end(),
                       [](const core::RankIdentity& a, const core::RankIdentity& b) { return a.rank == b.rank; }),
        ev.ranks.end());
    placeRankedRecords(ev, placement);
}

} // namespace faultline::importers
