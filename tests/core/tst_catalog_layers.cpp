// SPDX-License-Identifier: Apache-2.0
// Catalog layering: rule pack directories on top of the bundled catalog add rules, replace one by id
// (`override: true`) or remove one (`disable`); conflicts and bad targets are located errors naming both places;
// in-memory texts stand for files of any layer; the content hash covers every layer. Inline YAML, asserting
// diagnostic codes and places, not wording.
#include "core/rules/rule_catalog.h"
#include "core/rules/rule_tester.h"
#include "core/util/sha256.h"
#include "tests/common/test_helpers.h"

#include <QTest>

#include <filesystem>
#include <fstream>

using namespace faultline;
using namespace faultline::core;

namespace {

const char* kCatalog = "catalog: test\nversion: 0.0.1\nsettings: {expected_sources: [kernel]}\n";

// Line 3 defines x.one, line 12 x.two, line 21 the filter f.quiet.
const char* kBundledPack = R"(pack: base
extractors:
  - id: x.one
    sources: [kernel]
    pattern: 'boom (?P<what>\w+)'
    event: test.boom
    role: root
    domain: infrastructure
    tests:
      - line: 'boom gpu'
        expect: {event: test.boom, fields: {what: gpu}}
  - id: x.two
    sources: [kernel]
    pattern: 'fizz'
    event: test.fizz
    supersedes: [x.one]
    tests:
      - line: 'fizz'
        expect: {event: test.fizz}
filters:
  - id: f.quiet
    when: {event: test.fizz}
    action: drop
)";

const char* kTable = "table: colours\nkey: code\nrows:\n  '1': {name: red}\n  '2': {name: green}\n";

/// A rule replacing x.one: another event, another pattern.
const char* kOverride = R"(pack: site
extractors:
  - id: x.one
    override: true
    sources: [kernel]
    pattern: 'bang (?P<what>\w+)'
    event: site.bang
    role: root
    domain: infrastructure
    tests:
      - line: 'bang nic'
        expect: {event: site.bang, fields: {what: nic}}
)";

/// A bundled catalog on disk and pack directories beside it.
struct Layers
{
    QTemporaryDir dir;
    std::string root() const { return dir.path().toStdString() + "/bundled"; }
    std::string pack(const std::string& name) const { return dir.path().toStdString() + "/" + name; }
    void write(const std::string& rel, const std::string& text) const { tests::writeFiles(dir, { { rel, text } }); }
};

std::unique_ptr<Layers> bundled()
{
    auto l = std::make_unique<Layers>();
    l->write("bundled/catalog.yaml", kCatalog);
    l->write("bundled/packs/base.yaml", kBundledPack);
    l->write("bundled/tables/colours.yaml", kTable);
    return l;
}

CatalogLoadResult loadWith(const Layers& l, std::vector<std::string> packs, std::vector<CatalogText> texts = {})
{
    std::vector<std::string> dirs;
    for (const auto& p : packs)
        dirs.push_back(l.pack(p));
    return RuleCatalog::load(CatalogSources { l.root(), dirs, std::move(texts) });
}

const Diagnostic* find(const CatalogLoadResult& r, const std::string& code, Severity severity = Severity::Error)
{
    for (const auto& d : r.diagnostics)
        if (d.code == code && d.severity == severity)
            return &d;
    return nullptr;
}

const ExtractorRule* extractor(const RuleCatalog& c, const std::string& id)
{
    for (const auto& r : c.extractors())
        if (r.id == id)
            return &r;
    return nullptr;
}

std::vector<std::string> extractorIds(const RuleCatalog& c)
{
    std::vector<std::string> ids;
    for (const auto& r : c.extractors())
        ids.push_back(r.id);
    return ids;
}

std::string joined(const std::vector<std::string>& v)
{
    std::string s;
    for (const auto& x : v)
        s += (s.empty() ? "" : ",") + x;
    return s;
}

} // namespace

