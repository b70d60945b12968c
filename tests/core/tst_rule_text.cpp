// SPDX-License-Identifier: Apache-2.0
// Rule pack files edited one rule at a time as text: where each entry lies (comments before an entry belong to it,
// not to the one above), a rule taken out as a document of its own (an override when it comes from a lower layer),
// and put back: the entry replaced in place, appended to its section, moved when its kind changes, a new section or
// a new file; `version:` bumped or inserted; every other byte of the file kept (comments, quoting, CRLF, a missing
// final newline). Documents that are not one rule fail located. The catalog reads `version:` on every kind of rule.
#include "core/rules/rule_catalog.h"
#include "core/rules/rule_text.h"
#include "tests/common/test_helpers.h"

#include <QTest>

#include <fstream>
#include <sstream>

using namespace faultline;
using namespace faultline::core;

namespace {

const std::string kPack = "# Our cluster's rules.\n"
                          "pack: site\n"
                          "description: Site rules\n"
                          "extractors:\n"
                          "  # fans first\n"
                          "  - id: site.fan\n"
                          "    sources: [kernel]\n"
                          "    pattern: 'fan (?P<fan>\\d+) stopped'   # keep this comment\n"
                          "    event: site.fan_stopped\n"
                          "    tests: [{line: 'fan 3 stopped', expect: {event: site.fan_stopped}}]\n"
                          "    # trailing note of site.fan\n"
                          "\n"
                          "  # then the PSU\n"
                          "  - id: \"site.psu\"\n"
                          "    version: 3\n"
                          "    sources: [kernel]\n"
                          "    pattern: 'PSU (?P<psu>\\d+) failed'\n"
                          "    event: site.psu_failed\n"
                          "    tests: [{line: 'PSU 1 failed', expect: {event: site.psu_failed}}]\n"
                          "\n"
                          "# noise\n"
                          "filters:\n"
                          "  - {id: site.quiet, disable: true}\n";

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string codes(const std::vector<Diagnostic>& diags)
{
    std::string s;
    for (const auto& d : diags)
        s += d.format() + "\n";
    return s;
}

} // namespace

/// Compares two texts and prints both in full when they differ (QCOMPARE cuts long strings).
#define COMPARE_TEXT(actual, expected)                                                                                 \
    QVERIFY2((actual) == (expected),                                                                                   \
        ("expected:\n" + std::string(expected) + "\n--- got:\n" + std::string(actual)).c_str())

