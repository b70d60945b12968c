// SPDX-License-Identifier: Apache-2.0
// The timeline's geometry without a GUI (no QApplication): time <-> x, zoom, pan, fit, lane order and layout, hit
// testing and per-pixel aggregation, up to a million events. Lists and structures are compared as QStrings so a
// failure prints the expected and the actual value.
#include "views/timeline/timeline_geometry.h"

#include <QElapsedTimer>
#include <QString>
#include <QStringList>
#include <QTest>

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace faultline::views;

namespace {

constexpr std::int64_t kSec = 1'000'000'000;
constexpr std::int64_t kT0 = 1'793'614'501'123'456'789; // 2026-11-02T10:15:01.123456789Z

LaneSpec lane(LaneKind kind, const char* label, std::int32_t parent = -1, bool blamed = false)
{
    LaneSpec l;
    l.kind = kind;
    l.label = label;
    l.parent = parent;
    l.blamed = blamed;
    return l;
}

TimelineItem item(std::int64_t t, std::uint32_t laneIndex, MarkRole role, std::uint32_t event)
{
    TimelineItem it;
    it.timeNs = t;
    it.lane = laneIndex;
    it.role = role;
    it.eventIndex = event;
    return it;
}

/// Row labels top to bottom, "+" marking sub-lanes.
QString rowLabels(const TimelineGeometry& g)
{
    QStringList out;
    for (const auto& r : g.rows())
        out << QString::fromStdString((r.depth ? "+" : "") + g.lanes()[r.lane].label);
    return out.join(QLatin1Char(','));
}

QString bucketText(const TimelineBucket& b)
{
    return QStringLiteral("row %1 col %2 n=%3 %4 top=%5 first=%6")
        .arg(b.row)
        .arg(b.column)
        .arg(b.count)
        .arg(QString::fromLatin1(markRoleName(b.role)))
        .arg(b.topEvent)
        .arg(b.firstEvent);
}

/// A small picture: a job row, four nodes (node-02 blamed, with two GPU sub-lanes), a gap row.
TimelineGeometry fourNodes()
{
    std::vector<LaneSpec> lanes { lane(LaneKind::Job, "job 48213"), lane(LaneKind::Node, "node-01"),
        lane(LaneKind::Node, "node-02", -1, true), lane(LaneKind::Node, "node-03"), lane(LaneKind::Node, "node-04"),
        lane(LaneKind::SubLane, "GPU c3", 2), lane(LaneKind::SubLane, "GPU c4", 2),
        lane(LaneKind::Gap, "node-04 kernel: missing") };
    std::vector<TimelineItem> items {
        item(kT0 + 1 * kSec, 4, MarkRole::Context, 0), // node-04: only context, earliest
        item(kT0 + 2 * kSec, 5, MarkRole::Cause, 1), // node-02 GPU c3
        item(kT0 + 3 * kSec, 3, MarkRole::Symptom, 2), // node-03
        item(kT0 + 4 * kSec, 6, MarkRole::Symptom, 3), // node-02 GPU c4
        item(kT0 + 5 * kSec, 1, MarkRole::Symptom, 4), // node-01
        item(kT0 + 6 * kSec, 2, MarkRole::Teardown, 5), // node-02 itself
        item(kT0 + 7 * kSec, 4, MarkRole::Symptom, 6), // node-04
    };
    TimelineGeometry g;
    g.setPlotArea(200, 40, 1000, 600);
    g.setData(std::move(lanes), std::move(items));
    g.setBounds(kT0, kT0 + 10 * kSec);
    return g;
}

} // namespace

