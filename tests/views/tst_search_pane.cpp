// SPDX-License-Identifier: Apache-2.0
// The search pane and its hits model: the model passes QAbstractItemModelTester through resets and streamed appends
// and reports match positions in display characters; typing, Enter and the toggles emit requests with their options
// and a new generation; stale results are dropped; Enter and a double-click on a hit emit hitActivated. The last test
// runs the real search over the flagship sample and saves screenshots/search.png in the build tree for a person to
// look at.
#include "app/gui/search_controller.h"
#include "app/usecases/search.h"
#include "importers/bundle_loader.h"
#include "tests/common/test_helpers.h"
#include "views/search/search_pane.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDir>
#include <QHeaderView>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QToolButton>

using namespace faultline;
using views::SearchHitRow;
using views::SearchResultsModel;

namespace {

SearchHitRow row(const std::string& path, std::uint64_t line, const std::string& text, std::uint32_t start,
    std::uint32_t length, std::int64_t timeNs = INT64_MIN, const std::string& node = {})
{
    SearchHitRow h;
    h.path = path;
    h.line = line;
    h.text = text;
    h.matchStart = start;
    h.matchLength = length;
    h.timeNs = timeNs;
    h.node = node;
    return h;
}

std::vector<SearchHitRow> threeHits()
{
    return {
        row("nodes/node-01/dmesg.txt", 3, "first error here", 6, 5, 1793613600LL * 1000000000LL, "node-01"),
        row("nodes/node-02/dmesg.txt", 70, "NVRM: Xid 149", 6, 3, 1793613601LL * 1000000000LL, "node-02"),
        row("joblogs/job.out", 12, "no time error", 8, 5),
    };
}

} // namespace

