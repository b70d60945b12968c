// SPDX-License-Identifier: Apache-2.0
#include "views/timeline/timeline_view.h"

#include "core/report/verdict_report.h"
#include "core/time/civil_time.h"
#include "views/common/annotation_paint.h"
#include "views/common/time_text.h"

#include <QAction>
#include <QDateTime>
#include <QFutureWatcher>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QToolTip>
#include <QVariantAnimation>
#include <QWheelEvent>
#include <QtConcurrent>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <string_view>
#include <tuple>
#include <utility>

namespace faultline::views {
namespace {

constexpr int kScrollUnits = 1 << 30;
constexpr int kRightPad = 14; ///< room for a mark drawn on the last column
constexpr int kIndent = 14;

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

/// A precise duration: "850 ns", "12.345 µs", "4.900 ms", "30.912 s", "10m 00.004s", "2h 10m 12s".
QString formatSpan(qint64 ns)
{
    const double a = std::abs(static_cast<double>(ns));
    QString s;
    if (a < 1e3)
        s = QStringLiteral("%1 ns").arg(static_cast<qint64>(a));
    else if (a < 1e6)
        s = QStringLiteral("%1 µs").arg(a / 1e3, 0, 'f', 3);
    else if (a < 1e9)
        s = QStringLiteral("%1 ms").arg(a / 1e6, 0, 'f', 3);
    else if (a < 60e9)
        s = QStringLiteral("%1 s").arg(a / 1e9, 0, 'f', 3);
    else if (a < 3600e9) {
        const auto m = static_cast<qint64>(a / 60e9);
        s = QStringLiteral("%1m %2s").arg(m).arg(a / 1e9 - static_cast<double>(m) * 60, 6, 'f', 3, QLatin1Char('0'));
    } else {
        const auto t = static_cast<qint64>(a / 1e9);
        s = QStringLiteral("%1h %2m %3s")
                .arg(t / 3600)
                .arg(t / 60 % 60, 2, 10, QLatin1Char('0'))
                .arg(t % 60, 2, 10, QLatin1Char('0'));
    }
    if (ns < 0)
        return QLatin1Char('-') + s;
    return s;
}

/// A duration with its sign always shown: "+1.250 s", "−300.000 ms".
QString formatSignedSpan(qint64 ns)
{
    return (ns < 0 ? QStringLiteral("−") : QStringLiteral("+")) + formatSpan(ns < 0 ? -ns : ns);
}

/// Fraction digits that resolve a pixel at this scale.
int digitsFor(double nsPerPixel)
{
    return nsPerPixel < 1e3 ? 9 : nsPerPixel < 1e6 ? 6 : 3;
}

/// A tick step whose labels do not collide.
qint64 tickStepFor(const TimelineGeometry& g, const QFontMetrics& fm)
{
    double spacing = 80;
    qint64 step = g.tickStep(spacing);
    for (int k = 0; k < 4; ++k) {
        const double need = fm.horizontalAdvance(tickLabel(g.rangeFrom(), step)) + 28;
        if (need <= spacing)
            break;
        spacing = need;
        step = g.tickStep(spacing);
    }
    return step;
}

std::uint8_t domainId(const std::string& d)
{
    if (d == "infrastructure")
        return 1;
    if (d == "workload")
        return 2;
    if (d == "scheduler")
        return 3;
    return 0;
}

bool isDark(const QPalette& pal)
{
    return pal.color(QPalette::Base).lightness() < 128;
}

/// Domain hues, lighter on a dark base so they keep their contrast.
QColor domainColour(std::uint8_t d, bool dark)
{
    int hue = -1;
    switch (d) {
    case 1:
        hue = 2; // infrastructure: red
        break;
    case 2:
        hue = 212; // workload: blue
        break;
    case 3:
        hue = 282; // scheduler: purple
        break;
    default:
        break;
    }
    if (hue < 0)
        return dark ? QColor(170, 170, 170) : QColor(110, 110, 110);
    return QColor::fromHsl(hue, dark ? 190 : 200, dark ? 165 : 100);
}

QColor measureColour(bool dark)
{
    return dark ? QColor(255, 176, 64) : QColor(196, 104, 0);
}

/// Search ticks: a magenta that no domain colour uses.
QColor searchColour(bool dark)
{
    return dark ? QColor(255, 110, 220) : QColor(200, 0, 150);
}

QColor withAlpha(QColor c, int alpha)
{
    c.setAlpha(alpha);
    return c;
}

QColor blend(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(static_cast<float>(a.redF() * (1 - t) + b.redF() * t),
        static_cast<float>(a.greenF() * (1 - t) + b.greenF() * t),
        static_cast<float>(a.blueF() * (1 - t) + b.blueF() * t));
}

QString roleGlyph(MarkRole r)
{
    switch (r) {
    case MarkRole::Cause:
        return QStringLiteral("◆");
    case MarkRole::Precursor:
        return QStringLiteral("▲");
    case MarkRole::Companion:
        return QStringLiteral("●");
    case MarkRole::Symptom:
        return QStringLiteral("○");
    case MarkRole::Teardown:
        return QStringLiteral("×");
    case MarkRole::Context:
        break;
    }
    return QStringLiteral("·");
}

MarkRole markRoleOf(const core::Verdict& v, std::size_t i)
{
    if (v.hasCause && i == v.cause)
        return MarkRole::Cause;
    const core::Event& e = v.events[i];
    if (i < v.causeOf.size() && v.causeOf[i] >= 0 && i < v.linkRelation.size()) {
        const std::string& rel = v.linkRelation[i];
        if (rel == "precursor")
            return MarkRole::Precursor;
        if (rel == "companion" || rel == "confirmation")
            return MarkRole::Companion;
        return e.role == core::Role::Teardown ? MarkRole::Teardown : MarkRole::Symptom;
    }
    switch (e.role) {
    case core::Role::Teardown:
        return MarkRole::Teardown;
    case core::Role::Cascade:
        return MarkRole::Symptom;
    case core::Role::Companion:
        return MarkRole::Companion;
    case core::Role::Precursor:
        return MarkRole::Precursor;
    case core::Role::Root:
    case core::Role::Context:
        break;
    }
    return MarkRole::Context;
}

/// A severity's class, stored per event so painting reads one byte instead of the event's string.
std::uint8_t severityClass(const std::string& s)
{
    if (s == "fatal")
        return 1;
    if (s == "warning")
        return 2;
    if (s == "info")
        return 3;
    return 0;
}

double severityScale(std::uint8_t severity)
{
    static constexpr double kScale[] = { 1.0, 1.15, 0.9, 0.8 };
    return kScale[severity & 3];
}

/// "0000:c3:00.0" -> "c3:00".
std::string shortBusId(std::string gpu)
{
    if (gpu.rfind("0000:", 0) == 0)
        gpu.erase(0, 5);
    if (gpu.size() > 2 && gpu.compare(gpu.size() - 2, 2, ".0") == 0)
        gpu.resize(gpu.size() - 2);
    return gpu;
}

bool failedState(const std::string& state)
{
    return !state.empty() && state != "COMPLETED" && state != "RUNNING" && state != "PENDING";
}

struct StepSpan
{
    std::string id;
    std::string name;
    std::string state;
    qint64 fromNs = INT64_MIN;
    qint64 toNs = INT64_MIN;
};

/// The job's numbered steps from its sacct -P records ("sacct JobID=48213.0 JobName=torchrun ... Start=...
/// End=..."). The record's time is its resolved End; Start is read in the same zone offset.
std::vector<StepSpan> jobSteps(const core::EvidenceSet& ev, const core::Scope& scope)
{
    std::vector<StepSpan> out;
    if (scope.jobId.empty())
        return out;
    const std::string prefix = "sacct JobID=" + scope.jobId + ".";
    for (const auto& o : ev.observations) {
        if (o.kind != core::SourceKind::Scheduler || o.timeNs == INT64_MIN || o.text.rfind(prefix, 0) != 0)
            continue;
        std::map<std::string, std::string, std::less<>> f;
        std::size_t at = 6; // after "sacct "
        while (at < o.text.size()) {
            std::size_t end = o.text.find(' ', at);
            if (end == std::string_view::npos)
                end = o.text.size();
            const std::string_view tok = o.text.substr(at, end - at);
            if (const auto eq = tok.find('='); eq != std::string_view::npos)
                f[std::string(tok.substr(0, eq))] = std::string(tok.substr(eq + 1));
            at = end + 1;
        }
        StepSpan s;
        s.id = f["JobID"].substr(scope.jobId.size() + 1);
        if (s.id.empty() || !std::all_of(s.id.begin(), s.id.end(), [](char c) { return c >= '0' && c <= '9'; }))
            continue;
        if (std::any_of(out.begin(), out.end(), [&](const StepSpan& x) { return x.id == s.id; }))
            continue;
        s.name = f["JobName"];
        s.state = f["State"];
        core::CivilTime end;
        core::CivilTime start;
        const std::string& endText = f["End"];
        const std::string& startText = f["Start"];
        const bool hasEnd = !endText.empty() && core::parseIsoTime(endText, end) == endText.size();
        const bool hasStart = !startText.empty() && core::parseIsoTime(startText, start) == startText.size();
        if (hasEnd) {
            const qint64 zoneOffset = core::civilAsUtcNs(end) - o.timeNs;
            s.toNs = o.timeNs + o.precisionNs;
            if (hasStart)
                s.fromNs = core::civilAsUtcNs(start)
                    - (start.hasOffset ? static_cast<qint64>(start.offsetSeconds) * kNsPerSec : zoneOffset);
        } else if (hasStart) {
            s.fromNs = o.timeNs;
            s.toNs = scope.endNs;
        }
        if (s.fromNs != INT64_MIN && s.toNs != INT64_MIN && s.toNs > s.fromNs)
            out.push_back(std::move(s));
    }
    std::sort(out.begin(), out.end(), [](const StepSpan& a, const StepSpan& b) {
        return a.id.size() != b.id.size() ? a.id.size() < b.id.size() : a.id < b.id;
    });
    return out;
}

} // namespace

// ---- Construction and data ---------------------------------------------------------------------------------------

TimelineView::TimelineView(QWidget* parent)
    : QAbstractScrollArea(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    viewport()->setMouseTracking(true);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    m_alignClocks = new QAction(tr("Align Node &Clocks by Estimated Skew"), this);
    m_alignClocks->setCheckable(true);
    m_alignClocks->setEnabled(false);
    m_alignClocks->setShortcut(QKeySequence(Qt::Key_K));
    m_alignClocks->setShortcutContext(Qt::WidgetShortcut);
    m_alignClocks->setToolTip(tr("Draw each node's events shifted by the verdict's clock-skew estimate, as the "
                                 "analysis compared them (the evidence keeps its own times)"));
    addAction(m_alignClocks);
    connect(m_alignClocks, &QAction::toggled, this, &TimelineView::setClocksAligned);
    relayout();
}

TimelineView::~TimelineView()
{
    if (m_indexCancel)
        m_indexCancel->store(true);
}

int TimelineView::preferredHeight() const
{
    const int scrollBar = horizontalScrollBar()->sizeHint().height();
    return m_axisHeight + static_cast<int>(std::ceil(m_geo.contentHeight())) + m_footerHeight + scrollBar
        + 2 * frameWidth() + 4;
}

QSize TimelineView::sizeHint() const
{
    return { 1000, 420 };
}

QSize TimelineView::minimumSizeHint() const
{
    return { 360, 160 };
}

void TimelineView::setResult(const AnalysisResult& result)
{
    if (m_rangeAnimation) // the user (or a new result) takes over from a move in progress
        m_rangeAnimation->stop();
    if (m_indexCancel)
        m_indexCancel->store(true); // a newer result supersedes the one being indexed
    m_indexCancel.reset();
    ++m_indexGeneration;
    m_pendingSelect = -1;
    m_searchMarks.clear();
    m_annotations.clear();
    const std::size_t events = result.verdict ? result.verdict->events.size() : 0;
    if (events < m_asyncIndexEvents) {
        m_indexing = 0;
        m_result = result;
        showIndexed(buildIndex(m_result, m_clocksAligned, nullptr));
        return;
    }
    // Large: show an empty timeline that says so, index on a worker, and apply the index if nothing newer came.
    m_indexing = events;
    m_result = {};
    showIndexed(buildIndex(m_result, false, nullptr));
    auto cancel = std::make_shared<std::atomic_bool>(false);
    m_indexCancel = cancel;
    const quint64 generation = m_indexGeneration;
    const bool aligned = m_clocksAligned;
    auto* watcher = new QFutureWatcher<std::shared_ptr<Index>>(this);
    connect(watcher, &QFutureWatcher<std::shared_ptr<Index>>::finished, this, [this, watcher, generation, result] {
        watcher->deleteLater();
        const auto index = watcher->result();
        if (generation != m_indexGeneration || !index)
            return;
        m_indexing = 0;
        m_indexCancel.reset();
        m_result = result;
        const int select = m_pendingSelect;
        showIndexed(std::move(*index));
        if (select >= 0)
            selectEvent(select);
    });
    watcher->setFuture(QtConcurrent::run([result, aligned, cancel] {
        auto index = std::make_shared<Index>(buildIndex(result, aligned, cancel.get()));
        return cancel->load() ? std::shared_ptr<Index>() : index;
    }));
}

void TimelineView::showIndexed(Index&& index)
{
    const qint64 from = m_geo.rangeFrom();
    const qint64 to = m_geo.rangeTo();
    applyIndex(std::move(index));
    relayout();
    m_geo.fit(m_fitFrom, m_fitTo, 0.04);
    syncScrollBars();
    viewport()->update();
    if (from != m_geo.rangeFrom() || to != m_geo.rangeTo())
        Q_EMIT rangeChanged(m_geo.rangeFrom(), m_geo.rangeTo());
    if (!m_indexing)
        Q_EMIT indexed();
}

TimelineView::Index TimelineView::buildIndex(const AnalysisResult& result, bool aligned, const std::atomic_bool* cancel)
{
    Index x;
    x.childBegin.assign(1, 0);
    std::vector<LaneSpec> lanes;
    std::vector<TimelineItem> items;
    if (!result.verdict) {
        x.geo.setData({}, {});
        x.geo.setBounds(0, kNsPerMin);
        x.fitFrom = 0;
        x.fitTo = kNsPerMin;
        return x;
    }
    const core::Verdict& v = *result.verdict;
    const core::EvidenceSet* ev = result.evidence.get();
    const core::Scope& scope = v.scope;
    const std::size_t n = v.events.size();
    auto addLane = [&](LaneSpec spec, LaneInfo info, qint64 shift = 0) {
        lanes.push_back(std::move(spec));
        x.laneInfo.push_back(std::move(info));
        x.laneShift.push_back(shift);
        return static_cast<std::uint32_t>(lanes.size() - 1);
    };
    // The skew estimates the analysis corrected for, by node.
    std::map<std::string, const core::ClockSkew*> skewOf;
    for (const auto& k : v.clockSkew)
        if (std::llabs(k.offsetNs) >= core::kSkewCorrectionNs)
            skewOf.emplace(k.node, &k);
    x.hasSkew = !skewOf.empty();
    x.aligned = aligned && x.hasSkew;

    // Pinned rows: the job, its steps, the analysis window when it was set by hand.
    const bool haveJob = scope.startNs != INT64_MIN && scope.endNs != INT64_MIN && scope.endNs > scope.startNs;
    std::int32_t jobLane = -1;
    if (!scope.jobId.empty() || haveJob) {
        LaneSpec s;
        s.kind = LaneKind::Job;
        s.label = scope.jobId.empty() ? std::string("workload") : "job " + scope.jobId;
        if (haveJob)
            s.spans.push_back({ scope.startNs, scope.endNs });
        LaneInfo info;
        info.label = scope.jobId.empty() ? tr("workload") : tr("job %1").arg(qs(scope.jobId));
        QStringList parts;
        if (!scope.jobName.empty())
            parts << qs(scope.jobName);
        if (!scope.state.empty())
            parts << qs(scope.state);
        // The end is exclusive (the end of the second sacct wrote): show the second itself, as sacct does.
        if (haveJob)
            parts << tr("%1 → %2 UTC").arg(utcClock(scope.startNs, 0), utcClock(scope.endNs - 1, 0));
        info.spanText = parts.join(QStringLiteral(" · "));
        info.failed = failedState(scope.state);
        info.tooltip = tr("<b>%1</b> %2<br>%3 nodes, %4 ranks per node<br>from %5")
                           .arg(info.label.toHtmlEscaped(), info.spanText.toHtmlEscaped())
                           .arg(scope.nodes.size())
                           .arg(scope.ranksPerNode)
                           .arg(qs(scope.origin).toHtmlEscaped());
        if (scope.windowZoneAssumed)
            info.tooltip += tr("<br><i>The window's times had no zone: the analysis did not filter by it.</i>");
        jobLane = static_cast<std::int32_t>(addLane(std::move(s), std::move(info)));
        x.jobLane = jobLane;
    }
    if (ev)
        for (const StepSpan& step : jobSteps(*ev, scope)) {
            LaneSpec s;
            s.kind = LaneKind::Step;
            s.label = "step " + step.id;
            s.spans.push_back({ step.fromNs, step.toNs });
            LaneInfo info;
            info.label = tr("step %1").arg(qs(step.id));
            info.spanText = QStringLiteral("%1 · %2").arg(qs(step.name), qs(step.state));
            info.failed = failedState(step.state);
            info.tooltip =
                tr("<b>step %1.%2</b> %3<br>%4 → %5 UTC (%6)")
                    .arg(qs(scope.jobId), qs(step.id), info.spanText.toHtmlEscaped(), utcClock(step.fromNs, 0),
                        utcClock(step.toNs - 1, 0), formatSpan(step.toNs - step.fromNs));
            addLane(std::move(s), std::move(info));
        }
    if (result.windowFromNs != INT64_MIN && result.windowToNs != INT64_MIN) {
        LaneSpec s;
        s.kind = LaneKind::Window;
        s.label = "window";
        s.spans.push_back({ result.windowFromNs, result.windowToNs });
        LaneInfo info;
        info.label = tr("window");
        info.spanText =
            tr("analysis window %1 → %2 UTC").arg(utcClock(result.windowFromNs, 0), utcClock(result.windowToNs, 0));
        info.tooltip = tr("The workload window was set for this analysis; events outside it were not considered.");
        addLane(std::move(s), std::move(info));
    }

    // One lane per node: every allocated node (a silent one is evidence too), then every host an event names.
    std::map<core::NodeId, std::uint32_t> nodeLane;
    auto laneForNode = [&](core::NodeId id) {
        if (auto it = nodeLane.find(id); it != nodeLane.end())
            return it->second;
        const std::string& name = id == core::kNoNode ? std::string() : v.nodes.name(id);
        LaneSpec s;
        s.kind = LaneKind::Node;
        s.label = id == core::kNoNode ? "(no host)" : name;
        s.blamed = std::find(v.blamedNodes.begin(), v.blamedNodes.end(), name) != v.blamedNodes.end();
        LaneInfo info;
        info.label = id == core::kNoNode ? tr("(no host)") : qs(name);
        info.blamed = s.blamed;
        info.inAllocation = id != core::kNoNode
            && (scope.nodes.empty() || std::find(scope.nodes.begin(), scope.nodes.end(), id) != scope.nodes.end());
        info.tooltip = QStringLiteral("<b>%1</b>").arg(info.label.toHtmlEscaped());
        if (s.blamed)
            info.tooltip += tr("<br>⚑ blamed by the verdict: drain or exclude it");
        if (!info.inAllocation)
            info.tooltip += tr("<br>not part of the job's allocation");
        qint64 shift = 0;
        if (const auto k = skewOf.find(name); id != core::kNoNode && k != skewOf.end()) {
            info.tooltip += tr("<br>⏱ clock runs %1 against the other nodes (estimate from %2)")
                                .arg(formatSignedSpan(k->second->offsetNs), qs(k->second->basis).toHtmlEscaped());
            if (x.aligned) {
                shift = k->second->offsetNs;
                info.tooltip += tr("<br>drawn shifted by %1 (clocks aligned)").arg(formatSignedSpan(-shift));
                info.label += QStringLiteral(" ⏱");
            }
        }
        const auto l = addLane(std::move(s), std::move(info), shift);
        nodeLane.emplace(id, l);
        if (id != core::kNoNode)
            x.laneOfNode.emplace(name, l);
        return l;
    };
    for (core::NodeId id : scope.nodes)
        laneForNode(id);

    // Which GPU a rank drives, as the evidence states it (NCCL init lines).
    std::map<std::pair<core::NodeId, std::int32_t>, std::string> gpuOfRank;
    if (ev)
        for (const auto& r : ev->ranks)
            if (!r.gpu.empty())
                gpuOfRank.emplace(std::make_pair(r.node, r.rank), r.gpu);
    std::map<std::pair<std::uint32_t, std::string>, std::uint32_t> subLane;
    std::set<std::uint32_t> withIndex; // GPU sub-lanes whose label has the NVML index

    x.laneOfEvent.assign(n, -1);
    x.roleOfEvent.assign(n, MarkRole::Context);
    x.severityOf.assign(n, 0);
    items.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (cancel && (i & 0xffff) == 0 && cancel->load())
            return Index();
        const core::Event& e = v.events[i];
        const MarkRole role = markRoleOf(v, i);
        x.roleOfEvent[i] = role;
        x.severityOf[i] = severityClass(e.severity);
        if (e.timeNs == INT64_MIN) {
            ++x.untimed;
            continue;
        }
        std::uint32_t lane = 0;
        if (e.node == core::kNoNode && jobLane >= 0) {
            lane = static_cast<std::uint32_t>(jobLane);
        } else {
            lane = laneForNode(e.node);
            std::string gpu = e.gpu;
            if (gpu.empty() && e.rank >= 0)
                if (auto it = gpuOfRank.find({ e.node, e.rank }); it != gpuOfRank.end())
                    gpu = it->second;
            if (e.node != core::kNoNode && (!gpu.empty() || e.rank >= 0)) {
                const std::string key = gpu.empty() ? "rank " + std::to_string(e.rank) : "gpu " + gpu;
                auto it = subLane.find({ lane, key });
                if (it == subLane.end()) {
                    std::int32_t rank = gpu.empty() || !ev ? e.rank : ev->rankOnGpu(e.node, gpu);
                    if (rank < 0)
                        rank = e.rank;
                    LaneSpec s;
                    s.kind = LaneKind::SubLane;
                    s.parent = static_cast<std::int32_t>(lane);
                    s.label =
                        gpu.empty() ? key : "GPU " + shortBusId(gpu) + (rank >= 0 ? " · r" + std::to_string(rank) : "");
                    LaneInfo info;
                    info.label = qs(s.label);
                    info.blamed = x.laneInfo[lane].blamed;
                    info.inAllocation = x.laneInfo[lane].inAllocation;
                    info.tooltip = gpu.empty() ? tr("<b>%1</b> rank %2 (its GPU is not named in the evidence)")
                                                     .arg(x.laneInfo[lane].label.toHtmlEscaped())
                                                     .arg(e.rank)
                                               : tr("<b>%1</b> GPU %2%3")
                                                     .arg(x.laneInfo[lane].label.toHtmlEscaped(), qs(gpu),
                                                         rank >= 0 ? tr(", rank %1").arg(rank) : QString());
                    it = subLane
                             .emplace(
                                 std::make_pair(lane, key), addLane(std::move(s), std::move(info), x.laneShift[lane]))
                             .first;
                }
                lane = it->second;
                // DCGM names the NVML index nvidia-smi shows ("GPU 5"): put it in the lane's label once known.
                if (const std::string* index = e.field("gpu_index");
                    index && !index->empty() && !gpu.empty() && withIndex.insert(lane).second) {
                    std::string label = lanes[lane].label;
                    label.insert(4, *index + " · ");
                    lanes[lane].label = label;
                    x.laneInfo[lane].label = qs(label);
                }
            }
        }
        items.push_back(
            { e.timeNs - x.laneShift[lane], lane, role, domainId(e.domain), static_cast<std::uint32_t>(i) });
        x.laneOfEvent[i] = static_cast<std::int32_t>(lane);
    }

