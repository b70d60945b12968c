// SPDX-License-Identifier: Apache-2.0
// The case view: a hand-built CaseHistory shows its runs with their diffs, the expectation and whether the latest run
// meets it, the narrative, the annotations and the case's problems; the empty, loading, updating and error states;
// the buttons prompt and emit their requests, a run link asks for that run, and nothing is asked of a read-only case.
// The last test shows the history of a case of the flagship sample (three runs, the last one missing the expected
// verdict, notes, a narrative) and saves screenshots/case.png and case-dark.png in the build tree for a person to
// look at.
#include "app/usecases/case_history.h"
#include "app/usecases/use_cases.h"
#include "tests/common/test_helpers.h"
#include "views/case/case_view.h"

#include <QDir>
#include <QInputDialog>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTextBrowser>
#include <QUrl>

#include <filesystem>

using namespace faultline;
using views::CaseView;

namespace {

core::RunInfo run(std::int64_t id, const std::string& kind, const std::string& outcome)
{
    core::RunInfo r;
    r.id = id;
    r.kind = kind;
    r.author = "ana";
    r.createdAt = "2026-11-03T09:0" + std::to_string(id) + ":00Z";
    r.catalogName = "faultline-core";
    r.catalogVersion = "1.4.0";
    r.catalogHash = "0123456789abcdef0123";
    r.engineVersion = "0.9.0";
    r.outcome = outcome;
    r.domain = "infrastructure";
    r.subdomain = "gpu";
    r.summary = "Xid 149 on node-02 GPU 3";
    return r;
}

core::Annotation annotation(std::int64_t id, const std::string& kind, const std::string& target,
    const std::string& text, const std::string& path = {}, std::uint64_t line = 0)
{
    core::Annotation a;
    a.id = id;
    a.kind = kind;
    a.target = target;
    a.text = text;
    a.path = path;
    a.line = line;
    a.author = "ana";
    a.createdAt = "2026-11-03T10:00:00Z";
    if (target == "event") {
        a.runId = 1;
        a.eventIdx = 5;
    }
    return a;
}

/// Three runs: run 2 reproduces run 1, run 3 changed and misses the expectation marked on run 2.
core::CaseHistory handBuilt()
{
    core::CaseHistory h;
    h.path = "/cases/incident-48213.faultline";
    h.runs.push_back({ run(1, "create", "infrastructure_failure"), std::nullopt });
    h.runs.push_back({ run(2, "rerun", "infrastructure_failure"), core::RunDiff { 1, 2, true, {} } });
    h.runs.push_back({ run(3, "rerun", "workload_failure"),
        core::RunDiff { 2, 3, false, { "outcome: infrastructure_failure → workload_failure" } } });
    core::Expectation e;
    e.id = 1;
    e.runId = 2;
    e.outcome = "infrastructure_failure";
    e.causeType = "gpu.xid";
    e.causeNode = "node-02";
    e.author = "ci";
    e.createdAt = "2026-11-03T09:30:00Z";
    e.note = "checked in the postmortem";
    h.expectation = e;
    h.expectationMisses = { "outcome: expected infrastructure_failure, got workload_failure" };
    h.annotations = { annotation(1, "note", "case", "reseated the NVLink cable"),
        annotation(2, "note", "line", "the Xid line", "nodes/node-02/dmesg.txt", 70),
        annotation(3, "bookmark", "event", "the cause", "nodes/node-02/dmesg.txt", 70),
        annotation(4, "narrative", "case", "NVLink failure on node-02,\nNCCL timeouts followed") };
    h.problems = { core::makeDiagnostic(
        core::Severity::Error, "case-chunk-missing", "evidence chunk 12 is missing", h.path) };
    return h;
}

QPushButton* button(const CaseView& view, const char* name)
{
    return view.findChild<QPushButton*>(QString::fromLatin1(name));
}

/// The prompt a button opened (non-blocking), or null.
QInputDialog* prompt(const CaseView& view)
{
    return view.findChild<QInputDialog*>(QStringLiteral("casePrompt"));
}

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x30), base(0x1e, 0x1f, 0x22), text(0xdf, 0xe1, 0xe5);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9d, 0xa3));
    p.setColor(QPalette::Link, QColor(0x7c, 0xb7, 0xff));
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x65, 0xca));
    p.setColor(QPalette::HighlightedText, Qt::white);
    return p;
}

} // namespace

