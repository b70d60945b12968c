// SPDX-License-Identifier: Apache-2.0
#include "views/timeline/timeline_geometry.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

namespace faultline::views {
namespace {

constexpr std::int64_t kNoTime = std::numeric_limits<std::int64_t>::max();

bool isPinned(LaneKind k)
{
    return k == LaneKind::Job || k == LaneKind::Step || k == LaneKind::Window;
}

bool isTopLevelLane(const LaneSpec& l)
{
    return l.kind == LaneKind::Node || (l.kind == LaneKind::SubLane && l.parent < 0);
}

std::int64_t roundToNs(double v)
{
    // Saturate rather than overflow when a caller passes an x far outside the plot.
    constexpr double kMax = 9.2e18;
    if (!(v < kMax))
        return std::numeric_limits<std::int64_t>::max();
    if (!(v > -kMax))
        return std::numeric_limits<std::int64_t>::min();
    return std::llround(v);
}

std::int64_t saturatingSub(std::int64_t a, std::int64_t b)
{
    std::int64_t r = 0;
    if (__builtin_sub_overflow(a, b, &r))
        return a < b ? std::numeric_limits<std::int64_t>::min() : std::numeric_limits<std::int64_t>::max();
    return r;
}

std::int64_t saturatingAdd(std::int64_t a, std::int64_t b)
{
    std::int64_t r = 0;
    if (__builtin_add_overflow(a, b, &r))
        return b < 0 ? std::numeric_limits<std::int64_t>::min() : std::numeric_limits<std::int64_t>::max();
    return r;
}

} // namespace

const char* markRoleName(MarkRole role)
{
    switch (role) {
    case MarkRole::Cause:
        return "cause";
    case MarkRole::Precursor:
        return "precursor";
    case MarkRole::Companion:
        return "companion";
    case MarkRole::Symptom:
        return "symptom";
    case MarkRole::Teardown:
        return "teardown";
    case MarkRole::Context:
        break;
    }
    return "context";
}

// ---- Data ------------------------------------------------------------------------------------------------------

void TimelineGeometry::setData(std::vector<LaneSpec> lanes, std::vector<TimelineItem> items)
{
    m_lanes = std::move(lanes);
    const std::size_t n = m_lanes.size();
    m_children.assign(n, {});
    for (std::size_t l = 0; l < n; ++l) {
        LaneSpec& lane = m_lanes[l];
        if (lane.kind != LaneKind::SubLane)
            continue;
        const auto p = static_cast<std::size_t>(lane.parent);
        if (lane.parent < 0 || p >= n || m_lanes[p].kind != LaneKind::Node)
            lane.parent = -1; // an orphan sub-lane is shown as a lane of its own
        else
            m_children[p].push_back(static_cast<std::uint32_t>(l));
    }
    buildIndex(items);
    orderLanes();
    buildGroups();
    m_expanded.assign(n, 0);
    m_scrollY = 0;
    layoutRows();
}

void TimelineGeometry::buildIndex(std::vector<TimelineItem>& items)
{
    const std::size_t lanes = m_lanes.size();
    // A stable counting sort by lane: a verdict's events come time-sorted, so each lane usually ends up sorted in
    // O(n) and only lanes that are not get a comparison sort.
    m_laneBegin.assign(lanes + 1, 0);
    std::size_t kept = 0;
    for (const auto& it : items)
        if (it.lane < lanes) {
            ++m_laneBegin[it.lane + 1];
            ++kept;
        }
    std::partial_sum(m_laneBegin.begin(), m_laneBegin.end(), m_laneBegin.begin());
    m_items.time.assign(kept, 0);
    m_items.event.assign(kept, 0);
    m_items.role.assign(kept, MarkRole::Context);
    m_items.domain.assign(kept, 0);
    {
        std::vector<std::size_t> fill(m_laneBegin.begin(), m_laneBegin.end() - 1);
        for (const auto& it : items) {
            if (it.lane >= lanes)
                continue;
            const std::size_t at = fill[it.lane]++;
            m_items.time[at] = it.timeNs;
            m_items.event[at] = it.eventIndex;
            m_items.role[at] = it.role;
            m_items.domain[at] = it.domain;
        }
    }
    items.clear();
    items.shrink_to_fit();
    for (std::size_t l = 0; l < lanes; ++l) {
        const std::size_t b = m_laneBegin[l];
        const std::size_t e = m_laneBegin[l + 1];
        if (std::is_sorted(m_items.time.begin() + static_cast<std::ptrdiff_t>(b),
                m_items.time.begin() + static_cast<std::ptrdiff_t>(e)))
            continue;
        std::vector<std::size_t> perm(e - b);
        std::iota(perm.begin(), perm.end(), b);
        std::stable_sort(
            perm.begin(), perm.end(), [&](std::size_t x, std::size_t y) { return m_items.time[x] < m_items.time[y]; });
        std::vector<std::int64_t> t(perm.size());
        std::vector<std::uint32_t> ev(perm.size());
        std::vector<MarkRole> ro(perm.size());
        std::vector<std::uint8_t> dom(perm.size());
        for (std::size_t k = 0; k < perm.size(); ++k) {
            t[k] = m_items.time[perm[k]];
            ev[k] = m_items.event[perm[k]];
            ro[k] = m_items.role[perm[k]];
            dom[k] = m_items.domain[perm[k]];
        }
        std::copy(t.begin(), t.end(), m_items.time.begin() + static_cast<std::ptrdiff_t>(b));
        std::copy(ev.begin(), ev.end(), m_items.event.begin() + static_cast<std::ptrdiff_t>(b));
        std::copy(ro.begin(), ro.end(), m_items.role.begin() + static_cast<std::ptrdiff_t>(b));
        std::copy(dom.begin(), dom.end(), m_items.domain.begin() + static_cast<std::ptrdiff_t>(b));
    }
    m_items.buildBlockMin();
}

void TimelineGeometry::ItemArrays::resize(std::size_t n)
{
    time.assign(n, 0);
    event.assign(n, 0);
    role.assign(n, MarkRole::Context);
    domain.assign(n, 0);
}

void TimelineGeometry::ItemArrays::buildBlockMin()
{
    blockMin.assign((role.size() + kBlock - 1) / kBlock, MarkRole::Context);
    for (std::size_t i = 0; i < role.size(); ++i)
        blockMin[i / kBlock] = std::min(blockMin[i / kBlock], role[i]);
}

void TimelineGeometry::buildGroups()
{
    const std::size_t lanes = m_lanes.size();
    m_groupBegin.assign(lanes + 1, 0);
    for (std::size_t l = 0; l < lanes; ++l) {
        std::size_t n = 0;
        if (!m_children[l].empty()) {
            n = laneItemCount(static_cast<std::uint32_t>(l));
            for (std::uint32_t c : m_children[l])
                n += laneItemCount(c);
        }
        m_groupBegin[l + 1] = m_groupBegin[l] + n;
    }
    m_group.resize(m_groupBegin[lanes]);
    m_group.lane.assign(m_groupBegin[lanes], 0);
    // A k-way merge by (time, lane position): the node first, then its sub-lanes in display order.
    std::vector<std::uint32_t> members;
    std::vector<std::size_t> cursor;
    using Head = std::tuple<std::int64_t, std::size_t>; // (time, member position)
    std::vector<Head> heap;
    for (std::size_t l = 0; l < lanes; ++l) {
        if (m_children[l].empty())
            continue;
        members.assign(1, static_cast<std::uint32_t>(l));
        members.insert(members.end(), m_children[l].begin(), m_children[l].end());
        cursor.resize(members.size());
        heap.clear();
        for (std::size_t k = 0; k < members.size(); ++k) {
            cursor[k] = m_laneBegin[members[k]];
            if (cursor[k] < m_laneBegin[members[k] + 1])
                heap.emplace_back(m_items.time[cursor[k]], k);
        }
        const auto later = [](const Head& a, const Head& b) { return a > b; };
        std::make_heap(heap.begin(), heap.end(), later);
        std::size_t out = m_groupBegin[l];
        while (!heap.empty()) {
            std::pop_heap(heap.begin(), heap.end(), later);
            const std::size_t k = std::get<1>(heap.back());
            heap.pop_back();
            const std::size_t i = cursor[k]++;
            m_group.time[out] = m_items.time[i];
            m_group.event[out] = m_items.event[i];
            m_group.role[out] = m_items.role[i];
            m_group.domain[out] = m_items.domain[i];
            m_group.lane[out] = members[k];
            ++out;
            if (cursor[k] < m_laneBegin[members[k] + 1])
                heap.emplace_back(m_items.time[cursor[k]], k), std::push_heap(heap.begin(), heap.end(), later);
        }
    }
    m_group.buildBlockMin();
}

std::size_t TimelineGeometry::laneItemCount(std::uint32_t lane) const
{
    return lane < m_lanes.size() ? m_laneBegin[lane + 1] - m_laneBegin[lane] : 0;
}

std::int64_t TimelineGeometry::firstRelevantNs(std::uint32_t lane) const
{
    return lane < m_firstRelevant.size() ? m_firstRelevant[lane] : kNoTime;
}

void TimelineGeometry::orderLanes()
{
    const std::size_t n = m_lanes.size();
    // First relevant and first item of each lane, its sub-lanes included.
    m_firstRelevant.assign(n, kNoTime);
    std::vector<std::int64_t> firstAny(n, kNoTime);
    for (std::size_t l = 0; l < n; ++l) {
        const std::size_t b = m_laneBegin[l];
        const std::size_t e = m_laneBegin[l + 1];
        if (b == e)
            continue;
        firstAny[l] = m_items.time[b];
        for (std::size_t i = b; i < e; ++i)
            if (m_items.role[i] != MarkRole::Context) {
                m_firstRelevant[l] = m_items.time[i];
                break;
            }
    }
    for (std::size_t l = 0; l < n; ++l)
        for (std::uint32_t c : m_children[l]) {
            m_firstRelevant[l] = std::min(m_firstRelevant[l], m_firstRelevant[c]);
            firstAny[l] = std::min(firstAny[l], firstAny[c]);
        }
    auto key = [&](std::uint32_t l) {
        return std::make_tuple(!m_lanes[l].blamed, m_firstRelevant[l], firstAny[l], std::cref(m_lanes[l].label), l);
    };
    auto byKey = [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); };

