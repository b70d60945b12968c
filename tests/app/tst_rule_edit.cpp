// SPDX-License-Identifier: Apache-2.0
// The rule-editing use case over the flagship sample: a bundled rule opens as an override for the user's directory;
// the catalog an edit gives is checked with its errors located in the document (an RE2 error at the pattern's line and
// column, a YAML error where it is, a failing test at its test); re-running the edited catalog re-uses the evidence
// and gives the verdict diff and the rule's trace; a rule drafted from any record compiles, matches that record with
// the captured values its test expects, and fires on that record only; saving writes the pack file keeping every
// other byte, bumps the version, keeps a backup once and refuses a catalog with errors; the must-not-fire sweep and
// the regression over a case library name the exact cases and lines.
#include "app/usecases/regress.h"
#include "app/usecases/rule_edit.h"
#include "tests/common/analysis_fixture.h"

#include <QTemporaryDir>
#include <QTest>

#include <re2/re2.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace faultline;
using namespace faultline::usecases;

namespace {

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string listed(const std::vector<EditDiagnostic>& diags)
{
    std::string s;
    for (const auto& d : diags)
        s += d.diagnostic.format() + " @doc " + std::to_string(d.line) + ":" + std::to_string(d.column) + "\n";
    return s;
}

const EditDiagnostic* withCode(const RuleCheck& c, const std::string& code)
{
    for (const auto& d : c.diagnostics)
        if (d.diagnostic.code == code)
            return &d;
    return nullptr;
}

core::CatalogSources bundled()
{
    return core::CatalogSources { tests::sourcePath("rules"), {}, {} };
}

/// The 1-based line of the document that starts with `prefix`, or 0.
std::uint64_t lineOf(const std::string& doc, const std::string& prefix)
{
    std::istringstream in(doc);
    std::string l;
    for (std::uint64_t n = 1; std::getline(in, l); ++n)
        if (l.rfind(prefix, 0) == 0)
            return n;
    return 0;
}

/// Line `n` (1-based) of a text.
std::string lineText(const std::string& doc, std::uint64_t n)
{
    std::istringstream in(doc);
    std::string l;
    for (std::uint64_t k = 1; std::getline(in, l); ++k)
        if (k == n)
            return l;
    return {};
}

std::string replaced(std::string s, const std::string& from, const std::string& to)
{
    const auto at = s.find(from);
    if (at != std::string::npos)
        s.replace(at, from.size(), to);
    return s;
}

/// The NVLink5 rule edited to call its Xids link noise: a context event of another type, without the XID tables'
/// roles (its own tests, which expect gpu.xid, then fail).
std::string asNoise(const std::string& doc)
{
    std::string s =
        replaced(doc, "    event: gpu.xid\n    role: root\n", "    event: site.nvlink-noise\n    role: context\n");
    s = replaced(
        s, "    lookup:\n      - {table: xid, key: '{code}'}\n      - {table: nvlink5, key: '{code}/{unit}'}\n", "");
    return s;
}

/// Where the flagship sample's Xid 149 line is: node-02's dmesg and the same message in its journal.
const std::set<std::string> kXid149Lines = { "nodes/node-02/dmesg.txt:70", "nodes/node-02/journal-kernel.jsonl:70" };

/// The records a traced rule made events from, as PATH:LINE.
std::set<std::string> firedAt(const core::RuleTrace& t)
{
    std::set<std::string> out;
    for (const auto& e : t.events)
        out.insert(e.record.path + ":" + std::to_string(e.record.line));
    return out;
}

/// A case library of the flagship sample and two others, saved once for the test run.
const std::string& library()
{
    static QTemporaryDir dir;
    static bool made = false;
    if (!made) {
        made = true;
        for (const char* s : { "bundle-48213", "python-exception", "cuda-oom" }) {
            BundleRequest b;
            b.paths = { tests::sourcePath(std::string("resources/samples/") + s) };
            b.rulesDir = tests::sourcePath("rules");
            b.saveAs = dir.path().toStdString() + "/" + s + ".faultline";
            const auto r = analyseBundle(b);
            if (!r.ok())
                qFatal("cannot save the sample %s as a case: %s", s, r.failure.text().c_str());
        }
    }
    static const std::string path = dir.path().toStdString();
    return path;
}

} // namespace

