// SPDX-License-Identifier: Apache-2.0
// The use-case layer both front ends call: each failure has its exit code and a located message, progress rises to
// 100, a cancelled call returns Cancelled, a case reproduced or extended keeps the job and window of its run, and a
// case's history reads back the runs, diffs, annotations (on the case, a line, an event) and expectation written.
#include "app/usecases/case_history.h"
#include "app/usecases/use_cases.h"
#include "core/report/verdict_report.h"
#include "tests/common/test_helpers.h"

#include <QTest>

#include <unistd.h>

#include <algorithm>
#include <filesystem>

using namespace faultline;

namespace faultline::usecases {
inline char* toString(Exit e)
{
    return QTest::toString(static_cast<int>(e));
}
} // namespace faultline::usecases

namespace {

usecases::BundleRequest sampleRequest()
{
    usecases::BundleRequest r;
    r.paths = { tests::sourcePath("resources/samples/bundle-48213") };
    r.rulesDir = tests::sourcePath("rules");
    return r;
}

/// "expected to find X in: TEXT" for a failed containment check.
QByteArray missing(const std::string& part, const std::string& text)
{
    return ("expected to find \"" + part + "\" in:\n" + text).c_str();
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

class TstUseCases : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void analysesTheSampleWithRisingProgress()
    {
        std::vector<int> seen;
        std::vector<std::string> steps;
        usecases::Task task;
        task.progress = [&](int percent, const std::string& step) {
            seen.push_back(percent);
            steps.push_back(step);
        };
        const auto r = usecases::analyseBundle(sampleRequest(), task);
        QVERIFY2(r.ok(), r.failure.text().c_str());
        QCOMPARE(r.value->analysis.verdict->outcome, std::string("infrastructure_failure"));
        QVERIFY(!r.value->saved);
        QVERIFY(!seen.empty());
        QCOMPARE(seen.back(), 100);
        // The import says which file, how far, and how much evidence there is.
        const bool named = std::any_of(steps.begin(), steps.end(), [](const std::string& s) {
            return s.find("Importing ") == 0 && s.find(") — part ") != std::string::npos
                && s.find(" of ") != std::string::npos && s.find(" files") != std::string::npos;
        });
        QVERIFY2(named, "no import step names its file, its format, the part and the evidence's size");
        for (std::size_t i = 1; i < seen.size(); ++i)
            QVERIFY2(seen[i] >= seen[i - 1],
                qPrintable(QStringLiteral("progress went back from %1 to %2").arg(seen[i - 1]).arg(seen[i])));
    }

    void failuresCarryTheirExitCodes()
    {
        QTemporaryDir dir;
        auto noRules = sampleRequest();
        noRules.rulesDir = dir.path().toStdString();
        auto r = usecases::analyseBundle(noRules);
        QVERIFY(!r.ok());
        QCOMPARE(r.failure.code, usecases::Exit::Catalog);
        QVERIFY2(r.failure.text().find("catalog.yaml") != std::string::npos, r.failure.text().c_str());

        auto nothing = sampleRequest();
        nothing.paths = { dir.filePath(QStringLiteral("does-not-exist")).toStdString() };
        r = usecases::analyseBundle(nothing);
        QCOMPARE(r.failure.code, usecases::Exit::NoEvidence);

        auto exists = sampleRequest();
        exists.saveAs = tests::sourcePath("README.md");
        r = usecases::analyseBundle(exists);
        QCOMPARE(r.failure.code, usecases::Exit::Case);
        QVERIFY2(r.failure.text().find("case-exists") != std::string::npos, r.failure.text().c_str());

        const auto notACase = usecases::reproduceCase(
            { tests::sourcePath("README.md"), usecases::Rules::Stored, tests::sourcePath("rules"), 0 });
        QCOMPARE(notACase.failure.code, usecases::Exit::Case);

        usecases::Analysis bare;
        QCOMPARE(usecases::addRun(bare).failure.code, usecases::Exit::Case);
        QCOMPARE(usecases::saveCase(dir.filePath(QStringLiteral("x.faultline")).toStdString(), bare).failure.code,
            usecases::Exit::Case);
    }

    void aCancelledCallReturnsCancelled()
    {
        std::atomic_bool cancel { true };
        usecases::Task task;
        task.cancel = &cancel;
        const auto r = usecases::analyseBundle(sampleRequest(), task);
        QVERIFY(!r.ok());
        QCOMPARE(r.failure.code, usecases::Exit::Cancelled);
    }

    void aCaseKeepsItsJobAndWindowThroughReproduceAndAddRun()
    {
        QTemporaryDir dir;
        auto request = sampleRequest();
        request.jobId = "48213";
        request.windowFromNs = 1793613600LL * 1000000000LL; // 2026-11-02T10:00:00Z
        request.windowToNs = 1793614800LL * 1000000000LL; // 2026-11-02T10:20:00Z
        request.saveAs = dir.filePath(QStringLiteral("case.faultline")).toStdString();
        const auto made = usecases::analyseBundle(request);
        QVERIFY2(made.ok(), made.failure.text().c_str());
        QVERIFY(made.value->saved);
        QCOMPARE(made.value->saved->path, request.saveAs);
        QCOMPARE(made.value->saved->files, made.value->analysis.input->files.size());

        for (const auto rules : { usecases::Rules::Stored, usecases::Rules::Current }) {
            const auto again = usecases::reproduceCase({ request.saveAs, rules, tests::sourcePath("rules"), 0 });
            QVERIFY2(again.ok(), again.failure.text().c_str());
            QVERIFY2(again.value->matchesStoredRun, again.value->rulesOrigin.c_str());
            QCOMPARE(again.value->jobOption, request.jobId);
            QCOMPARE(again.value->windowFromNs, request.windowFromNs);
            QCOMPARE(again.value->storedRun, std::int64_t(1));
            QVERIFY(!again.value->importDiffers);
        }
        // A re-run without the window would not reproduce run 1: the window is part of the verdict.
        auto unwindowed = sampleRequest();
        const auto plain = usecases::analyseBundle(unwindowed);
        QVERIFY(plain.ok());
        QVERIFY(core::verdictToJson(*plain.value->analysis.verdict, *plain.value->analysis.evidence)
            != core::verdictToJson(*made.value->analysis.verdict, *made.value->analysis.evidence));

        const auto reproduced =
            usecases::reproduceCase({ request.saveAs, usecases::Rules::Current, tests::sourcePath("rules"), 0 });
        const auto added = usecases::addRun(*reproduced.value);
        QVERIFY2(added.ok(), added.failure.text().c_str());
        QCOMPARE(added.value->id, std::int64_t(2));
        QVERIFY(added.value->diff && added.value->diff->same);
        std::vector<core::Diagnostic> errors;
        auto c = core::CaseFile::open(request.saveAs, { true, true }, errors);
        QVERIFY(c);
        QCOMPARE(c->runWindow(2, errors).first, request.windowFromNs);
        QCOMPARE(c->importJobOption(errors), request.jobId);
        const auto runs = c->runs(errors);
        QCOMPARE(runs.size(), std::size_t(2));
        QCOMPARE(runs.back().catalogHash, runs.front().catalogHash);
    }

    // A case of the sample (run 1), made once; each case-history test works on its own copy.
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        auto request = sampleRequest();
        request.saveAs = m_dir.filePath(QStringLiteral("sample.faultline")).toStdString();
        const auto made = usecases::analyseBundle(request);
        QVERIFY2(made.ok(), made.failure.text().c_str());
        m_sample = request.saveAs;
        m_cause = static_cast<std::int64_t>(made.value->analysis.verdict->cause);
    }

