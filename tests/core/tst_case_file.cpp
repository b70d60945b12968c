// SPDX-License-Identifier: Apache-2.0
// The case file: what it stores comes back exactly (evidence bytes, lines, verdicts, a re-import with the same
// fingerprint), runs are history, and every kind of damage gets a clear error without touching the file. Killing the
// writer at any point leaves the previous state.
#include "core/analysis/analyzer.h"
#include "core/casefile/case_file.h"
#include "core/report/verdict_report.h"
#include "core/time/civil_time.h"
#include "core/util/sha256.h"
#include "importers/bundle_loader.h"
#include "tests/common/bundle_analysis.h"
#include "tests/common/test_helpers.h"

#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <re2/re2.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

using namespace faultline;
using namespace faultline::core;
namespace fs = std::filesystem;

namespace {

std::string readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string fileHash(const std::string& path)
{
    return Sha256::hex(readAll(path));
}

/// An imported and analysed bundle, ready to be saved.
using Analysed = tests::AnalysedBundle;

Analysed analyse(const std::vector<std::string>& paths)
{
    return tests::analyseBundle(paths);
}

CaseCreateRequest request(const Analysed& a, CaseCheckpoint checkpoint = {})
{
    CaseCreateRequest r;
    r.input = &a.input;
    r.evidence = &a.evidence;
    r.verdict = &a.verdict;
    r.run.catalog = tests::bundledCatalog().get();
    r.run.rulesDir = tests::sourcePath("rules");
    r.run.author = "tester";
    r.checkpoint = std::move(checkpoint);
    return r;
}

void sql(const std::string& path, const std::string& statement)
{
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* err = nullptr;
    const int rc = sqlite3_exec(db, statement.c_str(), nullptr, nullptr, &err);
    const std::string msg = err ? err : "";
    sqlite3_free(err);
    sqlite3_close(db);
    QVERIFY2(rc == SQLITE_OK, msg.c_str());
}

/// Runs `body` in a child process; returns true when the child was killed by SIGKILL.
template <class F> bool inChild(F&& body)
{
    const pid_t pid = ::fork();
    if (pid == 0) {
        body();
        ::_exit(0);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

} // namespace

class TstCaseFile : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::string m_sample = tests::sourcePath("resources/samples/bundle-48213");

    std::string path(const std::string& name) const { return m_dir.path().toStdString() + "/" + name; }

    std::string makeCase(const std::string& name, const std::vector<std::string>& bundle = {})
    {
        const Analysed a = analyse(bundle.empty() ? std::vector<std::string> { m_sample } : bundle);
        std::vector<Diagnostic> errors;
        auto c = CaseFile::create(path(name), request(a), errors);
        if (!c)
            qWarning("%s", errors.empty() ? "?" : errors.front().format().c_str());
        return c ? path(name) : std::string();
    }

private Q_SLOTS:
    void roundTrip()
    {
        const Analysed a = analyse({ m_sample });
        std::vector<Diagnostic> errors;
        auto c = CaseFile::create(path("round.faultline"), request(a), errors);
        QVERIFY2(c, tests::diagCodes(errors).c_str());
        struct stat st
        { };
        QCOMPARE(::stat(path("round.faultline").c_str(), &st), 0);
        QCOMPARE(st.st_mode & 0777, 0600u);
        for (const auto& e : fs::directory_iterator(m_dir.path().toStdString()))
            QVERIFY2(e.path().filename().string().find("partial") == std::string::npos, "a partial file was left");

        const auto runs = c->runs(errors);
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(runs[0].outcome, a.verdict.outcome);
        QCOMPARE(runs[0].author, std::string("tester"));
        QCOMPARE(*c->verdictText(1, errors), verdictToText(a.verdict, a.evidence));
        QCOMPARE(*c->verdictJson(1, errors), verdictToJson(a.verdict, a.evidence));

        // The stored input re-imports to the same evidence, byte for byte and verdict for verdict.
        const auto input = c->loadInput(errors);
        QVERIFY2(input, tests::diagCodes(errors).c_str());
        QCOMPARE(input->files.size(), a.input.files.size());
        for (std::size_t i = 0; i < a.input.files.size(); ++i) {
            QCOMPARE(input->files[i].path, a.input.files[i].path);
            QVERIFY(input->files[i].bytes == a.input.files[i].bytes);
            QCOMPARE(input->files[i].mtimeNs, a.input.files[i].mtimeNs);
        }
        QCOMPARE(input->manifestText, a.input.manifestText);
        const EvidenceSet again = importers::importBundle(*input);
        QCOMPARE(evidenceFingerprint(again), evidenceFingerprint(a.evidence));
        QCOMPARE(c->importFingerprint(errors), evidenceFingerprint(a.evidence));
        QCOMPARE(verdictToJson(analyze(again, *tests::bundledCatalog()), again), *c->verdictJson(1, errors));
        QVERIFY(c->verify().empty());
    }

    void aTruncatedArchiveStaysAGapAfterReimport()
    {
        // A bundle archive cut in half: the case keeps the members read and the stop, and the re-import from the case
        // reports the same truncated archive source as the import from the file did.
        QTemporaryDir dir;
        const QString full = dir.filePath(QStringLiteral("b.tar.gz"));
        QCOMPARE(std::system(QStringLiteral("tar czf %1 -C %2 bundle-48213")
                                 .arg(full, QString::fromStdString(tests::sourcePath("resources/samples")))
                                 .toLocal8Bit()
                                 .constData()),
            0);
        const std::string bytes = readAll(full.toStdString());
        const std::string cut = dir.filePath(QStringLiteral("cut.tar.gz")).toStdString();
        std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
        const Analysed a = analyse({ cut });
        QCOMPARE(a.input.archiveStops.size(), std::size_t(1));
        std::vector<Diagnostic> errors;
        auto c = CaseFile::create(path("cut-archive.faultline"), request(a), errors);
        QVERIFY2(c, tests::diagCodes(errors).c_str());
        const auto input = c->loadInput(errors);
        QVERIFY(input);
        QCOMPARE(input->archiveStops.size(), std::size_t(1));
        QCOMPARE(input->archiveStops[0].message, a.input.archiveStops[0].message);
        const EvidenceSet again = importers::importBundle(*input);
        QCOMPARE(again.sources.size(), a.evidence.sources.size());
        const Source& stop = again.sources.back();
        QCOMPARE(stop.path, std::string("cut.tar.gz"));
        QCOMPARE(stop.status, CoverageStatus::Truncated);
        QCOMPARE(stop.warnings.front().code, a.evidence.sources.back().warnings.front().code);
        QCOMPARE(evidenceFingerprint(again), evidenceFingerprint(a.evidence));
    }

    void linesComeBackExactly()
    {
        // A file with CRLF lines, an empty line, a 600 KB line that spans chunks, and no final newline.
        QTemporaryDir bundle;
        std::string big = "2026-11-02T10:00:00Z node-01 kernel: start\r\n\n";
        big += "2026-11-02T10:00:01Z node-01 kernel: " + std::string(600 * 1024, 'x') + " tail-marker\n";
        for (int i = 0; i < 20000; ++i)
            big += "2026-11-02T10:00:02Z node-01 kernel: line " + std::to_string(i) + "\n";
        big += "last line without newline";
        tests::writeFiles(bundle, { { "node-01/syslog.txt", big } });
        const std::string p = makeCase("lines.faultline", { bundle.path().toStdString() });
        QVERIFY(!p.empty());
        std::vector<Diagnostic> errors;
        auto c = CaseFile::open(p, {}, errors);
        QVERIFY(c);
        const auto files = c->files(errors);
        QCOMPARE(files.size(), std::size_t(1));
        QVERIFY(files[0].chunks > 3);
        std::vector<std::string> expected;
        std::istringstream in(big);
        for (std::string l; std::getline(in, l);)
            expected.push_back(l.size() && l.back() == '\r' ? l.substr(0, l.size() - 1) : l);
        QCOMPARE(files[0].lines, expected.size());
        for (std::size_t n = 1; n <= expected.size(); n += (n < 10 || n > expected.size() - 10) ? 1 : 997) {
            const auto got = c->line(files[0].id, n, errors, 1 << 20);
            QVERIFY2(got, tests::diagCodes(errors).c_str());
            QCOMPARE(*got, expected[n - 1]);
        }
        QVERIFY(!c->line(files[0].id, expected.size() + 1, errors));
        QCOMPARE(errors.back().code, std::string("case-no-line"));

        // grep finds the marker inside the long line, and counts every numbered line once.
        std::vector<GrepMatch> hits;
        GrepQuery q;
        q.pattern = "tail-marker$";
        QVERIFY(c->grep(
            q, [&](const GrepMatch& m) { return hits.push_back(m), true; }, errors));
        QCOMPARE(hits.size(), std::size_t(1));
        QCOMPARE(hits[0].line, std::uint64_t(3));
        q.pattern = "^2026-11-02T10:00:02Z node-01 kernel: line [0-9]+$";
        std::size_t n = 0;
        QVERIFY(c->grep(
            q, [&](const GrepMatch&) { return ++n, true; }, errors));
        QCOMPARE(n, std::size_t(20000));
        q.pattern = "without newline";
        hits.clear();
        QVERIFY(c->grep(
            q, [&](const GrepMatch& m) { return hits.push_back(m), true; }, errors));
        QCOMPARE(hits.size(), std::size_t(1));
        QCOMPARE(hits[0].line, std::uint64_t(expected.size()));
    }

    void grepMatchesAPlainScanAndFilters()
    {
        const std::string p = makeCase("grep.faultline");
        std::vector<Diagnostic> errors;
        auto c = CaseFile::open(p, { true, true }, errors);
        QVERIFY(c);
        GrepQuery q;
        q.pattern = "NCCL WARN|Xid";
        std::set<std::string> got;
        QVERIFY(c->grep(
            q, [&](const GrepMatch& m) { return got.insert(m.path + ":" + std::to_string(m.line)), true; }, errors));
        std::set<std::string> want;
        const RE2 re(q.pattern);
        for (const auto& f : fs::recursive_directory_iterator(m_sample)) {
            if (!f.is_regular_file() || f.path().filename() == "faultline.yaml"
                || f.path().filename() == "expected.yaml" || f.path().filename().string().rfind("README", 0) == 0)
                continue;
            std::ifstream in(f.path());
            std::size_t n = 0;
            for (std::string l; std::getline(in, l);)
                if (++n, RE2::PartialMatch(l, re))
                    want.insert(fs::relative(f.path(), m_sample).generic_string() + ":" + std::to_string(n));
        }
        QVERIFY(!want.empty());
        QCOMPARE(got, want);

        // Node and time filters keep only lines of records of that node in that window.
        q.node = "node-02";
        std::size_t kept = 0;
        std::size_t wrongNode = 0;
        QVERIFY(c->grep(
            q,
            [&](const GrepMatch& m) {
                wrongNode += m.node != "node-02";
                return ++kept, true;
            },
            errors));
        QVERIFY(kept > 0 && kept < got.size());
        QCOMPARE(wrongNode, std::size_t(0));
        q.node.clear();
        q.fromNs = INT64_MIN + 1;
        q.toNs = 0; // nothing happened before 1970
        kept = 0;
        QVERIFY(c->grep(
            q, [&](const GrepMatch&) { return ++kept, true; }, errors));
        QCOMPARE(kept, std::size_t(0));
        q.pattern = "(unclosed";
        QVERIFY(!c->grep(
            q, [](const GrepMatch&) { return true; }, errors));
        QCOMPARE(errors.back().code, std::string("grep-pattern"));
    }

    void observationsAreIndexed()
    {
        const std::string p = makeCase("obs.faultline");
        const Analysed a = analyse({ m_sample });
        std::vector<Diagnostic> errors;
        auto c = CaseFile::open(p, { true, true }, errors);
        const auto all = c->observations({}, errors);
        QVERIFY(all);
        QCOMPARE(all->size(), a.evidence.observations.size());
        for (std::size_t i = 0; i < all->size(); ++i) {
            const auto& o = a.evidence.observations[i];
            QCOMPARE((*all)[i].index, std::uint32_t(i));
            QCOMPARE((*all)[i].byteOffset, o.where.byteOffset);
            QCOMPARE((*all)[i].line, o.where.line);
            QCOMPARE((*all)[i].timeNs, o.timeNs);
            QCOMPARE((*all)[i].node, a.evidence.nodeName(o.node));
            QCOMPARE((*all)[i].kind, o.kind);
        }
        ObservationQuery q;
        q.node = "node-02";
        q.kind = SourceKind::Kernel;
        const auto some = c->observations(q, errors);
        QVERIFY(some && !some->empty() && some->size() < all->size());
        for (const auto& o : *some)
            QVERIFY(o.node == "node-02" && o.kind == SourceKind::Kernel);
    }

    void runsAreHistoryAndDiffed()
    {
        const std::string p = makeCase("runs.faultline");
        std::vector<Diagnostic> errors;
        auto c = CaseFile::open(p, {}, errors);
        QVERIFY(c);
        const Analysed a = analyse({ m_sample });
        RunContext ctx;
        ctx.author = "tester";
        QCOMPARE(c->addRun(a.verdict, a.evidence, ctx, errors), std::int64_t(2));
        auto same = c->diff(1, 2, errors);
        QVERIFY(same && same->same);
        // A different verdict (as a changed rule would give): the diff says what changed.
        Verdict other = a.verdict;
        other.outcome = "inconclusive";
        other.blamedNodes.clear();
        other.symptoms.pop_back();
        QCOMPARE(c->addRun(other, a.evidence, ctx, errors), std::int64_t(3));
        auto changed = c->diff(2, 3, errors);
        QVERIFY(changed && !changed->same);
        QVERIFY(!changed->changes.empty());
        QCOMPARE(c->runs(errors).size(), std::size_t(3));
        QCOMPARE(*c->verdictJson(1, errors), *c->verdictJson(2, errors));

        // Expectations: the first run is marked expected; the third does not meet it.
        QVERIFY(c->expect(1, "reviewer", "postmortem", errors) > 0);
        QVERIFY(c->checkExpectation(2, errors).empty());
        QVERIFY(!c->checkExpectation(3, errors).empty());
        QVERIFY(!c->diff(1, 99, errors));
        QCOMPARE(errors.back().code, std::string("case-no-run"));
    }

    void aChangedImportIsKeptWithTheRun()
    {
        // A newer importer reads the stored bytes differently (simulated: one record's time moves). The re-run
        // records a new import, and the observation index follows it; the first import stays.
        const std::string p = makeCase("reimport.faultline");
        std::vector<Diagnostic> errors;
        auto c = CaseFile::open(p, {}, errors);
        const auto input = c->loadInput(errors);
        QVERIFY(input);
        EvidenceSet ev = importers::importBundle(*input);
        const std::int64_t moved = ev.observations[0].timeNs + 7 * kNsPerSec;
        ev.observations[0].timeNs = moved;
        const Verdict v = analyze(ev, *tests::bundledCatalog());
        RunContext ctx;
        ctx.input = &*input;
        ctx.fingerprint = evidenceFingerprint(ev);
        QVERIFY(ctx.fingerprint != c->importFingerprint(errors));
        QCOMPARE(c->addRun(v, ev, ctx, errors), std::int64_t(2));
        QCOMPARE(c->importCount(errors), std::int64_t(2));
        QCOMPARE(c->importFingerprint(errors), ctx.fingerprint);
        const auto runs = c->runs(errors);
        QCOMPARE(runs[0].importId, std::int64_t(1));
        QCOMPARE(runs[1].importId, std::int64_t(2));
        const auto obs = c->observations({}, errors);
        QVERIFY(obs && !obs->empty());
        QCOMPARE(obs->front().timeNs, moved);
        QCOMPARE(obs->size(), ev.observations.size());
        // The same evidence again adds a run, not an import.
        QCOMPARE(c->addRun(v, ev, ctx, errors), std::int64_t(3));
        QCOMPARE(c->importCount(errors), std::int64_t(2));
        QVERIFY(c->verify().empty());
    }

    void aRunsRulesAreKeptAndExtracted()
    {
        const std::string p = makeCase("rules.faultline");
        std::vector<Diagnostic> errors;
        auto c = CaseFile::open(p, {}, errors);
        QTemporaryDir out;
        QVERIFY(c->extractCatalog(1, out.path().toStdString(), errors));
        const auto again = RuleCatalog::load(out.path().toStdString());
        QVERIFY(again.ok());
        QCOMPARE(again.catalog->contentHash(), tests::bundledCatalog()->contentHash());
        QVERIFY(!c->extractCatalog(9, out.path().toStdString(), errors));
        QCOMPARE(errors.back().code, std::string("case-no-catalog"));
        // A schema-1 case holds no rules: said so, not guessed.
        const std::string old = path("schema1-rules.faultline");
        fs::copy_file(tests::sourcePath("tests/data/cases/schema1-python-exception.faultline"), old);
        auto o = CaseFile::open(old, {}, errors);
        QVERIFY(o);
        QVERIFY(!o->extractCatalog(1, out.path().toStdString(), errors));
        QCOMPARE(errors.back().code, std::string("case-no-catalog"));
    }

    void annotationsKeepHistory()
    {
        const std::string p = makeCase("notes.faultline");
        std::vector<Diagnostic> errors;
        auto c = CaseFile::open(p, {}, errors);
        Annotation note;
        note.kind = "note";
        note.target = "line";
        note.fileId = c->files(errors).front().id;
        note.line = 1;
        note.text = "first";
        note.author = "ana";
        const auto id = c->annotate(note, errors);
        QVERIFY(id > 0);
        Annotation edit = note;
        edit.text = "second";
        edit.supersedes = id;
        QVERIFY(c->annotate(edit, errors) > 0);
        Annotation tag;
        tag.kind = "tag";
        tag.target = "event";
        tag.runId = 1;
        tag.eventIdx = 0;
        tag.text = "nvlink";
        const auto tagId = c->annotate(tag, errors);
        QVERIFY(tagId > 0);
        auto list = c->annotations(errors);
        QCOMPARE(list.size(), std::size_t(2));
        QCOMPARE(list[0].text, std::string("second"));
        QCOMPARE(list[0].author, std::string("ana"));
        QVERIFY(!list[0].createdAt.empty());
        QVERIFY(!list[1].path.empty() && list[1].line > 0);
        QVERIFY(c->removeAnnotation(tagId, "bob", errors));
        QCOMPARE(c->annotations(errors).size(), std::size_t(1));
        Annotation bad = tag;
        bad.eventIdx = 100000;
        QCOMPARE(c->annotate(bad, errors), std::int64_t(0));
        QCOMPARE(errors.back().code, std::string("annotation-target"));
    }

    void refusesToOverwrite()
    {
        const std::string p = makeCase("exists.faultline");
        const std::string before = fileHash(p);
        const Analysed a = analyse({ m_sample });
        std::vector<Diagnostic> errors;
        QVERIFY(!CaseFile::create(p, request(a), errors));
        QCOMPARE(errors.back().code, std::string("case-exists"));
        QCOMPARE(fileHash(p), before);
    }

    void damagedFilesGetClearErrors_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<QString>("code");
        QTest::newRow("empty") << "empty"
                               << "case-not-sqlite";
        QTest::newRow("not sqlite") << "text"
                                    << "case-not-sqlite";
        QTest::newRow("truncated to half") << "truncate"
                                           << "case-truncated";
        QTest::newRow("truncated header") << "truncate-header"
                                          << "case-truncated";
        QTest::newRow("other sqlite db") << "foreign"
                                         << "case-not-faultline";
        QTest::newRow("newer schema") << "newer"
                                      << "case-newer-schema";
    }