    // Bounds: the job, its steps and every event, with a little room.
    std::int64_t lo = INT64_MAX;
    std::int64_t hi = INT64_MIN;
    for (const auto& it : items) {
        lo = std::min(lo, it.timeNs);
        hi = std::max(hi, it.timeNs);
    }
    for (const auto& l : lanes)
        for (const auto& s : l.spans) {
            lo = std::min(lo, s.fromNs);
            hi = std::max(hi, s.toNs);
        }
    x.noTimes = lo > hi; // nothing to place on an axis: the view says so instead of drawing one at 1970
    if (lo > hi)
        lo = hi = 0;
    const qint64 pad = std::max<qint64>(kNsPerSec, (hi - lo) / 50);

    // Evidence gaps, per the verdict's coverage: a source kind that is missing, empty, broken or truncated, over the
    // whole job (the bundle cannot say when the evidence would have been). A quiet log is not a gap: a kernel that
    // logged nothing after 09:41 is evidence too, so record times are not used to guess partial coverage.
    const qint64 winFrom = haveJob ? scope.startNs : lo;
    const qint64 winTo = haveJob ? scope.endNs : hi;
    std::map<std::string, std::pair<int, int>> perKind; // kind -> (ok, total)
    std::vector<std::string> kinds;
    bool anyGap = false;
    for (const auto& c : v.coverage) {
        auto [it, added] = perKind.try_emplace(c.kind, 0, 0);
        if (added)
            kinds.push_back(c.kind);
        ++it->second.second;
        if (c.status == core::CoverageStatus::Ok) {
            ++it->second.first;
            continue;
        }
        anyGap = true;
        const QString who = c.node.empty() ? qs(c.kind) : QStringLiteral("%1 %2").arg(qs(c.node), qs(c.kind));
        LaneSpec s;
        s.kind = LaneKind::Gap;
        s.spans.push_back({ winFrom, winTo });
        LaneInfo info;
        info.label = QStringLiteral("%1: %2").arg(who, qs(core::coverageStatusName(c.status)));
        info.spanText = qs(c.reason);
        s.label = info.label.toStdString();
        QStringList files;
        for (const auto& f : c.files)
            files << qs(f).toHtmlEscaped();
        info.tooltip =
            tr("<b>Evidence gap</b>: %1<br>%2%3")
                .arg(info.label.toHtmlEscaped(), info.spanText.toHtmlEscaped(),
                    files.isEmpty() ? QString() : tr("<br>sources: %1").arg(files.join(QStringLiteral(", "))));
        addLane(std::move(s), std::move(info));
    }
    if (!anyGap && !v.coverage.empty()) {
        // Say so: an empty gaps section would read as "not checked".
        QStringList parts;
        for (const auto& k : kinds) {
            const auto [ok, total] = perKind[k];
            parts << (total > 1 ? QStringLiteral("%1 %2/%3 ✓").arg(qs(k)).arg(ok).arg(total)
                                : QStringLiteral("%1 ✓").arg(qs(k)));
        }
        LaneSpec s;
        s.kind = LaneKind::Gap;
        s.label = "no evidence gaps";
        LaneInfo info;
        info.label = tr("no evidence gaps");
        info.spanText = tr("coverage: %1").arg(parts.join(QStringLiteral(" · ")));
        info.tooltip = tr("<b>Coverage</b>: %1").arg(info.spanText.toHtmlEscaped());
        addLane(std::move(s), std::move(info));
    }

    // What the view shows first: the verdict's evidence trail.
    std::int64_t fitLo = INT64_MAX;
    std::int64_t fitHi = INT64_MIN;
    for (const auto& t : v.trail)
        if (t.event < n && x.laneOfEvent[t.event] >= 0) {
            const std::int64_t at =
                v.events[t.event].timeNs - x.laneShift[static_cast<std::size_t>(x.laneOfEvent[t.event])];
            fitLo = std::min(fitLo, at);
            fitHi = std::max(fitHi, at);
        }
    if (fitLo > fitHi) {
        fitLo = lo;
        fitHi = hi;
    }
    // A trail of one instant (one event, or several at one time) would open at a nanosecond scale: show the two
    // minutes around it instead, most of them before it, where what led up to it is.
    constexpr std::int64_t kMinFit = 2 * kNsPerMin;
    if (fitHi - fitLo < kMinFit) {
        const std::int64_t before = (kMinFit - (fitHi - fitLo)) * 3 / 4;
        fitLo -= before;
        fitHi = fitLo + kMinFit;
    }
    x.fitFrom = fitLo;
    x.fitTo = fitHi;