    m_order.clear();
    m_order.reserve(n);
    for (LaneKind k : { LaneKind::Job, LaneKind::Step, LaneKind::Window })
        for (std::uint32_t l = 0; l < n; ++l)
            if (m_lanes[l].kind == k)
                m_order.push_back(l);
    std::vector<std::uint32_t> top;
    for (std::uint32_t l = 0; l < n; ++l)
        if (isTopLevelLane(m_lanes[l]))
            top.push_back(l);
    std::sort(top.begin(), top.end(), byKey);
    for (std::uint32_t l : top) {
        m_order.push_back(l);
        std::vector<std::uint32_t>& kids = m_children[l];
        std::sort(kids.begin(), kids.end(), byKey);
        m_order.insert(m_order.end(), kids.begin(), kids.end());
    }
    for (std::uint32_t l = 0; l < n; ++l)
        if (m_lanes[l].kind == LaneKind::Gap)
            m_order.push_back(l);
}

// ---- Vertical layout -------------------------------------------------------------------------------------------

void TimelineGeometry::setMetrics(const TimelineMetrics& metrics)
{
    m_metrics = metrics;
    layoutRows();
}

void TimelineGeometry::setExpanded(std::uint32_t lane, bool expanded)
{
    if (lane >= m_lanes.size() || m_children[lane].empty() || (m_expanded[lane] != 0) == expanded)
        return;
    m_expanded[lane] = expanded ? 1 : 0;
    layoutRows();
}

