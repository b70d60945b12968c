// SPDX-License-Identifier: Apache-2.0
// faultline-cli: the headless front end (analyze, rules test). No Qt: it links core and importers only.
#include "app/common/rules_location.h"
#include "core/analysis/analyzer.h"
#include "core/report/import_report.h"
#include "core/report/verdict_report.h"
#include "core/rules/rule_catalog.h"
#include "core/rules/rule_tester.h"
#include "core/rules/verdict_expectation.h"
#include "core/time/civil_time.h"
#include "core/version.h"
#include "importers/bundle_loader.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>

namespace fs = std::filesystem;
using namespace faultline;

namespace {

// Exit codes (documented in --help and README.md).
constexpr int kExitOk = 0;
constexpr int kExitTestsFailed = 1;
constexpr int kExitUsage = 2;
constexpr int kExitCatalog = 3;
constexpr int kExitNoEvidence = 4;

const char* kHelp = R"(usage: faultline-cli <command> [options]

commands:
  analyze BUNDLE... [--json] [--rules DIR] [--job ID] [--window FROM..TO] [--threads N] [--color] [--timings]
      Import the evidence bundle(s) (directories or files), run the rule catalog and print the verdict:
      readable text (default) or JSON (schema: resources/schema/verdict.schema.json).
      --window takes RFC 3339 times, e.g. 2026-11-02T10:00:00Z..2026-11-02T10:30:00Z.
  import-report BUNDLE... [--json] [--rules DIR] [--job ID] [--threads N] [--timings]
      List, for each file: its format and why it was chosen, host, zone, time range, counts, warnings and
      status; then the workload scope and the coverage per expected source kind.
  rules test [DIR] [--cases DIR]... [--verbose]
      Run every rule's own tests and every verdict case (DIR/cases/*/ and each --cases DIR/*/ holding an
      expected.yaml). DIR defaults to the bundled catalog.

options:
  --help       this text
  --version    print the version and exit

exit codes:
  0  success (a verdict was printed, whatever its outcome; or all rule tests passed)
  1  rule tests or verdict cases failed
  2  usage error
  3  the rule catalog has errors (printed as file:line:col diagnostics)
  4  the bundle holds no readable evidence
)";

int usage(const std::string& msg)
{
    std::cerr << "faultline-cli: " << msg << "\n(run 'faultline-cli --help' for usage)\n";
    return kExitUsage;
}

bool parseTime(const std::string& s, std::int64_t& out)
{
    core::CivilTime t;
    if (core::parseIsoTime(s, t) != s.size() || !t.hasOffset)
        return false;
    out = core::civilAsUtcNs(t) - static_cast<std::int64_t>(t.offsetSeconds) * core::kNsPerSec;
    return true;
}

std::shared_ptr<const core::RuleCatalog> loadCatalog(const std::string& dir)
{
    auto res = core::RuleCatalog::load(dir);
    if (!res.ok() || !res.diagnostics.empty())
        std::cerr << res.asText();
    if (!res.ok())
        std::cerr << "faultline-cli: rule catalog " << dir << " has errors\n";
    return res.catalog;
}

int analyzeCommand(const std::vector<std::string>& args, const char* argv0)
{
    std::vector<std::string> bundles;
    bool json = false;
    bool timings = false;
    bool color = isatty(1) && !std::getenv("NO_COLOR");
    std::string rules;
    importers::LoadOptions load;
    core::AnalysisOptions opts;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](const char* name) -> const std::string* {
            if (i + 1 >= args.size()) {
                usage(std::string(name) + " needs a value");
                return nullptr;
            }
            return &args[++i];
        };
        if (a == "--json")
            json = true;
        else if (a == "--timings")
            timings = true;
        else if (a == "--color")
            color = true;
        else if (a == "--no-color")
            color = false;
        else if (a == "--rules") {
            if (auto v = value("--rules"))
                rules = *v;
            else
                return kExitUsage;
        } else if (a == "--job") {
            if (auto v = value("--job"))
                load.jobId = *v;
            else
                return kExitUsage;
        } else if (a == "--threads") {
            auto v = value("--threads");
            if (!v)
                return kExitUsage;
            try {
                opts.threads = static_cast<unsigned>(std::stoul(*v));
                load.threads = opts.threads;
            } catch (const std::exception&) {
                return usage("--threads needs a number");
            }
        } else if (a == "--window") {
            auto v = value("--window");
            if (!v)
                return kExitUsage;
            const auto dots = v->find("..");
            if (dots == std::string::npos || !parseTime(v->substr(0, dots), opts.windowFromNs)
                || !parseTime(v->substr(dots + 2), opts.windowToNs) || opts.windowToNs <= opts.windowFromNs)
                return usage("--window must be FROM..TO with RFC 3339 times (with a zone), FROM before TO");
        } else if (!a.empty() && a[0] == '-')
            return usage("unknown option " + a);
        else
            bundles.push_back(a);
    }
    if (bundles.empty())
        return usage("analyze needs a BUNDLE (directory or file)");
    auto catalog = loadCatalog(rules.empty() ? app::defaultRulesDir(argv0) : rules);
    if (!catalog)
        return kExitCatalog;
    const auto t0 = std::chrono::steady_clock::now();
    core::EvidenceSet evidence = importers::loadBundle(bundles, load);
    const auto t1 = std::chrono::steady_clock::now();
    if (evidence.sources.empty()) {
        for (const auto& d : evidence.diagnostics)
            std::cerr << d.format() << '\n';
        std::cerr << "faultline-cli: no readable evidence in " << bundles.front() << '\n';
        return kExitNoEvidence;
    }
    const core::Verdict verdict = core::analyze(evidence, *catalog, opts);
    const auto t2 = std::chrono::steady_clock::now();
    if (timings) {
        auto ms = [](auto d) { return std::chrono::duration_cast<std::chrono::milliseconds>(d).count(); };
        std::cerr << "timings: import " << ms(t1 - t0) << " ms (" << evidence.observations.size()
                  << " records), analyze " << ms(t2 - t1) << " ms (" << verdict.events.size() << " events)\n";
    }
    if (json) {
        std::cout << core::verdictToJson(verdict, evidence);
    } else {
        core::TextOptions t;
        t.color = color;
        std::cout << core::verdictToText(verdict, evidence, t);
    }
    return kExitOk;
}