class TstSearchPane : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void modelIsConsistent()
    {
        SearchResultsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), int(SearchResultsModel::ColumnCount));
        model.setHits(threeHits());
        QCOMPARE(model.rowCount(), 3);
        auto more = threeHits();
        more.push_back(row("f", 1, "größe: 3 µs", 11, 3));
        model.appendHits(std::move(more));
        QCOMPARE(model.rowCount(), 7);
        model.appendHits({});
        QCOMPARE(model.rowCount(), 7);
        QCOMPARE(model.index(1, SearchResultsModel::FileColumn).data().toString(),
            QStringLiteral("nodes/node-02/dmesg.txt"));
        QCOMPARE(model.index(1, SearchResultsModel::LineColumn).data().toString(), QStringLiteral("70"));
        QCOMPARE(model.index(1, SearchResultsModel::NodeColumn).data().toString(), QStringLiteral("node-02"));
        QCOMPARE(
            model.index(1, SearchResultsModel::TimeColumn).data().toString(), QStringLiteral("2026-11-02T10:00:01Z"));
        QCOMPARE(model.index(2, SearchResultsModel::TimeColumn).data().toString(), QString());
        QCOMPARE(model.index(2, SearchResultsModel::TimeColumn).data(SearchResultsModel::TimestampNsRole).toLongLong(),
            qint64(INT64_MIN));
        QCOMPARE(model.index(1, 0).data(SearchResultsModel::LineRole).toULongLong(), quint64(70));
        QCOMPARE(
            model.index(1, 0).data(SearchResultsModel::PathRole).toString(), QStringLiteral("nodes/node-02/dmesg.txt"));
        QCOMPARE(model.index(1, SearchResultsModel::TimeColumn).data(SearchResultsModel::SortRole).toLongLong(),
            qint64(1793613601LL * 1000000000LL));
        // Byte offsets into UTF-8 become positions in the displayed string.
        const QModelIndex utf8 = model.index(6, SearchResultsModel::TextColumn);
        const QString shown = utf8.data().toString();
        const int start = utf8.data(SearchResultsModel::MatchStartRole).toInt();
        const int length = utf8.data(SearchResultsModel::MatchLengthRole).toInt();
        QCOMPARE(shown.mid(start, length), QStringLiteral("µs"));
        QCOMPARE(model.headerData(SearchResultsModel::TextColumn, Qt::Horizontal).toString(), QStringLiteral("Text"));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void requestsCarryTheirOptionsAndANewGeneration()
    {
        views::SearchPane pane;
        QSignalSpy spy(&pane, &views::SearchPane::searchRequested);
        auto ev = std::make_shared<core::EvidenceSet>(
            importers::loadBundle({ tests::sourcePath("resources/samples/bundle-48213") }));
        pane.setEvidence(ev.get());
        auto* nodes = pane.findChild<QComboBox*>(QStringLiteral("nodeFilter"));
        auto* files = pane.findChild<QComboBox*>(QStringLiteral("sourceFilter"));
        QVERIFY(nodes->findText(QStringLiteral("node-02")) > 0);
        QVERIFY(files->findText(QStringLiteral("nodes/node-02/dmesg.txt")) > 0);
        QVERIFY(files->findText(QStringLiteral("All kernel logs")) > 0);
        // node-02 sorts before node-10 (numeric order), whatever the interning order.
        QVERIFY(nodes->findText(QStringLiteral("node-01")) < nodes->findText(QStringLiteral("node-02")));

        QTest::keyClicks(pane.searchBox(), QStringLiteral("Xid"));
        QCOMPARE(spy.count(), 0); // typing waits for a pause
        QTRY_COMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toString(), QStringLiteral("Xid"));
        auto opts = spy.at(0).at(1).value<views::SearchOptions>();
        QVERIFY(opts.ignoreCase);
        QVERIFY(!opts.literal);
        QVERIFY(opts.node.isEmpty() && opts.path.isEmpty() && opts.kind == -1);
        QCOMPARE(opts.fromNs, qint64(INT64_MIN));
        const quint64 first = opts.generation;

        QTest::keyClick(pane.searchBox(), Qt::Key_Return); // at once
        QCOMPARE(spy.count(), 2);
        QVERIFY(spy.at(1).at(1).value<views::SearchOptions>().generation > first);

        auto* matchCase = pane.findChild<QToolButton*>(QStringLiteral("matchCase"));
        auto* regex = pane.findChild<QToolButton*>(QStringLiteral("regularExpression"));
        matchCase->click();
        regex->click();
        nodes->setCurrentIndex(nodes->findText(QStringLiteral("node-02")));
        Q_EMIT nodes->activated(nodes->currentIndex());
        files->setCurrentIndex(files->findText(QStringLiteral("All kernel logs")));
        Q_EMIT files->activated(files->currentIndex());
        opts = spy.last().at(1).value<views::SearchOptions>();
        QVERIFY(!opts.ignoreCase);
        QVERIFY(opts.literal);
        QCOMPARE(opts.node, QStringLiteral("node-02"));
        QCOMPARE(opts.kind, int(core::SourceKind::Kernel));
        QVERIFY(opts.path.isEmpty());
        files->setCurrentIndex(files->findText(QStringLiteral("nodes/node-02/dmesg.txt")));
        Q_EMIT files->activated(files->currentIndex());
        opts = spy.last().at(1).value<views::SearchOptions>();
        QCOMPARE(opts.path, QStringLiteral("nodes/node-02/dmesg.txt"));
        QCOMPARE(opts.kind, -1);
        QVERIFY(opts.minSeverity.isEmpty());
        auto* severity = pane.findChild<QComboBox*>(QStringLiteral("severityFilter"));
        QVERIFY(severity);
        severity->setCurrentIndex(severity->findData(QStringLiteral("error")));
        Q_EMIT severity->activated(severity->currentIndex());
        QCOMPARE(spy.last().at(1).value<views::SearchOptions>().minSeverity, QStringLiteral("error"));

        // The visible-range toggle: disabled until there is a range, then it carries the window.
        auto* range = pane.findChild<QToolButton*>(QStringLiteral("inRange"));
        QVERIFY(!range->isEnabled());
        pane.setTimeRange(100, 200);
        QVERIFY(range->isEnabled());
        range->click();
        opts = spy.last().at(1).value<views::SearchOptions>();
        QCOMPARE(opts.fromNs, qint64(100));
        QCOMPARE(opts.toNs, qint64(200));

        // New evidence keeps the choices it still has.
        pane.setEvidence(ev.get());
        QCOMPARE(pane.options().node, QStringLiteral("node-02"));
        QCOMPARE(pane.options().path, QStringLiteral("nodes/node-02/dmesg.txt"));
        pane.setEvidence(nullptr);
        QVERIFY(pane.options().node.isEmpty());

        // Clearing the box searches nothing and clears the hits.
        const int before = spy.count();
        pane.setResults(pane.options().generation, threeHits(), {});
        pane.searchBox()->clear();
        QTest::qWait(400);
        QCOMPARE(spy.count(), before);
        QCOMPARE(pane.model()->rowCount(), 0);
    }

    void staleResultsAreDropped()
    {
        views::SearchPane pane;
        QSignalSpy spy(&pane, &views::SearchPane::searchRequested);
        pane.setPattern(QStringLiteral("error"));
        QTest::keyClick(pane.searchBox(), Qt::Key_Return);
        const quint64 old = spy.last().at(1).value<views::SearchOptions>().generation;
        pane.setPattern(QStringLiteral("error x"));
        QTest::keyClick(pane.searchBox(), Qt::Key_Return);
        const quint64 current = spy.last().at(1).value<views::SearchOptions>().generation;
        QVERIFY(current > old);
        pane.setBusy(true);
        pane.setResults(old, threeHits(), {});
        pane.appendHits(old, threeHits());
        pane.setFailed(old, QStringLiteral("stale"));
        QCOMPARE(pane.model()->rowCount(), 0);
        QCOMPARE(pane.status(), QStringLiteral("Searching…"));

        // Streamed: the first batch replaces what was shown, the next ones append; the end shows the summary.
        pane.appendHits(current, { threeHits()[0] });
        pane.appendHits(current, { threeHits()[1], threeHits()[2] });
        QCOMPARE(pane.model()->rowCount(), 3);
        QCOMPARE(pane.status(), QStringLiteral("Searching… 3 hits so far"));
        views::SearchSummary s;
        s.files = 36;
        s.bytes = 3 * 1024 * 1024 / 2;
        s.lines = 12000;
        s.hits = 3;
        s.truncated = true;
        s.maxHits = 3;
        s.elapsedUs = 12500;
        pane.finishResults(current, s);
        pane.setBusy(false);
        QCOMPARE(pane.status(), QStringLiteral("3 hits in 36 files · 1.5 MiB · 12000 lines · 12 ms · truncated at 3"));

        // A pattern RE2 rejects: its message, no hits.
        pane.setPattern(QStringLiteral("(abc"));
        QTest::keyClick(pane.searchBox(), Qt::Key_Return);
        const quint64 bad = spy.last().at(1).value<views::SearchOptions>().generation;
        pane.setFailed(bad, QStringLiteral("invalid RE2 pattern: missing ): (abc"));
        QCOMPARE(pane.status(), QStringLiteral("invalid RE2 pattern: missing ): (abc"));
        QCOMPARE(pane.model()->rowCount(), 0);

        // Stop and Escape ask to cancel while busy.
        QSignalSpy cancel(&pane, &views::SearchPane::cancelRequested);
        pane.setBusy(true);
        QTest::keyClick(pane.searchBox(), Qt::Key_Escape);
        QCOMPARE(cancel.count(), 1);
    }

    void enterAndDoubleClickActivateAHit()
    {
        views::SearchPane pane;
        pane.resize(900, 300);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QSignalSpy spy(&pane, &views::SearchPane::hitActivated);
        pane.setPattern(QStringLiteral("x"));
        QTest::keyClick(pane.searchBox(), Qt::Key_Return);
        pane.setResults(pane.options().generation, threeHits(), {});
        // Down from the search box moves to the first hit; Down again, Enter activates the second.
        pane.searchBox()->setFocus();
        QTest::keyClick(pane.searchBox(), Qt::Key_Down);
        QVERIFY(pane.resultsView()->hasFocus());
        QCOMPARE(pane.resultsView()->currentIndex().row(), 0);
        QTest::keyClick(pane.resultsView(), Qt::Key_Down);
        QTest::keyClick(pane.resultsView(), Qt::Key_Return);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toString(), QStringLiteral("nodes/node-02/dmesg.txt"));
        QCOMPARE(spy.at(0).at(1).toULongLong(), quint64(70));
        QCOMPARE(spy.at(0).at(2).toLongLong(), qint64(1793613601LL * 1000000000LL));
        // A double-click on the third.
        const QRect cell = pane.resultsView()->visualRect(pane.model()->index(2, SearchResultsModel::TextColumn));
        // As a window system delivers it: press and release, then the double-click (QTest's alone has no press).
        QTest::mouseClick(pane.resultsView()->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(spy.count(), 1); // a single click only selects
        QTest::mouseDClick(pane.resultsView()->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(spy.count(), 2);
        QCOMPARE(spy.at(1).at(0).toString(), QStringLiteral("joblogs/job.out"));
        QCOMPARE(spy.at(1).at(1).toULongLong(), quint64(12));
        QCOMPARE(spy.at(1).at(2).toLongLong(), qint64(INT64_MIN));
    }

    void screenshot()
    {
        // The real search over the flagship sample, handed to the pane as the main window would.
        const auto input = std::make_shared<core::BundleInput>(
            importers::collectBundle({ tests::sourcePath("resources/samples/bundle-48213") }));
        const auto evidence = std::make_shared<core::EvidenceSet>(importers::importBundle(*input));
        views::SearchPane pane;
        pane.resize(1280, 420);
        pane.setEvidence(evidence.get());
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QSignalSpy spy(&pane, &views::SearchPane::searchRequested);
        pane.setPattern(QStringLiteral("xid \\(pci[^)]*\\): \\d+|nvlink"));
        QTest::keyClick(pane.searchBox(), Qt::Key_Return);
        QCOMPARE(spy.count(), 1);
        const auto opts = spy.at(0).at(1).value<views::SearchOptions>();
        usecases::SearchRequest r;
        r.input = input;
        r.evidence = evidence;
        r.pattern = spy.at(0).at(0).toString().toStdString();
        r.ignoreCase = opts.ignoreCase;
        r.literal = opts.literal;
        r.maxHits = 25; // shows "truncated at 25"
        const auto res = usecases::searchEvidence(r);
        QVERIFY2(res.ok(), res.failure.text().c_str());
        auto rows = res.value->hits;
        const auto s = app::summaryOf(*res.value, r.maxHits);
        pane.setResults(opts.generation, std::move(rows), s);
        QVERIFY(pane.model()->rowCount() > 5);
        QVERIFY2(pane.status().contains(QLatin1String("hits in")), qPrintable(pane.status()));
        // The cause's line selected, as after Enter on it.
        for (int i = 0; i < pane.model()->rowCount(); ++i) {
            const auto& h = pane.model()->hits()[static_cast<std::size_t>(i)];
            if (h.path == "nodes/node-02/dmesg.txt" && h.line == 70)
                pane.resultsView()->selectRow(i);
        }
        QVERIFY(pane.resultsView()->currentIndex().isValid());
        const QString dir = QStringLiteral(FAULTLINE_SCREENSHOT_DIR);
        QVERIFY(QDir().mkpath(dir));
        const QString file = dir + QStringLiteral("/search.png");
        QVERIFY(pane.grab().save(file));
        qInfo("screenshot: %s", qPrintable(file));
    }
};

QTEST_MAIN(TstSearchPane)
#include "tst_search_pane.moc"
