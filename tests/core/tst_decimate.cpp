// SPDX-License-Identifier: Apache-2.0
// Min/max decimation (core/analysis/decimate.h): at most two points per bucket plus the first, the last and the
// neighbours, every bucket's extremes kept in time order, non-finite samples turned into breaks, and a 10M-sample
// series reduced to a screen's width in one pass.
#include "core/analysis/decimate.h"

#include <QElapsedTimer>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <utility>
#include <vector>

using namespace faultline;
using core::DecimatedPoint;
using core::DecimateOptions;
using Samples = std::vector<std::pair<std::int64_t, double>>;

namespace {

constexpr std::int64_t kSec = 1'000'000'000;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Samples ramp(std::size_t n, std::int64_t t0 = 0, std::int64_t step = kSec)
{
    Samples s;
    s.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        s.emplace_back(t0 + static_cast<std::int64_t>(i) * step, static_cast<double>(i));
    return s;
}

/// Checks the invariants every output must meet; returns "" or what is wrong.
QString checkInvariants(
    const Samples& in, const std::vector<DecimatedPoint>& out, std::int64_t from, std::int64_t to, std::size_t buckets)
{
    if (out.size() > 2 * buckets + 4)
        return QStringLiteral("%1 points for %2 buckets").arg(out.size()).arg(buckets);
    std::map<std::int64_t, double> raw(in.begin(), in.end());
    std::map<std::size_t, int> perBucket;
    for (std::size_t i = 0; i < out.size(); ++i) {
        const auto& p = out[i];
        if (!std::isfinite(p.value))
            return QStringLiteral("non-finite value at %1").arg(i);
        if (i > 0 && p.timeNs <= out[i - 1].timeNs)
            return QStringLiteral("not in time order at %1").arg(i);
        const auto it = raw.find(p.timeNs);
        if (it == raw.end() || !(it->second == p.value))
            return QStringLiteral("point %1 is not a sample").arg(i);
        if (i == 0 && p.gapBefore)
            return QStringLiteral("the first point has a gap before it");
        if (p.timeNs >= from && p.timeNs <= to)
            ++perBucket[core::decimationBucketOf(from, to, buckets, p.timeNs)];
    }
    // Two per bucket; the first and last in-range samples may add one each to their buckets.
    std::size_t extra = 0;
    for (const auto& [b, n] : perBucket) {
        if (n > 4)
            return QStringLiteral("%1 points in bucket %2").arg(n).arg(b);
        if (n > 2)
            extra += static_cast<std::size_t>(n - 2);
    }
    if (extra > 2)
        return QStringLiteral("%1 points beyond two per bucket").arg(extra);
    return {};
}

bool contains(const std::vector<DecimatedPoint>& out, std::int64_t t)
{
    return std::any_of(out.begin(), out.end(), [&](const DecimatedPoint& p) { return p.timeNs == t; });
}

} // namespace