    // The verdict's links as adjacency lists, and the root candidates it rejected.
    x.childBegin.assign(n + 1, 0);
    for (std::size_t i = 0; i < n && i < v.causeOf.size(); ++i)
        if (v.causeOf[i] >= 0 && static_cast<std::size_t>(v.causeOf[i]) < n)
            ++x.childBegin[static_cast<std::size_t>(v.causeOf[i]) + 1];
    std::partial_sum(x.childBegin.begin(), x.childBegin.end(), x.childBegin.begin());
    x.children.assign(x.childBegin.back(), 0);
    {
        std::vector<std::uint32_t> fill(x.childBegin.begin(), x.childBegin.end() - 1);
        for (std::size_t i = 0; i < n && i < v.causeOf.size(); ++i)
            if (v.causeOf[i] >= 0 && static_cast<std::size_t>(v.causeOf[i]) < n)
                x.children[fill[static_cast<std::size_t>(v.causeOf[i])]++] = static_cast<std::uint32_t>(i);
    }
    x.alternative.assign(n, 0);
    for (const auto& a : v.alternatives)
        if (a.event < n)
            x.alternative[a.event] = 1;

    x.geo.setData(std::move(lanes), std::move(items));
    // The bounds hold the first view too (a single instant's two minutes may reach past the evidence).
    x.geo.setBounds(std::min(lo - pad, x.fitFrom), std::max(hi + pad, x.fitTo));
    // Blamed nodes open on their GPUs, where the cause is.
    for (std::uint32_t l = 0; l < x.laneInfo.size(); ++l)
        if (x.geo.lanes()[l].kind == LaneKind::Node && x.laneInfo[l].blamed)
            x.geo.setExpanded(l, true);
    return x;
}

void TimelineView::rebuild()
{
    applyIndex(buildIndex(m_result, m_clocksAligned, nullptr));
}

void TimelineView::applyIndex(Index&& x)
{
    m_linkEdgesFor = -2; // a new result: the selection's links are gathered again
    m_selected = -1;
    m_cursor = INT64_MIN;
    m_measureA = m_measureB = INT64_MIN;
    m_drag = Drag::None;
    m_focus = Focus::None;
    m_selectedLane = -1;
    m_measureNode.clear();
    m_laneInfo = std::move(x.laneInfo);
    if (m_textFilter)
        for (auto& info : m_laneInfo) {
            info.label = shownText(info.label);
            info.tooltip = shownText(info.tooltip);
            info.spanText = shownText(info.spanText);
        }
    m_laneOfEvent = std::move(x.laneOfEvent);
    m_roleOfEvent = std::move(x.roleOfEvent);
    m_severityOf = std::move(x.severityOf);
    m_alternative = std::move(x.alternative);
    m_childBegin = std::move(x.childBegin);
    m_children = std::move(x.children);
    m_untimed = x.untimed;
    m_noTimes = x.noTimes;
    m_laneShift = std::move(x.laneShift);
    m_laneOfNode = std::move(x.laneOfNode);
    m_jobLane = x.jobLane;
    m_hasSkew = x.hasSkew;
    m_clocksAligned = x.aligned;
    m_fitFrom = x.fitFrom;
    m_fitTo = x.fitTo;
    m_geo = std::move(x.geo);
    {
        const QSignalBlocker block(m_alignClocks);
        m_alignClocks->setEnabled(m_hasSkew);
        m_alignClocks->setChecked(m_clocksAligned);
    }
    placeSearchMarks();
}

qint64 TimelineView::shownTime(int eventIndex) const
{
    if (!m_result.verdict || eventIndex < 0 || static_cast<std::size_t>(eventIndex) >= m_laneOfEvent.size())
        return INT64_MIN;
    const auto i = static_cast<std::size_t>(eventIndex);
    const qint64 t = m_result.verdict->events[i].timeNs;
    if (t == INT64_MIN || m_laneOfEvent[i] < 0)
        return t;
    return t - m_laneShift[static_cast<std::size_t>(m_laneOfEvent[i])];
}

void TimelineView::setClocksAligned(bool aligned)
{
    aligned = aligned && m_hasSkew;
    if (aligned == m_clocksAligned) {
        const QSignalBlocker block(m_alignClocks);
        m_alignClocks->setChecked(aligned);
        return;
    }
    m_clocksAligned = aligned;
    // The same lanes come back in the same order of creation: keep what the user had open, selected and measured.
    std::vector<std::uint32_t> expanded;
    for (std::uint32_t l = 0; l < m_geo.lanes().size(); ++l)
        if (m_geo.isExpanded(l))
            expanded.push_back(l);
    const int selected = m_selected;
    const qint64 cursor = m_cursor;
    const qint64 a = m_measureA;
    const qint64 b = m_measureB;
    const qint64 from = m_geo.rangeFrom();
    const qint64 to = m_geo.rangeTo();
    const double scroll = m_geo.scrollY();
    rebuild();
    for (std::uint32_t l = 0; l < m_geo.lanes().size(); ++l)
        m_geo.setExpanded(l, std::binary_search(expanded.begin(), expanded.end(), l));
    relayout();
    m_geo.setRange(from, to);
    m_geo.setScrollY(scroll);
    m_selected = selected;
    m_cursor = cursor;
    m_measureA = a;
    m_measureB = b;
    syncScrollBars();
    viewport()->update();
    {
        const QSignalBlocker block(m_alignClocks);
        m_alignClocks->setChecked(m_clocksAligned);
    }
    Q_EMIT clocksAlignedChanged(m_clocksAligned);
}

void TimelineView::setSearchMarks(const std::vector<TimelineSearchMark>& marks)
{
    m_searchMarks = marks;
    placeSearchMarks();
    viewport()->update();
}

void TimelineView::placeSearchMarks()
{
    m_searchByLane.assign(m_laneInfo.size(), {});
    m_searchShown = 0;
    for (const auto& m : m_searchMarks) {
        if (m.timeNs == INT64_MIN)
            continue;
        std::int32_t lane = m_jobLane;
        if (!m.node.empty()) {
            const auto it = m_laneOfNode.find(m.node);
            lane = it == m_laneOfNode.end() ? -1 : static_cast<std::int32_t>(it->second);
        }
        if (lane < 0)
            continue;
        const auto l = static_cast<std::size_t>(lane);
        m_searchByLane[l].push_back(m.timeNs - m_laneShift[l]);
        ++m_searchShown;
    }
    for (auto& times : m_searchByLane)
        std::sort(times.begin(), times.end());
}

std::vector<int> TimelineView::searchTickColumns(int lane) const
{
    std::vector<int> out;
    if (lane < 0 || static_cast<std::size_t>(lane) >= m_searchByLane.size())
        return out;
    const auto& times = m_searchByLane[static_cast<std::size_t>(lane)];
    // One tick per pixel column: after a tick, skip to the first time of the next column.
    auto it = std::lower_bound(times.begin(), times.end(), m_geo.rangeFrom());
    while (it != times.end() && *it <= m_geo.rangeTo()) {
        const int column = m_geo.columnOf(*it);
        out.push_back(column);
        it = std::lower_bound(it, times.end(), m_geo.mapXToTime(column + 1));
        while (it != times.end() && m_geo.columnOf(*it) <= column)
            ++it;
    }
    return out;
}

// ---- Annotations ----------------------------------------------------------------------------------------------

void TimelineView::setAnnotations(std::vector<TimelineAnnotation> annotations)
{
    m_annotations = std::move(annotations);
    viewport()->update();
}

std::int32_t TimelineView::laneOfNodeName(const std::string& node) const
{
    if (node.empty())
        return m_jobLane;
    const auto it = m_laneOfNode.find(node);
    return it == m_laneOfNode.end() ? -1 : static_cast<std::int32_t>(it->second);
}

std::string TimelineView::selectedLaneNode() const
{
    if (m_selectedLane < 0 || static_cast<std::size_t>(m_selectedLane) >= m_geo.lanes().size())
        return {};
    const LaneSpec& spec = m_geo.lanes()[static_cast<std::size_t>(m_selectedLane)];
    const std::int32_t lane = spec.kind == LaneKind::SubLane ? spec.parent : m_selectedLane;
    for (const auto& [name, l] : m_laneOfNode)
        if (static_cast<std::int32_t>(l) == lane)
            return name;
    return {};
}

std::optional<std::pair<qint64, qint64>> TimelineView::measuredRange() const
{
    if (m_measureA == INT64_MIN || m_measureB == INT64_MIN)
        return std::nullopt;
    return std::make_pair(std::min(m_measureA, m_measureB), std::max(m_measureA, m_measureB));
}

void TimelineView::selectLane(const std::string& node)
{
    const std::int32_t lane = node.empty() ? -1 : laneOfNodeName(node);
    m_selectedLane = lane;
    m_focus = lane >= 0 ? Focus::Lane : Focus::None;
    if (lane >= 0)
        if (const std::int32_t row = m_geo.rowOfLane(static_cast<std::uint32_t>(lane)); row >= 0) {
            m_geo.ensureRowVisible(static_cast<std::size_t>(row));
            syncScrollBars();
        }
    viewport()->update();
}

