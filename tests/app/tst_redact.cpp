// SPDX-License-Identifier: Apache-2.0
// The redaction use cases over a saved case: the copy's recomputed offsets are exactly those an import of its
// redacted bytes gives (every record, rank and event points at its own text), the copy re-analyses to its stored
// verdict, the preview counts what the copy replaces, a report's redactor and the copy agree on every pseudonym, and
// the original is only read.
#include "app/usecases/redact.h"
#include "app/usecases/report.h"
#include "app/usecases/story.h"
#include "app/usecases/use_cases.h"
#include "core/casefile/case_file.h"
#include "core/model/story.h"
#include "importers/bundle_loader.h"
#include "tests/common/case_fixture.h"
#include "tests/common/test_helpers.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>

using namespace faultline;

namespace {

std::string fileBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
}

} // namespace

class TstRedact : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // The flagship sample with a user, a uid, a home path and a token in its job log, inside records.
        const std::string bundle = m_dir.filePath(QStringLiteral("bundle")).toStdString();
        std::filesystem::copy(
            tests::sourcePath("resources/samples/bundle-48213"), bundle, std::filesystem::copy_options::recursive);
        std::ofstream(bundle + "/joblogs/slurm-48213.out", std::ios::app)
            << "0: run by USER=mkowalski uid=73519 in /home/mkowalski/x token=hf_Zq8KfLw3Nc2Vb7Xy1Ta9Rm4Pd6Ue5 on "
               "node-02\n";
        m_case = m_dir.filePath(QStringLiteral("case.faultline")).toStdString();
        usecases::BundleRequest r;
        r.paths = { bundle };
        r.rulesDir = tests::sourcePath("rules");
        r.saveAs = m_case;
        const auto saved = usecases::analyseBundle(r);
        QVERIFY2(saved.ok(), saved.failure.text().c_str());
    }

    void theCopysOffsetsAreThoseOfItsOwnBytes()
    {
        const std::string before = fileBytes(m_case);
        usecases::RedactRequest req;
        req.casePath = m_case;
        req.outPath = m_dir.filePath(QStringLiteral("copy.faultline")).toStdString();
        req.currentRulesDir = tests::sourcePath("rules");
        const auto done = usecases::redactCase(req);
        QVERIFY2(done.ok(), done.failure.text().c_str());
        QCOMPARE(fileBytes(m_case), before); // the original is only read
        // The copy re-analyses to its stored verdict: its events' offsets and texts are those of its evidence.
        QVERIFY2(done.value->reproduces.value_or(false), done.value->checkNote.c_str());

        std::vector<core::Diagnostic> errors;
        auto copy = core::CaseFile::open(req.outPath, { true, false }, errors);
        QVERIFY2(copy, tests::diagCodes(errors).c_str());
        auto input = copy->loadInput(errors);
        QVERIFY2(input, tests::diagCodes(errors).c_str());
        const auto stored = copy->observations({}, errors);
        QVERIFY2(stored, tests::diagCodes(errors).c_str());
        const core::EvidenceSet fresh = importers::importBundle(*input);
        QCOMPARE(stored->size(), fresh.observations.size());
        std::size_t moved = 0;
        for (const auto& o : *stored) {
            QVERIFY(o.index < fresh.observations.size());
            const auto& f = fresh.observations[o.index].where;
            const std::string at = std::to_string(o.index);
            QVERIFY2(o.source == f.source, at.c_str());
            QCOMPARE(o.line, f.line);
            QCOMPARE(o.byteOffset, f.byteOffset);
            QCOMPARE(o.length, f.length);
            moved += o.byteOffset != 0 ? 1 : 0;
        }
        QVERIFY(moved > 100);
        // The record with the seeded secrets, at its recomputed place in the redacted bytes.
        bool seen = false;
        for (const auto& o : *stored) {
            for (const auto& file : input->files)
                if (file.path == fresh.sources[o.source].path) {
                    const std::string text(file.bytes.substr(o.byteOffset, o.length));
                    if (text.find("run by USER=") != std::string::npos) {
                        seen = true;
                        QCOMPARE(text,
                            std::string("0: run by USER=user-1 uid=90001 in /home/user-1/x token=[token-1] on host-b"));
                    }
                }
        }
        QVERIFY(seen);
    }

    void thePreviewCountsWhatTheCopyReplacesAndReportsAgree()
    {
        usecases::RedactRequest req;
        req.casePath = m_case;
        req.outPath = m_dir.filePath(QStringLiteral("copy2.faultline")).toStdString();
        req.check = false;
        const auto preview = usecases::previewRedaction(req);
        QVERIFY2(preview.ok(), preview.failure.text().c_str());
        const auto done = usecases::redactCase(req);
        QVERIFY2(done.ok(), done.failure.text().c_str());
        QCOMPARE(preview.value->replacements.size(), done.value->replacements.size());
        for (std::size_t i = 0; i < done.value->replacements.size(); ++i) {
            const auto& a = preview.value->replacements[i];
            const auto& b = done.value->replacements[i];
            QCOMPARE(a.original, b.original);
            QCOMPARE(a.pseudonym, b.pseudonym);
            QCOMPARE(a.count, b.count);
        }
        // A report's redactor gives every value the copy's pseudonym.
        auto r = usecases::caseRedactor(m_case, core::defaultRedactionProfile());
        QVERIFY2(r.ok(), r.failure.text().c_str());
        for (const auto& rep : done.value->replacements)
            if (rep.category == core::RedactionCategory::Host || rep.category == core::RedactionCategory::User)
                QCOMPARE((*r.value)->redact(rep.original), rep.pseudonym);
        QCOMPARE((*r.value)->redact("node-02"), std::string("host-b"));
    }

    void aCaseWhoseRunsUsedTwoCatalogsIsRedacted()
    {
        // Run 2 adds a rule pack layer: its catalog is the bundled one plus the pack, another hash. Both stored
        // catalogs name node-02 in their rules' test lines, so both change, and each must keep a hash of its own.
        const std::string twoRuns = m_dir.filePath(QStringLiteral("two-catalogs.faultline")).toStdString();
        std::filesystem::copy_file(m_case, twoRuns);
        QVERIFY(tests::addRunWithRuleDisabled(twoRuns, "nccl.remote-error"));

        usecases::RedactRequest req;
        req.casePath = twoRuns;
        req.outPath = m_dir.filePath(QStringLiteral("two-catalogs-copy.faultline")).toStdString();
        req.currentRulesDir = tests::sourcePath("rules");
        const auto done = usecases::redactCase(req);
        QVERIFY2(done.ok(), done.failure.text().c_str());
        QVERIFY2(done.value->reproduces.value_or(false), done.value->checkNote.c_str());
    }

    void theStoryIsRedactedAndItsEventsFollowTheirRecords()
    {
        // The case's proposed story plus a step of the user's that names the seeded secrets.
        const std::string storied = m_dir.filePath(QStringLiteral("storied.faultline")).toStdString();
        std::filesystem::copy_file(m_case, storied);
        const auto proposed = usecases::readStory(storied);
        QVERIFY2(proposed.ok(), proposed.failure.text().c_str());
        QVERIFY(proposed.value->steps.size() >= 3);
        auto steps = proposed.value->steps;
        core::StoryStep mine = steps[1]; // the cause's state: its event on node-02, its file nodes/node-02/...
        mine.title = "mkowalski on node-02.cluster.example.com";
        mine.text = "token=hf_Zq8KfLw3Nc2Vb7Xy1Ta9Rm4Pd6Ue5 from /home/mkowalski/x, uid=73519";
        mine.state.topLane = "node-02";
        mine.state.expandedLanes = { "node-01", "node-02" };
        mine.origin = "user";
        steps.push_back(mine);
        const auto saved =
            usecases::saveStory({ storied, steps, "added a step on mkowalski's node-02", "mkowalski", 1 });
        QVERIFY2(saved.ok(), saved.failure.text().c_str());

        usecases::RedactRequest req;
        req.casePath = storied;
        req.outPath = m_dir.filePath(QStringLiteral("storied-copy.faultline")).toStdString();
        req.currentRulesDir = tests::sourcePath("rules");
        const auto done = usecases::redactCase(req);
        QVERIFY2(done.ok(), done.failure.text().c_str());

        const auto revisions = usecases::storyRevisions(req.outPath);
        QVERIFY2(revisions.ok(), revisions.failure.text().c_str());
        QCOMPARE(revisions.value->size(), std::size_t(2));
        std::vector<core::Diagnostic> errors;
        auto copy = core::CaseFile::open(req.outPath, { true, false }, errors);
        QVERIFY2(copy, tests::diagCodes(errors).c_str());
        const auto runs = copy->runs(errors);
        QVERIFY(!runs.empty());
        for (std::int64_t rev = 1; rev <= 2; ++rev) {
            const auto story = usecases::readStory(req.outPath, rev);
            QVERIFY2(story.ok(), story.failure.text().c_str());
            QCOMPARE(story.value->steps.size(), rev == 1 ? proposed.value->steps.size() : steps.size());
            std::string all = story.value->author + "\n" + story.value->change + "\n";
            std::vector<core::Annotation> events;
            for (const auto& step : story.value->steps) {
                all += step.title + "\n" + step.text + "\n" + core::storyStateToJson(step.state) + "\n";
                if (step.state.event)
                    events.push_back(core::storyEventAnnotation(*step.state.event, std::int64_t(events.size()) + 1));
            }
            for (const char* secret : { "node-0", "mkowalski", "hf_Zq8", "73519", "example.com" })
                VERIFY_LACKS(QString::fromStdString(all), QString::fromLatin1(secret));
            VERIFY_CONTAINS(QString::fromStdString(all), QStringLiteral("Cause: Xid 149 NVLINK on host-b"));
            VERIFY_CONTAINS(QString::fromStdString(all), QStringLiteral("\"path\":\"nodes/host-b/dmesg.txt\""));
            // Every step's event is found in the copy's run by its redacted record (its offset moved with the bytes).
            const auto scope = copy->annotationScope(events, runs.back().id, errors);
            QVERIFY2(scope, tests::diagCodes(errors).c_str());
            for (const auto& r : core::resolveAnnotations(events, *scope))
                QVERIFY2(r.matched, r.reason.c_str());
        }
        const auto latest = usecases::readStory(req.outPath);
        QVERIFY(latest.ok());
        QCOMPARE(latest.value->steps.back().title, std::string("user-1 on host-b"));
    }

    void badRequestsAreRefused()
    {
        usecases::RedactRequest req;
        req.casePath = m_case;
        req.outPath = m_case;
        auto r = usecases::redactCase(req);
        QVERIFY(!r.ok());
        QCOMPARE(static_cast<int>(r.failure.code), static_cast<int>(usecases::Exit::Usage));
        req.outPath.clear();
        r = usecases::redactCase(req);
        QCOMPARE(static_cast<int>(r.failure.code), static_cast<int>(usecases::Exit::Usage));
        req.casePath = m_dir.filePath(QStringLiteral("none.faultline")).toStdString();
        req.outPath = m_dir.filePath(QStringLiteral("out.faultline")).toStdString();
        r = usecases::redactCase(req);
        QCOMPARE(static_cast<int>(r.failure.code), static_cast<int>(usecases::Exit::Case));
        QVERIFY(!std::filesystem::exists(req.outPath));
        const auto bad = usecases::loadRedactionProfile(m_dir.filePath(QStringLiteral("nowhere.yaml")).toStdString());
        QCOMPARE(static_cast<int>(bad.failure.code), static_cast<int>(usecases::Exit::Usage));
    }

private:
    QTemporaryDir m_dir;
    std::string m_case;
};

QTEST_GUILESS_MAIN(TstRedact)
#include "tst_redact.moc"
