// SPDX-License-Identifier: Apache-2.0
// faultline-timeline-bench [EVENTS=1000000] [LANES=1000]: the timeline's frame time, offscreen, on a synthetic
// verdict of EVENTS events spread over LANES nodes (one cause, the rest symptoms and companions), while panning and
// zooming: setResult once (large results are indexed on a worker: the bench keeps the event loop turning and reports
// the longest stall of the UI thread meanwhile), then 60 pan steps and 60 zoom steps, each followed by a full
// repaint. Prints the set-up time and the median, p95 and worst frame in milliseconds.
#include "views/timeline/timeline_view.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QPixmap>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

using namespace faultline;

namespace {

std::shared_ptr<core::Verdict> syntheticVerdict(std::size_t events, std::size_t lanes)
{
    auto v = std::make_shared<core::Verdict>();
    v->outcome = "infrastructure_failure";
    v->domain = "infrastructure";
    std::vector<core::NodeId> nodes;
    for (std::size_t n = 0; n < lanes; ++n) {
        char name[32];
        std::snprintf(name, sizeof name, "node-%04zu", n);
        nodes.push_back(v->nodes.intern(name));
    }
    std::mt19937_64 rng(7);
    const std::int64_t t0 = 1793613600LL * 1000000000LL;
    const std::int64_t span = 3600LL * 1000000000LL;
    std::vector<std::int64_t> times(events);
    for (auto& t : times)
        t = t0 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(span));
    std::sort(times.begin(), times.end());
    v->events.resize(events);
    for (std::size_t i = 0; i < events; ++i) {
        auto& e = v->events[i];
        e.type = i % 3 == 0 ? "nccl.watchdog_timeout" : "pytorch.watchdog_exception";
        e.label = e.type;
        e.domain = i % 5 == 0 ? "infrastructure" : "workload";
        e.role = i % 4 == 0 ? core::Role::Companion : core::Role::Cascade;
        e.node = nodes[rng() % lanes];
        e.rank = static_cast<std::int32_t>(rng() % 8);
        e.timeNs = times[i];
        e.quality = core::TimeQuality::Exact;
    }
    v->hasCause = true;
    v->cause = events / 3;
    v->events[v->cause].role = core::Role::Root;
    v->causeOf.assign(events, static_cast<std::int64_t>(v->cause));
    v->causeOf[v->cause] = -1;
    v->blamedNodes = { v->nodes.name(v->events[v->cause].node) };
    for (std::size_t i = 0; i < events; ++i)
        v->trail.push_back({ i, i == v->cause ? "cause" : "symptom" });
    return v;
}

double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    return v[static_cast<std::size_t>(p * static_cast<double>(v.size() - 1))];
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const std::size_t events = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
    const std::size_t lanes = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1000;
    views::AnalysisResult result;
    result.verdict = syntheticVerdict(events, lanes);
    result.evidence = std::make_shared<core::EvidenceSet>();

    views::TimelineView view;
    view.resize(1280, 600);
    view.show();
    QElapsedTimer clock;
    clock.start();
    bool indexed = false;
    QObject::connect(&view, &views::TimelineView::indexed, [&] { indexed = true; });
    view.setResult(result);
    const double handedOver = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    // The UI thread stays free while a large result is indexed: count the longest gap between its events.
    double longestStall = 0;
    QElapsedTimer tick;
    tick.start();
    while (!indexed) {
        app.processEvents(QEventLoop::AllEvents, 5);
        longestStall = std::max(longestStall, static_cast<double>(tick.nsecsElapsed()) / 1e6);
        tick.restart();
    }
    view.grab();
    const double setup = static_cast<double>(clock.nsecsElapsed()) / 1e6;

    std::vector<double> frames;
    QPixmap target(view.size());
    auto frame = [&] {
        QElapsedTimer f;
        f.start();
        view.render(&target);
        frames.push_back(static_cast<double>(f.nsecsElapsed()) / 1e6);
    };
    view.fitAll();
    for (int i = 0; i < 60; ++i) { // pan by a tenth of the range each step
        const qint64 w = view.rangeTo() - view.rangeFrom();
        view.setRange(view.rangeFrom() + w / 10, view.rangeTo() + w / 10);
        frame();
    }
    view.fitAll();
    for (int i = 0; i < 60; ++i) { // zoom in about the middle, then back out
        const qint64 mid = (view.rangeFrom() + view.rangeTo()) / 2;
        const qint64 half = (view.rangeTo() - view.rangeFrom()) / 2;
        const qint64 next = i < 30 ? half * 8 / 10 : half * 10 / 8;
        view.setRange(mid - next, mid + next);
        frame();
    }
    std::printf("timeline: %zu events, %zu lanes: setResult returned in %.0f ms, longest UI-thread stall while "
                "indexing %.0f ms; set-up (index and first paint) %.0f ms; frame median %.2f ms, p95 %.2f ms, "
                "worst %.2f ms (goal <= 16 ms)\n",
        events, lanes, handedOver, longestStall, setup, percentile(frames, 0.5), percentile(frames, 0.95),
        percentile(frames, 1.0));
    return 0;
}
