// SPDX-License-Identifier: Apache-2.0
// The story in the case file (schema 4): a new case starts with the story it is given as revision 1, every save is a
// new revision and every earlier one stays readable, a save made from an older revision is refused and writes
// nothing, a read-only case is refused, a damaged step is located, and a schema-3 case migrates keeping every row and
// with an empty story.
#include "core/analysis/analyzer.h"
#include "core/casefile/case_file.h"
#include "core/model/story.h"
#include "importers/bundle_loader.h"
#include "tests/common/bundle_analysis.h"
#include "tests/common/test_helpers.h"

#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <map>

using namespace faultline;
using namespace faultline::core;
namespace fs = std::filesystem;

namespace {

using Analysed = tests::AnalysedBundle;

Analysed analyse(const std::string& rel)
{
    return tests::analyseBundle({ tests::sourcePath(rel) });
}

CaseCreateRequest request(const Analysed& a)
{
    CaseCreateRequest r;
    r.input = &a.input;
    r.evidence = &a.evidence;
    r.verdict = &a.verdict;
    r.run.catalog = tests::bundledCatalog().get();
    r.run.rulesDir = tests::sourcePath("rules");
    r.run.author = "tester";
    return r;
}

/// Runs one query on a file read-only and returns its rows, each as its columns joined by '|'.
std::vector<std::string> query(const std::string& path, const std::string& sql)
{
    std::vector<std::string> rows;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        return rows;
    }
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK)
        while (sqlite3_step(st) == SQLITE_ROW) {
            std::string row;
            for (int c = 0; c < sqlite3_column_count(st); ++c) {
                const auto* t = sqlite3_column_text(st, c);
                row += (c ? "|" : "") + std::string(t ? reinterpret_cast<const char*>(t) : "NULL");
            }
            rows.push_back(std::move(row));
        }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return rows;
}

bool exec(const std::string& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    const bool ok = sqlite3_open(path.c_str(), &db) == SQLITE_OK
        && sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_close(db);
    return ok;
}

