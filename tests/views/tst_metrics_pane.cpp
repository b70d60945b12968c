// SPDX-License-Identifier: Apache-2.0
// The metrics pane over the flagship sample (bundle-48213): one panel per PromQL series name (DCGM NVLink CRC,
// DCGM Xid, GPU utilisation), no chart series longer than 2 * plot width + 4 points (also for a 2M-sample series
// and a 40-series panel), the time axis and the cursor follow setRange / setCursor and the timeline, the NVLink CRC
// precursor brings up its own series, and a bundle without metrics says what to collect. The last test saves
// screenshots, tests/screenshots/metrics-bundle-48213*.png in the build tree, for a human to look at.
#include "app/usecases/use_cases.h"
#include "tests/common/test_helpers.h"
#include "views/charts/metric_chart_view.h"
#include "views/timeline/timeline_view.h"

#include <QApplication>
#include <QDir>
#include <QGraphicsView>
#include <QPalette>
#include <QPixmap>
#include <QSignalSpy>
#include <QStringList>
#include <QTest>
#include <QVBoxLayout>

#include <cmath>
#include <memory>

using namespace faultline;
using views::MetricPanelInfo;
using views::MetricsPane;

namespace {

constexpr qint64 kSec = 1'000'000'000;

const QString kCrc = QStringLiteral("DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL");
const QString kXid = QStringLiteral("DCGM_FI_DEV_XID_ERRORS");
const QString kUtil = QStringLiteral("DCGM_FI_DEV_GPU_UTIL");

views::AnalysisResult analyse(const std::string& sample)
{
    usecases::BundleRequest request;
    request.paths = { tests::sourcePath("resources/samples/" + sample) };
    request.rulesDir = tests::sourcePath("rules");
    auto made = usecases::analyseBundle(request);
    views::AnalysisResult r;
    if (!made.ok())
        return r;
    const usecases::Analysis& a = made.value->analysis;
    r.evidence = a.evidence;
    r.verdict = a.verdict;
    r.input = a.input;
    r.catalog = a.catalog;
    r.rulesDir = a.rulesDir;
    return r;
}

QPalette darkPalette()
{
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
    dark.setColor(QPalette::Button, QColor(53, 53, 56));
    dark.setColor(QPalette::ButtonText, QColor(220, 220, 220));
    return dark;
}

QString describe(const MetricPanelInfo& p)
{
    QStringList counts;
    for (int n : p.pointCounts)
        counts << QString::number(n);
    return QStringLiteral("%1: width %2, points [%3], largest %4")
        .arg(p.metric)
        .arg(p.plotWidth)
        .arg(counts.join(u','))
        .arg(p.largestChartSeries);
}

/// Every chart series of every visible panel stays within 2 * width + 4 points; returns "" or the offender.
QString checkPointBudget(const MetricsPane& pane)
{
    for (int i = 0; i < pane.panelCount(); ++i) {
        const MetricPanelInfo p = pane.panelInfo(i);
        if (!p.visible)
            continue;
        if (p.plotWidth <= 0)
            return QStringLiteral("no plot width: ") + describe(p);
        const int budget = 2 * p.plotWidth + 4;
        if (p.largestChartSeries > budget)
            return describe(p);
        for (int n : p.pointCounts)
            if (n > budget)
                return describe(p);
    }
    return {};
}

} // namespace

class TstMetricsPane : public QObject
{
    Q_OBJECT
private:
    views::AnalysisResult m_result;

    std::unique_ptr<MetricsPane> makePane(int width = 1280, int height = 300)
    {
        auto pane = std::make_unique<MetricsPane>();
        pane->resize(width, height);
        pane->setResult(m_result);
        pane->show();
        if (!QTest::qWaitForWindowExposed(pane.get()))
            return nullptr;
        return pane;
    }

    /// The verdict's NVLink CRC precursor: the event the metric condition metric.nvlink-crc-rising made.
    int crcPrecursor() const
    {
        const auto& v = *m_result.verdict;
        for (std::size_t i = 0; i < v.events.size(); ++i)
            if (v.events[i].ruleId == "metric.nvlink-crc-rising")
                return static_cast<int>(i);
        return -1;
    }

    qint64 causeTime() const { return m_result.verdict->events[m_result.verdict->cause].timeNs; }

private Q_SLOTS:
    void initTestCase()
    {
        m_result = analyse("bundle-48213");
        QVERIFY(m_result.evidence && m_result.verdict);
        QVERIFY(m_result.verdict->hasCause);
        QVERIFY(!m_result.evidence->metrics.empty());
    }