void TimelineView::showRange(qint64 fromNs, qint64 toNs, const std::string& node)
{
    m_measureA = fromNs;
    m_measureB = toNs;
    m_measureNode = node;
    m_focus = Focus::Range;
    const qint64 pad = std::max<qint64>((toNs - fromNs) / 4, 1'000'000'000);
    changeRange([&] { m_geo.setRange(fromNs - pad, toNs + pad); });
    if (!node.empty())
        if (const std::int32_t lane = laneOfNodeName(node); lane >= 0)
            if (const std::int32_t row = m_geo.rowOfLane(static_cast<std::uint32_t>(lane)); row >= 0) {
                m_geo.ensureRowVisible(static_cast<std::size_t>(row));
                syncScrollBars();
            }
    viewport()->update();
}

std::optional<QPointF> TimelineView::pinHead(const TimelineAnnotation& a) const
{
    if (a.shape != TimelineAnnotation::Shape::Pin)
        return std::nullopt;
    std::int32_t lane = -1;
    qint64 t = INT64_MIN;
    if (a.eventIndex >= 0 && static_cast<std::size_t>(a.eventIndex) < m_laneOfEvent.size()) {
        lane = m_laneOfEvent[static_cast<std::size_t>(a.eventIndex)];
        t = shownTime(a.eventIndex);
    } else if (a.timeNs != INT64_MIN) {
        lane = laneOfNodeName(a.node);
        if (lane >= 0)
            t = a.timeNs - m_laneShift[static_cast<std::size_t>(lane)];
    }
    if (lane < 0 || t == INT64_MIN || t < m_geo.rangeFrom() || t > m_geo.rangeTo())
        return std::nullopt;
    const std::int32_t row = m_geo.rowOfLane(static_cast<std::uint32_t>(lane));
    if (row < 0 || !m_geo.isRowVisible(static_cast<std::size_t>(row)))
        return std::nullopt;
    double x = static_cast<double>(m_geo.columnOf(t)) + 0.5;
    // On an event, the ribbon stands at the top left of its mark: the mark's shape stays readable, and the selected
    // event's callout (on the right) stays clear.
    if (a.eventIndex >= 0)
        x -= markRadius() * 0.5 + 4;
    return QPointF(x, m_geo.rowTop(static_cast<std::size_t>(row)) + 1);
}

std::optional<QRectF> TimelineView::bandRect(const TimelineAnnotation& a) const
{
    if (a.shape != TimelineAnnotation::Shape::Band || a.timeNs == INT64_MIN || a.toNs == INT64_MIN
        || a.toNs < m_geo.rangeFrom() || a.timeNs > m_geo.rangeTo())
        return std::nullopt;
    const double left = m_geo.plotLeft();
    const double right = left + m_geo.plotWidth();
    const double x0 = std::clamp(m_geo.mapTimeToX(a.timeNs), left, right);
    const double x1 = std::clamp(m_geo.mapTimeToX(a.toNs), left, right);
    double top = m_geo.plotTop() + m_geo.pinnedHeight();
    double bottom = std::min(m_geo.plotTop() + m_geo.contentHeight(), m_geo.plotTop() + m_geo.plotHeight());
    if (!a.node.empty()) {
        const std::int32_t lane = laneOfNodeName(a.node);
        const std::int32_t row = lane < 0 ? -1 : m_geo.rowOfLane(static_cast<std::uint32_t>(lane));
        if (row < 0 || !m_geo.isRowVisible(static_cast<std::size_t>(row)))
            return std::nullopt;
        const auto r = static_cast<std::size_t>(row);
        // The node's row and, when expanded, its sub-lanes' rows under it.
        top = m_geo.rowTop(r);
        bottom = top + m_geo.rows()[r].height;
        for (std::size_t next = r + 1; next < m_geo.rows().size() && m_geo.rows()[next].depth > 0; ++next)
            bottom += m_geo.rows()[next].height;
    }
    if (bottom <= top)
        return std::nullopt;
    return QRectF(x0, top, std::max(2.0, x1 - x0), bottom - top);
}

std::optional<QPointF> TimelineView::annotationPosition(std::int64_t id) const
{
    for (const auto& a : m_annotations) {
        if (a.id != id)
            continue;
        if (a.shape == TimelineAnnotation::Shape::Pin)
            return pinHead(a);
        if (a.shape == TimelineAnnotation::Shape::Band) {
            const auto r = bandRect(a);
            return r ? std::optional<QPointF>(r->topLeft()) : std::nullopt;
        }
        const std::int32_t lane = laneOfNodeName(a.node);
        const std::int32_t row = lane < 0 ? -1 : m_geo.rowOfLane(static_cast<std::uint32_t>(lane));
        if (row < 0 || !m_geo.isRowVisible(static_cast<std::size_t>(row)))
            return std::nullopt;
        return QPointF(m_headerWidth - 16, m_geo.rowCenterY(static_cast<std::size_t>(row)));
    }
    return std::nullopt;
}

void TimelineView::paintAnnotationBands(QPainter& p)
{
    const bool dark = isDark(palette());
    const QColor colour = annotationColour(dark);
    p.save();
    p.setClipRect(QRectF(m_geo.plotLeft(), m_geo.plotTop() + m_geo.pinnedHeight(), m_geo.plotWidth() + kRightPad,
        m_geo.plotHeight() - m_geo.pinnedHeight()));
    p.setPen(Qt::NoPen);
    for (const auto& a : m_annotations) {
        const auto r = bandRect(a);
        if (!r)
            continue;
        p.fillRect(*r, withAlpha(colour, a.matched ? (dark ? 34 : 28) : 14));
        p.fillRect(QRectF(r->left(), r->top(), r->width(), 3), withAlpha(colour, a.bookmark ? 200 : 130));
    }
    p.restore();
}

void TimelineView::paintAnnotationPins(QPainter& p)
{
    if (m_annotations.empty())
        return;
    const QPalette& pal = palette();
    p.save();
    p.setClipRect(QRectF(m_geo.plotLeft() - 6, m_geo.plotTop(), m_geo.plotWidth() + kRightPad + 6, m_geo.plotHeight()));
    for (const auto& a : m_annotations) {
        const auto head = pinHead(a);
        if (!head)
            continue;
        drawAnnotationRibbon(p, QPointF(head->x() - 4, head->y()), a.bookmark, a.matched, pal);
    }
    p.restore();
}

QString TimelineView::annotationTooltipAt(const QPoint& pos) const
{
    QStringList parts;
    for (const auto& a : m_annotations) {
        bool hit = false;
        if (a.shape == TimelineAnnotation::Shape::Pin) {
            if (const auto head = pinHead(a))
                hit = std::abs(pos.x() - head->x()) <= 6 && pos.y() >= head->y() - 2 && pos.y() <= head->y() + 12;
        } else if (a.shape == TimelineAnnotation::Shape::Band) {
            // The band's top strip, so that marks under the band keep their own tooltips.
            if (const auto r = bandRect(a))
                hit = pos.x() >= r->left() && pos.x() <= r->right() && pos.y() >= r->top() && pos.y() <= r->top() + 6;
        } else if (const auto at = annotationPosition(a.id)) {
            hit = std::abs(pos.x() - at->x()) <= 8 && std::abs(pos.y() - at->y()) <= 7;
        }
        if (hit)
            parts << a.tooltip;
    }
    if (parts.isEmpty())
        return {};
    return QStringLiteral("<qt>") + parts.join(QStringLiteral("<hr>")) + QStringLiteral("</qt>");
}

void TimelineView::relayout()
{
    const QFontMetrics fm(font());
    TimelineMetrics m;
    m.spanRowHeight = fm.height() + 8;
    m.nodeRowHeight = fm.height() + 12;
    m.subRowHeight = fm.height() + 6;
    m.gapRowHeight = fm.height() + 8;
    m_geo.setMetrics(m);
    m_axisHeight = 2 * fm.height() + 10;
    m_footerHeight = fm.height() + 8;
    int widest = fm.horizontalAdvance(tr("Lanes")) + 40;
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics fmBold(bold);
    for (std::size_t l = 0; l < m_laneInfo.size(); ++l) {
        const LaneSpec& spec = m_geo.lanes()[l];
        const bool sub = spec.kind == LaneKind::SubLane && spec.parent >= 0;
        const int w = (sub ? 2 * kIndent : kIndent) + 16
            + (spec.kind == LaneKind::Node ? fmBold : fm).horizontalAdvance(m_laneInfo[l].label) + 24
            + fm.horizontalAdvance(QStringLiteral("99999"));
        widest = std::max(widest, w);
    }
    m_headerWidth = std::clamp(widest, 150, 320);
    const QSize vs = viewport()->size();
    m_geo.setPlotArea(m_headerWidth, m_axisHeight, std::max(1, vs.width() - m_headerWidth - kRightPad),
        std::max(1, vs.height() - m_axisHeight - m_footerHeight));
    syncScrollBars();
}

void TimelineView::syncScrollBars()
{
    m_syncingScrollBars = true;
    QScrollBar* vb = verticalScrollBar();
    vb->setRange(0, static_cast<int>(std::ceil(m_geo.maxScrollY())));
    vb->setPageStep(std::max(1, static_cast<int>(m_geo.plotHeight() - m_geo.pinnedHeight())));
    vb->setSingleStep(static_cast<int>(m_geo.metrics().nodeRowHeight));
    vb->setValue(static_cast<int>(std::lround(m_geo.scrollY())));
    QScrollBar* hb = horizontalScrollBar();
    const double bounds = static_cast<double>(m_geo.boundsTo() - m_geo.boundsFrom());
    const int page =
        std::clamp(static_cast<int>(static_cast<double>(m_geo.span()) / bounds * kScrollUnits), 1, kScrollUnits);
    hb->setRange(0, kScrollUnits - page);
    hb->setPageStep(page);
    hb->setSingleStep(std::max(1, page / 10));
    hb->setValue(static_cast<int>(
        std::lround(static_cast<double>(m_geo.rangeFrom() - m_geo.boundsFrom()) / bounds * kScrollUnits)));
    m_syncingScrollBars = false;
}

template <class F> void TimelineView::changeRange(F&& change)
{
    const qint64 from = m_geo.rangeFrom();
    const qint64 to = m_geo.rangeTo();
    change();
    syncScrollBars();
    viewport()->update();
    if (from != m_geo.rangeFrom() || to != m_geo.rangeTo())
        Q_EMIT rangeChanged(m_geo.rangeFrom(), m_geo.rangeTo());
}

// ---- Public slots and queries ------------------------------------------------------------------------------------

int TimelineView::laneOfEvent(int eventIndex) const
{
    if (eventIndex < 0 || static_cast<std::size_t>(eventIndex) >= m_laneOfEvent.size())
        return -1;
    return m_laneOfEvent[static_cast<std::size_t>(eventIndex)];
}

std::optional<QPointF> TimelineView::markPoint(std::size_t eventIndex) const
{
    if (eventIndex >= m_laneOfEvent.size() || m_laneOfEvent[eventIndex] < 0)
        return std::nullopt;
    const std::int32_t row = m_geo.rowOfLane(static_cast<std::uint32_t>(m_laneOfEvent[eventIndex]));
    if (row < 0)
        return std::nullopt;
    const qint64 t = shownTime(static_cast<int>(eventIndex));
    const double x = std::clamp(static_cast<double>(m_geo.columnOf(t)) + 0.5, -1e6, 1e6);
    return QPointF(x, m_geo.rowCenterY(static_cast<std::size_t>(row)));
}

std::optional<QPointF> TimelineView::markPosition(int eventIndex) const
{
    if (eventIndex < 0)
        return std::nullopt;
    return markPoint(static_cast<std::size_t>(eventIndex));
}

void TimelineView::setLaneExpanded(int lane, bool expanded)
{
    if (lane < 0)
        return;
    m_geo.setExpanded(static_cast<std::uint32_t>(lane), expanded);
    syncScrollBars();
    viewport()->update();
}

std::vector<std::string> TimelineView::expandedNodes() const
{
    std::vector<std::string> out;
    const auto& lanes = m_geo.lanes();
    for (const std::uint32_t lane : m_geo.laneOrder())
        if (lane < lanes.size() && lanes[lane].kind == LaneKind::Node && m_geo.isExpanded(lane))
            for (const auto& [node, index] : m_laneOfNode)
                if (index == lane) {
                    out.push_back(node);
                    break;
                }
    return out;
}

void TimelineView::setExpandedNodes(const std::vector<std::string>& nodes)
{
    const std::set<std::string> open(nodes.begin(), nodes.end());
    for (const auto& [node, lane] : m_laneOfNode)
        if (m_geo.lanes()[lane].kind == LaneKind::Node)
            m_geo.setExpanded(lane, open.count(node) > 0);
    syncScrollBars();
    viewport()->update();
}

std::string TimelineView::topNode() const
{
    if (m_geo.scrollY() <= 0)
        return {};
    const auto& rows = m_geo.rows();
    for (std::size_t r = 0; r < rows.size(); ++r) {
        if (rows[r].pinned || rows[r].depth != 0 || rows[r].y + 0.5 < m_geo.pinnedHeight() + m_geo.scrollY())
            continue;
        for (const auto& [node, lane] : m_laneOfNode)
            if (lane == rows[r].lane)
                return node;
        return {};
    }
    return {};
}

void TimelineView::scrollToNode(const std::string& node)
{
    double y = 0;
    if (!node.empty())
        if (const std::int32_t lane = laneOfNodeName(node); lane >= 0)
            if (const std::int32_t row = m_geo.rowOfLane(static_cast<std::uint32_t>(lane)); row >= 0)
                y = m_geo.rows()[static_cast<std::size_t>(row)].y - m_geo.pinnedHeight();
    m_geo.setScrollY(y);
    syncScrollBars();
    viewport()->update();
}

void TimelineView::ensureEventVisible(int eventIndex)
{
    if (eventIndex < 0 || static_cast<std::size_t>(eventIndex) >= m_laneOfEvent.size()
        || m_laneOfEvent[static_cast<std::size_t>(eventIndex)] < 0)
        return;
    const std::int32_t row =
        m_geo.rowOfLane(static_cast<std::uint32_t>(m_laneOfEvent[static_cast<std::size_t>(eventIndex)]));
    if (row < 0)
        return;
    m_geo.ensureRowVisible(static_cast<std::size_t>(row));
    syncScrollBars();
    viewport()->update();
}

void TimelineView::animateRange(qint64 fromNs, qint64 toNs, int durationMs)
{
    if (m_rangeAnimation)
        m_rangeAnimation->stop();
    const qint64 startFrom = m_geo.rangeFrom();
    const qint64 startTo = m_geo.rangeTo();
    if (durationMs <= 0 || startTo <= startFrom || (startFrom == fromNs && startTo == toNs)) {
        setRange(fromNs, toNs);
        return;
    }
    if (!m_rangeAnimation) {
        m_rangeAnimation = new QVariantAnimation(this);
        m_rangeAnimation->setStartValue(0.0);
        m_rangeAnimation->setEndValue(1.0);
        m_rangeAnimation->setEasingCurve(QEasingCurve::InOutCubic);
        connect(m_rangeAnimation, &QVariantAnimation::finished, this, &TimelineView::rangeAnimationFinished);
    }
    disconnect(m_rangeAnimation, &QVariantAnimation::valueChanged, this, nullptr);
    m_rangeAnimation->setDuration(durationMs);
    // The window's centre moves linearly and its span geometrically, so a zoom from hours to seconds neither races
    // at the start nor crawls at the end.
    const double c0 = 0.5 * (static_cast<double>(startFrom) + static_cast<double>(startTo));
    const double c1 = 0.5 * (static_cast<double>(fromNs) + static_cast<double>(toNs));
    const double s0 = static_cast<double>(startTo - startFrom);
    const double s1 = std::max(1.0, static_cast<double>(toNs - fromNs));
    connect(m_rangeAnimation, &QVariantAnimation::valueChanged, this,
        [this, c0, c1, s0, s1, fromNs, toNs](const QVariant& value) {
            const double t = value.toDouble();
            if (t >= 1.0) {
                changeRange([&] { m_geo.setRange(fromNs, toNs); });
                return;
            }
            const double c = c0 + (c1 - c0) * t;
            const double span = s0 * std::pow(s1 / s0, t);
            changeRange([&] { m_geo.setRange(static_cast<qint64>(c - span / 2), static_cast<qint64>(c + span / 2)); });
        });
    m_rangeAnimation->start();
}

bool TimelineView::isAnimating() const
{
    return m_rangeAnimation && m_rangeAnimation->state() == QAbstractAnimation::Running;
}

void TimelineView::selectEvent(int eventIndex)
{
    if (m_indexing) {
        m_pendingSelect = eventIndex; // selected once the index lands
        return;
    }
    if (!m_result.verdict || eventIndex < 0 || static_cast<std::size_t>(eventIndex) >= m_laneOfEvent.size()) {
        m_selected = -1;
        if (m_focus == Focus::Event)
            m_focus = Focus::None;
        viewport()->update();
        return;
    }
    m_selected = eventIndex;
    m_focus = Focus::Event;
    const auto i = static_cast<std::size_t>(eventIndex);
    if (m_laneOfEvent[i] >= 0) {
        const qint64 t = shownTime(eventIndex);
        if (t < m_geo.rangeFrom() || t > m_geo.rangeTo()) {
            const qint64 half = m_geo.span() / 2;
            changeRange([&] { m_geo.setRange(t - half, t + half); });
        }
        const std::int32_t row = m_geo.rowOfLane(static_cast<std::uint32_t>(m_laneOfEvent[i]));
        if (row >= 0)
            m_geo.ensureRowVisible(static_cast<std::size_t>(row));
        syncScrollBars();
        setCursor(t);
    }
    viewport()->update();
}

void TimelineView::setCursor(qint64 ns)
{
    if (ns == m_cursor)
        return;
    m_cursor = ns;
    viewport()->update();
    Q_EMIT cursorMoved(ns);
}

void TimelineView::setRange(qint64 fromNs, qint64 toNs)
{
    if (m_rangeAnimation)
        m_rangeAnimation->stop();
    changeRange([&] { m_geo.setRange(fromNs, toNs); });
}

void TimelineView::fitToVerdict()
{
    changeRange([&] { m_geo.fit(m_fitFrom, m_fitTo, 0.04); });
}

void TimelineView::fitAll()
{
    changeRange([&] { m_geo.fitAll(); });
}

void TimelineView::clearMeasurement()
{
    m_measureA = m_measureB = INT64_MIN;
    viewport()->update();
}

void TimelineView::setMeasurePoint(qint64 ns)
{
    if (m_measureA == INT64_MIN || m_measureB != INT64_MIN) {
        m_measureA = ns;
        m_measureB = INT64_MIN;
    } else {
        m_measureB = ns;
    }
    viewport()->update();
}

// ---- Events ------------------------------------------------------------------------------------------------------

void TimelineView::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    relayout();
}

void TimelineView::changeEvent(QEvent* event)
{
    QAbstractScrollArea::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        relayout();
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
        m_sprites.clear(); // colours or sizes changed
        viewport()->update();
    }
}

void TimelineView::scrollContentsBy(int dx, int dy)
{
    if (m_syncingScrollBars)
        return;
    if (dy != 0) {
        m_geo.setScrollY(verticalScrollBar()->value());
        viewport()->update();
    }
    if (dx != 0) {
        const double bounds = static_cast<double>(m_geo.boundsTo() - m_geo.boundsFrom());
        const qint64 from = m_geo.boundsFrom()
            + static_cast<qint64>(
                std::llround(static_cast<double>(horizontalScrollBar()->value()) / kScrollUnits * bounds));
        const qint64 span = m_geo.span();
        changeRange([&] { m_geo.setRange(from, from + span); });
    }
}