bool TimelineGeometry::isExpanded(std::uint32_t lane) const
{
    return lane < m_expanded.size() && m_expanded[lane] != 0;
}

void TimelineGeometry::setAllExpanded(bool expanded)
{
    for (std::size_t l = 0; l < m_lanes.size(); ++l)
        m_expanded[l] = expanded && !m_children[l].empty() ? 1 : 0;
    layoutRows();
}

void TimelineGeometry::layoutRows()
{
    m_rows.clear();
    m_rowOfLane.assign(m_lanes.size(), -1);
    double y = 0;
    m_pinnedHeight = 0;
    for (std::uint32_t l : m_order) {
        const LaneSpec& lane = m_lanes[l];
        if (lane.kind == LaneKind::SubLane && lane.parent >= 0) {
            const auto p = static_cast<std::uint32_t>(lane.parent);
            if (!isExpanded(p)) {
                m_rowOfLane[l] = m_rowOfLane[p];
                continue;
            }
        }
        TimelineRow row;
        row.lane = l;
        row.depth = lane.kind == LaneKind::SubLane && lane.parent >= 0 ? 1 : 0;
        row.y = y;
        row.pinned = isPinned(lane.kind);
        row.expandable = !m_children[l].empty();
        row.expanded = isExpanded(l);
        switch (lane.kind) {
        case LaneKind::Job:
        case LaneKind::Step:
        case LaneKind::Window:
            row.height = m_metrics.spanRowHeight;
            break;
        case LaneKind::Node:
            row.height = m_metrics.nodeRowHeight;
            break;
        case LaneKind::SubLane:
            row.height = row.depth ? m_metrics.subRowHeight : m_metrics.nodeRowHeight;
            break;
        case LaneKind::Gap:
            row.height = m_metrics.gapRowHeight;
            break;
        }
        y += row.height;
        if (row.pinned)
            m_pinnedHeight = y;
        m_rowOfLane[l] = static_cast<std::int32_t>(m_rows.size());
        m_rows.push_back(row);
    }
    m_contentHeight = y;
    setScrollY(m_scrollY);
}

