// SPDX-License-Identifier: Apache-2.0
// faultline-case-bench CASE [PATTERN]: the case file's read paths, timed in-process (run by run_bench.sh).
//   open   opening the case and reading the latest verdict (best and worst of 5)
//   line   fetching 2000 random lines by their index (median, p99, max)
//   grep   an RE2 search over all the stored evidence (MB/s)
#include "core/casefile/case_file.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>

using namespace faultline::core;
using Clock = std::chrono::steady_clock;

static double ms(Clock::duration d)
{
    return std::chrono::duration<double, std::milli>(d).count();
}

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: faultline-case-bench CASE [PATTERN]\n");
        return 2;
    }
    const std::string path = argv[1];
    const std::string pattern = argc > 2 ? argv[2] : "Xid 79|watchdog timeout";
    std::vector<Diagnostic> errors;
    double bestOpen = 1e9;
    double worstOpen = 0;
    for (int i = 0; i < 5; ++i) {
        const auto t0 = Clock::now();
        auto c = CaseFile::open(path, { true, true }, errors);
        if (!c) {
            std::fprintf(stderr, "%s\n", errors.front().format().c_str());
            return 5;
        }
        const auto runs = c->runs(errors);
        const auto text = c->verdictText(runs.back().id, errors);
        const double t = ms(Clock::now() - t0);
        if (!text || text->empty())
            return 5;
        bestOpen = std::min(bestOpen, t);
        worstOpen = std::max(worstOpen, t);
    }
    std::printf("open to verdict: best %.1f ms, worst %.1f ms (5 runs)\n", bestOpen, worstOpen);

    auto c = CaseFile::open(path, { true, true }, errors);
    const auto files = c->files(errors);
    std::vector<const StoredFile*> withLines;
    for (const auto& f : files)
        if (f.lines > 0)
            withLines.push_back(&f);
    std::mt19937_64 rng(7);
    std::vector<double> times;
    std::size_t bytes = 0;
    for (int i = 0; i < 2000; ++i) {
        const StoredFile& f = *withLines[rng() % withLines.size()];
        const std::uint64_t n = 1 + rng() % f.lines;
        const auto t0 = Clock::now();
        const auto line = c->line(f.id, n, errors, 4096);
        times.push_back(ms(Clock::now() - t0));
        if (!line) {
            std::fprintf(stderr, "%s\n", errors.back().format().c_str());
            return 5;
        }
        bytes += line->size();
    }
    // The first fetch of a process also pays one-time set-up (libcrypto's providers, the zstd context): shown apart.
    const double first = times.front();
    times.erase(times.begin());
    std::sort(times.begin(), times.end());
    std::printf("line by index: median %.3f ms, p99 %.3f ms, max %.3f ms; first fetch of the process %.3f ms "
                "(2000 random lines of %zu files)\n",
        times[times.size() / 2], times[times.size() * 99 / 100], times.back(), first, withLines.size());

    GrepQuery q;
    q.pattern = pattern;
    std::size_t matches = 0;
    const auto g0 = Clock::now();
    const auto stats = c->grep(
        q, [&](const GrepMatch&) { return ++matches, true; }, errors);
    const double gs = ms(Clock::now() - g0) / 1000;
    if (!stats) {
        std::fprintf(stderr, "%s\n", errors.back().format().c_str());
        return 5;
    }
    std::printf("grep '%s': %zu matches, %.0f MB in %.3f s = %.0f MB/s\n", pattern.c_str(), matches,
        static_cast<double>(stats->bytes) / 1e6, gs, static_cast<double>(stats->bytes) / 1e6 / gs);
    return 0;
}