void TimelineView::wheelEvent(QWheelEvent* event)
{
    if (m_rangeAnimation) // the user (or a new result) takes over from a move in progress
        m_rangeAnimation->stop();
    const QPointF pos = event->position();
    const QPoint d = event->angleDelta();
    event->accept();
    if (pos.x() < m_headerWidth) {
        QScrollBar* vb = verticalScrollBar();
        vb->setValue(vb->value() - static_cast<int>(d.y() / 120.0 * 3 * m_geo.metrics().nodeRowHeight));
        return;
    }
    if (event->modifiers().testFlag(Qt::ShiftModifier) || std::abs(d.x()) > std::abs(d.y())) {
        const int delta = d.x() != 0 ? d.x() : d.y();
        changeRange([&] { m_geo.panByPixels(-delta / 120.0 * m_geo.plotWidth() * 0.1); });
        return;
    }
    if (d.y() != 0)
        changeRange([&] { m_geo.zoomAt(std::pow(1.25, d.y() / 120.0), pos.x()); });
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
    if (m_rangeAnimation) // the user (or a new result) takes over from a move in progress
        m_rangeAnimation->stop();
    setFocus(Qt::MouseFocusReason);
    const QPointF pos = event->position();
    if (event->button() == Qt::MiddleButton) {
        m_drag = Drag::Pan;
        m_lastPanX = pos.x();
        return;
    }
    if (event->button() != Qt::LeftButton || !m_result.verdict)
        return;
    if (m_hasSkew && pos.x() < m_headerWidth && pos.y() < m_geo.plotTop()) {
        setClocksAligned(!m_clocksAligned); // the corner's clock chip
        return;
    }
    const TimelineHit hit = m_geo.hitTest(pos.x(), pos.y(), 5);
    if (hit.inHeader) {
        const auto& row = m_geo.rows()[static_cast<std::size_t>(hit.row)];
        // The ▸/▾ expands or collapses a node; anywhere on the header selects the lane.
        const double glyphRight = 6 + row.depth * kIndent * 1.5 + 16;
        if (row.expandable && pos.x() < glyphRight) {
            m_geo.toggleExpanded(row.lane);
            syncScrollBars();
        }
        m_selectedLane = static_cast<std::int32_t>(row.lane);
        m_focus = Focus::Lane;
        viewport()->update();
        if (const std::string node = selectedLaneNode(); !node.empty())
            Q_EMIT laneSelected(QString::fromStdString(node));
        return;
    }
    if (pos.x() < m_geo.plotLeft() || pos.y() < m_geo.plotTop() || pos.y() > m_geo.plotTop() + m_geo.plotHeight())
        return;
    if (event->modifiers().testFlag(Qt::ShiftModifier)) {
        // The measured range belongs to the lane of its first point, when that is a node's.
        std::string node;
        if (hit.lane >= 0) {
            const LaneSpec& spec = m_geo.lanes()[static_cast<std::size_t>(hit.lane)];
            const std::int32_t lane = spec.kind == LaneKind::SubLane ? spec.parent : hit.lane;
            for (const auto& [name, l] : m_laneOfNode)
                if (static_cast<std::int32_t>(l) == lane)
                    node = name;
        }
        if (m_measureA == INT64_MIN || m_measureB != INT64_MIN)
            m_pendingMeasureNode = node;
        setMeasurePoint(hit.kind == TimelineHit::Kind::Mark ? hit.timeNs : m_geo.mapXToTime(pos.x()));
        if (m_measureB != INT64_MIN) {
            m_measureNode = m_pendingMeasureNode;
            m_focus = Focus::Range;
        }
        return;
    }
    m_drag = Drag::Pending;
    m_pressPos = pos.toPoint();
    m_pressHit = hit;
    m_bandX = pos.x();
}

void TimelineView::mouseMoveEvent(QMouseEvent* event)
{
    const QPointF pos = event->position();
    switch (m_drag) {
    case Drag::Pan:
        changeRange([&] { m_geo.panByPixels(m_lastPanX - pos.x()); });
        m_lastPanX = pos.x();
        return;
    case Drag::Pending:
        if (std::abs(pos.x() - m_pressPos.x()) < 5)
            return;
        m_drag = Drag::RubberBand;
        [[fallthrough]];
    case Drag::RubberBand:
        m_bandX = std::clamp(pos.x(), m_geo.plotLeft(), m_geo.plotLeft() + m_geo.plotWidth());
        viewport()->update();
        return;
    case Drag::None:
        break;
    }
    const TimelineHit hit = m_geo.hitTest(pos.x(), pos.y(), 5);
    const bool pointable = hit.kind == TimelineHit::Kind::Mark
        || (hit.inHeader && hit.row >= 0 && m_geo.rows()[static_cast<std::size_t>(hit.row)].expandable);
    viewport()->setCursor(pointable ? Qt::PointingHandCursor : Qt::ArrowCursor);
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event)
{
    const Drag drag = m_drag;
    m_drag = Drag::None;
    if (drag == Drag::RubberBand) {
        const double a = std::min<double>(m_pressPos.x(), m_bandX);
        const double b = std::max<double>(m_pressPos.x(), m_bandX);
        if (b - a >= 4) {
            const qint64 from = m_geo.mapXToTime(a);
            const qint64 to = m_geo.mapXToTime(b);
            changeRange([&] { m_geo.setRange(from, to); });
        }
        viewport()->update();
        return;
    }
    if (drag != Drag::Pending || event->button() != Qt::LeftButton)
        return;
    if (m_pressHit.kind == TimelineHit::Kind::Mark) {
        m_selected = static_cast<int>(m_pressHit.eventIndex);
        m_focus = Focus::Event;
        viewport()->update();
        Q_EMIT eventSelected(m_selected);
        setCursor(m_pressHit.timeNs);
        return;
    }
    setCursor(m_geo.mapXToTime(event->position().x()));
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event)
{
    const QPointF pos = event->position();
    const TimelineHit hit = m_geo.hitTest(pos.x(), pos.y(), 5);
    if (event->button() == Qt::LeftButton && hit.inHeader && hit.row >= 0) {
        // A double click on a node's name expands or collapses it (its ▸/▾ did so on the first click already).
        const auto& row = m_geo.rows()[static_cast<std::size_t>(hit.row)];
        if (row.expandable && pos.x() >= 6 + row.depth * kIndent * 1.5 + 16) {
            m_geo.toggleExpanded(row.lane);
            syncScrollBars();
            viewport()->update();
        }
        return;
    }
    mousePressEvent(event);
}

void TimelineView::keyPressEvent(QKeyEvent* event)
{
    if (m_rangeAnimation) // the user (or a new result) takes over from a move in progress
        m_rangeAnimation->stop();
    const double centre = m_cursor != INT64_MIN && m_cursor >= m_geo.rangeFrom() && m_cursor <= m_geo.rangeTo()
        ? m_geo.mapTimeToX(m_cursor)
        : m_geo.plotLeft() + m_geo.plotWidth() / 2;
    const double panStep = m_geo.plotWidth() * (event->modifiers().testFlag(Qt::ShiftModifier) ? 0.5 : 0.1);
    const bool ctrl = event->modifiers().testFlag(Qt::ControlModifier);
    QScrollBar* vb = verticalScrollBar();
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
    case Qt::Key_W:
        changeRange([&] { m_geo.zoomAt(1.5, centre); });
        break;
    case Qt::Key_Minus:
    case Qt::Key_Underscore:
    case Qt::Key_S:
        changeRange([&] { m_geo.zoomAt(1 / 1.5, centre); });
        break;
    case Qt::Key_0:
        if (!ctrl)
            return QAbstractScrollArea::keyPressEvent(event);
        fitToVerdict();
        break;
    case Qt::Key_Home:
        fitAll();
        break;
    case Qt::Key_Left:
    case Qt::Key_A:
        changeRange([&] { m_geo.panByPixels(-panStep); });
        break;
    case Qt::Key_Right:
    case Qt::Key_D:
        changeRange([&] { m_geo.panByPixels(panStep); });
        break;
    case Qt::Key_Up:
        vb->setValue(vb->value() - vb->singleStep());
        break;
    case Qt::Key_Down:
        vb->setValue(vb->value() + vb->singleStep());
        break;
    case Qt::Key_PageUp:
        vb->setValue(vb->value() - vb->pageStep());
        break;
    case Qt::Key_PageDown:
        vb->setValue(vb->value() + vb->pageStep());
        break;
    case Qt::Key_K:
        if (!m_hasSkew)
            return QAbstractScrollArea::keyPressEvent(event);
        setClocksAligned(!m_clocksAligned);
        break;
    case Qt::Key_Escape:
        m_measureA = m_measureB = INT64_MIN;
        m_selected = -1;
        m_selectedLane = -1;
        m_focus = Focus::None;
        m_drag = Drag::None;
        viewport()->update();
        break;
    default:
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    event->accept();
}

bool TimelineView::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = shownText(tooltipAt(help->pos()));
        if (text.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), text, viewport());
        }
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

// ---- Tooltips ----------------------------------------------------------------------------------------------------

QString TimelineView::tooltipAt(const QPoint& pos) const
{
    if (!m_result.verdict)
        return {};
    if (const QString note = annotationTooltipAt(pos); !note.isEmpty())
        return note;
    const TimelineHit hit = m_geo.hitTest(pos.x(), pos.y(), 5);
    if (hit.kind == TimelineHit::Kind::None) {
        if (pos.y() < m_axisHeight && pos.x() >= m_geo.plotLeft())
            return tr("Time (UTC). Wheel: zoom · drag: zoom to a range · shift-click twice: measure");
        if (pos.y() < m_axisHeight && m_hasSkew)
            return m_clocksAligned
                ? tr("Node clocks are aligned by the verdict's skew estimates (⏱ on the lane). Click or press K to "
                     "draw the times as logged.")
                : tr("The verdict estimates clock skew between nodes. Click or press K to draw each node shifted by "
                     "its estimate, as the analysis compared them.");
        return {};
    }
    const LaneInfo& info = m_laneInfo[static_cast<std::size_t>(hit.lane)];
    if (hit.kind == TimelineHit::Kind::Mark)
        return eventTooltip(static_cast<std::size_t>(hit.eventIndex), hit.count);
    if (hit.inHeader)
        return QStringLiteral("<qt>%1</qt>").arg(info.tooltip.isEmpty() ? info.label.toHtmlEscaped() : info.tooltip);
    for (const auto& s : m_geo.lanes()[static_cast<std::size_t>(hit.lane)].spans)
        if (hit.timeNs >= s.fromNs && hit.timeNs <= s.toNs)
            return QStringLiteral("<qt>%1</qt>").arg(info.tooltip);
    return {};
}

QString TimelineView::eventTooltip(std::size_t i, std::uint32_t count) const
{
    const core::Verdict& v = *m_result.verdict;
    const core::Event& e = v.events[i];
    const MarkRole role = m_roleOfEvent[i];
    QString html = QStringLiteral("<qt><b>%1 %2</b> — %3")
                       .arg(roleGlyph(role), QString::fromLatin1(markRoleName(role)), qs(e.label).toHtmlEscaped());
    if (m_alternative[i] && role != MarkRole::Cause)
        html += tr(" <i>(a rejected cause candidate)</i>");
    html += QStringLiteral("<br>%1 (%2)").arg(qs(core::formatUtc(e.timeNs)), qs(core::timeQualityName(e.quality)));
    if (const qint64 shown = shownTime(static_cast<int>(i)); shown != e.timeNs)
        html += tr("<br>⏱ drawn at %1: its node's clock aligned by %2")
                    .arg(qs(core::formatUtc(shown)), formatSignedSpan(shown - e.timeNs));
    if (e.precisionNs >= 1'000'000)
        html += tr(", to %1").arg(formatSpan(e.precisionNs));
    QStringList where;
    if (e.node != core::kNoNode)
        where << qs(v.nodes.name(e.node));
    if (!e.gpu.empty())
        where << tr("GPU %1").arg(qs(e.gpu));
    if (e.rank >= 0)
        where << tr("rank %1").arg(e.rank);
    if (!where.isEmpty())
        html += QStringLiteral("<br>") + where.join(QStringLiteral(" · ")).toHtmlEscaped();
    html += tr("<br>rule <b>%1</b> · %2 · %3 · %4")
                .arg(qs(e.ruleId).toHtmlEscaped(), qs(e.type).toHtmlEscaped(), qs(e.severity).toHtmlEscaped(),
                    qs(core::domainPath(e.domain, e.subdomain)).toHtmlEscaped());
    if (i < v.causeOf.size() && v.causeOf[i] >= 0) {
        const auto c = static_cast<std::size_t>(v.causeOf[i]);
        html += tr("<br>%1 via %2 of “%3” (%4)")
                    .arg(qs(v.linkRelation[i]).toHtmlEscaped(), qs(v.linkVia[i]).toHtmlEscaped(),
                        qs(v.events[c].label).toHtmlEscaped(),
                        formatSpan(shownTime(static_cast<int>(i)) - shownTime(static_cast<int>(c))));
    }
    if (i + 1 < m_childBegin.size() && m_childBegin[i + 1] > m_childBegin[i])
        html += m_childBegin[i + 1] - m_childBegin[i] == 1
            ? tr("<br>explains 1 event")
            : tr("<br>explains %1 events").arg(m_childBegin[i + 1] - m_childBegin[i]);
    int shown = 0;
    for (const auto& [k, val] : e.fields) {
        if (shown++ == 24) {
            html += tr("<br>… and %1 more").arg(e.fields.size() - 24);
            break;
        }
        QString value = qs(val);
        if (value.size() > 120)
            value = value.left(117) + QStringLiteral("…");
        html += QStringLiteral("<br>&nbsp;&nbsp;%1 = %2").arg(qs(k).toHtmlEscaped(), value.toHtmlEscaped());
    }
    if (m_result.evidence && !e.provenance.empty()) {
        html +=
            tr("<br>source: %1").arg(qs(core::locationOf(e.provenance.front(), *m_result.evidence)).toHtmlEscaped());
        if (e.provenance.size() > 1)
            html += tr(" (and %1 more)").arg(e.provenance.size() - 1);
    }
    if (!e.excerpt.empty()) {
        QString raw = qs(e.excerpt);
        if (raw.size() > 400)
            raw = raw.left(397) + QStringLiteral("…");
        html += QStringLiteral("<br><tt>%1</tt>").arg(raw.toHtmlEscaped());
    }
    if (count > 1)
        html += count == 2
            ? tr("<br><i>1 more event in this pixel column: zoom in to separate them</i>")
            : tr("<br><i>%1 more events in this pixel column: zoom in to separate them</i>").arg(count - 1);
    return html + QStringLiteral("</qt>");
}

