// SPDX-License-Identifier: Apache-2.0
// The timeline over the flagship sample (bundle-48213): one lane per node with the blamed node first, the cause's
// mark where the geometry puts it (and painted there), clicking it selects it, wheel and keys zoom and pan, a rubber
// band zooms. The last test saves a screenshot, tests/screenshots/timeline-bundle-48213.png in the build tree, for a
// human to look at.
#include "core/analysis/analyzer.h"
#include "importers/bundle_loader.h"
#include "tests/common/test_helpers.h"
#include "views/common/time_text.h"
#include "views/timeline/timeline_view.h"

#include <QApplication>
#include <QDir>
#include <QHelpEvent>
#include <QImage>
#include <QPalette>
#include <QPixmap>
#include <QSignalSpy>
#include <QStringList>
#include <QTest>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <memory>

using namespace faultline;
using views::LaneKind;
using views::MarkRole;
using views::TimelineView;

class TstTimelineView : public QObject
{
    Q_OBJECT
private:
    views::AnalysisResult m_result;

    std::unique_ptr<TimelineView> makeView(int width = 1400, int height = 520)
    {
        auto view = std::make_unique<TimelineView>();
        view->resize(width, height);
        view->setResult(m_result);
        view->show();
        if (!QTest::qWaitForWindowExposed(view.get()))
            return nullptr;
        return view;
    }

    int cause() const { return static_cast<int>(m_result.verdict->cause); }
    qint64 causeTime() const { return m_result.verdict->events[m_result.verdict->cause].timeNs; }

    static QString laneLabel(const TimelineView& view, std::uint32_t lane)
    {
        return QString::fromStdString(view.timelineGeometry().lanes()[lane].label);
    }

private Q_SLOTS:
    void initTestCase()
    {
        auto ev = std::make_shared<core::EvidenceSet>(
            importers::loadBundle({ tests::sourcePath("resources/samples/bundle-48213") }));
        auto verdict = std::make_shared<core::Verdict>(core::analyze(*ev, *tests::bundledCatalog()));
        QVERIFY(verdict->hasCause);
        QCOMPARE(QString::fromStdString(verdict->nodes.name(verdict->events[verdict->cause].node)),
            QStringLiteral("node-02"));
        m_result.evidence = ev;
        m_result.verdict = verdict;
    }

    void lanesPerNodeBlamedFirst()
    {
        auto view = makeView();
        QVERIFY(view);
        const auto& g = view->timelineGeometry();
        QStringList nodes;
        for (const auto& row : g.rows())
            if (g.lanes()[row.lane].kind == LaneKind::Node)
                nodes << laneLabel(*view, row.lane);
        QVERIFY2(!nodes.isEmpty() && nodes.front() == QStringLiteral("node-02"), qPrintable(nodes.join(u',')));
        for (const char* n : { "node-01", "node-02", "node-03", "node-04" })
            QVERIFY2(nodes.contains(QLatin1String(n)),
                qPrintable(nodes.join(u',') + QStringLiteral(" lacks ") + QLatin1String(n)));
        // The job row is pinned first; the blamed node is open on its GPUs.
        QCOMPARE(g.lanes()[g.rows().front().lane].kind, LaneKind::Job);
        QVERIFY(g.rows().front().pinned);
        std::size_t node02 = 0;
        while (node02 < g.rows().size() && laneLabel(*view, g.rows()[node02].lane) != QStringLiteral("node-02"))
            ++node02;
        QVERIFY(node02 < g.rows().size());
        QVERIFY(g.rows()[node02].expandable);
        QVERIFY(g.rows()[node02].expanded);
        QVERIFY(g.lanes()[g.rows()[node02].lane].blamed);
    }

    void windowRowWhenTheAnalysisSetOne()
    {
        views::AnalysisResult result = m_result;
        result.windowFromNs = causeTime() - 60'000'000'000;
        result.windowToNs = causeTime() + 600'000'000'000;
        TimelineView view;
        view.resize(1200, 500);
        view.setResult(result);
        const auto& g = view.timelineGeometry();
        QStringList pinned;
        for (const auto& row : g.rows())
            if (row.pinned)
                pinned << laneLabel(view, row.lane);
        QCOMPARE(pinned.join(u','), QStringLiteral("job 48213,step 0,window"));
        const auto& window = g.lanes()[g.rows()[2].lane];
        QCOMPARE(window.kind, LaneKind::Window);
        QCOMPARE(window.spans.front().fromNs, result.windowFromNs);
        QCOMPARE(window.spans.front().toNs, result.windowToNs);
    }