    void aCaseHistoryHasItsRunsDiffsExpectationAndAnnotations()
    {
        const std::string path = copyOfSample("history.faultline");
        const auto reproduced =
            usecases::reproduceCase({ path, usecases::Rules::Stored, tests::sourcePath("rules"), 0 });
        QVERIFY2(reproduced.ok(), reproduced.failure.text().c_str());
        const auto added = usecases::addRun(*reproduced.value);
        QVERIFY2(added.ok(), added.failure.text().c_str());

        auto h = usecases::caseHistory(path);
        QVERIFY2(h.ok(), h.failure.text().c_str());
        QCOMPARE(h.value->path, path);
        QCOMPARE(h.value->runs.size(), std::size_t(2));
        QCOMPARE(h.value->runs[0].info.id, std::int64_t(1));
        QCOMPARE(h.value->runs[1].info.id, std::int64_t(2));
        QCOMPARE(h.value->runs[1].info.outcome, std::string("infrastructure_failure"));
        QVERIFY2(!h.value->runs[0].diff, "the first run has no run before it, yet it has a diff");
        QVERIFY2(h.value->runs[1].diff, "run 2 has no diff from run 1");
        QCOMPARE(h.value->runs[1].diff->from, std::int64_t(1));
        QVERIFY2(h.value->runs[1].diff->same, "run 2 reproduces run 1, yet its diff says the verdict changed");
        QVERIFY2(!h.value->expectation, "a new case has no expectation, yet one was read");
        QCOMPARE(h.value->annotations.size(), std::size_t(0));
        QCOMPARE(tests::diagCodes(h.value->problems), std::string());
        QCOMPARE(h.value->readOnly, false);

        // Annotations on the case, a stored line and an event; a second narrative supersedes the first; a removed
        // tag is gone.
        const auto annotate = [&](usecases::AnnotationKind kind, const std::string& text,
                                  usecases::AnnotationTarget target = {}) {
            usecases::AnnotateRequest r;
            r.casePath = path;
            r.kind = kind;
            r.text = text;
            r.target = std::move(target);
            r.author = "ana";
            return usecases::annotateCase(r);
        };
        using K = usecases::AnnotationKind;
        using T = usecases::AnnotationTarget;
        const auto note = annotate(K::Note, "reseated the NVLink cable");
        QVERIFY2(note.ok(), note.failure.text().c_str());
        const auto line = annotate(K::Note, "the Xid line", T::lineOf("nodes/node-02/dmesg.txt", 70));
        QVERIFY2(line.ok(), line.failure.text().c_str());
        const auto event = annotate(K::Bookmark, "the cause", T::event(1, m_cause));
        QVERIFY2(event.ok(), event.failure.text().c_str());
        const auto tag = annotate(K::Tag, "nvlink");
        QVERIFY2(tag.ok(), tag.failure.text().c_str());
        const auto draft = annotate(K::Narrative, "first draft");
        QVERIFY2(draft.ok(), draft.failure.text().c_str());
        QCOMPARE(draft.value->supersedes, std::int64_t(0));
        const auto narrative = annotate(K::Narrative, "NVLink failure on node-02");
        QVERIFY2(narrative.ok(), narrative.failure.text().c_str());
        QCOMPARE(narrative.value->supersedes, draft.value->id);
        usecases::AnnotateRequest remove;
        remove.casePath = path;
        remove.removeId = tag.value->id;
        const auto removed = usecases::annotateCase(remove);
        QVERIFY2(removed.ok(), removed.failure.text().c_str());
        QCOMPARE(removed.value->id, tag.value->id);
        const auto expected = usecases::expectRun(path, 0, "ana", "postmortem");
        QVERIFY2(expected.ok(), expected.failure.text().c_str());
        QCOMPARE(expected.value->run, std::int64_t(2));

        h = usecases::caseHistory(path);
        QVERIFY2(h.ok(), h.failure.text().c_str());
        std::string kinds;
        for (const auto& a : h.value->annotations)
            kinds += (kinds.empty() ? "" : ",") + a.kind + ":" + a.target;
        QCOMPARE(kinds, std::string("note:case,note:line,bookmark:event,narrative:case"));
        const auto& onLine = h.value->annotations[1];
        QCOMPARE(onLine.path, std::string("nodes/node-02/dmesg.txt"));
        QCOMPARE(onLine.line, std::uint64_t(70));
        QCOMPARE(onLine.author, std::string("ana"));
        QCOMPARE(h.value->annotations[2].runId, std::int64_t(1));
        QCOMPARE(h.value->annotations[2].eventIdx, m_cause);
        QVERIFY2(h.value->narrative(), "the case's narrative is missing");
        QCOMPARE(h.value->narrative()->text, std::string("NVLink failure on node-02"));
        QVERIFY2(h.value->expectation, "the expectation just marked is missing");
        QCOMPARE(h.value->expectation->runId, std::int64_t(2));
        QCOMPARE(h.value->expectation->note, std::string("postmortem"));
        QCOMPARE(h.value->expectationMisses.size(), std::size_t(0));
    }

