// SPDX-License-Identifier: Apache-2.0
// Shared test helpers: paths into the source tree, the bundled catalog, temporary catalogs from inline YAML.
#pragma once

#include "core/model/verdict.h"
#include "core/rules/rule_catalog.h"

#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

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

enum class GoldenResult { Same, Rewritten, Missing, Differs };

/// Compares `actual` with the golden file `expected`, rewriting it instead when FAULTLINE_UPDATE_GOLDEN is set. On a
/// difference, writes `actual` to `actualOut` beside it and prints a unified diff (its first `diffLines` lines).
inline GoldenResult compareGolden(const std::string& actual, const std::filesystem::path& expected,
    const std::filesystem::path& actualOut, int diffLines = 80)
{
    if (std::getenv("FAULTLINE_UPDATE_GOLDEN")) {
        std::ofstream(expected, std::ios::binary) << actual;
        return GoldenResult::Rewritten;
    }
    std::ifstream in(expected, std::ios::binary);
    if (!in)
        return GoldenResult::Missing;
    const std::string want((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (want == actual)
        return GoldenResult::Same;
    std::ofstream(actualOut, std::ios::binary) << actual;
    const std::string cmd =
        "diff -u '" + expected.string() + "' '" + actualOut.string() + "' | head -" + std::to_string(diffLines);
    if (std::system(cmd.c_str()) < 0)
        std::fprintf(stderr, "cannot run diff\n");
    return GoldenResult::Differs;
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

/// A list of strings prints as ["a", "b"].
template <> inline char* QTest::toString<std::vector<std::string>>(const std::vector<std::string>& list)
{
    QString out = QStringLiteral("[");
    for (std::size_t i = 0; i < list.size(); ++i)
        out += (i ? QStringLiteral(", \"") : QStringLiteral("\"")) + QString::fromStdString(list[i]) + QLatin1Char('"');
    return QTest::toString(out + QLatin1Char(']'));
}

namespace faultline::tests {
/// "expected to find "part" in: text" / "did not expect ...": what VERIFY_CONTAINS and VERIFY_LACKS print.
inline QByteArray missingText(const QString& part, const QString& text)
{
    return (QStringLiteral("expected to find \"") + part + QStringLiteral("\" in:\n") + text).toUtf8();
}
inline QByteArray unexpectedText(const QString& part, const QString& text)
{
    return (QStringLiteral("did not expect \"") + part + QStringLiteral("\" in:\n") + text).toUtf8();
}
} // namespace faultline::tests

/// Fails unless the text contains `part`, printing the text when it does not.
#define VERIFY_CONTAINS(text, part)                                                                                    \
    QVERIFY2((text).contains(part), faultline::tests::missingText(part, text).constData())
/// Fails when the text contains `part`, printing the text.
#define VERIFY_LACKS(text, part)                                                                                       \
    QVERIFY2(!(text).contains(part), faultline::tests::unexpectedText(part, text).constData())

/// Checks `actual` against a golden file (see tests::compareGolden) and fails, or skips after a rewrite, with `what`.
#define FAULTLINE_VERIFY_GOLDEN(actual, expected, actualOut, what)                                                     \
    do {                                                                                                               \
        switch (faultline::tests::compareGolden((actual), (expected), (actualOut))) {                                  \
        case faultline::tests::GoldenResult::Rewritten:                                                                \
            QSKIP("golden file rewritten");                                                                            \
        case faultline::tests::GoldenResult::Missing:                                                                  \
            QFAIL(("missing " + std::filesystem::path(expected).string() + " (run with FAULTLINE_UPDATE_GOLDEN=1)")    \
                      .c_str());                                                                                       \
        case faultline::tests::GoldenResult::Differs:                                                                  \
            QFAIL(what " differs from the golden file (see the diff above)");                                          \
        case faultline::tests::GoldenResult::Same:                                                                     \
            break;                                                                                                     \
        }                                                                                                              \
    } while (false)