class TstTimelineGeometry : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void roundTrip_data()
    {
        QTest::addColumn<qint64>("span");
        QTest::addRow("one-microsecond") << qint64(1000);
        QTest::addRow("one-second") << qint64(kSec);
        QTest::addRow("twelve-minutes") << qint64(12 * 60 * kSec);
        QTest::addRow("two-days") << qint64(2 * 86400 * kSec);
    }
    void roundTrip()
    {
        QFETCH(qint64, span);
        TimelineGeometry g;
        g.setPlotArea(180, 30, 1234, 500);
        g.setBounds(kT0 - 3 * 86400 * kSec, kT0 + 3 * 86400 * kSec);
        g.setRange(kT0, kT0 + span);
        QCOMPARE(g.rangeFrom(), kT0);
        QCOMPARE(g.rangeTo(), kT0 + span);
        QCOMPARE(g.mapTimeToX(kT0), 180.0);
        QCOMPARE(g.mapTimeToX(kT0 + span), 180.0 + 1234.0);
        for (int k = 0; k <= 16; ++k) {
            const std::int64_t t = kT0 + span * k / 16 + (k % 3);
            const std::int64_t back = g.mapXToTime(g.mapTimeToX(t));
            QVERIFY2(std::llabs(back - t) <= 1,
                qPrintable(
                    QStringLiteral("t=%1 came back as %2 (x=%3)").arg(t).arg(back).arg(g.mapTimeToX(t), 0, 'f', 6)));
        }
        // And x -> time -> x, to a pixel's rounding.
        for (double x = 180; x <= 1414; x += 77.25)
            QVERIFY(std::abs(g.mapTimeToX(g.mapXToTime(x)) - x) <= 0.5 / g.nsPerPixel() + 1e-9);
    }

    void zoomKeepsTheAnchorUnderTheCursor_data()
    {
        QTest::addColumn<double>("anchorX");
        QTest::addColumn<double>("factor");
        QTest::addRow("in-at-left-third") << 533.0 << 2.0;
        QTest::addRow("in-hard-near-right") << 1390.0 << 37.5;
        QTest::addRow("out-at-centre") << 800.0 << 0.5;
        QTest::addRow("wheel-notch") << 250.0 << 1.25;
    }
    void zoomKeepsTheAnchorUnderTheCursor()
    {
        QFETCH(double, anchorX);
        QFETCH(double, factor);
        TimelineGeometry g;
        g.setPlotArea(200, 30, 1200, 400);
        g.setBounds(kT0 - 3600 * kSec, kT0 + 3600 * kSec);
        g.setRange(kT0, kT0 + 600 * kSec);
        const std::int64_t before = g.mapXToTime(anchorX);
        const std::int64_t span = g.span();
        g.zoomAt(factor, anchorX);
        const std::int64_t after = g.mapXToTime(anchorX);
        QVERIFY2(std::llabs(after - before) <= 2,
            qPrintable(QStringLiteral("anchor time moved by %1 ns").arg(after - before)));
        QCOMPARE(g.span(), static_cast<std::int64_t>(std::llround(static_cast<double>(span) / factor)));
    }
    void zoomClampsToMinimumSpanAndBounds()
    {
        TimelineGeometry g;
        g.setPlotArea(0, 0, 1000, 400);
        g.setBounds(kT0, kT0 + 60 * kSec);
        g.setMinimumSpan(5000);
        g.zoomAt(1e12, 500);
        QCOMPARE(g.span(), qint64(5000));
        g.zoomAt(1e-12, 500);
        QCOMPARE(g.rangeFrom(), kT0);
        QCOMPARE(g.rangeTo(), kT0 + 60 * kSec);
    }

    void pan()
    {
        TimelineGeometry g;
        g.setPlotArea(100, 0, 1000, 400);
        g.setBounds(kT0, kT0 + 100 * kSec);
        g.setRange(kT0 + 10 * kSec, kT0 + 20 * kSec); // 10 ms per pixel
        g.panByPixels(250);
        QCOMPARE(g.rangeFrom(), kT0 + 12'500'000'000);
        QCOMPARE(g.span(), 10 * kSec);
        g.panByPixels(-100);
        QCOMPARE(g.rangeFrom(), kT0 + 11'500'000'000);
        // Against the bounds: the span is kept, the range stops at the edge.
        g.panByPixels(1e9);
        QCOMPARE(g.rangeTo(), kT0 + 100 * kSec);
        QCOMPARE(g.span(), 10 * kSec);
        g.panByPixels(-1e9);
        QCOMPARE(g.rangeFrom(), kT0);
    }

    void fit()
    {
        TimelineGeometry g;
        g.setPlotArea(100, 0, 1000, 400);
        g.setBounds(kT0 - 3600 * kSec, kT0 + 3600 * kSec);
        g.fit(kT0, kT0 + 100 * kSec, 0.1);
        QCOMPARE(g.rangeFrom(), kT0 - 10 * kSec);
        QCOMPARE(g.rangeTo(), kT0 + 110 * kSec);
        // A single instant is widened to the minimum span, centred.
        g.fit(kT0, kT0, 0.1);
        QCOMPARE(g.span(), TimelineGeometry::kDefaultMinimumSpanNs);
        QCOMPARE(g.rangeFrom(), kT0 - TimelineGeometry::kDefaultMinimumSpanNs / 2);
        // Sticking out of the bounds: shifted inside, not shrunk.
        g.setRange(kT0 + 3500 * kSec, kT0 + 3800 * kSec);
        QCOMPARE(g.rangeTo(), kT0 + 3600 * kSec);
        QCOMPARE(g.span(), 300 * kSec);
        g.fitAll();
        QCOMPARE(g.rangeFrom(), g.boundsFrom());
        QCOMPARE(g.rangeTo(), g.boundsTo());
    }

    void ticksAreRoundAndApart()
    {
        TimelineGeometry g;
        g.setPlotArea(0, 0, 1000, 400);
        g.setBounds(kT0 - 3600 * kSec, kT0 + 3600 * kSec);
        g.setRange(kT0, kT0 + 12 * 60 * kSec); // 0.72 s per pixel
        QCOMPARE(g.tickStep(90), 2 * 60 * kSec); // 90 px = 64.8 s -> 2 min
        const auto ticks = g.ticks(90);
        QVERIFY(!ticks.empty());
        for (std::size_t i = 0; i < ticks.size(); ++i) {
            QCOMPARE(ticks[i] % (2 * 60 * kSec), qint64(0));
            QVERIFY(ticks[i] >= g.rangeFrom() && ticks[i] <= g.rangeTo());
            if (i)
                QVERIFY(g.mapTimeToX(ticks[i]) - g.mapTimeToX(ticks[i - 1]) >= 90);
        }
        g.setRange(kT0, kT0 + 2000); // 2 ns per pixel
        QCOMPARE(g.tickStep(90), qint64(200));
    }

    void lanesOrderBlamedFirstThenFirstRelevantEvent()
    {
        const TimelineGeometry g = fourNodes();
        // node-02 is blamed; node-03's first symptom (t+3) precedes node-01's (t+5); node-04 only has a context event
        // before them, which does not count. Pinned rows first, gaps last.
        QCOMPARE(rowLabels(g), QStringLiteral("job 48213,node-02,node-03,node-01,node-04,node-04 kernel: missing"));
        QCOMPARE(g.firstRelevantNs(2), kT0 + 2 * kSec); // node-02 through its GPU sub-lane
        QVERIFY(g.rows()[0].pinned);
        QVERIFY(!g.rows()[1].pinned);
        QCOMPARE(g.pinnedHeight(), g.metrics().spanRowHeight);
    }

    void expandingMovesTheLanesBelow()
    {
        TimelineGeometry g = fourNodes();
        const auto rowY = [&](std::uint32_t l) { return g.rows()[static_cast<std::size_t>(g.rowOfLane(l))].y; };
        const double node03 = rowY(3);
        const double gap = rowY(7);
        QCOMPARE(g.rowOfLane(5), g.rowOfLane(2)); // collapsed: the GPU lane shows on its node's row
        QVERIFY(g.rows()[static_cast<std::size_t>(g.rowOfLane(2))].expandable);
        g.setExpanded(2, true);
        QCOMPARE(rowLabels(g),
            QStringLiteral("job 48213,node-02,+GPU c3,+GPU c4,node-03,node-01,node-04,node-04 kernel: missing"));
        QCOMPARE(rowY(3), node03 + 2 * g.metrics().subRowHeight);
        QCOMPARE(rowY(7), gap + 2 * g.metrics().subRowHeight);
        QVERIFY(g.rowOfLane(5) != g.rowOfLane(2));
        QCOMPARE(g.contentHeight(),
            g.metrics().spanRowHeight + 4 * g.metrics().nodeRowHeight + 2 * g.metrics().subRowHeight
                + g.metrics().gapRowHeight);
        g.toggleExpanded(2);
        QCOMPARE(rowY(3), node03);
        QCOMPARE(rowY(7), gap);
    }

    void collapsedNodeShowsItsSubLanes()
    {
        TimelineGeometry g = fourNodes();
        const auto node02 = static_cast<std::size_t>(g.rowOfLane(2));
        std::vector<TimelineBucket> b;
        g.aggregateRow(node02, g.rangeFrom(), g.rangeTo(), b);
        QStringList got;
        for (const auto& x : b)
            got << QString::fromLatin1(markRoleName(x.role));
        QCOMPARE(got.join(QLatin1Char(',')), QStringLiteral("cause,symptom,teardown"));
        g.setExpanded(2, true);
        b.clear();
        g.aggregateRow(static_cast<std::size_t>(g.rowOfLane(2)), g.rangeFrom(), g.rangeTo(), b);
        QCOMPARE(b.size(), std::size_t(1)); // only node-02's own teardown
        QCOMPARE(b.front().role, MarkRole::Teardown);
    }

    void scrollingKeepsPinnedRowsAndHitsTheRightRow()
    {
        TimelineGeometry g = fourNodes();
        g.setPlotArea(200, 40, 1000, 60); // room for the job row and about 1.5 node rows
        QVERIFY(g.maxScrollY() > 0);
        g.setScrollY(1e9);
        QCOMPARE(g.scrollY(), g.maxScrollY());
        QCOMPARE(g.rowAt(45), 0); // the pinned job row stays put
        const auto gapRow = static_cast<std::size_t>(g.rowOfLane(7));
        QVERIFY(g.isRowVisible(gapRow));
        QCOMPARE(g.rowAt(g.rowCenterY(gapRow)), static_cast<std::int32_t>(gapRow));
        g.setScrollY(0);
        QVERIFY(!g.isRowVisible(gapRow));
        g.ensureRowVisible(gapRow);
        QVERIFY(g.isRowVisible(gapRow));
        QCOMPARE(g.rowAt(39), -1); // above the plot: the axis
    }

    void hitTestPicksTheNearestMark()
    {
        std::vector<LaneSpec> lanes { lane(LaneKind::Node, "node-01") };
        // 1 ms per pixel over 1 s: marks at columns 100, 106 and 300 (x = 200 + column).
        std::vector<TimelineItem> items { item(kT0 + 100'000'000, 0, MarkRole::Symptom, 10),
            item(kT0 + 106'000'000, 0, MarkRole::Symptom, 11), item(kT0 + 300'000'000, 0, MarkRole::Cause, 12) };
        TimelineGeometry g;
        g.setPlotArea(200, 40, 1000, 400);
        g.setData(std::move(lanes), std::move(items));
        g.setBounds(kT0, kT0 + kSec);
        const double y = g.rowCenterY(0);
        auto hitEvent = [&](double x) { return g.hitTest(x, y, 4).eventIndex; };
        QCOMPARE(hitEvent(300.5), qint64(10));
        QCOMPARE(hitEvent(302.5), qint64(10)); // 2 px from 10, 4 from 11
        QCOMPARE(hitEvent(304.6), qint64(11)); // nearer 11
        QCOMPARE(hitEvent(497.0), qint64(12)); // 3.5 px left of the cause
        const TimelineHit miss = g.hitTest(400.0, y, 4); // 94 px from anything
        QCOMPARE(miss.kind, TimelineHit::Kind::Lane);
        QCOMPARE(miss.eventIndex, qint64(-1));
        QCOMPARE(miss.lane, 0);
        QCOMPARE(g.hitTest(292.0, y, 4).eventIndex, qint64(-1)); // 8.5 px from the first mark: outside tolerance
        QCOMPARE(g.hitTest(300.5, 10.0, 4).kind, TimelineHit::Kind::None); // above every row
        const TimelineHit header = g.hitTest(50, y, 4);
        QCOMPARE(header.kind, TimelineHit::Kind::Lane);
        QVERIFY(header.inHeader);
    }

    void hitTestPrefersTheCauseInASharedPixel()
    {
        std::vector<LaneSpec> lanes { lane(LaneKind::Node, "node-02") };
        std::vector<TimelineItem> items;
        for (std::uint32_t k = 0; k < 5; ++k)
            items.push_back(item(kT0 + k, 0, MarkRole::Symptom, k));
        items.push_back(item(kT0 + 3, 0, MarkRole::Cause, 99));
        TimelineGeometry g;
        g.setPlotArea(0, 0, 1000, 400);
        g.setData(std::move(lanes), std::move(items));
        g.setBounds(kT0 - kSec, kT0 + kSec);
        const TimelineHit h = g.hitTest(g.mapTimeToX(kT0), g.rowCenterY(0), 4);
        QCOMPARE(h.kind, TimelineHit::Kind::Mark);
        QCOMPARE(h.eventIndex, qint64(99));
        QCOMPARE(h.count, 6u);
    }

    void aggregationKeepsTheCauseAmongSymptoms_data()
    {
        QTest::addColumn<int>("symptoms");
        QTest::addRow("a-few") << 5;
        QTest::addRow("across-index-blocks") << 5000;
    }
    void aggregationKeepsTheCauseAmongSymptoms()
    {
        QFETCH(int, symptoms);
        std::vector<LaneSpec> lanes { lane(LaneKind::Node, "node-02") };
        std::vector<TimelineItem> items;
        // Every item inside one 1 ms pixel; the cause sits in the middle, a companion just before it.
        for (int k = 0; k < symptoms; ++k)
            items.push_back(item(kT0 + k * 10, 0, MarkRole::Symptom, static_cast<std::uint32_t>(k)));
        items.push_back(item(kT0 + symptoms * 5 - 1, 0, MarkRole::Companion, 1'000'001));
        items.push_back(item(kT0 + symptoms * 5, 0, MarkRole::Cause, 1'000'000));
        std::stable_sort(items.begin(), items.end(),
            [](const TimelineItem& a, const TimelineItem& b) { return a.timeNs < b.timeNs; });
        TimelineGeometry g;
        g.setPlotArea(0, 0, 1000, 400);
        g.setData(std::move(lanes), std::move(items));
        g.setBounds(kT0 - 500'000'000, kT0 + 500'000'000);
        std::vector<TimelineBucket> out;
        g.aggregate(out);
        QCOMPARE(out.size(), std::size_t(1));
        QCOMPARE(
            bucketText(out.front()), QStringLiteral("row 0 col 500 n=%1 cause top=1000000 first=0").arg(symptoms + 2));
        QCOMPARE(out.front().topTimeNs, kT0 + symptoms * 5);
    }

    void aggregationMatchesABruteForceCount_data()
    {
        QTest::addColumn<bool>("expanded");
        QTest::addRow("nodes collapsed") << false;
        QTest::addRow("nodes expanded") << true;
    }
    void aggregationMatchesABruteForceCount()
    {
        // Random items on nodes with sub-lanes: every (row, column) bucket equals a plain per-column count over the
        // row's items (the node's own and, when collapsed, its sub-lanes'): count, top role, earliest time, earliest
        // time of the top role.
        QFETCH(bool, expanded);
        std::vector<LaneSpec> lanes;
        for (int n = 0; n < 6; ++n) {
            const auto node = static_cast<std::int32_t>(lanes.size());
            lanes.push_back(lane(LaneKind::Node, "node"));
            for (int g = 0; g < 4; ++g)
                lanes.push_back(lane(LaneKind::SubLane, "gpu", node));
        }
        std::mt19937_64 rng(1234);
        std::uniform_int_distribution<std::int64_t> when(0, 20 * kSec);
        std::uniform_int_distribution<int> role(0, kMarkRoleCount - 1);
        std::uniform_int_distribution<std::uint32_t> laneOf(0, static_cast<std::uint32_t>(lanes.size() - 1));
        std::vector<TimelineItem> items;
        for (std::uint32_t k = 0; k < 50000; ++k)
            items.push_back(item(kT0 + when(rng), laneOf(rng), static_cast<MarkRole>(role(rng)), k));
        TimelineGeometry g;
        g.setPlotArea(150, 0, 400, 2000);
        g.setData(lanes, items);
        g.setBounds(kT0, kT0 + 20 * kSec);
        g.setAllExpanded(expanded);
        g.setRange(kT0 + 3 * kSec, kT0 + 11 * kSec);
        std::vector<TimelineBucket> out;
        g.aggregate(out);
        struct Want
        {
            std::uint32_t count = 0;
            int role = kMarkRoleCount;
            std::int64_t first = INT64_MAX;
            std::int64_t top = INT64_MAX;
        };
        std::map<std::pair<std::uint32_t, std::int32_t>, Want> want;
        const auto& rows = g.rows();
        for (std::uint32_t r = 0; r < rows.size(); ++r) {
            const auto rowLane = rows[r].lane;
            for (const auto& it : items) {
                const bool own = it.lane == rowLane;
                const bool child = !rows[r].expanded && lanes[it.lane].parent == static_cast<std::int32_t>(rowLane);
                if (!(own || child) || it.timeNs < g.rangeFrom() || it.timeNs > g.rangeTo())
                    continue;
                Want& w = want[{ r, g.columnOf(it.timeNs) }];
                ++w.count;
                w.first = std::min(w.first, it.timeNs);
                const int ro = static_cast<int>(it.role);
                if (ro < w.role || (ro == w.role && it.timeNs < w.top)) {
                    w.role = ro;
                    w.top = it.timeNs;
                }
            }
        }
        std::size_t matched = 0;
        for (const auto& b : out) {
            const auto it = want.find({ b.row, b.column });
            QVERIFY2(it != want.end(), qPrintable(QStringLiteral("unexpected bucket ") + bucketText(b)));
            const Want& w = it->second;
            const QString got = QStringLiteral("n=%1 role=%2 first=%3 top=%4")
                                    .arg(b.count)
                                    .arg(static_cast<int>(b.role))
                                    .arg(b.firstTimeNs)
                                    .arg(b.topTimeNs);
            const QString expected =
                QStringLiteral("n=%1 role=%2 first=%3 top=%4").arg(w.count).arg(w.role).arg(w.first).arg(w.top);
            QCOMPARE(got, expected);
            ++matched;
        }
        QCOMPARE(matched, want.size());
    }

    void aggregationEmitsOneBucketPerColumnPerLane()
    {
        std::vector<LaneSpec> lanes { lane(LaneKind::Node, "node-01"), lane(LaneKind::Node, "node-02"),
            lane(LaneKind::SubLane, "GPU 0", 1), lane(LaneKind::SubLane, "GPU 1", 1) };
        std::mt19937_64 rng(42);
        std::uniform_int_distribution<std::int64_t> when(0, 10 * kSec);
        std::uniform_int_distribution<int> role(0, kMarkRoleCount - 1);
        std::vector<TimelineItem> items;
        for (std::uint32_t k = 0; k < 20000; ++k)
            items.push_back(item(kT0 + when(rng), k % 4, static_cast<MarkRole>(role(rng)), k));
        // Unsorted on purpose: the index sorts each lane.
        TimelineGeometry g;
        g.setPlotArea(150, 0, 300, 400);
        g.setData(lanes, items);
        g.setBounds(kT0, kT0 + 10 * kSec);
        g.setRange(kT0 + 2 * kSec, kT0 + 7 * kSec);
        std::vector<TimelineBucket> out;
        g.aggregate(out);
        std::size_t inRange = 0;
        for (const auto& it : items)
            inRange += it.timeNs >= g.rangeFrom() && it.timeNs <= g.rangeTo() ? 1 : 0;
        std::size_t counted = 0;
        for (std::size_t k = 0; k < out.size(); ++k) {
            counted += out[k].count;
            QVERIFY(out[k].column >= 150 && out[k].column < 450);
            if (k && out[k].row == out[k - 1].row)
                QVERIFY2(out[k].column > out[k - 1].column,
                    qPrintable(bucketText(out[k - 1]) + QStringLiteral(" then ") + bucketText(out[k])));
        }
        QCOMPARE(counted, inRange);
        // Two rows (node-01, node-02 collapsed with its GPUs), each at most one bucket per column.
        QVERIFY(out.size() <= 2 * 300);
        for (const auto& b : out) {
            // Brute force: no item of the bucket's column outranks its role.
            const auto rowLane = g.rows()[b.row].lane;
            for (const auto& it : items) {
                const bool inRow = it.lane == rowLane || (rowLane == 1 && (it.lane == 2 || it.lane == 3));
                if (inRow && it.timeNs >= g.rangeFrom() && it.timeNs <= g.rangeTo()
                    && std::min(g.columnOf(it.timeNs), 449) == b.column)
                    QVERIFY2(it.role >= b.role, qPrintable(bucketText(b)));
            }
        }
    }

    void millionEventsStayCheap()
    {
        // 1M events over 1,000 lanes plus one lane of 1M on its own; only the visible rows are aggregated.
        constexpr std::uint32_t kLanes = 1000;
        constexpr std::uint32_t kPerLane = 1000;
        std::vector<LaneSpec> lanes;
        for (std::uint32_t l = 0; l < kLanes; ++l)
            lanes.push_back(lane(LaneKind::Node, ("node-" + std::to_string(l)).c_str()));
        lanes.push_back(lane(LaneKind::Node, "dense", -1, true));
        std::vector<TimelineItem> items;
        items.reserve(2 * kLanes * kPerLane);
        const std::int64_t hour = 3600 * kSec;
        for (std::uint32_t k = 0; k < kLanes * kPerLane; ++k) {
            const std::int64_t t = kT0 + static_cast<std::int64_t>(k) * (hour / (kLanes * kPerLane));
            items.push_back(item(t, k % kLanes, k % 97 == 0 ? MarkRole::Symptom : MarkRole::Context, k));
            items.push_back(item(t, kLanes, k == 654321 ? MarkRole::Cause : MarkRole::Symptom, k));
        }
        TimelineGeometry g;
        g.setPlotArea(200, 40, 1600, 30 * 26);
        QElapsedTimer build;
        build.start();
        g.setData(std::move(lanes), std::move(items));
        const qint64 buildMs = build.elapsed();
        g.setBounds(kT0, kT0 + hour);
        QCOMPARE(g.itemCount(), std::size_t(2 * kLanes * kPerLane));
        QCOMPARE(g.rows().front().lane, kLanes); // the blamed lane first

        std::vector<TimelineBucket> out;
        QElapsedTimer timer;
        timer.start();
        g.aggregate(out);
        const qint64 visibleMs = timer.elapsed();
        std::vector<std::size_t> perRow(g.rows().size(), 0);
        for (const auto& b : out) {
            QVERIFY(g.isRowVisible(b.row));
            ++perRow[b.row];
        }
        for (std::size_t r = 0; r < perRow.size(); ++r)
            QVERIFY2(perRow[r] <= 1600, qPrintable(QStringLiteral("row %1 has %2 buckets").arg(r).arg(perRow[r])));
        QCOMPARE(perRow[0], std::size_t(1600)); // the dense lane fills every column

        std::uint64_t dense = 0;
        bool causeKept = false;
        for (const auto& b : out)
            if (b.row == 0) {
                dense += b.count;
                causeKept = causeKept || (b.role == MarkRole::Cause && b.topEvent == 654321);
            }
        QCOMPARE(dense, std::uint64_t(kLanes * kPerLane));
        QVERIFY(causeKept);

        // Every row at once (as if the window were 26,000 px tall) still stays bounded by columns.
        g.setPlotArea(200, 40, 1600, g.contentHeight());
        timer.restart();
        g.aggregate(out);
        const qint64 allMs = timer.elapsed();
        std::uint64_t total = 0;
        for (const auto& b : out)
            total += b.count;
        QCOMPARE(total, std::uint64_t(2 * kLanes * kPerLane));
        QVERIFY(out.size() <= std::size_t(1001) * 1600);
        qInfo("index of 2M items: %lld ms; visible rows: %lld ms; all 1,001 rows: %lld ms", buildMs, visibleMs, allMs);
        // Generous, for a loaded 2-core Debug build: a frame must never cost seconds.
        QVERIFY2(visibleMs < 1000, qPrintable(QStringLiteral("visible aggregation took %1 ms").arg(visibleMs)));
    }
};

QTEST_GUILESS_MAIN(TstTimelineGeometry)
#include "tst_timeline_geometry.moc"