    void damagedFilesGetClearErrors()
    {
        QFETCH(QString, damage);
        QFETCH(QString, code);
        const std::string p = path("damaged-" + damage.toStdString() + ".faultline");
        const std::string good = makeCase("good-" + damage.toStdString() + ".faultline");
        fs::copy_file(good, p);
        const std::string bytes = readAll(p);
        if (damage == "empty")
            std::ofstream(p, std::ios::binary | std::ios::trunc);
        else if (damage == "text")
            std::ofstream(p, std::ios::binary | std::ios::trunc) << "this is a log file, not a case\n";
        else if (damage == "truncate")
            fs::resize_file(p, bytes.size() / 2);
        else if (damage == "truncate-header")
            fs::resize_file(p, 50);
        else if (damage == "foreign") {
            fs::remove(p);
            sql(p, "CREATE TABLE t(x); INSERT INTO t VALUES (1);");
        } else if (damage == "newer")
            sql(p, "PRAGMA user_version = 99; UPDATE meta SET value = '99' WHERE key = 'read_compat_version';");
        const std::string before = fileHash(p);
        std::vector<Diagnostic> errors;
        for (bool readOnly : { true, false }) {
            errors.clear();
            QVERIFY(!CaseFile::open(p, { readOnly, true }, errors));
            QCOMPARE(errors.size(), std::size_t(1));
            QCOMPARE(QString::fromStdString(errors[0].code), code);
            QCOMPARE(errors[0].where.file, p);
            QVERIFY(!errors[0].message.empty());
        }
        QCOMPARE(fileHash(p), before);
        QVERIFY(!fs::exists(p + "-wal"));
    }

