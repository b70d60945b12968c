// SPDX-License-Identifier: Apache-2.0
// The optional bundle manifest `faultline.yaml` (static context): workload, hosts (zone, boot time, IP) and
// per-file hints (format, host, zone, Loki common labels). See resources/samples/*/faultline.yaml.
#pragma once

#include "core/model/bundle_input.h"
#include "core/util/diagnostic.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace faultline::importers {

struct HostInfo
{
    std::string zone;
    std::int64_t bootNs = INT64_MIN;
    std::string ip;
    std::string role;
};

struct FileHint
{
    std::string format;
    std::string host;
    std::string zone;
    std::map<std::string, std::string> labels;
    long long limit = 0; ///< the Loki query's entry limit (logcli --limit, API limit=), 0 when unknown
};

struct Manifest
{
    bool present = false;
    std::string path;
    std::string bundle;
    std::string cluster;
    std::string scheduler;
    std::string jobId;
    std::string nodes; ///< hostlist
    int ranksPerNode = 0;
    std::int64_t windowFromNs = INT64_MIN;
    std::int64_t windowToNs = INT64_MIN;
    /// When the collector ran (collected_at): the reference of the relative ages kubectl prints ("5m").
    std::int64_t collectedAtNs = INT64_MIN;
    std::map<std::string, HostInfo, std::less<>> hosts; ///< transparent: looked up by string_view per record
    std::map<std::string, FileHint> files; ///< key: path relative to the bundle root
    std::vector<core::Diagnostic> diagnostics;
};

/// Reads `path`. A malformed manifest yields located diagnostics and whatever could be read; it never throws.
Manifest readManifest(const std::string& path, const std::string& displayPath);
/// The same from the manifest's text (a manifest inside an archive).
Manifest readManifestText(const std::string& text, const std::string& displayPath);
/// The manifest of collected input: none (a default Manifest) when the input has none, an error diagnostic when it
/// could not be read.
Manifest readInputManifest(const core::BundleInput& input);

} // namespace faultline::importers