std::int32_t TimelineGeometry::rowOfLane(std::uint32_t lane) const
{
    return lane < m_rowOfLane.size() ? m_rowOfLane[lane] : -1;
}

double TimelineGeometry::maxScrollY() const
{
    return std::max(0.0, m_contentHeight - m_height);
}

void TimelineGeometry::setScrollY(double y)
{
    m_scrollY = std::clamp(std::isfinite(y) ? y : 0.0, 0.0, maxScrollY());
}

void TimelineGeometry::ensureRowVisible(std::size_t row)
{
    if (row >= m_rows.size() || m_rows[row].pinned)
        return;
    const TimelineRow& r = m_rows[row];
    if (r.y < m_pinnedHeight + m_scrollY)
        setScrollY(r.y - m_pinnedHeight);
    else if (r.y + r.height > m_scrollY + m_height)
        setScrollY(r.y + r.height - m_height);
}

double TimelineGeometry::rowTop(std::size_t row) const
{
    const TimelineRow& r = m_rows[row];
    return m_top + r.y - (r.pinned ? 0.0 : m_scrollY);
}

bool TimelineGeometry::isRowVisible(std::size_t row) const
{
    if (row >= m_rows.size())
        return false;
    const double top = rowTop(row);
    const double bottom = top + m_rows[row].height;
    const double limit = m_rows[row].pinned ? m_top : m_top + m_pinnedHeight;
    return bottom > limit && top < m_top + m_height;
}

std::int32_t TimelineGeometry::rowAt(double y) const
{
    if (!(y >= m_top && y < m_top + m_height) || m_rows.empty())
        return -1;
    const bool inPinned = y < m_top + m_pinnedHeight;
    const double content = y - m_top + (inPinned ? 0.0 : m_scrollY);
    auto it =
        std::upper_bound(m_rows.begin(), m_rows.end(), content, [](double v, const TimelineRow& r) { return v < r.y; });
    if (it == m_rows.begin())
        return -1;
    --it;
    if (content >= it->y + it->height || it->pinned != inPinned)
        return -1;
    return static_cast<std::int32_t>(it - m_rows.begin());
}

// ---- Horizontal axis -------------------------------------------------------------------------------------------

void TimelineGeometry::setPlotArea(double left, double top, double width, double height)
{
    m_left = left;
    m_top = top;
    m_width = std::max(1.0, width);
    m_height = std::max(1.0, height);
    setScrollY(m_scrollY);
}

void TimelineGeometry::setBounds(std::int64_t fromNs, std::int64_t toNs)
{
    if (toNs < fromNs)
        std::swap(fromNs, toNs);
    if (saturatingSub(toNs, fromNs) < m_minSpan) {
        const std::int64_t mid = fromNs + (toNs - fromNs) / 2;
        fromNs = saturatingSub(mid, m_minSpan / 2);
        toNs = saturatingAdd(fromNs, m_minSpan);
    }
    m_boundsFrom = fromNs;
    m_boundsTo = toNs;
    m_from = fromNs;
    m_to = toNs;
}

void TimelineGeometry::setMinimumSpan(std::int64_t ns)
{
    m_minSpan = std::max<std::int64_t>(1, ns);
    if (m_boundsTo - m_boundsFrom < m_minSpan)
        setBounds(m_boundsFrom, m_boundsTo);
    else
        setRange(m_from, m_to);
}

