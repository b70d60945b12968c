// SPDX-License-Identifier: Apache-2.0
// The scope phase: the scheduler files (sacct, scontrol, Kueue) are parsed before every other file, because what
// they say about the workload (its job, allocated nodes and window) is what the other parsers read: the nodes place
// per-node files and srun task labels, the window gives year-less stamps their year.
#include "importers/bundle/formats.h"
#include "importers/bundle/phases.h"
#include "importers/kernel/kernel_parsers.h"
#include "importers/kubernetes/kubernetes_parsers.h"
#include "importers/support/hostlist.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>

namespace fs = std::filesystem;

namespace faultline::importers {

using core::CoverageStatus;

namespace {

/// What the parsers read, as far as the manifest and the options give it: the scheduler files are parsed with this.
BundleContext manifestContext(const Manifest& manifest, const LoadOptions& options)
{
    BundleContext ctx;
    ctx.manifest = &manifest;
    ctx.cancel = options.cancel;
    ctx.jobId = !options.jobId.empty() ? options.jobId : manifest.jobId;
    ctx.ranksPerNode = manifest.ranksPerNode;
    for (const auto& [host, info] : manifest.hosts)
        if (!info.ip.empty())
            ctx.ipToHost[info.ip] = host;
    return ctx;
}

/// Parses the scoping files whole, in input order. The first that names a job gives the facts; `zoneAssumed` says
/// whether their window was read in an assumed zone.
SchedulerFacts readSchedulerFiles(
    DetectedFiles& detected, const BundleContext& ctx, const LoadOptions& options, bool& zoneAssumed)
{
    std::vector<FileParse>& files = detected.files;
    const std::vector<const FormatInfo*>& formats = detected.formats;
    SchedulerFacts facts;
    zoneAssumed = false;
    for (std::size_t i = 0; i < files.size(); ++i)
        if (formats[i] && formats[i]->scoping) {
            if (files[i].source.status != CoverageStatus::Error) {
                files[i].data = files[i].file->bytes();
                files[i].cancel = options.cancel;
                runParser(*formats[i], files[i], ctx);
            }
            if (!files[i].facts.jobId.empty() && facts.jobId.empty()) {
                facts = files[i].facts;
                zoneAssumed = !files[i].zoneFromManifest && !files[i].facts.zoned;
            }
        }
    return facts;
}

/// The workload attempt: the manifest's statements, else the scheduler's facts. Its nodes are interned first, in
/// allocation order, and become ctx.scopeNodes.
void stateScope(const Manifest& manifest, const SchedulerFacts& facts, bool factsZoneAssumed, BundleContext& ctx,
    core::EvidenceSet& ev)
{
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
            ev.diagnostics.push_back(core::makeDiagnostic(core::Severity::Warning, "bad-hostlist",
                "cannot expand hostlist '" + nodeExpr + "'", manifest.present ? "faultline.yaml" : facts.origin));
        }
    }
}

/// Without a manifest, a per-node file's host comes from a path component that names an allocated node
/// ("nodes/node-02/dmesg.txt"), else from a file name that starts with one ("node-04-trainer-json.log"; the next
/// character must not continue the name, so node-1 never claims node-10's files).
void hostsFromAllocation(std::vector<FileParse>& files, const std::vector<std::string>& scopeNodes)
{
    for (auto& fp : files) {
        if (!fp.hostName.empty())
            continue;
        for (const auto& part : fs::path(fp.source.path).parent_path())
            if (std::find(scopeNodes.begin(), scopeNodes.end(), part.string()) != scopeNodes.end())
                fp.hostName = part.string();
        if (!fp.hostName.empty())
            continue;
        const std::string name = fs::path(fp.source.path).filename().string();
        std::size_t best = 0;
        for (const auto& node : scopeNodes)
            if (node.size() > best && name.size() > node.size() && name.compare(0, node.size(), node) == 0
                && !std::isalnum(static_cast<unsigned char>(name[node.size()]))) {
                fp.hostName = node;
                best = node.size();
            }
    }
}

/// Container logs name pods; the pods' JSON names their nodes.
void podNodes(const std::vector<FileParse>& files, BundleContext& ctx)
{
    for (const auto& fp : files)
        if (fp.file && fp.source.format == "k8s-pods-json")
            for (auto& [pod, node] : podNodesFromJson(fp.file->bytes()))
                ctx.podToNode.emplace(pod, node);
}

/// Raw dmesg stamps count seconds since boot: without a manifest boot_time, the host's journald export gives the
/// boot time (realtime minus monotonic of one record).
void dmesgBootTimes(std::vector<FileParse>& files)
{
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
}

/// Year-less stamps (syslog, journald short, glog) take the workload's year; without a workload window, the year
/// the bundle's files were last written (collection time), which a diagnostic says.
int referenceYear(const core::BundleInput& input, core::EvidenceSet& ev)
{
    if (ev.scope.startNs != INT64_MIN)
        return core::yearOfUtcNs(ev.scope.startNs);
    std::int64_t newest = INT64_MIN;
    for (const auto& e : input.files)
        newest = std::max(newest, e.mtimeNs);
    const int year = newest == INT64_MIN ? 1970 : core::yearOfUtcNs(newest);
    if (!input.files.empty())
        ev.diagnostics.push_back(core::makeDiagnostic(core::Severity::Info, "year-assumed",
            "no workload window: timestamps without a year (syslog, journald short, glog) are placed in "
                + std::to_string(year) + ", the year the bundle's files were written",
            input.root));
    return year;
}

} // namespace

BundleContext scopeWorkload(DetectedFiles& detected, const core::BundleInput& input, const Manifest& manifest,
    const LoadOptions& options, core::EvidenceSet& ev)
{
    BundleContext ctx = manifestContext(manifest, options);
    bool factsZoneAssumed = false;
    const SchedulerFacts facts = readSchedulerFiles(detected, ctx, options, factsZoneAssumed);
    stateScope(manifest, facts, factsZoneAssumed, ctx, ev);
    hostsFromAllocation(detected.files, ctx.scopeNodes);
    podNodes(detected.files, ctx);
    dmesgBootTimes(detected.files);
    ctx.referenceYear = referenceYear(input, ev);
    return ctx;
}

} // namespace faultline::importers
