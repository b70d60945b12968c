// SPDX-License-Identifier: Apache-2.0
// faultline-search-bench BUNDLE [--runs N] [--threads N] [--no-prefilter]: the evidence search
// (usecases::searchEvidence) over a bundle held in memory, each search timed with 1 thread and with N (default: every
// core) side by side, best of --runs (default 3). Run by run_search_bench.sh; never by ctest. Prints a Markdown table
// and checks that both thread counts give the same hits. --no-prefilter times RE2's whole-chunk scan alone.
#include "app/usecases/search.h"
#include "importers/bundle_loader.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace faultline;
using Clock = std::chrono::steady_clock;

namespace {

struct Case
{
    const char* name = "";
    std::string pattern;
    bool ignoreCase = false;
    bool literal = false;
    std::size_t maxHits = 0;
    std::vector<std::string> nodes;
    std::int64_t fromNs = INT64_MIN;
    std::int64_t toNs = INT64_MAX;
};

double seconds(Clock::duration d)
{
    return std::chrono::duration<double>(d).count();
}

/// A fingerprint of the hits (file, line, match), to check that the thread counts agree.
std::uint64_t fingerprint(const std::vector<usecases::SearchHit>& hits)
{
    std::uint64_t h = 1469598103934665603ULL;
    auto mix = [&h](std::uint64_t v) { h = (h ^ v) * 1099511628211ULL; };
    for (const auto& hit : hits) {
        mix(hit.file);
        mix(hit.line);
        mix(hit.byteOffset);
        mix(hit.matchStart);
        mix(hit.matchLength);
    }
    return h;
}

} // namespace

int main(int argc, char** argv)
{
    std::string bundle;
    int runs = 3;
    unsigned many = std::max(2u, std::thread::hardware_concurrency());
    bool prefilter = true;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--no-prefilter"))
            prefilter = false;
        else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc)
            many = static_cast<unsigned>(std::max(2, std::atoi(argv[++i])));
        else
            bundle = argv[i];
    }
    if (bundle.empty()) {
        std::fprintf(stderr, "usage: faultline-search-bench BUNDLE [--runs N] [--threads N] [--no-prefilter]\n");
        return 2;
    }
    const auto i0 = Clock::now();
    auto input = std::make_shared<core::BundleInput>(importers::collectBundle({ bundle }));
    auto evidence = std::make_shared<core::EvidenceSet>(importers::importBundle(*input));
    const double importS = seconds(Clock::now() - i0);
    std::uint64_t bytes = 0;
    for (const auto& f : input->files)
        bytes += f.bytes.size();
    const double mib = static_cast<double>(bytes) / (1024.0 * 1024.0);

    // The filtered search looks at the quarter hour from the generated incident (Xid 79 at 10:00:01Z).
    const std::int64_t fault = (1793606400LL + 7200 + 1) * 1000000000LL;
    std::vector<Case> cases;
    auto add = [&cases](const char* name, std::string pattern) -> Case& {
        Case c;
        c.name = name;
        c.pattern = std::move(pattern);
        return cases.emplace_back(std::move(c));
    };
    add("rare literal `Xid (PCI:`", "Xid (PCI:").literal = true;
    add("alternation `Xid \\(PCI|Watchdog caught`", R"(Xid \(PCI|Watchdog caught)");
    add("case-insensitive `nccl warn`", "nccl warn").ignoreCase = true;
    add("class and repeat `status=\\d+ opcode`", R"(status=\d+ opcode)");
    add("no hit `segfault at [0-9a-f]+`", "segfault at [0-9a-f]+");
    add("frequent `lm loss 2\\.9`, first 10000", R"(lm loss 2\.9)").maxHits = 10000;
    add("frequent `lm loss 2\\.9`, all hits", R"(lm loss 2\.9)");
    Case& filtered = add("`error|warn` (-i), node-03, 10:00-10:15", "error|warn");
    filtered.ignoreCase = true;
    filtered.nodes = { "node-03" };
    filtered.fromNs = fault - 1000000000LL;
    filtered.toNs = fault + 899 * 1000000000LL;

    std::printf("bundle: %s, %.1f MiB in %zu files, %zu records (collect + import %.2f s); best of %d; %u cores; "
                "literal prefilter %s\n\n",
        bundle.c_str(), mib, input->files.size(), evidence->observations.size(), importS, runs,
        std::thread::hardware_concurrency(), prefilter ? "on" : "off");
    std::printf("| search | hits | 1 thread s | %u threads s | MiB/s (1 / %u) | speed-up | same hits |\n", many, many);
    std::printf("|---|---|---|---|---|---|---|\n");
    int status = 0;
    std::uint64_t lines = 0;
    for (const Case& c : cases) {
        usecases::SearchRequest r;
        r.input = input;
        r.evidence = evidence;
        r.pattern = c.pattern;
        r.ignoreCase = c.ignoreCase;
        r.literal = c.literal;
        r.maxHits = c.maxHits;
        r.nodes = c.nodes;
        r.fromNs = c.fromNs;
        r.toNs = c.toNs;
        r.literalPrefilter = prefilter;
        double best[2] = { 1e9, 1e9 };
        std::uint64_t prints[2] = { 0, 0 };
        usecases::SearchCounts counts;
        for (int k = 0; k < 2; ++k) {
            r.threads = k == 0 ? 1 : many;
            for (int run = 0; run < runs; ++run) {
                const auto t0 = Clock::now();
                const auto res = usecases::searchEvidence(r);
                const double s = seconds(Clock::now() - t0);
                if (!res.ok()) {
                    std::fprintf(stderr, "%s\n", res.failure.text().c_str());
                    return 2;
                }
                best[k] = std::min(best[k], s);
                prints[k] = fingerprint(res.value->hits);
                counts = res.value->counts;
            }
        }
        lines = std::max(lines, counts.lines);
        const double searched = static_cast<double>(counts.bytes) / (1024.0 * 1024.0);
        const bool same = prints[0] == prints[1];
        if (!same)
            status = 1;
        std::printf("| %s | %llu%s | %.3f | %.3f | %.0f / %.0f | %.2f x | %s |\n", c.name,
            static_cast<unsigned long long>(counts.hits), counts.truncated ? " (truncated)" : "", best[0], best[1],
            searched / best[0], searched / best[1], best[0] / best[1], same ? "yes" : "NO");
    }
    std::printf("\n%.1f MiB, %llu lines searched per full search\n", mib, static_cast<unsigned long long>(lines));
    return status;
}
