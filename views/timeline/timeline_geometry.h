// SPDX-License-Identifier: Apache-2.0
// The workbench timeline's geometry as a plain value type (std only, no Qt): time <-> x mapping, zoom and pan with
// clamping, the lane layout (job/step/window rows pinned under the axis, one lane per node expandable into GPU and
// rank sub-lanes, evidence-gap rows), hit testing, and per-pixel aggregation of the marks.
//
// Contract: setData() takes a flat vector of items built once per snapshot and indexes it (O(n) when the items come
// time-sorted, as a verdict's events do). Every later query is bounded by what is on screen: aggregate() returns at
// most one bucket per pixel column per visible row, in O(columns x log(items)), so 10M events over 1,000 lanes stay
// cheap to paint. Not thread-safe: a geometry belongs to one thread (the view's), but it is a value and may be
// copied to a worker.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace faultline::views {

/// What an event is to the verdict, most important first: buckets keep the smallest value they hold.
enum class MarkRole : std::uint8_t { Cause, Precursor, Companion, Symptom, Teardown, Context };
inline constexpr int kMarkRoleCount = 6;
const char* markRoleName(MarkRole role);

/// One mark to place: the input of the geometry, built once per snapshot.
struct TimelineItem
{
    std::int64_t timeNs = 0;
    std::uint32_t lane = 0; ///< index into the lanes given to setData()
    MarkRole role = MarkRole::Context;
    std::uint8_t domain = 0; ///< opaque to the geometry (the view maps it to a colour)
    std::uint32_t eventIndex = 0; ///< index into Verdict::events
};

enum class LaneKind : std::uint8_t {
    Job, ///< the job's allocation (pinned under the axis)
    Step, ///< a job step (pinned)
    Window, ///< the workload window the analysis used (pinned)
    Node, ///< one host
    SubLane, ///< a GPU or rank of a node (shown when its node is expanded)
    Gap, ///< a coverage gap: evidence the bundle lacks
};

struct TimeSpan
{
    std::int64_t fromNs = 0;
    std::int64_t toNs = 0;
};

struct LaneSpec
{
    LaneKind kind = LaneKind::Node;
    std::string label;
    std::int32_t parent = -1; ///< SubLane: index of its Node lane
    bool blamed = false; ///< Node: the verdict blames this node (sorted first)
    std::vector<TimeSpan> spans; ///< Job/Step/Window/Gap: the intervals to draw
};

/// One visible row, in layout order. `y` is in content coordinates (0 = top of the first pinned row).
struct TimelineRow
{
    std::uint32_t lane = 0;
    int depth = 0; ///< 1 for sub-lanes
    double y = 0;
    double height = 0;
    bool pinned = false; ///< stays under the axis when the lanes scroll
    bool expandable = false; ///< a node with sub-lanes
    bool expanded = false;
};

/// One pixel column of one row: every item of the row's lanes that falls into that column.
struct TimelineBucket
{
    std::uint32_t row = 0;
    std::int32_t column = 0; ///< floor(x) of the items, in the plot's coordinates
    std::uint32_t count = 0;
    MarkRole role = MarkRole::Context; ///< the most important role in the column
    std::uint8_t domain = 0; ///< of the top event
    std::uint32_t firstEvent = 0; ///< the earliest event of the column
    std::uint32_t topEvent = 0; ///< the earliest event with `role` (what a click selects)
    std::int64_t firstTimeNs = 0;
    std::int64_t topTimeNs = 0;
};

struct TimelineHit
{
    enum class Kind : std::uint8_t { None, Lane, Mark };
    Kind kind = Kind::None;
    std::int32_t row = -1;
    std::int32_t lane = -1;
    std::int64_t eventIndex = -1; ///< Mark: the bucket's top event
    std::uint32_t count = 0; ///< Mark: events in the bucket
    MarkRole role = MarkRole::Context;
    std::int64_t timeNs = 0; ///< the time under x (Mark: the top event's time)
    bool inHeader = false; ///< x lies left of the plot (the lane header column)
};

struct TimelineMetrics
{
    double spanRowHeight = 20; ///< job, step and window rows
    double nodeRowHeight = 26;
    double subRowHeight = 20;
    double gapRowHeight = 20;
};

class TimelineGeometry
{
public:
    static constexpr std::int64_t kDefaultMinimumSpanNs = 1000; ///< 1 us across the plot