    void annotateCaseRefusesABadTarget()
    {
        const std::string path = copyOfSample("bad-target.faultline");
        usecases::AnnotateRequest r;
        r.casePath = path;
        r.text = "x";
        r.target = usecases::AnnotationTarget::lineOf("nodes/nowhere.txt", 1);
        auto res = usecases::annotateCase(r);
        QVERIFY2(!res.ok(), "a note on a file the case does not store was added");
        QCOMPARE(res.failure.code, usecases::Exit::Case);
        QCOMPARE(tests::diagCodes(res.failure.diagnostics), std::string("case-no-file"));
        QVERIFY2(contains(res.failure.text(), "nodes/nowhere.txt"), missing("nodes/nowhere.txt", res.failure.text()));

        r.target = usecases::AnnotationTarget::lineOf("nodes/node-02/dmesg.txt", 999999);
        res = usecases::annotateCase(r);
        QCOMPARE(res.failure.code, usecases::Exit::Case);
        QCOMPARE(tests::diagCodes(res.failure.diagnostics), std::string("annotation-target"));

        r.target = usecases::AnnotationTarget::event(1, 999999);
        res = usecases::annotateCase(r);
        QCOMPARE(res.failure.code, usecases::Exit::Case);
        QCOMPARE(tests::diagCodes(res.failure.diagnostics), std::string("annotation-target"));

        r.casePath = tests::sourcePath("README.md");
        r.target = {};
        res = usecases::annotateCase(r);
        QCOMPARE(res.failure.code, usecases::Exit::Case);
        QVERIFY2(contains(res.failure.text(), "case-not-sqlite"), missing("case-not-sqlite", res.failure.text()));

        const auto h = usecases::caseHistory(path);
        QVERIFY2(h.ok(), h.failure.text().c_str());
        QCOMPARE(h.value->annotations.size(), std::size_t(0));
    }