class TstDecimate : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void bucketPartition()
    {
        const std::int64_t from = 1'793'613'600 * kSec;
        const std::int64_t to = from + 1800 * kSec + 7;
        const std::size_t n = 1237;
        QCOMPARE(core::decimationBucketStart(from, to, n, 0), from);
        QCOMPARE(core::decimationBucketStart(from, to, n, n), to);
        for (std::size_t b = 0; b < n; ++b) {
            const std::int64_t s = core::decimationBucketStart(from, to, n, b);
            const std::int64_t e = core::decimationBucketStart(from, to, n, b + 1);
            QVERIFY(s < e);
            QCOMPARE(core::decimationBucketOf(from, to, n, s), b);
            QCOMPARE(core::decimationBucketOf(from, to, n, e - 1), b);
        }
        QCOMPARE(core::decimationBucketOf(from, to, n, to), n - 1);
        // The whole int64 range does not overflow.
        const std::int64_t lo = std::numeric_limits<std::int64_t>::min();
        const std::int64_t hi = std::numeric_limits<std::int64_t>::max();
        QCOMPARE(core::decimationBucketStart(lo, hi, 4, 4), hi);
        QCOMPARE(core::decimationBucketOf(lo, hi, 4, 0), std::size_t(2));
    }

    void emptyInputs()
    {
        QVERIFY(core::decimateMinMax({}, 0, 100, 10).empty());
        const Samples s = ramp(10);
        QVERIFY(core::decimateMinMax(s, 0, 100 * kSec, 0).empty()); // no columns
        QVERIFY(core::decimateMinMax(s, 5 * kSec, 4 * kSec, 10).empty()); // reversed range
        QVERIFY(core::decimateMinMax(s, 20 * kSec, 30 * kSec, 10).empty()); // after the series: no neighbour alone
        QVERIFY(core::decimateMinMax(s, -30 * kSec, -20 * kSec, 10).empty()); // before it
        // A range between two samples holds no sample: nothing to draw, even with neighbours on both sides.
        QVERIFY(core::decimateMinMax(s, 2 * kSec + 1, 3 * kSec - 1, 10).empty());
    }

    void singleSample()
    {
        const Samples s { { 5 * kSec, 42.0 } };
        const auto out = core::decimateMinMax(s, 0, 10 * kSec, 100);
        QCOMPARE(out.size(), std::size_t(1));
        QCOMPARE(out[0], (DecimatedPoint { 5 * kSec, 42.0, false }));
        // A zero-width range on the sample, and a single bucket.
        QCOMPARE(core::decimateMinMax(s, 5 * kSec, 5 * kSec, 1).size(), std::size_t(1));
        QCOMPARE(core::decimateMinMax(s, 0, 10 * kSec, 1).size(), std::size_t(1));
        const Samples nan { { 5 * kSec, kNaN } };
        QVERIFY(core::decimateMinMax(nan, 0, 10 * kSec, 100).empty());
    }

    void fewSamplesAreKeptAsTheyAre()
    {
        const Samples s = ramp(50);
        const auto out = core::decimateMinMax(s, 0, 49 * kSec, 400);
        QCOMPARE(out.size(), s.size());
        for (std::size_t i = 0; i < s.size(); ++i) {
            QCOMPARE(out[i].timeNs, s[i].first);
            QCOMPARE(out[i].value, s[i].second);
            QVERIFY(!out[i].gapBefore);
        }
    }

    void nanBecomesABreak()
    {
        Samples s = ramp(10);
        s[4].second = kNaN;
        s[5].second = kNaN;
        s[8].second = std::numeric_limits<double>::infinity();
        const auto out = core::decimateMinMax(s, 0, 9 * kSec, 100);
        QCOMPARE(checkInvariants(s, out, 0, 9 * kSec, 100), QString());
        QCOMPARE(out.size(), std::size_t(7)); // 0 1 2 3 | 6 7 | 9
        QCOMPARE(out[4].timeNs, 6 * kSec);
        QVERIFY(out[4].gapBefore);
        QVERIFY(!out[5].gapBefore);
        QCOMPARE(out[6].timeNs, 9 * kSec);
        QVERIFY(out[6].gapBefore);
        for (std::size_t i : { 1, 2, 3 })
            QVERIFY(!out[i].gapBefore);

        // Decimated: a NaN between a bucket's minimum and maximum breaks the line between them, one between two
        // buckets breaks it there, and NaN never wins a minimum or a maximum.
        Samples d;
        for (int i = 0; i < 1000; ++i)
            d.emplace_back(i * kSec, i == 500 ? kNaN : std::sin(i * 0.1));
        const auto dec = core::decimateMinMax(d, 0, 999 * kSec, 10);
        QCOMPARE(checkInvariants(d, dec, 0, 999 * kSec, 10), QString());
        const auto gaps = std::count_if(dec.begin(), dec.end(), [](const DecimatedPoint& p) { return p.gapBefore; });
        QCOMPARE(gaps, 1);
        const auto g = std::find_if(dec.begin(), dec.end(), [](const DecimatedPoint& p) { return p.gapBefore; });
        QVERIFY(g != dec.begin());
        QVERIFY(g->timeNs > 500 * kSec && (g - 1)->timeNs < 500 * kSec);

        // Leading and trailing NaNs only trim the line.
        Samples e = ramp(6);
        e.front().second = kNaN;
        e.back().second = kNaN;
        const auto trimmed = core::decimateMinMax(e, 0, 5 * kSec, 100);
        QCOMPARE(trimmed.size(), std::size_t(4));
        QVERIFY(std::none_of(trimmed.begin(), trimmed.end(), [](const DecimatedPoint& p) { return p.gapBefore; }));
    }

    void timeGapsBreakWhenAsked()
    {
        Samples s = ramp(10, 0, 15 * kSec);
        for (std::size_t i = 5; i < s.size(); ++i)
            s[i].first += 600 * kSec; // the exporter was gone for ten minutes
        const std::int64_t to = s.back().first;
        const auto joined = core::decimateMinMax(s, 0, to, 1000);
        QVERIFY(std::none_of(joined.begin(), joined.end(), [](const DecimatedPoint& p) { return p.gapBefore; }));
        DecimateOptions opt;
        opt.breakAfterNs = 45 * kSec;
        const auto broken = core::decimateMinMax(s, 0, to, 1000, opt);
        QCOMPARE(broken.size(), s.size());
        for (std::size_t i = 0; i < broken.size(); ++i)
            QCOMPARE(broken[i].gapBefore, i == 5);
    }

    void extremesOfEveryBucketAreKept()
    {
        std::mt19937_64 rng(48213);
        std::normal_distribution<double> noise(0, 1);
        Samples s;
        for (int i = 0; i < 200'000; ++i)
            s.emplace_back(i * 1'000'000LL + static_cast<std::int64_t>(rng() % 1000), noise(rng));
        s[123'456].second = 1e6; // a spike no column may lose
        s[54].second = -1e6;
        const std::int64_t from = s[100].first;
        const std::int64_t to = s[199'000].first;
        for (std::size_t buckets : { 1, 2, 7, 640, 1280, 1919 }) {
            const auto out = core::decimateMinMax(s, from, to, buckets);
            QCOMPARE(checkInvariants(s, out, from, to, buckets), QString());
            // Each bucket's raw min and max are in the output.
            std::vector<std::pair<std::int64_t, double>> mins(buckets, { 0, HUGE_VAL });
            std::vector<std::pair<std::int64_t, double>> maxs(buckets, { 0, -HUGE_VAL });
            for (const auto& [t, v] : s) {
                if (t < from || t > to)
                    continue;
                const std::size_t b = core::decimationBucketOf(from, to, buckets, t);
                if (v < mins[b].second)
                    mins[b] = { t, v };
                if (v > maxs[b].second)
                    maxs[b] = { t, v };
            }
            for (std::size_t b = 0; b < buckets; ++b) {
                QVERIFY2(contains(out, mins[b].first), qPrintable(QStringLiteral("min of bucket %1").arg(b)));
                QVERIFY2(contains(out, maxs[b].first), qPrintable(QStringLiteral("max of bucket %1").arg(b)));
            }
            QVERIFY(contains(out, s[123'456].first));
            // The first and last samples inside, and the neighbours outside, so the line reaches both edges.
            QCOMPARE(out.front().timeNs, s[99].first);
            QCOMPARE(out[1].timeNs, s[100].first);
            QCOMPARE(out[out.size() - 2].timeNs, s[199'000].first);
            QCOMPARE(out.back().timeNs, s[199'001].first);
        }
        // Without neighbours the output starts and ends inside; -1e6 lies before the range and is not drawn.
        DecimateOptions opt;
        opt.keepNeighbours = false;
        const auto inside = core::decimateMinMax(s, from, to, 640, opt);
        QCOMPARE(inside.front().timeNs, from);
        QCOMPARE(inside.back().timeNs, to);
        QVERIFY(!contains(inside, s[54].first));
        QVERIFY(inside.size() <= 2 * 640 + 2);
    }

    void tenMillionSamples()
    {
        constexpr std::size_t n = 10'000'000;
        Samples s;
        s.reserve(n);
        const std::int64_t t0 = 1'793'613'600 * kSec;
        for (std::size_t i = 0; i < n; ++i) {
            const auto k = static_cast<std::int64_t>(i);
            s.emplace_back(t0 + k * 100'000, static_cast<double>((k * 7919) % 1009));
        }
        s[3'333'333].second = 5000;
        s[7'777'777].second = -5000;
        s[5'000'000].second = kNaN;
        const std::int64_t to = s.back().first;
        constexpr std::size_t width = 1920;
        QElapsedTimer timer;
        timer.start();
        const auto out = core::decimateMinMax(s, t0, to, width);
        const auto ms = timer.elapsed();
        qInfo("10M samples -> %zu points in %lld ms", out.size(), static_cast<long long>(ms));
        QVERIFY(out.size() <= 2 * width + 4);
        QVERIFY(out.size() >= width); // every column has samples
        QVERIFY(contains(out, s[3'333'333].first));
        QVERIFY(contains(out, s[7'777'777].first));
        QCOMPARE(out.front().timeNs, t0);
        QCOMPARE(out.back().timeNs, to);
        QCOMPARE(std::count_if(out.begin(), out.end(), [](const DecimatedPoint& p) { return p.gapBefore; }), 1);
        QVERIFY(std::is_sorted(out.begin(), out.end(),
            [](const DecimatedPoint& a, const DecimatedPoint& b) { return a.timeNs < b.timeNs; }));
        // A narrow zoom costs only the samples inside it (two binary searches, then the window).
        timer.restart();
        const auto zoomed = core::decimateMinMax(s, t0 + 400 * kSec, t0 + 401 * kSec, width);
        QVERIFY(zoomed.size() <= 2 * width + 4);
        QVERIFY(timer.elapsed() < 1000);
    }
};

QTEST_APPLESS_MAIN(TstDecimate)
#include "tst_decimate.moc"
