// SPDX-License-Identifier: Apache-2.0
// The metrics pane over Qt Charts. Qt Charts is used for what it is good at (axes, grid, anti-aliased lines) and
// nothing else: decimation is core's, the time axis labels, headers and legends are painted here, so the pane
// looks like the timeline above it and a custom painter can replace the charts without touching the callers.
#include "views/charts/metric_chart_view.h"

#include "core/analysis/decimate.h"
#include "core/rules/template.h"
#include "views/common/time_text.h"

#include <QAction>
#include <QDateTime>
#include <QEvent>
#include <QGraphicsLayout>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QResizeEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QStackedLayout>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtCharts/QAreaSeries>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>
#include <utility>

namespace faultline::views {

namespace {

constexpr int kGutter = 40; ///< room left of a plot for the value labels
constexpr int kPlotTop = 8;
constexpr int kPlotBottom = 5;
constexpr int kAxisHeight = 22;
constexpr std::size_t kMaxLegendPerLine = 6; ///< more lines than this: one legend entry (and colour) per node
constexpr std::size_t kMaxLinesDrawn = 32; ///< more: a min–max band for the panel, plus the emphasised lines
constexpr std::size_t kMaxBandLines = 8; ///< lines drawn over the band (emphasised first, then blamed nodes)
constexpr std::size_t kMaxSegments = 64; ///< breaks beyond this many in view are drawn through

QString qs(const std::string& s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

bool isDark(const QPalette& pal)
{
    return pal.color(QPalette::Base).lightness() < 128;
}

QColor withAlpha(QColor c, int alpha)
{
    c.setAlpha(alpha);
    return c;
}

/// Distinct hues; the dark variants are lighter so they keep their contrast on a dark base.
QColor lineColour(std::size_t i, bool dark)
{
    static constexpr QRgb kLight[] = { 0x1f6fb4, 0xc8322f, 0x2a9a3a, 0xe07b10, 0x8a5cc2, 0x0f9aa8, 0xb8479a, 0x7a6a2e,
        0x5f6f7f, 0x9aa01a };
    static constexpr QRgb kDark[] = { 0x6cb4ff, 0xff7070, 0x66d36e, 0xffb347, 0xc4a0ff, 0x4fdce8, 0xff94dc, 0xd8c27a,
        0xb0bcc8, 0xd6dc5a };
    constexpr std::size_t n = sizeof kLight / sizeof kLight[0];
    return QColor(dark ? kDark[i % n] : kLight[i % n]);
}

/// The smallest round step (the timeline's steps) of at least `minNs`.
qint64 tickStep(double minNs)
{
    constexpr qint64 us = 1000;
    constexpr qint64 ms = 1000 * us;
    constexpr qint64 s = kNsPerSec;
    constexpr qint64 h = 60 * kNsPerMin;
    static constexpr qint64 kSteps[] = { 1, 2, 5, 10, 20, 50, 100, 200, 500, us, 2 * us, 5 * us, 10 * us, 20 * us,
        50 * us, 100 * us, 200 * us, 500 * us, ms, 2 * ms, 5 * ms, 10 * ms, 20 * ms, 50 * ms, 100 * ms, 200 * ms,
        500 * ms, s, 2 * s, 5 * s, 10 * s, 15 * s, 30 * s, kNsPerMin, 2 * kNsPerMin, 5 * kNsPerMin, 10 * kNsPerMin,
        15 * kNsPerMin, 30 * kNsPerMin, h, 2 * h, 3 * h, 6 * h, 12 * h, 24 * h, 48 * h, 7 * 24 * h, 14 * 24 * h,
        28 * 24 * h };
    for (qint64 step : kSteps)
        if (static_cast<double>(step) >= minNs)
            return step;
    qint64 step = 28 * 24 * h;
    while (static_cast<double>(step) < minNs && step < INT64_MAX / 10)
        step *= 10;
    return step;
}

/// A compact value: integers as they are, fractions to three significant digits.
QString formatValue(double v)
{
    if (!std::isfinite(v))
        return QStringLiteral("—");
    const double a = std::abs(v);
    if (a >= 1e15)
        return QString::number(v, 'g', 4);
    if (a == std::floor(a))
        return QString::number(static_cast<qint64>(v));
    if (a >= 100)
        return QString::number(v, 'f', 0);
    return QString::number(v, 'g', 3);
}

/// 1, 2, 2.5 or 5 times a power of ten, at least `x`.
double niceStep(double x)
{
    if (!(x > 0))
        return 1;
    const double p = std::pow(10.0, std::floor(std::log10(x)));
    for (double m : { 1.0, 2.0, 2.5, 5.0, 10.0 })
        if (m * p >= x * (1 - 1e-9))
            return m * p;
    return 10 * p;
}

/// A value-axis label: "50k", "1.5M", "0.25".
QString axisLabel(double v, double step)
{
    const double a = std::abs(v);
    if (a < step * 1e-6)
        return QStringLiteral("0");
    if (a >= 1e6 && step >= 1e5)
        return QString::number(v / 1e6, 'g', 3) + QLatin1Char('M');
    if (a >= 1e3 && step >= 1e3)
        return QString::number(v / 1e3, 'g', 3) + QLatin1Char('k');
    const int decimals = step >= 1 ? 0 : std::min(6, static_cast<int>(std::ceil(-std::log10(step) - 1e-9)));
    return QString::number(v, 'f', decimals);
}

struct MetricName
{
    const char* name;
    const char* title;
    const char* unit;
};

/// Readable titles for the series the catalog's metric conditions use (rules/packs/metrics.yaml) and their
/// usual neighbours; any other series is titled by its own name.
const MetricName* knownMetric(std::string_view name)
{
    static constexpr MetricName kNames[] = {
        { "DCGM_FI_DEV_GPU_UTIL", "GPU utilisation", "%" },
        { "DCGM_FI_DEV_MEM_COPY_UTIL", "Memory copy utilisation", "%" },
        { "DCGM_FI_DEV_XID_ERRORS", "Last Xid (DCGM gauge)", "" },
        { "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL", "NVLink CRC flit errors", "count" },
        { "DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL", "NVLink CRC data errors", "count" },
        { "DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL", "NVLink replay errors", "count" },
        { "DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL", "NVLink recovery errors", "count" },
        { "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "ECC double-bit errors (volatile)", "count" },
        { "DCGM_FI_DEV_ECC_DBE_AGG_TOTAL", "ECC double-bit errors (aggregate)", "count" },
        { "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", "ECC single-bit errors (volatile)", "count" },
        { "DCGM_FI_DEV_GPU_TEMP", "GPU temperature", "°C" },
        { "DCGM_FI_DEV_MEMORY_TEMP", "Memory temperature", "°C" },
        { "DCGM_FI_DEV_POWER_USAGE", "Power draw", "W" },
        { "DCGM_FI_DEV_FB_USED", "Framebuffer used", "MiB" },
        { "DCGM_FI_DEV_ROW_REMAP_FAILURE", "Row-remap failure", "" },
        { "node_infiniband_link_downed_total", "IB link downed", "count" },
        { "node_infiniband_link_error_recovery_total", "IB link error recoveries", "count" },
        { "node_infiniband_port_receive_errors_total", "IB receive errors", "count" },
    };
    for (const MetricName& m : kNames)
        if (name == m.name)
            return &m;
    return nullptr;
}

/// The value of `s` at `t`: its last finite sample at or before t, unless older than `staleNs` (0: never stale).
std::optional<double> valueAt(const core::MetricSeries& s, qint64 t, qint64 staleNs)
{
    auto it = std::upper_bound(s.samples.begin(), s.samples.end(), t,
        [](qint64 v, const std::pair<std::int64_t, double>& p) { return v < p.first; });
    if (it == s.samples.begin())
        return std::nullopt;
    --it;
    if (!std::isfinite(it->second) || (staleNs > 0 && t - it->first > staleNs))
        return std::nullopt;
    return it->second;
}

/// Three typical scrape intervals (the median of the first gaps), at least a second: samples further apart than
/// this are drawn with a break, as Grafana does for a missing scrape.
qint64 breakAfterFor(const core::MetricSeries& s)
{
    std::vector<qint64> gaps;
    for (std::size_t i = 1; i < s.samples.size() && gaps.size() < 64; ++i)
        if (s.samples[i].first > s.samples[i - 1].first)
            gaps.push_back(s.samples[i].first - s.samples[i - 1].first);
    if (gaps.empty())
        return 0;
    std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2), gaps.end());
    return std::max<qint64>(kNsPerSec, 3 * gaps[gaps.size() / 2]);
}

struct Line
{
    std::size_t series = 0;
    QString label; ///< base + " " + suffix
    QString base; ///< node, GPU, device
    QString suffix; ///< the labels that tell namesakes apart ("err_code=149"), or ""