void TimelineGeometry::clampRange(std::int64_t from, std::int64_t span)
{
    const std::int64_t boundsSpan = m_boundsTo - m_boundsFrom;
    span = std::clamp(span, std::min(m_minSpan, boundsSpan), boundsSpan);
    from = std::clamp(from, m_boundsFrom, m_boundsTo - span);
    m_from = from;
    m_to = from + span;
}

void TimelineGeometry::setRange(std::int64_t fromNs, std::int64_t toNs)
{
    if (toNs < fromNs)
        std::swap(fromNs, toNs);
    const std::int64_t span = saturatingSub(toNs, fromNs);
    if (span < m_minSpan) {
        // Too narrow: widen around the middle.
        const std::int64_t mid = fromNs + span / 2;
        clampRange(saturatingSub(mid, m_minSpan / 2), m_minSpan);
        return;
    }
    clampRange(fromNs, span);
}

void TimelineGeometry::fit(std::int64_t fromNs, std::int64_t toNs, double margin)
{
    if (toNs < fromNs)
        std::swap(fromNs, toNs);
    const auto pad = roundToNs(static_cast<double>(saturatingSub(toNs, fromNs)) * std::max(0.0, margin));
    setRange(saturatingSub(fromNs, pad), saturatingAdd(toNs, pad));
}

void TimelineGeometry::zoomAt(double factor, double anchorX)
{
    if (!(factor > 0) || !std::isfinite(factor) || !std::isfinite(anchorX))
        return;
    const double frac = std::clamp((anchorX - m_left) / m_width, 0.0, 1.0);
    const std::int64_t anchor = mapXToTime(m_left + frac * m_width);
    const std::int64_t boundsSpan = m_boundsTo - m_boundsFrom;
    const double wanted = static_cast<double>(span()) / factor;
    const std::int64_t newSpan = wanted >= static_cast<double>(boundsSpan)
        ? boundsSpan
        : std::clamp(roundToNs(wanted), std::min(m_minSpan, boundsSpan), boundsSpan);
    clampRange(saturatingSub(anchor, roundToNs(frac * static_cast<double>(newSpan))), newSpan);
}

void TimelineGeometry::panByPixels(double dx)
{
    if (!std::isfinite(dx))
        return;
    clampRange(saturatingAdd(m_from, roundToNs(dx * nsPerPixel())), span());
}

double TimelineGeometry::nsPerPixel() const
{
    return static_cast<double>(span()) / m_width;
}

double TimelineGeometry::mapTimeToX(std::int64_t ns) const
{
    return m_left + static_cast<double>(saturatingSub(ns, m_from)) / nsPerPixel();
}

std::int64_t TimelineGeometry::mapXToTime(double x) const
{
    return saturatingAdd(m_from, roundToNs((x - m_left) * nsPerPixel()));
}

std::int32_t TimelineGeometry::columnOf(std::int64_t ns) const
{
    const double x = std::floor(mapTimeToX(ns));
    constexpr double kLimit = 2'000'000'000.0;
    return static_cast<std::int32_t>(std::clamp(x, -kLimit, kLimit));
}

std::int32_t TimelineGeometry::lastColumn() const
{
    return static_cast<std::int32_t>(std::ceil(m_left + m_width)) - 1;
}

std::int64_t TimelineGeometry::tickStep(double minSpacingPx) const
{
    constexpr std::int64_t us = 1000;
    constexpr std::int64_t ms = 1000 * us;
    constexpr std::int64_t s = 1000 * ms;
    constexpr std::int64_t min = 60 * s;
    constexpr std::int64_t h = 60 * min;
    constexpr std::int64_t d = 24 * h;
    static constexpr std::int64_t kSteps[] = { 1, 2, 5, 10, 20, 50, 100, 200, 500, us, 2 * us, 5 * us, 10 * us, 20 * us,
        50 * us, 100 * us, 200 * us, 500 * us, ms, 2 * ms, 5 * ms, 10 * ms, 20 * ms, 50 * ms, 100 * ms, 200 * ms,
        500 * ms, s, 2 * s, 5 * s, 10 * s, 15 * s, 30 * s, min, 2 * min, 5 * min, 10 * min, 15 * min, 30 * min, h,
        2 * h, 3 * h, 6 * h, 12 * h, d, 2 * d, 7 * d, 14 * d, 28 * d };
    const double minNs = std::max(1.0, minSpacingPx) * nsPerPixel();
    for (std::int64_t step : kSteps)
        if (static_cast<double>(step) >= minNs)
            return step;
    std::int64_t step = 28 * d;
    while (static_cast<double>(step) < minNs && step < std::numeric_limits<std::int64_t>::max() / 10)
        step *= 10;
    return step;
}

