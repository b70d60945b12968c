// SPDX-License-Identifier: Apache-2.0
#include "importers/bundle_loader.h"

#include "importers/bundle/manifest.h"
#include "importers/bundle/phases.h"

namespace faultline::importers {

core::EvidenceSet loadBundle(const std::vector<std::string>& paths, const LoadOptions& options)
{
    return importBundle(collectBundle(paths, options), options);
}

core::EvidenceSet importBundle(const core::BundleInput& input, const LoadOptions& options)
{
    core::EvidenceSet ev;
    ev.root = input.root;
    ev.diagnostics = input.diagnostics;
    const Manifest manifest = readInputManifest(input);
    for (const auto& d : manifest.diagnostics)
        ev.diagnostics.push_back(d);
    DetectedFiles detected = detectFiles(input.files, manifest);
    const BundleContext ctx = scopeWorkload(detected, input, manifest, options, ev);
    ParsedFiles parsed = parseFiles(std::move(detected.files), detected.formats, ctx, options);
    mergeFiles(parsed, detected.formats, manifest, input.archiveStops, ev);
    // A peer named by its address is the node the manifest gives that address, when the evidence knows the node.
    for (const auto& [host, info] : manifest.hosts)
        if (const core::NodeId n = ev.nodes.find(host); !info.ip.empty() && n != core::kNoNode)
            ev.addressNodes.emplace(info.ip, n);
    return ev;
}

} // namespace faultline::importers
