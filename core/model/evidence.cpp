// SPDX-License-Identifier: Apache-2.0
#include "core/model/evidence.h"

#include "core/util/huge_pages.h"

#include <algorithm>
#include <cstring>

namespace faultline::core {

const char* sourceKindName(SourceKind k)
{
    switch (k) {
    case SourceKind::Scheduler:
        return "scheduler";
    case SourceKind::AppLog:
        return "applog";
    case SourceKind::Kernel:
        return "kernel";
    case SourceKind::Metrics:
        return "metrics";
    case SourceKind::FabricManager:
        return "fabric";
    case SourceKind::Kubernetes:
        return "k8s";
    case SourceKind::Other:
        return "other";
    }
    return "other";
}

bool sourceKindFromName(std::string_view name, SourceKind& out)
{
    for (auto k : { SourceKind::Scheduler, SourceKind::AppLog, SourceKind::Kernel, SourceKind::Metrics,
             SourceKind::FabricManager, SourceKind::Kubernetes, SourceKind::Other })
        if (name == sourceKindName(k)) {
            out = k;
            return true;
        }
    return false;
}

const char* timeQualityName(TimeQuality q)
{
    switch (q) {
    case TimeQuality::Exact:
        return "exact";
    case TimeQuality::AssumedZone:
        return "assumed-zone";
    case TimeQuality::Inferred:
        return "inferred";
    case TimeQuality::Missing:
        return "missing";
    }
    return "missing";
}

const char* coverageStatusName(CoverageStatus s)
{
    switch (s) {
    case CoverageStatus::Ok:
        return "ok";
    case CoverageStatus::Empty:
        return "empty";
    case CoverageStatus::Error:
        return "error";
    case CoverageStatus::Truncated:
        return "truncated";
    case CoverageStatus::Missing:
        return "missing";
    }
    return "missing";
}

std::string NodeTable::normalise(std::string_view rawName)
{
    std::string_view s = rawName;
    if (auto dot = s.find('.'); dot != std::string_view::npos && dot > 0) {
        // An IPv4 address stays whole; a FQDN is cut to its short name.
        const bool numeric = std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
        if (!numeric)
            s = s.substr(0, dot);
    }
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
        [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; });
    return out;
}

NodeId NodeTable::intern(std::string_view rawName)
{
    std::string n = normalise(rawName);
    if (auto it = m_ids.find(n); it != m_ids.end())
        return it->second;
    const auto id = static_cast<NodeId>(m_names.size());
    m_names.push_back(n);
    m_ids.emplace(std::move(n), id);
    return id;
}

NodeId NodeTable::find(std::string_view rawName) const
{
    auto it = m_ids.find(normalise(rawName));
    return it == m_ids.end() ? kNoNode : it->second;
}

const std::string& NodeTable::name(NodeId id) const
{
    return m_names.at(id);
}

std::int32_t EvidenceSet::rankOnGpu(NodeId node, const std::string& gpu) const
{
    for (const auto& r : ranks)
        if (r.node == node && !gpu.empty() && r.gpu == gpu)
            return r.rank;
    return -1;
}

std::string_view TextArena::store(std::string_view s)
{
    if (s.empty())
        return {};
    if (m_used + s.size() > m_capacity) {
        m_capacity = std::max<std::size_t>(8u << 20, s.size());
        m_blocks.push_back(std::unique_ptr<char[]>(new char[m_capacity])); // uninitialised: written once, in order
        adviseHugePages(m_blocks.back().get(), m_capacity);
        m_used = 0;
    }
    char* dst = m_blocks.back().get() + m_used;
    std::memcpy(dst, s.data(), s.size());
    m_used += s.size();
    return { dst, s.size() };
}

} // namespace faultline::core
