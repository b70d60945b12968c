// SPDX-License-Identifier: Apache-2.0
// The annotation use cases the CLI and the workbench share: every target kind is stored with its author and tags, a
// bookmark toggles, an edit keeps its target and supersedes the old row, a case without the file is refused; and an
// annotation survives a re-run of the case: with a rule pack that disables one rule, the events of the other rules
// are found again at their new indices in run 2, while the annotation on the disabled rule's event says why it is no
// longer matched, in resolveAnnotations and in the case's history.
#include "app/usecases/case_history.h"
#include "app/usecases/redact.h"
#include "app/usecases/use_cases.h"
#include "tests/common/case_fixture.h"
#include "tests/common/test_helpers.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace faultline;

namespace {

std::string resolved(const core::AnnotationResolution& r)
{
    return r.matched ? "matched event " + std::to_string(r.eventIndex) : "unmatched: " + r.reason;
}

/// The first event of `rule` at or after `from` in `v`.
std::size_t eventOf(const core::Verdict& v, const std::string& rule, std::size_t from = 0)
{
    for (std::size_t i = from; i < v.events.size(); ++i)
        if (v.events[i].ruleId == rule)
            return i;
    return v.events.size();
}

} // namespace

class TstAnnotate : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::string m_case;
    std::shared_ptr<const core::Verdict> m_verdict;
    std::shared_ptr<const core::EvidenceSet> m_evidence;

    std::string path(const std::string& name) const { return m_dir.path().toStdString() + "/" + name; }

    usecases::AnnotateRequest request(usecases::AnnotationKind kind, const std::string& text,
        usecases::AnnotationTarget target = usecases::AnnotationTarget::wholeCase()) const
    {
        usecases::AnnotateRequest r;
        r.casePath = m_case;
        r.kind = kind;
        r.text = text;
        r.target = std::move(target);
        r.author = "ana";
        return r;
    }

    /// The target of event `i` as the workbench names an event of the analysis it shows.
    usecases::AnnotationTarget eventTarget(std::size_t i) const
    {
        const auto& e = m_verdict->events.at(i);
        const auto& p = e.provenance.front();
        auto t =
            usecases::AnnotationTarget::eventAt(e.ruleId, m_evidence->sources.at(p.source).path, p.line, p.byteOffset);
        t.type = e.type;
        t.fromNs = e.timeNs;
        return t;
    }