    void panelsForTheSampleSeries()
    {
        auto pane = makePane();
        QVERIFY(pane);
        QVERIFY(!pane->isEmptyStateShown());
        QCOMPARE(pane->panelCount(), 3);
        for (const QString& m : { kCrc, kXid, kUtil })
            QVERIFY2(pane->panelOfMetric(m) >= 0, qPrintable(m));
        // The precursor's metric first, then the cause GPU's Xid gauge, then utilisation.
        QCOMPARE(pane->panelInfo(0).metric, kCrc);
        QCOMPARE(pane->panelInfo(1).metric, kXid);
        QCOMPARE(pane->panelInfo(2).metric, kUtil);

        const MetricPanelInfo crc = pane->panelInfo(pane->panelOfMetric(kCrc));
        QCOMPARE(crc.title, QStringLiteral("NVLink CRC flit errors"));
        // The blamed node's lines first; one legend entry per line.
        QCOMPARE(crc.lines.join(u','), QStringLiteral("node-02 GPU4,node-02 GPU5,node-01 GPU5,node-03 GPU5"));
        QCOMPARE(crc.legend, crc.lines);
        // DCGM's Xid gauge keeps one series per err_code: the label that differs tells them apart.
        const MetricPanelInfo xid = pane->panelInfo(pane->panelOfMetric(kXid));
        QCOMPARE(xid.lines.join(u','), QStringLiteral("node-02 GPU5 err_code=0,node-02 GPU5 err_code=149"));
        QCOMPARE(xid.legend.join(u','), QStringLiteral("node-02 GPU5,err_code=0,err_code=149"));
        // 24 utilisation series: one legend entry (and colour) per node.
        const MetricPanelInfo util = pane->panelInfo(pane->panelOfMetric(kUtil));
        QCOMPARE(util.title, QStringLiteral("GPU utilisation (%)"));
        QCOMPARE(util.lines.size(), 24);
        QCOMPARE(util.legend.join(u','), QStringLiteral("node-01 · 8 GPUs,node-03 · 8 GPUs,node-04 · 8 GPUs"));
        QCOMPARE(util.valueMin, 0.0);
        QCOMPARE(util.valueMax, 100.0);
        // The default range spans the samples; every panel is visible and has points.
        for (int i = 0; i < pane->panelCount(); ++i) {
            const MetricPanelInfo p = pane->panelInfo(i);
            QVERIFY(p.visible);
            QVERIFY2(p.plotWidth > 1000, qPrintable(describe(p)));
            for (int n : p.pointCounts)
                QVERIFY2(n > 0, qPrintable(describe(p)));
        }
        // The CRC counter climbs from 3 to 91,544: a log axis, so that its onset a minute before the Xid shows.
        QVERIFY2(crc.valueMax >= 91544.0, qPrintable(QString::number(crc.valueMax)));
        QVERIFY(crc.logScale);
        QVERIFY(!util.logScale);
        QVERIFY(!xid.logScale);
    }