    QString tooltip;
    std::size_t legend = 0;
    qint64 breakAfterNs = 0;
    bool blamed = false;
    std::vector<QLineSeries*> segments;
    QScatterSeries* dots = nullptr; ///< samples isolated between breaks (a one-point segment draws nothing)
    int points = 0;
    int largest = 0;
    bool drawn = true;
};

struct LegendEntry
{
    QString label;
    bool heading = false; ///< a namesakes' common label, over their entries (no line of its own)
    bool nested = false; ///< under a heading
    QString fullLabel; ///< a nested entry's label with its heading's
    QString tooltip;
    std::size_t colour = 0;
    std::vector<std::size_t> lines;
    bool band = false;
};

/// Everything the panels share: the evidence, the time mapping and the margins.
struct Shared
{
    const core::EvidenceSet* evidence = nullptr;
    qint64 origin = 0; ///< x = (ns - origin) / 1e9 on the charts' time axes
    qint64 from = 0;
    qint64 to = 0;
    qint64 cursor = INT64_MIN;
    qint64 tickStepNs = kNsPerMin;
    int left = 220;
    int right = 14;
    QWidget* pane = nullptr;

    double toX(qint64 ns) const { return static_cast<double>(ns - origin) / 1e9; }
    qint64 fromX(double x) const { return origin + static_cast<qint64>(std::llround(x * 1e9)); }
};

/// The chart of one panel: a QChartView whose plot area is pinned to the pane's margins.
class ChartView : public QChartView
{
public:
    std::function<void()> onResized;
    std::function<void(qint64)> onClicked;
    std::function<QString(qint64)> tooltipAt;
    std::function<void(QPainter*)> paintForeground;
    const Shared* shared = nullptr;

    explicit ChartView(QChart* chart, QWidget* parent)
        : QChartView(chart, parent)
    {
        setRenderHint(QPainter::Antialiasing);
        setFrameShape(QFrame::NoFrame);
        setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        setMinimumHeight(40);
        setFocusPolicy(Qt::NoFocus);
        viewport()->setCursor(Qt::CrossCursor);
    }

protected:
    void resizeEvent(QResizeEvent* event) override
    {
        QChartView::resizeEvent(event);
        if (onResized)
            onResized();
    }
    void drawForeground(QPainter* painter, const QRectF& rect) override
    {
        QChartView::drawForeground(painter, rect);
        if (paintForeground)
            paintForeground(painter);
    }
    void mousePressEvent(QMouseEvent* event) override
    {
        if (event->button() == Qt::LeftButton && chart()->plotArea().contains(event->position()) && onClicked) {
            onClicked(shared->fromX(chart()->mapToValue(event->position()).x()));
            event->accept();
            return;
        }
        QChartView::mousePressEvent(event);
    }
    bool viewportEvent(QEvent* event) override
    {
        if (event->type() == QEvent::ToolTip && tooltipAt) {
            auto* help = static_cast<QHelpEvent*>(event);
            const QPointF pos = help->pos();
            if (!chart()->plotArea().contains(pos)) {
                QToolTip::hideText();
                return true;
            }
            QToolTip::showText(help->globalPos(), tooltipAt(shared->fromX(chart()->mapToValue(pos).x())), this);
            return true;
        }
        return QChartView::viewportEvent(event);
    }
};

/// The panel's title and legend, left of its chart, with each entry's value at the cursor.
class PanelHeader : public QWidget
{
public:
    QString title;
    QString titleTip;
    std::vector<LegendEntry>* legend = nullptr;
    std::function<QString(std::size_t)> valueOf; ///< legend entry -> value at the cursor ("" when none)
    std::function<bool(std::size_t)> emphasised;
    std::function<QColor(std::size_t)> colourOf;

    explicit PanelHeader(QWidget* parent)
        : QWidget(parent)
    {
        setAttribute(Qt::WA_OpaquePaintEvent, false);
    }

    int rowHeight() const { return QFontMetrics(smallFont()).height() + 1; }
    int titleHeight() const { return QFontMetrics(titleFont()).height() + 3; }
    QFont smallFont() const
    {
        QFont f = font();
        f.setPointSizeF(std::max(7.0, f.pointSizeF() - 1));
        return f;
    }
    QFont titleFont() const
    {
        QFont f = font();
        f.setBold(true);
        return f;
    }
    /// Legend rows that fit; the last one says how many more there are when not all do.
    std::size_t visibleRows() const
    {
        const std::size_t n = legend ? legend->size() : 0;
        const int room = std::max(0, height() - titleHeight() - 4);
        const auto fit = static_cast<std::size_t>(room / std::max(1, rowHeight()));
        return fit >= n ? n : fit == 0 ? 0 : fit - 1;
    }
    /// The entries shown, in order: all of them when they fit; else the emphasised ones first, without headings
    /// (`compact`: a nested entry then shows its full label).
    std::vector<std::size_t> shownRows(bool& compact) const
    {
        const std::size_t n = legend ? legend->size() : 0;
        const std::size_t rows = visibleRows();
        std::vector<std::size_t> out;
        compact = rows < n;
        if (!compact) {
            for (std::size_t i = 0; i < n; ++i)
                out.push_back(i);
            return out;
        }
        for (int pass = 0; pass < 2; ++pass)
            for (std::size_t i = 0; i < n && out.size() < rows; ++i) {
                const bool emph = emphasised && emphasised(i);
                if ((*legend)[i].heading || emph != (pass == 0))
                    continue;
                out.push_back(i);
            }
        return out;
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        const QPalette& pal = palette();
        p.setRenderHint(QPainter::Antialiasing);
        const int w = width() - 8;
        p.setFont(titleFont());
        p.setPen(pal.color(QPalette::WindowText));
        const QFontMetrics fmTitle(titleFont());
        p.drawText(QRect(6, 3, w - 2, fmTitle.height()), Qt::AlignLeft | Qt::AlignVCenter,
            fmTitle.elidedText(title, Qt::ElideRight, w - 2));
        if (!legend)
            return;
        const QFont small = smallFont();
        QFont smallBold = small;
        smallBold.setBold(true);
        const QFontMetrics fm(small);
        int y = titleHeight() + 1;
        bool compact = false;
        const std::vector<std::size_t> shown = shownRows(compact);
        for (std::size_t i : shown) {
            const LegendEntry& e = (*legend)[i];
            const int h = rowHeight();
            if (e.heading) {
                p.setFont(small);
                p.setPen(pal.color(QPalette::WindowText));
                p.drawText(QRect(8, y, w - 8, h), Qt::AlignLeft | Qt::AlignVCenter,
                    fm.elidedText(e.label, Qt::ElideRight, w - 8));
                y += h;
                continue;
            }
            const bool bold = emphasised && emphasised(i);
            const QColor c = colourOf(i);
            const bool nested = e.nested && !compact;
            const int x0 = nested ? 18 : 8; // under a heading
            const QString& label = e.nested && compact ? e.fullLabel : e.label;
            if (e.band) {
                p.fillRect(QRectF(x0, y + h / 2.0 - 3, 14, 6), withAlpha(pal.color(QPalette::Text), 70));
            } else {
                p.setPen(QPen(c, bold ? 3.0 : 2.0, Qt::SolidLine, Qt::RoundCap));
                p.drawLine(QPointF(x0, y + h / 2.0), QPointF(x0 + 13, y + h / 2.0));
            }
            p.setFont(bold ? smallBold : small);
            const QString value = valueOf ? valueOf(i) : QString();
            const int vw = value.isEmpty() ? 0 : fm.horizontalAdvance(value) + 6;
            p.setPen(pal.color(QPalette::WindowText));
            const QFontMetrics fmRow(bold ? smallBold : small);
            // Elided in the middle: the end tells namesakes apart ("… err_code=149").
            const int tx = x0 + 18;
            p.drawText(QRect(tx, y, w - tx - vw, h), Qt::AlignLeft | Qt::AlignVCenter,
                fmRow.elidedText(label, Qt::ElideMiddle, w - tx - vw));
            if (!value.isEmpty()) {
                p.setPen(pal.color(QPalette::PlaceholderText));
                p.setFont(small);
                p.drawText(QRect(w - vw, y, vw, h), Qt::AlignRight | Qt::AlignVCenter, value);
            }
            y += h;
        }
        if (compact) {
            std::size_t entries = 0;
            for (const LegendEntry& e : *legend)
                entries += e.heading ? 0 : 1;
            p.setFont(small);
            p.setPen(pal.color(QPalette::PlaceholderText));
            p.drawText(QRect(8, y, w - 8, rowHeight()), Qt::AlignLeft | Qt::AlignVCenter,
                QObject::tr("+%1 more (hover)").arg(entries - shown.size()));
        }
    }
    bool event(QEvent* e) override
    {
        if (e->type() == QEvent::ToolTip) {
            auto* help = static_cast<QHelpEvent*>(e);
            QString tip = titleTip;
            if (legend && help->pos().y() >= titleHeight()) {
                const auto row = static_cast<std::size_t>((help->pos().y() - titleHeight() - 1) / rowHeight());
                bool compact = false;
                const std::vector<std::size_t> shown = shownRows(compact);
                if (row < shown.size())
                    tip = (*legend)[shown[row]].tooltip;
                else {
                    QStringList all;
                    for (std::size_t i = 0; i < legend->size(); ++i) {
                        const QString v = valueOf ? valueOf(i) : QString();
                        all << (*legend)[i].label + (v.isEmpty() ? QString() : QStringLiteral("  ") + v);
                    }
                    tip = all.join(u'\n');
                }
            }
            QToolTip::showText(help->globalPos(), tip, this);
            return true;
        }
        return QWidget::event(e);
    }
};

/// The time axis under the panels: tick labels at the charts' grid lines and the cursor's time.
class AxisStrip : public QWidget
{
public:
    const Shared* shared = nullptr;