// ---- Painting ----------------------------------------------------------------------------------------------------

double TimelineView::markRadius() const
{
    return std::max(3.5, QFontMetricsF(font()).height() * 0.27);
}

void TimelineView::paintEvent(QPaintEvent*)
{
    QPainter p(viewport());
    const QPalette& pal = palette();
    p.fillRect(viewport()->rect(), pal.color(QPalette::Base));
    if (!m_result.verdict) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(viewport()->rect(), Qt::AlignCenter,
            m_indexing ? tr("Indexing %L1 events for the timeline…").arg(static_cast<qulonglong>(m_indexing))
                       : tr("No analysis loaded"));
        return;
    }
    if (m_noTimes) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        const std::size_t n = m_result.verdict->events.size();
        p.drawText(viewport()->rect().adjusted(16, 16, -16, -16), Qt::AlignCenter | Qt::TextWordWrap,
            n == 0 ? tr("No events in this analysis.")
                   : tr("No event of this analysis has a time, so there is nothing to place on a timeline.\n"
                        "The evidence trail lists the %n event(s) the verdict rests on, in the order of their "
                        "files; the search finds every other line.",
                       nullptr, static_cast<int>(m_result.verdict->trail.size())));
        return;
    }
    const QFontMetrics fm(font());
    const qint64 step = tickStepFor(m_geo, fm);
    std::vector<qint64> ticks;
    {
        qint64 t = floorDiv(m_geo.rangeFrom(), step) * step;
        if (t < m_geo.rangeFrom())
            t += step;
        for (; t <= m_geo.rangeTo() && ticks.size() < 2000; t += step)
            ticks.push_back(t);
    }
    m_geo.aggregate(m_buckets);
    p.setRenderHint(QPainter::Antialiasing, true);
    paintRows(p, false, ticks);
    paintRows(p, true, ticks);
    paintAnnotationBands(p);
    paintSearchTicks(p, false);
    paintSearchTicks(p, true);

    // Overlays across every row: the measurement, the cursor, the rubber band.
    const QRectF plot(m_geo.plotLeft(), m_geo.plotTop(), m_geo.plotWidth() + kRightPad, m_geo.plotHeight());
    const double plotBottom = std::min(m_geo.plotTop() + m_geo.contentHeight(), plot.bottom());
    p.save();
    p.setClipRect(plot);
    const bool dark = isDark(pal);
    if (m_measureA != INT64_MIN) {
        const double xa = m_geo.mapTimeToX(m_measureA);
        const double xb = m_measureB == INT64_MIN ? xa : m_geo.mapTimeToX(m_measureB);
        const QColor mc = measureColour(dark);
        if (m_measureB != INT64_MIN)
            p.fillRect(QRectF(std::min(xa, xb), plot.top(), std::abs(xb - xa), plotBottom - plot.top()),
                withAlpha(mc, dark ? 14 : 12));
        p.setPen(QPen(mc, 1.5));
        p.drawLine(QPointF(xa, plot.top()), QPointF(xa, plotBottom));
        if (m_measureB != INT64_MIN)
            p.drawLine(QPointF(xb, plot.top()), QPointF(xb, plotBottom));
    }
    if (m_cursor != INT64_MIN) {
        const double x = std::floor(m_geo.mapTimeToX(m_cursor)) + 0.5;
        p.setPen(QPen(pal.color(QPalette::Highlight), 1.2));
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plotBottom));
    }
    if (m_drag == Drag::RubberBand) {
        const QRectF band(std::min<double>(m_pressPos.x(), m_bandX), plot.top(), std::abs(m_bandX - m_pressPos.x()),
            plotBottom - plot.top());
        p.fillRect(band, withAlpha(pal.color(QPalette::Highlight), 45));
        p.setPen(QPen(pal.color(QPalette::Highlight), 1));
        p.drawRect(band);
    }
    p.restore();
    // Annotations' pins above everything in the plot, the cursor included.
    paintAnnotationPins(p);

    paintAxis(p, ticks, step);
    paintHeader(p);
    paintFooter(p);
}

void TimelineView::paintSearchTicks(QPainter& p, bool pinned)
{
    if (m_searchShown == 0)
        return;
    const double top = pinned ? m_geo.plotTop() : m_geo.plotTop() + m_geo.pinnedHeight();
    const double bottom = pinned ? m_geo.plotTop() + m_geo.pinnedHeight() : m_geo.plotTop() + m_geo.plotHeight();
    if (bottom <= top)
        return;
    p.save();
    p.setClipRect(QRectF(m_geo.plotLeft(), top, m_geo.plotWidth() + kRightPad, bottom - top));
    p.setRenderHint(QPainter::Antialiasing, false);
    const QColor colour = searchColour(isDark(palette()));
    const auto& rows = m_geo.rows();
    std::vector<QRectF> bars;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        if (rows[r].pinned != pinned || rows[r].depth != 0 || !m_geo.isRowVisible(r))
            continue;
        const double y = m_geo.rowTop(r) + 1;
        for (const int column : searchTickColumns(static_cast<int>(rows[r].lane)))
            bars.emplace_back(column, y, 2, 5);
    }
    p.setPen(Qt::NoPen);
    p.setBrush(colour);
    for (const QRectF& b : bars)
        p.drawRect(b);
    p.restore();
}

void TimelineView::paintRows(QPainter& p, bool pinned, const std::vector<qint64>& ticks)
{
    const QPalette& pal = palette();
    const bool dark = isDark(pal);
    const double top = pinned ? m_geo.plotTop() : m_geo.plotTop() + m_geo.pinnedHeight();
    const double bottom = pinned ? m_geo.plotTop() + m_geo.pinnedHeight() : m_geo.plotTop() + m_geo.plotHeight();
    if (bottom <= top)
        return;
    const double left = m_geo.plotLeft();
    const double right = left + m_geo.plotWidth() + kRightPad;
    p.save();
    p.setClipRect(QRectF(left, top, right - left, bottom - top));
    const auto& rows = m_geo.rows();
    const QColor base = pal.color(QPalette::Base);
    const QColor alt = pal.color(QPalette::AlternateBase);
    const QColor blamedTint = blend(base, domainColour(1, dark), dark ? 0.12 : 0.06);
    const QColor separator = withAlpha(pal.color(QPalette::Mid), 90);
    int parity = 0;
    double contentBottom = top;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        if (rows[r].depth == 0)
            ++parity;
        if (rows[r].pinned != pinned || !m_geo.isRowVisible(r))
            continue;
        const LaneSpec& spec = m_geo.lanes()[rows[r].lane];
        const LaneInfo& info = m_laneInfo[rows[r].lane];
        const QRectF rr(left, m_geo.rowTop(r), right - left, rows[r].height);
        QColor bg = pinned ? blend(base, pal.color(QPalette::Window), 0.5) : (parity % 2 ? base : alt);
        if (info.blamed && spec.kind != LaneKind::Gap)
            bg = blend(bg, blamedTint, 0.8);
        if (rows[r].depth > 0)
            bg = blend(bg, pal.color(QPalette::Window), 0.25);
        p.fillRect(rr, bg);
        p.setPen(QPen(separator, 1));
        p.drawLine(QPointF(left, rr.bottom() - 0.5), QPointF(right, rr.bottom() - 0.5));
        contentBottom = std::max(contentBottom, rr.bottom());
    }
    // Grid lines through the lanes at the axis ticks.
    p.setPen(QPen(withAlpha(pal.color(QPalette::Mid), 60), 1));
    for (qint64 t : ticks) {
        const double x = std::floor(m_geo.mapTimeToX(t)) + 0.5;
        p.drawLine(QPointF(x, top), QPointF(x, contentBottom));
    }
    for (std::size_t r = 0; r < rows.size(); ++r) {
        if (rows[r].pinned != pinned || !m_geo.isRowVisible(r))
            continue;
        if (!m_geo.lanes()[rows[r].lane].spans.empty()) {
            paintSpans(p, r);
        } else if (const QString& text = m_laneInfo[rows[r].lane].spanText; !text.isEmpty()) {
            // A row that states a fact without a time span (no evidence gaps: what was covered).
            p.setPen(pal.color(QPalette::PlaceholderText));
            p.drawText(QRectF(left + 6, m_geo.rowTop(r), m_geo.plotWidth() - 12, rows[r].height),
                Qt::AlignLeft | Qt::AlignVCenter,
                QFontMetrics(font()).elidedText(text, Qt::ElideRight, static_cast<int>(m_geo.plotWidth()) - 12));
        }
    }
    if (!pinned)
        paintLinks(p);
    // Marks: the buckets come ordered by row.
    const core::Verdict& v = *m_result.verdict;
    const std::int32_t causeRow = v.hasCause && v.cause < m_laneOfEvent.size() && m_laneOfEvent[v.cause] >= 0
        ? m_geo.rowOfLane(static_cast<std::uint32_t>(m_laneOfEvent[v.cause]))
        : -1;
    for (std::size_t b = 0; b < m_buckets.size();) {
        std::size_t e = b + 1;
        while (e < m_buckets.size() && m_buckets[e].row == m_buckets[b].row)
            ++e;
        if (rows[m_buckets[b].row].pinned == pinned)
            paintMarks(p, b, e);
        b = e;
    }
    // The selection ring, then the callouts: the cause always, the selected event when it is another.
    const double radius = markRadius();
    if (m_selected >= 0)
        if (auto pt = markPoint(static_cast<std::size_t>(m_selected)); pt) {
            const std::int32_t row =
                m_geo.rowOfLane(static_cast<std::uint32_t>(m_laneOfEvent[static_cast<std::size_t>(m_selected)]));
            if (row >= 0 && rows[static_cast<std::size_t>(row)].pinned == pinned) {
                const bool isCause = v.hasCause && static_cast<std::size_t>(m_selected) == v.cause;
                const double ring = radius * (isCause ? 2.9 : 1.9);
                p.setPen(QPen(pal.color(QPalette::Highlight), 2));
                p.setBrush(Qt::NoBrush);
                p.drawEllipse(*pt, ring, ring);
            }
        }
    if (causeRow >= 0 && rows[static_cast<std::size_t>(causeRow)].pinned == pinned)
        paintCallout(p, v.cause, true);
    if (m_selected >= 0 && (!v.hasCause || static_cast<std::size_t>(m_selected) != v.cause)) {
        const std::int32_t lane = m_laneOfEvent[static_cast<std::size_t>(m_selected)];
        const std::int32_t row = lane >= 0 ? m_geo.rowOfLane(static_cast<std::uint32_t>(lane)) : -1;
        if (row >= 0 && rows[static_cast<std::size_t>(row)].pinned == pinned)
            paintCallout(p, static_cast<std::size_t>(m_selected), false);
    }
    p.restore();
}

void TimelineView::paintSpans(QPainter& p, std::size_t row)
{
    const QPalette& pal = palette();
    const bool dark = isDark(pal);
    const TimelineRow& r = m_geo.rows()[row];
    const LaneSpec& spec = m_geo.lanes()[r.lane];
    const LaneInfo& info = m_laneInfo[r.lane];
    const double left = m_geo.plotLeft();
    const double right = left + m_geo.plotWidth();
    const double y = m_geo.rowTop(row) + 3;
    const double h = r.height - 6;
    const QFontMetrics fm(font());
    const QColor hl = pal.color(QPalette::Highlight);
    for (std::size_t k = 0; k < spec.spans.size(); ++k) {
        const TimeSpan& s = spec.spans[k];
        const double x1 = m_geo.mapTimeToX(s.fromNs);
        const double x2 = m_geo.mapTimeToX(s.toNs);
        if (x2 < left || x1 > right)
            continue;
        const QRectF bar(std::max(x1, left - 3), y, std::min(x2, right + 3) - std::max(x1, left - 3), h);
        switch (spec.kind) {
        case LaneKind::Job:
            p.setPen(QPen(withAlpha(hl, 150), 1));
            p.setBrush(withAlpha(hl, dark ? 70 : 40));
            p.drawRoundedRect(bar, 3, 3);
            break;
        case LaneKind::Step:
            p.setPen(QPen(withAlpha(hl, 170), 1));
            p.setBrush(withAlpha(hl, dark ? 100 : 70));
            p.drawRoundedRect(bar, 3, 3);
            break;
        case LaneKind::Window:
            p.setPen(QPen(withAlpha(pal.color(QPalette::Text), 160), 1, Qt::DashLine));
            p.setBrush(Qt::NoBrush);
            p.drawRect(bar);
            break;
        case LaneKind::Gap:
            p.setPen(QPen(withAlpha(pal.color(QPalette::Mid), 200), 1));
            p.setBrush(QBrush(withAlpha(pal.color(QPalette::Text), dark ? 90 : 70), Qt::BDiagPattern));
            p.drawRect(bar);
            break;
        case LaneKind::Node:
        case LaneKind::SubLane:
            break;
        }
        if (info.failed && x2 >= left && x2 <= right) {
            // The job ended in failure: a red end cap.
            p.setPen(QPen(domainColour(1, dark), 3));
            p.drawLine(QPointF(x2 - 1.5, y), QPointF(x2 - 1.5, y + h));
        }
        // The text, on the visible part of the first span (a gap row shows its reason once).
        if (k > 0 && spec.kind == LaneKind::Gap)
            continue;
        const bool cut = x1 < left;
        QString text = (cut ? QStringLiteral("◂ ") : QString()) + info.spanText;
        const QRectF textRect = bar.adjusted(6, 0, -6, 0);
        if (textRect.width() < 24)
            continue;
        text = fm.elidedText(text, Qt::ElideRight, static_cast<int>(textRect.width()));
        if (spec.kind == LaneKind::Gap) {
            // Readable over the hatching.
            const QRectF back(
                textRect.left() - 2, textRect.top() + 1, fm.horizontalAdvance(text) + 4, textRect.height() - 2);
            p.fillRect(back, withAlpha(pal.color(QPalette::Base), 215));
        }
        p.setPen(pal.color(QPalette::Text));
        p.drawText(textRect, Qt::AlignLeft | Qt::AlignVCenter, text);
    }
}

