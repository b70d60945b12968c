// SPDX-License-Identifier: Apache-2.0
// The metrics strip of the workbench: one small chart per metric name (DCGM NVLink CRC, DCGM Xid, GPU
// utilisation, ...), one line per series (node / GPU / device), stacked under a shared UTC time axis that follows
// the timeline's range and cursor. This header is the only way into Qt Charts: no Qt
// Charts type appears here, and nothing outside views/charts/ includes Qt Charts (architecture_check.sh).
//
// Every series is reduced in core (core::decimateMinMax) to at most two points per pixel column of the plot on
// every range change and resize, so a chart never holds more than 2 * plotWidth + 4 points per line, whatever the
// number of samples. Non-finite samples and scrape gaps longer than three scrape intervals break the line.
//
// Linking (the workbench's selection flows): connect the timeline's
// rangeChanged to setRange and its cursorMoved to setCursor; call showSeriesOfEvent when an event is selected.
// For the two time axes to line up, give setPlotMargins the timeline's plot edges in the pane's coordinates, e.g.
// with the pane as wide as the timeline and under it:
//   left = timeline->viewport()->x() + timeline->timelineGeometry().plotLeft(),
//   right = timeline->width() - left - timeline->timelineGeometry().plotWidth().
// A click in a chart moves the cursor and emits cursorMoved, so the timeline can follow in turn.
//
// Programmatic calls (setRange, setCursor, showSeriesOfEvent) never emit signals, so linked panes do not echo.
// Thread affinity: UI thread. Palette-aware: a dark palette gives dark charts.
#pragma once

#include "views/models/analysis_result.h"

#include <QString>
#include <QStringList>
#include <QWidget>

#include <climits>
#include <cstdint>
#include <memory>
#include <vector>

namespace faultline::views {

/// What one panel shows, read back from its chart (for tests, tooltips and the wiring code).
struct MetricPanelInfo
{
    QString metric; ///< the series name the panel groups, e.g. "DCGM_FI_DEV_GPU_UTIL"
    QString title; ///< what the header says, e.g. "GPU utilisation (%)"
    QStringList legend; ///< legend entries ("node-02 GPU5", or "node-01 · 8 GPUs" when a node's lines share one)
    QStringList lines; ///< one label per line (series), in drawing order
    std::vector<std::size_t> series; ///< per line: its index into EvidenceSet::metrics
    std::vector<int> pointCounts; ///< per line: points handed to Qt Charts (all its segments together)
    int largestChartSeries = 0; ///< points of the largest single chart series of the panel
    int plotWidth = 0; ///< pixels; the decimation's bucket count
    qint64 axisFromNs = INT64_MIN; ///< the chart's time axis, converted back to ns (±1 µs)
    qint64 axisToNs = INT64_MIN;
    double valueMin = 0; ///< the value axis' first and last grid lines
    double valueMax = 0;
    bool logScale = false; ///< a counter spanning decades is drawn on a log axis (0 kept)
    qint64 cursorNs = INT64_MIN; ///< where the chart's cursor line is, INT64_MIN when hidden
    bool visible = false; ///< shown (not unchecked in the metrics menu)
    QStringList highlighted; ///< labels of the lines showSeriesOfEvent emphasised
    bool eventMarker = false; ///< the event's sample is marked on the chart
};

class MetricsPane : public QWidget
{
    Q_OBJECT
public:
    explicit MetricsPane(QWidget* parent = nullptr);
    ~MetricsPane() override;

    /// One panel per metric name, most relevant first (series of the verdict's trail, then of the cause's GPU).
    int panelCount() const;
    MetricPanelInfo panelInfo(int panel) const;
    /// The panel of a metric name, or -1.
    int panelOfMetric(const QString& metric) const;
    /// Shows or hides a panel (as its entry in the metrics menu does).
    void setPanelVisible(int panel, bool visible);

    qint64 rangeFrom() const { return m_from; }
    qint64 rangeTo() const { return m_to; }
    qint64 cursorTime() const { return m_cursor; } ///< INT64_MIN when there is no cursor

    /// The series (index into EvidenceSet::metrics) the verdict's event `eventIndex` was extracted from, or -1 when
    /// it does not come from a metric rule.
    int seriesOfEvent(int eventIndex) const;
    /// The series showSeriesOfEvent emphasised (indices into EvidenceSet::metrics), empty when none.
    std::vector<std::size_t> highlightedSeries() const { return m_highlight; }

    /// True when there is nothing to chart; emptyStateText() says what to do about it.
    bool isEmptyStateShown() const;
    QString emptyStateText() const;

    /// Where the plots start and end, in pixels from the pane's left and right edges (default 220 and 14): set them
    /// to the timeline's so both time axes line up.
    void setPlotMargins(int left, int right);
    int plotLeftMargin() const { return m_left; }
    int plotRightMargin() const { return m_right; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

public Q_SLOTS:
    void setResult(const faultline::views::AnalysisResult& result);
    /// Shows [fromNs, toNs] on every panel's time axis (re-decimating to the plots' width).
    void setRange(qint64 fromNs, qint64 toNs);
    /// Moves the time cursor line (INT64_MIN hides it). Hides QWidget::setCursor(QCursor), as TimelineView does.
    void setCursor(qint64 ns);
    /// Brings up the series the verdict's event `eventIndex` came from: its panel is shown and scrolled into view,
    /// its line emphasised and the event's sample marked. For an event from a log (no series of its own), the
    /// series of the same node and GPU are emphasised instead. Returns false (and clears the emphasis) when no
    /// series relates to the event. Does not change the range or the cursor.
    bool showSeriesOfEvent(int eventIndex);
    void clearHighlight();

Q_SIGNALS:
    /// The user clicked in a chart.
    void cursorMoved(qint64 ns);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    struct Impl;
    friend struct Impl;

    void rebuild();
    void refreshAll();

    std::unique_ptr<Impl> d;
    AnalysisResult m_result;
    qint64 m_from = 0;
    qint64 m_to = 0;
    bool m_rangeSet = false;
    qint64 m_cursor = INT64_MIN;
    int m_left = 220;
    int m_right = 14;
    std::vector<std::size_t> m_highlight;
};

} // namespace faultline::views
