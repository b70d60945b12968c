// SPDX-License-Identifier: Apache-2.0
// The rule trace on small synthetic evidence with an inline catalog: a correlator's near miss outside its window by a
// known number of seconds, node relations that fail (same node required, other node required), an extractor whose
// literals are in a record but whose pattern fails at a named capture, a source kind it does not read, a missing
// preceded_by context, an event replaced through supersedes, one dropped by a filter, a duplicate merged, one record
// explained against every rule, unknown rules and lines, and the verdict unchanged by tracing. Also the pattern probe
// on its own.
#include "core/analysis/analysis_trace.h"
#include "core/analysis/analyzer.h"
#include "core/analysis/pattern_probe.h"
#include "core/analysis/rule_trace.h"
#include "core/report/verdict_report.h"
#include "core/time/civil_time.h"
#include "importers/bundle_loader.h"
#include "tests/common/test_helpers.h"

#include <QTest>

using namespace faultline;
using namespace faultline::core;

namespace {

constexpr std::int64_t T0 = 1793614501000000000; // 2026-11-02T10:15:01Z

const char* kCatalog = "catalog: trace-test\nversion: 0.0.1\nsettings: {expected_sources: [kernel]}\n";

const char* kPack = R"(pack: p
extractors:
  - id: t.fault
    sources: [kernel]
    pattern: 'FAULT on gpu (?P<gpu_index>\d+)'
    event: t.fault
    role: root
    domain: infrastructure
    label: 'fault on gpu {gpu_index}'
    tests: [{line: 'FAULT on gpu 3', expect: {event: t.fault}}]
  - id: t.fault.fatal
    sources: [kernel]
    pattern: 'FAULT on gpu (?P<gpu_index>\d+) fatal'
    event: t.fault_fatal
    role: root
    domain: infrastructure
    label: 'fatal fault on gpu {gpu_index}'
    supersedes: [t.fault]
    tests: [{line: 'FAULT on gpu 3 fatal', expect: {event: t.fault_fatal}}]
  - id: t.timeout
    sources: [applog]
    pattern: 'collective timed out after (?P<ms>\d+) ms'
    event: t.timeout
    role: cascade
    domain: workload
    label: 'timeout after {ms} ms'
    tests: [{line: 'collective timed out after 5 ms', expect: {event: t.timeout}}]
  - id: t.noise
    sources: [applog]
    pattern: 'harmless (?P<what>\w+)'
    event: t.noise
    role: cascade
    label: 'harmless {what}'
    tests: [{line: 'harmless chatter', expect: {event: t.noise}}]
  - id: t.context
    sources: [kernel]
    pattern: 'detail line (?P<n>\d+)'
    preceded_by: 'DETAIL HEADER'
    lookback: 1
    event: t.detail
    role: context
    label: 'detail {n}'
    tests: [{line: 'DETAIL HEADER detail line 7', expect: {event: t.detail}}]
filters:
  - id: f.drop-noise
    when: {event: t.noise}
    text: 'harmless'
    action: drop
    reason: noise
correlators:
  - id: c.fault-breaks-collectives
    cause: {event: [t.fault, t.fault_fatal], role: root}
    symptom: {event: t.timeout}
    nodes: any
    before: 0s
    after: 10s
    relation: symptom
  - id: c.same-node
    cause: {event: [t.fault, t.fault_fatal], role: root}
    symptom: {event: t.timeout}
    nodes: same
    before: 0s
    after: 60s
    relation: symptom
  - id: c.other-node
    cause: {event: [t.fault, t.fault_fatal], role: root}
    symptom: {event: t.timeout}
    nodes: other
    before: 0s
    after: 60s
    relation: symptom
)";

struct Loaded
{
    QTemporaryDir dir;
    CatalogLoadResult result;
};

std::unique_ptr<Loaded> loadCatalog()
{
    auto l = std::make_unique<Loaded>();
    tests::writeFiles(l->dir, { { "catalog.yaml", kCatalog }, { "packs/p.yaml", kPack } });
    l->result = RuleCatalog::load(l->dir.path().toStdString());
    return l;
}

