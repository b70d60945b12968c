// SPDX-License-Identifier: Apache-2.0
#include "importers/bundle_loader.h"

#include "core/util/huge_pages.h"
#include "importers/bundle/formats.h"
#include "importers/bundle/manifest.h"
#include "importers/bundle/phases.h"
#include "importers/file_parse.h"

#include <algorithm>
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

core::EvidenceSet loadBundle(const std::vector<std::string>& paths, const LoadOptions& options)
{
    return importBundle(collectBundle(paths, options), options);
}

core::EvidenceSet importBundle(const core::BundleInput& input, const LoadOptions& options)
{
    core::EvidenceSet ev;
    ev.root = input.root;
    ev.diagnostics = input.diagnostics;
    const std::vector<core::InputFile>& entries = input.files;
    const Manifest manifest = readInputManifest(input);
    for (auto& d : manifest.diagnostics)
        ev.diagnostics.push_back(d);

    // Detect: each file's format and hints.
    DetectedFiles detected = detectFiles(entries, manifest);
    const std::vector<const FormatInfo*>& formats = detected.formats;

    // Scope: the scheduler files, read first, give the workload (job, nodes, window) the other parsers read.
    const BundleContext ctx = scopeWorkload(detected, input, manifest, options, ev);
    const core::Scope& scope = ev.scope;

    // Parse: every other file, in parallel.
    ParsedFiles parts = parseFiles(std::move(detected.files), formats, ctx, options);

    // 5. Merge in file order (chunks in order); resolve NCCL pid → rank across chunks; fill missing times between
    // neighbours; compute per-source figures.
    std::size_t total = 0;
    for (const auto& ps : parts)
        for (const auto& part : ps)
            total += part.observations.size();
    ev.observations.reserve(total);
    core::adviseHugePages(ev.observations.data(), total * sizeof(core::Observation));
    RankPlacement placement;
    for (std::size_t i = 0; i < parts.size(); ++i) {
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