    explicit AxisStrip(QWidget* parent)
        : QWidget(parent)
    {
        setFixedHeight(kAxisHeight);
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        const QPalette& pal = palette();
        const Shared& s = *shared;
        const int left = s.left;
        const int right = width() - s.right;
        if (right <= left || s.to <= s.from)
            return;
        const auto xOf = [&](qint64 t) {
            return left + static_cast<double>(t - s.from) / static_cast<double>(s.to - s.from) * (right - left);
        };
        p.setPen(pal.color(QPalette::Mid));
        p.drawLine(QPointF(left, 0.5), QPointF(right, 0.5));
        QFont f = font();
        f.setPointSizeF(std::max(7.0, f.pointSizeF() - 1));
        p.setFont(f);
        const QFontMetrics fm(f);
        const qint64 step = s.tickStepNs;
        qint64 t = floorDiv(s.from, step) * step;
        if (t < s.from)
            t += step;
        double lastRight = -1e9;
        p.setPen(pal.color(QPalette::WindowText));
        for (int n = 0; t <= s.to && n < 1000; t += step, ++n) {
            const double x = xOf(t);
            p.drawLine(QPointF(x, 0), QPointF(x, 4));
            const QString label = tickLabel(t, step);
            const double w = fm.horizontalAdvance(label);
            const double lx = std::clamp(x - w / 2, static_cast<double>(left), right - w);
            if (lx < lastRight + 8)
                continue;
            p.drawText(QRectF(lx, 4, w + 1, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, label);
            lastRight = lx + w;
        }
        const QString corner = tr("UTC");
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(QRect(left - kGutter, 4, kGutter - 6, fm.height()), Qt::AlignRight | Qt::AlignVCenter, corner);
        if (s.cursor != INT64_MIN && s.cursor >= s.from && s.cursor <= s.to) {
            const double nsPerPx = static_cast<double>(s.to - s.from) / std::max(1, right - left);
            const QString label = utcClock(s.cursor, nsPerPx < 1e6 ? 6 : nsPerPx < 1e9 ? 3 : 0);
            const double w = fm.horizontalAdvance(label) + 10;
            const double x = std::floor(xOf(s.cursor)) + 0.5;
            const QRectF bubble(std::clamp(x - w / 2, static_cast<double>(left), right - w), 3, w, fm.height() + 1);
            p.setRenderHint(QPainter::Antialiasing);
            p.setPen(Qt::NoPen);
            p.setBrush(pal.color(QPalette::Highlight));
            p.drawRoundedRect(bubble, 3, 3);
            p.setPen(pal.color(QPalette::HighlightedText));
            p.drawText(bubble, Qt::AlignCenter, label);
        }
    }
};

/// One metric name: header, chart, lines.
class Panel : public QWidget
{
public:
    std::string metric;
    QString title;
    QString unit;
    bool percent = false;
    std::vector<Line> lines;
    std::vector<LegendEntry> staticLegend; ///< when every line is drawn
    std::vector<LegendEntry> legend; ///< what the header shows now
    bool bandMode = false;
    std::set<std::size_t> highlight; ///< indices into `lines`
    std::optional<QPointF> marker; ///< (ns, value) of the shown event's sample
    qint64 relevance = INT64_MAX;
    int plotWidth = 0;
    double yLo = 0; ///< the value axis' ticks run from yLo to yHi by yStep; the axis itself has some headroom
    double yHi = 1;
    double yStep = 0.5;
    bool logScale = false;
    QRectF desiredPlot; ///< in chart coordinates: where the pane's margins put the plot
    QMarginsF reserve; ///< what Qt Charts adds around the plot beyond the chart's margins (the label-less axes)

    Shared* shared = nullptr;
    PanelHeader* header = nullptr;
    ChartView* view = nullptr;
    QChart* chart = nullptr;
    QValueAxis* xAxis = nullptr;
    QValueAxis* yAxis = nullptr;
    QLineSeries* cursorLine = nullptr;
    QScatterSeries* markerSeries = nullptr;
    QAreaSeries* band = nullptr;
    QLineSeries* bandUpper = nullptr;
    QLineSeries* bandLower = nullptr;
    std::function<void(qint64)> clicked;

    Panel(Shared* s, QWidget* parent)
        : QWidget(parent)
        , shared(s)
    {
        auto* row = new QHBoxLayout(this);
        row->setContentsMargins(0, 0, 0, 0);
        row->setSpacing(0);
        header = new PanelHeader(this);
        header->legend = &legend;
        chart = new QChart;
        chart->legend()->hide();
        chart->setMargins(QMargins());
        chart->layout()->setContentsMargins(0, 0, 0, 0);
        chart->setBackgroundRoundness(0);
        chart->setAnimationOptions(QChart::NoAnimation);
        view = new ChartView(chart, this);
        view->shared = shared;
        row->addWidget(header);
        row->addWidget(view, 1);

        xAxis = new QValueAxis(chart);
        xAxis->setLabelsVisible(false);
        xAxis->setLineVisible(false);
        xAxis->setTickInterval(1e18); // before the dynamic ticks: never more ticks than the range holds
        xAxis->setTickType(QValueAxis::TicksDynamic);
        xAxis->setMinorTickCount(0);
        yAxis = new QValueAxis(chart);
        yAxis->setLabelsVisible(false); // painted by paintValueLabels, in the pane's gutter
        yAxis->setLineVisible(false);
        yAxis->setTickInterval(1e18);
        yAxis->setTickType(QValueAxis::TicksDynamic);
        yAxis->setMinorTickCount(0);
        chart->addAxis(xAxis, Qt::AlignBottom);
        chart->addAxis(yAxis, Qt::AlignLeft);

        cursorLine = new QLineSeries(chart);
        markerSeries = new QScatterSeries(chart);
        markerSeries->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
        markerSeries->setMarkerSize(13);
        view->onResized = [this] { layoutPlot(); };
        view->paintForeground = [this](QPainter* p) { paintValueLabels(*p); };
        QObject::connect(chart, &QChart::plotAreaChanged, this, [this](const QRectF& r) { measureReserve(r); });
        view->onClicked = [this](qint64 ns) {
            if (clicked)
                clicked(ns);
        };
        view->tooltipAt = [this](qint64 ns) { return tooltipAt(ns); };
        header->valueOf = [this](std::size_t i) { return legendValue(i, shared->cursor); };
        header->emphasised = [this](std::size_t i) {
            const LegendEntry& e = legend[i];
            return std::any_of(e.lines.begin(), e.lines.end(), [&](std::size_t l) { return highlight.count(l) > 0; });
        };
        header->colourOf = [this](std::size_t i) { return lineColour(legend[i].colour, isDark(palette())); };
    }

    void attach(QAbstractSeries* s)
    {
        chart->addSeries(s);
        s->attachAxis(xAxis);
        s->attachAxis(yAxis);
    }

    /// Creates the chart series once the lines are known.
    void build()
    {
        if (lines.size() > kMaxLinesDrawn) {
            bandMode = true;
            bandUpper = new QLineSeries(chart);
            bandLower = new QLineSeries(chart);
            band = new QAreaSeries(bandUpper, bandLower);
            attach(band);
        }
        legend = staticLegend;
        attach(cursorLine);
        attach(markerSeries);
        header->title = title;
        QStringList tip;
        tip << QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()) << qs(metric).toHtmlEscaped();
        tip << QObject::tr("%n series", nullptr, static_cast<int>(lines.size()));
        header->titleTip = tip.join(QStringLiteral("<br>"));
        header->setMinimumHeight(header->titleHeight() + 2 * header->rowHeight() + 6);
        setMinimumHeight(std::max(header->minimumHeight(), 56));
        applyTheme();
    }

