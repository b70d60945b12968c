// SPDX-License-Identifier: Apache-2.0
// The workbench timeline: one lane per node (expandable into GPU and rank sub-lanes), job/step/window rows pinned
// under a UTC time axis, evidence-gap rows, and the verdict's events as marks shaped by their role (◆ cause,
// ▲ precursor, ● companion, ○ symptom, × teardown) and coloured by domain. Painted with QPainter over a
// TimelineGeometry; at most one primitive per pixel column per lane, from the geometry's aggregation.
//
// Mouse: click a mark to select it (its links to cause and symptoms are drawn), click elsewhere to move the time
// cursor, drag to zoom to a range (rubber band), middle-drag to pan, shift-click two points to measure a delta,
// click a lane's header to select it (its ▸/▾ expands a node, as a double click does). Wheel zooms around the
// pointer (shift+wheel or a horizontal wheel pans; over the lane header it scrolls the lanes). Keys: Ctrl+= / Ctrl+-
// (or W/S) zoom, Left/Right (or A/D) pan, Up/Down/PageUp/PageDown scroll lanes, Ctrl+0 fits the verdict's evidence,
// Home fits everything, Esc clears the measurement and the selection, K toggles clock alignment.
//
// Clock alignment: when the verdict estimates a node's clock skew (kSkewCorrectionNs or more), the view can draw
// that node's events shifted by the estimate, so nodes line up as the analysis compared them; the evidence, the
// tooltips' record times and the evidence viewer keep the times as logged. Search hits can be marked on the lanes
// (a tick per pixel column at the top of the node's row). Annotations are drawn as pins above their event's mark (or
// a line's record), badges on a lane's header and shaded bands over a time range; the view remembers what was selected
// last (an event, a lane, a measured range), which the app's M and C annotate.
//
// Thread affinity: UI thread. Data comes in as an immutable AnalysisResult through setResult(), which indexes the
// verdict's events once (O(n) for time-sorted events): at once for a small result, on a worker thread for a large
// one (the view says "Indexing…" meanwhile, and a newer result cancels it); indexed() is emitted when it is shown.
// Programmatic calls (selectEvent, setCursor, setRange) update the view without emitting eventSelected, so linked
// panes do not echo; cursorMoved and rangeChanged are emitted whenever the value changes.
#pragma once

#include "views/models/analysis_result.h"
#include "views/timeline/timeline_geometry.h"

#include <QAbstractScrollArea>
#include <QLineF>
#include <QPixmap>
#include <QPointF>
#include <QRectF>

#include <array>
#include <atomic>
#include <climits>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

class QAction;
class QPainter;
class QVariantAnimation;

namespace faultline::views {

/// A search hit to mark on the timeline: its record's time and node ("" when the line names none).
struct TimelineSearchMark
{
    qint64 timeNs = INT64_MIN;
    std::string node;
};

/// An annotation to draw: a pin on an event's mark or a line's record, a badge on a lane's header, or a band over a
/// time range. The app makes these from a case's annotations resolved against the analysis shown.
struct TimelineAnnotation
{
    enum class Shape { Pin, Lane, Band };
    std::int64_t id = 0;
    Shape shape = Shape::Pin;
    int eventIndex = -1; ///< Pin: the event it is on; -1: drawn at timeNs on node's lane (a line, an unmatched event)
    qint64 timeNs = INT64_MIN; ///< Pin without an event: where; Band: its start
    qint64 toNs = INT64_MIN; ///< Band: its end
    std::string node; ///< the lane; "" the job's lane (Pin) or every lane (Band)
    bool bookmark = false; ///< a bookmark is drawn filled, a note or tag hollow
    bool matched = true; ///< false: its event is no longer found (drawn faint, at its stored time)
    QString tooltip; ///< rich text: what, by whom, when
};

class TimelineView : public QAbstractScrollArea
{
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);
    ~TimelineView() override;