std::vector<std::int64_t> TimelineGeometry::ticks(double minSpacingPx) const
{
    const std::int64_t step = tickStep(minSpacingPx);
    std::vector<std::int64_t> out;
    std::int64_t t = m_from / step * step;
    if (t < m_from)
        t += step;
    for (; t <= m_to && out.size() < 10000; t += step) {
        out.push_back(t);
        if (t > std::numeric_limits<std::int64_t>::max() - step)
            break;
    }
    return out;
}

// ---- Queries ---------------------------------------------------------------------------------------------------

std::size_t TimelineGeometry::tiedFirst(const ItemArrays& items, std::size_t i, std::size_t j)
{
    // Rare (equal timestamps on several sub-lanes): O(items in the column x tied lanes).
    std::size_t best = i;
    std::tuple<MarkRole, std::int64_t> bestKey { MarkRole::Context, std::numeric_limits<std::int64_t>::max() };
    bool any = false;
    for (std::size_t k = i; k < j && items.time[k] == items.time[i]; ++k) {
        const std::uint32_t lane = items.lane[k];
        bool seen = false;
        for (std::size_t q = i; q < k && !seen; ++q)
            seen = items.lane[q] == lane;
        if (seen)
            continue;
        MarkRole role = items.role[k];
        std::int64_t top = items.time[k];
        for (std::size_t q = k + 1; q < j; ++q)
            if (items.lane[q] == lane && items.role[q] < role) {
                role = items.role[q];
                top = items.time[q];
            }
        const std::tuple<MarkRole, std::int64_t> key { role, top };
        if (!any || key < bestKey) {
            any = true;
            bestKey = key;
            best = k;
        }
    }
    return best;
}

void TimelineGeometry::aggregateLane(const ItemArrays& items, std::uint32_t row, std::size_t begin, std::size_t end,
    std::vector<TimelineBucket>& out) const
{
    const std::int64_t* const time = items.time.data();
    const MarkRole* const role = items.role.data();
    const std::int32_t last = lastColumn();
    auto col = [&](std::size_t k) { return std::min(columnOf(time[k]), last); };
    std::size_t i = begin;
    while (i < end) {
        const std::int32_t c = col(i);
        // Gallop to the end of the column, then bisect: a dense lane costs O(log n) per column, not per item.
        std::size_t lo = i + 1;
        std::size_t hi = i + 1;
        std::size_t step = 1;
        while (hi < end && col(hi) <= c) {
            lo = hi + 1;
            step *= 2;
            hi = i + step;
        }
        hi = std::min(hi, end);
        while (lo < hi) {
            const std::size_t mid = lo + (hi - lo) / 2;
            if (col(mid) <= c)
                lo = mid + 1;
            else
                hi = mid;
        }
        const std::size_t j = lo;

        // The most important role in [i, j) and its first item: per-block minima skip long runs of symptoms.
        MarkRole best = role[i];
        std::size_t at = i;
        auto scan = [&](std::size_t from, std::size_t to) {
            for (std::size_t k = from; k < to && best != MarkRole::Cause; ++k)
                if (role[k] < best) {
                    best = role[k];
                    at = k;
                }
        };
        if (j - i <= 2 * kBlock) {
            scan(i + 1, j);
        } else {
            const std::size_t headEnd = (i / kBlock + 1) * kBlock;
            scan(i + 1, headEnd);
            std::size_t b = headEnd / kBlock;
            for (; (b + 1) * kBlock <= j && best != MarkRole::Cause; ++b)
                if (items.blockMin[b] < best)
                    scan(b * kBlock, (b + 1) * kBlock);
            scan(std::max(b * kBlock, headEnd), j);
        }

        // A group's column whose earliest time several lanes share: the plain per-lane merge keeps the first event of
        // the lane whose own bucket is the most important (role, then top time), so pick that lane's.
        std::size_t first = i;
        if (!items.lane.empty() && i + 1 < j && time[i + 1] == time[i])
            first = tiedFirst(items, i, j);

        TimelineBucket bucket;
        bucket.row = row;
        bucket.column = c;
        bucket.count = static_cast<std::uint32_t>(std::min<std::size_t>(j - i, UINT32_MAX));
        bucket.role = best;
        bucket.domain = items.domain[at];
        bucket.firstEvent = items.event[first];
        bucket.firstTimeNs = time[first];
        bucket.topEvent = items.event[at];
        bucket.topTimeNs = time[at];
        out.push_back(bucket);
        i = j;
    }
}