    QPen linePen(const Line& l) const
    {
        const bool dark = isDark(palette());
        QColor c = lineColour(legendColour(l), dark);
        const bool emph = highlight.count(static_cast<std::size_t>(&l - lines.data())) > 0;
        double w = 1.4;
        if (!highlight.empty() && !emph)
            c = withAlpha(c, dark ? 110 : 95);
        if (emph)
            w = 2.6;
        QPen pen(c, w);
        pen.setCapStyle(Qt::RoundCap);
        pen.setJoinStyle(Qt::RoundJoin);
        return pen;
    }

    std::size_t legendColour(const Line& l) const
    {
        if (!bandMode)
            return staticLegend[l.legend].colour;
        const auto idx = static_cast<std::size_t>(&l - lines.data());
        for (const LegendEntry& e : legend)
            if (std::find(e.lines.begin(), e.lines.end(), idx) != e.lines.end())
                return e.colour;
        return 0;
    }

    void applyTheme()
    {
        const QPalette& pal = palette();
        const bool dark = isDark(pal);
        chart->setBackgroundBrush(pal.color(QPalette::Window));
        chart->setBackgroundPen(Qt::NoPen);
        chart->setPlotAreaBackgroundVisible(true);
        chart->setPlotAreaBackgroundBrush(pal.color(QPalette::Base));
        chart->setPlotAreaBackgroundPen(QPen(pal.color(QPalette::Mid), 1));
        view->setBackgroundBrush(pal.color(QPalette::Window));
        const QColor grid = withAlpha(pal.color(QPalette::Text), dark ? 34 : 28);
        for (QValueAxis* a : { xAxis, yAxis }) {
            a->setGridLinePen(QPen(grid, 1));
            a->setLabelsBrush(pal.color(QPalette::WindowText));
            QFont f = font();
            f.setPointSizeF(std::max(7.0, f.pointSizeF() - 1));
            a->setLabelsFont(f);
        }
        QPen cursorPen(pal.color(QPalette::Highlight), 1.2);
        cursorLine->setPen(cursorPen);
        markerSeries->setColor(dark ? QColor(0xffb347) : QColor(0xd9480f));
        markerSeries->setBorderColor(pal.color(QPalette::Base));
        if (band) {
            const QColor c = pal.color(QPalette::Text);
            band->setBrush(withAlpha(c, dark ? 46 : 34));
            band->setPen(QPen(withAlpha(c, dark ? 90 : 70), 1));
        }
        restyleLines();
    }

    void restyleLines()
    {
        for (Line& l : lines) {
            const QPen pen = linePen(l);
            for (QLineSeries* s : l.segments)
                s->setPen(pen);
            if (l.dots) {
                l.dots->setColor(pen.color());
                l.dots->setBorderColor(pen.color());
            }
        }
        header->update();
    }

    /// Puts the plot area at the pane's margins, whatever this panel's position in the scroll area. Qt Charts 6.4
    /// lays its axes out from its own layout even with QChart::setPlotArea, so the plot is steered with the chart's
    /// margins instead (steerPlotArea).
    void layoutPlot()
    {
        if (!shared->pane)
            return;
        const int chartX = view->mapTo(shared->pane, QPoint(0, 0)).x();
        const int plotLeft = std::max(0, shared->left - chartX);
        const int plotRight = std::min(view->width(), shared->pane->width() - shared->right - chartX);
        desiredPlot = QRectF(plotLeft, kPlotTop, std::max(1, plotRight - plotLeft),
            std::max(1, view->height() - kPlotTop - kPlotBottom));
        steerPlotArea();
        const int w = static_cast<int>(std::lround(desiredPlot.width()));
        if (w != plotWidth) {
            plotWidth = w;
            refresh();
        }
    }

    /// Sets the chart's margins so that its plot area lands on desiredPlot. How much the label-less axes reserve
    /// around the plot beyond the margins is measured when a layout reports its plot area (measureReserve): the
    /// plot area read at any other time may predate the last margins.
    void steerPlotArea()
    {
        const QSizeF size = chart->size();
        if (desiredPlot.isEmpty() || size.isEmpty())
            return;
        const auto px = [](double v) { return std::max(0, static_cast<int>(std::lround(v))); };
        const QMargins want(px(desiredPlot.left() - reserve.left()), px(desiredPlot.top() - reserve.top()),
            px(size.width() - desiredPlot.right() - reserve.right()),
            px(size.height() - desiredPlot.bottom() - reserve.bottom()));
        if (want != chart->margins())
            chart->setMargins(want);
    }

    void measureReserve(const QRectF& now)
    {
        const QSizeF size = chart->size();
        const QMargins m = chart->margins();
        if (now.isEmpty() || size.isEmpty())
            return;
        reserve = QMarginsF(now.left() - m.left(), now.top() - m.top(), size.width() - now.right() - m.right(),
            size.height() - now.bottom() - m.bottom());
        steerPlotArea();
    }

    /// The value labels, right-aligned in the gutter left of the plot, at the axis' grid lines.
    void paintValueLabels(QPainter& p) const
    {
        const QRectF plot = chart->plotArea();
        if (plot.isEmpty() || !(yAxis->max() > yAxis->min()) || !(yStep > 0))
            return;
        QFont f = font();
        f.setPointSizeF(std::max(7.0, f.pointSizeF() - 1));
        p.setFont(f);
        const QFontMetrics fm(f);
        p.setPen(palette().color(QPalette::WindowText));
        const double span = yAxis->max() - yAxis->min();
        const int n = static_cast<int>(std::lround((yHi - yLo) / yStep));
        // The top and the bottom labels first, then those in between that do not collide (a short panel).
        std::vector<int> order { std::min(n, 11), 0 };
        for (int k = 1; k < n && k < 11; ++k)
            order.push_back(k);
        std::vector<double> drawn;
        for (int k : order) {
            const double v = yLo + k * yStep;
            const double y = plot.bottom() - (v - yAxis->min()) / span * plot.height();
            if (std::any_of(drawn.begin(), drawn.end(), [&](double d) { return std::abs(d - y) < fm.height() - 1; }))
                continue;
            drawn.push_back(y);
            const QRectF box(plot.left() - kGutter, y - fm.height() / 2.0, kGutter - 5, fm.height());
            p.drawText(box, Qt::AlignRight | Qt::AlignVCenter,
                logScale ? axisLabel(fromAxis(v), std::max(1.0, fromAxis(v))) : axisLabel(v, yStep));
        }
        if (logScale) {
            p.setPen(palette().color(QPalette::PlaceholderText));
            p.drawText(QRectF(plot.left() + 4, plot.top() + 1, 120, fm.height()), Qt::AlignLeft | Qt::AlignTop,
                QObject::tr("log scale"));
        }
    }

    QLineSeries* segment(Line& l, std::size_t k)
    {
        while (l.segments.size() <= k) {
            auto* s = new QLineSeries(chart);
            s->setPen(linePen(l));
            attach(s);
            l.segments.push_back(s);
        }
        return l.segments[k];
    }

    /// The band and emphasised lines in band mode: the legend is rebuilt with what is drawn.
    void chooseDrawn()
    {
        if (!bandMode) {
            for (Line& l : lines)
                l.drawn = true;
            return;
        }
        std::vector<std::size_t> drawn(highlight.begin(), highlight.end());
        for (std::size_t i = 0; i < lines.size() && drawn.size() < kMaxBandLines; ++i)
            if (lines[i].blamed && !highlight.count(i))
                drawn.push_back(i);
        for (Line& l : lines)
            l.drawn = false;
        legend.clear();
        LegendEntry all;
        all.band = true;
        all.label = QObject::tr("all %1 series, min–max").arg(lines.size());
        all.tooltip = all.label;
        all.colour = 8;
        legend.push_back(all);
        for (std::size_t i : drawn) {
            lines[i].drawn = true;
            LegendEntry e;
            e.label = lines[i].label;
            e.tooltip = lines[i].tooltip;
            e.colour = legend.size() - 1;
            e.lines = { i };
            legend.push_back(e);
        }
        for (std::size_t i = 0; i < lines.size(); ++i)
            legend.front().lines.push_back(i);
    }