int importReportCommand(const std::vector<std::string>& args, const char* argv0)
{
    std::vector<std::string> bundles;
    bool json = false;
    bool timings = false;
    std::string rules;
    importers::LoadOptions load;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--json")
            json = true;
        else if (args[i] == "--timings")
            timings = true;
        else if (args[i] == "--threads" && i + 1 < args.size())
            load.threads = static_cast<unsigned>(std::strtoul(args[++i].c_str(), nullptr, 10));
        else if ((args[i] == "--rules" || args[i] == "--job") && i + 1 < args.size())
            (args[i] == "--rules" ? rules : load.jobId) = args[i + 1], ++i;
        else if (!args[i].empty() && args[i][0] == '-')
            return usage("unknown option " + args[i]);
        else
            bundles.push_back(args[i]);
    }
    if (bundles.empty())
        return usage("import-report needs a BUNDLE (directory, archive or file)");
    auto catalog = loadCatalog(rules.empty() ? app::defaultRulesDir(argv0) : rules);
    if (!catalog)
        return kExitCatalog;
    const auto t0 = std::chrono::steady_clock::now();
    const core::EvidenceSet evidence = importers::loadBundle(bundles, load);
    if (timings)
        std::cerr
            << "timings: import "
            << std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count()
            << " ms (" << evidence.observations.size() << " records)\n";
    const auto coverage = core::buildCoverage(evidence, catalog->settings());
    std::cout << (json ? core::importReportToJson(evidence, coverage) : core::importReportToText(evidence, coverage));
    return evidence.sources.empty() ? kExitNoEvidence : kExitOk;
}

int rulesTestCommand(const std::vector<std::string>& args, const char* argv0)
{
    std::string dir;
    std::vector<std::string> caseRoots;
    bool verbose = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--cases" && i + 1 < args.size())
            caseRoots.push_back(args[++i]);
        else if (args[i] == "--verbose" || args[i] == "-v")
            verbose = true;
        else if (!args[i].empty() && args[i][0] == '-')
            return usage("unknown option " + args[i]);
        else
            dir = args[i];
    }
    if (dir.empty())
        dir = app::defaultRulesDir(argv0);
    auto catalog = loadCatalog(dir);
    if (!catalog)
        return kExitCatalog;
    std::size_t passed = 0;
    std::size_t failed = 0;
    for (const auto& r : core::runRuleTests(*catalog)) {
        if (r.passed) {
            ++passed;
            if (verbose)
                std::cout << "PASS " << r.ruleId << " (" << r.origin.file << ":" << r.origin.line << ")\n";
        } else {
            ++failed;
            std::cout << dir << "/" << r.origin.file << ":" << r.origin.line << ":" << r.origin.column
                      << ": error: rule '" << r.ruleId << "' test failed: " << r.message << "\n";
        }
    }
    // Verdict cases.
    std::error_code ec;
    caseRoots.insert(caseRoots.begin(), (fs::path(dir) / "cases").string());
    for (const auto& root : caseRoots) {
        std::vector<fs::path> cases;
        for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
            if (fs::exists(it->path() / "expected.yaml"))
                cases.push_back(it->path());
        std::sort(cases.begin(), cases.end());
        for (const auto& c : cases) {
            std::vector<core::Diagnostic> diags;
            auto expectation = core::readExpectation((c / "expected.yaml").string(), diags);
            if (!expectation) {
                ++failed;
                for (const auto& d : diags)
                    std::cout << d.format() << '\n';
                continue;
            }
            const core::EvidenceSet ev = importers::loadBundle({ c.string() });
            const core::Verdict v = core::analyze(ev, *catalog);
            const auto problems = core::checkExpectation(*expectation, v);
            if (problems.empty()) {
                ++passed;
                if (verbose)
                    std::cout << "PASS case " << c.string() << " (" << v.outcome << ")\n";
            } else {
                ++failed;
                for (const auto& p : problems)
                    std::cout << (c / "expected.yaml").string() << ": error: case '" << c.filename().string()
                              << "': " << p << "\n";
            }
        }
    }
    std::cout << "rules test: catalog " << catalog->name() << " " << catalog->version() << " (" << catalog->ruleCount()
              << " rules)\n";
    std::cout << passed << " passed, " << failed << " failed\n";
    return failed == 0 ? kExitOk : kExitTestsFailed;
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty())
        return usage("no command given");
    if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::cout << kHelp;
        return kExitOk;
    }
    if (args[0] == "--version") {
        std::cout << "faultline-cli " << core::kVersion << "\n";
        return kExitOk;
    }
    try {
        if (args[0] == "analyze")
            return analyzeCommand({ args.begin() + 1, args.end() }, argv[0]);
        if (args[0] == "import-report")
            return importReportCommand({ args.begin() + 1, args.end() }, argv[0]);
        if (args[0] == "rules" && args.size() >= 2 && args[1] == "test")
            return rulesTestCommand({ args.begin() + 2, args.end() }, argv[0]);
    } catch (const std::exception& e) {
        std::cerr << "faultline-cli: internal error: " << e.what() << '\n';
        return 70;
    }
    return usage("unknown command '" + args[0] + "'");
}
