// SPDX-License-Identifier: Apache-2.0
// The evidence viewer reads only the lines on screen, even of a file of a million lines; it centres and highlights
// the asked line. The two EvidenceText sources (a bundle in memory, a case file's chunks) give the same lines.
#include "app/usecases/use_cases.h"
#include "core/casefile/case_text.h"
#include "core/model/evidence_text.h"
#include "tests/common/test_helpers.h"
#include "views/evidence/evidence_viewer.h"

#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>

using namespace faultline;

namespace {

/// A synthetic file of `lines` lines that counts how many lines were asked for.
class CountingText final : public core::EvidenceText
{
public:
    explicit CountingText(std::uint64_t lines)
        : m_lines(lines)
    { }
    std::size_t fileCount() const override { return 1; }
    std::string path(std::size_t) const override { return "huge.log"; }
    std::optional<std::size_t> find(std::string_view p) const override
    {
        return p == "huge.log" ? std::optional<std::size_t>(0) : std::nullopt;
    }
    std::uint64_t lineCount(std::size_t) override { return m_lines; }
    std::optional<std::string> line(std::size_t, std::uint64_t line, std::size_t) override
    {
        ++reads;
        if (line == 0 || line > m_lines)
            return std::nullopt;
        return "record " + std::to_string(line);
    }
    std::uint64_t reads = 0;

private:
    std::uint64_t m_lines;
};

std::shared_ptr<core::BundleInput> inputOf(std::vector<std::pair<std::string, std::string>> files)
{
    auto input = std::make_shared<core::BundleInput>();
    auto texts = std::make_shared<std::vector<std::string>>();
    texts->reserve(files.size());
    for (auto& [path, text] : files) {
        texts->push_back(text);
        core::InputFile f;
        f.path = path;
        f.bytes = texts->back();
        f.owner = texts;
        input->files.push_back(f);
    }
    return input;
}

} // namespace

