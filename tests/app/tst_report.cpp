// SPDX-License-Identifier: Apache-2.0
// The report use case on the flagship sample saved as a case with a narrative, a note and its story (the one proposed
// when it was saved, and a step of the user's whose event's rule is gone): the Markdown and the HTML are checked whole
// against golden files (the case's directory and the times it was saved, annotated and its story written are
// normalised), each with a picture in every slot, the cause window's and one per step (a real PNG given as the
// renderer gives one: inline as a data: URI in HTML, a file in NAME.assets/ for Markdown); a report without pictures
// has no trace of one; a redacted draft's captions and story carry the pseudonyms; a case whose story has no steps
// has no story section; the report is never written over a case file. FAULTLINE_UPDATE_GOLDEN=1 rewrites the golden
// files.
#include "app/usecases/case_history.h"
#include "app/usecases/redact.h"
#include "app/usecases/report.h"
#include "app/usecases/story.h"
#include "app/usecases/use_cases.h"
#include "tests/common/test_helpers.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <filesystem>
#include <fstream>

using namespace faultline;
namespace fs = std::filesystem;

namespace {

/// A 2x1 RGB PNG (what a renderer hands back: the bytes of a PNG file).
const unsigned char kPngBytes[] = { 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48,
    0x44, 0x52, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x7b, 0x40, 0xe8, 0xdd,
    0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0x00, 0x04, 0xff, 0x01, 0x07, 0x00,
    0x01, 0xff, 0xe2, 0x23, 0x9e, 0x59, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82 };
const std::string kPng(reinterpret_cast<const char*>(kPngBytes), sizeof kPngBytes);

std::string replaced(std::string text, const std::string& from, const std::string& to)
{
    if (from.empty())
        return text;
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

std::string fileBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
}

} // namespace