void TimelineGeometry::aggregateRow(
    std::size_t row, std::int64_t fromNs, std::int64_t toNs, std::vector<TimelineBucket>& out) const
{
    if (row >= m_rows.size())
        return;
    fromNs = std::max(fromNs, m_from);
    toNs = std::min(toNs, m_to);
    if (fromNs > toNs)
        return;
    const TimelineRow& tr = m_rows[row];
    // A collapsed node shows its sub-lanes too: its group holds them merged, so it aggregates as one lane.
    const bool group = tr.expandable && !tr.expanded;
    const ItemArrays& items = group ? m_group : m_items;
    const std::vector<std::size_t>& begin = group ? m_groupBegin : m_laneBegin;
    const auto first = items.time.begin() + static_cast<std::ptrdiff_t>(begin[tr.lane]);
    const auto last = items.time.begin() + static_cast<std::ptrdiff_t>(begin[tr.lane + 1]);
    const auto lo = std::lower_bound(first, last, fromNs);
    const auto hi = std::upper_bound(lo, last, toNs);
    aggregateLane(items, static_cast<std::uint32_t>(row), static_cast<std::size_t>(lo - items.time.begin()),
        static_cast<std::size_t>(hi - items.time.begin()), out);
}

void TimelineGeometry::aggregate(std::vector<TimelineBucket>& out) const
{
    out.clear();
    std::size_t first = 0;
    for (; first < m_rows.size() && m_rows[first].pinned; ++first)
        aggregateRow(first, m_from, m_to, out);
    // Scrolling rows: only those inside the viewport (1,000 lanes cost what the visible 30 cost).
    const double top = m_pinnedHeight + m_scrollY;
    auto it = std::upper_bound(m_rows.begin() + static_cast<std::ptrdiff_t>(first), m_rows.end(), top,
        [](double v, const TimelineRow& r) { return v < r.y + r.height; });
    for (auto r = static_cast<std::size_t>(it - m_rows.begin()); r < m_rows.size(); ++r) {
        if (m_rows[r].y >= m_scrollY + m_height)
            break;
        aggregateRow(r, m_from, m_to, out);
    }
}

TimelineHit TimelineGeometry::hitTest(double x, double y, double tolerancePx) const
{
    TimelineHit hit;
    const std::int32_t row = rowAt(y);
    if (row < 0)
        return hit;
    hit.kind = TimelineHit::Kind::Lane;
    hit.row = row;
    hit.lane = static_cast<std::int32_t>(m_rows[static_cast<std::size_t>(row)].lane);
    hit.inHeader = x < m_left;
    hit.timeNs = mapXToTime(std::clamp(x, m_left, m_left + m_width));
    if (hit.inHeader || x > m_left + m_width)
        return hit;
    const double tol = std::max(0.0, tolerancePx);
    std::vector<TimelineBucket> near;
    aggregateRow(static_cast<std::size_t>(row), mapXToTime(x - tol - 1), mapXToTime(x + tol + 1), near);
    const TimelineBucket* best = nullptr;
    double bestDist = 0;
    for (const auto& b : near) {
        const double d = std::abs(static_cast<double>(b.column) + 0.5 - x);
        if (d > tol + 0.5)
            continue;
        if (!best || d < bestDist
            || (d == bestDist && std::tie(b.role, b.topTimeNs) < std::tie(best->role, best->topTimeNs))) {
            best = &b;
            bestDist = d;
        }
    }
    if (best) {
        hit.kind = TimelineHit::Kind::Mark;
        hit.eventIndex = best->topEvent;
        hit.count = best->count;
        hit.role = best->role;
        hit.timeNs = best->topTimeNs;
    }
    return hit;
}

} // namespace faultline::views