class TstEvidenceViewer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void inputTextSplitsLines()
    {
        auto text =
            core::inputText(inputOf({ { "a.log", "one\ntwo\r\nthree" }, { "empty.log", "" }, { "nl.log", "x\n" } }));
        QCOMPARE(text->fileCount(), std::size_t(3));
        QCOMPARE(text->lineCount(0), std::uint64_t(3));
        QCOMPARE(*text->line(0, 1), std::string("one"));
        QCOMPARE(*text->line(0, 2), std::string("two"));
        QCOMPARE(*text->line(0, 3), std::string("three"));
        QVERIFY(!text->line(0, 4));
        QVERIFY(!text->line(0, 0));
        QCOMPARE(text->lineCount(1), std::uint64_t(0));
        QCOMPARE(text->lineCount(2), std::uint64_t(1));
        QCOMPARE(*text->line(0, 1, 2), std::string("on"));
        QCOMPARE(text->find("nl.log").value_or(99), std::size_t(2));
        QVERIFY(!text->find("none"));
    }

    void readsOnlyTheVisibleLinesOfAHugeFile()
    {
        auto text = std::make_shared<CountingText>(1000000);
        views::EvidenceViewer viewer;
        viewer.resize(600, 400);
        viewer.setText(text);
        viewer.show();
        viewer.showLine(0, 500000);
        viewer.grab();
        const auto [first, last] = viewer.visibleLines();
        QVERIFY2(first <= 500000 && 500000 <= last,
            qPrintable(QStringLiteral("line 500000 is not on screen: %1..%2").arg(first).arg(last)));
        QCOMPARE(viewer.highlightedLine(), std::uint64_t(500000));
        const auto onScreen = last - first + 1;
        QVERIFY2(text->reads <= 2 * onScreen + 4,
            qPrintable(QStringLiteral("%1 lines read for %2 on screen").arg(text->reads).arg(onScreen)));
        // Scrolling to the end reads that screen only.
        text->reads = 0;
        viewer.verticalScrollBar()->setValue(viewer.verticalScrollBar()->maximum());
        viewer.grab();
        QCOMPARE(viewer.visibleLines().second, std::uint64_t(1000000));
        QVERIFY2(text->reads <= 2 * onScreen + 4, qPrintable(QString::number(text->reads)));
    }

    void aCaseAndItsBundleGiveTheSameLines()
    {
        QTemporaryDir dir;
        usecases::BundleRequest request;
        request.paths = { tests::sourcePath("resources/samples/bundle-48213") };
        request.rulesDir = tests::sourcePath("rules");
        request.saveAs = dir.filePath(QStringLiteral("c.faultline")).toStdString();
        const auto made = usecases::analyseBundle(request);
        QVERIFY2(made.ok(), made.failure.text().c_str());
        auto fromBundle = core::inputText(made.value->analysis.input);
        std::vector<core::Diagnostic> errors;
        auto fromCase = core::caseText(request.saveAs, errors);
        QVERIFY2(fromCase, tests::diagCodes(errors).c_str());
        const auto a = fromBundle->find("nodes/node-02/dmesg.txt");
        const auto b = fromCase->find("nodes/node-02/dmesg.txt");
        QVERIFY(a && b);
        QCOMPARE(fromCase->lineCount(*b), fromBundle->lineCount(*a));
        for (std::uint64_t line = 1; line <= fromBundle->lineCount(*a); ++line)
            QCOMPARE(fromCase->line(*b, line).value_or("<none>"), fromBundle->line(*a, line).value_or("<none>"));
        QVERIFY(fromCase->line(*b, 70)->find("Xid") != std::string::npos);
    }

    void thePaneShowsAPathAndLine()
    {
        views::EvidencePane pane;
        pane.resize(700, 300);
        pane.setText(core::inputText(inputOf({ { "a.log", "one\ntwo\nthree\n" }, { "b.log", "x\ny\n" } })));
        QVERIFY(!pane.showLine(QStringLiteral("missing.log"), 1));
        QVERIFY(pane.showLine(QStringLiteral("b.log"), 2));
        QCOMPARE(pane.viewer()->file(), std::size_t(1));
        QCOMPARE(pane.position(), QStringLiteral("line 2 of 2"));
    }

    /// A right click selects the line under the pointer (the context menu acts on it), as a left click does; a
    /// story step's extra lines are kept until another file is shown.
    void aRightClickSelectsTheLineUnderIt()
    {
        views::EvidencePane pane;
        pane.resize(600, 300);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        pane.setText(core::inputText(inputOf({ { "a.log", "one\ntwo\nthree\nfour\n" }, { "b.log", "x\n" } })));
        QVERIFY(pane.showLine(QStringLiteral("a.log"), 1));
        auto* viewer = pane.viewer();
        viewer->setExtraHighlights({ 4, 2, 4 });
        QCOMPARE(viewer->extraHighlights(), (std::vector<std::uint64_t> { 2, 4 }));
        QSignalSpy selected(viewer, &views::EvidenceViewer::lineSelected);
        const auto at = viewer->linePosition(3);
        QVERIFY(at.has_value());
        QTest::mouseClick(viewer->viewport(), Qt::RightButton, {}, QPoint(at->x() + 40, at->y()));
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.first().at(1).value<std::uint64_t>(), std::uint64_t(3));
        QCOMPARE(viewer->highlightedLine(), std::uint64_t(3));
        // A right click inside the highlighted lines keeps them (the context menu acts on them); shift+click
        // highlights from the selected line to the clicked one; a plain click clears them.
        viewer->setExtraHighlights({ 2 });
        QTest::mouseClick(viewer->viewport(), Qt::RightButton, {}, QPoint(at->x() + 40, viewer->linePosition(2)->y()));
        QCOMPARE(viewer->highlightedLine(), std::uint64_t(3));
        QCOMPARE(viewer->extraHighlights(), (std::vector<std::uint64_t> { 2 }));
        QSignalSpy highlights(viewer, &views::EvidenceViewer::highlightsChanged);
        QTest::mouseClick(
            viewer->viewport(), Qt::LeftButton, Qt::ShiftModifier, QPoint(at->x() + 40, viewer->linePosition(1)->y()));
        QCOMPARE(viewer->highlightedLine(), std::uint64_t(3));
        QCOMPARE(viewer->extraHighlights(), (std::vector<std::uint64_t> { 1, 2 }));
        QCOMPARE(highlights.count(), 1);
        QTest::mouseClick(viewer->viewport(), Qt::LeftButton, {}, QPoint(at->x() + 40, viewer->linePosition(4)->y()));
        QCOMPARE(viewer->highlightedLine(), std::uint64_t(4));
        QVERIFY(viewer->extraHighlights().empty());
        QCOMPARE(highlights.count(), 2);
        viewer->setExtraHighlights({ 1 });
        QVERIFY(pane.showLine(QStringLiteral("b.log"), 1));
        QVERIFY(viewer->extraHighlights().empty());
    }

    void aLongJsonRecordScrollsToItsMessage()
    {
        // A journal export line: the message sits after long cursor fields, and its quotes are JSON-escaped.
        const std::string cursor(400, 'c');
        const std::string line =
            "{\"__CURSOR\":\"" + cursor + "\",\"MESSAGE\":\"NVRM: Xid (PCI:0000:c3:00): 149, \\\"Fatal\\\"\"}";
        views::EvidencePane pane;
        pane.resize(600, 300);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        pane.setText(core::inputText(inputOf({ { "journal.jsonl", "{}\n" + line + "\n{}\n" } })));
        QVERIFY(pane.showLine(
            QStringLiteral("journal.jsonl"), 2, QStringLiteral("NVRM: Xid (PCI:0000:c3:00): 149, \"Fatal\"")));
        auto* viewer = pane.viewer();
        const int expected = static_cast<int>(QString::fromStdString(line).indexOf(QStringLiteral("NVRM")));
        QCOMPARE(viewer->focusColumn(), expected);
        QVERIFY2(viewer->horizontalScrollBar()->value() > 0,
            qPrintable(QStringLiteral("expected the view scrolled right to column %1, got scroll %2")
                           .arg(expected)
                           .arg(viewer->horizontalScrollBar()->value())));
        // A long message is marked to its end; one whose tail the line words otherwise, by its beginning.
        const QString message = QStringLiteral("Attached GPUs : 8, Product Name : NVIDIA H100 80GB HBM3, ECC errors");
        pane.setText(core::inputText(inputOf({ { "q.txt", "    " + message.toStdString() + "\n" } })));
        QVERIFY(pane.showLine(QStringLiteral("q.txt"), 1, message));
        QCOMPARE(viewer->focusColumn(), 4);
        QCOMPARE(viewer->focusLength(), static_cast<int>(message.size()));
        QVERIFY(pane.showLine(QStringLiteral("q.txt"), 1, message.left(50) + QStringLiteral(" (cut)")));
        QCOMPARE(viewer->focusColumn(), 4);
        QCOMPARE(viewer->focusLength(), 48);
        pane.setText(core::inputText(inputOf({ { "journal.jsonl", "{}\n" + line + "\n{}\n" } })));
        // A focus the line does not hold leaves the view at the line's start.
        QVERIFY(pane.showLine(QStringLiteral("journal.jsonl"), 2, QStringLiteral("not in the line")));
        QCOMPARE(viewer->focusColumn(), -1);
        QCOMPARE(viewer->horizontalScrollBar()->value(), 0);
    }
};

QTEST_MAIN(TstEvidenceViewer)
#include "tst_evidence_viewer.moc"