/// Every table's row count, by name.
std::map<std::string, std::string> rowCounts(const std::string& path)
{
    std::map<std::string, std::string> out;
    for (const auto& table : query(path, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"))
        out[table] = query(path, "SELECT count(*) FROM \"" + table + "\"").front();
    return out;
}

StoryStep userStep(const std::string& title, const std::string& lane)
{
    StoryStep s;
    s.title = title;
    s.text = "What **" + lane + "** shows.\nA second line.";
    s.state.lane = lane;
    s.state.fromNs = 1793614499000000000;
    s.state.toNs = 1793614505000000000;
    s.state.expandedLanes = { lane };
    s.state.panes = { "evidence" };
    s.state.evidencePath = "joblogs/slurm-53120.out";
    s.state.evidenceLines = { 156, 186 };
    s.state.clocksAligned = true;
    return s;
}

std::string titles(const Story& s)
{
    std::string out;
    for (const auto& step : s.steps)
        out += (out.empty() ? "" : ",") + step.title;
    return out;
}

} // namespace

class TstStoryCase : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    Analysed m_sample;

    std::string path(const std::string& name) const { return m_dir.path().toStdString() + "/" + name; }

    std::string makeCase(const std::string& name, bool withStory)
    {
        CaseCreateRequest r = request(m_sample);
        if (withStory)
            r.story = proposeStory(m_sample.verdict, m_sample.evidence);
        std::vector<Diagnostic> errors;
        auto c = CaseFile::create(path(name), r, errors);
        if (!c)
            qWarning("%s", errors.empty() ? "?" : errors.front().format().c_str());
        return c ? path(name) : std::string();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_sample = analyse("resources/samples/python-exception");
        QVERIFY(m_sample.verdict.hasCause);
    }

    void aNewCaseStartsWithTheStoryItIsGiven()
    {
        const std::string p = makeCase("proposed.faultline", true);
        QVERIFY(!p.empty());
        std::vector<Diagnostic> errors;
        auto c = CaseFile::open(p, { true, false }, errors);
        QVERIFY2(c, tests::diagCodes(errors).c_str());
        QCOMPARE(c->schemaVersion(), 4);
        const auto story = c->story(0, errors);
        QVERIFY2(story, tests::diagCodes(errors).c_str());
        QCOMPARE(story->revision, std::int64_t(1));
        QCOMPARE(story->change, std::string("proposed from run 1"));
        QCOMPARE(story->author, std::string("tester"));
        QVERIFY(!story->createdAt.empty());
        const auto proposed = proposeStory(m_sample.verdict, m_sample.evidence);
        QVERIFY(!proposed.empty());
        QCOMPARE(story->steps.size(), proposed.size());
        for (std::size_t i = 0; i < proposed.size(); ++i) {
            QCOMPARE(story->steps[i].title, proposed[i].title);
            QCOMPARE(story->steps[i].text, proposed[i].text);
            QCOMPARE(story->steps[i].origin, std::string("proposed"));
            QCOMPARE(storyStateToJson(story->steps[i].state), storyStateToJson(proposed[i].state));
        }
        QCOMPARE(c->storyRevisions(errors).size(), std::size_t(1));
        QVERIFY(errors.empty());
        // The positions are stored 1, 2, ...
        std::string positions;
        for (std::size_t i = 1; i <= proposed.size(); ++i)
            positions += (i > 1 ? "," : "") + std::to_string(i);
        QCOMPARE(
            query(p, "SELECT group_concat(position) FROM (SELECT position FROM story_steps ORDER BY position)").front(),
            positions);
    }

    void everySaveIsANewRevisionAndEarlierOnesStayReadable()
    {
        const std::string p = makeCase("revisions.faultline", false);
        QVERIFY(!p.empty());
        std::vector<Diagnostic> errors;
        auto c = CaseFile::open(p, {}, errors);
        QVERIFY2(c, tests::diagCodes(errors).c_str());
        const auto none = c->story(0, errors);
        QVERIFY2(none, tests::diagCodes(errors).c_str());
        QCOMPARE(none->revision, std::int64_t(0));
        QVERIFY(none->steps.empty());
        QVERIFY(c->storyRevisions(errors).empty());

        std::vector<StoryStep> steps { userStep("The cause", "node-01") };
        QCOMPARE(c->writeStory(steps, "added step 1", "ana", 0, errors), std::int64_t(1));
        steps.push_back(userStep("The symptoms", "node-02"));
        steps.back().state.event = StoryEventRef { "nccl.remote-error", "joblogs/slurm-53120.out", 233, 16800,
            "nccl.remote_error", "node-02", 1793614532000000000 };
        steps.back().state.symptom = "nccl.remote_error";
        steps.back().state.topLane = "node-02";
        steps.back().origin = "proposed";
        QCOMPARE(c->writeStory(steps, "added step 2", "ben", 1, errors), std::int64_t(2));
        std::swap(steps[0], steps[1]);
        QCOMPARE(c->writeStory(steps, "moved step 2 up", "", 2, errors), std::int64_t(3));
        QVERIFY2(errors.empty(), tests::diagCodes(errors).c_str());

        const auto latest = c->story(0, errors);
        QVERIFY2(latest, tests::diagCodes(errors).c_str());
        QCOMPARE(latest->revision, std::int64_t(3));
        QCOMPARE(latest->change, std::string("moved step 2 up"));
        QVERIFY(!latest->author.empty()); // $FAULTLINE_AUTHOR, $USER or "unknown"
        QCOMPARE(titles(*latest), std::string("The symptoms,The cause"));
        // Every field of every step comes back; a step without an origin is stored as "user".
        QCOMPARE(latest->steps.size(), steps.size());
        for (std::size_t i = 0; i < steps.size(); ++i) {
            QCOMPARE(latest->steps[i].title, steps[i].title);
            QCOMPARE(latest->steps[i].text, steps[i].text);
            QCOMPARE(latest->steps[i].origin, steps[i].origin.empty() ? std::string("user") : steps[i].origin);
            QCOMPARE(storyStateToJson(latest->steps[i].state), storyStateToJson(steps[i].state));
            QVERIFY(latest->steps[i].state == steps[i].state);
        }
        QCOMPARE(latest->steps[1].origin, std::string("user"));

        const auto first = c->story(1, errors);
        QVERIFY2(first, tests::diagCodes(errors).c_str());
        QCOMPARE(first->revision, std::int64_t(1));
        QCOMPARE(first->author, std::string("ana"));
        QCOMPARE(titles(*first), std::string("The cause"));
        const auto second = c->story(2, errors);
        QVERIFY2(second, tests::diagCodes(errors).c_str());
        QCOMPARE(titles(*second), std::string("The cause,The symptoms"));
        QCOMPARE(second->steps[1].state.event->byteOffset, std::int64_t(16800));

        const auto revisions = c->storyRevisions(errors);
        QCOMPARE(revisions.size(), std::size_t(3));
        QCOMPARE(revisions[0].change, std::string("added step 1"));
        QCOMPARE(revisions[1].author, std::string("ben"));
        QCOMPARE(revisions[2].revision, std::int64_t(3));
        QVERIFY(revisions[2].steps.empty()); // listed without their steps

        QVERIFY(!c->story(4, errors));
        QCOMPARE(errors.back().code, std::string("story-no-revision"));
        errors.clear();
        // Nothing was ever updated or deleted: every revision's rows are there.
        QCOMPARE(query(p, "SELECT count(*) FROM story_steps").front(), std::string("5"));
        // An empty story is a revision too.
        QCOMPARE(c->writeStory({}, "removed every step", "ana", 3, errors), std::int64_t(4));
        const auto empty = c->story(0, errors);
        QVERIFY(empty && empty->revision == 4 && empty->steps.empty());
        QVERIFY(c->verify().empty());
    }

    void aSaveFromAnOlderRevisionIsRefusedAndWritesNothing()
    {
        const std::string p = makeCase("conflict.faultline", true);
        QVERIFY(!p.empty());
        std::vector<Diagnostic> errors;
        auto c = CaseFile::open(p, {}, errors);
        QVERIFY2(c, tests::diagCodes(errors).c_str());
        QCOMPARE(c->writeStory({ userStep("Mine", "node-01") }, "edited", "ana", 1, errors), std::int64_t(2));
        const auto before = rowCounts(p);
        // Another window edited revision 1 too, and saves after this one did.
        QCOMPARE(c->writeStory({ userStep("Theirs", "node-02") }, "edited too", "ben", 1, errors), std::int64_t(0));
        QCOMPARE(errors.size(), std::size_t(1));
        QCOMPARE(errors.front().code, std::string("story-conflict"));
        VERIFY_CONTAINS(QString::fromStdString(errors.front().message), QStringLiteral("latest revision is 2"));
        errors.clear();
        // A save made as if the case had no story conflicts too.
        QCOMPARE(c->writeStory({}, "new", "ben", 0, errors), std::int64_t(0));
        QCOMPARE(errors.front().code, std::string("story-conflict"));
        errors.clear();
        QCOMPARE(rowCounts(p), before);
        const auto latest = c->story(0, errors);
        QVERIFY(latest);
        QCOMPARE(titles(*latest), std::string("Mine"));
        // Without a base revision, the save is made whatever the latest is.
        QCOMPARE(c->writeStory({ userStep("Theirs", "node-02") }, "edited anyway", "ben", -1, errors), std::int64_t(3));
    }

    void aReadOnlyCaseIsRefused()
    {
        const std::string p = makeCase("read-only.faultline", true);
        QVERIFY(!p.empty());
        std::vector<Diagnostic> errors;
        {
            auto c = CaseFile::open(p, { true, false }, errors);
            QVERIFY2(c, tests::diagCodes(errors).c_str());
            QCOMPARE(c->writeStory({ userStep("Mine", "node-01") }, "edited", "ana", 1, errors), std::int64_t(0));
            QCOMPARE(errors.back().code, std::string("case-read-only"));
            // It still reads.
            const auto story = c->story(0, errors);
            QVERIFY(story && story->revision == 1);
        }
        errors.clear();
        if (::geteuid() == 0) {
            QCOMPARE(query(p, "SELECT count(*) FROM story_revisions").front(), std::string("1"));
            QSKIP("root may write any file: run the tests as a normal user to check a read-only file");
        }
        QCOMPARE(::chmod(p.c_str(), 0400), 0);
        {
            auto c = CaseFile::open(p, {}, errors);
            QVERIFY2(c, tests::diagCodes(errors).c_str());
            QVERIFY(c->readOnly());
            QCOMPARE(c->writeStory({}, "edited", "ana", -1, errors), std::int64_t(0));
            QCOMPARE(errors.back().code, std::string("case-read-only"));
        }
        ::chmod(p.c_str(), 0600);
        QCOMPARE(query(p, "SELECT count(*) FROM story_revisions").front(), std::string("1"));
    }

    void aDamagedStepIsLocated()
    {
        const std::string p = makeCase("damaged.faultline", true);
        QVERIFY(!p.empty());
        QVERIFY(exec(p, "UPDATE story_steps SET state_json = '{\"lane\": 3}' WHERE position = 2"));
        std::vector<Diagnostic> errors;
        auto c = CaseFile::open(p, { true, false }, errors);
        QVERIFY2(c, tests::diagCodes(errors).c_str());
        QVERIFY(!c->story(0, errors));
        QCOMPARE(errors.size(), std::size_t(1));
        QCOMPARE(errors.front().code, std::string("story-state"));
        QCOMPARE(errors.front().where.file, p + " (story revision 1, step 2)");
        QCOMPARE(errors.front().where.column, std::uint32_t(10));
    }

    void aSchema3CaseMigratesKeepingEveryRowWithAnEmptyStory()
    {
        const std::string p = path("schema3.faultline");
        fs::copy_file(tests::sourcePath("tests/data/cases/schema3-python-exception-annotated.faultline"), p);
        QCOMPARE(query(p, "PRAGMA user_version").front(), std::string("3"));
        const auto before = rowCounts(p);
        QVERIFY(!before.count("story_revisions"));
        QVERIFY(std::stoi(before.at("annotations")) >= 4);
        QCOMPARE(before.at("expectations"), std::string("1"));
        // Every row of the tables, to compare after the migration.
        std::map<std::string, std::vector<std::string>> rows;
        for (const auto& [table, count] : before)
            rows[table] = query(p, "SELECT * FROM \"" + table + "\" ORDER BY rowid");

        std::vector<Diagnostic> errors;
        auto c = CaseFile::open(p, {}, errors);
        QVERIFY2(c, tests::diagCodes(errors).c_str());
        QCOMPARE(c->schemaVersion(), 4);
        QCOMPARE(c->notes().front().code, std::string("case-migrated"));
        QVERIFY(fs::exists(p + ".schema3.bak"));
        for (const auto& [table, old] : rows)
            QVERIFY2(query(p, "SELECT * FROM \"" + table + "\" ORDER BY rowid") == old, table.c_str());
        auto after = rowCounts(p);
        QCOMPARE(after.at("story_revisions"), std::string("0"));
        QCOMPARE(after.at("story_steps"), std::string("0"));
        after.erase("story_revisions");
        after.erase("story_steps");
        QCOMPARE(after, before);

        const auto story = c->story(0, errors);
        QVERIFY2(story, tests::diagCodes(errors).c_str());
        QCOMPARE(story->revision, std::int64_t(0));
        QVERIFY(story->steps.empty());
        QVERIFY(c->storyRevisions(errors).empty());
        QCOMPARE(c->annotations(errors).size(), std::size_t(4));
        QVERIFY(c->expectation(errors).has_value());
        // The migrated case takes a story, and stays whole.
        QCOMPARE(
            c->writeStory({ userStep("The cause", "node-01") }, "added step 1", "ana", 0, errors), std::int64_t(1));
        QVERIFY2(errors.empty(), tests::diagCodes(errors).c_str());
        QVERIFY(c->verify().empty());
    }
};

QTEST_GUILESS_MAIN(TstStoryCase)
#include "tst_story_case.moc"
