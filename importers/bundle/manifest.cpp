// SPDX-License-Identifier: Apache-2.0
#include "importers/bundle/manifest.h"

#include "core/time/civil_time.h"
#include "core/util/yaml_nodes.h"

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <fstream>
#include <sstream>

namespace faultline::importers {
namespace {
using core::yaml::isMap;
using core::yaml::isScalar;

core::Diagnostic diag(const std::string& file, const YAML::Mark& mark, std::string code, std::string message)
{
    core::Diagnostic d = core::makeDiagnostic(core::Severity::Warning, std::move(code), std::move(message), file);
    if (mark.line >= 0) {
        d.where.line = static_cast<std::uint64_t>(mark.line) + 1;
        d.where.column = static_cast<std::uint32_t>(mark.column) + 1;
    }
    return d;
}

std::string str(const YAML::Node& map, const char* key)
{
    return core::yaml::scalarAt(map, key);
}

std::int64_t timeValue(Manifest& m, const YAML::Node& map, const char* key)
{
    const std::string s = str(map, key);
    if (s.empty())
        return INT64_MIN;
    core::CivilTime t;
    if (core::parseIsoTime(s, t) != s.size() || !t.hasOffset) {
        m.diagnostics.push_back(diag(m.path, map[key].Mark(), "manifest-bad-time",
            std::string("'") + key + "' must be an RFC 3339 time with a zone, got '" + s + "'"));
        return INT64_MIN;
    }
    return core::civilAsUtcNs(t) - static_cast<std::int64_t>(t.offsetSeconds) * core::kNsPerSec;
}

} // namespace

Manifest readManifest(const std::string& path, const std::string& displayPath)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) {
        Manifest m;
        m.path = displayPath;
        m.diagnostics.push_back(
            diag(displayPath, YAML::Mark::null_mark(), "manifest-unreadable", "cannot read the manifest"));
        m.diagnostics.back().severity = core::Severity::Error;
        return m;
    }
    return readManifestText(text.str(), displayPath);
}

Manifest readManifestText(const std::string& text, const std::string& displayPath)
{
    Manifest m;
    m.path = displayPath;
    YAML::Node doc;
    try {
        doc = YAML::Load(text);
    } catch (const YAML::ParserException& e) {
        m.diagnostics.push_back(diag(displayPath, e.mark, "manifest-syntax", "manifest is not valid YAML: " + e.msg));
        m.diagnostics.back().severity = core::Severity::Error;
        return m;
    } catch (const YAML::Exception& e) {
        m.diagnostics.push_back(diag(displayPath, YAML::Mark::null_mark(), "manifest-unreadable", e.msg));
        m.diagnostics.back().severity = core::Severity::Error;
        return m;
    }
    if (!isMap(doc)) {
        m.diagnostics.push_back(diag(displayPath, doc.Mark(), "manifest-shape", "manifest top level must be a map"));
        return m;
    }
    m.present = true;
    try {
        m.bundle = str(doc, "bundle");
        m.cluster = str(doc, "cluster");
        if (doc["collected_at"].IsDefined())
            m.collectedAtNs = timeValue(m, doc, "collected_at");
        if (const YAML::Node w = doc["workload"]; isMap(w)) {
            m.scheduler = str(w, "scheduler");
            m.jobId = str(w, "job_id");
            m.nodes = str(w, "nodes");
            const std::string rpn = str(w, "ranks_per_node");
            if (!rpn.empty() && std::from_chars(rpn.data(), rpn.data() + rpn.size(), m.ranksPerNode).ec != std::errc())
                m.diagnostics.push_back(diag(displayPath, w["ranks_per_node"].Mark(), "manifest-bad-number",
                    "'ranks_per_node' must be an integer"));
            if (const YAML::Node win = w["window"]; isMap(win)) {
                m.windowFromNs = timeValue(m, win, "from");
                m.windowToNs = timeValue(m, win, "to");
            }
        }
        if (const YAML::Node hosts = doc["hosts"]; isMap(hosts)) {
            for (const auto& kv : hosts) {
                HostInfo h;
                if (isMap(kv.second)) {
                    h.zone = str(kv.second, "tz");
                    h.ip = str(kv.second, "ip");
                    h.role = str(kv.second, "role");
                    h.bootNs = timeValue(m, kv.second, "boot_time");
                    if (!h.zone.empty() && !core::ZoneResolver::isKnownZone(h.zone))
                        m.diagnostics.push_back(diag(displayPath, kv.second["tz"].Mark(), "manifest-unknown-zone",
                            "unknown time zone '" + h.zone + "' for host " + kv.first.Scalar() + "; UTC is assumed"));
                }
                m.hosts[kv.first.Scalar()] = h;
            }
        }
        if (const YAML::Node files = doc["files"]; isMap(files)) {
            for (const auto& kv : files) {
                FileHint f;
                if (isMap(kv.second)) {
                    f.format = str(kv.second, "format");
                    f.host = str(kv.second, "host");
                    f.zone = str(kv.second, "tz");
                    if (const std::string limit = str(kv.second, "limit"); !limit.empty())
                        std::from_chars(limit.data(), limit.data() + limit.size(), f.limit);
                    if (const YAML::Node l = kv.second["labels"]; isMap(l))
                        for (const auto& lab : l)
                            f.labels[lab.first.Scalar()] = isScalar(lab.second) ? lab.second.Scalar() : std::string();
                }
                m.files[kv.first.Scalar()] = f;
            }
        }
    } catch (const YAML::Exception& e) {
        m.diagnostics.push_back(diag(displayPath, e.mark, "manifest-shape", e.msg));
    }
    return m;
}

Manifest readInputManifest(const core::BundleInput& input)
{
    Manifest manifest;
    if (input.hasManifest) {
        if (input.manifestReadable) {
            manifest = readManifestText(input.manifestText, input.manifestPath);
        } else {
            manifest.path = input.manifestPath;
            manifest.diagnostics.push_back(core::makeDiagnostic(
                core::Severity::Error, "manifest-unreadable", "cannot read the manifest", input.manifestPath));
        }
    }
    return manifest;
}

} // namespace faultline::importers