    void expectRunMarksTheRunAskedFor()
    {
        const std::string path = copyOfSample("expect.faultline");
        const auto marked = usecases::expectRun(path, 1, "ci", "checked");
        QVERIFY2(marked.ok(), marked.failure.text().c_str());
        QCOMPARE(marked.value->run, std::int64_t(1));
        QVERIFY2(marked.value->expectation > 0, "expectRun returned no expectation id");
        const auto h = usecases::caseHistory(path);
        QVERIFY2(h.ok(), h.failure.text().c_str());
        QVERIFY2(h.value->expectation, "the expectation just marked is missing");
        QCOMPARE(h.value->expectation->runId, std::int64_t(1));
        QCOMPARE(h.value->expectation->author, std::string("ci"));
        QCOMPARE(h.value->expectation->outcome, std::string("infrastructure_failure"));
        QCOMPARE(h.value->expectationMisses.size(), std::size_t(0));

        const auto missingRun = usecases::expectRun(path, 9);
        QVERIFY2(!missingRun.ok(), "run 9 does not exist, yet it was marked expected");
        QCOMPARE(missingRun.failure.code, usecases::Exit::Case);
    }

    void runVerdictTextReadsAStoredRun()
    {
        const auto text = usecases::runVerdictText(m_sample, 1);
        QVERIFY2(text.ok(), text.failure.text().c_str());
        QVERIFY2(contains(*text.value, "Xid 149"), missing("Xid 149", *text.value));

        const auto none = usecases::runVerdictText(m_sample, 99);
        QVERIFY2(!none.ok(), "run 99 does not exist, yet its verdict was read");
        QCOMPARE(none.failure.code, usecases::Exit::Case);
        QCOMPARE(tests::diagCodes(none.failure.diagnostics), std::string("case-no-run"));

        const auto notACase = usecases::caseHistory(tests::sourcePath("README.md"));
        QVERIFY2(!notACase.ok(), "README.md was read as a case");
        QCOMPARE(notACase.failure.code, usecases::Exit::Case);
    }

    void aCaseThatCannotBeWrittenIsReadOnly()
    {
        if (::geteuid() == 0)
            QSKIP("root may write any file: run the tests as a normal user to check the read-only flag");
        const std::string path = copyOfSample("read-only.faultline");
        std::filesystem::permissions(path, std::filesystem::perms::owner_read);
        const auto h = usecases::caseHistory(path);
        QVERIFY2(h.ok(), h.failure.text().c_str());
        QCOMPARE(h.value->readOnly, true);
        usecases::AnnotateRequest r;
        r.casePath = path;
        r.text = "x";
        QCOMPARE(usecases::annotateCase(r).failure.code, usecases::Exit::Case);
    }

private:
    std::string copyOfSample(const char* name)
    {
        const std::string path = m_dir.filePath(QString::fromLatin1(name)).toStdString();
        std::filesystem::copy_file(m_sample, path);
        return path;
    }

    QTemporaryDir m_dir;
    std::string m_sample;
    std::int64_t m_cause = -1;
};

QTEST_MAIN(TstUseCases)
#include "tst_use_cases.moc"
