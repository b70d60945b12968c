// SPDX-License-Identifier: Apache-2.0
// The story's data model: a step's view state as JSON and back (every field, stable text, located errors for a
// malformed one), the story a verdict proposes (the flagship sample's precursor, cause, one step per other symptom
// node, teardown; the same every time), and a step's event found again in a fresh analysis by rule and record.
#include "core/analysis/analyzer.h"
#include "core/model/annotations.h"
#include "core/model/story.h"
#include "importers/bundle_loader.h"
#include "tests/common/test_helpers.h"

#include <QTest>

#include <memory>
#include <set>

using namespace faultline;
using namespace faultline::core;

namespace {

struct Analysed
{
    std::shared_ptr<EvidenceSet> evidence;
    std::shared_ptr<Verdict> verdict;
};

Analysed analyse(const std::string& rel)
{
    Analysed a;
    a.evidence = std::make_shared<EvidenceSet>(importers::loadBundle({ tests::sourcePath(rel) }));
    a.verdict = std::make_shared<Verdict>(analyze(*a.evidence, *tests::bundledCatalog()));
    return a;
}

StoryViewState everyField()
{
    StoryViewState s;
    s.fromNs = 1793614499000000000;
    s.toNs = 1793614505000000000;
    s.expandedLanes = { "node-02", "node-04" };
    s.topLane = "node-01";
    s.event =
        StoryEventRef { "gpu.xid", "nodes/node-02/dmesg.txt", 70, 6512, "gpu.xid", "node-02", 1793614501123456000 };
    s.lane = "node-02";
    s.symptom = "nccl.error";
    s.evidencePath = "nodes/node-02/dmesg.txt";
    s.evidenceLines = { 70, 71 };
    s.panes = { "evidence", "symptoms", "metrics" };
    s.clocksAligned = true;
    return s;
}

std::string lanesOf(const std::vector<StoryStep>& steps, const std::string& titlePrefix)
{
    std::string out;
    for (const auto& s : steps)
        if (s.title.rfind(titlePrefix, 0) == 0)
            out += (out.empty() ? "" : ",") + s.state.lane;
    return out;
}

} // namespace

