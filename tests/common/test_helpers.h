// SPDX-License-Identifier: Apache-2.0
// Shared test helpers: paths into the source tree, the bundled catalog, temporary catalogs from inline YAML.
#pragma once

#include "core/model/verdict.h"
#include "core/rules/rule_catalog.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

namespace faultline::tests {

inline std::string sourcePath(const std::string& rel)
{
    return std::string(FAULTLINE_SOURCE_DIR) + "/" + rel;
}

inline std::shared_ptr<const core::RuleCatalog> bundledCatalog()
{
    static auto result = core::RuleCatalog::load(sourcePath("rules"));
    return result.catalog;
}

/// Writes files (relative path → content) under `dir`.
inline void writeFiles(const QTemporaryDir& dir, const std::map<std::string, std::string>& files)
{
    for (const auto& [rel, content] : files) {
        const std::filesystem::path p = std::filesystem::path(dir.path().toStdString()) / rel;
        std::filesystem::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary) << content;
    }
}

/// The cause's node as a name to compare: "(no cause)" or "(no node)" when there is none, so a test that expects a
/// node fails with what it got instead of throwing on the "no node" id.
inline std::string causeNodeName(const core::Verdict& v)
{
    if (!v.hasCause || v.cause >= v.events.size())
        return "(no cause)";
    const core::NodeId n = v.events[v.cause].node;
    return n == core::kNoNode ? std::string("(no node)") : v.nodes.name(n);
}

inline std::string diagCodes(const std::vector<core::Diagnostic>& diags)
{
    std::string s;
    for (const auto& d : diags)
        s += (s.empty() ? "" : ",") + d.code;
    return s;
}

} // namespace faultline::tests

// Readable QCOMPARE failures for std::string: Qt Test prints a value through QTest::toString, whose generic template
// knows nothing of std::string (and an overload in our own namespace is not found for a type of namespace std), so
// it is specialised here, as Qt Test documents for types it does not know.
template <> inline char* QTest::toString<std::string>(const std::string& s)
{
    return QTest::toString(QString::fromStdString(s));
}