class TstRuleText : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void findsEveryEntryAndWhatBelongsToIt()
    {
        std::vector<Diagnostic> errors;
        const auto pack = scanPackText(kPack, "site.yaml", errors);
        QVERIFY2(pack, codes(errors).c_str());
        QCOMPARE(pack->rules.size(), std::size_t(3));
        const auto& fan = pack->rules[0];
        QCOMPARE(fan.id, std::string("site.fan"));
        QCOMPARE(fan.section, std::string("extractors"));
        QCOMPARE(fan.first, std::size_t(5));
        // Its own trailing comment is indented under it; the blank line and "# then the PSU" go with what follows.
        QCOMPARE(fan.end, std::size_t(11));
        QCOMPARE(fan.indent, std::size_t(2));
        QCOMPARE(fan.keyIndent, std::size_t(4));
        QCOMPARE(fan.version, 0);
        const auto& psu = pack->rules[1];
        QCOMPARE(psu.id, std::string("site.psu")); // quoted in the file, read as YAML reads it
        QCOMPARE(psu.first, std::size_t(13));
        QCOMPARE(psu.end, std::size_t(19));
        QCOMPARE(psu.version, 3);
        QCOMPARE(psu.versionLine, std::size_t(14));
        const auto& quiet = pack->rules[2];
        QCOMPARE(quiet.id, std::string("site.quiet"));
        QVERIFY(quiet.flow);
        QCOMPARE(quiet.section, std::string("filters"));
        QCOMPARE(quiet.first, std::size_t(22));
        QCOMPARE(quiet.end, std::size_t(23));
    }

    void replacesAnEntryAndKeepsEveryOtherByte()
    {
        const std::string doc = "extractors:\n"
                                "  - id: site.fan\n"
                                "    sources: [kernel]\n"
                                "    pattern: 'fan (?P<fan>\\d+) (?:stopped|stalled)'\n"
                                "    event: site.fan_stopped\n"
                                "    tests: [{line: 'fan 3 stalled', expect: {event: site.fan_stopped}}]\n";
        std::vector<Diagnostic> errors;
        const auto merged = mergeRuleText(kPack, doc, {}, "site.yaml", "editor", errors);
        QVERIFY2(merged, codes(errors).c_str());
        QVERIFY(merged->replaced);
        QCOMPARE(merged->first, std::size_t(5));
        QCOMPARE(merged->lines, std::size_t(5));
        QCOMPARE(merged->documentFirst, std::size_t(1));
        QCOMPARE(merged->shift, 0L);
        std::string expected = kPack;
        const auto from = expected.find("  - id: site.fan\n");
        const auto to = expected.find("    # trailing note of site.fan\n\n");
        expected.replace(from, to + std::string("    # trailing note of site.fan\n").size() - from, doc.substr(12));
        COMPARE_TEXT(merged->text, expected);
    }

    void bumpsOrInsertsTheVersion()
    {
        std::vector<Diagnostic> errors;
        MergeOptions bump;
        bump.bumpVersion = true;
        // No version anywhere: 1, inserted after the id at the entry's key indentation.
        const std::string fan = "extractors:\n- id: site.fan\n  sources: [kernel]\n  pattern: 'fan (?P<fan>\\d+) "
                                "stopped'\n  event: site.fan_stopped\n  tests: [{line: 'fan 3 stopped', expect: "
                                "{event: site.fan_stopped}}]\n";
        auto merged = mergeRuleText(kPack, fan, bump, "site.yaml", "editor", errors);
        QVERIFY2(merged, codes(errors).c_str());
        QCOMPARE(merged->version, 1);
        QCOMPARE(merged->shift, 2L); // re-indented to the section's entries
        VERIFY_CONTAINS(QString::fromStdString(merged->text),
            QStringLiteral("  - id: site.fan\n    version: 1\n    sources: [kernel]\n"));
        // The file's entry has version 3 and the document none: 4, written in place of nothing (inserted).
        const std::string psu = "extractors:\n  - id: site.psu\n    sources: [kernel]\n    pattern: 'PSU (?P<psu>\\d+) "
                                "failed'\n    event: site.psu_failed\n    tests: [{line: 'PSU 1 failed', expect: "
                                "{event: site.psu_failed}}]\n";
        merged = mergeRuleText(kPack, psu, bump, "site.yaml", "editor", errors);
        QVERIFY2(merged, codes(errors).c_str());
        QCOMPARE(merged->version, 4);
        VERIFY_CONTAINS(QString::fromStdString(merged->text), QStringLiteral("  - id: site.psu\n    version: 4\n"));
        // A document with a quoted version ahead of the file's: its value, replaced where it stands.
        std::string ahead = psu;
        ahead.insert(ahead.find("    sources"), "    version: '7'   # seven\n");
        merged = mergeRuleText(kPack, ahead, bump, "site.yaml", "editor", errors);
        QVERIFY2(merged, codes(errors).c_str());
        QCOMPARE(merged->version, 8);
        VERIFY_CONTAINS(QString::fromStdString(merged->text), QStringLiteral("    version: 8   # seven\n"));
        // The text written parses back with that version.
        const auto again = scanPackText(merged->text, "site.yaml", errors);
        QVERIFY(again && again->find("site.psu"));
        QCOMPARE(again->find("site.psu")->version, 8);
    }

    void appendsMovesAndStartsSections()
    {
        std::vector<Diagnostic> errors;
        const std::string gpu = "extractors:\n  - id: site.gpu-hot\n    sources: [kernel]\n    pattern: 'GPU "
                                "(?P<gpu_index>\\d+) hot'\n    event: site.gpu_hot\n    tests: [{line: 'GPU 1 hot', "
                                "expect: {event: site.gpu_hot}}]\n";
        // A new extractor: after the section's last entry, before the blank line and the comment of `filters`.
        auto merged = mergeRuleText(kPack, gpu, {}, "site.yaml", "editor", errors);
        QVERIFY2(merged, codes(errors).c_str());
        QVERIFY(!merged->replaced);
        QCOMPARE(merged->first, std::size_t(19));
        std::string expected = kPack;
        expected.insert(expected.find("\n\n# noise\n") + 1, gpu.substr(12));
        COMPARE_TEXT(merged->text, expected);
        // A filter whose id is an extractor's: the extractor leaves its section and the filter joins `filters`.
        const std::string asFilter =
            "filters:\n  - id: site.fan\n    when: {event: site.fan_stopped}\n    action: drop\n";
        merged = mergeRuleText(kPack, asFilter, {}, "site.yaml", "editor", errors);
        QVERIFY2(merged, codes(errors).c_str());
        QVERIFY(merged->replaced);
        const auto moved = scanPackText(merged->text, "site.yaml", errors);
        QVERIFY(moved);
        QCOMPARE(moved->find("site.fan")->section, std::string("filters"));
        QCOMPARE(moved->rules.size(), std::size_t(3));
        VERIFY_CONTAINS(QString::fromStdString(merged->text), QStringLiteral("  # fans first\n"));
        // A pack without the section: a new one at the end, after a blank line.
        const std::string noSection = "pack: site\nfilters:\n  - {id: site.quiet, disable: true}";
        merged = mergeRuleText(noSection, gpu, {}, "site.yaml", "editor", errors);
        QVERIFY2(merged, codes(errors).c_str());
        COMPARE_TEXT(merged->text, noSection + "\n\n" + gpu);
        // A new file: its pack line, then the section.
        MergeOptions fresh;
        fresh.packName = "local";
        merged = mergeRuleText("", gpu, fresh, "local.yaml", "editor", errors);
        QVERIFY2(merged, codes(errors).c_str());
        COMPARE_TEXT(merged->text, "pack: local\n" + gpu);
        QCOMPARE(merged->first, std::size_t(2));
        // An empty flow list becomes a block section; one with entries cannot be edited as lines.
        merged = mergeRuleText("pack: site\nextractors: []   # none yet\n", gpu, {}, "site.yaml", "editor", errors);
        QVERIFY2(merged, codes(errors).c_str());
        COMPARE_TEXT(merged->text, "pack: site\nextractors:   # none yet\n" + gpu.substr(12));
        QVERIFY(!mergeRuleText("pack: s\nextractors: [{id: a, disable: true}]\n", gpu, {}, "s.yaml", "editor", errors));
        QCOMPARE(errors.back().code, std::string("flow-section"));
        QCOMPARE(errors.back().where.file, std::string("s.yaml"));
        QCOMPARE(errors.back().where.line, std::uint64_t(2));
    }

    void keepsCrlfAndAMissingFinalNewline()
    {
        std::string crlf = kPack;
        for (std::size_t at = 0; (at = crlf.find('\n', at)) != std::string::npos; at += 2)
            crlf.insert(at, "\r");
        crlf.pop_back();
        crlf.pop_back(); // no final newline either
        const std::string doc = "extractors:\n  - id: site.psu\n    pattern: 'x'\n";
        std::vector<Diagnostic> errors;
        const auto merged = mergeRuleText(crlf, doc, {}, "site.yaml", "editor", errors);
        QVERIFY2(merged, codes(errors).c_str());
        std::string expected = crlf;
        const auto from = expected.find("  - id: \"site.psu\"");
        const auto to = expected.find("\r\n\r\n# noise");
        expected.replace(from, to - from, "  - id: site.psu\r\n    pattern: 'x'");
        COMPARE_TEXT(merged->text, expected);
    }

    void documentsThatAreNotOneRuleFailLocated()
    {
        std::vector<Diagnostic> errors;
        QVERIFY(!mergeRuleText(kPack, "extractors:\n  - id: a\n    pattern: 'x'\n  - id: b\n    pattern: 'y'\n", {},
            "site.yaml", "editor", errors));
        QCOMPARE(errors.back().code, std::string("one-rule"));
        QCOMPARE(errors.back().where.file, std::string("editor"));
        QCOMPARE(errors.back().where.line, std::uint64_t(4));
        QVERIFY(!mergeRuleText(
            kPack, "extractors:\n  - id: a\n    pattern: 'x'\n   event: b\n", {}, "site.yaml", "editor", errors));
        QCOMPARE(errors.back().code, std::string("yaml-syntax"));
        QCOMPARE(errors.back().where.file, std::string("editor"));
        QCOMPARE(errors.back().where.line, std::uint64_t(4));
        QCOMPARE(errors.back().where.column, std::uint32_t(4));
        QVERIFY(!mergeRuleText(kPack, "pack: x\nextractors:\n  - id: a\n", {}, "site.yaml", "editor", errors));
        QCOMPARE(errors.back().code, std::string("one-rule"));
        QCOMPARE(errors.back().where.line, std::uint64_t(1));
        QVERIFY(!mergeRuleText(kPack, "# nothing\n", {}, "site.yaml", "editor", errors));
        QCOMPARE(errors.back().code, std::string("one-rule"));
        // A pack file that does not parse is never merged into (it stays as it is on disk).
        QVERIFY(!mergeRuleText("pack: [x\n", "extractors:\n  - id: a\n", {}, "broken.yaml", "editor", errors));
        QCOMPARE(errors.back().where.file, std::string("broken.yaml"));
    }

    void extractsABundledRuleAsAnOverrideThatLoads()
    {
        const std::string gpu = readFile(tests::sourcePath("rules/packs/gpu.yaml"));
        std::vector<Diagnostic> errors;
        const auto doc = extractRuleDocument(gpu, "gpu.xid.nvlink5", true, "packs/gpu.yaml", errors);
        QVERIFY2(doc, codes(errors).c_str());
        QVERIFY(doc->rfind("extractors:\n  - id: gpu.xid.nvlink5\n    override: true\n", 0) == 0);
        VERIFY_CONTAINS(QString::fromStdString(*doc), QStringLiteral("    tests:\n      - line: "));
        QVERIFY(!extractRuleDocument(gpu, "no.such", true, "packs/gpu.yaml", errors));
        QCOMPARE(errors.back().code, std::string("no-such-rule"));
        // Saved into a new user pack with its version bumped, it loads as an override of the bundled rule.
        MergeOptions save;
        save.packName = "gpu";
        save.bumpVersion = true;
        const auto merged = mergeRuleText("", *doc, save, "packs/gpu.yaml", "editor", errors);
        QVERIFY2(merged, codes(errors).c_str());
        QTemporaryDir user;
        tests::writeFiles(user, { { "packs/gpu.yaml", merged->text } });
        const auto loaded =
            RuleCatalog::load(CatalogSources { tests::sourcePath("rules"), { user.path().toStdString() }, {} });
        QVERIFY2(loaded.ok(), loaded.asText().c_str());
        QCOMPARE(loaded.catalog->layers().at(1).overridden, std::size_t(1));
        const auto& rules = loaded.catalog->extractors();
        const auto it =
            std::find_if(rules.begin(), rules.end(), [](const auto& r) { return r.id == "gpu.xid.nvlink5"; });
        QVERIFY(it != rules.end());
        QCOMPARE(it->version, 1);
        QCOMPARE(it->origin.layer, std::size_t(1));
    }

    void theCatalogReadsVersionsAndRejectsBadOnes()
    {
        QTemporaryDir dir;
        tests::writeFiles(dir,
            { { "catalog.yaml", "catalog: t\nversion: 1\n" },
                { "packs/p.yaml",
                    "pack: p\nextractors:\n  - id: a\n    version: 2\n    pattern: 'a'\n    event: a\n    tests: "
                    "[{line: 'a', expect: {event: a}}]\nfilters:\n  - id: f\n    version: 5\n    when: {event: a}\n "
                    "   action: drop\n" } });
        auto loaded = RuleCatalog::load(dir.path().toStdString());
        QVERIFY2(loaded.ok(), loaded.asText().c_str());
        QCOMPARE(loaded.catalog->extractors().front().version, 2);
        QCOMPARE(loaded.catalog->filters().front().version, 5);
        tests::writeFiles(dir,
            { { "packs/p.yaml",
                "pack: p\nextractors:\n  - id: a\n    version: zero\n    pattern: 'a'\n    event: a\n    tests: "
                "[{line: 'a', expect: {event: a}}]\n" } });
        loaded = RuleCatalog::load(dir.path().toStdString());
        QVERIFY(!loaded.ok());
        QCOMPARE(loaded.diagnostics.front().code, std::string("bad-number"));
        QCOMPARE(loaded.diagnostics.front().where.line, std::uint64_t(4));
        tests::writeFiles(dir,
            { { "packs/p.yaml",
                "pack: p\nextractors:\n  - id: a\n    version: -1\n    pattern: 'a'\n    event: a\n    tests: "
                "[{line: 'a', expect: {event: a}}]\n" } });
        loaded = RuleCatalog::load(dir.path().toStdString());
        QVERIFY(!loaded.ok());
        QCOMPARE(loaded.diagnostics.front().code, std::string("bad-version"));
        QCOMPARE(loaded.diagnostics.front().where.column, std::uint32_t(14));
    }
};

QTEST_GUILESS_MAIN(TstRuleText)
#include "tst_rule_text.moc"
