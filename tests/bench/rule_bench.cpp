// SPDX-License-Identifier: Apache-2.0
// Benchmark: a rule re-run on an imported case, as the workbench's rule editor does it. The bundle is imported and
// analysed once (usecases::analyseBundle); then, RUNS times each, for an edited bundled rule (gpu.xid with its
// priority changed, an override in a temporary user pack) and for a rule drafted from the incident's Xid line:
//   check: usecases::checkRule, the catalog the edit gives built from the in-memory text, and the rule's tests;
//   rerun: usecases::runEditedRule, the engine over the imported evidence with that catalog (extraction onward),
//          the rule's trace with its near misses, and the verdict diff against the shown verdict.
// Prints best, median and worst of each, and the line and record counts.
// usage: faultline-rule-bench BUNDLE [--runs N] [--threads N] [--rules DIR]
#include "app/usecases/rule_edit.h"
#include "app/usecases/use_cases.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

using namespace faultline;
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

struct Times
{
    std::vector<double> ms;
    void add(double v) { ms.push_back(v); }
    std::string text()
    {
        std::sort(ms.begin(), ms.end());
        char buf[96];
        std::snprintf(
            buf, sizeof buf, "best %7.1f  median %7.1f  worst %7.1f ms", ms.front(), ms[ms.size() / 2], ms.back());
        return buf;
    }
};

std::string replaced(std::string s, const std::string& from, const std::string& to)
{
    const auto at = s.find(from);
    if (at != std::string::npos)
        s.replace(at, from.size(), to);
    return s;
}

[[noreturn]] void die(const std::string& what)
{
    std::fprintf(stderr, "faultline-rule-bench: %s\n", what.c_str());
    std::exit(1);
}

/// Times one document: its check, then its re-run on the shown analysis.
void bench(const char* name, const usecases::Analysis& shown, const usecases::RuleCheckRequest& request,
    const std::string& ruleId, int runs, unsigned threads)
{
    Times check;
    Times rerun;
    Times engine;
    usecases::RuleRun last;
    for (int i = 0; i < runs; ++i) {
        auto t0 = Clock::now();
        const usecases::RuleCheck c = usecases::checkRule(request);
        check.add(msSince(t0));
        if (!c.catalog || c.testsFailed > 0) {
            std::string why;
            for (const auto& d : c.diagnostics)
                why += "\n  " + d.diagnostic.format();
            die(std::string(name) + ": the edited catalog has errors:" + why);
        }
        usecases::RuleRunRequest r;
        r.shown = shown;
        r.catalog = c.catalog;
        r.ruleId = ruleId;
        r.threads = threads;
        t0 = Clock::now();
        auto run = usecases::runEditedRule(r);
        rerun.add(msSince(t0));
        if (!run.ok())
            die(std::string(name) + ": " + run.failure.text());
        engine.add(static_cast<double>(run.value->analyseMs));
        last = std::move(*run.value);
    }
    std::printf("%s (%s)\n", name, ruleId.c_str());
    std::printf("  check (catalog from the edited text + the rule's tests): %s\n", check.text().c_str());
    std::printf("  rerun (engine + trace + verdict diff):                    %s\n", rerun.text().c_str());
    std::printf("    of which the engine with the trace:                     %s\n", engine.text().c_str());
    std::size_t matched = 0;
    std::size_t misses = 0;
    std::string literals;
    if (last.trace && !last.trace->rules.empty()) {
        matched = last.trace->rules.front().recordsMatched;
        for (const auto& [k, n] : last.trace->rules.front().missCounts)
            misses += n;
        for (const auto& l : last.trace->rules.front().literals)
            literals += (literals.empty() ? "'" : ", '") + l + "'";
    }
    std::printf("  the pattern's prefilter literals: %s\n", literals.empty() ? "none" : literals.c_str());
    std::printf("  the rule matched %zu record(s), %zu near miss(es); verdict %s (%zu change(s))\n", matched, misses,
        last.diff.same ? "unchanged" : "changed", last.diff.changes.size());
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2)
        die("usage: faultline-rule-bench BUNDLE [--runs N] [--threads N] [--rules DIR]");
    std::string bundle = argv[1];
    int runs = 5;
    unsigned threads = 0;
    std::string rules = FAULTLINE_SOURCE_RULES_DIR;
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--runs")
            runs = std::max(1, std::atoi(argv[i + 1]));
        else if (a == "--threads")
            threads = static_cast<unsigned>(std::atoi(argv[i + 1]));
        else if (a == "--rules")
            rules = argv[i + 1];
        else
            die("unknown option " + a);
    }
    usecases::BundleRequest b;
    b.paths = { bundle };
    b.rulesDir = rules;
    b.threads = threads;
    const auto t0 = Clock::now();
    auto analysed = usecases::analyseBundle(b);
    if (!analysed.ok())
        die(analysed.failure.text());
    const usecases::Analysis shown = std::move(analysed.value->analysis);
    std::uint64_t lines = 0;
    for (const auto& s : shown.evidence->sources)
        lines += s.lines;
    std::printf("bundle %s: %zu files, %llu lines, %zu records, %zu events\n", bundle.c_str(),
        shown.evidence->sources.size(), static_cast<unsigned long long>(lines), shown.evidence->observations.size(),
        shown.verdict->events.size());
    std::printf("import + first analysis, once: %.0f ms (import %lld ms, analysis %lld ms)\n", msSince(t0),
        static_cast<long long>(shown.importMs), static_cast<long long>(shown.analyseMs));

    const fs::path user = fs::temp_directory_path() / ("faultline-rule-bench-" + std::to_string(::getpid()));
    fs::create_directories(user);
    const core::CatalogSources sources { rules, {}, {} };

    // An edited bundled rule: gpu.xid, its priority changed (an override in the user's pack).
    const auto doc = usecases::openRuleForEdit(*shown.catalog, "gpu.xid", user.string());
    if (!doc.ok())
        die(doc.failure.text());
    const std::string edited = replaced(doc.value->text, "    priority: 50\n", "    priority: 51\n");
    if (edited == doc.value->text)
        die("gpu.xid has no 'priority: 50' line to edit");
    bench("edited bundled rule", shown, { sources, doc.value->target, edited }, "gpu.xid", runs, threads);

    // A rule drafted from the incident's first Xid record.
    std::optional<usecases::RecordAtLine> xid;
    for (const auto& o : shown.evidence->observations)
        if (o.text.find("NVRM: Xid") != std::string_view::npos) {
            xid = usecases::recordAt(*shown.evidence, shown.evidence->sources[o.where.source].path, o.where.line);
            break;
        }
    if (!xid)
        die("the bundle has no Xid line to draft a rule from");
    usecases::DraftHints hints;
    for (std::size_t i = 0; i < shown.evidence->nodes.size(); ++i)
        hints.hosts.push_back(shown.evidence->nodes.name(static_cast<core::NodeId>(i)));
    hints.where = xid->path + ":" + std::to_string(xid->line);
    hints.catalog = shown.catalog.get();
    const auto t1 = Clock::now();
    const usecases::RuleDraft draft = usecases::draftRuleFromLine(xid->text, xid->kind, hints);
    std::printf("draft from %s: %.2f ms\n", hints.where.c_str(), msSince(t1));
    bench("rule drafted from a line", shown, { sources, { user.string(), usecases::kLocalPack, {} }, draft.text },
        draft.id, runs, threads);
    std::error_code ec;
    fs::remove_all(user, ec);
    return 0;
}
