// SPDX-License-Identifier: Apache-2.0
// Annotations against an analysis: an event annotation is found again by its rule and record when the indices shift,
// two rules' events from one record stay apart, and one whose rule or record is gone is unmatched with a reason that
// names the analysis; symptoms, lanes, lines and ranges resolve too. The case file stores every target kind with its
// tags, and a schema-2 case with annotations migrates forward losing nothing, its events resolved in run 1.
#include "core/analysis/analyzer.h"
#include "core/casefile/case_file.h"
#include "core/model/annotations.h"
#include "importers/bundle_loader.h"
#include "tests/common/bundle_analysis.h"
#include "tests/common/test_helpers.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>

using namespace faultline;
using namespace faultline::core;
namespace fs = std::filesystem;

namespace {

using Analysed = tests::AnalysedBundle;

Analysed analyse(const std::string& bundle)
{
    return tests::analyseBundle({ bundle });
}

/// An annotation of event `i` of `a`, as a front end makes it from the analysis it shows.
Annotation onEvent(const Analysed& a, std::size_t i, std::int64_t id, const std::string& kind = "bookmark")
{
    const Event& e = a.verdict.events.at(i);
    Annotation x;
    x.id = id;
    x.kind = kind;
    x.target = "event";
    x.ruleId = e.ruleId;
    x.eventType = e.type;
    x.path = a.evidence.sources.at(e.provenance.front().source).path;
    x.line = e.provenance.front().line;
    x.byteOffset = static_cast<std::int64_t>(e.provenance.front().byteOffset);
    x.fromNs = e.timeNs;
    return x;
}

/// The index of the first event of `rule` at or after `from`.
std::size_t eventOf(const Verdict& v, const std::string& rule, std::size_t from = 0)
{
    for (std::size_t i = from; i < v.events.size(); ++i)
        if (v.events[i].ruleId == rule)
            return i;
    return v.events.size();
}

std::string show(const AnnotationResolution& r)
{
    return (r.matched ? "matched event " + std::to_string(r.eventIndex) : "unmatched: " + r.reason);
}

} // namespace

class TstAnnotations : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    Analysed m_a;
    std::string m_dataCase = tests::sourcePath("tests/data/cases/schema2-python-exception-annotated.faultline");

    std::string path(const std::string& name) const { return m_dir.path().toStdString() + "/" + name; }

