// SPDX-License-Identifier: Apache-2.0
// The story use cases: a case saved from an analysis (analyse with -o, or save) starts with the story its verdict
// proposes as revision 1, the history snapshot carries it, a save names its base revision and a save from an older
// one fails with story-conflict, an earlier revision stays readable, and proposing from the case's stored run saves a
// new revision equal to the proposal.
#include "app/usecases/case_history.h"
#include "app/usecases/story.h"
#include "app/usecases/use_cases.h"
#include "core/model/story.h"
#include "tests/common/test_helpers.h"

#include <QTemporaryDir>
#include <QTest>

using namespace faultline;

namespace {

std::string titles(const std::vector<core::StoryStep>& steps)
{
    std::string out;
    for (const auto& s : steps)
        out += s.title + "\n";
    return out;
}

std::string states(const std::vector<core::StoryStep>& steps)
{
    std::string out;
    for (const auto& s : steps)
        out += core::storyStateToJson(s.state) + "\n";
    return out;
}

} // namespace

class TstStoryUseCases : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::string m_case;
    usecases::Analysis m_analysis;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_case = m_dir.filePath(QStringLiteral("flagship.faultline")).toStdString();
        usecases::BundleRequest r;
        r.paths = { tests::sourcePath("resources/samples/bundle-48213") };
        r.rulesDir = tests::sourcePath("rules");
        r.saveAs = m_case;
        auto done = usecases::analyseBundle(r);
        QVERIFY2(done.ok(), done.failure.text().c_str());
        m_analysis = done.value->analysis;
    }

    void aSavedCaseStartsWithTheProposedStory()
    {
        const auto proposed = usecases::proposedStory(m_analysis);
        QVERIFY(proposed.size() >= 3);
        QCOMPARE(proposed == core::proposeStory(*m_analysis.verdict, *m_analysis.evidence), true);
        for (const std::string& p : { m_case, m_dir.filePath(QStringLiteral("saved.faultline")).toStdString() }) {
            if (p != m_case) {
                const auto saved = usecases::saveCase(p, m_analysis);
                QVERIFY2(saved.ok(), saved.failure.text().c_str());
            }
            const auto story = usecases::readStory(p);
            QVERIFY2(story.ok(), story.failure.text().c_str());
            QCOMPARE(story.value->revision, std::int64_t(1));
            QCOMPARE(story.value->change, std::string("proposed from run 1"));
            QCOMPARE(titles(story.value->steps), titles(proposed));
            QCOMPARE(states(story.value->steps), states(proposed));
            const auto h = usecases::caseHistory(p);
            QVERIFY2(h.ok(), h.failure.text().c_str());
            QVERIFY2(h.value->problems.empty(), tests::diagCodes(h.value->problems).c_str());
            QCOMPARE(h.value->story.revision, std::int64_t(1));
            QCOMPARE(titles(h.value->story.steps), titles(proposed));
        }
    }

    void aSaveFromAnOlderRevisionConflicts()
    {
        const std::string p = m_dir.filePath(QStringLiteral("edited.faultline")).toStdString();
        QVERIFY(usecases::saveCase(p, m_analysis).ok());
        auto story = usecases::readStory(p);
        QVERIFY2(story.ok(), story.failure.text().c_str());
        auto steps = story.value->steps;
        steps.erase(steps.begin()); // without the precursor
        steps.front().text = "The NVLink failed first.";
        steps.front().origin = "user";
        usecases::SaveStoryRequest save { p, steps, "removed step 1, edited step 2", "ana", 1 };
        const auto saved = usecases::saveStory(save);
        QVERIFY2(saved.ok(), saved.failure.text().c_str());
        QCOMPARE(saved.value->revision, std::int64_t(2));

        // Another window still has revision 1.
        save.steps = story.value->steps;
        save.change = "moved a step";
        const auto refused = usecases::saveStory(save);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.failure.code, usecases::Exit::Case);
        QCOMPARE(tests::diagCodes(refused.failure.diagnostics), std::string("story-conflict"));

        const auto latest = usecases::readStory(p);
        QVERIFY2(latest.ok(), latest.failure.text().c_str());
        QCOMPARE(latest.value->revision, std::int64_t(2));
        QCOMPARE(latest.value->author, std::string("ana"));
        QCOMPARE(titles(latest.value->steps), titles(steps));
        QCOMPARE(latest.value->steps.front().text, std::string("The NVLink failed first."));
        const auto first = usecases::readStory(p, 1);
        QVERIFY2(first.ok(), first.failure.text().c_str());
        QCOMPARE(titles(first.value->steps), titles(story.value->steps));
        const auto revisions = usecases::storyRevisions(p);
        QVERIFY2(revisions.ok(), revisions.failure.text().c_str());
        QCOMPARE(revisions.value->size(), std::size_t(2));
        QCOMPARE(revisions.value->back().change, std::string("removed step 1, edited step 2"));

        const auto missing = usecases::readStory(p, 7);
        QVERIFY(!missing.ok());
        QCOMPARE(missing.failure.code, usecases::Exit::Case);
        QCOMPARE(tests::diagCodes(missing.failure.diagnostics), std::string("story-no-revision"));
        const auto notACase = usecases::readStory(tests::sourcePath("README.md"));
        QCOMPARE(notACase.failure.code, usecases::Exit::Case);
    }

    void proposingFromTheStoredRunSavesANewRevision()
    {
        const std::string p = m_dir.filePath(QStringLiteral("proposed-again.faultline")).toStdString();
        QVERIFY(usecases::saveCase(p, m_analysis).ok());
        const auto done = usecases::proposeCaseStory(p, "ben", tests::sourcePath("rules"));
        QVERIFY2(done.ok(), done.failure.text().c_str());
        QCOMPARE(done.value->revision, std::int64_t(2));
        const auto story = usecases::readStory(p);
        QVERIFY2(story.ok(), story.failure.text().c_str());
        QCOMPARE(story.value->author, std::string("ben"));
        // The run is reproduced with its own rules, so the proposal is the same as the case's first.
        QCOMPARE(story.value->change, std::string("proposed from run 1"));
        const auto proposed = usecases::proposedStory(m_analysis);
        QCOMPARE(titles(story.value->steps), titles(proposed));
        QCOMPARE(states(story.value->steps), states(proposed));
    }
};

QTEST_GUILESS_MAIN(TstStoryUseCases)
#include "tst_story_usecases.moc"