    void evidenceGapRows()
    {
        // bundle-48213 is fully covered, and the timeline says so; inconclusive-no-infra has no kernel log for node-03.
        {
            auto view = makeView();
            QVERIFY(view);
            const auto& g = view->timelineGeometry();
            QCOMPARE(laneLabel(*view, g.rows().back().lane), QStringLiteral("no evidence gaps"));
        }
        auto ev = std::make_shared<core::EvidenceSet>(
            importers::loadBundle({ tests::sourcePath("resources/samples/inconclusive-no-infra") }));
        views::AnalysisResult result;
        result.evidence = ev;
        result.verdict = std::make_shared<core::Verdict>(core::analyze(*ev, *tests::bundledCatalog()));
        TimelineView view;
        view.resize(1200, 500);
        view.setResult(result);
        const auto& g = view.timelineGeometry();
        QStringList gaps;
        bool gapSeen = false;
        for (const auto& row : g.rows()) {
            const auto& lane = g.lanes()[row.lane];
            if (lane.kind == LaneKind::Gap) {
                gapSeen = true;
                gaps << laneLabel(view, row.lane);
                QCOMPARE(lane.spans.size(), std::size_t(1));
            } else {
                QVERIFY2(!gapSeen, "gap rows come after every lane");
            }
        }
        QVERIFY2(gaps.contains(QStringLiteral("node-03 kernel: missing")), qPrintable(gaps.join(u',')));
    }

    void causeMarkIsWhereTheGeometrySays()
    {
        auto view = makeView();
        QVERIFY(view);
        const auto& g = view->timelineGeometry();
        const auto pos = view->markPosition(cause());
        QVERIFY(pos.has_value());
        // x: the column of the cause's time; y: the middle of the row showing the cause's lane, under node-02.
        QCOMPARE(pos->x(), g.columnOf(causeTime()) + 0.5);
        const int lane = view->laneOfEvent(cause());
        QVERIFY(lane >= 0);
        const std::int32_t row = g.rowOfLane(static_cast<std::uint32_t>(lane));
        QVERIFY(row >= 0);
        QCOMPARE(pos->y(), g.rowCenterY(static_cast<std::size_t>(row)));
        const auto& spec = g.lanes()[static_cast<std::size_t>(lane)];
        const std::uint32_t nodeLane =
            spec.kind == LaneKind::SubLane ? static_cast<std::uint32_t>(spec.parent) : static_cast<std::uint32_t>(lane);
        QCOMPARE(laneLabel(*view, nodeLane), QStringLiteral("node-02"));
        QVERIFY(g.isRowVisible(static_cast<std::size_t>(row)));
        QVERIFY(pos->x() > g.plotLeft() && pos->x() < g.plotLeft() + g.plotWidth());

        // The aggregation holds the cause there, and a hit test there finds it.
        std::vector<views::TimelineBucket> buckets;
        g.aggregate(buckets);
        int found = 0;
        for (const auto& b : buckets)
            if (b.role == MarkRole::Cause) {
                ++found;
                QCOMPARE(b.topEvent, static_cast<std::uint32_t>(cause()));
                QCOMPARE(b.row, static_cast<std::uint32_t>(row));
                QCOMPARE(static_cast<double>(b.column) + 0.5, pos->x());
            }
        QCOMPARE(found, 1);
        const views::TimelineHit hit = g.hitTest(pos->x(), pos->y());
        QCOMPARE(hit.kind, views::TimelineHit::Kind::Mark);
        QCOMPARE(hit.eventIndex, static_cast<qint64>(cause()));

        // And it is painted there: the pixel is not the lane's background.
        const QImage img = view->viewport()->grab().toImage();
        const QColor at = img.pixelColor(pos->toPoint());
        const QColor beside = img.pixelColor(
            QPoint(static_cast<int>(pos->x()), static_cast<int>(g.rowTop(static_cast<std::size_t>(row))) + 1));
        QVERIFY2(at != beside,
            qPrintable(QStringLiteral("mark pixel %1 equals the row background %2").arg(at.name(), beside.name())));
    }