class TstStory : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tests::bundledCatalog());
        m_flagship = analyse("resources/samples/bundle-48213");
        QVERIFY(m_flagship.verdict->hasCause);
    }

    void theStateRoundTripsEveryField()
    {
        const StoryViewState s = everyField();
        const std::string json = storyStateToJson(s);
        QCOMPARE(json,
            std::string(
                "{\"from_ns\":1793614499000000000,\"to_ns\":1793614505000000000,"
                "\"expanded_lanes\":[\"node-02\",\"node-04\"],\"top_lane\":\"node-01\","
                "\"event\":{\"rule\":\"gpu.xid\",\"path\":\"nodes/node-02/dmesg.txt\",\"line\":70,"
                "\"byte_offset\":6512,\"type\":\"gpu.xid\",\"node\":\"node-02\",\"time_ns\":1793614501123456000},"
                "\"lane\":\"node-02\",\"symptom\":\"nccl.error\",\"evidence_path\":\"nodes/node-02/dmesg.txt\","
                "\"evidence_lines\":[70,71],\"panes\":[\"evidence\",\"symptoms\",\"metrics\"],"
                "\"clocks_aligned\":true}"));
        std::vector<Diagnostic> errors;
        const auto back = storyStateFromJson(json, "step 1", errors);
        QVERIFY2(back, tests::diagCodes(errors).c_str());
        QCOMPARE(storyStateToJson(*back), json);
        QVERIFY(*back == s);
        // Empty fields are left out, and an empty object is the default state.
        QCOMPARE(storyStateToJson(StoryViewState {}), std::string("{}"));
        const auto none = storyStateFromJson("{}", "step 1", errors);
        QVERIFY(none && *none == StoryViewState {});
        // Members a newer build writes are left alone; whitespace and order do not matter.
        const auto newer = storyStateFromJson(
            "{ \"zoom_pane\": {\"x\": [1, 2]},\n  \"lane\": \"node-03\", \"from_ns\": -5 }", "step 1", errors);
        QVERIFY2(newer, tests::diagCodes(errors).c_str());
        QCOMPARE(newer->lane, std::string("node-03"));
        QCOMPARE(newer->fromNs, std::int64_t(-5));
        QVERIFY(errors.empty());
    }

    void aMalformedStateIsLocated_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");
        QTest::addRow("cut short") << QStringLiteral("{\"lane\": \"node-02\", ") << 1 << 21
                                   << QStringLiteral("not JSON");
        QTest::addRow("bad literal") << QStringLiteral("{\n  \"lane\": nope}") << 2 << 11 << QStringLiteral("not JSON");
        QTest::addRow("not an object") << QStringLiteral("[1, 2]") << 1 << 1 << QStringLiteral("not a JSON object");
        QTest::addRow("lane not a string")
            << QStringLiteral("{\"panes\": [], \"lane\": 3}") << 1 << 23 << QStringLiteral("'lane' must be a string");
        QTest::addRow("line zero") << QStringLiteral("{\"evidence_lines\": [4, 0]}") << 1 << 24
                                   << QStringLiteral("'evidence_lines' must be an array of line numbers");
        QTest::addRow("time not an integer") << QStringLiteral("{\"event\": {\"time_ns\": 1.5}}") << 1 << 23
                                             << QStringLiteral("'time_ns' must be an integer");
        QTest::addRow("flag not a boolean") << QStringLiteral("{\"clocks_aligned\": \"yes\"}") << 1 << 20
                                            << QStringLiteral("'clocks_aligned' must be true or false");
    }

    void aMalformedStateIsLocated()
    {
        QFETCH(QString, json);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, message);
        std::vector<Diagnostic> errors;
        const auto s = storyStateFromJson(json.toStdString(), "case.faultline (story revision 2, step 3)", errors);
        QVERIFY(!s);
        QCOMPARE(errors.size(), std::size_t(1));
        const Diagnostic& d = errors.front();
        QCOMPARE(d.code, std::string("story-state"));
        QCOMPARE(d.where.file, std::string("case.faultline (story revision 2, step 3)"));
        QCOMPARE(static_cast<int>(d.where.line), line);
        QCOMPARE(static_cast<int>(d.where.column), column);
        VERIFY_CONTAINS(QString::fromStdString(d.message), message);
        VERIFY_CONTAINS(QString::fromStdString(d.format()),
            QStringLiteral("(story revision 2, step 3):%1:%2: error: ").arg(line).arg(column));
    }

    void theFlagshipsStoryWalksFromThePrecursorToTheTeardown()
    {
        const Verdict& v = *m_flagship.verdict;
        const auto steps = proposeStory(v, *m_flagship.evidence);
        QVERIFY(steps.size() >= 3);
        std::string titles;
        for (const auto& s : steps)
            titles += s.title + "\n";
        // The order: the precursor, the cause, the first symptom on each other node, the teardown.
        QCOMPARE(
            QString::fromStdString(steps.front().title).section(QLatin1Char(':'), 0, 0), QStringLiteral("Precursor"));
        QCOMPARE(steps[1].title, std::string("Cause: Xid 149 NVLINK on node-02"));
        QCOMPARE(QString::fromStdString(steps.back().title), QStringLiteral("Teardown: the job shuts down"));

        // The cause step selects the verdict's cause, in its lane and at its line of the evidence.
        const StoryStep& cause = steps[1];
        const auto ref = storyEventOf(v, *m_flagship.evidence, v.cause);
        QVERIFY(ref);
        QVERIFY(cause.state.event.has_value());
        QCOMPARE(cause.state.event->ruleId, ref->ruleId);
        QCOMPARE(cause.state.event->path, std::string("nodes/node-02/dmesg.txt"));
        QCOMPARE(cause.state.event->line, std::uint64_t(70));
        QCOMPARE(cause.state.event->byteOffset, ref->byteOffset);
        QVERIFY(*cause.state.event == *ref);
        QCOMPARE(cause.state.lane, std::string("node-02"));
        QCOMPARE(cause.state.evidencePath, std::string("nodes/node-02/dmesg.txt"));
        QCOMPARE(cause.state.evidenceLines, std::vector<std::uint64_t> { 70 });
        QVERIFY(cause.state.symptom.empty());
        QVERIFY(cause.state.fromNs < v.events[v.cause].timeNs && v.events[v.cause].timeNs < cause.state.toNs);
        VERIFY_CONTAINS(QString::fromStdString(cause.text), QStringLiteral("at 2026-11-02T10:15:01.123456Z"));
        VERIFY_CONTAINS(QString::fromStdString(cause.text), QStringLiteral("59 later symptom(s) on 3 other node(s)."));

        // One step per symptom node other than the cause's, in order of their first symptom.
        QCOMPARE(lanesOf(steps, "Symptom on "), std::string("node-01,node-03,node-04"));
        std::set<std::string> symptomNodes(v.symptomNodes.begin(), v.symptomNodes.end());
        symptomNodes.erase("node-02");
        QCOMPARE(symptomNodes.size(), std::size_t(3));
        for (const auto& s : steps) {
            QCOMPARE(s.origin, std::string("proposed"));
            QCOMPARE(s.state.panes, (std::vector<std::string> { "evidence", "symptoms" }));
            QVERIFY2(s.state.event.has_value(), s.title.c_str());
            QVERIFY2(s.state.fromNs != INT64_MIN && s.state.fromNs < s.state.toNs, s.title.c_str());
            QCOMPARE(s.state.evidencePath, s.state.event->path);
            QCOMPARE(s.state.evidenceLines, std::vector<std::uint64_t> { s.state.event->line });
            if (s.title.rfind("Symptom on ", 0) != 0)
                continue;
            QVERIFY2(symptomNodes.count(s.state.lane), s.title.c_str());
            QCOMPARE(s.state.symptom, s.state.event->type);
            // Its window runs from the cause to the symptom.
            QVERIFY(s.state.fromNs < v.events[v.cause].timeNs && s.state.event->timeNs < s.state.toNs);
            VERIFY_CONTAINS(QString::fromStdString(s.text), QStringLiteral("after the cause."));
        }

        // Deterministic: the same analysis proposes the same story, and so does a second import and analysis.
        QVERIFY(proposeStory(v, *m_flagship.evidence) == steps);
        const Analysed again = analyse("resources/samples/bundle-48213");
        const auto steps2 = proposeStory(*again.verdict, *again.evidence);
        QCOMPARE(steps2.size(), steps.size());
        for (std::size_t i = 0; i < steps.size(); ++i) {
            QCOMPARE(steps2[i].title, steps[i].title);
            QCOMPARE(steps2[i].text, steps[i].text);
            QCOMPARE(storyStateToJson(steps2[i].state), storyStateToJson(steps[i].state));
        }
    }

    void aStepsEventIsFoundAgainInAFreshAnalysis()
    {
        const auto steps = proposeStory(*m_flagship.verdict, *m_flagship.evidence);
        std::vector<Annotation> annotations;
        for (std::size_t i = 0; i < steps.size(); ++i)
            annotations.push_back(storyEventAnnotation(*steps[i].state.event, static_cast<std::int64_t>(i + 1)));
        QCOMPARE(annotations[1].target, std::string("event"));
        QCOMPARE(annotations[1].ruleId, steps[1].state.event->ruleId);
        QCOMPARE(annotations[1].fromNs, steps[1].state.event->timeNs);

        const Analysed fresh = analyse("resources/samples/bundle-48213");
        const AnnotationScope scope =
            annotationScope(annotations, *fresh.verdict, *fresh.evidence, "the analysis shown");
        const auto resolved = resolveAnnotations(annotations, scope);
        QCOMPARE(resolved.size(), steps.size());
        for (std::size_t i = 0; i < steps.size(); ++i) {
            QVERIFY2(resolved[i].matched, resolved[i].reason.c_str());
            const auto found =
                storyEventOf(*fresh.verdict, *fresh.evidence, static_cast<std::size_t>(resolved[i].eventIndex));
            QVERIFY(found);
            QCOMPARE(found->ruleId, steps[i].state.event->ruleId);
            QCOMPARE(found->path, steps[i].state.event->path);
            QCOMPARE(found->byteOffset, steps[i].state.event->byteOffset);
            QCOMPARE(found->line, steps[i].state.event->line);
        }
        // The cause step's event is the fresh analysis's cause.
        QCOMPARE(resolved[1].eventIndex, static_cast<std::int64_t>(fresh.verdict->cause));
        // An event out of range has no reference.
        QVERIFY(!storyEventOf(*fresh.verdict, *fresh.evidence, fresh.verdict->events.size()));
    }

    void aVerdictWithoutACauseGetsItsLeadingEvidence()
    {
        const Analysed a = analyse("resources/samples/inconclusive-no-infra");
        const Verdict& v = *a.verdict;
        QVERIFY(!v.hasCause);
        QVERIFY(!v.trail.empty());
        const auto steps = proposeStory(v, *a.evidence);
        QCOMPARE(steps.size(), std::size_t(1));
        const StoryStep& s = steps.front();
        VERIFY_CONTAINS(QString::fromStdString(s.title), QStringLiteral("Leading "));
        QVERIFY(s.state.event.has_value());
        QVERIFY(*s.state.event == *storyEventOf(v, *a.evidence, v.trail.front().event));
        VERIFY_CONTAINS(QString::fromStdString(s.text), QString::fromStdString(v.summary));
        QCOMPARE(s.origin, std::string("proposed"));
        QVERIFY(proposeStory(v, *a.evidence) == steps);
    }

private:
    Analysed m_flagship;
};

QTEST_GUILESS_MAIN(TstStory)
#include "tst_story.moc"