    void newerSchemaReadableReadOnly()
    {
        const std::string p = makeCase("newer-compat.faultline");
        sql(p, "PRAGMA user_version = " + std::to_string(kCaseSchemaVersion + 1) + ";");
        const std::string before = fileHash(p);
        std::vector<Diagnostic> errors;
        auto c = CaseFile::open(p, {}, errors);
        QVERIFY(c);
        QVERIFY(c->readOnly());
        QCOMPARE(c->notes().front().code, std::string("case-newer-schema"));
        QVERIFY(c->verdictText(1, errors));
        const Analysed a = analyse({ m_sample });
        QCOMPARE(c->addRun(a.verdict, a.evidence, {}, errors), std::int64_t(0));
        QCOMPARE(errors.back().code, std::string("case-read-only"));
        c.reset();
        QCOMPARE(fileHash(p), before);
    }

    void corruptedPageIsReported()
    {
        const std::string p = makeCase("pages.faultline");
        std::string bytes = readAll(p);
        // Overwrite every page after the first few with garbage, one page at a time, in separate copies.
        const std::size_t pageSize = 4096;
        std::size_t detected = 0;
        std::size_t tried = 0;
        for (std::size_t page = 2; page * pageSize < bytes.size(); page += 7) {
            std::string damaged = bytes;
            for (std::size_t i = 0; i < pageSize; ++i)
                damaged[page * pageSize + i] = static_cast<char>((i * 131 + page) & 0xff);
            const std::string q = path("page.faultline");
            fs::remove(q);
            std::ofstream(q, std::ios::binary) << damaged;
            const std::string before = fileHash(q);
            ++tried;
            std::vector<Diagnostic> errors;
            auto c = CaseFile::open(q, { true, true }, errors);
            if (!c) {
                ++detected;
            } else {
                // Reading everything must either work or fail with a located error; it never crashes.
                auto problems = c->verify();
                c->runs(errors);
                c->verdictJson(1, errors);
                detected += !problems.empty() || !errors.empty();
            }
            QCOMPARE(fileHash(q), before);
        }
        QVERIFY(tried > 10);
        QCOMPARE(detected, tried);
    }