    // ---- Data, once per snapshot -----------------------------------------------------------------------------

    /// Replaces lanes and items and lays the lanes out (every node collapsed). Items with an out-of-range lane are
    /// dropped. Node lanes are ordered blamed first, then by their first relevant (non-context) item, then by
    /// their first item, then by label; sub-lanes likewise under their node; pinned rows first, gap rows last.
    void setData(std::vector<LaneSpec> lanes, std::vector<TimelineItem> items);
    const std::vector<LaneSpec>& lanes() const { return m_lanes; }
    std::size_t itemCount() const { return m_items.time.size(); }
    /// Items whose lane is `lane` itself (not its sub-lanes).
    std::size_t laneItemCount(std::uint32_t lane) const;
    /// The first relevant (non-context) item of the lane and its sub-lanes; INT64_MAX when none.
    std::int64_t firstRelevantNs(std::uint32_t lane) const;
    /// The lanes' display order (pinned, nodes with their sub-lanes, gaps), independent of expansion.
    const std::vector<std::uint32_t>& laneOrder() const { return m_order; }
    const std::vector<std::uint32_t>& subLanes(std::uint32_t lane) const { return m_children[lane]; }

    // ---- Horizontal axis ---------------------------------------------------------------------------------------

    /// The plot rectangle in widget coordinates (right of the lane header, below the time axis).
    void setPlotArea(double left, double top, double width, double height);
    double plotLeft() const { return m_left; }
    double plotTop() const { return m_top; }
    double plotWidth() const { return m_width; }
    double plotHeight() const { return m_height; }

    /// The range the view may show; every range change is clamped into it. Also resets the range to it.
    void setBounds(std::int64_t fromNs, std::int64_t toNs);
    std::int64_t boundsFrom() const { return m_boundsFrom; }
    std::int64_t boundsTo() const { return m_boundsTo; }
    void setMinimumSpan(std::int64_t ns);

    /// Shows [fromNs, toNs], clamped: the span is at least the minimum span and at most the bounds, and the range
    /// lies inside the bounds (shifted, not shrunk, when it sticks out).
    void setRange(std::int64_t fromNs, std::int64_t toNs);
    /// Shows [fromNs, toNs] with `margin` of the span added on both sides.
    void fit(std::int64_t fromNs, std::int64_t toNs, double margin = 0.04);
    void fitAll() { setRange(m_boundsFrom, m_boundsTo); }
    /// Zooms by `factor` (> 1 zooms in) keeping the time under `anchorX` there (unless a clamp moves it).
    void zoomAt(double factor, double anchorX);
    /// Moves the view by `dx` pixels' worth of time: positive shows later times.
    void panByPixels(double dx);

    std::int64_t rangeFrom() const { return m_from; }
    std::int64_t rangeTo() const { return m_to; }
    std::int64_t span() const { return m_to - m_from; }
    double nsPerPixel() const;

    double mapTimeToX(std::int64_t ns) const;
    std::int64_t mapXToTime(double x) const;
    /// The pixel column of a time: floor(mapTimeToX(ns)).
    std::int32_t columnOf(std::int64_t ns) const;

    /// A "nice" tick step (1-2-5 ns..s, then 10 s, 15 s, 30 s, minutes, hours, days) at least `minSpacingPx` apart.
    std::int64_t tickStep(double minSpacingPx) const;
    /// Multiples of the step since the epoch inside the range (UTC has no leap seconds in Unix time).
    std::vector<std::int64_t> ticks(double minSpacingPx) const;

    // ---- Vertical layout ---------------------------------------------------------------------------------------

    void setMetrics(const TimelineMetrics& metrics);
    const TimelineMetrics& metrics() const { return m_metrics; }
    void setExpanded(std::uint32_t lane, bool expanded);
    bool isExpanded(std::uint32_t lane) const;
    void toggleExpanded(std::uint32_t lane) { setExpanded(lane, !isExpanded(lane)); }
    void setAllExpanded(bool expanded);

    const std::vector<TimelineRow>& rows() const { return m_rows; }
    /// The visible row that shows `lane`'s items (a collapsed sub-lane shows on its node's row), or -1.
    std::int32_t rowOfLane(std::uint32_t lane) const;
    double contentHeight() const { return m_contentHeight; }
    double pinnedHeight() const { return m_pinnedHeight; }