void TimelineView::paintMarks(QPainter& p, std::size_t firstBucket, std::size_t endBucket)
{
    const QPalette& pal = palette();
    const bool dark = isDark(pal);
    const std::size_t row = m_buckets[firstBucket].row;
    const double cy = m_geo.rowCenterY(row);
    const double r0 = markRadius();
    const auto firstColumn = static_cast<std::int32_t>(std::floor(m_geo.plotLeft()));
    const int columns = static_cast<int>(m_geo.plotWidth()) + kRightPad + 2;
    auto radiusOf = [&](const TimelineBucket& b) {
        double k = 1.0;
        switch (b.role) {
        case MarkRole::Cause:
            k = 1.9;
            break;
        case MarkRole::Precursor:
            k = 1.15;
            break;
        case MarkRole::Companion:
            k = 0.85;
            break;
        case MarkRole::Symptom:
            k = 1.0;
            break;
        case MarkRole::Teardown:
            k = 0.9;
            break;
        case MarkRole::Context:
            k = 0.8;
            break;
        }
        return r0 * k * (b.role == MarkRole::Cause ? 1.0 : severityScale(m_severityOf[b.topEvent]));
    };
    auto isShapeCandidate = [&](const TimelineBucket& b) {
        return b.role != MarkRole::Context || m_alternative[b.topEvent];
    };

    // Which buckets get a shape: the most important first, each only where no shape is yet (left to right within a
    // role). The others are drawn as one-pixel ticks, so a column never holds more than one primitive.
    // The row's buckets come ordered by column, so ordering by (role, column) is a stable counting sort by role.
    const std::size_t count = endBucket - firstBucket;
    std::size_t roleStart[kMarkRoleCount + 1] = {};
    for (std::size_t k = firstBucket; k < endBucket; ++k)
        ++roleStart[static_cast<std::size_t>(m_buckets[k].role) + 1];
    for (int r = 0; r < kMarkRoleCount; ++r)
        roleStart[r + 1] += roleStart[r];
    m_markOrder.resize(count);
    for (std::size_t k = firstBucket; k < endBucket; ++k)
        m_markOrder[roleStart[static_cast<std::size_t>(m_buckets[k].role)]++] = static_cast<std::uint32_t>(k);
    m_markOccupied.assign(static_cast<std::size_t>(std::max(columns, 1)), 0);
    m_markShape.assign(count, 0);
    m_markRadius.resize(count);
    for (std::size_t k = firstBucket; k < endBucket; ++k)
        m_markRadius[k - firstBucket] = radiusOf(m_buckets[k]);
    std::vector<std::uint8_t>& occupied = m_markOccupied;
    std::vector<std::uint8_t>& shape = m_markShape;
    for (std::size_t k : m_markOrder) {
        const TimelineBucket& b = m_buckets[k];
        if (!isShapeCandidate(b))
            continue;
        const double rad = m_markRadius[k - firstBucket];
        const int c = b.column - firstColumn;
        const int reach = static_cast<int>(rad * 0.8);
        bool free = true;
        for (int x = std::max(0, c - reach); x <= std::min(columns - 1, c + reach) && free; ++x)
            free = occupied[static_cast<std::size_t>(x)] == 0;
        if (!free && b.role != MarkRole::Cause)
            continue;
        shape[k - firstBucket] = 1;
        const int full = static_cast<int>(std::ceil(rad)) + 1;
        for (int x = std::max(0, c - full); x <= std::min(columns - 1, c + full); ++x)
            occupied[static_cast<std::size_t>(x)] = 1;
    }

    // Colours per domain, computed once per row rather than per bucket.
    QColor domainCache[256];
    std::uint8_t domainKnown[256] = {};
    auto colourOf = [&](std::uint8_t d) -> const QColor& {
        if (!domainKnown[d]) {
            domainCache[d] = domainColour(d, dark);
            domainKnown[d] = 1;
        }
        return domainCache[d];
    };

    // Ticks first, so shapes cover them: one drawLines call per colour (domain, and context or not), unsmoothed,
    // since a vertical one-pixel line on a pixel centre needs no anti-aliasing.
    for (auto& group : m_tickLines)
        group.clear();
    for (std::size_t k = firstBucket; k < endBucket; ++k) {
        if (shape[k - firstBucket])
            continue;
        const TimelineBucket& b = m_buckets[k];
        const bool context = b.role == MarkRole::Context;
        const double h = context ? r0 * 1.3 : r0 * (b.count > 1 ? 2.2 : 1.8);
        const double x = b.column + 0.5;
        m_tickLines[static_cast<std::size_t>(b.domain) * 2 + (context ? 1 : 0)].emplace_back(
            x, cy - h / 2, x, cy + h / 2);
    }
    p.save();
    p.setRenderHint(QPainter::Antialiasing, false);
    for (std::size_t g = 0; g < m_tickLines.size(); ++g) {
        const auto& lines = m_tickLines[g];
        if (lines.empty())
            continue;
        const bool context = g % 2 == 1;
        p.setPen(QPen(withAlpha(colourOf(static_cast<std::uint8_t>(g / 2)), context ? 120 : 200), 1));
        p.drawLines(lines.data(), static_cast<int>(lines.size()));
    }
    p.restore();
    // Shapes: the cause drawn directly (there is one), every other mark blitted from a sprite rendered once per role,
    // colour and size, which costs a fraction of stroking an anti-aliased path per mark.
    const qreal dpr = viewport()->devicePixelRatioF();
    for (std::size_t k = firstBucket; k < endBucket; ++k) {
        if (!shape[k - firstBucket])
            continue;
        const TimelineBucket& b = m_buckets[k];
        const QColor& c = colourOf(b.domain);
        const double rad = m_markRadius[k - firstBucket];
        const QPointF at(b.column + 0.5, cy);
        if (b.role == MarkRole::Cause) {
            drawMarkShape(p, b.role, c, rad, at, pal);
            continue;
        }
        const std::uint64_t key = (static_cast<std::uint64_t>(b.role) << 56) | (std::uint64_t(b.domain) << 48)
            | (static_cast<std::uint64_t>(std::llround(rad * 64)) << 16) | static_cast<std::uint64_t>(dpr * 100);
        auto it = m_sprites.find(key);
        if (it == m_sprites.end()) {
            const int half = static_cast<int>(std::ceil(rad)) + 2;
            QPixmap sprite(QSize(2 * half + 1, 2 * half + 1) * dpr);
            sprite.setDevicePixelRatio(dpr);
            sprite.fill(Qt::transparent);
            QPainter sp(&sprite);
            sp.setRenderHint(QPainter::Antialiasing, true);
            drawMarkShape(sp, b.role, c, rad, QPointF(half + 0.5, half + 0.5), pal);
            sp.end();
            it = m_sprites.emplace(key, std::move(sprite)).first;
        }
        const double half = (it->second.width() / dpr - 1) / 2;
        p.drawPixmap(QPointF(b.column - half, std::round(cy - 0.5 - half)), it->second);
    }
}

void TimelineView::drawMarkShape(
    QPainter& p, MarkRole role, const QColor& c, double rad, const QPointF& at, const QPalette& pal) const
{
    const bool dark = isDark(pal);
    switch (role) {
    case MarkRole::Cause: {
        p.setPen(Qt::NoPen);
        p.setBrush(withAlpha(c, 55));
        p.drawEllipse(at, rad * 1.5, rad * 1.5);
        const QPointF diamond[] = { { at.x(), at.y() - rad }, { at.x() + rad, at.y() }, { at.x(), at.y() + rad },
            { at.x() - rad, at.y() } };
        p.setPen(QPen(pal.color(QPalette::Text), 1.4));
        p.setBrush(c);
        p.drawPolygon(diamond, 4);
        break;
    }
    case MarkRole::Precursor: {
        const QPointF tri[] = { { at.x(), at.y() - rad }, { at.x() + rad, at.y() + rad * 0.75 },
            { at.x() - rad, at.y() + rad * 0.75 } };
        p.setPen(QPen(c.darker(dark ? 100 : 130), 1));
        p.setBrush(c);
        p.drawPolygon(tri, 3);
        break;
    }
    case MarkRole::Companion:
        p.setPen(QPen(c.darker(dark ? 100 : 130), 1));
        p.setBrush(c);
        p.drawEllipse(at, rad, rad);
        break;
    case MarkRole::Symptom:
        p.setPen(QPen(c, 1.6));
        p.setBrush(pal.color(QPalette::Base));
        p.drawEllipse(at, rad - 0.5, rad - 0.5);
        break;
    case MarkRole::Teardown: {
        const double a = rad * 0.8;
        p.setPen(QPen(c, 1.8));
        const QLineF cross[] = { { at.x() - a, at.y() - a, at.x() + a, at.y() + a },
            { at.x() - a, at.y() + a, at.x() + a, at.y() - a } };
        p.drawLines(cross, 2);
        break;
    }
    case MarkRole::Context: {
        // A root candidate the verdict rejected: a hollow diamond.
        const QPointF diamond[] = { { at.x(), at.y() - rad }, { at.x() + rad, at.y() }, { at.x(), at.y() + rad },
            { at.x() - rad, at.y() } };
        p.setPen(QPen(c, 1.2));
        p.setBrush(Qt::NoBrush);
        p.drawPolygon(diamond, 4);
        break;
    }
    }
}