    void missingChunkAndTampering()
    {
        const std::string p = makeCase("tamper.faultline");
        std::vector<Diagnostic> errors;
        {
            const std::string q = path("missing-chunk.faultline");
            fs::copy_file(p, q);
            sql(q, "DELETE FROM chunks WHERE file_id = (SELECT max(file_id) FROM chunks) AND seq = 0;");
            const std::string before = fileHash(q);
            auto c = CaseFile::open(q, { true, true }, errors);
            QVERIFY(c);
            QCOMPARE(c->problems().size(), std::size_t(1));
            QCOMPARE(c->problems()[0].code, std::string("case-missing-chunk"));
            QVERIFY(!c->loadInput(errors));
            QCOMPARE(errors.back().code, std::string("case-missing-chunk"));
            QVERIFY(c->verdictText(1, errors)); // the verdict history is still readable
            c.reset();
            QCOMPARE(fileHash(q), before);
        }
        {
            // Evidence bytes replaced (stored uncompressed, right size, wrong content): the chunk hash catches it.
            const std::string q = path("tampered-chunk.faultline");
            fs::copy_file(p, q);
            sql(q, "UPDATE chunks SET codec = 'none', data = zeroblob(raw_size) WHERE file_id = 0 AND seq = 0;");
            auto c = CaseFile::open(q, { true, true }, errors);
            QVERIFY(c);
            QVERIFY(!c->loadInput(errors));
            QCOMPARE(errors.back().code, std::string("case-altered"));
            QVERIFY(errors.back().message.find("tampering or corruption") != std::string::npos);
            QVERIFY(!c->line(0, 1, errors));
            QCOMPARE(errors.back().code, std::string("case-altered"));
            QVERIFY(!c->verify().empty());
        }
        {
            // A recorded file hash changed: the whole-file check catches it.
            const std::string q = path("tampered-hash.faultline");
            fs::copy_file(p, q);
            sql(q, "UPDATE files SET sha256 = '00' || substr(sha256, 3) WHERE id = 1;");
            auto c = CaseFile::open(q, { true, true }, errors);
            QVERIFY(!c->loadInput(errors));
            QCOMPARE(errors.back().code, std::string("case-altered"));
        }
        {
            // Garbage where compressed bytes should be.
            const std::string q = path("tampered-zstd.faultline");
            fs::copy_file(p, q);
            sql(q, "UPDATE chunks SET data = randomblob(length(data)) WHERE file_id = 0 AND seq = 0;");
            auto c = CaseFile::open(q, { true, true }, errors);
            QVERIFY(!c->loadInput(errors));
            QCOMPARE(errors.back().code, std::string("case-altered"));
        }
    }