    /// The geometry the view paints with (viewport coordinates), for tests and linked panes.
    const TimelineGeometry& timelineGeometry() const { return m_geo; }
    int selectedEvent() const { return m_selected; }
    qint64 cursorTime() const { return m_cursor; } ///< INT64_MIN when there is no cursor
    qint64 rangeFrom() const { return m_geo.rangeFrom(); }
    qint64 rangeTo() const { return m_geo.rangeTo(); }
    /// The lane that holds the event (index into timelineGeometry().lanes()), or -1 when it is not drawn.
    int laneOfEvent(int eventIndex) const;
    /// Where the event's mark is painted, in viewport coordinates; nullopt when it is not drawn.
    std::optional<QPointF> markPosition(int eventIndex) const;
    /// Expands or collapses a node's sub-lanes.
    void setLaneExpanded(int lane, bool expanded);
    /// The nodes whose sub-lanes are open, in display order.
    std::vector<std::string> expandedNodes() const;
    /// Opens exactly these nodes' sub-lanes (the others close); unknown nodes are ignored.
    void setExpandedNodes(const std::vector<std::string>& nodes);
    /// The node whose lane is the first scrolled row at the top ("" when the lanes are not scrolled or none).
    std::string topNode() const;
    /// Scrolls the lanes so that `node`'s lane is the first scrolled row ("" scrolls to the top).
    void scrollToNode(const std::string& node);
    /// Scrolls the lanes the least needed to show the row of the event's mark (the range is left as it is).
    void ensureEventVisible(int eventIndex);
    /// Moves to [fromNs, toNs] over `durationMs` (eased), emitting rangeChanged as it goes; 0 or less jumps at once.
    /// A newer range change (this call, setRange, the user) stops a move in progress.
    void animateRange(qint64 fromNs, qint64 toNs, int durationMs);
    /// Whether an animateRange move is in progress.
    bool isAnimating() const;

    /// Whether anything of the result has a time to place (otherwise the view says so instead of drawing an axis).
    bool hasTimes() const { return !m_noTimes; }
    /// Whether node lanes are drawn shifted by the verdict's clock-skew estimates.
    bool clocksAligned() const { return m_clocksAligned; }
    /// Whether the verdict estimates a skew large enough to correct for (the alignment toggle is enabled).
    bool hasClockSkew() const { return m_hasSkew; }
    /// Where the event is drawn in time: its own time, or shifted by its node's skew when clocks are aligned.
    qint64 shownTime(int eventIndex) const;
    /// The checkable action that toggles clock alignment (for menus); disabled without a skew estimate.
    QAction* alignClocksAction() const { return m_alignClocks; }

    /// Marks search hits on the lanes (replaces the previous marks; a new result clears them). A hit with no time,
    /// or whose node has no lane, is counted but not drawn.
    void setSearchMarks(const std::vector<TimelineSearchMark>& marks);
    std::size_t searchMarksShown() const { return m_searchShown; }
    std::size_t searchMarksNotShown() const { return m_searchMarks.size() - m_searchShown; }
    /// The pixel columns of `lane`'s row where a search tick is drawn (for tests), in the current range.
    std::vector<int> searchTickColumns(int lane) const;

    /// Draws the annotations (replaces the previous ones; a new result clears them).
    void setAnnotations(std::vector<TimelineAnnotation> annotations);
    const std::vector<TimelineAnnotation>& annotations() const { return m_annotations; }
    /// Where annotation `id` is drawn, in viewport coordinates: a pin's head, a band's top left, a lane badge; nullopt
    /// when it is not drawn (off screen, no lane, no time).
    std::optional<QPointF> annotationPosition(std::int64_t id) const;

    /// What the user selected last, which M and C annotate: an event's mark, a lane's header or a measured range.
    enum class Focus { None, Event, Lane, Range };
    Focus focus() const { return m_focus; }
    /// The node of the selected lane ("" when no node lane is selected).
    std::string selectedLaneNode() const;
    /// The measured range (both ends set, earlier first) and the node of the lane it was measured on ("" none).
    std::optional<std::pair<qint64, qint64>> measuredRange() const;
    const std::string& measuredNode() const { return m_measureNode; }
    /// Selects `node`'s lane and scrolls it into view (no signal).
    void selectLane(const std::string& node);
    /// Shows a range: measured from `fromNs` to `toNs` on `node`'s lane ("" none), zoomed to hold it (no signal but
    /// rangeChanged).
    void showRange(qint64 fromNs, qint64 toNs, const std::string& node = {});

    /// Every text of the result the view draws or shows as a tooltip (lane labels, job and step texts, event labels)
    /// passes `filter` first: a picture for a redacted report draws pseudonyms. Applies from the next setResult on;
    /// an empty function shows the texts as they are.
    void setTextFilter(std::function<QString(const QString&)> filter) { m_textFilter = std::move(filter); }