/// Evidence in three files: kernel.log (source 0), job.out (source 1) and a second kernel copy, journal.log (2).
class Evidence
{
public:
    Evidence()
    {
        for (const auto& [path, kind] : { std::pair { "kernel.log", SourceKind::Kernel },
                 std::pair { "job.out", SourceKind::AppLog }, std::pair { "journal.log", SourceKind::Kernel } }) {
            Source s;
            s.path = path;
            s.kind = kind;
            s.format = kind == SourceKind::Kernel ? "dmesg-raw" : "slurm-joblog";
            s.records = 1;
            m_ev.sources.push_back(s);
        }
    }
    Evidence& add(std::uint32_t source, const std::string& node, std::int64_t t, const std::string& text)
    {
        Observation o;
        o.text = m_ev.arena->store(text);
        o.kind = m_ev.sources[source].kind;
        o.node = m_ev.nodes.intern(node);
        o.timeNs = t;
        o.precisionNs = 0;
        o.quality = t == INT64_MIN ? TimeQuality::Missing : TimeQuality::Exact;
        o.where.source = source;
        o.where.line = ++m_lines[source];
        o.where.byteOffset = 100 * o.where.line;
        m_ev.observations.push_back(o);
        return *this;
    }
    const EvidenceSet& get()
    {
        std::stable_sort(m_ev.observations.begin(), m_ev.observations.end(),
            [](const Observation& a, const Observation& b) { return a.where.source < b.where.source; });
        return m_ev;
    }

private:
    EvidenceSet m_ev;
    std::map<std::uint32_t, std::uint64_t> m_lines;
};

/// The standard evidence: a fault on node-a at T0 (kernel.log:1), a timeout on node-b 22 s later (job.out:1), a
/// timeout on node-a 5 s later (job.out:2), noise (job.out:3), a fault line the pattern does not take (kernel.log:2),
/// a fault line in the job log (job.out:4), a detail line without its header (kernel.log:3), the fault again in
/// journal.log:1 (a duplicate).
const EvidenceSet& standardEvidence(Evidence& e)
{
    return e.add(0, "node-a", T0, "FAULT on gpu 3")
        .add(1, "node-b", T0 + 22 * kNsPerSec, "collective timed out after 600000 ms")
        .add(1, "node-a", T0 + 5 * kNsPerSec, "collective timed out after 600000 ms")
        .add(1, "node-b", T0 + 6 * kNsPerSec, "harmless chatter")
        .add(0, "node-a", T0 + 1 * kNsPerSec, "FAULT on gpu three")
        .add(1, "node-b", T0 + 7 * kNsPerSec, "FAULT on gpu 5")
        .add(0, "node-a", T0 + 2 * kNsPerSec, "detail line 7")
        .add(2, "node-a", T0, "FAULT on gpu 3")
        .get();
}

TraceReport trace(const EvidenceSet& ev, const RuleCatalog& c, const std::string& rule, const std::string& path = {},
    std::uint64_t line = 0)
{
    TraceRequest r;
    r.ruleId = rule;
    r.path = path;
    r.line = line;
    std::vector<Diagnostic> errors;
    auto report = traceRules(ev, c, r, {}, errors);
    if (!report) {
        QTest::qFail(("trace failed: " + (errors.empty() ? std::string() : errors.front().format())).c_str(), __FILE__,
            __LINE__);
        return {};
    }
    return *report;
}

const CorrelationMiss* missOf(const RuleTrace& t, const std::string& symptomPath, std::uint64_t line)
{
    for (const auto& m : t.linkMisses)
        if (m.symptomRecord.path == symptomPath && m.symptomRecord.line == line)
            return &m;
    return nullptr;
}

const ExtractorMiss* extractorMiss(const RuleTrace& t, const std::string& path, std::uint64_t line)
{
    for (const auto& m : t.misses)
        if (m.record.path == path && m.record.line == line)
            return &m;
    return nullptr;
}