    /// Decimates every line to the plot's width over the shared range and hands the points to the chart.
    void refresh()
    {
        if (plotWidth <= 0 || !shared->evidence)
            return;
        const Shared& s = *shared;
        const auto width = static_cast<std::size_t>(plotWidth);
        chooseDrawn();
        // Pass 1: decimate, and find the visible values' extent.
        std::vector<std::vector<core::DecimatedPoint>> decimated(lines.size());
        double lo = HUGE_VAL;
        double hi = -HUGE_VAL;
        double minPositive = HUGE_VAL;
        for (std::size_t li = 0; li < lines.size(); ++li) {
            Line& l = lines[li];
            if (!l.drawn && !bandMode)
                continue;
            core::DecimateOptions opt;
            opt.breakAfterNs = l.breakAfterNs;
            decimated[li] = core::decimateMinMax(s.evidence->metrics[l.series].samples, s.from, s.to, width, opt);
            for (const auto& p : decimated[li])
                if (p.timeNs >= s.from && p.timeNs <= s.to) {
                    lo = std::min(lo, p.value);
                    hi = std::max(hi, p.value);
                    if (p.value > 0)
                        minPositive = std::min(minPositive, p.value);
                }
        }
        if (marker && marker->x() >= static_cast<double>(s.from) && marker->x() <= static_cast<double>(s.to)) {
            lo = std::min(lo, marker->y());
            hi = std::max(hi, marker->y());
        }
        // A counter that jumps by decades (NVLink CRC: 3, 7, 12 … 91,544) hides its onset on a linear axis: such a
        // panel gets a log axis, and says so.
        logScale = !percent && lo >= 0 && hi >= 1000 && minPositive <= hi / 100;

        // Pass 2: hand the points to the chart, the first lines last so that they are drawn on top.
        std::vector<double> bandMin;
        std::vector<double> bandMax;
        if (bandMode) {
            bandMin.assign(width, HUGE_VAL);
            bandMax.assign(width, -HUGE_VAL);
        }
        for (std::size_t li = lines.size(); li-- > 0;) {
            Line& l = lines[li];
            const auto& pts = decimated[li];
            if (bandMode)
                for (const auto& p : pts)
                    if (p.timeNs >= s.from && p.timeNs <= s.to) {
                        const std::size_t b = core::decimationBucketOf(s.from, s.to, width, p.timeNs);
                        bandMin[b] = std::min(bandMin[b], p.value);
                        bandMax[b] = std::max(bandMax[b], p.value);
                    }
            l.points = 0;
            l.largest = 0;
            std::size_t used = 0;
            QList<QPointF> seg;
            QList<QPointF> dots;
            const auto flush = [&] {
                if (seg.size() == 1) {
                    dots.append(seg.front());
                } else if (!seg.isEmpty()) {
                    QLineSeries* ls = segment(l, used++);
                    l.points += static_cast<int>(seg.size());
                    l.largest = std::max(l.largest, static_cast<int>(seg.size()));
                    ls->replace(seg);
                    ls->setVisible(true);
                }
                seg.clear();
            };
            if (l.drawn) {
                seg.reserve(static_cast<qsizetype>(pts.size()));
                std::size_t breaks = 0;
                for (const auto& p : pts) {
                    if (p.gapBefore && ++breaks < kMaxSegments)
                        flush();
                    seg.append(QPointF(s.toX(p.timeNs), toAxis(p.value)));
                }
                flush();
            }
            for (std::size_t k = used; k < l.segments.size(); ++k) {
                l.segments[k]->clear();
                l.segments[k]->setVisible(false);
            }
            if (!dots.isEmpty() && !l.dots) {
                l.dots = new QScatterSeries(chart);
                l.dots->setMarkerSize(4);
                const QPen pen = linePen(l);
                l.dots->setColor(pen.color());
                l.dots->setBorderColor(pen.color());
                attach(l.dots);
            }
            if (l.dots) {
                l.dots->replace(dots);
                l.points += static_cast<int>(dots.size());
                l.largest = std::max(l.largest, static_cast<int>(dots.size()));
            }
        }
        if (bandMode) {
            QList<QPointF> up;
            QList<QPointF> down;
            for (std::size_t b = 0; b < width; ++b) {
                if (bandMin[b] > bandMax[b])
                    continue;
                const qint64 mid = core::decimationBucketStart(s.from, s.to, width, b) / 2
                    + core::decimationBucketStart(s.from, s.to, width, b + 1) / 2;
                up.append(QPointF(s.toX(mid), toAxis(bandMax[b])));
                down.append(QPointF(s.toX(mid), toAxis(bandMin[b])));
            }
            bandUpper->replace(up);
            bandLower->replace(down);
        }
        setValueRange(lo, hi);
        const qint64 first = floorDiv(s.from, s.tickStepNs) * s.tickStepNs;
        setAxis(xAxis, s.toX(s.from), s.toX(s.to), s.toX(first), static_cast<double>(s.tickStepNs) / 1e9);
        updateCursor();
        updateMarker();
        restyleLines();
    }

    /// The value axis' coordinate of a value: the value, or on a log axis a symmetric log that keeps 0 (0 -> 0,
    /// 1 -> 1, 10 -> 2, 100 -> 3, …).
    double toAxis(double v) const
    {
        if (!logScale || v < 1)
            return v;
        return 1 + std::log10(v);
    }
    double fromAxis(double y) const
    {
        if (!logScale || y < 1)
            return y;
        return std::pow(10.0, y - 1);
    }

    /// Range and dynamic ticks in an order that never asks Qt Charts for more grid lines than the old or the new
    /// setting has (an old fine interval over a new wide range would create one item per tick).
    static void setAxis(QValueAxis* a, double min, double max, double anchor, double interval)
    {
        if (interval >= a->tickInterval()) {
            a->setTickInterval(interval);
            a->setTickAnchor(anchor);
            a->setRange(min, max);
        } else {
            a->setRange(min, max);
            a->setTickAnchor(anchor);
            a->setTickInterval(interval);
        }
    }

    void setValueRange(double lo, double hi)
    {
        if (!(lo <= hi)) {
            lo = 0;
            hi = 1;
        }
        if (logScale) {
            // Decades from 0; every other one when there are many.
            const double top = std::ceil(toAxis(hi) - 1e-9);
            yLo = 0;
            yHi = top;
            yStep = top > 4 ? 2 : 1;
            yHi = std::ceil(top / yStep) * yStep;
            const double pad = yHi * 0.06;
            setAxis(yAxis, -pad, yHi + pad, 0, yStep);
            view->viewport()->update();
            return;
        }
        if (percent && lo >= 0 && hi <= 100) {
            lo = 0;
            hi = 100;
        } else {
            if (lo >= 0 && lo <= 0.5 * hi)
                lo = 0;
            if (hi == lo) {
                const double pad = lo == 0 ? 1 : std::abs(lo) * 0.1;
                hi = lo + pad;
                lo = lo == 0 ? 0 : lo - pad;
            }
        }
        const double step = niceStep((hi - lo) / 2);
        lo = std::floor(lo / step + 1e-9) * step;
        hi = std::ceil(hi / step - 1e-9) * step;
        if (hi <= lo)
            hi = lo + step;
        yLo = lo;
        yHi = hi;
        yStep = step;
        // Headroom, so a line at the top or bottom of the range (utilisation at 100 %) is not drawn on the frame.
        const double pad = (hi - lo) * 0.06;
        setAxis(yAxis, lo - pad, hi + pad, lo, step);
        view->viewport()->update();
    }

    void updateCursor()
    {
        const Shared& s = *shared;
        if (s.cursor == INT64_MIN || s.cursor < s.from || s.cursor > s.to) {
            cursorLine->clear();
            cursorLine->setVisible(false);
        } else {
            const double x = s.toX(s.cursor);
            cursorLine->replace(QList<QPointF> { QPointF(x, yAxis->min()), QPointF(x, yAxis->max()) });
            cursorLine->setVisible(true);
        }
        header->update();
    }

    void updateMarker()
    {
        if (marker) {
            markerSeries->replace(
                QList<QPointF> { QPointF(shared->toX(static_cast<qint64>(marker->x())), toAxis(marker->y())) });
            markerSeries->setVisible(true);
        } else {
            markerSeries->clear();
            markerSeries->setVisible(false);
        }
    }

    /// The legend entry's value at `t`: the line's, or the range over the entry's lines.
    QString legendValue(std::size_t entry, qint64 t) const
    {
        if (t == INT64_MIN || entry >= legend.size() || !shared->evidence || legend[entry].heading)
            return {};
        double lo = HUGE_VAL;
        double hi = -HUGE_VAL;
        for (std::size_t li : legend[entry].lines) {
            const Line& l = lines[li];
            if (const auto v = valueAt(shared->evidence->metrics[l.series], t, l.breakAfterNs)) {
                lo = std::min(lo, *v);
                hi = std::max(hi, *v);
            }
        }
        if (lo > hi)
            return QStringLiteral("—");
        return lo == hi ? formatValue(lo) : formatValue(lo) + QStringLiteral("–") + formatValue(hi);
    }