class TstRuleEdit : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aBundledRuleOpensAsAnOverrideInTheUsersDirectory()
    {
        const auto doc =
            openRuleForEdit(*tests::bundledCatalog(), "gpu.xid.nvlink5", "/home/u/.config/faultline/rules");
        QVERIFY2(doc.ok(), doc.failure.text().c_str());
        QCOMPARE(doc.value->target.dir, std::string("/home/u/.config/faultline/rules"));
        QCOMPARE(doc.value->target.packFile, std::string("packs/gpu.yaml"));
        QCOMPARE(doc.value->target.replaceId, std::string("gpu.xid.nvlink5"));
        QVERIFY(doc.value->isOverride);
        QVERIFY(doc.value->text.rfind("extractors:\n  - id: gpu.xid.nvlink5\n    override: true\n", 0) == 0);
        VERIFY_CONTAINS(QString::fromStdString(doc.value->from), QStringLiteral("packs/gpu.yaml:"));
        const auto unknown = openRuleForEdit(*tests::bundledCatalog(), "gpu.xid.nvlink", "/tmp");
        QVERIFY(!unknown.ok());
        QCOMPARE(unknown.failure.code, Exit::Usage);
        VERIFY_CONTAINS(
            QString::fromStdString(unknown.failure.message), QStringLiteral("did you mean gpu.xid, gpu.xid.nvlink5"));
    }

    void anEditIsCheckedWithItsErrorsLocatedInTheDocument()
    {
        QTemporaryDir user;
        const auto doc = openRuleForEdit(*tests::bundledCatalog(), "gpu.xid.nvlink5", user.path().toStdString());
        QVERIFY(doc.ok());
        RuleCheckRequest req { bundled(), doc.value->target, doc.value->text };
        RuleCheck c = checkRule(req);
        QVERIFY2(c.catalog, listed(c.diagnostics).c_str());
        QCOMPARE(c.ruleId, std::string("gpu.xid.nvlink5"));
        QCOMPARE(c.section, std::string("extractors"));
        QVERIFY(c.testsRun >= 5);
        QCOMPARE(c.testsFailed, std::size_t(0));
        QCOMPARE(c.catalog->layers().at(1).overridden, std::size_t(1));
        // A broken regex: bad-regex at the pattern's line and column in the document, naming the rule.
        const std::uint64_t patternLine = lineOf(doc.value->text, "    pattern: ");
        QVERIFY(patternLine > 0);
        req.text = replaced(doc.value->text, "(?P<code>14[4-9]|150)", "(?P<code>14[4-9]|150");
        c = checkRule(req);
        QVERIFY(!c.catalog);
        const EditDiagnostic* bad = withCode(c, "bad-regex");
        QVERIFY2(bad, listed(c.diagnostics).c_str());
        QCOMPARE(bad->line, patternLine);
        // At the group RE2 says is never closed, not just at the pattern.
        const std::string brokenLine = lineText(req.text, patternLine);
        QCOMPARE(bad->column, std::uint32_t(brokenLine.find("(?P<code>") + 1));
        QCOMPARE(bad->length, std::uint32_t(1));
        VERIFY_CONTAINS(QString::fromStdString(bad->diagnostic.message), QStringLiteral("never closed"));
        QCOMPARE(bad->diagnostic.where.line, std::uint64_t(patternLine + 1)); // the pack file has its pack line first
        QCOMPARE(bad->diagnostic.ruleId, std::string("gpu.xid.nvlink5"));
        QCOMPARE(
            bad->diagnostic.where.file, (std::filesystem::path(user.path().toStdString()) / "packs/gpu.yaml").string());
        VERIFY_CONTAINS(QString::fromStdString(bad->diagnostic.message), QStringLiteral("missing )"));
        // A class left open: at its '[', the fragment RE2 quotes.
        req.text = replaced(doc.value->text, "(?P<errstatus>0x[0-9a-fA-F]+)", "(?P<errstatus>0x[0-9a-fA-F+)");
        c = checkRule(req);
        bad = withCode(c, "bad-regex");
        QVERIFY2(bad, listed(c.diagnostics).c_str());
        QCOMPARE(bad->column, std::uint32_t(lineText(req.text, patternLine).find("[0-9a-fA-F+)") + 1));
        VERIFY_CONTAINS(QString::fromStdString(bad->diagnostic.message), QStringLiteral("missing ]"));
        // A YAML error in the document: where it is.
        req.text = replaced(doc.value->text, "    event: gpu.xid\n", "   event: gpu.xid\n");
        c = checkRule(req);
        QVERIFY(!c.catalog);
        QVERIFY2(withCode(c, "yaml-syntax"), listed(c.diagnostics).c_str());
        QCOMPARE(withCode(c, "yaml-syntax")->line, lineOf(req.text, "   event: gpu.xid"));
        // A test that no longer holds: at its test line.
        req.text = replaced(doc.value->text, "(?P<code>14[4-9]|150)", "(?P<code>14[4-8]|150)");
        c = checkRule(req);
        const EditDiagnostic* test = withCode(c, "rule-test-failed");
        QVERIFY2(test, listed(c.diagnostics).c_str());
        QVERIFY(test->line > patternLine);
        QVERIFY(c.testsFailed >= 1);
        // A document of two rules: one-rule, at the second.
        req.text = doc.value->text + "  - id: gpu.other\n    pattern: 'x'\n";
        c = checkRule(req);
        QVERIFY2(withCode(c, "one-rule"), listed(c.diagnostics).c_str());
        QCOMPARE(withCode(c, "one-rule")->line, lineOf(req.text, "  - id: gpu.other"));
    }

    void theEditedRuleReRunsOnTheShownEvidence()
    {
        const auto shown = tests::analysedBundle("resources/samples/bundle-48213");
        QTemporaryDir user;
        const auto doc = openRuleForEdit(*tests::bundledCatalog(), "gpu.xid.nvlink5", user.path().toStdString());
        QVERIFY(doc.ok());
        // Unchanged: the same verdict.
        RuleCheck c = checkRule({ bundled(), doc.value->target, doc.value->text });
        QVERIFY(c.catalog);
        auto run = runEditedRule({ shown, c.catalog, "gpu.xid.nvlink5" });
        QVERIFY2(run.ok(), run.failure.text().c_str());
        QVERIFY2(run.value->diff.same, run.value->diff.changes.empty() ? "" : run.value->diff.changes.front().c_str());
        QCOMPARE(run.value->baseline, std::string("the shown verdict"));
        QCOMPARE(run.value->analysis.evidence, shown.evidence); // the import is re-used
        QVERIFY(run.value->trace);
        QCOMPARE(run.value->trace->rules.size(), std::size_t(1));
        QCOMPARE(run.value->trace->rules.front().id, std::string("gpu.xid.nvlink5"));
        // The Xid 149 line is in node-02's dmesg and in its journal: one event from each, one kept.
        QCOMPARE(firedAt(run.value->trace->rules.front()), kXid149Lines);
        // The Xid 149 made context: the cause moves, and the diff says so.
        const std::string edited = asNoise(doc.value->text);
        QVERIFY(edited.find("lookup:") == std::string::npos);
        c = checkRule({ bundled(), doc.value->target, edited });
        QVERIFY2(c.catalog, listed(c.diagnostics).c_str());
        run = runEditedRule({ shown, c.catalog, "gpu.xid.nvlink5" });
        QVERIFY2(run.ok(), run.failure.text().c_str());
        QVERIFY(!run.value->diff.same);
        std::string changes;
        for (const auto& l : run.value->diff.changes)
            changes += l + "\n";
        VERIFY_CONTAINS(QString::fromStdString(changes), QStringLiteral("cause"));
        QVERIFY(run.value->trace);
        QCOMPARE(run.value->trace->rules.front().events.front().role, std::string("context"));
        QCOMPARE(run.value->trace->rules.front().events.front().type, std::string("site.nvlink-noise"));
        QVERIFY(run.value->analysis.verdict != shown.verdict);
        // No catalog: a usage failure, nothing run.
        QCOMPARE(runEditedRule({ shown, nullptr, "x" }).failure.code, Exit::Usage);
        // Cancelled: says so.
        std::atomic_bool stop { true };
        Task cancelled;
        cancelled.cancel = &stop;
        QCOMPARE(runEditedRule({ shown, c.catalog, "gpu.xid.nvlink5" }, cancelled).failure.code, Exit::Cancelled);
    }

    void aDraftMatchesEveryRecordItIsMadeFrom_data()
    {
        QTest::addColumn<QString>("sample");
        for (const char* s : { "bundle-48213", "bundle-48213-k8s", "ib-link-flap", "cuda-oom", "python-exception",
                 "xid79-node-fail", "inconclusive-no-infra" })
            QTest::newRow(s) << QString::fromLatin1(s);
    }

    void aDraftMatchesEveryRecordItIsMadeFrom()
    {
        QFETCH(QString, sample);
        const auto shown = tests::analysedBundle("resources/samples/" + sample.toStdString());
        const auto& ev = *shown.evidence;
        std::vector<std::string> hosts;
        for (std::size_t i = 0; i < ev.nodes.size(); ++i)
            hosts.push_back(ev.nodes.name(static_cast<core::NodeId>(i)));
        std::size_t checked = 0;
        for (const auto& o : ev.observations) {
            const std::string text(o.text.substr(0, o.text.find('\n')));
            if (text.empty())
                continue;
            const RuleDraft d = draftRuleFromLine(o.text, o.kind, { hosts, {}, nullptr });
            RE2::Options opts;
            opts.set_log_errors(false);
            const RE2 re("(?m)" + d.pattern, opts);
            QVERIFY2(re.ok(), (d.pattern + ": " + re.error()).c_str());
            std::map<std::string, std::string> got;
            std::vector<re2::StringPiece> groups(static_cast<std::size_t>(re.NumberOfCapturingGroups()) + 1);
            QVERIFY2(re.Match(re2::StringPiece(text), 0, text.size(), RE2::UNANCHORED, groups.data(),
                         static_cast<int>(groups.size())),
                ("the draft does not match its line:\n  " + text + "\n  " + d.pattern).c_str());
            for (const auto& [name, index] : re.NamedCapturingGroups())
                got[name] = std::string(groups[static_cast<std::size_t>(index)]);
            for (const auto& [name, value] : d.captures)
                QVERIFY2(got[name] == value,
                    ("capture " + name + ": expected '" + value + "', got '" + got[name] + "' in\n  " + text + "\n  "
                        + d.pattern)
                        .c_str());
            ++checked;
        }
        QVERIFY2(checked > 50, std::to_string(checked).c_str());
    }

    void aRuleFromALineFiresOnThatLine()
    {
        const auto shown = tests::analysedBundle("resources/samples/bundle-48213");
        const auto record = recordAt(*shown.evidence, "nodes/node-02/dmesg.txt", 70);
        QVERIFY(record);
        QCOMPARE(record->kind, core::SourceKind::Kernel);
        QVERIFY(record->text.rfind("NVRM: Xid (PCI:0000:c3:00): 149,", 0) == 0);
        QVERIFY(!recordAt(*shown.evidence, "nodes/node-02/dmesg.txt", 100000));
        QVERIFY(!recordAt(*shown.evidence, "no/such/file", 1));
        const RuleDraft d = draftRuleFromLine(
            record->text, record->kind, { { "node-02" }, "nodes/node-02/dmesg.txt:70", tests::bundledCatalog().get() });
        QCOMPARE(d.id, std::string("local.nvrm-xid-pci"));
        const std::map<std::string, std::string> captures(d.captures.begin(), d.captures.end());
        QCOMPARE(captures.at("pci"), std::string("0000:c3:00"));
        QCOMPARE(captures.at("num"), std::string("149"));
        QCOMPARE(captures.at("link"), std::string("07"));
        QCOMPARE(captures.at("hex"), std::string("0x021475c6"));
        VERIFY_CONTAINS(QString::fromStdString(d.pattern), QStringLiteral("NVRM: Xid \\(PCI:(?P<pci>"));
        VERIFY_CONTAINS(QString::fromStdString(d.text), QStringLiteral("    sources: [kernel]\n"));
        VERIFY_CONTAINS(QString::fromStdString(d.text), QStringLiteral("    gpu: '{pci}'\n"));
        // As a new rule of the user's local pack: it loads, its test passes, and it fires on that record only.
        QTemporaryDir user;
        const RuleTarget target { user.path().toStdString(), kLocalPack, {} };
        const RuleCheck c = checkRule({ bundled(), target, d.text });
        QVERIFY2(c.catalog, listed(c.diagnostics).c_str());
        QCOMPARE(c.testsRun, std::size_t(1));
        QCOMPARE(c.testsFailed, std::size_t(0));
        const auto run = runEditedRule({ shown, c.catalog, d.id });
        QVERIFY2(run.ok(), run.failure.text().c_str());
        QVERIFY(run.value->trace);
        const auto& t = run.value->trace->rules.front();
        QCOMPARE(t.recordsMatched, std::size_t(2));
        QCOMPARE(firedAt(t), kXid149Lines);
        // A line with a rank, a host, a number after a key, an address and a time.
        const RuleDraft nccl = draftRuleFromLine(
            "node-03.cluster.local: [Rank 13] NCCL WARN NET/IB : Got completion from peer 10.10.0.2<47393> with error "
            "12, opcode 0, len 0, vendor err 129 (Recv) at 10:15:32.001",
            core::SourceKind::AppLog, { { "node-03" }, {}, nullptr });
        const std::map<std::string, std::string> n(nccl.captures.begin(), nccl.captures.end());
        QCOMPARE(n.at("host"), std::string("node-03.cluster.local"));
        QCOMPARE(n.at("rank"), std::string("13"));
        QCOMPARE(n.at("ip"), std::string("10.10.0.2"));
        QCOMPARE(n.at("error"), std::string("12"));
        QCOMPARE(n.at("opcode"), std::string("0"));
        QCOMPARE(n.at("err"), std::string("129"));
        QCOMPARE(n.at("time"), std::string("10:15:32.001"));
        VERIFY_CONTAINS(QString::fromStdString(nccl.text), QStringLiteral("    rank: '{rank}'\n"));
        VERIFY_CONTAINS(QString::fromStdString(nccl.text), QStringLiteral("    sources: [applog]\n"));
    }

    void savingWritesThePackKeepsItsBytesAndBumpsTheVersion()
    {
        QTemporaryDir user;
        const std::string userDir = user.path().toStdString();
        // The user's gpu pack already holds a rule and comments of its own.
        const std::string before = "# My overrides of the bundled GPU rules.\npack: gpu\nextractors:\n  # keep me\n"
                                   "  - id: site.fan\n    sources: [kernel]\n    pattern: 'fan (?P<fan>\\d+) stopped'\n"
                                   "    event: site.fan_stopped\n    tests: [{line: 'fan 3 stopped', expect: {event: "
                                   "site.fan_stopped}}]\n\n# end of file\n";
        tests::writeFiles(user, { { "packs/gpu.yaml", before } });
        core::CatalogSources sources = bundled();
        sources.packDirs = { userDir };
        const auto doc = openRuleForEdit(*tests::bundledCatalog(), "gpu.xid.nvlink5", userDir);
        QVERIFY(doc.ok());
        const std::string edited = replaced(doc.value->text, "    priority: 60\n", "    priority: 61\n");
        QVERIFY(edited != doc.value->text);
        auto saved = saveRule({ sources, doc.value->target, edited });
        QVERIFY2(saved.ok(), saved.failure.text().c_str());
        QCOMPARE(saved.value->version, 1);
        QVERIFY(!saved.value->created);
        QVERIFY(!saved.value->replaced);
        QCOMPARE(saved.value->backup, userDir + "/packs/gpu.yaml.bak");
        QCOMPARE(readFile(saved.value->backup), before);
        std::string after = readFile(userDir + "/packs/gpu.yaml");
        // Every byte of the file before is still there, in order: the rule went in after the last entry.
        const std::size_t cut = before.find("\n\n# end of file\n");
        QCOMPARE(after.substr(0, cut + 1), before.substr(0, cut + 1));
        QCOMPARE(after.substr(after.size() - (before.size() - cut - 1)), before.substr(cut + 1));
        VERIFY_CONTAINS(QString::fromStdString(after),
            QStringLiteral("  - id: gpu.xid.nvlink5\n    version: 1\n    override: true\n"));
        // The document as saved carries its version; saving it again bumps it, replacing the entry in place, and the
        // backup of the original file stays as it was.
        QVERIFY(saved.value->document.text.find("    version: 1\n") != std::string::npos);
        auto again = saveRule({ sources, saved.value->document.target, saved.value->document.text });
        QVERIFY2(again.ok(), again.failure.text().c_str());
        QCOMPARE(again.value->version, 2);
        QVERIFY(again.value->replaced);
        QVERIFY(again.value->backup.empty());
        QCOMPARE(readFile(userDir + "/packs/gpu.yaml.bak"), before);
        const std::string third = readFile(userDir + "/packs/gpu.yaml");
        QCOMPARE(third, replaced(after, "    version: 1\n", "    version: 2\n"));
        // The saved pack loads as the user's layer and overrides the bundled rule.
        const auto loaded = core::RuleCatalog::load(sources);
        QVERIFY2(loaded.ok(), loaded.asText().c_str());
        QCOMPARE(loaded.catalog->layers().at(1).overridden, std::size_t(1));
        // A document with errors is refused and the file is left as it was.
        auto refused = saveRule({ sources, again.value->document.target,
            replaced(again.value->document.text, "(?P<code>14[4-9]|150)", "(?P<code>14[4-9]|150") });
        QVERIFY(!refused.ok());
        QCOMPARE(refused.failure.code, Exit::Catalog);
        QCOMPARE(refused.failure.diagnostics.front().code, std::string("bad-regex"));
        QCOMPARE(readFile(userDir + "/packs/gpu.yaml"), third);
        // A new rule in a directory that does not exist yet: created, with its pack line, at version 1.
        QTemporaryDir fresh;
        const std::string freshDir = fresh.path().toStdString() + "/rules";
        const RuleDraft d = draftRuleFromLine("fan 3 stopped", core::SourceKind::Kernel);
        auto created = saveRule({ bundled(), { freshDir, kLocalPack, {} }, d.text });
        QVERIFY2(created.ok(), created.failure.text().c_str());
        QVERIFY(created.value->created);
        QCOMPARE(created.value->version, 1);
        QVERIFY(readFile(freshDir + "/packs/local.yaml")
                    .rfind("pack: local\nextractors:\n  - id: local.fan-stopped\n    version: 1\n", 0)
            == 0);
        QVERIFY(!std::filesystem::exists(freshDir + "/packs/local.yaml.bak"));
    }

    void aCaseShownWithItsStoredRulesSaysSo()
    {
        const std::string& lib = library();
        ReproduceRequest r;
        r.casePath = lib + "/bundle-48213.faultline";
        r.readOnly = true;
        const auto shown = reproduceCase(r);
        QVERIFY2(shown.ok(), shown.failure.text().c_str());
        QCOMPARE(shown.value->rulesOrigin, std::string("run 1's rules"));
        QTemporaryDir user;
        const auto doc = openRuleForEdit(*tests::bundledCatalog(), "gpu.xid.nvlink5", user.path().toStdString());
        const RuleCheck c = checkRule({ bundled(), doc.value->target, doc.value->text });
        QVERIFY(c.catalog);
        const auto run = runEditedRule({ *shown.value, c.catalog, "gpu.xid.nvlink5" });
        QVERIFY2(run.ok(), run.failure.text().c_str());
        QCOMPARE(run.value->baseline, std::string("run 1"));
        VERIFY_CONTAINS(QString::fromStdString(run.value->baselineNote), QStringLiteral("run 1's rules"));
        QVERIFY(run.value->diff.same);
    }

    void theSweepAndTheRegressionNameTheExactCases()
    {
        const std::string& lib = library();
        const auto shown = tests::analysedBundle("resources/samples/bundle-48213");
        const auto record = recordAt(*shown.evidence, "nodes/node-02/dmesg.txt", 70);
        QVERIFY(record);
        const RuleDraft d =
            draftRuleFromLine(record->text, record->kind, { { "node-02" }, {}, tests::bundledCatalog().get() });
        QTemporaryDir user;
        const RuleCheck c = checkRule({ bundled(), { user.path().toStdString(), kLocalPack, {} }, d.text });
        QVERIFY2(c.catalog, listed(c.diagnostics).c_str());
        const auto sweep = sweepRule({ lib, c.catalog, d.id, 2 });
        QVERIFY2(sweep.ok(), sweep.failure.text().c_str());
        QCOMPARE(sweep.value->cases.size(), std::size_t(3));
        QCOMPARE(sweep.value->casesFired, std::size_t(1));
        QCOMPARE(sweep.value->fired, std::size_t(2));
        for (const auto& cs : sweep.value->cases) {
            QVERIFY2(cs.error.empty(), cs.error.c_str());
            const bool flagship = cs.path.find("bundle-48213") != std::string::npos;
            QCOMPARE(cs.fired, std::size_t(flagship ? 2 : 0));
            if (!flagship)
                continue;
            std::set<std::string> lines;
            for (const auto& h : cs.hits) {
                lines.insert(h.path + ":" + std::to_string(h.line));
                VERIFY_CONTAINS(QString::fromStdString(h.text), QStringLiteral("149, NETIR_LINK_EVT"));
            }
            QCOMPARE(lines, kXid149Lines);
            VERIFY_CONTAINS(QString::fromStdString(cs.hits.front().fate), QStringLiteral("kept"));
        }
        QCOMPARE(sweepRule({ lib, c.catalog, "no.such.rule" }).failure.code, Exit::Usage);
        std::atomic_bool stop { true };
        Task cancelled;
        cancelled.cancel = &stop;
        QCOMPARE(sweepRule({ lib, c.catalog, d.id }, cancelled).failure.code, Exit::Cancelled);
        QCOMPARE(sweepRule({ lib + "/nowhere", c.catalog, d.id }).failure.code, Exit::Usage);
        // The regression with an edited catalog (the Xid 149 made context): exactly the flagship case flips.
        const auto doc = openRuleForEdit(*tests::bundledCatalog(), "gpu.xid.nvlink5", user.path().toStdString());
        const RuleCheck edit = checkRule({ bundled(), doc.value->target, asNoise(doc.value->text) });
        QVERIFY(edit.catalog);
        RegressRequest r;
        r.casesDir = lib;
        r.catalog = edit.catalog;
        r.threads = 2;
        const auto regression = regressCases(r);
        QVERIFY2(regression.ok(), regression.failure.text().c_str());
        std::vector<std::string> flipped;
        for (const auto& cr : regression.value->cases)
            if (!cr.diff.same || cr.outcome == CaseOutcome::Failed)
                flipped.push_back(std::filesystem::path(cr.path).filename().string());
        std::string names;
        for (const auto& f : flipped)
            names += f + " ";
        QVERIFY2(flipped == std::vector<std::string> { "bundle-48213.faultline" }, ("flipped: " + names).c_str());
        QCOMPARE(regression.value->catalogHash, edit.catalog->contentHash());
    }
};

QTEST_GUILESS_MAIN(TstRuleEdit)
#include "tst_rule_edit.moc"