class TstCatalogLayers : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void oneLayerLoadsAsBefore()
    {
        auto l = bundled();
        const auto one = RuleCatalog::load(l->root());
        const auto layered = loadWith(*l, {});
        QVERIFY2(one.ok(), one.asText().c_str());
        QCOMPARE(layered.catalog->contentHash(), one.catalog->contentHash());
        QCOMPARE(layered.catalog->layers().size(), std::size_t(1));
        QCOMPARE(layered.catalog->packLayerCount(), std::size_t(0));
        // The hash is the one a single root always had: each file's relative path, NUL, bytes, in load order.
        Sha256 hash;
        for (const auto& [rel, text] : std::vector<std::pair<std::string, std::string>> { { "catalog.yaml", kCatalog },
                 { "tables/colours.yaml", kTable }, { "packs/base.yaml", kBundledPack } }) {
            hash.update(rel);
            hash.update(std::string_view("\0", 1));
            hash.update(text);
        }
        QCOMPARE(one.catalog->contentHash(), hash.hexDigest());
    }

    void overrideReplacesTheRuleInPlace()
    {
        auto l = bundled();
        l->write("site/packs/site.yaml", kOverride);
        const auto r = loadWith(*l, { "site" });
        QVERIFY2(r.ok(), r.asText().c_str());
        const RuleCatalog& c = *r.catalog;
        QCOMPARE(joined(extractorIds(c)), std::string("x.one,x.two"));
        const ExtractorRule* one = extractor(c, "x.one");
        QCOMPARE(one->eventType, std::string("site.bang"));
        QCOMPARE(one->origin.layer, std::size_t(1));
        QCOMPARE(one->origin.file, l->pack("site") + "/packs/site.yaml");
        QCOMPARE(one->origin.line, std::uint64_t(3));
        QCOMPARE(c.layers().at(1).overridden, std::size_t(1));
        QCOMPARE(c.layers().at(1).added, std::size_t(0));
        // The override's own test runs, the replaced rule's does not.
        for (const auto& t : runRuleTests(c))
            QVERIFY2(t.passed, (t.ruleId + ": " + t.message).c_str());
        QCOMPARE(runRuleTests(c).size(), std::size_t(2));
    }

    void disableRemovesRules()
    {
        auto l = bundled();
        l->write("site/packs/off.yaml", R"(pack: off
disable: [x.one]
filters:
  - id: f.quiet
    disable: true
)");
        const auto r = loadWith(*l, { "site" });
        QVERIFY2(r.ok(), r.asText().c_str());
        QCOMPARE(joined(extractorIds(*r.catalog)), std::string("x.two"));
        QVERIFY(r.catalog->filters().empty());
        QCOMPARE(r.catalog->layers().at(1).disabled, std::size_t(2));
        // x.two supersedes the disabled x.one by name: still a valid catalog.
        QVERIFY(!find(r, "unknown-rule"));
    }

    void aLayerAddsRulesAndTables()
    {
        auto l = bundled();
        l->write("site/packs/more.yaml", R"(pack: more
extractors:
  - id: site.new
    pattern: 'new (?P<code>\d)'
    event: site.new
    lookup: [{table: shapes, key: '{code}'}]
    tests: [{line: 'new 1', expect: {event: site.new}}]
)");
        l->write("site/tables/shapes.yaml", "table: shapes\nkey: code\nrows:\n  '1': {name: square}\n");
        const auto r = loadWith(*l, { "site" });
        QVERIFY2(r.ok(), r.asText().c_str());
        QCOMPARE(joined(extractorIds(*r.catalog)), std::string("x.one,x.two,site.new"));
        QVERIFY(r.catalog->table("shapes"));
        QCOMPARE(r.catalog->layers().at(1).added, std::size_t(2));
        QCOMPARE(r.catalog->packLayerCount(), std::size_t(1));
    }

    void aTableIsOverriddenWhole()
    {
        auto l = bundled();
        l->write("site/tables/colours.yaml", "table: colours\noverride: true\nkey: code\nrows:\n  '1': {name: blue}\n");
        const auto r = loadWith(*l, { "site" });
        QVERIFY2(r.ok(), r.asText().c_str());
        const LookupTable* t = r.catalog->table("colours");
        QCOMPARE(t->rows.size(), std::size_t(1));
        QCOMPARE(t->rows.at("1").at("name"), std::string("blue"));
        // Without override, the same name is a conflict.
        l->write("site/tables/colours.yaml", "table: colours\nkey: code\nrows:\n  '1': {name: blue}\n");
        const auto conflict = loadWith(*l, { "site" });
        QVERIFY(!conflict.ok());
        const Diagnostic* d = find(conflict, "id-conflict");
        QVERIFY2(d, conflict.asText().c_str());
        QCOMPARE(d->where.file, l->pack("site") + "/tables/colours.yaml");
        QCOMPARE(d->where.line, std::uint64_t(1));
    }

    void aConflictNamesBothPlaces()
    {
        auto l = bundled();
        std::string redefined = kOverride;
        redefined.erase(redefined.find("    override: true\n"), 19);
        l->write("site/packs/site.yaml", redefined);
        const auto r = loadWith(*l, { "site" });
        QVERIFY(!r.ok());
        const Diagnostic* d = find(r, "id-conflict");
        QVERIFY2(d, r.asText().c_str());
        QCOMPARE(d->ruleId, std::string("x.one"));
        QCOMPARE(d->where.file, l->pack("site") + "/packs/site.yaml");
        QCOMPARE(d->where.line, std::uint64_t(3));
        QVERIFY2(d->message.find("packs/base.yaml:3:") != std::string::npos, d->message.c_str());
        // The other place as a note after it, with its line.
        const Diagnostic* other = find(r, "id-conflict", Severity::Info);
        QVERIFY2(other, r.asText().c_str());
        QCOMPARE(other->where.file, std::string("packs/base.yaml"));
        QCOMPARE(other->where.line, std::uint64_t(3));
        QVERIFY2(other->snippet.find("id: x.one") != std::string::npos, other->snippet.c_str());
        const std::string text = r.asText();
        QVERIFY2(text.find(l->pack("site") + "/packs/site.yaml:3:") != std::string::npos, text.c_str());
        QVERIFY2(text.find("packs/base.yaml:3:5: note:") != std::string::npos, text.c_str());
    }

    void twoPackLayersConflictToo()
    {
        auto l = bundled();
        const char* add = "pack: a\nextractors:\n  - id: site.same\n    pattern: 'q'\n    event: q\n"
                          "    tests: [{line: q, expect: {event: q}}]\n";
        l->write("a/packs/a.yaml", add);
        l->write("b/packs/b.yaml", add);
        const auto r = loadWith(*l, { "a", "b" });
        const Diagnostic* d = find(r, "id-conflict");
        QVERIFY2(d, r.asText().c_str());
        QCOMPARE(d->where.file, l->pack("b") + "/packs/b.yaml");
        QVERIFY2(d->message.find(l->pack("a") + "/packs/a.yaml:3:") != std::string::npos, d->message.c_str());
        // A later layer may override an earlier pack layer's rule.
        std::string over = add;
        over.insert(over.find("    pattern"), "    override: true\n");
        l->write("b/packs/b.yaml", over);
        const auto ok = loadWith(*l, { "a", "b" });
        QVERIFY2(ok.ok(), ok.asText().c_str());
        QCOMPARE(extractor(*ok.catalog, "site.same")->origin.layer, std::size_t(2));
    }

    void aDuplicateInOneLayerNamesBoth()
    {
        auto l = bundled();
        l->write("bundled/packs/again.yaml", kBundledPack);
        const auto r = loadWith(*l, {});
        const Diagnostic* d = find(r, "duplicate-id");
        QVERIFY2(d, r.asText().c_str());
        QCOMPARE(d->where.file, std::string("packs/base.yaml"));
        QVERIFY2(d->message.find("packs/again.yaml:3:") != std::string::npos, d->message.c_str());
        QVERIFY(find(r, "duplicate-id", Severity::Info));
    }

    void badTargetsAreLocatedErrors_data()
    {
        QTest::addColumn<QString>("pack");
        QTest::addColumn<QString>("code");
        QTest::addColumn<int>("line");
        QTest::addRow("override of an unknown id")
            << QStringLiteral("pack: s\nextractors:\n  - id: no.such\n    override: true\n    pattern: 'q'\n"
                              "    event: q\n    tests: [{line: q, expect: {event: q}}]\n")
            << QStringLiteral("unknown-override") << 3;
        QTest::addRow("disable of an unknown id")
            << QStringLiteral("pack: s\ndisable:\n  - x.one\n  - no.such\n") << QStringLiteral("unknown-disable") << 4;
        QTest::addRow("entry disable of an unknown id")
            << QStringLiteral("pack: s\nfilters:\n  - id: no.such\n    disable: true\n")
            << QStringLiteral("unknown-disable") << 3;
        QTest::addRow("override by another kind")
            << QStringLiteral("pack: s\nfilters:\n  - id: x.one\n    override: true\n    action: drop\n")
            << QStringLiteral("override-kind") << 3;
        QTest::addRow("entry disable in another kind's section")
            << QStringLiteral("pack: s\nfilters:\n  - id: x.two\n    disable: true\n") << QStringLiteral("disable-kind")
            << 3;
        QTest::addRow("disabled and defined in one layer")
            << QStringLiteral("pack: s\ndisable: [site.mine]\nextractors:\n  - id: site.mine\n    pattern: 'q'\n"
                              "    event: q\n    tests: [{line: q, expect: {event: q}}]\n")
            << QStringLiteral("disable-conflict") << 2;
        QTest::addRow("override is not a boolean")
            << QStringLiteral("pack: s\nextractors:\n  - id: x.one\n    override: yes please\n")
            << QStringLiteral("bad-bool") << 4;
    }

    void badTargetsAreLocatedErrors()
    {
        QFETCH(QString, pack);
        QFETCH(QString, code);
        QFETCH(int, line);
        auto l = bundled();
        l->write("site/packs/s.yaml", pack.toStdString());
        const auto r = loadWith(*l, { "site" });
        QVERIFY(!r.ok());
        const Diagnostic* d = find(r, code.toStdString());
        QVERIFY2(d, ("expected " + code.toStdString() + ", got: " + r.asText()).c_str());
        QCOMPARE(d->where.file, l->pack("site") + "/packs/s.yaml");
        QCOMPARE(d->where.line, std::uint64_t(line));
        QVERIFY(d->where.column > 0);
    }

    void bundledRulesCannotBeOverriddenFromTheBundle()
    {
        auto l = bundled();
        l->write("bundled/packs/zz.yaml", kOverride);
        const auto r = loadWith(*l, {});
        QVERIFY2(find(r, "duplicate-id"), r.asText().c_str());
    }

    void packDirectoryProblems()
    {
        auto l = bundled();
        const auto missing = loadWith(*l, { "nowhere" });
        QVERIFY(!missing.ok());
        QCOMPARE(find(missing, "no-pack-dir")->where.file, l->pack("nowhere"));
        QVERIFY(find(RuleCatalog::load(CatalogSources { l->root(), { "" }, {} }), "no-pack-dir"));
        // A whole catalog is not a pack layer.
        l->write("full/catalog.yaml", kCatalog);
        l->write("full/packs/site.yaml", kOverride);
        const auto full = loadWith(*l, { "full" });
        QVERIFY(!full.ok());
        QVERIFY2(find(full, "catalog-in-pack-dir"), full.asText().c_str());
        QCOMPARE(find(full, "catalog-in-pack-dir")->where.file, l->pack("full") + "/catalog.yaml");
        // A pack file put beside packs/ is reported, not silently skipped.
        l->write("loose/site.yaml", kOverride);
        const auto loose = loadWith(*l, { "loose" });
        QVERIFY2(loose.ok(), loose.asText().c_str());
        QVERIFY2(find(loose, "misplaced-pack", Severity::Warning), loose.asText().c_str());
        // The same directory twice is one layer.
        l->write("site/packs/site.yaml", kOverride);
        const auto twice = loadWith(*l, { "site", "site/" });
        QVERIFY2(twice.ok(), twice.asText().c_str());
        QVERIFY(find(twice, "duplicate-layer", Severity::Warning));
        QCOMPARE(twice.catalog->packLayerCount(), std::size_t(1));
    }

    void everyLayersErrorsAreReported()
    {
        auto l = bundled();
        l->write("a/packs/a.yaml", "pack: a\nextractors:\n  - id: a.bad\n    pattern: '(unclosed'\n    event: e\n");
        l->write("b/packs/b.yaml", "pack: b\ndisable: [no.such]\n");
        const auto r = loadWith(*l, { "a", "b" });
        QVERIFY(!r.ok());
        QCOMPARE(find(r, "bad-regex")->where.file, l->pack("a") + "/packs/a.yaml");
        QCOMPARE(find(r, "unknown-disable")->where.file, l->pack("b") + "/packs/b.yaml");
    }

    void aTextReplacesAFile()
    {
        auto l = bundled();
        std::string edited = kBundledPack;
        edited.replace(edited.find("event: test.fizz\n    supersedes"), 16, "event: test.buzz");
        edited.replace(edited.find("expect: {event: test.fizz}"), 26, "expect: {event: test.buzz}");
        const auto r = loadWith(*l, {}, { { l->root() + "/packs/base.yaml", edited } });
        QVERIFY2(r.ok(), r.asText().c_str());
        QCOMPARE(extractor(*r.catalog, "x.two")->eventType, std::string("test.buzz"));
        QCOMPARE(r.catalog->layers().at(0).unsaved, std::vector<std::string> { "packs/base.yaml" });
        QVERIFY(r.catalog->loadedFrom().find("(unsaved: packs/base.yaml)") != std::string::npos);
        // The same bytes as on disk hash the same: the hash is of what was read.
        const auto same = loadWith(*l, {}, { { l->root() + "/./packs/base.yaml", kBundledPack } });
        QCOMPARE(same.catalog->contentHash(), RuleCatalog::load(l->root()).catalog->contentHash());
    }

    void aTextsErrorsAreLocatedInIt()
    {
        auto l = bundled();
        // An unsaved pack of a layer that is not on disk yet, with a bad regex on line 5.
        const std::string path = l->pack("new") + "/packs/draft.yaml";
        const std::string draft =
            "pack: draft\nextractors:\n  - id: d.one\n    event: e\n    pattern: 'x(?P<v'\n    tests: []\n";
        const auto r = loadWith(*l, { "new" }, { { path, draft } });
        QVERIFY(!r.ok());
        const Diagnostic* d = find(r, "bad-regex");
        QVERIFY2(d, r.asText().c_str());
        QCOMPARE(d->where.file, path);
        QCOMPARE(d->where.line, std::uint64_t(5));
        QCOMPARE(d->where.column, std::uint32_t(14));
        QCOMPARE(d->snippet, std::string("    pattern: 'x(?P<v'"));
        QVERIFY2(d->format().rfind(path + ":5:14: error: rule 'd.one'", 0) == 0, d->format().c_str());
        // A text for a file no layer reads is an error too.
        const auto outside = loadWith(*l, {}, { { l->pack("elsewhere") + "/packs/x.yaml", "pack: x\n" } });
        QVERIFY(!outside.ok());
        QVERIFY2(find(outside, "text-outside-layers"), outside.asText().c_str());
    }

    void theHashCoversEveryLayerInOrder()
    {
        auto l = bundled();
        const std::string base = RuleCatalog::load(l->root()).catalog->contentHash();
        l->write("site/packs/site.yaml", kOverride);
        const auto one = loadWith(*l, { "site" });
        QVERIFY2(one.ok(), one.asText().c_str());
        QVERIFY(one.catalog->contentHash() != base);
        // An empty layer changes nothing.
        l->write("empty/README", "no packs here\n");
        QCOMPARE(loadWith(*l, { "empty" }).catalog->contentHash(), base);
        // A layer's text changes the hash; so does the order of two layers.
        std::string edited = kOverride;
        edited.replace(edited.find("site.bang"), 9, "site.bong");
        edited.replace(edited.find("site.bang"), 9, "site.bong");
        const auto text = loadWith(*l, { "site" }, { { l->pack("site") + "/packs/site.yaml", edited } });
        QVERIFY2(text.ok(), text.asText().c_str());
        QVERIFY(text.catalog->contentHash() != one.catalog->contentHash());
        l->write("more/packs/more.yaml",
            "pack: more\nextractors:\n  - id: m.one\n    pattern: 'm'\n    event: m\n"
            "    tests: [{line: m, expect: {event: m}}]\n");
        const auto ab = loadWith(*l, { "site", "more" });
        const auto ba = loadWith(*l, { "more", "site" });
        QVERIFY(ab.ok() && ba.ok());
        QVERIFY(ab.catalog->contentHash() != ba.catalog->contentHash());
        QCOMPARE(ab.catalog->packLayerCount(), std::size_t(2));
        QVERIFY2(ab.catalog->loadedFrom().find(" + ") != std::string::npos, ab.catalog->loadedFrom().c_str());
    }

    void aStoredCatalogReloadsToTheSameHash()
    {
        auto l = bundled();
        l->write("empty/README", "no packs here\n");
        l->write("site/packs/site.yaml", kOverride);
        const auto r = loadWith(*l, { "empty", "site" }, { { l->pack("site") + "/packs/draft.yaml", "pack: d\n" } });
        QVERIFY2(r.ok(), r.asText().c_str());
        // What a case stores: every file under its stored path.
        QTemporaryDir copy;
        std::map<std::string, std::string> files;
        for (const auto& f : r.catalog->files())
            files[f.storedPath] = f.text;
        QVERIFY(files.count("layers/1/packs/site.yaml"));
        QVERIFY(files.count("layers/1/packs/draft.yaml"));
        tests::writeFiles(copy, files);
        const auto again = RuleCatalog::load(storedCatalogSources(copy.path().toStdString()));
        QVERIFY2(again.ok(), again.asText().c_str());
        QCOMPARE(again.catalog->contentHash(), r.catalog->contentHash());
        QCOMPARE(extractor(*again.catalog, "x.one")->eventType, std::string("site.bang"));
    }
};

QTEST_GUILESS_MAIN(TstCatalogLayers)
#include "tst_catalog_layers.moc"