    QString tooltipAt(qint64 t) const
    {
        QStringList rows;
        rows << QStringLiteral("<b>%1</b> &nbsp;%2 UTC").arg(title.toHtmlEscaped(), utcClock(t, 0));
        for (std::size_t i = 0; i < legend.size() && i < 12; ++i)
            rows << (legend[i].heading ? legend[i].label.toHtmlEscaped()
                                       : QStringLiteral("%1%2: %3")
                                             .arg(legend[i].nested ? QStringLiteral("&nbsp;&nbsp;") : QString(),
                                                 legend[i].label.toHtmlEscaped(), legendValue(i, t)));
        if (legend.size() > 12)
            rows << QObject::tr("… %1 more").arg(legend.size() - 12);
        if (marker && std::abs(static_cast<double>(t) - marker->x()) < 30e9)
            rows << QObject::tr("▲ the selected event's sample: %1 at %2 UTC")
                        .arg(formatValue(marker->y()), utcClock(static_cast<qint64>(marker->x()), 0));
        return rows.join(QStringLiteral("<br>"));
    }

    void changeEvent(QEvent* event) override
    {
        QWidget::changeEvent(event);
        if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
            applyTheme();
    }

    MetricPanelInfo info() const
    {
        MetricPanelInfo i;
        i.metric = qs(metric);
        i.title = title;
        for (const LegendEntry& e : legend)
            i.legend << e.label;
        for (std::size_t k = 0; k < lines.size(); ++k) {
            const Line& l = lines[k];
            i.lines << l.label;
            i.series.push_back(l.series);
            i.pointCounts.push_back(l.points);
            i.largestChartSeries = std::max(i.largestChartSeries, l.largest);
            if (highlight.count(k))
                i.highlighted << l.label;
        }
        if (bandUpper) {
            i.largestChartSeries = std::max(i.largestChartSeries, static_cast<int>(bandUpper->count()));
            i.largestChartSeries = std::max(i.largestChartSeries, static_cast<int>(bandLower->count()));
        }
        i.plotWidth = plotWidth;
        i.axisFromNs = shared->fromX(xAxis->min());
        i.axisToNs = shared->fromX(xAxis->max());
        i.valueMin = fromAxis(yLo);
        i.valueMax = fromAxis(yHi);
        i.logScale = logScale;
        if (cursorLine->isVisible() && cursorLine->count() > 0)
            i.cursorNs = shared->fromX(cursorLine->at(0).x());
        i.visible = !isHidden();
        i.eventMarker = markerSeries->isVisible() && markerSeries->count() > 0;
        return i;
    }
};

/// The line's label: node, GPU, device, and the labels that tell it from its namesakes.
QString baseLabel(const core::EvidenceSet& ev, const core::MetricSeries& s, std::size_t index)
{
    QString label = qs(ev.nodeName(s.node));
    if (s.gpu >= 0)
        label += (label.isEmpty() ? QString() : QStringLiteral(" ")) + QStringLiteral("GPU%1").arg(s.gpu);
    // "nvidia5" only repeats the GPU index; an IB device or NVLink id says something.
    const bool deviceIsGpu = s.device.rfind("nvidia", 0) == 0 && s.gpu >= 0;
    if (!s.device.empty() && !deviceIsGpu)
        label += (label.isEmpty() ? QString() : QStringLiteral(" ")) + qs(s.device);
    if (label.isEmpty())
        for (const auto& [k, v] : s.labels)
            if (k == "instance")
                label = qs(v);
    if (label.isEmpty())
        label = QObject::tr("series %1").arg(index + 1);
    return label;
}

QString labelTooltip(const core::EvidenceSet& ev, const core::MetricSeries& s)
{
    QStringList rows;
    rows << QStringLiteral("<b>%1</b>").arg(qs(s.name).toHtmlEscaped());
    for (const auto& [k, v] : s.labels)
        if (k != "__name__")
            rows << QStringLiteral("%1=\"%2\"").arg(qs(k).toHtmlEscaped(), qs(v).toHtmlEscaped());
    if (s.where.source < ev.sources.size())
        rows << QObject::tr("%1 line %2, %3 samples")
                    .arg(qs(ev.sources[s.where.source].path).toHtmlEscaped())
                    .arg(s.where.line)
                    .arg(s.samples.size());
    return rows.join(QStringLiteral("<br>"));
}

const std::string* labelValue(const core::MetricSeries& s, std::string_view key)
{
    for (const auto& [k, v] : s.labels)
        if (k == key)
            return &v;
    return nullptr;
}

bool sameGpu(const core::EvidenceSet& ev, const core::MetricSeries& s, const core::Event& e, const core::Verdict& v)
{
    if (e.node == core::kNoNode || s.node == core::kNoNode || ev.nodeName(s.node) != v.nodes.name(e.node))
        return false;
    if (!e.gpu.empty())
        if (const std::string* pci = labelValue(s, "pci_bus_id"))
            return core::normalisePci(*pci) == e.gpu;
    if (const std::string* idx = e.field("gpu_index"))
        return s.gpu >= 0 && *idx == std::to_string(s.gpu);
    return false;
}

} // namespace

struct MetricsPane::Impl
{
    MetricsPane* q;
    Shared shared;
    QStackedLayout* stack = nullptr;
    QLabel* empty = nullptr;
    QWidget* content = nullptr;
    QScrollArea* scroll = nullptr;
    QWidget* panelsHost = nullptr;
    QVBoxLayout* panelsLayout = nullptr;
    AxisStrip* axis = nullptr;
    QToolButton* menuButton = nullptr;
    QMenu* menu = nullptr;
    std::vector<Panel*> panels;

    explicit Impl(MetricsPane* pane)
        : q(pane)
    {
        shared.pane = pane;
    }

    void updateTickStep()
    {
        const int plot = std::max(1, q->width() - shared.left - shared.right);
        QFont f = q->font();
        f.setPointSizeF(std::max(7.0, f.pointSizeF() - 1));
        const QFontMetrics fm(f);
        double spacing = 80;
        const double nsPerPx = static_cast<double>(std::max<qint64>(1, shared.to - shared.from)) / plot;
        qint64 step = tickStep(spacing * nsPerPx);
        for (int k = 0; k < 4; ++k) {
            const double need = fm.horizontalAdvance(tickLabel(shared.from, step)) + 28;
            if (need <= spacing)
                break;
            spacing = need;
            step = tickStep(spacing * nsPerPx);
        }
        shared.tickStepNs = step;
    }

    void updateMenuText()
    {
        int shown = 0;
        for (Panel* p : panels)
            shown += p->isHidden() ? 0 : 1;
        menuButton->setText(tr("%1 of %2 metrics").arg(shown).arg(panels.size()));
    }