    /// Results with at least this many events are indexed on a worker thread (the view says so meanwhile).
    void setAsyncIndexThreshold(std::size_t events) { m_asyncIndexEvents = events; }
    /// The number of events being indexed in the background (0: none).
    std::size_t indexingEvents() const { return m_indexing; }

    /// The height that shows every lane of the current result without scrolling (axis, rows, footer, scroll bar).
    int preferredHeight() const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

public Q_SLOTS:
    void setResult(const faultline::views::AnalysisResult& result);
    /// Selects the verdict's event `eventIndex` (-1 clears), scrolls it into view and moves the cursor to it.
    void selectEvent(int eventIndex);
    /// Moves the time cursor (INT64_MIN hides it). Hides QWidget::setCursor(QCursor): the pointer shape is set on
    /// viewport() only.
    void setCursor(qint64 ns);
    void setRange(qint64 fromNs, qint64 toNs);
    /// Shows the verdict's evidence trail (the initial view).
    void fitToVerdict();
    /// Shows everything: the job and every event.
    void fitAll();
    void clearMeasurement();
    /// Draws node lanes shifted by the skew estimates (true) or as logged (false). Keeps the range, the selection
    /// and the expanded lanes.
    void setClocksAligned(bool aligned);

Q_SIGNALS:
    /// The user selected the verdict's event `eventIndex` by clicking its mark.
    void eventSelected(int eventIndex);
    void cursorMoved(qint64 ns);
    void rangeChanged(qint64 fromNs, qint64 toNs);
    void clocksAlignedChanged(bool aligned);
    /// The user selected `node`'s lane by clicking its header.
    void laneSelected(const QString& node);
    /// setResult's result is indexed and shown (at once for small results, later for large ones).
    void indexed();
    /// An animateRange move reached its range (not emitted when it was stopped).
    void rangeAnimationFinished();

protected:
    bool viewportEvent(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    struct LaneInfo
    {
        QString label;
        QString tooltip;
        bool inAllocation = true;
        bool blamed = false;
        QString spanText; ///< Job/Step/Window/Gap: the text drawn on the span
        bool failed = false; ///< Job/Step: ended in a failure state
    };
    /// Everything the view derives from a result once: lanes, their items in the geometry, per-event lookups. Built
    /// without touching the widget, so a large result is indexed on a worker thread.
    struct Index
    {
        TimelineGeometry geo;
        std::vector<LaneInfo> laneInfo;
        std::vector<std::int32_t> laneOfEvent;
        std::vector<MarkRole> roleOfEvent;
        std::vector<std::uint8_t> severityOf;
        std::vector<std::uint8_t> alternative;
        std::vector<std::uint32_t> childBegin;
        std::vector<std::uint32_t> children;
        std::size_t untimed = 0;
        std::vector<qint64> laneShift;
        std::map<std::string, std::uint32_t> laneOfNode;
        std::int32_t jobLane = -1;
        bool hasSkew = false;
        bool aligned = false;
        bool noTimes = false; ///< no event, job or span has a time
        qint64 fitFrom = 0;
        qint64 fitTo = 0;
    };
    /// Indexes `result` (nothing when `cancel` is set while it runs: an empty index).
    static Index buildIndex(const AnalysisResult& result, bool aligned, const std::atomic_bool* cancel);
    void applyIndex(Index&& index);
    /// Applies the index, fits the view to the verdict's trail and announces it.
    void showIndexed(Index&& index);
    enum class Drag { None, Pending, RubberBand, Pan };
    /// The links of the selected event (cause chain and what it explains), gathered once per selection.
    std::vector<std::pair<std::size_t, std::size_t>> m_linkEdges;
    int m_linkEdgesFor = -2;

    void rebuild();
    void relayout();
    void syncScrollBars();
    template <class F> void changeRange(F&& change);
    void setMeasurePoint(qint64 ns);
    QString tooltipAt(const QPoint& pos) const;
    QString eventTooltip(std::size_t eventIndex, std::uint32_t count) const;

    void paintRows(QPainter& p, bool pinned, const std::vector<qint64>& ticks);
    void paintSpans(QPainter& p, std::size_t row);
    void paintMarks(QPainter& p, std::size_t firstBucket, std::size_t endBucket);
    void paintLinks(QPainter& p);
    void paintCallout(QPainter& p, std::size_t eventIndex, bool bold);
    void paintAxis(QPainter& p, const std::vector<qint64>& ticks, std::int64_t step);
    void paintHeader(QPainter& p);
    void paintFooter(QPainter& p);
    void paintSearchTicks(QPainter& p, bool pinned);
    void paintAnnotationBands(QPainter& p);
    void paintAnnotationPins(QPainter& p);
    /// The top centre of a pin's ribbon, in viewport coordinates (nullopt when its row or time is not shown).
    std::optional<QPointF> pinHead(const TimelineAnnotation& a) const;
    /// The band's rectangle in viewport coordinates (clipped to the plot's rows).
    std::optional<QRectF> bandRect(const TimelineAnnotation& a) const;
    QString annotationTooltipAt(const QPoint& pos) const;
    std::int32_t laneOfNodeName(const std::string& node) const;
    void drawMarkShape(
        QPainter& p, MarkRole role, const QColor& colour, double radius, const QPointF& at, const QPalette& pal) const;
    void placeSearchMarks();
    std::optional<QPointF> markPoint(std::size_t eventIndex) const;
    double markRadius() const;

    AnalysisResult m_result;
    TimelineGeometry m_geo;
    std::vector<LaneInfo> m_laneInfo;
    std::vector<std::int32_t> m_laneOfEvent; ///< per verdict event, -1 when not drawn (no time)
    std::vector<MarkRole> m_roleOfEvent;
    std::vector<std::uint8_t> m_alternative; ///< per event: a root candidate the verdict considered and rejected
    std::vector<std::uint32_t> m_childBegin; ///< CSR of the verdict's links: events explained by event i
    std::vector<std::uint32_t> m_children;
    std::vector<std::uint8_t> m_severityOf; ///< per event: its severity class (see severityScale)
    std::vector<TimelineBucket> m_buckets; ///< scratch, refilled every paint
    // paintMarks' scratch, reused across rows and frames (no allocation per frame once warm).
    std::vector<std::uint32_t> m_markOrder;
    std::vector<std::uint8_t> m_markOccupied;
    std::vector<std::uint8_t> m_markShape;
    std::vector<double> m_markRadius;
    std::unordered_map<std::uint64_t, QPixmap> m_sprites; ///< rendered marks by role, domain, radius and pixel ratio
    std::array<std::vector<QLineF>, 512> m_tickLines; ///< per (domain, context or not): the row's ticks
    std::size_t m_untimed = 0;
    bool m_noTimes = false;
    std::vector<qint64> m_laneShift; ///< per lane: what its times are shifted back by (aligned clocks)
    std::map<std::string, std::uint32_t> m_laneOfNode; ///< node lanes by node name
    std::int32_t m_jobLane = -1;
    bool m_clocksAligned = false;
    bool m_hasSkew = false;
    QAction* m_alignClocks = nullptr;
    std::function<QString(const QString&)> m_textFilter;
    QString shownText(const QString& text) const { return m_textFilter ? m_textFilter(text) : text; }
    std::size_t m_asyncIndexEvents = 200000;
    std::size_t m_indexing = 0;
    quint64 m_indexGeneration = 0;
    std::shared_ptr<std::atomic_bool> m_indexCancel;
    int m_pendingSelect = -1;
    std::vector<TimelineSearchMark> m_searchMarks;
    std::vector<std::vector<qint64>> m_searchByLane; ///< per lane: the shown times of its marks, sorted
    std::size_t m_searchShown = 0;
    qint64 m_fitFrom = 0;
    qint64 m_fitTo = 0;

    std::vector<TimelineAnnotation> m_annotations;
    Focus m_focus = Focus::None;
    std::int32_t m_selectedLane = -1;
    std::string m_measureNode;
    std::string m_pendingMeasureNode; ///< the lane of the measurement's first point

    int m_selected = -1;
    qint64 m_cursor = INT64_MIN;
    qint64 m_measureA = INT64_MIN;
    qint64 m_measureB = INT64_MIN;

    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    TimelineHit m_pressHit;
    double m_lastPanX = 0;
    double m_bandX = 0;

    QVariantAnimation* m_rangeAnimation = nullptr;

    int m_headerWidth = 180;
    int m_axisHeight = 40;
    int m_footerHeight = 20;
    bool m_syncingScrollBars = false;
};

} // namespace faultline::views