private Q_SLOTS:
    void initTestCase()
    {
        m_a = analyse(tests::sourcePath("resources/samples/python-exception"));
        QVERIFY(m_a.verdict.events.size() > 30);
    }

    void anEventIsFoundByItsRuleAndRecord()
    {
        // Two rules made an event from the same record: each annotation finds its own rule's event.
        const Verdict& v = m_a.verdict;
        const std::size_t remote = eventOf(v, "nccl.remote-error");
        const std::size_t watchdog = eventOf(v, "pytorch.watchdog-exception");
        QVERIFY(remote < v.events.size() && watchdog < v.events.size());
        QCOMPARE(v.events[remote].provenance.front().byteOffset, v.events[watchdog].provenance.front().byteOffset);
        const std::vector<Annotation> notes { onEvent(m_a, remote, 1), onEvent(m_a, watchdog, 2) };
        const auto scope = annotationScope(notes, v, m_a.evidence, "run 1", 1);
        const auto got = resolveAnnotations(notes, scope);
        QCOMPARE(got.size(), std::size_t(2));
        QVERIFY2(got[0].matched && got[0].eventIndex == static_cast<std::int64_t>(remote), show(got[0]).c_str());
        QVERIFY2(got[1].matched && got[1].eventIndex == static_cast<std::int64_t>(watchdog), show(got[1]).c_str());
        QCOMPARE(got[0].annotation, std::int64_t(1));
        QCOMPARE(got[0].timeNs, v.events[remote].timeNs);
        const auto node = v.events[remote].node;
        QCOMPARE(got[0].node, node == kNoNode ? std::string() : v.nodes.name(node));
    }

    void itFollowsItsEventWhenTheIndicesShift()
    {
        // A later run with fewer events before it: the same rule and record, another index.
        const std::size_t last = eventOf(m_a.verdict, "process.abort", 10);
        QVERIFY(last < m_a.verdict.events.size());
        const std::vector<Annotation> notes { onEvent(m_a, last, 7) };
        Verdict later = m_a.verdict;
        later.events.erase(later.events.begin(), later.events.begin() + 3);
        const auto got = resolveAnnotations(notes, annotationScope(notes, later, m_a.evidence, "run 2", 2));
        QVERIFY2(got[0].matched, show(got[0]).c_str());
        QCOMPARE(got[0].eventIndex, static_cast<std::int64_t>(last - 3));
    }

    void unmatchedWhenItsRuleIsGone()
    {
        const std::size_t remote = eventOf(m_a.verdict, "nccl.remote-error");
        const std::vector<Annotation> notes { onEvent(m_a, remote, 3, "note") };
        Verdict later = m_a.verdict;
        std::erase_if(later.events, [](const Event& e) { return e.ruleId == "nccl.remote-error"; });
        const auto got = resolveAnnotations(notes, annotationScope(notes, later, m_a.evidence, "run 2", 2));
        QVERIFY2(!got[0].matched, show(got[0]).c_str());
        QCOMPARE(got[0].eventIndex, std::int64_t(-1));
        const std::string want = "no longer matched in run 2: rule 'nccl.remote-error' made no event (it was removed, "
                                 "disabled or changed); that record now gives 'pytorch.watchdog-exception'";
        QCOMPARE(got[0].reason, want);
        // It still knows where it was: its stored time.
        QCOMPARE(got[0].timeNs, m_a.verdict.events[remote].timeNs);
    }

    void unmatchedWhenItsRecordIsGone()
    {
        // The rule still fires, but no longer on this record (its pattern changed, or the evidence was cut).
        const std::size_t first = eventOf(m_a.verdict, "python.exception");
        QVERIFY(first < m_a.verdict.events.size());
        const std::vector<Annotation> notes { onEvent(m_a, first, 4) };
        Verdict later = m_a.verdict;
        later.events[first].provenance.front().byteOffset += 1;
        const auto got = resolveAnnotations(notes, annotationScope(notes, later, m_a.evidence, "run 3", 3));
        QVERIFY2(!got[0].matched, show(got[0]).c_str());
        std::size_t ofRule = 0;
        for (const auto& e : later.events)
            ofRule += e.ruleId == "python.exception";
        const std::string want = "no longer matched in run 3: rule 'python.exception' made no event from "
            + notes[0].path + ":" + std::to_string(notes[0].line) + " (its " + std::to_string(ofRule)
            + " events come from other records)";
        QCOMPARE(got[0].reason, want);
    }

    void withoutARuleOnlyItsOwnRunHasIt()
    {
        // An annotation that names an event only by run and index (its run was gone when the case was migrated).
        Annotation legacy;
        legacy.id = 5;
        legacy.kind = "note";
        legacy.target = "event";
        legacy.runId = 1;
        legacy.eventIdx = 2;
        const std::vector<Annotation> notes { legacy };
        auto got = resolveAnnotations(notes, annotationScope(notes, m_a.verdict, m_a.evidence, "run 1", 1));
        QVERIFY2(got[0].matched && got[0].eventIndex == 2, show(got[0]).c_str());
        got = resolveAnnotations(notes, annotationScope(notes, m_a.verdict, m_a.evidence, "run 2", 2));
        QVERIFY2(!got[0].matched, show(got[0]).c_str());
        QVERIFY2(got[0].reason.find("not its rule") != std::string::npos, got[0].reason.c_str());
    }

    void symptomsLanesLinesAndRanges()
    {
        const Verdict& v = m_a.verdict;
        QVERIFY(!v.symptoms.empty());
        Annotation symptom;
        symptom.id = 1;
        symptom.target = "symptom";
        symptom.eventType = v.symptoms.front().type;
        Annotation gone = symptom;
        gone.id = 2;
        gone.eventType = "no.such_symptom";
        Annotation lane;
        lane.id = 3;
        lane.target = "lane";
        lane.node = "node-02";
        Annotation noLane = lane;
        noLane.id = 4;
        noLane.node = "node-99";
        // A line with a timed record: the annotation shows at the record's time, on its node.
        const Observation* timed = nullptr;
        for (const auto& o : m_a.evidence.observations)
            if (o.timeNs != INT64_MIN && o.node != kNoNode) {
                timed = &o;
                break;
            }
        QVERIFY(timed);
        Annotation line;
        line.id = 5;
        line.target = "line";
        line.path = m_a.evidence.sources[timed->where.source].path;
        line.line = timed->where.line;
        Annotation range;
        range.id = 6;
        range.target = "range";
        range.fromNs = 1000;
        range.toNs = 2000;
        range.node = "node-01";
        const std::vector<Annotation> notes { symptom, gone, lane, noLane, line, range };
        const auto got = resolveAnnotations(notes, annotationScope(notes, v, m_a.evidence, "run 1", 1));
        QVERIFY2(got[0].matched, show(got[0]).c_str());
        QCOMPARE(got[0].eventIndex, static_cast<std::int64_t>(v.symptoms.front().events.front()));
        QVERIFY(!got[1].matched);
        QCOMPARE(got[1].reason, std::string("no longer matched in run 1: it has no symptom 'no.such_symptom'"));
        QVERIFY2(got[2].matched, show(got[2]).c_str());
        QCOMPARE(got[3].reason, std::string("no longer matched in run 1: it has no lane for node 'node-99'"));
        QVERIFY(got[4].matched);
        QCOMPARE(got[4].timeNs, timed->timeNs);
        QCOMPARE(got[4].node, m_a.evidence.nodeName(timed->node));
        QCOMPARE(got[5].timeNs, std::int64_t(1000));
        QCOMPARE(got[5].toNs, std::int64_t(2000));
        QCOMPARE(got[5].node, std::string("node-01"));
        QCOMPARE(describeTarget(range),
            std::string("range 1970-01-01T00:00:00.000001Z – 1970-01-01T00:00:00.000002Z "
                        "on node-01"));
        QCOMPARE(describeTarget(lane), std::string("lane node-02"));
        QVERIFY(sameTarget(lane, lane) && !sameTarget(lane, noLane) && !sameTarget(lane, range));
    }

    void theCaseStoresEveryTarget()
    {
        const std::string p = path("targets.faultline");
        std::vector<Diagnostic> errors;
        {
            CaseCreateRequest r;
            r.input = &m_a.input;
            r.evidence = &m_a.evidence;
            r.verdict = &m_a.verdict;
            r.run.catalog = tests::bundledCatalog().get();
            r.run.author = "tester";
            QVERIFY(CaseFile::create(p, r, errors));
        }
        auto c = CaseFile::open(p, {}, errors);
        QVERIFY2(c, tests::diagCodes(errors).c_str());
        const std::size_t remote = eventOf(m_a.verdict, "nccl.remote-error");
        // An event of the stored run, by index: its identity is read from the run.
        Annotation ofRun;
        ofRun.kind = "bookmark";
        ofRun.target = "event";
        ofRun.runId = 1;
        ofRun.eventIdx = static_cast<std::int64_t>(remote);
        ofRun.author = "ana";
        // The same event as an analysis in memory names it (rule and record), with tags.
        Annotation inMemory = onEvent(m_a, remote, 0, "note");
        inMemory.id = 0;
        inMemory.fileId = *c->fileId(inMemory.path, errors);
        inMemory.text = "the first NCCL error";
        inMemory.tags = { "nccl", "rank 3" };
        Annotation lane;
        lane.kind = "tag";
        lane.target = "lane";
        lane.node = "node-02";
        lane.text = "suspect";
        Annotation range;
        range.kind = "note";
        range.target = "range";
        for (const auto& e : m_a.verdict.events)
            if (e.timeNs != INT64_MIN && range.fromNs == INT64_MIN)
                range.fromNs = e.timeNs;
        range.toNs = range.fromNs + 5'000'000'000;
        range.text = "the first five seconds";
        Annotation symptom;
        symptom.kind = "bookmark";
        symptom.target = "symptom";
        symptom.eventType = m_a.verdict.symptoms.front().type;
        for (const Annotation* a : { &ofRun, &inMemory, &lane, &range, &symptom })
            QVERIFY2(c->annotate(*a, errors) > 0,
                (a->target + ": " + (errors.empty() ? "" : errors.back().format())).c_str());
        // Targets without what identifies them are refused.
        Annotation bad;
        bad.kind = "note";
        bad.target = "range";
        bad.fromNs = 10;
        bad.toNs = 5;
        QCOMPARE(c->annotate(bad, errors), std::int64_t(0));
        QCOMPARE(errors.back().code, std::string("annotation-target"));
        bad.target = "lane";
        QCOMPARE(c->annotate(bad, errors), std::int64_t(0));
        bad.target = "event";
        QCOMPARE(c->annotate(bad, errors), std::int64_t(0));
        errors.clear();
        const auto got = c->annotations(errors);
        QVERIFY2(errors.empty(), tests::diagCodes(errors).c_str());
        QCOMPARE(got.size(), std::size_t(5));
        QCOMPARE(got[0].ruleId, std::string("nccl.remote-error"));
        QCOMPARE(got[0].byteOffset, inMemory.byteOffset);
        QCOMPARE(got[0].path, inMemory.path);
        QCOMPARE(got[0].author, std::string("ana"));
        QVERIFY(sameTarget(got[0], got[1]));
        QCOMPARE(got[1].runId, std::int64_t(0));
        QCOMPARE(got[1].tags, (std::vector<std::string> { "nccl", "rank 3" }));
        QCOMPARE(got[2].target, std::string("lane"));
        QCOMPARE(got[2].node, std::string("node-02"));
        QCOMPARE(got[3].fromNs, range.fromNs);
        QCOMPARE(got[3].toNs, range.toNs);
        QVERIFY(got[3].tags.empty());
        QCOMPARE(got[4].eventType, symptom.eventType);
        // Resolved against the stored run, both event annotations carry the same event.
        const auto scope = c->annotationScope(got, 1, errors);
        QVERIFY(scope);
        const auto res = resolveAnnotations(got, *scope);
        for (std::size_t i = 0; i < 2; ++i)
            QVERIFY2(res[i].matched && res[i].eventIndex == static_cast<std::int64_t>(remote), show(res[i]).c_str());
        QVERIFY2(res[2].matched, show(res[2]).c_str());
        QVERIFY2(res[4].matched, show(res[4]).c_str());
        QVERIFY(!c->annotationScope(got, 9, errors));
        QCOMPARE(errors.back().code, std::string("case-no-run"));
    }

    void aSchema2CaseKeepsEveryAnnotation()
    {
        const std::string p = path("schema2.faultline");
        fs::copy_file(m_dataCase, p);
        std::vector<Diagnostic> errors;
        {
            // As it was: schema 2, six current annotations (a removed tag is history).
            auto old = CaseFile::open(p, { true, false }, errors);
            QVERIFY(!old);
            QCOMPARE(errors.back().code, std::string("case-old-schema"));
        }
        errors.clear();
        auto c = CaseFile::open(p, {}, errors);
        QVERIFY2(c, tests::diagCodes(errors).c_str());
        QCOMPARE(c->schemaVersion(), kCaseSchemaVersion);
        QCOMPARE(c->notes().front().code, std::string("case-migrated"));
        QVERIFY(fs::exists(p + ".schema2.bak"));
        const auto got = c->annotations(errors);
        QVERIFY2(errors.empty(), tests::diagCodes(errors).c_str());
        QStringList listed;
        for (const auto& a : got)
            listed << QString::fromStdString("#" + std::to_string(a.id) + " " + a.kind + " " + a.target + " "
                + describeTarget(a) + " by " + a.author + ": " + a.text);
        const QStringList want {
            QStringLiteral(
                "#1 bookmark event event python.exception at joblogs/slurm-53120.out:156 by faultline-tests: "
                "the first traceback"),
            QStringLiteral("#2 note event event nccl.remote-error at joblogs/slurm-53120.out:233 by faultline-tests: "
                           "rank 3 saw the remote error first"),
            QStringLiteral("#3 tag event event pytorch.watchdog-exception at joblogs/slurm-53120.out:233 by "
                           "faultline-tests: nccl"),
            QStringLiteral("#4 note line slurm/sacct_53120.psv:2 by faultline-tests: the job's end as sacct has it"),
            QStringLiteral("#5 note case the case by faultline-tests: checked with the user: a bug in their loss "
                           "function"),
            QStringLiteral("#7 narrative case the case by faultline-tests: A Python exception in rank 0 ended the "
                           "job; NCCL errors on the other ranks followed."),
        };
        QCOMPARE(listed, want);
        QCOMPARE(got[0].createdAt, std::string("2026-12-01T16:00:31Z"));
        QCOMPARE(got[0].byteOffset, std::int64_t(16293));
        QCOMPARE(got[1].byteOffset, got[2].byteOffset);
        QVERIFY(got[0].fromNs != INT64_MIN);
        // Resolved in run 1, each event annotation is on the event it was made on.
        const auto scope = c->annotationScope(got, 1, errors);
        QVERIFY(scope);
        const auto res = resolveAnnotations(got, *scope);
        const std::int64_t idx[] = { 3, 18, 19 };
        for (std::size_t i = 0; i < 3; ++i)
            QVERIFY2(res[i].matched && res[i].eventIndex == idx[i], show(res[i]).c_str());
        // And it can be annotated in schema 3's terms.
        Annotation lane;
        lane.kind = "bookmark";
        lane.target = "lane";
        lane.node = "node-01";
        QVERIFY2(c->annotate(lane, errors) > 0, tests::diagCodes(errors).c_str());
        QVERIFY(c->verify().empty());
    }
};

QTEST_GUILESS_MAIN(TstAnnotations)
#include "tst_annotations.moc"