    static QString tr(const char* s) { return MetricsPane::tr(s); }
};

MetricsPane::MetricsPane(QWidget* parent)
    : QWidget(parent)
    , d(std::make_unique<Impl>(this))
{
    d->shared.left = m_left;
    d->shared.right = m_right;
    d->stack = new QStackedLayout(this);
    d->stack->setContentsMargins(0, 0, 0, 0);

    d->empty = new QLabel(this);
    d->empty->setObjectName(QStringLiteral("metricsEmptyState"));
    d->empty->setAlignment(Qt::AlignCenter);
    d->empty->setWordWrap(true);
    d->empty->setTextFormat(Qt::RichText);
    d->empty->setContentsMargins(24, 12, 24, 12);
    d->stack->addWidget(d->empty);

    d->content = new QWidget(this);
    auto* col = new QVBoxLayout(d->content);
    col->setContentsMargins(0, 0, 0, 0);
    col->setSpacing(0);
    d->scroll = new QScrollArea(d->content);
    d->scroll->setFrameShape(QFrame::NoFrame);
    d->scroll->setWidgetResizable(true);
    d->scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    d->panelsHost = new QWidget;
    d->panelsLayout = new QVBoxLayout(d->panelsHost);
    d->panelsLayout->setContentsMargins(0, 2, 0, 2);
    d->panelsLayout->setSpacing(2);
    d->scroll->setWidget(d->panelsHost);
    col->addWidget(d->scroll, 1);
    d->axis = new AxisStrip(d->content);
    d->axis->shared = &d->shared;
    col->addWidget(d->axis);
    d->menuButton = new QToolButton(d->axis);
    d->menuButton->setObjectName(QStringLiteral("metricsMenuButton"));
    d->menuButton->setAutoRaise(true);
    d->menuButton->setPopupMode(QToolButton::InstantPopup);
    d->menuButton->setToolTip(tr("Choose the metrics to chart"));
    d->menu = new QMenu(d->menuButton);
    d->menuButton->setMenu(d->menu);
    d->menuButton->move(2, 1);
    d->stack->addWidget(d->content);
    // Keep the plots pinned when the scroll bar comes and goes.
    connect(d->scroll->verticalScrollBar(), &QScrollBar::rangeChanged, this, [this] {
        for (Panel* p : d->panels)
            p->layoutPlot();
    });
    rebuild();
}

MetricsPane::~MetricsPane() = default;

QSize MetricsPane::sizeHint() const
{
    return { 1000, 260 };
}

QSize MetricsPane::minimumSizeHint() const
{
    return { 400, 110 };
}

int MetricsPane::panelCount() const
{
    return static_cast<int>(d->panels.size());
}

MetricPanelInfo MetricsPane::panelInfo(int panel) const
{
    if (panel < 0 || panel >= panelCount())
        return {};
    return d->panels[static_cast<std::size_t>(panel)]->info();
}

int MetricsPane::panelOfMetric(const QString& metric) const
{
    const std::string name = metric.toStdString();
    for (std::size_t i = 0; i < d->panels.size(); ++i)
        if (d->panels[i]->metric == name)
            return static_cast<int>(i);
    return -1;
}

void MetricsPane::setPanelVisible(int panel, bool visible)
{
    if (panel < 0 || panel >= panelCount())
        return;
    Panel* p = d->panels[static_cast<std::size_t>(panel)];
    p->setVisible(visible);
    const auto actions = d->menu->actions();
    if (panel < actions.size()) {
        const QSignalBlocker block(actions[panel]);
        actions[panel]->setChecked(visible);
    }
    d->updateMenuText();
    if (visible)
        p->layoutPlot();
}

bool MetricsPane::isEmptyStateShown() const
{
    return d->stack->currentWidget() == d->empty;
}

QString MetricsPane::emptyStateText() const
{
    return d->empty->text();
}

void MetricsPane::setPlotMargins(int left, int right)
{
    m_left = std::max(kGutter + 40, left);
    m_right = std::max(0, right);
    d->shared.left = m_left;
    d->shared.right = m_right;
    for (Panel* p : d->panels)
        p->header->setFixedWidth(m_left - kGutter);
    d->menuButton->setMaximumWidth(std::max(40, m_left - kGutter - 4));
    refreshAll();
}

void MetricsPane::setResult(const AnalysisResult& result)
{
    m_result = result;
    m_highlight.clear();
    rebuild();
}

void MetricsPane::setRange(qint64 fromNs, qint64 toNs)
{
    if (toNs < fromNs)
        std::swap(fromNs, toNs);
    if (toNs == fromNs)
        toNs = fromNs + 1;
    m_rangeSet = true;
    if (fromNs == m_from && toNs == m_to)
        return;
    m_from = fromNs;
    m_to = toNs;
    refreshAll();
}

void MetricsPane::setCursor(qint64 ns)
{
    if (ns == m_cursor)
        return;
    m_cursor = ns;
    d->shared.cursor = ns;
    for (Panel* p : d->panels)
        p->updateCursor();
    d->axis->update();
}

int MetricsPane::seriesOfEvent(int eventIndex) const
{
    const core::EvidenceSet* ev = m_result.evidence.get();
    const core::Verdict* v = m_result.verdict.get();
    if (!ev || !v || eventIndex < 0 || static_cast<std::size_t>(eventIndex) >= v->events.size())
        return -1;
    const core::Event& e = v->events[static_cast<std::size_t>(eventIndex)];
    if (e.provenance.empty())
        return -1;
    // A metric rule's event keeps the series' provenance as its own and the series' index as its observation
    // (Extraction::runMetrics), with the series' name in its "metric" field. Check all three: the index alone
    // would also name an observation for a log event.
    const core::Provenance& p = e.provenance.front();
    const std::string* metric = e.field("metric");
    const bool fromMetrics = p.source < ev->sources.size() && ev->sources[p.source].kind == core::SourceKind::Metrics;
    if (!metric && !fromMetrics)
        return -1;
    const auto matches = [&](std::size_t k) {
        const core::MetricSeries& s = ev->metrics[k];
        return s.where.source == p.source && s.where.byteOffset == p.byteOffset && s.where.line == p.line
            && (!metric || s.name == *metric);
    };
    if (e.observation < ev->metrics.size() && matches(e.observation))
        return static_cast<int>(e.observation);
    for (std::size_t k = 0; k < ev->metrics.size(); ++k)
        if (matches(k))
            return static_cast<int>(k);
    // Evidence re-imported differently (a case from an older build): the name and the GPU still tell.
    if (metric)
        for (std::size_t k = 0; k < ev->metrics.size(); ++k)
            if (ev->metrics[k].name == *metric && sameGpu(*ev, ev->metrics[k], e, *v))
                return static_cast<int>(k);
    return -1;
}

bool MetricsPane::showSeriesOfEvent(int eventIndex)
{
    clearHighlight();
    const core::EvidenceSet* ev = m_result.evidence.get();
    const core::Verdict* v = m_result.verdict.get();
    if (!ev || !v || eventIndex < 0 || static_cast<std::size_t>(eventIndex) >= v->events.size())
        return false;
    const core::Event& e = v->events[static_cast<std::size_t>(eventIndex)];
    const int own = seriesOfEvent(eventIndex);
    if (own >= 0) {
        m_highlight.push_back(static_cast<std::size_t>(own));
    } else {
        for (std::size_t k = 0; k < ev->metrics.size(); ++k)
            if (sameGpu(*ev, ev->metrics[k], e, *v))
                m_highlight.push_back(k);
    }
    if (m_highlight.empty())
        return false;
    Panel* first = nullptr;
    for (std::size_t pi = 0; pi < d->panels.size(); ++pi) {
        Panel* p = d->panels[pi];
        for (std::size_t li = 0; li < p->lines.size(); ++li)
            if (std::find(m_highlight.begin(), m_highlight.end(), p->lines[li].series) != m_highlight.end())
                p->highlight.insert(li);
        if (p->highlight.empty())
            continue;
        if (own >= 0) {
            // The sample the condition fired on (the event is placed on the scrape interval before it). Its
            // "value" field may be a later sample's (an increase rule reports where the climb got to).
            const qint64 sampleNs = e.timeNs + e.precisionNs;
            const std::string* value = e.field("value");
            const auto at = valueAt(ev->metrics[static_cast<std::size_t>(own)], sampleNs, 0);
            const double y = at ? *at : value ? std::strtod(value->c_str(), nullptr) : 0;
            p->marker = QPointF(static_cast<double>(sampleNs), y);
        }
        if (p->isHidden())
            setPanelVisible(static_cast<int>(pi), true);
        if (!first)
            first = p;
        p->refresh();
    }
    if (!first)
        return false;
    d->scroll->ensureWidgetVisible(first, 0, 0);
    return true;
}

void MetricsPane::clearHighlight()
{
    m_highlight.clear();
    for (Panel* p : d->panels) {
        if (p->highlight.empty() && !p->marker)
            continue;
        p->highlight.clear();
        p->marker.reset();
        p->refresh();
    }
}

void MetricsPane::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    refreshAll();
}

void MetricsPane::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    refreshAll();
}

void MetricsPane::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange
        || event->type() == QEvent::FontChange) {
        for (Panel* p : d->panels)
            p->applyTheme();
        d->axis->update();
    }
}

void MetricsPane::refreshAll()
{
    d->shared.from = m_from;
    d->shared.to = m_to;
    d->shared.cursor = m_cursor;
    d->updateTickStep();
    for (Panel* p : d->panels) {
        if (p->isHidden())
            continue;
        const int before = p->plotWidth;
        p->layoutPlot(); // refreshes when the width changed
        if (p->plotWidth == before)
            p->refresh();
    }
    d->axis->update();
}