class TstReport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qputenv("FAULTLINE_AUTHOR", "golden");
        m_case = m_dir.filePath(QStringLiteral("incident.faultline")).toStdString();
        usecases::BundleRequest r;
        r.paths = { tests::sourcePath("resources/samples/bundle-48213") };
        r.rulesDir = tests::sourcePath("rules");
        r.saveAs = m_case;
        const auto saved = usecases::analyseBundle(r);
        QVERIFY2(saved.ok(), saved.failure.text().c_str());
        usecases::AnnotateRequest narrative;
        narrative.casePath = m_case;
        narrative.kind = usecases::AnnotationKind::Narrative;
        narrative.text = "NVLink 07 on node-02 failed, the NCCL timeouts followed";
        QVERIFY(usecases::annotateCase(narrative).ok());
        usecases::AnnotateRequest note;
        note.casePath = m_case;
        note.text = "reseated <b>link 07</b> & drained node-02 | twice";
        note.target = usecases::AnnotationTarget::lineOf("nodes/node-02/dmesg.txt", 70);
        QVERIFY(usecases::annotateCase(note).ok());
        // The story the case was saved with (proposed from its verdict), and a step of the user's: two paragraphs,
        // node-02's lane open, the cause's window, and an event of a rule the analysis no longer has.
        const auto proposed = usecases::readStory(m_case);
        QVERIFY2(proposed.ok(), proposed.failure.text().c_str());
        QVERIFY2(proposed.value->steps.size() >= 2, "the sample's case is saved with a story of two or more steps");
        auto steps = proposed.value->steps;
        core::StoryStep mine;
        mine.title = "Reseat <link 07> on node-02";
        mine.text = "Reseated from 172.31.44.201 | twice.\n\nThe *old* rule's event is gone.";
        mine.origin = "user";
        mine.state.expandedLanes = { "node-02" };
        core::StoryEventRef gone;
        gone.ruleId = "xid.retired-rule";
        gone.path = "nodes/node-02/dmesg.txt";
        gone.line = 70;
        gone.byteOffset = 0;
        gone.type = "gpu.xid_retired";
        gone.node = "node-02";
        mine.state.event = gone;
        steps.push_back(mine);
        const auto written = usecases::saveStory({ m_case, steps, "added a step", "golden", proposed.value->revision });
        QVERIFY2(written.ok(), written.failure.text().c_str());
    }

    void goldenReports_data()
    {
        QTest::addColumn<int>("format");
        QTest::addColumn<QString>("golden");
        QTest::addRow("markdown") << static_cast<int>(usecases::ReportFormat::Markdown)
                                  << QStringLiteral("bundle-48213.expected.md");
        QTest::addRow("html") << static_cast<int>(usecases::ReportFormat::Html)
                              << QStringLiteral("bundle-48213.expected.html");
    }

    void goldenReports()
    {
        QFETCH(int, format);
        QFETCH(QString, golden);
        usecases::ReportRequest req;
        req.casePath = m_case;
        req.currentRulesDir = tests::sourcePath("rules");
        const auto draft = usecases::prepareCaseReport(req);
        QVERIFY2(draft.ok(), draft.failure.text().c_str());
        // The cause's window, then one picture per step of the story (each has a window: its own or the cause's).
        const auto story = usecases::readStory(m_case);
        QVERIFY(story.ok());
        const auto& slots = draft.value->pictures;
        QCOMPARE(slots.size(), 1 + story.value->steps.size());
        QCOMPARE(slots.front().id, std::string("cause-window"));
        for (std::size_t i = 1; i < slots.size(); ++i)
            QCOMPARE(slots[i].id, "story-" + std::to_string(i));
        // The user's step: the cause's window, node-02 open, and no event selected (its rule is gone).
        QCOMPARE(slots.back().fromNs, slots.front().fromNs);
        QCOMPARE(slots.back().toNs, slots.front().toNs);
        QCOMPARE(slots.back().expandedLanes, std::vector<std::string> { "node-02" });
        QVERIFY(!slots.back().focusEvent);
        // The cause's step selects the cause.
        const core::Verdict& v = *draft.value->analysis.verdict;
        QVERIFY(std::any_of(slots.begin() + 1, slots.end(),
            [&v](const usecases::PictureSlot& slot) { return slot.focusEvent == v.cause; }));
        std::vector<usecases::ReportPicture> pictures;
        for (const auto& slot : slots)
            pictures.push_back({ slot.id, kPng, 640, 320 });
        const auto f = static_cast<usecases::ReportFormat>(format);
        const auto options = usecases::renderOptionsFor(f, m_dir.filePath(QStringLiteral("report.x")).toStdString());
        const auto rendered = usecases::renderCaseReport(*draft.value, pictures, options);
        if (f == usecases::ReportFormat::Markdown) {
            QCOMPARE(rendered.assets.size(), slots.size());
            QCOMPARE(rendered.assets.front().path, std::string("report.assets/cause-window.png"));
            QCOMPARE(rendered.assets.back().path, "report.assets/story-" + std::to_string(slots.size() - 1) + ".png");
            QCOMPARE(rendered.assets.front().bytes, kPng);
        } else {
            QCOMPARE(rendered.assets.size(), std::size_t(0)); // inline: one self-contained file
        }
        // What changes from one run of the test to the next: where the case is and when it was saved and annotated.
        // (Markdown escapes the directory's underscores.)
        std::string text = replaced(rendered.text, m_dir.path().toStdString(), "CASE_DIR");
        text = replaced(text, replaced(m_dir.path().toStdString(), "_", "\\_"), "CASE_DIR");
        const auto history = usecases::caseHistory(m_case);
        QVERIFY(history.ok());
        // The story's time first: it can be the second its case was saved in.
        text = replaced(text, " by golden at " + history.value->story.createdAt + ")", " by golden at STORY_AT)");
        // Annotation times by where they stand (they can be the second the case was saved in too).
        for (const auto& a : history.value->annotations)
            for (const auto& [before, after] : { std::pair<std::string, std::string> { "golden, ", "" },
                     { "| golden | ", " |" }, { "<td>golden</td><td>", "</td>" } })
                text = replaced(text, before + a.createdAt + after, before + "ANNOTATED_AT" + after);
        for (const auto& run : history.value->runs)
            text = replaced(text, run.info.createdAt, "SAVED_AT");
        if (history.value->expectation)
            text = replaced(text, history.value->expectation->createdAt, "EXPECTED_AT");
        const fs::path expected = fs::path(tests::sourcePath("tests/data/reports")) / golden.toStdString();
        FAULTLINE_VERIFY_GOLDEN(text, expected, fs::current_path() / (golden.toStdString() + ".actual"), "report");
    }

    void withoutPicturesNothingIsLeftOfThem()
    {
        usecases::ReportRequest req;
        req.casePath = m_case;
        req.currentRulesDir = tests::sourcePath("rules");
        for (const auto f : { usecases::ReportFormat::Markdown, usecases::ReportFormat::Html }) {
            req.format = f;
            const auto text = usecases::caseReport(req);
            QVERIFY2(text.ok(), text.failure.text().c_str());
            const QString t = QString::fromStdString(*text.value);
            VERIFY_LACKS(t, QStringLiteral("Timeline of the cause"));
            VERIFY_LACKS(t, QStringLiteral("<img"));
            VERIFY_LACKS(t, QStringLiteral(".assets/"));
        }
    }

    void aRedactedDraftsPictureSlotHasThePseudonyms()
    {
        usecases::ReportRequest req;
        req.casePath = m_case;
        req.currentRulesDir = tests::sourcePath("rules");
        req.redaction = core::defaultRedactionProfile();
        const auto draft = usecases::prepareCaseReport(req);
        QVERIFY2(draft.ok(), draft.failure.text().c_str());
        QVERIFY(draft.value->redactor);
        QVERIFY(draft.value->pictures.size() > 2);
        const QString caption = QString::fromStdString(draft.value->pictures.front().caption);
        VERIFY_CONTAINS(caption, QStringLiteral("on host-b"));
        VERIFY_LACKS(caption, QStringLiteral("node-02"));
        // The story's titles, texts, facts and captions are redacted with the rest (the step of the user's names an
        // address and node-02).
        QString story;
        bool inStory = false;
        for (const auto& b : draft.value->blocks) {
            if (b.kind == usecases::ReportBlock::Kind::Heading && b.level == 2)
                inStory = b.text == "Story";
            if (inStory)
                story += QString::fromStdString(b.label + " " + b.text + "\n");
        }
        VERIFY_CONTAINS(story, QStringLiteral("Step 2: Cause: Xid 149 NVLINK on host-b"));
        VERIFY_CONTAINS(story, QStringLiteral("Reseat <link 07> on host-b"));
        for (const char* secret : { "node-0", "172.31.44.201" })
            VERIFY_LACKS(story, QString::fromLatin1(secret));
        for (const auto& slot : draft.value->pictures)
            VERIFY_LACKS(QString::fromStdString(slot.caption), QStringLiteral("node-0"));
        // The draft's redactor redacts a picture's texts the same way: node-02 is host-b.
        QCOMPARE(draft.value->redactor->redact("node-02 GPU 5", nullptr, false), std::string("host-b GPU 5"));
    }

    void aCaseWithoutAStoryHasNoStorySection()
    {
        const std::string bare = m_dir.filePath(QStringLiteral("no-story.faultline")).toStdString();
        fs::copy_file(m_case, bare);
        QVERIFY(usecases::saveStory({ bare, {}, "removed every step", "golden", -1 }).ok());
        usecases::ReportRequest req;
        req.casePath = bare;
        req.currentRulesDir = tests::sourcePath("rules");
        const auto draft = usecases::prepareCaseReport(req);
        QVERIFY2(draft.ok(), draft.failure.text().c_str());
        QCOMPARE(draft.value->pictures.size(), std::size_t(1));
        const auto text = usecases::caseReport(req);
        QVERIFY(text.ok());
        VERIFY_LACKS(QString::fromStdString(*text.value), QStringLiteral("## Story"));
        VERIFY_LACKS(QString::fromStdString(*text.value), QStringLiteral("Step 1"));
    }

    void theReportIsNeverWrittenOverACase()
    {
        const std::string before = fileBytes(m_case);
        const usecases::RenderedReport report { "# report\n", { { "r.assets/cause-window.png", kPng } } };
        auto over = usecases::writeCaseReport(report, m_case, m_case);
        QVERIFY(!over.ok());
        QCOMPARE(over.failure.code, usecases::Exit::Usage);
        VERIFY_CONTAINS(QString::fromStdString(over.failure.message), QStringLiteral("refusing"));
        // Another case file is refused too.
        const std::string other = m_dir.filePath(QStringLiteral("other.faultline")).toStdString();
        fs::copy_file(m_case, other);
        over = usecases::writeCaseReport(report, other, m_case);
        QVERIFY(!over.ok());
        VERIFY_CONTAINS(QString::fromStdString(over.failure.message), QStringLiteral("case file"));
        QCOMPARE(fileBytes(m_case), before);
        QCOMPARE(fileBytes(other), before);
        // A report beside it is written, with its picture file.
        const std::string md = m_dir.filePath(QStringLiteral("r.md")).toStdString();
        const auto written = usecases::writeCaseReport(report, md, m_case);
        QVERIFY2(written.ok(), written.failure.text().c_str());
        QCOMPARE(fileBytes(md), std::string("# report\n"));
        QCOMPARE(fileBytes(m_dir.filePath(QStringLiteral("r.assets/cause-window.png")).toStdString()), kPng);
        QCOMPARE(written.value->bytes, static_cast<std::uintmax_t>(9 + kPng.size()));
    }

private:
    QTemporaryDir m_dir;
    std::string m_case;
};

QTEST_GUILESS_MAIN(TstReport)
#include "tst_report.moc"