private Q_SLOTS:
    void initTestCase()
    {
        usecases::BundleRequest r;
        r.paths = { tests::sourcePath("resources/samples/python-exception") };
        r.rulesDir = tests::sourcePath("rules");
        m_case = path("annotate.faultline");
        r.saveAs = m_case;
        const auto done = usecases::analyseBundle(r);
        QVERIFY2(done.ok(), done.failure.text().c_str());
        m_verdict = done.value->analysis.verdict;
        m_evidence = done.value->analysis.evidence;
    }

    void everyTargetIsStored()
    {
        using K = usecases::AnnotationKind;
        using T = usecases::AnnotationTarget;
        const std::size_t remote = eventOf(*m_verdict, "nccl.remote-error");
        auto note = request(K::Note, "remote error first", eventTarget(remote));
        note.tags = { "nccl", " ", "rank 3" };
        const std::vector<usecases::AnnotateRequest> asks { note,
            request(K::Bookmark, "the traceback",
                T::event(1, static_cast<std::int64_t>(eventOf(*m_verdict, "python.exception")))),
            request(K::Note, "sacct says FAILED", T::lineOf("slurm/sacct_53120.psv", 2)),
            request(K::Tag, "suspect", T::lane("node-02")),
            request(K::Note, "the minute it fell apart", T::range(1'000'000'000, 61'000'000'000, "node-01")),
            request(K::Bookmark, "", T::symptom(m_verdict->symptoms.front().type)) };
        for (const auto& a : asks) {
            const auto done = usecases::annotateCase(a);
            QVERIFY2(done.ok(), done.failure.text().c_str());
        }
        const auto h = usecases::caseHistory(m_case);
        QVERIFY(h.ok());
        const auto& got = h.value->annotations;
        QCOMPARE(got.size(), asks.size());
        QCOMPARE(got[0].tags, (std::vector<std::string> { "nccl", "rank 3" }));
        QCOMPARE(got[0].ruleId, std::string("nccl.remote-error"));
        QCOMPARE(got[1].ruleId, std::string("python.exception"));
        QCOMPARE(got[1].runId, std::int64_t(1));
        QCOMPARE(got[2].target, std::string("line"));
        QCOMPARE(got[3].node, std::string("node-02"));
        QCOMPARE(got[4].fromNs, std::int64_t(1'000'000'000));
        QCOMPARE(got[5].target, std::string("symptom"));
        for (const auto& a : got)
            QCOMPARE(a.author, std::string("ana"));
        // The history resolves them against the latest run.
        QCOMPARE(h.value->resolvedRun, std::int64_t(1));
        QCOMPARE(h.value->resolutions.size(), got.size());
        QVERIFY2(h.value->resolutions[0].matched, resolved(h.value->resolutions[0]).c_str());
        QCOMPARE(h.value->resolutions[0].eventIndex, static_cast<std::int64_t>(remote));
        // A line of a file the case does not store is refused, naming the path.
        const auto bad = usecases::annotateCase(request(K::Note, "x", T::lineOf("nodes/none.txt", 1)));
        QVERIFY(!bad.ok());
        QCOMPARE(bad.failure.code, usecases::Exit::Case);
        QVERIFY2(bad.failure.message.find("nodes/none.txt") != std::string::npos, bad.failure.message.c_str());
    }

    void aBookmarkToggles()
    {
        const std::size_t abort = eventOf(*m_verdict, "process.abort");
        auto ask = request(usecases::AnnotationKind::Bookmark, "abort", eventTarget(abort));
        ask.toggle = true;
        const auto before = usecases::caseHistory(m_case).value->annotations.size();
        const auto on = usecases::annotateCase(ask);
        QVERIFY2(on.ok() && !on.value->removed, on.ok() ? "" : on.failure.text().c_str());
        QCOMPARE(usecases::caseHistory(m_case).value->annotations.size(), before + 1);
        // The same event named by its run and index is the same target: the toggle removes it.
        ask.target = usecases::AnnotationTarget::event(1, static_cast<std::int64_t>(abort));
        const auto off = usecases::annotateCase(ask);
        QVERIFY(off.ok());
        QVERIFY(off.value->removed);
        QCOMPARE(off.value->id, on.value->id);
        QCOMPARE(usecases::caseHistory(m_case).value->annotations.size(), before);
    }

    void anEditKeepsItsTarget()
    {
        const auto h = usecases::caseHistory(m_case);
        const auto& first = h.value->annotations.front();
        auto edit = request(usecases::AnnotationKind::Note, "the remote error came first, on rank 3");
        edit.editId = first.id;
        edit.tags = { "nccl" };
        const auto done = usecases::annotateCase(edit);
        QVERIFY2(done.ok(), done.failure.text().c_str());
        QCOMPARE(done.value->supersedes, first.id);
        const auto after = usecases::caseHistory(m_case).value->annotations;
        QCOMPARE(after.size(), h.value->annotations.size());
        const auto it = std::find_if(after.begin(), after.end(), [&](const auto& a) { return a.id == done.value->id; });
        QVERIFY(it != after.end());
        QCOMPARE(it->text, std::string("the remote error came first, on rank 3"));
        QVERIFY(core::sameTarget(*it, first));
        QCOMPARE(it->tags, std::vector<std::string> { "nccl" });
        QVERIFY(std::none_of(after.begin(), after.end(), [&](const auto& a) { return a.id == first.id; }));
    }

    void anAnnotationSurvivesARerun()
    {
        // Annotate a late event (its index shifts when earlier events go) and one of the rule to be disabled.
        const std::size_t abort = eventOf(*m_verdict, "process.abort", eventOf(*m_verdict, "nccl.remote-error"));
        QVERIFY(abort < m_verdict->events.size());
        const auto late =
            usecases::annotateCase(request(usecases::AnnotationKind::Bookmark, "late abort", eventTarget(abort)));
        QVERIFY(late.ok());
        const std::size_t remote = eventOf(*m_verdict, "nccl.remote-error");
        const auto gone =
            usecases::annotateCase(request(usecases::AnnotationKind::Note, "remote", eventTarget(remote)));
        QVERIFY(gone.ok());
        // Run 2 with a pack that disables nccl.remote-error.
        const auto again = tests::addRunWithRuleDisabled(m_case, "nccl.remote-error");
        QVERIFY(again);
        QCOMPARE(again->run, std::int64_t(2));
        const auto& v2 = *again->analysis.verdict;
        QCOMPARE(eventOf(v2, "nccl.remote-error"), v2.events.size());
        // Found again by rule and record, at the index the event has in run 2.
        std::size_t want = v2.events.size();
        for (std::size_t i = 0; i < v2.events.size(); ++i)
            if (v2.events[i].ruleId == "process.abort"
                && v2.events[i].provenance.front().byteOffset == m_verdict->events[abort].provenance.front().byteOffset)
                want = i;
        QVERIFY(want < v2.events.size());
        QVERIFY2(want != abort, "the re-run did not shift the event's index; the test proves nothing");
        const auto res = usecases::resolveAnnotations(m_case, 2);
        QVERIFY2(res.ok(), res.failure.text().c_str());
        const auto h = usecases::caseHistory(m_case);
        const auto& list = h.value->annotations;
        auto of = [&](std::int64_t id) {
            const auto it = std::find_if(list.begin(), list.end(), [&](const auto& a) { return a.id == id; });
            return (*res.value)[static_cast<std::size_t>(it - list.begin())];
        };
        const auto lateIn2 = of(late.value->id);
        QVERIFY2(lateIn2.matched && lateIn2.eventIndex == static_cast<std::int64_t>(want), resolved(lateIn2).c_str());
        const auto goneIn2 = of(gone.value->id);
        QVERIFY(!goneIn2.matched);
        QCOMPARE(goneIn2.reason.substr(0, 76),
            std::string("no longer matched in run 2: rule 'nccl.remote-error' made no event (it was r"));
        // In run 1 both are still where they were made.
        const auto res1 = usecases::resolveAnnotations(m_case, 1);
        QVERIFY(res1.ok());
        const auto at = std::find_if(list.begin(), list.end(), [&](const auto& a) { return a.id == late.value->id; });
        const auto lateIn1 = (*res1.value)[static_cast<std::size_t>(at - list.begin())];
        QVERIFY2(lateIn1.matched && lateIn1.eventIndex == static_cast<std::int64_t>(abort), resolved(lateIn1).c_str());
        // The history resolves against the latest run, 2.
        QCOMPARE(h.value->resolvedRun, std::int64_t(2));
        QCOMPARE(h.value->resolutions.size(), list.size());
        QVERIFY(!usecases::resolveAnnotations(m_case, 7).ok());
    }

    void aRedactedCopyKeepsThemOnTheirEvents()
    {
        // Redaction changes the evidence's bytes (node-02 becomes a shorter pseudonym), so every record moves; the
        // annotations' records move with their events', and the copy resolves them as the original does. (A case of
        // one run: a copy of a case whose runs used two catalogs is refused today, a limit of redaction.)
        usecases::BundleRequest bundle;
        bundle.paths = { tests::sourcePath("resources/samples/python-exception") };
        bundle.rulesDir = tests::sourcePath("rules");
        bundle.saveAs = path("to-redact.faultline");
        QVERIFY(usecases::analyseBundle(bundle).ok());
        const std::string original = bundle.saveAs;
        for (const auto& [rule, from] : { std::pair<const char*, std::size_t> { "python.exception", 0 },
                 { "nccl.remote-error", 0 }, { "process.abort", 20 } }) {
            const std::size_t event = eventOf(*m_verdict, rule, from);
            QVERIFY2(event < m_verdict->events.size(), rule);
            auto ask = request(usecases::AnnotationKind::Note, rule, eventTarget(event));
            ask.casePath = original;
            QVERIFY(usecases::annotateCase(ask).ok());
        }
        usecases::RedactRequest req;
        req.casePath = original;
        req.outPath = path("redacted.faultline");
        req.check = false;
        const auto done = usecases::redactCase(req);
        QVERIFY2(done.ok(), done.failure.text().c_str());
        const auto before = usecases::resolveAnnotations(original);
        const auto copy = usecases::resolveAnnotations(req.outPath);
        QVERIFY2(before.ok() && copy.ok(), copy.ok() ? "" : copy.failure.text().c_str());
        QCOMPARE(copy.value->size(), before.value->size());
        const auto copied = usecases::caseHistory(req.outPath).value->annotations;
        const auto kept = usecases::caseHistory(original).value->annotations;
        bool moved = false;
        for (std::size_t i = 0; i < copy.value->size(); ++i) {
            const auto& a = (*before.value)[i];
            const auto& b = (*copy.value)[i];
            QVERIFY2(a.matched && b.matched && a.eventIndex == b.eventIndex,
                ("#" + std::to_string(a.annotation) + ": " + resolved(a) + " in the case, " + resolved(b)
                    + " in the copy")
                    .c_str());
            moved = moved || copied[i].byteOffset != kept[i].byteOffset;
        }
        QVERIFY2(moved, "no annotated record moved: the redaction changed nothing before them");
    }
};

QTEST_GUILESS_MAIN(TstAnnotate)
#include "tst_annotate.moc"