    void olderSchemaMigratesForward()
    {
        const std::string p = path("schema1.faultline");
        fs::copy_file(tests::sourcePath("tests/data/cases/schema1-python-exception.faultline"), p);
        const std::string original = fileHash(p);
        std::vector<Diagnostic> errors;
        // Read-only cannot migrate, and says so without touching the file.
        QVERIFY(!CaseFile::open(p, { true, true }, errors));
        QCOMPARE(errors.back().code, std::string("case-old-schema"));
        QCOMPARE(fileHash(p), original);
        auto c = CaseFile::open(p, {}, errors);
        QVERIFY2(c, tests::diagCodes(errors).c_str());
        QCOMPARE(c->schemaVersion(), kCaseSchemaVersion);
        QCOMPARE(c->notes().front().code, std::string("case-migrated"));
        QVERIFY(fs::exists(p + ".schema1.bak"));
        {
            // The backup is the old case, still schema 1.
            sqlite3* db = nullptr;
            QCOMPARE(sqlite3_open_v2((p + ".schema1.bak").c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
            sqlite3_stmt* st = nullptr;
            sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, nullptr);
            QCOMPARE(sqlite3_step(st), SQLITE_ROW);
            QCOMPARE(sqlite3_column_int(st, 0), 1);
            sqlite3_finalize(st);
            sqlite3_close(db);
        }
        const auto runs = c->runs(errors);
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(runs[0].outcome, std::string("workload_failure"));
        Annotation n;
        n.kind = "narrative";
        n.text = "migrated and annotated";
        QVERIFY(c->annotate(n, errors) > 0);
        QVERIFY(c->verify().empty());
        // The old case re-imports and re-analyses to the verdict it recorded.
        const auto input = c->loadInput(errors);
        QVERIFY(input);
        const EvidenceSet ev = importers::importBundle(*input);
        const Verdict v = analyze(ev, *tests::bundledCatalog());
        QCOMPARE(v.outcome, runs[0].outcome);
        QVERIFY(c->addRun(v, ev, {}, errors) == 2);
        // The verdict is the one recorded. A newer catalog may read more context facts from the same evidence (a
        // version line), so the count of events alone may differ.
        const auto diff = c->diff(1, 2, errors);
        QVERIFY(diff);
        QStringList changed;
        for (const auto& line : diff->changes)
            if (line.rfind("events:", 0) != 0 && line.rfind("input ", 0) != 0) // inputs differ by design
                changed << QString::fromStdString(line);
        QVERIFY2(changed.isEmpty(), qPrintable("the re-analysis changed the verdict: " + changed.join("; ")));
    }

    void killedMigrationKeepsTheCase()
    {
        // Kill a migration at random moments: the case always opens afterwards, and a backup, when one exists, is a
        // whole schema-1 case (never a partial file).
        std::mt19937 rng(11);
        for (int i = 0; i < 12; ++i) {
            const std::string p = path("migrate-" + std::to_string(i) + ".faultline");
            fs::copy_file(tests::sourcePath("tests/data/cases/schema1-python-exception.faultline"), p);
            const pid_t pid = ::fork();
            if (pid == 0) {
                std::vector<Diagnostic> e;
                CaseFile::open(p, {}, e);
                ::_exit(0);
            }
            ::usleep(std::uniform_int_distribution<useconds_t>(0, 8000)(rng));
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
            if (fs::exists(p + ".schema1.bak")) {
                sqlite3* db = nullptr;
                QCOMPARE(sqlite3_open_v2((p + ".schema1.bak").c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
                sqlite3_stmt* st = nullptr;
                QCOMPARE(sqlite3_prepare_v2(db, "SELECT count(*) FROM runs", -1, &st, nullptr), SQLITE_OK);
                QCOMPARE(sqlite3_step(st), SQLITE_ROW);
                QCOMPARE(sqlite3_column_int(st, 0), 1);
                sqlite3_finalize(st);
                sqlite3_close(db);
            }
            std::vector<Diagnostic> errors;
            auto c = CaseFile::open(p, {}, errors);
            QVERIFY2(c, tests::diagCodes(errors).c_str());
            QCOMPARE(c->schemaVersion(), kCaseSchemaVersion);
            QCOMPARE(c->runs(errors).size(), std::size_t(1));
            QVERIFY(c->verify().empty());
        }
    }

    void readOnlyOpenNeverWrites()
    {
        const std::string p = makeCase("ro.faultline");
        const std::string before = fileHash(p);
        std::vector<Diagnostic> errors;
        auto c = CaseFile::open(p, { true, true }, errors);
        QVERIFY(c && c->readOnly());
        const Analysed a = analyse({ m_sample });
        QCOMPARE(c->addRun(a.verdict, a.evidence, {}, errors), std::int64_t(0));
        QCOMPARE(errors.back().code, std::string("case-read-only"));
        Annotation n;
        n.kind = "note";
        QCOMPARE(c->annotate(n, errors), std::int64_t(0));
        c.reset();
        QCOMPARE(fileHash(p), before);
    }

    void killedCreateLeavesNothing()
    {
        // Kill the writer at every checkpoint of a case's creation: no case (and no partial file) is left.
        const Analysed a = analyse({ m_sample });
        const std::string p = path("killed-create.faultline");
        int killed = 0;
        for (int k = 1;; ++k) {
            int seen = 0;
            const bool wasKilled = inChild([&] {
                std::vector<Diagnostic> errors;
                CaseFile::create(p,
                    request(a,
                        [&](std::string_view) {
                            if (++seen == k)
                                ::raise(SIGKILL);
                        }),
                    errors);
            });
            if (!wasKilled)
                break;
            ++killed;
            std::vector<Diagnostic> errors;
            if (fs::exists(p)) {
                // Killed after the rename: the case is complete.
                auto c = CaseFile::open(p, { true, true }, errors);
                QVERIFY2(c, tests::diagCodes(errors).c_str());
                QCOMPARE(c->runs(errors).size(), std::size_t(1));
                QVERIFY(c->verify().empty());
                c.reset();
                fs::remove(p);
            }
            QVERIFY(k < 1000);
        }
        QVERIFY2(killed > 5, "the creation passes too few checkpoints for this test to mean much");
        QVERIFY(fs::exists(p));
        // The killed attempts' temporary files were cleaned up by the later ones.
        for (const auto& e : fs::directory_iterator(m_dir.path().toStdString()))
            QVERIFY2(e.path().filename().string().find("killed-create.faultline.partial") == std::string::npos,
                e.path().c_str());
    }

    void killedRerunKeepsPreviousState()
    {
        const std::string p = makeCase("killed-rerun.faultline");
        const Analysed a = analyse({ m_sample });
        std::vector<Diagnostic> errors;
        // At every checkpoint of adding a run...
        int killed = 0;
        std::size_t expectRuns = 1;
        for (int k = 1;; ++k) {
            int seen = 0;
            const bool wasKilled = inChild([&] {
                std::vector<Diagnostic> e;
                auto c = CaseFile::open(p, {}, e);
                if (c)
                    c->addRun(a.verdict, a.evidence, {}, e, [&](std::string_view) {
                        if (++seen == k)
                            ::raise(SIGKILL);
                    });
            });
            auto c = CaseFile::open(p, {}, errors);
            QVERIFY2(c, tests::diagCodes(errors).c_str());
            const auto runs = c->runs(errors).size();
            // Killed after the commit, the run is there; before it, it is not.
            QVERIFY(runs == expectRuns || runs == expectRuns + 1);
            expectRuns = runs;
            if (!wasKilled)
                break;
            ++killed;
            QVERIFY(k < 1000);
        }
        QVERIFY(killed > 3);
        // ...and at random moments, with the writer inside SQLite.
        std::mt19937 rng(42);
        for (int i = 0; i < 25; ++i) {
            const pid_t pid = ::fork();
            if (pid == 0) {
                std::vector<Diagnostic> e;
                auto c = CaseFile::open(p, {}, e);
                for (int r = 0; c && r < 50; ++r)
                    c->addRun(a.verdict, a.evidence, {}, e);
                ::_exit(0);
            }
            ::usleep(std::uniform_int_distribution<useconds_t>(1000, 60000)(rng));
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
            auto c = CaseFile::open(p, {}, errors);
            QVERIFY2(c, tests::diagCodes(errors).c_str());
            const auto runs = c->runs(errors);
            QVERIFY(runs.size() >= expectRuns);
            expectRuns = runs.size();
            QVERIFY(c->diff(1, runs.back().id, errors)->same);
        }
        auto c = CaseFile::open(p, {}, errors);
        QVERIFY(c->verify().empty());
    }
};

QTEST_GUILESS_MAIN(TstCaseFile)
#include "tst_case_file.moc"