    void decimatedToThePlotWidth()
    {
        auto pane = makePane(900, 300);
        QVERIFY(pane);
        QCOMPARE(checkPointBudget(*pane), QString());
        // Zoomed in and out, and after a resize.
        pane->setRange(causeTime() - 120 * kSec, causeTime() + 60 * kSec);
        QCOMPARE(checkPointBudget(*pane), QString());
        pane->setRange(causeTime() - 86400 * kSec, causeTime() + 86400 * kSec);
        QCOMPARE(checkPointBudget(*pane), QString());
        pane->resize(500, 300);
        QTest::qWait(20);
        QCOMPARE(checkPointBudget(*pane), QString());
        QVERIFY(pane->panelInfo(0).plotWidth < 400);

        // A 2M-sample series (a 10 ms scrape over 5.5 h) and a 40-series panel (drawn as a band).
        auto ev = std::make_shared<core::EvidenceSet>();
        core::MetricSeries big;
        big.name = "DCGM_FI_DEV_POWER_USAGE";
        big.node = ev->nodes.intern("node-09");
        big.gpu = 3;
        const qint64 t0 = 1'793'613'600 * kSec;
        for (int i = 0; i < 2'000'000; ++i)
            big.samples.emplace_back(
                t0 + static_cast<qint64>(i) * 10'000'000, 300 + 100 * std::sin(i * 1e-4) + (i == 1'234'567 ? 5000 : 0));
        ev->metrics.push_back(big);
        for (int s = 0; s < 40; ++s) {
            core::MetricSeries m;
            m.name = "DCGM_FI_DEV_GPU_TEMP";
            m.node = ev->nodes.intern("node-" + std::to_string(10 + s / 8));
            m.gpu = s % 8;
            for (int i = 0; i < 20'000; ++i)
                m.samples.emplace_back(t0 + static_cast<qint64>(i) * kSec, 40 + s + 10 * std::sin(i * 1e-3));
            ev->metrics.push_back(std::move(m));
        }
        views::AnalysisResult synthetic;
        synthetic.evidence = ev;
        MetricsPane big2;
        big2.resize(1280, 320);
        big2.setResult(synthetic);
        big2.show();
        QVERIFY(QTest::qWaitForWindowExposed(&big2));
        QCOMPARE(big2.panelCount(), 2);
        QCOMPARE(checkPointBudget(big2), QString());
        const MetricPanelInfo power = big2.panelInfo(big2.panelOfMetric(QStringLiteral("DCGM_FI_DEV_POWER_USAGE")));
        QVERIFY2(power.pointCounts.front() > power.plotWidth, qPrintable(describe(power)));
        QVERIFY2(power.valueMax >= 5300, qPrintable(QString::number(power.valueMax))); // the spike survived
        const MetricPanelInfo temp = big2.panelInfo(big2.panelOfMetric(QStringLiteral("DCGM_FI_DEV_GPU_TEMP")));
        QCOMPARE(temp.lines.size(), 40);
        QCOMPARE(temp.legend.front(), QStringLiteral("all 40 series, min–max"));
        big2.setRange(t0 + 3600 * kSec, t0 + 3700 * kSec);
        QCOMPARE(checkPointBudget(big2), QString());
    }

    void rangeFollows()
    {
        auto pane = makePane();
        QVERIFY(pane);
        const qint64 from = causeTime() - 90 * kSec;
        const qint64 to = causeTime() + 45 * kSec;
        pane->setRange(from, to);
        QCOMPARE(pane->rangeFrom(), from);
        QCOMPARE(pane->rangeTo(), to);
        for (int i = 0; i < pane->panelCount(); ++i) {
            const MetricPanelInfo p = pane->panelInfo(i);
            QVERIFY2(std::abs(p.axisFromNs - from) < 1000, qPrintable(QString::number(p.axisFromNs - from)));
            QVERIFY2(std::abs(p.axisToNs - to) < 1000, qPrintable(QString::number(p.axisToNs - to)));
        }
        // The value axis follows the visible samples: before the CRC climb the counter's axis is small.
        const int crc = pane->panelOfMetric(kCrc);
        pane->setRange(causeTime() - 600 * kSec, causeTime() - 200 * kSec);
        QVERIFY2(pane->panelInfo(crc).valueMax <= 10, qPrintable(QString::number(pane->panelInfo(crc).valueMax)));
        pane->setRange(causeTime() - 600 * kSec, causeTime() + 600 * kSec);
        QVERIFY(pane->panelInfo(crc).valueMax >= 91544);

        // Linked to a timeline as the main window links them.
        views::TimelineView timeline;
        timeline.resize(1280, 400);
        timeline.setResult(m_result);
        connect(&timeline, &views::TimelineView::rangeChanged, pane.get(), &MetricsPane::setRange);
        connect(&timeline, &views::TimelineView::cursorMoved, pane.get(), &MetricsPane::setCursor);
        timeline.setRange(causeTime() - 30 * kSec, causeTime() + 30 * kSec);
        QCOMPARE(pane->rangeFrom(), timeline.rangeFrom());
        QCOMPARE(pane->rangeTo(), timeline.rangeTo());
        QVERIFY(std::abs(pane->panelInfo(0).axisFromNs - timeline.rangeFrom()) < 1000);
        timeline.setCursor(causeTime());
        QCOMPARE(pane->cursorTime(), causeTime());
    }

    void cursorFollows()
    {
        auto pane = makePane();
        QVERIFY(pane);
        pane->setRange(causeTime() - 300 * kSec, causeTime() + 300 * kSec);
        QSignalSpy moved(pane.get(), &MetricsPane::cursorMoved);
        pane->setCursor(causeTime());
        QCOMPARE(pane->cursorTime(), causeTime());
        for (int i = 0; i < pane->panelCount(); ++i)
            QVERIFY2(std::abs(pane->panelInfo(i).cursorNs - causeTime()) < 1000,
                qPrintable(QString::number(pane->panelInfo(i).cursorNs - causeTime())));
        pane->setCursor(causeTime() + 100 * kSec);
        QVERIFY(std::abs(pane->panelInfo(0).cursorNs - (causeTime() + 100 * kSec)) < 1000);
        QCOMPARE(moved.count(), 0); // programmatic: no echo
        // Outside the range, or none: no cursor line.
        pane->setCursor(causeTime() + 3600 * kSec);
        QCOMPARE(pane->panelInfo(0).cursorNs, INT64_MIN);
        pane->setCursor(INT64_MIN);
        QCOMPARE(pane->panelInfo(0).cursorNs, INT64_MIN);

        // A click in a chart moves the cursor there and says so.
        const auto charts = pane->findChildren<QGraphicsView*>();
        QVERIFY(!charts.isEmpty());
        QGraphicsView* chart = charts.front();
        const QPoint inPane(
            pane->plotLeftMargin() + (pane->width() - pane->plotLeftMargin() - pane->plotRightMargin()) / 2, 0);
        const QPoint at(chart->mapFrom(pane.get(), inPane).x(), chart->height() / 2);
        QTest::mouseClick(chart->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(moved.count(), 1);
        const qint64 clicked = moved.front().front().toLongLong();
        const qint64 mid = causeTime();
        QVERIFY2(std::abs(clicked - mid) < 2 * kSec, qPrintable(QString::number((clicked - mid) / 1e9)));
        QCOMPARE(pane->cursorTime(), clicked);
    }

    void showSeriesOfTheCrcPrecursor()
    {
        auto pane = makePane();
        QVERIFY(pane);
        const int event = crcPrecursor();
        QVERIFY(event >= 0);
        const auto& v = *m_result.verdict;
        QCOMPARE(QString::fromStdString(v.linkRelation[static_cast<std::size_t>(event)]), QStringLiteral("precursor"));

        // The engine's provenance leads to the node-02 GPU5 counter.
        const int series = pane->seriesOfEvent(event);
        QVERIFY(series >= 0);
        const core::MetricSeries& s = m_result.evidence->metrics[static_cast<std::size_t>(series)];
        QCOMPARE(QString::fromStdString(s.name), kCrc);
        QCOMPARE(QString::fromStdString(m_result.evidence->nodeName(s.node)), QStringLiteral("node-02"));
        QCOMPARE(s.gpu, 5);
        // Log events have no series of their own.
        QCOMPARE(pane->seriesOfEvent(static_cast<int>(v.cause)), -1);

        // Hidden panel: one call brings it back, emphasises the line and marks the sample the rule fired on.
        const int crc = pane->panelOfMetric(kCrc);
        pane->setPanelVisible(crc, false);
        QVERIFY(!pane->panelInfo(crc).visible);
        QVERIFY(pane->showSeriesOfEvent(event));
        const MetricPanelInfo p = pane->panelInfo(crc);
        QVERIFY(p.visible);
        QCOMPARE(p.highlighted, QStringList { QStringLiteral("node-02 GPU5") });
        QVERIFY(p.eventMarker);
        QCOMPARE(pane->highlightedSeries(), std::vector<std::size_t> { static_cast<std::size_t>(series) });
        QVERIFY(pane->panelInfo(pane->panelOfMetric(kUtil)).highlighted.isEmpty());

        // The cause (Xid 149 in node-02's kernel log) brings up the series of its GPU: the CRC counter and the
        // Xid gauge of node-02 GPU5, without a marker (no sample of its own).
        QVERIFY(pane->showSeriesOfEvent(static_cast<int>(v.cause)));
        QCOMPARE(pane->panelInfo(crc).highlighted, QStringList { QStringLiteral("node-02 GPU5") });
        QVERIFY(!pane->panelInfo(crc).eventMarker);
        QCOMPARE(pane->panelInfo(pane->panelOfMetric(kXid)).highlighted.size(), 2);

        // An event that names no GPU (a rank's watchdog timeout, the scheduler's job failure) relates to no series:
        // the emphasis goes.
        int jobEvent = -1;
        for (std::size_t i = 0; i < v.events.size(); ++i)
            if (v.events[i].gpu.empty() && !v.events[i].field("gpu_index") && !v.events[i].field("metric")) {
                jobEvent = static_cast<int>(i);
                break;
            }
        QVERIFY(jobEvent >= 0);
        QVERIFY(!pane->showSeriesOfEvent(jobEvent));
        QVERIFY(pane->highlightedSeries().empty());
        QVERIFY(pane->panelInfo(crc).highlighted.isEmpty());
        QVERIFY(!pane->showSeriesOfEvent(-1));
        QVERIFY(!pane->showSeriesOfEvent(1 << 30));
    }

    void emptyState()
    {
        MetricsPane none;
        QVERIFY(none.isEmptyStateShown());
        QVERIFY(none.emptyStateText().contains(QStringLiteral("Open a bundle")));

        MetricsPane pane;
        pane.resize(900, 200);
        pane.setResult(analyse("cuda-oom"));
        QVERIFY(pane.isEmptyStateShown());
        QCOMPARE(pane.panelCount(), 0);
        QVERIFY(pane.emptyStateText().contains(QStringLiteral("no metric series")));
        QVERIFY(pane.emptyStateText().contains(QStringLiteral("faultline-collect --prom-url")));
        // Nothing breaks on the empty pane.
        pane.setRange(0, kSec);
        pane.setCursor(kSec / 2);
        QVERIFY(!pane.showSeriesOfEvent(0));
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        const QString dir = QStringLiteral(FAULTLINE_SCREENSHOT_DIR);
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(pane.grab().save(dir + QStringLiteral("/metrics-empty.png")));

        // And the full pane goes back to it when a bundle without metrics follows.
        auto full = makePane();
        QVERIFY(full);
        QVERIFY(!full->isEmptyStateShown());
        full->setResult(analyse("cuda-oom"));
        QVERIFY(full->isEmptyStateShown());
    }

    void screenshot()
    {
        // The workbench's 1280x820 window: the timeline above, the metrics strip under it on the same time axis.
        QWidget window;
        window.resize(1280, 820);
        auto* col = new QVBoxLayout(&window);
        col->setContentsMargins(0, 0, 0, 0);
        col->setSpacing(0);
        auto* timeline = new views::TimelineView(&window);
        auto* pane = new MetricsPane(&window);
        col->addWidget(timeline, 3);
        col->addWidget(pane, 2);
        connect(timeline, &views::TimelineView::rangeChanged, pane, &MetricsPane::setRange);
        connect(timeline, &views::TimelineView::cursorMoved, pane, &MetricsPane::setCursor);
        timeline->setResult(m_result);
        pane->setResult(m_result);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const auto align = [&] {
            const auto& g = timeline->timelineGeometry();
            const int left = timeline->viewport()->x() + static_cast<int>(std::lround(g.plotLeft()));
            const int right = timeline->width() - left - static_cast<int>(std::lround(g.plotWidth()));
            pane->setPlotMargins(left, right);
        };
        timeline->fitToVerdict();
        pane->setRange(timeline->rangeFrom(), timeline->rangeTo());
        align();
        // As an SRE would leave it: the cursor on the cause, the NVLink CRC precursor selected.
        timeline->selectEvent(static_cast<int>(m_result.verdict->cause));
        pane->setCursor(timeline->cursorTime());
        QVERIFY(pane->showSeriesOfEvent(crcPrecursor()));
        QTest::qWait(50);
        QCOMPARE(checkPointBudget(*pane), QString());

        const QString dir = QStringLiteral(FAULTLINE_SCREENSHOT_DIR);
        QVERIFY(QDir().mkpath(dir));
        const QString file = dir + QStringLiteral("/metrics-bundle-48213.png");
        QVERIFY(pane->grab().save(file));
        qInfo("screenshot: %s", qPrintable(file));
        QVERIFY(window.grab().save(dir + QStringLiteral("/metrics-bundle-48213-with-timeline.png")));

        // A short strip (the main window's default split may leave it ~190 px): the panels shrink to two legend rows.
        MetricsPane compact;
        compact.resize(1280, 190);
        compact.setResult(m_result);
        compact.setRange(timeline->rangeFrom(), timeline->rangeTo());
        compact.setCursor(timeline->cursorTime());
        compact.show();
        QVERIFY(QTest::qWaitForWindowExposed(&compact));
        QVERIFY(compact.showSeriesOfEvent(crcPrecursor()));
        QTest::qWait(20);
        QCOMPARE(checkPointBudget(compact), QString());
        QVERIFY(compact.grab().save(dir + QStringLiteral("/metrics-bundle-48213-compact.png")));

        // The plots start and end where the timeline's do.
        QCOMPARE(pane->plotLeftMargin(),
            timeline->viewport()->x() + static_cast<int>(std::lround(timeline->timelineGeometry().plotLeft())));

        // The failure episode up close, and the same in a dark palette.
        timeline->setRange(causeTime() - 150 * kSec, causeTime() + 60 * kSec);
        QCOMPARE(pane->rangeFrom(), timeline->rangeFrom());
        QVERIFY(window.grab().save(dir + QStringLiteral("/metrics-bundle-48213-episode.png")));
        window.setPalette(darkPalette());
        QTest::qWait(20);
        QVERIFY(pane->grab().save(dir + QStringLiteral("/metrics-bundle-48213-dark.png")));
        QVERIFY(window.grab().save(dir + QStringLiteral("/metrics-bundle-48213-with-timeline-dark.png")));
    }
};

QTEST_MAIN(TstMetricsPane)
#include "tst_metrics_pane.moc"