    void setScrollY(double y);
    double scrollY() const { return m_scrollY; }
    double maxScrollY() const;
    /// Scrolls the least needed to show the row.
    void ensureRowVisible(std::size_t row);
    /// The row's top in widget coordinates (pinned rows ignore the scroll).
    double rowTop(std::size_t row) const;
    double rowCenterY(std::size_t row) const { return rowTop(row) + m_rows[row].height / 2; }
    /// Whether any of the row lies inside the plot (and, for scrolling rows, below the pinned rows).
    bool isRowVisible(std::size_t row) const;
    /// The row at widget y, or -1.
    std::int32_t rowAt(double y) const;

    // ---- Queries -----------------------------------------------------------------------------------------------

    /// The nearest mark within `tolerancePx` columns of x on the row under y (ties: the more important role, then
    /// the earlier time); the row alone when none is that near; None outside every row.
    TimelineHit hitTest(double x, double y, double tolerancePx = 4) const;
    /// Buckets of every visible row over the visible range: ordered by row, then column; one per column per row.
    void aggregate(std::vector<TimelineBucket>& out) const;
    /// Buckets of one row for items in [fromNs, toNs] (clamped to the visible range); appended to `out`.
    void aggregateRow(std::size_t row, std::int64_t fromNs, std::int64_t toNs, std::vector<TimelineBucket>& out) const;

private:
    static constexpr std::size_t kBlock = 64;

    /// Items as a structure of arrays, each lane's (or group's) run time-sorted.
    struct ItemArrays
    {
        std::vector<std::int64_t> time;
        std::vector<std::uint32_t> event;
        std::vector<MarkRole> role;
        std::vector<std::uint8_t> domain;
        std::vector<MarkRole> blockMin; ///< the most important role of each run of kBlock items
        std::vector<std::uint32_t> lane; ///< groups only: the lane each item came from
        void resize(std::size_t n);
        void buildBlockMin();
    };

    void buildIndex(std::vector<TimelineItem>& items);
    /// For every node with sub-lanes: its items and its sub-lanes' merged into one time-sorted run (what a
    /// collapsed row shows), so such a row aggregates like a single lane, without a per-frame merge.
    void buildGroups();
    void orderLanes();
    void layoutRows();
    void clampRange(std::int64_t from, std::int64_t span);
    std::int32_t lastColumn() const;
    /// Appends one lane's buckets for items [begin, end) (time-sorted) to `out`, for row `row`.
    void aggregateLane(const ItemArrays& items, std::uint32_t row, std::size_t begin, std::size_t end,
        std::vector<TimelineBucket>& out) const;
    /// In a group's column [i, j) whose first time is shared: the first item of the lane a per-lane merge keeps.
    static std::size_t tiedFirst(const ItemArrays& items, std::size_t i, std::size_t j);

    // Lanes and their layout.
    std::vector<LaneSpec> m_lanes;
    std::vector<std::vector<std::uint32_t>> m_children;
    std::vector<std::uint32_t> m_order;
    std::vector<std::uint8_t> m_expanded;
    std::vector<std::int64_t> m_firstRelevant; ///< per lane, including its sub-lanes
    std::vector<TimelineRow> m_rows;
    std::vector<std::int32_t> m_rowOfLane;
    TimelineMetrics m_metrics;
    double m_contentHeight = 0;
    double m_pinnedHeight = 0;
    double m_scrollY = 0;

    // Items, structure of arrays sorted by (lane, time); lane l owns [m_laneBegin[l], m_laneBegin[l + 1]).
    ItemArrays m_items;
    std::vector<std::size_t> m_laneBegin;
    // Collapsed-row groups: node l's group owns [m_groupBegin[l], m_groupBegin[l + 1]) of m_group (empty for lanes
    // without sub-lanes), merged by (time, node first then its sub-lanes in m_children order).
    ItemArrays m_group;
    std::vector<std::size_t> m_groupBegin;

    // Axis.
    double m_left = 0;
    double m_top = 0;
    double m_width = 1;
    double m_height = 1;
    std::int64_t m_boundsFrom = 0;
    std::int64_t m_boundsTo = 1'000'000'000;
    std::int64_t m_minSpan = kDefaultMinimumSpanNs;
    std::int64_t m_from = 0;
    std::int64_t m_to = 1'000'000'000;
};

} // namespace faultline::views
