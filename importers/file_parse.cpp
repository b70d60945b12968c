// SPDX-License-Identifier: Apache-2.0
#include "importers/file_parse.h"

#include <algorithm>

namespace faultline::importers {

using core::CivilTime;
using core::kNsPerSec;
using core::Observation;
using core::TimeQuality;

namespace {

constexpr std::size_t kMaxRecordBytes = 1 << 20; // longer records are cut for analysis (the bytes stay in the file)

} // namespace

void FileParse::resolve(const CivilTime& t, Observation& o)
{
    resolve(t, o, zone);
}

void FileParse::resolve(const CivilTime& t, Observation& o, const std::string& zoneName)
{
    if (t.hasOffset) {
        o.timeNs = core::civilAsUtcNs(t) - static_cast<std::int64_t>(t.offsetSeconds) * kNsPerSec;
        o.quality = TimeQuality::Exact;
    } else {
        const auto r = core::ZoneResolver::toUtc(t, zoneName);
        o.timeNs = r.utcNs;
        o.quality = TimeQuality::AssumedZone;
        if (r.status == core::ZoneResolver::Status::Nonexistent || r.status == core::ZoneResolver::Status::Ambiguous)
            warn(o.where.line, o.where.byteOffset, "dst-ambiguous",
                "local time falls in a daylight-saving "
                    + std::string(r.status == core::ZoneResolver::Status::Nonexistent ? "gap" : "overlap") + " of "
                    + zoneName + "; the earlier instant is used");
    }
    o.precisionNs = t.precisionNs();
}

void FileParse::warn(std::uint64_t line, std::uint64_t offset, std::string code, std::string message)
{
    // Cap the list: a file of garbage must not produce millions of diagnostics.
    ++source.skipped;
    if (source.warnings.size() >= 200) {
        if (source.warnings.size() == 200) {
            source.warnings.push_back(core::makeDiagnostic(core::Severity::Warning, "too-many-warnings",
                "further warnings for this file are counted but not listed", source.path));
        }
        return;
    }
    core::Diagnostic d =
        core::makeDiagnostic(core::Severity::Warning, std::move(code), std::move(message), source.path);
    d.where.line = line;
    d.where.byteOffset = offset + baseOffset;
    source.warnings.push_back(std::move(d));
}

void FileParse::note(
    std::uint64_t line, std::uint64_t offset, core::Severity severity, std::string code, std::string message)
{
    if (source.warnings.size() >= 200)
        return;
    core::Diagnostic d = core::makeDiagnostic(severity, std::move(code), std::move(message), source.path);
    d.where.line = line;
    d.where.byteOffset = offset + baseOffset;
    source.warnings.push_back(std::move(d));
}

core::NodeId FileParse::internHost(std::string_view name)
{
    if (m_lastHostId == core::kNoNode || name != m_lastHost) {
        m_lastHost.assign(name);
        m_lastHostId = nodes.intern(name);
    }
    return m_lastHostId;
}

Observation& FileParse::add(std::string_view text, std::uint64_t line, std::uint64_t offset, std::size_t length)
{
    if (text.size() > kMaxRecordBytes) {
        warn(line, offset, "long-record",
            "record of " + std::to_string(text.size()) + " bytes: only the first 1 MiB is analysed");
        text = text.substr(0, kMaxRecordBytes);
    }
    Observation o;
    o.text = text;
    o.kind = source.kind;
    o.where.line = line;
    o.where.byteOffset = offset + baseOffset;
    o.where.length = static_cast<std::uint32_t>(std::min<std::size_t>(length, UINT32_MAX));
    if (!hostName.empty()) {
        if (m_fileHostId == core::kNoNode)
            m_fileHostId = nodes.intern(hostName);
        o.node = m_fileHostId;
    }
    observations.push_back(o);
    return observations.back();
}

} // namespace faultline::importers