void TimelineView::paintLinks(QPainter& p)
{
    if (m_selected < 0 || !m_result.verdict)
        return;
    const core::Verdict& v = *m_result.verdict;
    const auto sel = static_cast<std::size_t>(m_selected);
    // The chain up to the root cause, and everything the selection explains (bounded: a cause with millions of
    // symptoms collapses to at most one link per target pixel anyway).
    // The edges depend on the selection only: they are gathered once per selection, not once per frame.
    if (m_linkEdgesFor != m_selected) {
        m_linkEdges.clear();
        for (std::size_t k = sel, guard = 0; k < v.causeOf.size() && v.causeOf[k] >= 0 && guard < 256; ++guard) {
            const auto c = static_cast<std::size_t>(v.causeOf[k]);
            m_linkEdges.emplace_back(c, k);
            k = c;
        }
        std::vector<std::size_t> queue { sel };
        for (std::size_t q = 0; q < queue.size() && m_linkEdges.size() < 200'000; ++q)
            for (std::uint32_t k = m_childBegin[queue[q]]; k < m_childBegin[queue[q] + 1]; ++k) {
                m_linkEdges.emplace_back(queue[q], m_children[k]);
                queue.push_back(m_children[k]);
            }
        m_linkEdgesFor = m_selected;
    }
    const auto& edges = m_linkEdges;
    const double top = 0;
    const double bottom = viewport()->height();
    struct Link
    {
        QPointF a;
        QPointF b;
        bool crossNode = false;
        std::uint8_t domain = 0;
        double targetRadius = 0;
        bool offscreen = false;
    };
    // One link per (source row, target row): to the earliest target of that row in view, or to the plot's edge when
    // every target lies outside it. The row's other targets follow from it (as in the target picture: one arrow per
    // lane), and a lane full of symptoms stays readable instead of disappearing under a bundle of curves.
    std::map<std::pair<qint64, qint64>, Link> best;
    const double left = m_geo.plotLeft();
    const double right = left + m_geo.plotWidth();
    for (const auto& [from, to] : edges) {
        const auto a = markPoint(from);
        const auto b = markPoint(to);
        if (!a || !b)
            continue;
        // A precursor comes before what it announces: its link runs forward in time, to the cause.
        const bool backwards = to < v.linkRelation.size() && v.linkRelation[to] == "precursor";
        QPointF src = backwards ? *b : *a;
        QPointF dst = backwards ? *a : *b;
        if ((src.x() < left && dst.x() < left) || (src.x() > right && dst.x() > right))
            continue;
        // Neither end on screen (rows scrolled out of view): nothing of the link would show.
        if ((src.y() < top && dst.y() < top) || (src.y() > bottom && dst.y() > bottom))
            continue;
        if (std::abs(src.x() - dst.x()) < 1 && std::abs(src.y() - dst.y()) < 1)
            continue;
        const bool off = dst.x() < left || dst.x() > right;
        src.setX(std::clamp(src.x(), left, right + kRightPad - 2));
        dst.setX(std::clamp(dst.x(), left + 2, right + kRightPad - 2));
        const std::size_t target = backwards ? from : to;
        Link l;
        l.a = src;
        l.b = dst;
        l.crossNode = v.events[from].node != v.events[to].node;
        l.domain = domainId(v.events[from].domain);
        l.targetRadius = off ? 0 : markRadius() * (m_roleOfEvent[target] == MarkRole::Cause ? 1.9 : 1.0);
        l.offscreen = off;
        auto [it, added] = best.try_emplace({ std::llround(src.y()), std::llround(dst.y()) }, l);
        if (!added && ((it->second.offscreen && !off) || (it->second.offscreen == off && dst.x() < it->second.b.x())))
            it->second = l;
    }
    const bool dark = isDark(palette());
    const double rowH = m_geo.metrics().subRowHeight;
    for (const auto& [key, l] : best) {
        QPainterPath path(l.a);
        QPointF tangentFrom;
        if (std::abs(l.a.y() - l.b.y()) < 1) {
            const QPointF ctrl((l.a.x() + l.b.x()) / 2, l.a.y() - rowH * 0.9);
            path.quadTo(ctrl, l.b);
            tangentFrom = ctrl;
        } else {
            const double dx = std::clamp(std::abs(l.b.x() - l.a.x()) * 0.5, 10.0, 140.0);
            const QPointF c1(l.a.x() + dx, l.a.y());
            const QPointF c2(l.b.x() - dx, l.b.y());
            path.cubicTo(c1, c2, l.b);
            tangentFrom = c2;
        }
        const QColor c = withAlpha(domainColour(l.domain, dark), l.crossNode ? 140 : 185);
        QPen pen(c, 1.3);
        if (l.crossNode)
            pen.setDashPattern({ 5, 3 });
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        // An arrow head along the final tangent.
        const QLineF dir(tangentFrom, l.b);
        if (dir.length() > 0.5) {
            const QLineF unit = dir.unitVector();
            const QPointF u(unit.dx(), unit.dy());
            const QPointF n(-u.y(), u.x());
            const QPointF tip = l.b - u * (l.targetRadius + 1.5);
            const QPointF head[] = { tip, tip - u * 6 + n * 3.5, tip - u * 6 - n * 3.5 };
            p.setPen(Qt::NoPen);
            p.setBrush(c);
            p.drawPolygon(head, 3);
        }
    }
}

void TimelineView::paintCallout(QPainter& p, std::size_t eventIndex, bool bold)
{
    const auto pt = markPoint(eventIndex);
    if (!pt || pt->x() < m_geo.plotLeft() || pt->x() > m_geo.plotLeft() + m_geo.plotWidth())
        return;
    const QPalette& pal = palette();
    QFont f = font();
    f.setBold(bold);
    const QFontMetrics fm(f);
    const QString text = fm.elidedText(shownText(qs(m_result.verdict->events[eventIndex].label)), Qt::ElideRight, 240);
    const double w = fm.horizontalAdvance(text) + 10;
    const double h = fm.height() + 2;
    const double gap = markRadius() * 2.2;
    // The side of the mark with fewer marks under the label (ties: right, where the symptoms follow).
    const std::int32_t row = m_geo.rowAt(pt->y());
    int leftMarks = 0;
    int rightMarks = 0;
    for (const auto& b : m_buckets)
        if (static_cast<std::int32_t>(b.row) == row) {
            const double x = b.column + 0.5;
            leftMarks += x < pt->x() - gap / 2 && x > pt->x() - gap - w ? 1 : 0;
            rightMarks += x > pt->x() + gap / 2 && x < pt->x() + gap + w ? 1 : 0;
        }
    double x0 = pt->x() + gap;
    const bool roomLeft = pt->x() - gap - w >= m_geo.plotLeft();
    const bool roomRight = x0 + w <= m_geo.plotLeft() + m_geo.plotWidth() + kRightPad;
    if ((!roomRight && roomLeft) || (roomLeft && leftMarks < rightMarks))
        x0 = pt->x() - gap - w;
    const QRectF box(x0, pt->y() - h / 2, w, h);
    p.setPen(QPen(withAlpha(pal.color(QPalette::Mid), 200), 1));
    p.setBrush(withAlpha(pal.color(QPalette::Base), 230));
    p.drawRoundedRect(box, 3, 3);
    p.setFont(f);
    p.setPen(pal.color(QPalette::Text));
    p.drawText(box.adjusted(5, 0, -5, 0), Qt::AlignLeft | Qt::AlignVCenter, text);
    p.setFont(font());
}

void TimelineView::paintAxis(QPainter& p, const std::vector<qint64>& ticks, std::int64_t step)
{
    const QPalette& pal = palette();
    const QFontMetrics fm(font());
    const double fullWidth = viewport()->width();
    const QRectF band(0, 0, fullWidth, m_axisHeight);
    p.fillRect(band, pal.color(QPalette::Window));
    p.setPen(QPen(pal.color(QPalette::Mid), 1));
    p.drawLine(QPointF(0, band.bottom() - 0.5), QPointF(fullWidth, band.bottom() - 0.5));
    const double left = m_geo.plotLeft();
    const double right = left + m_geo.plotWidth();
    const double line1 = 4;
    const double line2 = 6 + fm.height();
    // Corner: the date (the ticks carry only the time of day) and what the column below is. Up here the date never
    // collides with the cursor's time.
    const QString fromDate = utcDate(m_geo.rangeFrom());
    const QString toDate = utcDate(m_geo.rangeTo());
    p.setPen(pal.color(QPalette::WindowText));
    p.drawText(QRectF(8, line1, m_headerWidth - 16, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
        toDate == fromDate ? tr("%1 UTC").arg(fromDate) : tr("%1 → %2 UTC").arg(fromDate, toDate.mid(5)));
    if (m_hasSkew) {
        // A chip that toggles clock alignment: filled when on.
        const QString text = m_clocksAligned ? tr("⏱ clocks aligned") : tr("⏱ clocks as logged");
        const QRectF chip(6, line2 - 1, fm.horizontalAdvance(text) + 12, fm.height() + 2);
        p.setPen(QPen(pal.color(QPalette::Highlight), 1));
        p.setBrush(m_clocksAligned ? pal.color(QPalette::Highlight) : Qt::NoBrush);
        p.drawRoundedRect(chip, 4, 4);
        p.setPen(m_clocksAligned ? pal.color(QPalette::HighlightedText) : pal.color(QPalette::WindowText));
        p.drawText(chip, Qt::AlignCenter, text);
        p.setBrush(Qt::NoBrush);
    } else {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(QRectF(8, line2, m_headerWidth - 16, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
            m_result.verdict->events.size() == 1 ? tr("Lanes · 1 event")
                                                 : tr("Lanes · %1 events").arg(m_result.verdict->events.size()));
    }
    // Ticks and their labels; a label that would collide with the previous one is left out.
    p.setPen(pal.color(QPalette::WindowText));
    double lastRight = -1e9;
    for (qint64 t : ticks) {
        const double x = std::floor(m_geo.mapTimeToX(t)) + 0.5;
        p.drawLine(QPointF(x, band.bottom() - 5), QPointF(x, band.bottom()));
        const QString label = tickLabel(t, step);
        const double w = fm.horizontalAdvance(label);
        const double lx = std::clamp(x - w / 2, left, right + kRightPad - w);
        if (lx < lastRight + 8)
            continue;
        p.drawText(QRectF(lx, line2, w + 1, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, label);
        lastRight = lx + w;
    }
    // The cursor's time, on top.
    if (m_cursor != INT64_MIN && m_cursor >= m_geo.rangeFrom() && m_cursor <= m_geo.rangeTo()) {
        const QString label = utcClock(m_cursor, digitsFor(m_geo.nsPerPixel()));
        const double w = fm.horizontalAdvance(label) + 10;
        const double x = std::floor(m_geo.mapTimeToX(m_cursor)) + 0.5;
        const QRectF bubble(std::clamp(x - w / 2, left, right + kRightPad - w), line1, w, fm.height());
        p.setPen(Qt::NoPen);
        p.setBrush(pal.color(QPalette::Highlight));
        p.drawRoundedRect(bubble, 3, 3);
        p.setPen(pal.color(QPalette::HighlightedText));
        p.drawText(bubble, Qt::AlignCenter, label);
    }
}

void TimelineView::paintHeader(QPainter& p)
{
    const QPalette& pal = palette();
    const bool dark = isDark(pal);
    const QFontMetrics fm(font());
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics fmBold(bold);
    const double top = m_geo.plotTop();
    const double bottom = top + m_geo.plotHeight();
    p.save();
    p.fillRect(QRectF(0, top, m_headerWidth, bottom - top), pal.color(QPalette::Window));
    const auto& rows = m_geo.rows();
    const QColor muted = pal.color(QPalette::PlaceholderText);
    const QColor blamedTint = blend(pal.color(QPalette::Window), domainColour(1, dark), dark ? 0.16 : 0.09);
    for (int pass = 0; pass < 2; ++pass) {
        const bool pinned = pass == 1;
        const double clipTop = pinned ? top : top + m_geo.pinnedHeight();
        const double clipBottom = pinned ? top + m_geo.pinnedHeight() : bottom;
        if (clipBottom <= clipTop)
            continue;
        p.setClipRect(QRectF(0, clipTop, m_headerWidth, clipBottom - clipTop));
        for (std::size_t r = 0; r < rows.size(); ++r) {
            if (rows[r].pinned != pinned || !m_geo.isRowVisible(r))
                continue;
            const LaneSpec& spec = m_geo.lanes()[rows[r].lane];
            const LaneInfo& info = m_laneInfo[rows[r].lane];
            const QRectF rr(0, m_geo.rowTop(r), m_headerWidth, rows[r].height);
            if (info.blamed && spec.kind != LaneKind::Gap)
                p.fillRect(rr, blamedTint);
            if (static_cast<std::int32_t>(rows[r].lane) == m_selectedLane) {
                p.fillRect(rr, withAlpha(pal.color(QPalette::Highlight), 60));
                p.fillRect(QRectF(0, rr.top(), 3, rr.height()), pal.color(QPalette::Highlight));
            }
            p.setPen(QPen(withAlpha(pal.color(QPalette::Mid), 90), 1));
            p.drawLine(QPointF(0, rr.bottom() - 0.5), QPointF(m_headerWidth, rr.bottom() - 0.5));
            double x = 6 + rows[r].depth * kIndent * 1.5;
            const bool topLevel = spec.kind == LaneKind::Node || (spec.kind == LaneKind::SubLane && rows[r].depth == 0);
            if (rows[r].expandable) {
                p.setPen(pal.color(QPalette::WindowText));
                p.drawText(QRectF(x, rr.top(), 14, rr.height()), Qt::AlignCenter,
                    rows[r].expanded ? QStringLiteral("▾") : QStringLiteral("▸"));
            } else if (spec.kind == LaneKind::Gap) {
                p.setPen(muted);
                p.drawText(QRectF(x, rr.top(), 14, rr.height()), Qt::AlignCenter, QStringLiteral("░"));
            }
            x += 16;
            // Events on the lane (a collapsed node counts its sub-lanes), right-aligned.
            std::size_t events = m_geo.laneItemCount(rows[r].lane);
            if (!rows[r].expanded)
                for (std::uint32_t c : m_geo.subLanes(rows[r].lane))
                    events += m_geo.laneItemCount(c);
            const QString count = events ? QString::number(events) : QString();
            double countW = fm.horizontalAdvance(count);
            if (!count.isEmpty()) {
                p.setPen(muted);
                p.drawText(QRectF(m_headerWidth - 8 - countW, rr.top(), countW + 1, rr.height()),
                    Qt::AlignRight | Qt::AlignVCenter, count);
            }
            // A lane annotation: a ribbon left of the count (filled for a bookmark).
            const auto badge = std::find_if(m_annotations.begin(), m_annotations.end(), [&](const auto& a) {
                return a.shape == TimelineAnnotation::Shape::Lane
                    && laneOfNodeName(a.node) == static_cast<std::int32_t>(rows[r].lane);
            });
            if (badge != m_annotations.end() && spec.kind == LaneKind::Node) {
                const bool filled = std::any_of(m_annotations.begin(), m_annotations.end(), [&](const auto& a) {
                    return a.shape == TimelineAnnotation::Shape::Lane && a.bookmark && a.node == badge->node;
                });
                const double bx = m_headerWidth - 8 - countW - (count.isEmpty() ? 0 : 5) - 8;
                drawAnnotationRibbon(p, QPointF(bx, rr.center().y() - 5), filled, true, pal);
                countW += 13;
            }
            const QString flag = info.blamed && topLevel ? QStringLiteral(" ⚑") : QString();
            const QFontMetrics& lfm = topLevel ? fmBold : fm;
            const double room = m_headerWidth - 8 - countW - 6 - x - lfm.horizontalAdvance(flag);
            const QString label = lfm.elidedText(info.label, Qt::ElideRight, static_cast<int>(std::max(10.0, room)));
            p.setFont(topLevel ? bold : font());
            p.setPen(spec.kind == LaneKind::Gap || !info.inAllocation ? muted : pal.color(QPalette::WindowText));
            p.drawText(QRectF(x, rr.top(), room + 1, rr.height()), Qt::AlignLeft | Qt::AlignVCenter, label);
            if (!flag.isEmpty()) {
                p.setPen(domainColour(1, dark));
                p.drawText(
                    QRectF(x + lfm.horizontalAdvance(label), rr.top(), lfm.horizontalAdvance(flag) + 2, rr.height()),
                    Qt::AlignLeft | Qt::AlignVCenter, flag);
            }
            p.setFont(font());
        }
    }
    p.restore();
    p.setPen(QPen(pal.color(QPalette::Mid), 1));
    p.drawLine(QPointF(m_headerWidth - 0.5, 0), QPointF(m_headerWidth - 0.5, bottom));
    if (m_geo.pinnedHeight() > 0) {
        const double y = top + m_geo.pinnedHeight() - 0.5;
        p.drawLine(QPointF(0, y), QPointF(viewport()->width(), y));
    }
}

void TimelineView::paintFooter(QPainter& p)
{
    const QPalette& pal = palette();
    const QFontMetrics fm(font());
    const double fullWidth = viewport()->width();
    const double top = viewport()->height() - m_footerHeight;
    const QRectF band(0, top, fullWidth, m_footerHeight);
    p.fillRect(band, pal.color(QPalette::Window));
    p.setPen(QPen(pal.color(QPalette::Mid), 1));
    p.drawLine(QPointF(0, top + 0.5), QPointF(fullWidth, top + 0.5));
    const int digits = digitsFor(m_geo.nsPerPixel());
    const QString cursor = m_cursor == INT64_MIN
        ? tr("click: cursor · drag: zoom · shift-click twice: measure")
        : tr("cursor %1 %2").arg(utcDate(m_cursor), utcClock(m_cursor, digits));
    QString measure;
    if (m_measureA != INT64_MIN && m_measureB != INT64_MIN)
        measure =
            tr("Δ %1  (%2 → %3)")
                .arg(formatSpan(m_measureB - m_measureA), utcClock(m_measureA, digits), utcClock(m_measureB, digits));
    else if (m_measureA != INT64_MIN)
        measure = tr("Δ from %1: shift-click the second point").arg(utcClock(m_measureA, digits));
    const double perPx = m_geo.nsPerPixel();
    QString view = tr("view %1 → %2 (%3) · %4/px")
                       .arg(utcClock(m_geo.rangeFrom(), 0), utcClock(m_geo.rangeTo(), 0), formatSpan(m_geo.span()),
                           formatSpan(static_cast<qint64>(std::llround(perPx))));
    if (!m_searchMarks.empty()) {
        view += tr(" · %1 search hit(s) marked").arg(m_searchShown);
        if (m_searchShown < m_searchMarks.size())
            view += tr(" (%1 without a time or lane)").arg(m_searchMarks.size() - m_searchShown);
    }
    if (m_untimed)
        view += m_untimed == 1 ? tr(" · 1 event without a time not shown")
                               : tr(" · %1 events without a time not shown").arg(m_untimed);
    const QRectF text = band.adjusted(8, 0, -8, 0);
    p.setPen(pal.color(QPalette::WindowText));
    const double cw = fm.horizontalAdvance(cursor);
    p.drawText(text, Qt::AlignLeft | Qt::AlignVCenter, cursor);
    const double vw = fm.horizontalAdvance(view);
    p.setPen(pal.color(QPalette::PlaceholderText));
    p.drawText(text, Qt::AlignRight | Qt::AlignVCenter,
        fm.elidedText(view, Qt::ElideLeft, static_cast<int>(std::max(0.0, text.width() - cw - 24))));
    if (!measure.isEmpty()) {
        const double mw = fm.horizontalAdvance(measure);
        const double room = text.width() - cw - vw - 48;
        if (room >= mw) {
            p.setPen(measureColour(isDark(pal)));
            p.drawText(
                QRectF(text.left() + cw + 24, top, room, m_footerHeight), Qt::AlignHCenter | Qt::AlignVCenter, measure);
        }
    }
}

} // namespace faultline::views