void MetricsPane::rebuild()
{
    for (Panel* p : d->panels)
        delete p;
    d->panels.clear();
    d->menu->clear();
    const core::EvidenceSet* ev = m_result.evidence.get();
    const core::Verdict* v = m_result.verdict.get();
    d->shared.evidence = ev;

    if (!ev) {
        d->empty->setText(tr("<p><b>No metrics yet.</b></p><p>Open a bundle or a case: its Prometheus series "
                             "(DCGM Xid, NVLink CRC, GPU utilisation, …) are charted here on the timeline's time "
                             "axis.</p>"));
        d->stack->setCurrentWidget(d->empty);
        return;
    }
    std::size_t withSamples = 0;
    for (const auto& s : ev->metrics)
        withSamples += s.samples.empty() ? 0 : 1;
    if (withSamples == 0) {
        d->empty->setText(
            tr("<p><b>This bundle has no metric series.</b></p>"
               "<p>GPU and fabric counters often show a failure minutes before the logs do. Collect them for the "
               "job's window (one <tt>query_range</tt> per metric condition of the catalog, saved as "
               "<tt>prometheus/*.json</tt>):</p>"
               "<p><tt>faultline-collect --prom-url http://prometheus:9090 …</tt></p>"
               "<p>or add DCGM exporter scrapes (<tt>*.prom</tt>) to the bundle, then analyse it again. "
               "Help ▸ How to Collect a Bundle shows the queries.</p>"));
        d->stack->setCurrentWidget(d->empty);
        return;
    }

    // Time origin and the default range: the span of the samples.
    qint64 first = INT64_MAX;
    qint64 last = INT64_MIN;
    for (const auto& s : ev->metrics)
        if (!s.samples.empty()) {
            first = std::min<qint64>(first, s.samples.front().first);
            last = std::max<qint64>(last, s.samples.back().first);
        }
    d->shared.origin = floorDiv(first, kNsPerMin) * kNsPerMin;
    if (!m_rangeSet) {
        m_from = first;
        m_to = std::max(last, first + kNsPerSec);
    }

    // Relevance: the earliest trail event that came from a series (or, for the cause, shares its GPU).
    std::vector<qint64> relevance(ev->metrics.size(), INT64_MAX);
    std::set<std::string> blamed;
    if (v) {
        blamed.insert(v->blamedNodes.begin(), v->blamedNodes.end());
        for (const core::TrailItem& item : v->trail) {
            const int s = seriesOfEvent(static_cast<int>(item.event));
            const qint64 t = v->events[item.event].timeNs;
            if (s >= 0)
                relevance[static_cast<std::size_t>(s)] = std::min(relevance[static_cast<std::size_t>(s)], t);
        }
        if (v->hasCause)
            for (std::size_t k = 0; k < ev->metrics.size(); ++k)
                if (sameGpu(*ev, ev->metrics[k], v->events[v->cause], *v))
                    relevance[k] = std::min<qint64>(relevance[k], v->events[v->cause].timeNs);
    }

    // One panel per metric name.
    std::map<std::string, std::vector<std::size_t>> byName;
    for (std::size_t k = 0; k < ev->metrics.size(); ++k)
        if (!ev->metrics[k].samples.empty())
            byName[ev->metrics[k].name].push_back(k);
    for (auto& [name, members] : byName) {
        auto* p = new Panel(&d->shared, d->panelsHost);
        p->metric = name;
        const MetricName* known = knownMetric(name);
        p->unit = known ? QString::fromUtf8(known->unit) : QString();
        p->percent = p->unit == QStringLiteral("%");
        p->title = known ? QString::fromUtf8(known->title) : qs(name);
        if (!p->unit.isEmpty() && p->unit != QStringLiteral("count"))
            p->title += QStringLiteral(" (%1)").arg(p->unit);
        // Lines: blamed nodes first, then by node, GPU, device, labels.
        std::sort(members.begin(), members.end(), [&](std::size_t a, std::size_t b) {
            const auto& sa = ev->metrics[a];
            const auto& sb = ev->metrics[b];
            const bool ba = blamed.count(ev->nodeName(sa.node)) > 0;
            const bool bb = blamed.count(ev->nodeName(sb.node)) > 0;
            return std::tuple(!ba, ev->nodeName(sa.node), sa.gpu, sa.device, sa.labels)
                < std::tuple(!bb, ev->nodeName(sb.node), sb.gpu, sb.device, sb.labels);
        });
        for (std::size_t k : members) {
            const auto& s = ev->metrics[k];
            Line l;
            l.series = k;
            l.label = baseLabel(*ev, s, k);
            l.base = l.label;
            l.tooltip = labelTooltip(*ev, s);
            l.breakAfterNs = breakAfterFor(s);
            l.blamed = blamed.count(ev->nodeName(s.node)) > 0;
            p->relevance = std::min(p->relevance, relevance[k]);
            p->lines.push_back(std::move(l));
        }
        // Namesakes (DCGM's Xid gauge keeps one series per err_code): add the labels that differ.
        std::map<QString, std::vector<std::size_t>> same;
        for (std::size_t i = 0; i < p->lines.size(); ++i)
            same[p->lines[i].label].push_back(i);
        for (const auto& [label, idx] : same) {
            if (idx.size() < 2)
                continue;
            std::set<std::string> keys;
            for (std::size_t i : idx)
                for (const auto& kv : ev->metrics[p->lines[i].series].labels)
                    keys.insert(kv.first);
            std::vector<std::string> differing;
            for (const std::string& key : keys) {
                if (key == "__name__" || key == "UUID" || key == "instance")
                    continue;
                std::set<std::string> values;
                for (std::size_t i : idx) {
                    const std::string* val = labelValue(ev->metrics[p->lines[i].series], key);
                    values.insert(val ? *val : std::string());
                }
                if (values.size() > 1)
                    differing.push_back(key);
            }
            // Prefer a code over a message: err_code before err_msg.
            std::stable_sort(differing.begin(), differing.end(), [](const std::string& a, const std::string& b) {
                return (a.find("msg") == std::string::npos) > (b.find("msg") == std::string::npos);
            });
            for (std::size_t i : idx) {
                const auto& s = ev->metrics[p->lines[i].series];
                Line& l = p->lines[i];
                if (differing.empty()) {
                    l.suffix = QStringLiteral("#%1").arg(i + 1);
                } else {
                    const std::string* val = labelValue(s, differing.front());
                    l.suffix = QStringLiteral("%1=%2").arg(qs(differing.front()), val ? qs(*val) : QString());
                }
                l.label = l.base + QLatin1Char(' ') + l.suffix;
            }
        }
        // Legend: one entry (and colour) per line, or per node when there are many lines.
        if (p->lines.size() <= kMaxLegendPerLine) {
            // Namesakes under one heading: "node-02 GPU5", then "err_code=0", "err_code=149".
            for (std::size_t i = 0; i < p->lines.size(); ++i) {
                const Line& l = p->lines[i];
                if (!l.suffix.isEmpty() && (i == 0 || p->lines[i - 1].base != l.base)) {
                    LegendEntry h;
                    h.heading = true;
                    h.label = l.base;
                    h.tooltip = l.base.toHtmlEscaped();
                    p->staticLegend.push_back(std::move(h));
                }
                LegendEntry e;
                e.label = l.suffix.isEmpty() ? l.label : l.suffix;
                e.nested = !l.suffix.isEmpty();
                e.fullLabel = l.label;
                e.tooltip = l.tooltip;
                e.colour = i;
                e.lines = { i };
                p->lines[i].legend = p->staticLegend.size();
                p->staticLegend.push_back(std::move(e));
            }
        } else {
            std::map<std::string, std::size_t> entryOfNode;
            for (std::size_t i = 0; i < p->lines.size(); ++i) {
                const std::string node = ev->nodeName(ev->metrics[p->lines[i].series].node);
                auto [it, inserted] = entryOfNode.emplace(node, p->staticLegend.size());
                if (inserted) {
                    LegendEntry e;
                    e.colour = p->staticLegend.size();
                    p->staticLegend.push_back(std::move(e));
                }
                p->staticLegend[it->second].lines.push_back(i);
                p->lines[i].legend = it->second;
            }
            for (auto& [node, idx] : entryOfNode) {
                LegendEntry& e = p->staticLegend[idx];
                const QString nodeLabel = node.empty() ? tr("(no node)") : qs(node);
                e.label = tr("%1 · %n series", nullptr, static_cast<int>(e.lines.size())).arg(nodeLabel);
                bool allGpus = true;
                for (std::size_t li : e.lines)
                    allGpus = allGpus && ev->metrics[p->lines[li].series].gpu >= 0;
                if (allGpus)
                    e.label = tr("%1 · %n GPUs", nullptr, static_cast<int>(e.lines.size())).arg(nodeLabel);
                QStringList members2;
                for (std::size_t li : e.lines)
                    members2 << p->lines[li].label.toHtmlEscaped();
                e.tooltip = members2.join(QStringLiteral("<br>"));
            }
        }
        p->header->setFixedWidth(m_left - kGutter);
        p->build();
        p->clicked = [this](qint64 ns) {
            setCursor(ns);
            Q_EMIT cursorMoved(ns);
        };
        d->panels.push_back(p);
    }
    std::stable_sort(
        d->panels.begin(), d->panels.end(), [](const Panel* a, const Panel* b) { return a->relevance < b->relevance; });
    for (std::size_t i = 0; i < d->panels.size(); ++i) {
        Panel* p = d->panels[i];
        d->panelsLayout->addWidget(p, 1);
        QAction* a = d->menu->addAction(p->title);
        a->setCheckable(true);
        a->setChecked(true);
        a->setToolTip(qs(p->metric));
        const int index = static_cast<int>(i);
        connect(a, &QAction::toggled, this, [this, index](bool on) { setPanelVisible(index, on); });
    }
    d->updateMenuText();
    d->menuButton->setMaximumWidth(std::max(40, m_left - kGutter - 4));
    d->menuButton->adjustSize();
    d->stack->setCurrentWidget(d->content);
    refreshAll();
}

} // namespace faultline::views