class TstCaseView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void showsTheHistory()
    {
        CaseView view;
        view.setHistory(handBuilt());
        QCOMPARE(view.state(), CaseView::State::Shown);
        QCOMPARE(view.casePath(), QStringLiteral("/cases/incident-48213.faultline"));
        const QString text = view.text();
        VERIFY_CONTAINS(text, QStringLiteral("incident-48213.faultline"));
        VERIFY_CONTAINS(text, QStringLiteral("3 runs · 3 annotations"));
        VERIFY_CONTAINS(text, QStringLiteral("Run 1 · create by ana"));
        VERIFY_CONTAINS(text, QStringLiteral("catalog faultline-core 1.4.0 (0123456789ab) · engine 0.9.0"));
        VERIFY_CONTAINS(text, QStringLiteral("same verdict as run 1"));
        VERIFY_CONTAINS(text, QStringLiteral("changed from run 2:"));
        VERIFY_CONTAINS(text, QStringLiteral("outcome: infrastructure_failure → workload_failure"));
        VERIFY_CONTAINS(
            text, QStringLiteral("Expected verdict: run 2 (infrastructure_failure, cause gpu.xid on node-02)"));
        VERIFY_CONTAINS(text, QStringLiteral("checked in the postmortem"));
        VERIFY_CONTAINS(text, QStringLiteral("The latest run (run 3) does not meet it"));
        VERIFY_CONTAINS(text, QStringLiteral("outcome: expected infrastructure_failure, got workload_failure"));
        VERIFY_CONTAINS(text, QStringLiteral("NVLink failure on node-02,\nNCCL timeouts followed"));
        VERIFY_CONTAINS(text, QStringLiteral("note on the case — reseated the NVLink cable"));
        VERIFY_CONTAINS(text, QStringLiteral("note on nodes/node-02/dmesg.txt:70 — the Xid line"));
        VERIFY_CONTAINS(text, QStringLiteral("bookmark on event 1:5 (nodes/node-02/dmesg.txt:70) — the cause"));
        VERIFY_CONTAINS(text, QStringLiteral("evidence chunk 12 is missing [case-chunk-missing]"));
        QCOMPARE(button(view, "addNote")->isEnabled(), true);
        QCOMPARE(button(view, "narrative")->isEnabled(), true);
        QCOMPARE(button(view, "markExpected")->isEnabled(), true);

        // The same case meeting its expectation, without problems, narrative or annotations.
        auto met = handBuilt();
        met.runs.pop_back();
        met.expectationMisses.clear();
        met.annotations.clear();
        met.problems.clear();
        view.setHistory(met);
        const QString metText = view.text();
        VERIFY_CONTAINS(metText, QStringLiteral("The latest run (run 2) meets it."));
        VERIFY_LACKS(metText, QStringLiteral("does not meet it"));
        VERIFY_LACKS(metText, QStringLiteral("Narrative"));
        VERIFY_LACKS(metText, QStringLiteral("Annotations"));
        VERIFY_LACKS(metText, QStringLiteral("Problems"));

        // Without an expectation, the view says how to record one.
        met.expectation.reset();
        view.setHistory(met);
        VERIFY_CONTAINS(view.text(), QStringLiteral("No expected verdict yet"));
    }

    void aReadOnlyCaseOffersNoWrites()
    {
        CaseView view;
        auto h = handBuilt();
        h.readOnly = true;
        view.setHistory(h);
        VERIFY_CONTAINS(view.text(), QStringLiteral("read-only"));
        QCOMPARE(button(view, "addNote")->isEnabled(), false);
        QCOMPARE(button(view, "narrative")->isEnabled(), false);
        QCOMPARE(button(view, "markExpected")->isEnabled(), false);
    }

    void showsTheEmptyLoadingAndErrorStates()
    {
        CaseView view;
        QCOMPARE(view.state(), CaseView::State::Empty);
        VERIFY_CONTAINS(
            view.text(), QStringLiteral("No case open. Save the analysis as a case (File ▸ Save as Case…)"));
        QCOMPARE(button(view, "addNote")->isEnabled(), false);
        QCOMPARE(button(view, "markExpected")->isEnabled(), false);

        const QString path = QStringLiteral("/cases/incident-48213.faultline");
        view.showLoading(path);
        QCOMPARE(view.state(), CaseView::State::Loading);
        VERIFY_CONTAINS(view.text(), QStringLiteral("Reading the case"));
        QCOMPARE(button(view, "addNote")->isEnabled(), false);

        // An update of the shown case keeps it in view, marked as updating, with the buttons off until it arrives.
        view.setHistory(handBuilt());
        view.showLoading(path);
        QCOMPARE(view.state(), CaseView::State::Loading);
        VERIFY_CONTAINS(view.text(), QStringLiteral("updating…"));
        VERIFY_CONTAINS(view.text(), QStringLiteral("same verdict as run 1"));
        QCOMPARE(button(view, "addNote")->isEnabled(), false);
        view.setHistory(handBuilt());
        VERIFY_LACKS(view.text(), QStringLiteral("updating…"));
        QCOMPARE(button(view, "addNote")->isEnabled(), true);

        // Another case loading replaces the one shown.
        view.showLoading(QStringLiteral("/cases/other.faultline"));
        VERIFY_LACKS(view.text(), QStringLiteral("same verdict as run 1"));
        VERIFY_CONTAINS(view.text(), QStringLiteral("other.faultline"));

        view.showError(QStringLiteral("/cases/broken.faultline"),
            QStringLiteral("cannot open the case /cases/broken.faultline\n/cases/broken.faultline: error: the file is "
                           "not an SQLite database [case-not-sqlite]"));
        QCOMPARE(view.state(), CaseView::State::Error);
        VERIFY_CONTAINS(view.text(), QStringLiteral("Cannot read the case"));
        VERIFY_CONTAINS(view.text(), QStringLiteral("[case-not-sqlite]"));
        QCOMPARE(button(view, "addNote")->isEnabled(), false);

        view.showEmpty();
        QCOMPARE(view.state(), CaseView::State::Empty);
        QCOMPARE(view.casePath(), QString());
    }

    void buttonsPromptAndEmitTheirRequests()
    {
        CaseView view;
        view.setHistory(handBuilt());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy notes(&view, &CaseView::noteRequested);
        QSignalSpy narratives(&view, &CaseView::narrativeRequested);
        QSignalSpy expects(&view, &CaseView::expectRequested);

        QTest::mouseClick(button(view, "addNote"), Qt::LeftButton);
        QInputDialog* d = prompt(view);
        QVERIFY2(d, "Add Note… opened no prompt");
        d->setTextValue(QStringLiteral("link 07 reseated"));
        d->accept();
        QCOMPARE(notes.count(), 1);
        QCOMPARE(notes.at(0).at(0).toString(), QStringLiteral("link 07 reseated"));
        QTRY_VERIFY2(!prompt(view), "the accepted prompt is still open");

        // A blank note and a cancelled prompt ask for nothing.
        QTest::mouseClick(button(view, "addNote"), Qt::LeftButton);
        QVERIFY2(prompt(view), "Add Note… opened no prompt");
        prompt(view)->setTextValue(QStringLiteral("   "));
        prompt(view)->accept();
        QTRY_VERIFY2(!prompt(view), "the accepted prompt is still open");
        QTest::mouseClick(button(view, "addNote"), Qt::LeftButton);
        QVERIFY2(prompt(view), "Add Note… opened no prompt");
        prompt(view)->reject();
        QTRY_VERIFY2(!prompt(view), "the cancelled prompt is still open");
        QCOMPARE(notes.count(), 1);

        // The narrative prompt starts from the current narrative.
        QTest::mouseClick(button(view, "narrative"), Qt::LeftButton);
        QVERIFY2(prompt(view), "Narrative… opened no prompt");
        QCOMPARE(prompt(view)->textValue(), QStringLiteral("NVLink failure on node-02,\nNCCL timeouts followed"));
        prompt(view)->setTextValue(QStringLiteral("NVLink failure on node-02"));
        prompt(view)->accept();
        QCOMPARE(narratives.count(), 1);
        QCOMPARE(narratives.at(0).at(0).toString(), QStringLiteral("NVLink failure on node-02"));
        QTRY_VERIFY2(!prompt(view), "the accepted prompt is still open");

        QTest::mouseClick(button(view, "markExpected"), Qt::LeftButton);
        QVERIFY2(prompt(view), "Mark Latest Run Expected opened no prompt");
        prompt(view)->setTextValue(QStringLiteral("postmortem"));
        prompt(view)->accept();
        QCOMPARE(expects.count(), 1);
        QCOMPARE(expects.at(0).at(0).toString(), QStringLiteral("postmortem"));
        QTRY_VERIFY2(!prompt(view), "the accepted prompt is still open");

        // A prompt answered after another case came into view asks nothing about either case.
        QTest::mouseClick(button(view, "addNote"), Qt::LeftButton);
        QVERIFY2(prompt(view), "Add Note… opened no prompt");
        auto other = handBuilt();
        other.path = "/cases/other.faultline";
        view.setHistory(other);
        prompt(view)->setTextValue(QStringLiteral("meant for the first case"));
        prompt(view)->accept();
        QCOMPARE(notes.count(), 1);
    }

    void aRunLinkAsksForThatRun()
    {
        CaseView view;
        view.setHistory(handBuilt());
        QSignalSpy runs(&view, &CaseView::runRequested);
        auto* browser = view.findChild<QTextBrowser*>();
        QVERIFY2(browser, "the view has no text browser");
        VERIFY_CONTAINS(browser->toHtml(), QStringLiteral("href=\"run:2\""));
        Q_EMIT browser->anchorClicked(QUrl(QStringLiteral("run:2")));
        QCOMPARE(runs.count(), 1);
        QCOMPARE(runs.at(0).at(0).toLongLong(), qint64(2));
    }

    void screenshot()
    {
        // A case of the flagship sample as an SRE leaves it: run 1, a re-run that reproduces it and is marked
        // expected, a re-run with a catalog lacking the GPU pack that changes the verdict, two notes and a narrative.
        qputenv("FAULTLINE_AUTHOR", "ana");
        QTemporaryDir dir;
        usecases::BundleRequest request;
        request.paths = { tests::sourcePath("resources/samples/bundle-48213") };
        request.rulesDir = tests::sourcePath("rules");
        request.saveAs = dir.filePath(QStringLiteral("incident-48213.faultline")).toStdString();
        const auto made = usecases::analyseBundle(request);
        QVERIFY2(made.ok(), made.failure.text().c_str());
        const std::string noGpu = dir.filePath(QStringLiteral("rules-nogpu")).toStdString();
        std::filesystem::copy(tests::sourcePath("rules"), noGpu, std::filesystem::copy_options::recursive);
        std::filesystem::remove(noGpu + "/packs/gpu.yaml");
        for (const auto& rules : { tests::sourcePath("rules"), noGpu }) {
            const auto again = usecases::reproduceCase({ request.saveAs, usecases::Rules::Current, rules, 0 });
            QVERIFY2(again.ok(), again.failure.text().c_str());
            const auto added = usecases::addRun(*again.value);
            QVERIFY2(added.ok(), added.failure.text().c_str());
            if (rules == noGpu)
                break;
            const auto expected = usecases::expectRun(request.saveAs, 0, "ana", "checked in the postmortem");
            QVERIFY2(expected.ok(), expected.failure.text().c_str());
        }
        usecases::AnnotateRequest note;
        note.casePath = request.saveAs;
        note.author = "ana";
        note.text = "link 07 was reseated; the GPU stays drained until the vendor RMA";
        note.target = usecases::AnnotationTarget::lineOf("nodes/node-02/dmesg.txt", 70);
        QVERIFY2(usecases::annotateCase(note).ok(), "the line note was not added");
        note.text = "INC-2291: job 48213 lost 3 h of training";
        note.target = {};
        QVERIFY2(usecases::annotateCase(note).ok(), "the case note was not added");
        note.kind = usecases::AnnotationKind::Narrative;
        note.text = "NVLink failure on node-02 (Xid 149) at 10:12; the NCCL timeouts on the other nodes followed it.";
        QVERIFY2(usecases::annotateCase(note).ok(), "the narrative was not added");
        const auto history = usecases::caseHistory(request.saveAs);
        QVERIFY2(history.ok(), history.failure.text().c_str());
        QCOMPARE(history.value->runs.size(), std::size_t(3));
        QVERIFY2(!history.value->expectationMisses.empty(), "run 3 (no GPU pack) should miss the expectation");

        CaseView view;
        view.resize(460, 820);
        view.setHistory(*history.value);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        VERIFY_CONTAINS(view.text(), QStringLiteral("does not meet it"));
        const QString out = QStringLiteral(FAULTLINE_SCREENSHOT_DIR);
        QVERIFY(QDir().mkpath(out));
        const QString file = out + QStringLiteral("/case.png");
        QVERIFY(view.grab().save(file));
        qInfo("screenshot: %s", qPrintable(file));
        view.setPalette(darkPalette());
        QTest::qWait(20);
        QVERIFY(view.grab().save(out + QStringLiteral("/case-dark.png")));
    }
};

QTEST_MAIN(TstCaseView)
#include "tst_case_view.moc"