const TracedEvent* eventAt(const RuleTrace& t, const std::string& path, std::uint64_t line)
{
    for (const auto& e : t.events)
        if (e.record.path == path && e.record.line == line)
            return &e;
    return nullptr;
}

std::string has(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos ? part : "'" + part + "' not in: " + text;
}

} // namespace

class TstRuleTrace : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        m_catalog = loadCatalog();
        QVERIFY2(m_catalog->result.ok(), m_catalog->result.asText().c_str());
    }

    void aCorrelatorMissesOutsideItsWindowByTheExcess()
    {
        Evidence e;
        const EvidenceSet& ev = standardEvidence(e);
        const TraceReport r = trace(ev, catalog(), "c.fault-breaks-collectives");
        QCOMPARE(r.rules.size(), std::size_t(1));
        const RuleTrace& t = r.rules.front();
        QCOMPARE(t.kind, TraceRuleKind::Correlator);
        QCOMPARE(t.windowAfterNs, 10 * kNsPerSec);
        // node-a's timeout 5 s after the fault is linked; node-b's 22 s after is not: 12 s past the 10 s window.
        QCOMPARE(t.links.size(), std::size_t(1));
        QCOMPARE(t.links.front().symptomRecord.line, std::uint64_t(2));
        QCOMPARE(t.links.front().deltaNs, 5 * kNsPerSec);
        const CorrelationMiss* m = missOf(t, "job.out", 1);
        QVERIFY2(m, "no near miss for job.out:1");
        QCOMPARE(std::string(linkClauseName(m->clause)), std::string("window"));
        QCOMPARE(m->excessNs, 12 * kNsPerSec);
        QCOMPARE(m->deltaNs, 22 * kNsPerSec);
        QVERIFY(m->cause.has_value());
        QCOMPARE(m->causeRecord.path, std::string("kernel.log"));
        QCOMPARE(has(m->detail, "outside the correlator's window by 12"),
            std::string("outside the correlator's window by 12"));
    }

    void aSameNodeCorrelatorSaysWhichNodesItFound()
    {
        Evidence e;
        const EvidenceSet& ev = standardEvidence(e);
        const RuleTrace t = trace(ev, catalog(), "c.same-node").rules.front();
        const CorrelationMiss* m = missOf(t, "job.out", 1);
        QVERIFY2(m, "no near miss for job.out:1");
        QCOMPARE(std::string(linkClauseName(m->clause)), std::string("nodes"));
        const std::string want = "same node required, other node found (cause on node-a, symptom on node-b)";
        QCOMPARE(has(m->detail, want), want);
        // Every clause holds, so this correlator could have linked it; the engine linked it elsewhere first.
        const CorrelationMiss* held = missOf(t, "job.out", 2);
        QVERIFY2(held, "no entry for job.out:2");
        QCOMPARE(std::string(linkClauseName(held->clause)), std::string("holds"));
        QCOMPARE(
            has(held->linkedInstead, "via c.fault-breaks-collectives"), std::string("via c.fault-breaks-collectives"));
    }

    void anOtherNodeCorrelatorSaysTheNodeIsTheSame()
    {
        Evidence e;
        const EvidenceSet& ev = standardEvidence(e);
        const RuleTrace t = trace(ev, catalog(), "c.other-node").rules.front();
        const CorrelationMiss* m = missOf(t, "job.out", 2);
        QVERIFY2(m, "no near miss for job.out:2");
        QCOMPARE(std::string(linkClauseName(m->clause)), std::string("nodes"));
        const std::string want = "other node required, same node found (both on node-a)";
        QCOMPARE(has(m->detail, want), want);
    }

    void anExtractorNamesTheCaptureThatFailed()
    {
        Evidence e;
        const EvidenceSet& ev = standardEvidence(e);
        const RuleTrace t = trace(ev, catalog(), "t.fault").rules.front();
        QCOMPARE(t.literals, std::vector<std::string> { "fault on gpu " });
        const ExtractorMiss* m = extractorMiss(t, "kernel.log", 2);
        QVERIFY2(m, "no near miss for kernel.log:2");
        QCOMPARE(std::string(missClauseName(m->clause)), std::string("pattern"));
        QVERIFY(m->pattern.explained);
        QCOMPARE(m->pattern.capture, std::string("gpu_index"));
        QCOMPARE(m->pattern.failedPart, std::string("\\d+"));
        QCOMPARE(m->pattern.matchedText, std::string("FAULT on gpu "));
        const std::string want = "the capture `gpu_index` (`\\d+`) did not match";
        QCOMPARE(has(m->detail, want), want);
        QCOMPARE(has(m->detail, "then came 'three'"), std::string("then came 'three'"));
    }

    void anExtractorSaysWhichSourceKindsItReads()
    {
        Evidence e;
        const EvidenceSet& ev = standardEvidence(e);
        const RuleTrace t = trace(ev, catalog(), "t.fault").rules.front();
        const ExtractorMiss* m = extractorMiss(t, "job.out", 4);
        QVERIFY2(m, "no near miss for job.out:4");
        QCOMPARE(std::string(missClauseName(m->clause)), std::string("source-kind"));
        QVERIFY(m->patternMatches);
        const std::string want = "the record is in a applog source (slurm-joblog) and the rule reads only kernel";
        QCOMPARE(has(m->detail, want), want);
    }

    void aMissingPrecedingContextIsANearMiss()
    {
        Evidence e;
        const EvidenceSet& ev = standardEvidence(e);
        const RuleTrace t = trace(ev, catalog(), "t.context").rules.front();
        QCOMPARE(t.recordsMatched, std::size_t(1));
        QVERIFY(t.events.empty());
        const ExtractorMiss* m = extractorMiss(t, "kernel.log", 3);
        QVERIFY2(m, "no near miss for kernel.log:3");
        QCOMPARE(std::string(missClauseName(m->clause)), std::string("preceded-by"));
    }

    void aSupersededEventNamesTheRuleThatReplacedIt()
    {
        Evidence e;
        e.add(0, "node-a", T0, "FAULT on gpu 3 fatal")
            .add(1, "node-b", T0 + 5 * kNsPerSec, "collective timed out after 1 ms");
        const EvidenceSet& ev = e.get();
        const RuleTrace generic = trace(ev, catalog(), "t.fault").rules.front();
        const TracedEvent* g = eventAt(generic, "kernel.log", 1);
        QVERIFY2(g, "t.fault made no event on kernel.log:1");
        QCOMPARE(std::string(eventFateName(g->fate)), std::string("superseded"));
        QCOMPARE(g->by, std::string("t.fault.fatal"));
        const RuleTrace specific = trace(ev, catalog(), "t.fault.fatal").rules.front();
        const TracedEvent* s = eventAt(specific, "kernel.log", 1);
        QVERIFY2(s, "t.fault.fatal made no event on kernel.log:1");
        QCOMPARE(std::string(eventFateName(s->fate)), std::string("kept"));
        QCOMPARE(s->replaced, std::vector<std::string> { "t.fault" });
        QCOMPARE(s->inVerdict, std::string("the cause"));
    }

    void aFilterDroppedEventNamesTheFilter()
    {
        Evidence e;
        const EvidenceSet& ev = standardEvidence(e);
        const RuleTrace noise = trace(ev, catalog(), "t.noise").rules.front();
        const TracedEvent* n = eventAt(noise, "job.out", 3);
        QVERIFY2(n, "t.noise made no event on job.out:3");
        QCOMPARE(std::string(eventFateName(n->fate)), std::string("dropped"));
        QCOMPARE(n->by, std::string("f.drop-noise"));
        // The filter's own trace lists what it dropped.
        const RuleTrace filter = trace(ev, catalog(), "f.drop-noise").rules.front();
        QCOMPARE(filter.kind, TraceRuleKind::Filter);
        QCOMPARE(filter.events.size(), std::size_t(1));
        QCOMPARE(filter.events.front().record.line, std::uint64_t(3));
        QCOMPARE(std::string(eventFateName(filter.events.front().fate)), std::string("dropped"));
    }

    void aDuplicateIsMergedIntoTheCopyTheVerdictKeeps()
    {
        Evidence e;
        const EvidenceSet& ev = standardEvidence(e);
        const RuleTrace t = trace(ev, catalog(), "t.fault").rules.front();
        const TracedEvent* a = eventAt(t, "kernel.log", 1);
        const TracedEvent* b = eventAt(t, "journal.log", 1);
        QVERIFY2(a && b, "t.fault did not make both copies");
        QCOMPARE(std::string(eventFateName(a->fate)), std::string("kept"));
        QCOMPARE(std::string(eventFateName(b->fate)), std::string("merged"));
        QCOMPARE(b->by, std::string("kernel.log:1"));
        QCOMPARE(b->verdictIndex, a->verdictIndex);
    }

    void aRecordIsExplainedAgainstEveryRule()
    {
        Evidence e;
        const EvidenceSet& ev = standardEvidence(e);
        const TraceReport r = trace(ev, catalog(), "", "job.out", 4);
        QVERIFY(r.focus.has_value());
        QCOMPARE(r.focus->text, std::string("FAULT on gpu 5"));
        std::vector<std::string> ids;
        for (const auto& t : r.rules)
            ids.push_back(t.id);
        // t.fault and t.fault.fatal come near (a kind they do not read; t.fault's pattern matches); no event is made.
        QCOMPARE(ids, std::vector<std::string> { "t.fault" });
        QVERIFY(r.matchedBy.empty());
        const TraceReport onTimeout = trace(ev, catalog(), "", "job.out", 1);
        std::vector<std::string> timeoutIds;
        for (const auto& t : onTimeout.rules)
            timeoutIds.push_back(t.id);
        QCOMPARE(timeoutIds,
            (std::vector<std::string> { "t.timeout", "c.fault-breaks-collectives", "c.same-node", "c.other-node" }));
        QCOMPARE(onTimeout.matchedBy, std::vector<std::string> { "t.timeout" });
    }

    void aLineInsideARecordNamesTheRecordThatHoldsIt()
    {
        Evidence e;
        const EvidenceSet& ev = standardEvidence(e);
        TraceRequest r;
        r.ruleId = "t.fault";
        r.path = "kernel.log";
        r.line = 5; // kernel.log's records start on lines 1..3
        std::vector<Diagnostic> errors;
        auto report = traceRules(ev, catalog(), r, {}, errors);
        QVERIFY(report.has_value());
        QCOMPARE(report->focus->line, std::uint64_t(3));
        QCOMPARE(has(report->focusNote, "is not the first line of a record"),
            std::string("is not the first line of a record"));
    }

    void unknownRulesAndFilesAreLocatedErrors()
    {
        Evidence e;
        const EvidenceSet& ev = standardEvidence(e);
        std::vector<Diagnostic> errors;
        TraceRequest r;
        r.ruleId = "t.falt";
        QVERIFY(!traceRules(ev, catalog(), r, {}, errors));
        QCOMPARE(tests::diagCodes(errors), std::string("unknown-rule"));
        QCOMPARE(has(errors.front().message, "did you mean t.fault"), std::string("did you mean t.fault"));
        errors.clear();
        r.ruleId = "t.fault";
        r.path = "kernel.txt";
        r.line = 1;
        QVERIFY(!traceRules(ev, catalog(), r, {}, errors));
        QCOMPARE(tests::diagCodes(errors), std::string("unknown-file"));
        errors.clear();
        r.path = "kernel.log";
        r.line = 0;
        QVERIFY(!traceRules(ev, catalog(), r, {}, errors));
        QCOMPARE(tests::diagCodes(errors), std::string("bad-line"));
        QCOMPARE(closeRuleIds(catalog(), "c.same"), std::vector<std::string> { "c.same-node" });
    }

    void tracingDoesNotChangeTheVerdict()
    {
        // The verdict with a trace recorded is the plain one, byte for byte: on the synthetic evidence, and on the
        // flagship sample with the bundled catalog.
        Evidence e;
        const EvidenceSet& ev = standardEvidence(e);
        const Verdict plain = analyze(ev, catalog());
        AnalysisTrace recorded;
        AnalysisOptions opts;
        opts.trace = &recorded;
        const Verdict traced = analyze(ev, catalog(), opts);
        QCOMPARE(verdictToJson(traced, ev), verdictToJson(plain, ev));
        QVERIFY(!recorded.steps.empty());

        const EvidenceSet sample = importers::loadBundle({ tests::sourcePath("resources/samples/bundle-48213") });
        const RuleCatalog& bundled = *tests::bundledCatalog();
        AnalysisTrace all;
        AnalysisOptions withTrace;
        withTrace.trace = &all;
        QCOMPARE(verdictToJson(analyze(sample, bundled, withTrace), sample),
            verdictToJson(analyze(sample, bundled), sample));
        QVERIFY(!all.steps.empty());
    }

    void theProbeFindsTheFailingPart_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("failed");
        QTest::addColumn<QString>("capture");
        QTest::addColumn<QString>("matched");
        QTest::addRow("capture") << "Xid \\((?P<pci>[0-9a-f:]+)\\): (?P<code>\\d+)"
                                 << "Xid (0000:c3): foo"
                                 << "\\d+"
                                 << "code"
                                 << "Xid (0000:c3): ";
        QTest::addRow("literal run") << "JobId=(?P<job>\\d+) State="
                                     << "JobId=12.batch State="
                                     << " State="
                                     << ""
                                     << "JobId=12";
        QTest::addRow("alternatives") << "(?i)cuda out of memory|OutOfMemoryError: (?P<what>\\w+)"
                                      << "torch.outofmemoryerror: "
                                      << "\\w+"
                                      << "what"
                                      << "outofmemoryerror: ";
        QTest::addRow("group of alternatives") << "^(?P<exc>[A-Z]\\w*(?:Error|Exception))"
                                               << "Timeout happened"
                                               << "(?:Error|Exception)"
                                               << "exc"
                                               << "Timeout";
        QTest::addRow("first part") << "^\\[Rank (?P<rank>\\d+)\\]"
                                    << "rank 3"
                                    << "\\[Rank "
                                    << ""
                                    << "";
    }

    void theProbeFindsTheFailingPart()
    {
        QFETCH(QString, pattern);
        QFETCH(QString, text);
        QFETCH(QString, failed);
        QFETCH(QString, capture);
        QFETCH(QString, matched);
        PatternProbe probe(pattern.toStdString());
        const std::string t = text.toStdString();
        const PatternMiss m = probe.explain(t);
        QVERIFY(m.explained);
        QCOMPARE(m.failedPart, failed.toStdString());
        QCOMPARE(m.capture, capture.toStdString());
        QCOMPARE(m.matchedText, matched.toStdString());
    }

    void theProbeSplitsOnlyWellFormedPatterns()
    {
        std::vector<std::vector<PatternProbe::Part>> alts;
        std::vector<std::size_t> starts;
        const std::string good = R"(a[)\]](?:b|c)+\Q(x\E{2,3}?)";
        QVERIFY(PatternProbe::split(good, 0, good.size(), alts, starts));
        QCOMPARE(alts.size(), std::size_t(1));
        QCOMPARE(alts.front().size(), std::size_t(4)); // a, [)\]], (?:b|c)+, \Q(x\E{2,3}?
        for (const std::string bad : { "a(b", "a)b", "[ab", "*a" })
            QVERIFY2(!PatternProbe::split(bad, 0, bad.size(), alts, starts), bad.c_str());
    }

private:
    const RuleCatalog& catalog() const { return *m_catalog->result.catalog; }
    std::unique_ptr<Loaded> m_catalog;
};

QTEST_GUILESS_MAIN(TstRuleTrace)
#include "tst_rule_trace.moc"