    void clickingTheCauseSelectsIt()
    {
        auto view = makeView();
        QVERIFY(view);
        const auto pos = view->markPosition(cause());
        QVERIFY(pos.has_value());
        QSignalSpy selected(view.get(), &TimelineView::eventSelected);
        QSignalSpy cursor(view.get(), &TimelineView::cursorMoved);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, pos->toPoint());
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.at(0).at(0).toInt(), cause());
        QCOMPARE(view->selectedEvent(), cause());
        QCOMPARE(cursor.count(), 1);
        QCOMPARE(cursor.at(0).at(0).toLongLong(), causeTime());
        // A click on empty plot moves the cursor without selecting anything else.
        const auto& g = view->timelineGeometry();
        const QPoint empty(static_cast<int>(g.plotLeft()) + 3, static_cast<int>(g.rowCenterY(0)));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, empty);
        QCOMPARE(selected.count(), 1);
        QCOMPARE(cursor.count(), 2);
        QCOMPARE(view->cursorTime(), g.mapXToTime(empty.x()));
        // selectEvent from another pane does not echo back.
        view->selectEvent(0);
        QCOMPARE(selected.count(), 1);
        QCOMPARE(view->selectedEvent(), 0);
    }

    void clockAlignmentShiftsASkewedNodesLanes()
    {
        // node-02 is estimated 2 s ahead; node-01's 10 ms estimate is below the correction threshold.
        auto skewed = std::make_shared<core::Verdict>(*m_result.verdict);
        skewed->clockSkew.push_back({ "node-01", 10'000'000, 2, "test anchors" });
        skewed->clockSkew.push_back({ "node-02", 2'000'000'000, 3, "test anchors" });
        views::AnalysisResult r = m_result;
        r.verdict = skewed;
        TimelineView view;
        view.resize(1400, 520);
        view.setResult(r);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.hasClockSkew());
        QVERIFY(view.alignClocksAction()->isEnabled());
        QVERIFY(!view.clocksAligned());
        QCOMPARE(view.shownTime(cause()), causeTime());
        // An event on node-01 (below the threshold: never shifted).
        int onNode01 = -1;
        for (std::size_t i = 0; i < skewed->events.size() && onNode01 < 0; ++i)
            if (skewed->events[i].node != core::kNoNode && skewed->events[i].timeNs != INT64_MIN
                && skewed->nodes.name(skewed->events[i].node) == "node-01")
                onNode01 = static_cast<int>(i);
        QVERIFY2(onNode01 >= 0, "the sample has no timed event on node-01");
        const qint64 node01Time = skewed->events[static_cast<std::size_t>(onNode01)].timeNs;

        view.selectEvent(cause());
        const qint64 from = view.rangeFrom();
        const qint64 to = view.rangeTo();
        QSignalSpy changed(&view, &TimelineView::clocksAlignedChanged);
        view.alignClocksAction()->trigger();
        QCOMPARE(changed.count(), 1);
        QVERIFY(view.clocksAligned());
        QCOMPARE(view.shownTime(cause()), causeTime() - 2'000'000'000);
        QCOMPARE(view.shownTime(onNode01), node01Time);
        // The view keeps its range and selection; the cause's mark moved to its aligned time.
        QCOMPARE(view.rangeFrom(), from);
        QCOMPARE(view.rangeTo(), to);
        QCOMPARE(view.selectedEvent(), cause());
        const auto pos = view.markPosition(cause());
        QVERIFY(pos.has_value());
        QCOMPARE(pos->x(), view.timelineGeometry().columnOf(causeTime() - 2'000'000'000) + 0.5);
        // K toggles back to the times as logged.
        view.setFocus();
        QTest::keyClick(&view, Qt::Key_K);
        QVERIFY(!view.clocksAligned());
        QVERIFY(!view.alignClocksAction()->isChecked());
        QCOMPARE(view.shownTime(cause()), causeTime());

        // Without an estimate worth correcting, the toggle is off and disabled.
        view.setResult(m_result);
        QVERIFY(!view.hasClockSkew());
        QVERIFY(!view.alignClocksAction()->isEnabled());
        view.setClocksAligned(true);
        QVERIFY(!view.clocksAligned());
    }

    void searchHitsAreMarkedOnTheirNodesLane()
    {
        auto view = makeView();
        QVERIFY(view);
        const int lane = view->laneOfEvent(cause());
        const auto& spec = view->timelineGeometry().lanes()[static_cast<std::size_t>(lane)];
        const int nodeLane = spec.kind == LaneKind::SubLane ? spec.parent : lane;
        // Two hits in the cause's pixel column, one untimed, one of an unknown node, one of no node (the job row).
        view->setSearchMarks({ { causeTime(), "node-02" }, { causeTime() + 1, "node-02" }, { INT64_MIN, "node-02" },
            { causeTime(), "node-99" }, { causeTime(), "" } });
        QCOMPARE(view->searchMarksShown(), std::size_t(3));
        QCOMPARE(view->searchMarksNotShown(), std::size_t(2));
        const std::vector<int> ticks = view->searchTickColumns(nodeLane);
        const std::vector<int> expected { view->timelineGeometry().columnOf(causeTime()) };
        QCOMPARE(ticks, expected);
        // Painted: the tick's pixel at the top of node-02's row differs from the row's background beside it.
        const auto& g = view->timelineGeometry();
        const std::int32_t row = g.rowOfLane(static_cast<std::uint32_t>(nodeLane));
        QVERIFY(row >= 0);
        const QImage img = view->viewport()->grab().toImage();
        const int y = static_cast<int>(g.rowTop(static_cast<std::size_t>(row))) + 3;
        const QColor tick = img.pixelColor(ticks.front(), y);
        const QColor background = img.pixelColor(ticks.front() + 40, y);
        QVERIFY2(tick != background,
            qPrintable(QStringLiteral("tick pixel %1 equals the background %2").arg(tick.name(), background.name())));
        // A new result clears them.
        view->setResult(m_result);
        QCOMPARE(view->searchMarksShown(), std::size_t(0));
        QVERIFY(view->searchTickColumns(nodeLane).empty());
    }

    void withoutAnyTimeTheViewSaysSo()
    {
        // A pasted excerpt: events, but no time anywhere and no job window. No axis is drawn (it would start in
        // 1970); the view says why instead.
        auto untimed = std::make_shared<core::Verdict>(*m_result.verdict);
        for (auto& e : untimed->events)
            e.timeNs = INT64_MIN;
        untimed->scope.startNs = untimed->scope.endNs = INT64_MIN;
        views::AnalysisResult r;
        r.verdict = untimed;
        TimelineView view;
        view.resize(900, 300);
        view.setResult(r);
        QVERIFY(!view.hasTimes());
        QCOMPARE(view.timelineGeometry().itemCount(), std::size_t(0));
        QVERIFY(!view.viewport()->grab().isNull());
        view.setResult(m_result);
        QVERIFY(view.hasTimes());
    }

    void aSingleInstantTrailOpensAtAReadableScale()
    {
        // A verdict whose trail is one event (a pasted sacct row, one CUDA error): the view opens on the minutes
        // around it, not on a nanosecond window.
        auto single = std::make_shared<core::Verdict>(*m_result.verdict);
        single->trail.erase(std::remove_if(single->trail.begin(), single->trail.end(),
                                [&](const auto& t) { return t.event != single->cause; }),
            single->trail.end());
        QCOMPARE(single->trail.size(), std::size_t(1));
        views::AnalysisResult r = m_result;
        r.verdict = single;
        TimelineView view;
        view.resize(1200, 400);
        view.setResult(r);
        const auto& g = view.timelineGeometry();
        const qint64 at = single->events[single->cause].timeNs;
        QVERIFY2(g.rangeTo() - g.rangeFrom() >= 2 * views::kNsPerMin,
            qPrintable(QStringLiteral("the view opens on %1 ns, expected at least two minutes")
                           .arg(g.rangeTo() - g.rangeFrom())));
        QVERIFY2(g.rangeFrom() < at - views::kNsPerMin && at < g.rangeTo(),
            qPrintable(QStringLiteral("the cause at %1 is not inside the view %2..%3 with a minute before it")
                           .arg(at)
                           .arg(g.rangeFrom())
                           .arg(g.rangeTo())));
    }

    void aLargeResultIsIndexedOffTheUiThread()
    {
        // With the threshold at one event, the sample is "large": setResult returns at once with an empty timeline
        // that says it is indexing, a selection made meanwhile is kept, and the index lands later.
        TimelineView view;
        view.resize(1400, 520);
        view.setAsyncIndexThreshold(1);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy indexed(&view, &TimelineView::indexed);
        // A first result superseded by a second before it is indexed: only the second is shown, once.
        auto other = std::make_shared<core::Verdict>(*m_result.verdict);
        other->events.resize(1);
        views::AnalysisResult first = m_result;
        first.verdict = other;
        view.setResult(first);
        view.setResult(m_result);
        QCOMPARE(view.indexingEvents(), m_result.verdict->events.size());
        QVERIFY(!view.markPosition(cause()).has_value());
        view.selectEvent(cause());
        QTRY_COMPARE_WITH_TIMEOUT(indexed.count(), 1, 10000);
        QTest::qWait(50);
        QCOMPARE(indexed.count(), 1);
        QCOMPARE(view.indexingEvents(), std::size_t(0));
        QVERIFY(view.markPosition(cause()).has_value());
        QCOMPARE(view.selectedEvent(), cause());
        QCOMPARE(view.cursorTime(), causeTime());
    }

    void tooltipShowsRuleFieldsAndRawLine()
    {
        auto view = makeView();
        QVERIFY(view);
        const auto pos = view->markPosition(cause());
        QVERIFY(pos.has_value());
        QHelpEvent help(QEvent::ToolTip, pos->toPoint(), view->viewport()->mapToGlobal(pos->toPoint()));
        QApplication::sendEvent(view->viewport(), &help);
        QTRY_VERIFY(QToolTip::isVisible());
        const QString text = QToolTip::text();
        const core::Event& e = m_result.verdict->events[m_result.verdict->cause];
        for (const QString& want :
            { QString::fromStdString(e.ruleId), QStringLiteral("cause"), QStringLiteral("code = 149"),
                QStringLiteral("nodes/node-02/dmesg.txt:70"), QStringLiteral("NVRM: Xid (PCI:0000:c3:00): 149") })
            QVERIFY2(text.contains(want), qPrintable(QStringLiteral("tooltip lacks '%1': %2").arg(want, text)));
        QToolTip::hideText();
    }

    void wheelZoomNarrowsTheRange()
    {
        auto view = makeView();
        QVERIFY(view);
        const auto& g = view->timelineGeometry();
        const auto pos = view->markPosition(cause());
        QVERIFY(pos.has_value());
        QSignalSpy range(view.get(), &TimelineView::rangeChanged);
        const qint64 before = view->rangeTo() - view->rangeFrom();
        const QPointF at = *pos;
        QWheelEvent wheel(at, view->viewport()->mapToGlobal(at), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::NoModifier,
            Qt::NoScrollPhase, false);
        QApplication::sendEvent(view->viewport(), &wheel);
        QCOMPARE(range.count(), 1);
        const qint64 after = view->rangeTo() - view->rangeFrom();
        QVERIFY2(after < before, qPrintable(QStringLiteral("span %1 -> %2").arg(before).arg(after)));
        QCOMPARE(range.at(0).at(0).toLongLong(), view->rangeFrom());
        QCOMPARE(range.at(0).at(1).toLongLong(), view->rangeTo());
        // The cause stays under the pointer.
        QVERIFY2(std::abs(g.mapTimeToX(causeTime()) - at.x()) <= 1.0,
            qPrintable(QStringLiteral("cause moved to x=%1 from %2").arg(g.mapTimeToX(causeTime())).arg(at.x())));
    }

    void keysZoomAndPan()
    {
        auto view = makeView();
        QVERIFY(view);
        const qint64 span = view->rangeTo() - view->rangeFrom();
        QTest::keyClick(view.get(), Qt::Key_Minus, Qt::ControlModifier);
        QVERIFY(view->rangeTo() - view->rangeFrom() > span);
        QTest::keyClick(view.get(), Qt::Key_Equal, Qt::ControlModifier);
        QVERIFY(std::llabs((view->rangeTo() - view->rangeFrom()) - span) <= 2);
        const qint64 from = view->rangeFrom();
        QTest::keyClick(view.get(), Qt::Key_Right);
        QVERIFY(view->rangeFrom() > from);
        QTest::keyClick(view.get(), Qt::Key_Left);
        QVERIFY(std::llabs(view->rangeFrom() - from) <= 2);
        QTest::keyClick(view.get(), Qt::Key_Home);
        QCOMPARE(view->rangeFrom(), view->timelineGeometry().boundsFrom());
        QTest::keyClick(view.get(), Qt::Key_0, Qt::ControlModifier);
        QCOMPARE(view->rangeTo() - view->rangeFrom(), span);
    }

    void rubberBandZooms()
    {
        auto view = makeView();
        QVERIFY(view);
        const auto& g = view->timelineGeometry();
        const int y = static_cast<int>(g.rowCenterY(0)); // the pinned job row
        const QPoint a(static_cast<int>(g.plotLeft()) + 100, y);
        const QPoint b(static_cast<int>(g.plotLeft()) + 300, y);
        const qint64 ta = g.mapXToTime(a.x());
        const qint64 tb = g.mapXToTime(b.x());
        QSignalSpy range(view.get(), &TimelineView::rangeChanged);
        QTest::mousePress(view->viewport(), Qt::LeftButton, {}, a);
        QTest::mouseMove(view->viewport(), QPoint(a.x() + 50, y));
        QTest::mouseMove(view->viewport(), b);
        QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, b);
        QCOMPARE(range.count(), 1);
        QCOMPARE(view->rangeFrom(), ta);
        QCOMPARE(view->rangeTo(), tb);
    }

    void headerClickCollapsesTheBlamedNode()
    {
        auto view = makeView();
        QVERIFY(view);
        const auto& g = view->timelineGeometry();
        const std::size_t rowsBefore = g.rows().size();
        std::size_t r = 0;
        while (r < g.rows().size() && !g.rows()[r].expandable)
            ++r;
        QVERIFY(r < g.rows().size());
        QVERIFY(g.rows()[r].expanded);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, QPoint(10, static_cast<int>(g.rowCenterY(r))));
        QVERIFY(!g.rows()[r].expanded);
        QVERIFY(g.rows().size() < rowsBefore);
        // The cause now shows on the node's own row.
        QCOMPARE(g.rowOfLane(static_cast<std::uint32_t>(view->laneOfEvent(cause()))), static_cast<std::int32_t>(r));
    }

    void screenshot()
    {
        auto view = makeView(1400, 560);
        QVERIFY(view);
        // As an SRE would leave it: the cause selected (its links drawn), the cursor on it, a delta to the last
        // symptom.
        const auto pos = view->markPosition(cause());
        QVERIFY(pos.has_value());
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, pos->toPoint());
        QCOMPARE(view->selectedEvent(), cause());
        QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::ShiftModifier, pos->toPoint());
        const auto& g = view->timelineGeometry();
        std::int64_t last = causeTime();
        for (const auto& item : m_result.verdict->trail)
            last = std::max(last, m_result.verdict->events[item.event].timeNs);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::ShiftModifier,
            QPoint(static_cast<int>(g.mapTimeToX(last)), static_cast<int>(g.rowCenterY(0))));
        const QPixmap shot = view->grab();
        QVERIFY(!shot.isNull());
        const QString dir = QStringLiteral(FAULTLINE_SCREENSHOT_DIR);
        QVERIFY(QDir().mkpath(dir));
        const QString file = dir + QStringLiteral("/timeline-bundle-48213.png");
        QVERIFY(shot.save(file));
        qInfo("screenshot: %s", qPrintable(file));

        // The failure episode up close (the cause's first 40 s), and the same in a dark palette.
        view->setRange(causeTime() - 4'000'000'000, causeTime() + 40'000'000'000);
        QVERIFY(view->grab().save(dir + QStringLiteral("/timeline-bundle-48213-episode.png")));
        QPalette dark;
        dark.setColor(QPalette::Window, QColor(45, 45, 48));
        dark.setColor(QPalette::WindowText, QColor(220, 220, 220));
        dark.setColor(QPalette::Base, QColor(30, 30, 32));
        dark.setColor(QPalette::AlternateBase, QColor(38, 38, 41));
        dark.setColor(QPalette::Text, QColor(225, 225, 225));
        dark.setColor(QPalette::PlaceholderText, QColor(140, 140, 140));
        dark.setColor(QPalette::Mid, QColor(80, 80, 84));
        dark.setColor(QPalette::Highlight, QColor(42, 130, 218));
        dark.setColor(QPalette::HighlightedText, QColor(255, 255, 255));
        view->setPalette(dark);
        QVERIFY(view->grab().save(dir + QStringLiteral("/timeline-bundle-48213-dark.png")));
    }
};

QTEST_MAIN(TstTimelineView)
#include "tst_timeline_view.moc"
