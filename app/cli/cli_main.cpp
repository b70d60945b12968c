// SPDX-License-Identifier: Apache-2.0
// faultline-cli: the headless front end (analyze, rules test). No Qt: it links core and importers only.
#include "app/common/rules_location.h"
#include "app/usecases/case_history.h"
#include "app/usecases/explain.h"
#include "app/usecases/redact.h"
#include "app/usecases/regress.h"
#include "app/usecases/report.h"
#include "app/usecases/story.h"
#include "app/usecases/use_cases.h"
#include "core/analysis/analyzer.h"
#include "core/casefile/case_file.h"
#include "core/model/story.h"
#include "core/report/import_report.h"
#include "core/report/verdict_report.h"
#include "core/rules/rule_catalog.h"
#include "core/rules/rule_tester.h"
#include "core/rules/verdict_expectation.h"
#include "core/time/civil_time.h"
#include "core/util/json_writer.h"
#include "core/version.h"
#include "importers/bundle_loader.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>

namespace fs = std::filesystem;
using namespace faultline;

namespace {

// Exit codes (documented in --help and README.md), defined by the use-case layer.
constexpr int exitCode(usecases::Exit e)
{
    return static_cast<int>(e);
}
constexpr int kExitOk = exitCode(usecases::Exit::Ok);
constexpr int kExitTestsFailed = exitCode(usecases::Exit::TestsFailed);
constexpr int kExitUsage = exitCode(usecases::Exit::Usage);
constexpr int kExitCatalog = exitCode(usecases::Exit::Catalog);
constexpr int kExitNoEvidence = exitCode(usecases::Exit::NoEvidence);
constexpr int kExitCase = exitCode(usecases::Exit::Case);

const char* kHelp = R"(usage: faultline-cli <command> [options]

commands:
  analyze BUNDLE... [-o CASE] [--json] [--rules DIR]... [--catalog DIR] [--no-user-rules] [--job ID]
          [--window FROM..TO] [--threads N] [--color] [--timings]
      Import the evidence bundle(s) (directories or files), run the rule catalog and print the verdict:
      readable text (default) or JSON (schema: resources/schema/verdict.schema.json).
      --window takes RFC 3339 times, e.g. 2026-11-02T10:00:00Z..2026-11-02T10:30:00Z.
      -o CASE also saves a case file (*.faultline): the evidence, the import and this first run. An existing
      file is never overwritten.
  rerun CASE [--rules DIR]... [--catalog DIR] [--no-user-rules] [--json] [--threads N]
      Re-import the case's stored evidence, run the catalog again, add the run to the case's history and print
      its differences from the previous run (--json: the new verdict).
  show CASE [--run N] [--json] [--runs] [--diff A:B] [--import-report] [--annotations] [--line PATH:N]
          [--read-only]
      Print a run's stored verdict (default: the latest), the list of runs, the differences between runs A and
      B, the import report, the annotations and expectation, or one line of the stored evidence.
  grep CASE PATTERN [-i] [--from TIME] [--to TIME] [--node NODE] [--file TEXT] [--max N]
      Search the case's stored evidence with an RE2 pattern, line by line ("path:line: text"). --from/--to keep
      lines of records timed in that window, --node lines of that node, --file files whose path contains TEXT.
  annotate CASE (--note TEXT | --tag TAG | --bookmark TITLE | --narrative TEXT | --remove ID)
          [--event RUN:IDX | --line PATH:N | --symptom TYPE | --lane NODE | --range FROM..TO [--node NODE]]
          [--tags TAG,...] [--author NAME]
      Add an annotation to the case: on the whole case unless a target is named (an event of a run, a line of
      the stored evidence, a symptom by its type, a node's lane, a time range in RFC 3339 times, on one node or
      all). An event annotation keeps the event's rule and record, so it is found again in later runs (show
      --annotations says where, or why not). Nothing is overwritten: an annotation is removed by a new row that
      says so. --author defaults to $FAULTLINE_AUTHOR or $USER.
  expect CASE [--run N] [--note TEXT] [--author NAME]
      Mark a run's verdict (default: the latest) as the expected one; rerun then reports whether new runs meet it.
  story CASE [--revision N] [--json] [--history] | story CASE --propose [--author NAME]
      Print the case's story, the steps a postmortem walks through (default: its latest revision): each step's
      position, title, time window (UTC), selected event and text; --json as JSON (faultline.story/1).
      --history lists every revision (author, time, what it changed); every save is a new revision and earlier
      ones stay readable. --propose saves the story the latest run's verdict proposes (the precursors, the
      cause, the first symptom on each other node, the teardown) as a new revision; it re-analyses the stored
      evidence with the run's own rules. A new case starts with that story as revision 1.
  report CASE [--format md|html|pdf] [-o FILE] [--pictures] [--rules DIR] [--redact default|FILE]
      Write the case as a postmortem report (Markdown by default, one self-contained HTML file, or an A4
      PDF): the verdict, what the cause explains, coverage, the evidence trail with file:line and each file's
      SHA-256, the narrative and annotations, and the rule and engine versions. The evidence is re-analysed
      with the latest run's own rules (--rules: when the case lacks them); the report says whether that
      reproduces it. --redact replaces host names, addresses, users, uids, paths, tokens and e-mail addresses
      with the pseudonyms a redacted copy of the case gets (see redact). A PDF always has its picture, the
      timeline of the cause and its symptoms; --pictures adds it to Markdown (as FILE's NAME.assets/*.png)
      and HTML (inline). Pictures and PDFs are drawn by the workbench: faultline-cli runs `faultline
      --export-report` (found beside faultline-cli, else on PATH) on Qt's offscreen platform, and both need -o.
  redact CASE (-o COPY | --preview) [--profile default|FILE] [--json] [--rules DIR]
      Write a redacted copy of the case for sharing: host names (node-02 becomes host-b everywhere, its FQDN
      and hostlist forms too), IP addresses, user names and uids, home paths, tokens and e-mail addresses,
      and a profile file's own patterns, become consistent pseudonyms in the evidence and in every table. The
      original is only read; the copy records the profile and the original's evidence hashes, keeps every
      line number, and is re-analysed to check it still gives its stored verdict. --preview lists every
      replacement (category, original, pseudonym, count) and writes nothing. A profile file (YAML) adds
      patterns, hosts and users, turns categories off and keeps values (see the README). --rules DIR: the
      catalog for the check when the case does not hold its run's rules.
  explain CASE|BUNDLE... (--rule ID [--line PATH:N] | --line PATH:N) [--json] [--rules DIR]... [--catalog DIR]
          [--no-user-rules] [--job ID] [--threads N] [--max N]
      Explain a rule's work in the analysis: the records it matched (file:line), the events it made and what
      became of each (kept, dropped by a filter, outside the workload window, merged as a duplicate, replaced
      by a rule that supersedes it), a correlator's links with their windows, and near misses with the first
      clause that failed (source kind, the part of the pattern, preceded_by; the window, the node relation).
      --line explains one record, against every rule when --rule is not given. A case is read, never written,
      and explained with its latest run's own rules unless --rules or --catalog is given. --max N lists N near
      misses of each kind (default 100). --json: schema resources/schema/rule-trace.schema.json.
  verify CASE
      Check the whole case: SQLite's structure, every evidence chunk and every file against its SHA-256.
  import-report BUNDLE... [--json] [--rules DIR]... [--catalog DIR] [--no-user-rules] [--job ID] [--threads N]
          [--timings]
      List, for each file: its format and why it was chosen, host, zone, time range, counts, warnings and
      status; then the workload scope and the coverage per expected source kind.
  rules test [DIR] [--rules DIR]... [--no-user-rules] [--cases DIR]... [--verbose]
      Run every rule's own tests and every verdict case (DIR/cases/*/, each rule pack directory's cases/*/ and
      each --cases DIR/*/ holding an expected.yaml) over the catalog in DIR (default: the bundled one) with its
      rule pack layers, and report the diagnostics of every layer.
  rules regress --cases DIR [--rules DIR]... [--catalog DIR] [--no-user-rules] [--junit FILE] [--json]
          [--threads N]
      Re-analyse every saved case under DIR (*.faultline, recursively) with the catalog (default: the bundled
      one) and compare each verdict with the case's latest run and its expected verdict. Nothing is written to
      the cases. Lists every case that changed; exits 1 when an expected verdict breaks or a case cannot be read.
      --junit FILE also writes a JUnit XML report for CI; --json prints the result as JSON.

options:
  --help       this text
  --version    print the version and exit

rule catalogs:
  --catalog DIR
      Use the whole catalog in DIR (catalog.yaml, tables/, packs/) instead of the bundled one.
  --rules DIR
      Layer the rule packs in DIR (DIR/packs/*.yaml and DIR/tables/*.yaml, no catalog.yaml) on the catalog;
      repeatable, each on top of the ones before. A pack adds rules, replaces a rule of a lower layer by id
      (override: true) or removes one (disable: [ID, ...]); two layers defining one id otherwise is an error
      naming both places. A DIR holding catalog.yaml is a whole catalog and replaces the bundled one, as
      --catalog does. The catalog's hash covers every layer and each run records them.
  --no-user-rules
      Leave out the user's own rule packs, $XDG_CONFIG_HOME/faultline/rules (~/.config/faultline/rules by
      default), which are otherwise layered first whenever that directory exists.

exit codes:
  0  success (a verdict was printed, whatever its outcome; or all rule tests passed)
  1  rule tests or verdict cases failed; rules regress: an expected verdict broke or a case could not be read
  2  usage error
  3  the rule catalog has errors (printed as file:line:col diagnostics)
  4  the bundle holds no readable evidence
  5  the case file cannot be opened or written, or is damaged or altered (the message says which)
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

/// --catalog DIR, --rules DIR (repeatable) and --no-user-rules, which every command that runs the catalog takes.
/// Consumes args[i] (and its value) when it is one of them and returns true; `missing` is set when its value is.
bool rulesOption(const std::vector<std::string>& args, std::size_t& i, app::RulesChoice& choice, bool& missing)
{
    const std::string& a = args[i];
    if (a == "--no-user-rules") {
        choice.userRules = false;
        return true;
    }
    if (a != "--rules" && a != "--catalog")
        return false;
    if (i + 1 >= args.size() || args[i + 1].empty()) {
        missing = true; // an empty directory would be the current one, silently
        return true;
    }
    if (a == "--rules")
        choice.ruleDirs.push_back(args[++i]);
    else
        choice.catalogDir = args[++i];
    return true;
}

/// The catalog's sources for `choice`; nullopt after a usage error.
std::optional<core::CatalogSources> rulesSources(const app::RulesChoice& choice, const char* argv0)
{
    std::string error;
    auto sources = app::catalogSources(choice, argv0, error);
    if (!sources)
        usage(error);
    return sources;
}

/// Names the rule pack layers a catalog was built with and what each did (stderr; nothing for the bundled one alone).
void printLayers(const core::RuleCatalog& catalog)
{
    for (std::size_t i = 1; i < catalog.layers().size(); ++i) {
        const core::CatalogLayer& l = catalog.layers()[i];
        if (l.files == 0)
            continue;
        std::cerr << "rule packs: " << l.dir << " (" << l.files << " file(s): " << l.added << " added, " << l.overridden
                  << " overridden, " << l.disabled << " disabled)\n";
    }
}

std::shared_ptr<const core::RuleCatalog> loadCatalog(const core::CatalogSources& sources)
{
    auto res = core::RuleCatalog::load(sources);
    if (!res.ok() || !res.diagnostics.empty())
        std::cerr << res.asText();
    if (!res.ok())
        std::cerr << "faultline-cli: " << usecases::catalogErrorsMessage(sources) << "\n";
    else
        printLayers(*res.catalog);
    return res.catalog;
}

/// "nodes/node-02/dmesg.txt:70" → path and 1-based line number.
bool parseLineRef(const std::string& ref, std::string& path, std::uint64_t& line)
{
    const auto colon = ref.rfind(':');
    if (colon == std::string::npos || colon == 0)
        return false;
    path = ref.substr(0, colon);
    const std::string_view digits(ref.c_str() + colon + 1);
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), line);
    return ec == std::errc() && end == digits.data() + digits.size() && line > 0;
}

void printWarnings(const std::vector<core::Diagnostic>& warnings)
{
    for (const auto& d : warnings)
        std::cerr << d.format() << '\n';
}

/// Prints a use case's failure (its located diagnostics, then the message) and returns its exit code.
int printFailure(const usecases::Failure& f)
{
    printWarnings(f.diagnostics);
    std::cerr << "faultline-cli: " << f.message << '\n';
    return exitCode(f.code);
}

int printCaseErrors(const std::vector<core::Diagnostic>& errors)
{
    for (const auto& d : errors)
        std::cerr << d.format() << '\n';
    return kExitCase;
}

/// Prints a case use case's failure as the case commands always have: its located diagnostics (the open's notes and
/// problems first), or its message when it has none. Returns Case.
int printCaseFailure(const usecases::Failure& f)
{
    if (f.diagnostics.empty())
        std::cerr << "faultline-cli: " << f.message << '\n';
    return printCaseErrors(f.diagnostics);
}

/// Opens a case and prints its notes (migration, read-only) and problems (damage found at open).
std::unique_ptr<core::CaseFile> openCase(
    const std::string& path, bool readOnly, int& exitCode, bool printProblems = true)
{
    std::vector<core::Diagnostic> errors;
    core::CaseOpenOptions o;
    o.readOnly = readOnly;
    auto c = core::CaseFile::open(path, o, errors);
    if (!c) {
        exitCode = printCaseErrors(errors);
        return nullptr;
    }
    for (const auto& d : c->notes())
        std::cerr << d.format() << '\n';
    if (printProblems)
        for (const auto& d : c->problems())
            std::cerr << d.format() << '\n';
    return c;
}

int analyzeCommand(const std::vector<std::string>& args, const char* argv0)
{
    std::vector<std::string> bundles;
    bool json = false;
    bool timings = false;
    bool color = isatty(1) && !std::getenv("NO_COLOR");
    app::RulesChoice rules;
    std::string casePath;
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
        bool missing = false;
        if (rulesOption(args, i, rules, missing)) {
            if (missing)
                return usage(a + " needs a value");
        } else if (a == "--json")
            json = true;
        else if (a == "--timings")
            timings = true;
        else if (a == "--color")
            color = true;
        else if (a == "--no-color")
            color = false;
        else if (a == "-o" || a == "--output") {
            if (auto v = value("-o"))
                casePath = *v;
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
    const auto sources = rulesSources(rules, argv0);
    if (!sources)
        return kExitUsage;
    usecases::BundleRequest request;
    request.paths = bundles;
    request.rulesDir = sources->root;
    request.packDirs = sources->packDirs;
    request.jobId = load.jobId;
    request.windowFromNs = opts.windowFromNs;
    request.windowToNs = opts.windowToNs;
    request.threads = opts.threads;
    request.saveAs = casePath;
    auto last = std::chrono::steady_clock::now();
    std::string lastStep;
    if (timings)
        request.checkpoint = [&](std::string_view step) {
            if (step == lastStep)
                return;
            const auto now = std::chrono::steady_clock::now();
            std::cerr << "timings: case " << step << " +"
                      << std::chrono::duration_cast<std::chrono::milliseconds>(now - last).count() << " ms\n";
            last = now;
            lastStep = step;
        };
    const auto result = usecases::analyseBundle(request);
    if (!result.ok())
        return printFailure(result.failure);
    const auto& a = result.value->analysis;
    printWarnings(a.catalogWarnings);
    printLayers(*a.catalog);
    if (timings)
        std::cerr << "timings: import " << a.importMs << " ms (" << a.evidence->observations.size()
                  << " records), analyze " << a.analyseMs << " ms (" << a.verdict->events.size() << " events)\n";
    if (const auto& saved = result.value->saved)
        std::cerr << "case saved: " << saved->path << " (" << saved->bytes / 1024 << " KiB, " << saved->files
                  << " files)\n";
    if (json) {
        std::cout << core::verdictToJson(*a.verdict, *a.evidence);
    } else {
        core::TextOptions t;
        t.color = color;
        std::cout << core::verdictToText(*a.verdict, *a.evidence, t);
    }
    return kExitOk;
}

int importReportCommand(const std::vector<std::string>& args, const char* argv0)
{
    std::vector<std::string> bundles;
    bool json = false;
    bool timings = false;
    app::RulesChoice rules;
    importers::LoadOptions load;
    for (std::size_t i = 0; i < args.size(); ++i) {
        bool missing = false;
        if (rulesOption(args, i, rules, missing)) {
            if (missing)
                return usage(args[i] + " needs a value");
        } else if (args[i] == "--json")
            json = true;
        else if (args[i] == "--timings")
            timings = true;
        else if (args[i] == "--threads" && i + 1 < args.size())
            load.threads = static_cast<unsigned>(std::strtoul(args[++i].c_str(), nullptr, 10));
        else if (args[i] == "--job" && i + 1 < args.size())
            load.jobId = args[++i];
        else if (!args[i].empty() && args[i][0] == '-')
            return usage("unknown option " + args[i]);
        else
            bundles.push_back(args[i]);
    }
    if (bundles.empty())
        return usage("import-report needs a BUNDLE (directory, archive or file)");
    const auto sources = rulesSources(rules, argv0);
    if (!sources)
        return kExitUsage;
    auto catalog = loadCatalog(*sources);
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

int rerunCommand(const std::vector<std::string>& args, const char* argv0)
{
    std::string casePath;
    app::RulesChoice rules;
    bool json = false;
    unsigned threads = 0;
    for (std::size_t i = 0; i < args.size(); ++i) {
        bool missing = false;
        if (rulesOption(args, i, rules, missing)) {
            if (missing)
                return usage(args[i] + " needs a value");
        } else if (args[i] == "--json")
            json = true;
        else if (args[i] == "--threads" && i + 1 < args.size())
            threads = static_cast<unsigned>(std::strtoul(args[++i].c_str(), nullptr, 10));
        else if (!args[i].empty() && args[i][0] == '-')
            return usage("unknown option " + args[i]);
        else if (casePath.empty())
            casePath = args[i];
        else
            return usage("rerun takes one CASE");
    }
    if (casePath.empty())
        return usage("rerun needs a CASE file");
    const auto sources = rulesSources(rules, argv0);
    if (!sources)
        return kExitUsage;
    {
        // Damage and migration notes are reported before the re-run, as 'show' reports them.
        int code = kExitOk;
        auto c = openCase(casePath, false, code);
        if (!c)
            return code;
        if (c->readOnly())
            return printCaseErrors({ core::makeDiagnostic(core::Severity::Error, "case-read-only",
                "the case cannot be written (read-only file or newer schema): a run cannot be added", casePath) });
    }
    usecases::ReproduceRequest request;
    request.casePath = casePath;
    request.rules = usecases::Rules::Current;
    request.currentRulesDir = sources->root;
    request.currentPackDirs = sources->packDirs;
    request.threads = threads;
    const auto t0 = std::chrono::steady_clock::now();
    const auto reproduced = usecases::reproduceCase(request);
    if (!reproduced.ok())
        return printFailure(reproduced.failure);
    const auto& a = *reproduced.value;
    printWarnings(a.catalogWarnings);
    printLayers(*a.catalog);
    if (a.importDiffers)
        std::cerr << casePath << ": note: this build imports the stored evidence differently from the import "
                  << "recorded in the case (evidence fingerprint changed): the new import is kept with this run, "
                  << "and the diff below includes that\n";
    const auto added = usecases::addRun(a);
    if (!added.ok())
        return printFailure(added.failure);
    const auto& run = *added.value;
    if (json) {
        std::cout << core::verdictToJson(*a.verdict, *a.evidence);
        return kExitOk;
    }
    std::cout << "run " << run.id << " added to " << casePath << ": " << a.verdict->outcome << " (catalog "
              << a.verdict->catalogName << " " << a.verdict->catalogVersion << ", "
              << std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count()
              << " ms)\n";
    if (!run.diff)
        return kExitOk;
    const auto& d = *run.diff;
    std::cout << "diff run " << d.from << " → run " << d.to << ": " << (d.same ? "same verdict" : "verdict changed")
              << '\n';
    for (const auto& line : d.changes)
        std::cout << "  " << line << '\n';
    if (const auto& e = run.expectation) {
        std::cout << "expectation (run " << e->runId << ", marked by " << e->author
                  << "): " << (run.expectationMisses.empty() ? "met" : "NOT met") << '\n';
        for (const auto& m : run.expectationMisses)
            std::cout << "  " << m << '\n';
    }
    return kExitOk;
}

int showCommand(const std::vector<std::string>& args)
{
    std::string casePath;
    std::int64_t run = 0;
    bool json = false;
    bool listRuns = false;
    bool importReport = false;
    bool readOnly = false;
    bool listAnnotations = false;
    std::string linePath;
    std::string diffRuns;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--json")
            json = true;
        else if (args[i] == "--runs")
            listRuns = true;
        else if (args[i] == "--import-report")
            importReport = true;
        else if (args[i] == "--read-only")
            readOnly = true;
        else if (args[i] == "--annotations")
            listAnnotations = true;
        else if (args[i] == "--run" && i + 1 < args.size())
            run = std::strtoll(args[++i].c_str(), nullptr, 10);
        else if (args[i] == "--line" && i + 1 < args.size())
            linePath = args[++i];
        else if (args[i] == "--diff" && i + 1 < args.size())
            diffRuns = args[++i];
        else if (!args[i].empty() && args[i][0] == '-')
            return usage("unknown option " + args[i]);
        else if (casePath.empty())
            casePath = args[i];
        else
            return usage("show takes one CASE");
    }
    if (casePath.empty())
        return usage("show needs a CASE file");
    int code = kExitOk;
    auto c = openCase(casePath, readOnly, code);
    if (!c)
        return code;
    std::vector<core::Diagnostic> errors;
    if (!linePath.empty()) {
        std::string path;
        std::uint64_t n = 0;
        if (!parseLineRef(linePath, path, n))
            return usage("--line takes PATH:N");
        const auto file = c->fileId(path, errors);
        const auto text = file ? c->line(*file, n, errors) : std::nullopt;
        if (!text)
            return printCaseErrors(errors);
        std::cout << *text << '\n';
        return kExitOk;
    }
    if (!diffRuns.empty()) {
        const auto colon = diffRuns.find(':');
        if (colon == std::string::npos)
            return usage("--diff takes A:B (two run numbers)");
        const auto d = c->diff(std::strtoll(diffRuns.c_str(), nullptr, 10),
            std::strtoll(diffRuns.c_str() + colon + 1, nullptr, 10), errors);
        if (!d)
            return printCaseErrors(errors);
        std::cout << "diff run " << d->from << " → run " << d->to << ": "
                  << (d->same ? "same verdict" : "verdict changed") << '\n';
        for (const auto& line : d->changes)
            std::cout << "  " << line << '\n';
        return kExitOk;
    }
    if (listAnnotations) {
        const auto annotations = c->annotations(errors);
        // Each one as it stands in the latest run: an event found again by its rule and record, or why not.
        const auto runs = c->runs(errors);
        std::vector<core::AnnotationResolution> resolved;
        if (!runs.empty())
            if (const auto scope = c->annotationScope(annotations, runs.back().id, errors))
                resolved = core::resolveAnnotations(annotations, *scope);
        for (std::size_t i = 0; i < annotations.size(); ++i) {
            const auto& a = annotations[i];
            std::cout << "#" << a.id << " " << a.kind << " by " << a.author << " at " << a.createdAt << " on ";
            if (a.target == "event" && a.runId > 0)
                std::cout << "event " << a.runId << ":" << a.eventIdx << " (" << a.path << ":" << a.line << ")";
            else
                std::cout << core::describeTarget(a);
            std::cout << (a.supersedes ? " (edit of #" + std::to_string(a.supersedes) + ")" : std::string()) << "\n    "
                      << a.text << '\n';
            if (!a.tags.empty()) {
                std::cout << "    tags:";
                for (const auto& t : a.tags)
                    std::cout << " " << t;
                std::cout << '\n';
            }
            if (i < resolved.size() && !resolved[i].matched)
                std::cout << "    " << resolved[i].reason << '\n';
            else if (i < resolved.size() && a.target == "event")
                std::cout << "    in run " << runs.back().id << ": event " << resolved[i].eventIndex << '\n';
        }
        if (const auto e = c->expectation(errors))
            std::cout << "expected verdict: run " << e->runId << " (" << e->outcome << ", " << e->domain << "/"
                      << e->subdomain << ", cause " << (e->causeType.empty() ? "none" : e->causeType) << " on "
                      << (e->causeNode.empty() ? "-" : e->causeNode) << "), marked by " << e->author << " at "
                      << e->createdAt << (e->note.empty() ? "" : ": " + e->note) << '\n';
        return errors.empty() ? kExitOk : printCaseErrors(errors);
    }
    if (importReport) {
        const auto r = c->importReport(json, errors);
        if (!r)
            return printCaseErrors(errors);
        std::cout << *r;
        return kExitOk;
    }
    const auto runs = c->runs(errors);
    if (!errors.empty())
        return printCaseErrors(errors);
    if (listRuns) {
        for (const auto& r : runs)
            std::cout << "run " << r.id << "  " << r.createdAt << "  " << r.kind << " by " << r.author << "  catalog "
                      << r.catalogName << " " << r.catalogVersion << " (" << r.catalogHash.substr(0, 12) << ")  engine "
                      << r.engineVersion << "\n    " << r.outcome << ": " << r.summary << '\n'
                      << (r.rulesDir.find(" + ") != std::string::npos ? "    rules: " + r.rulesDir + '\n' : "");
        return kExitOk;
    }
    if (runs.empty())
        return printCaseErrors(
            { core::makeDiagnostic(core::Severity::Error, "case-no-run", "the case has no run", casePath) });
    const std::int64_t which = run > 0 ? run : runs.back().id;
    const auto v = json ? c->verdictJson(which, errors) : c->verdictText(which, errors);
    if (!v)
        return printCaseErrors(errors);
    std::cout << *v;
    return c->problems().empty() ? kExitOk : kExitCase;
}

int grepCommand(const std::vector<std::string>& args)
{
    std::string casePath;
    core::GrepQuery q;
    bool havePattern = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto next = [&]() -> const std::string* { return i + 1 < args.size() ? &args[++i] : nullptr; };
        if (a == "-i" || a == "--ignore-case")
            q.ignoreCase = true;
        else if (a == "--from" || a == "--to") {
            const std::string* v = next();
            std::int64_t t = 0;
            if (!v || !parseTime(*v, t))
                return usage(a + " needs an RFC 3339 time with a zone");
            (a == "--from" ? q.fromNs : q.toNs) = t;
        } else if (a == "--node") {
            const std::string* v = next();
            if (!v)
                return usage("--node needs a value");
            q.node = *v;
        } else if (a == "--file") {
            const std::string* v = next();
            if (!v)
                return usage("--file needs a value");
            q.pathContains = *v;
        } else if (a == "--max") {
            const std::string* v = next();
            if (!v)
                return usage("--max needs a number");
            q.maxMatches = std::strtoull(v->c_str(), nullptr, 10);
        } else if (a.size() > 1 && a[0] == '-')
            return usage("unknown option " + a);
        else if (casePath.empty())
            casePath = a;
        else if (!havePattern) {
            q.pattern = a;
            havePattern = true;
        } else
            return usage("grep takes one CASE and one PATTERN");
    }
    if (casePath.empty() || !havePattern)
        return usage("grep needs a CASE and a PATTERN");
    int code = kExitOk;
    auto c = openCase(casePath, false, code);
    if (!c)
        return code;
    std::vector<core::Diagnostic> errors;
    std::size_t n = 0;
    const auto t0 = std::chrono::steady_clock::now();
    const auto stats = c->grep(
        q,
        [&](const core::GrepMatch& m) {
            std::cout << m.path << ':' << m.line << ": " << m.text << '\n';
            ++n;
            return true;
        },
        errors);
    if (!stats)
        return printCaseErrors(errors);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cerr << "grep: " << n << " matching line(s)" << (stats->truncated ? " (stopped at --max)" : "") << " in "
              << stats->files << " file(s), " << stats->bytes / (1024 * 1024) << " MiB searched in "
              << static_cast<std::int64_t>(s * 1000) << " ms\n";
    return n > 0 ? kExitOk : kExitTestsFailed;
}

int annotateCommand(const std::vector<std::string>& args)
{
    usecases::AnnotateRequest request;
    std::string linePath;
    std::string rangeNode;
    bool haveKind = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& k = args[i];
        const bool hasValue = i + 1 < args.size();
        if ((k == "--note" || k == "--tag" || k == "--bookmark" || k == "--narrative") && hasValue) {
            request.kind = k == "--note" ? usecases::AnnotationKind::Note
                : k == "--tag"           ? usecases::AnnotationKind::Tag
                : k == "--bookmark"      ? usecases::AnnotationKind::Bookmark
                                         : usecases::AnnotationKind::Narrative;
            request.text = args[++i];
            haveKind = true;
        } else if (k == "--remove" && hasValue)
            request.removeId = std::strtoll(args[++i].c_str(), nullptr, 10);
        else if (k == "--author" && hasValue)
            request.author = args[++i];
        else if (k == "--line" && hasValue)
            linePath = args[++i];
        else if (k == "--symptom" && hasValue)
            request.target = usecases::AnnotationTarget::symptom(args[++i]);
        else if (k == "--lane" && hasValue)
            request.target = usecases::AnnotationTarget::lane(args[++i]);
        else if (k == "--node" && hasValue)
            rangeNode = args[++i];
        else if (k == "--range" && hasValue) {
            const std::string v = args[++i];
            const auto dots = v.find("..");
            std::int64_t from = 0;
            std::int64_t to = 0;
            if (dots == std::string::npos || !parseTime(v.substr(0, dots), from) || !parseTime(v.substr(dots + 2), to)
                || to < from)
                return usage("--range takes FROM..TO, two RFC 3339 times, the second not before the first");
            request.target = usecases::AnnotationTarget::range(from, to);
        } else if (k == "--tags" && hasValue) {
            const std::string all = args[++i];
            for (std::size_t at = 0; at <= all.size();) {
                const auto comma = std::min(all.find(',', at), all.size());
                request.tags.push_back(all.substr(at, comma - at));
                at = comma + 1;
            }
        } else if (k == "--event" && hasValue) {
            const std::string v = args[++i];
            const auto colon = v.find(':');
            if (colon == std::string::npos)
                return usage("--event takes RUN:IDX");
            request.target = usecases::AnnotationTarget::event(
                std::strtoll(v.c_str(), nullptr, 10), std::strtoll(v.c_str() + colon + 1, nullptr, 10));
        } else if (!k.empty() && k[0] == '-')
            return usage("unknown option or missing value: " + k);
        else if (request.casePath.empty())
            request.casePath = k;
        else
            return usage("annotate takes one CASE");
    }
    if (request.casePath.empty() || (!haveKind && request.removeId == 0))
        return usage("annotate needs a CASE and one of --note, --tag, --bookmark, --narrative, --remove");
    if (!rangeNode.empty()) {
        if (request.target.kind != usecases::AnnotationTarget::Kind::Range)
            return usage("--node names the node of a --range");
        request.target.node = rangeNode;
    }
    if (!linePath.empty()) { // a line target wins over an event target
        std::string path;
        std::uint64_t line = 0;
        if (!parseLineRef(linePath, path, line))
            return usage("--line takes PATH:N");
        request.target = usecases::AnnotationTarget::lineOf(path, line);
    }
    const auto done = usecases::annotateCase(request);
    if (!done.ok())
        return printCaseFailure(done.failure);
    printWarnings(done.value->notes);
    if (request.removeId == 0)
        std::cout << "annotation #" << done.value->id << " added to " << request.casePath << '\n';
    return kExitOk;
}

int expectCommand(const std::vector<std::string>& args)
{
    std::string casePath;
    std::int64_t run = 0;
    std::string note;
    std::string author;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--run" && i + 1 < args.size())
            run = std::strtoll(args[++i].c_str(), nullptr, 10);
        else if (args[i] == "--note" && i + 1 < args.size())
            note = args[++i];
        else if (args[i] == "--author" && i + 1 < args.size())
            author = args[++i];
        else if (!args[i].empty() && args[i][0] == '-')
            return usage("unknown option or missing value: " + args[i]);
        else if (casePath.empty())
            casePath = args[i];
        else
            return usage("expect takes one CASE");
    }
    if (casePath.empty())
        return usage("expect needs a CASE");
    const auto done = usecases::expectRun(casePath, run, author, note);
    if (!done.ok())
        return printCaseFailure(done.failure);
    printWarnings(done.value->notes);
    std::cout << "run " << done.value->run << "'s verdict is now the expected one for " << casePath << '\n';
    return kExitOk;
}

/// "2026-11-02T10:15:00Z .. 2026-11-02T10:16:00Z", or what an unset window means.
std::string storyWindow(const core::StoryViewState& s)
{
    if (s.fromNs == INT64_MIN && s.toNs == INT64_MIN)
        return "the whole verdict";
    return (s.fromNs == INT64_MIN ? std::string("…") : core::formatUtc(s.fromNs)) + " .. "
        + (s.toNs == INT64_MIN ? std::string("…") : core::formatUtc(s.toNs));
}

int storyCommand(const std::vector<std::string>& args, const char* argv0)
{
    std::string casePath;
    std::int64_t revision = 0;
    bool json = false;
    bool history = false;
    bool propose = false;
    bool revisionGiven = false;
    std::string author;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--json")
            json = true;
        else if (a == "--history")
            history = true;
        else if (a == "--propose")
            propose = true;
        else if (a == "--author" && i + 1 < args.size())
            author = args[++i];
        else if (a == "--revision" && i + 1 < args.size()) {
            const std::string& v = args[++i];
            const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), revision);
            if (ec != std::errc() || p != v.data() + v.size() || revision < 1)
                return usage("--revision takes a revision number (from 1)");
            revisionGiven = true;
        } else if (!a.empty() && a[0] == '-')
            return usage("unknown option or missing value: " + a);
        else if (casePath.empty())
            casePath = a;
        else
            return usage("story takes one CASE");
    }
    if (casePath.empty())
        return usage("story needs a CASE");
    if (propose && (history || revisionGiven || json))
        return usage("--propose saves a new revision: it takes no --revision, --history or --json");
    if (!propose && !author.empty())
        return usage("--author names who proposes a story (with --propose)");
    if (history && revisionGiven)
        return usage("--history lists every revision: it takes no --revision");

    if (propose) {
        const auto done = usecases::proposeCaseStory(casePath, author, app::defaultRulesDir(argv0));
        if (!done.ok())
            return done.failure.code == usecases::Exit::Case ? printCaseFailure(done.failure)
                                                             : printFailure(done.failure);
        printWarnings(done.value->notes);
        const auto story = usecases::readStory(casePath, done.value->revision);
        std::cout << "story revision " << done.value->revision << " saved to " << casePath;
        if (story.ok())
            std::cout << ": " << story.value->change << " (" << story.value->steps.size() << " step"
                      << (story.value->steps.size() == 1 ? "" : "s") << ")";
        std::cout << '\n';
        return kExitOk;
    }
    if (history) {
        const auto revisions = usecases::storyRevisions(casePath);
        if (!revisions.ok())
            return printCaseFailure(revisions.failure);
        if (json) {
            core::JsonWriter w(true);
            w.beginObject();
            w.field("schema", "faultline.story-history/1");
            w.key("revisions").beginArray();
            for (const auto& r : *revisions.value)
                w.beginObject()
                    .field("revision", r.revision)
                    .field("author", r.author)
                    .field("created_at", r.createdAt)
                    .field("change", r.change)
                    .endObject();
            w.endArray();
            w.endObject();
            std::cout << w.str() << '\n';
            return kExitOk;
        }
        if (revisions.value->empty())
            std::cout << "the case has no story yet (faultline-cli story " << casePath << " --propose makes one)\n";
        for (const auto& r : *revisions.value)
            std::cout << "revision " << r.revision << "  " << r.createdAt << "  by " << r.author << "  " << r.change
                      << '\n';
        return kExitOk;
    }
    const auto story = usecases::readStory(casePath, revision);
    if (!story.ok())
        return printCaseFailure(story.failure);
    const core::Story& st = *story.value;
    if (json) {
        std::cout << core::storyToJson(st);
        return kExitOk;
    }
    if (st.revision == 0) {
        std::cout << "the case has no story yet (faultline-cli story " << casePath << " --propose makes one)\n";
        return kExitOk;
    }
    std::cout << "story revision " << st.revision << " by " << st.author << " at " << st.createdAt << ": " << st.change
              << " (" << st.steps.size() << " step" << (st.steps.size() == 1 ? "" : "s") << ")\n";
    std::size_t position = 0;
    for (const auto& step : st.steps) {
        const auto& s = step.state;
        std::cout << '\n'
                  << ++position << ". " << step.title << (step.origin == "user" ? "" : "  [" + step.origin + "]")
                  << "\n   window: " << storyWindow(s) << '\n';
        if (s.event) {
            const auto& e = *s.event;
            std::cout << "   event: " << (e.type.empty() ? e.ruleId : e.type) << (e.node.empty() ? "" : " on " + e.node)
                      << (e.timeNs == INT64_MIN ? "" : " at " + core::formatUtc(e.timeNs));
            if (!e.path.empty())
                std::cout << "\n     --> " << e.path << ":" << e.line;
            std::cout << '\n';
        } else if (!s.lane.empty()) {
            std::cout << "   lane: " << s.lane << '\n';
        }
        if (!s.symptom.empty())
            std::cout << "   symptom: " << s.symptom << '\n';
        if (!step.text.empty()) {
            // The text as it was written, each line indented under its step.
            std::string::size_type from = 0;
            while (from <= step.text.size()) {
                const auto nl = step.text.find('\n', from);
                std::cout << "   " << step.text.substr(from, nl == std::string::npos ? std::string::npos : nl - from)
                          << '\n';
                if (nl == std::string::npos)
                    break;
                from = nl + 1;
            }
        }
    }
    return kExitOk;
}

int explainCommand(const std::vector<std::string>& args, const char* argv0)
{
    usecases::ExplainRequest req;
    app::RulesChoice rules;
    bool json = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& k = args[i];
        const bool hasValue = i + 1 < args.size();
        bool missing = false;
        if (rulesOption(args, i, rules, missing)) {
            if (missing)
                return usage(k + " needs a value");
        } else if (k == "--json")
            json = true;
        else if (k == "--rule" && hasValue)
            req.ruleId = args[++i];
        else if (k == "--line" && hasValue) {
            if (!parseLineRef(args[++i], req.linePath, req.line))
                return usage("--line takes PATH:N (a file of the bundle and a line number from 1)");
        } else if (k == "--job" && hasValue)
            req.jobId = args[++i];
        else if ((k == "--threads" || k == "--max") && hasValue) {
            const std::string& v = args[++i];
            unsigned long n = 0;
            const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
            if (ec != std::errc() || end != v.data() + v.size())
                return usage(k + " needs a number");
            if (k == "--threads")
                req.threads = static_cast<unsigned>(n);
            else
                req.maxNearMisses = n;
        } else if (!k.empty() && k[0] == '-')
            return usage("unknown option or missing value: " + k);
        else
            req.paths.push_back(k);
    }
    if (req.paths.empty())
        return usage("explain needs a CASE or a BUNDLE");
    if (req.ruleId.empty() && req.linePath.empty())
        return usage("explain needs --rule ID, --line PATH:N, or both");
    const auto sources = rulesSources(rules, argv0);
    if (!sources)
        return kExitUsage;
    req.sources = *sources;
    req.currentRules = !rules.ruleDirs.empty() || !rules.catalogDir.empty();
    const auto res = usecases::explainRule(req);
    if (!res.ok())
        return res.failure.code == usecases::Exit::Case ? printCaseFailure(res.failure) : printFailure(res.failure);
    printWarnings(res.value->analysis.catalogWarnings);
    if (res.value->analysis.catalog)
        printLayers(*res.value->analysis.catalog);
    std::cout << (json ? usecases::explanationJson(*res.value) : usecases::explanationText(*res.value));
    return kExitOk;
}

int verifyCommand(const std::vector<std::string>& args)
{
    if (args.size() != 1)
        return usage("verify takes one CASE");
    int code = kExitOk;
    auto c = openCase(args[0], false, code, false);
    if (!c)
        return code;
    const auto problems = c->verify();
    if (!problems.empty())
        return printCaseErrors(problems);
    std::vector<core::Diagnostic> errors;
    std::uint64_t bytes = 0;
    std::uint64_t chunks = 0;
    const auto files = c->files(errors);
    for (const auto& f : files) {
        bytes += f.size;
        chunks += f.chunks;
    }
    std::cout << args[0] << ": ok: " << files.size() << " evidence files (" << bytes << " bytes, " << chunks
              << " chunks) match their SHA-256; " << c->runs(errors).size() << " run(s)\n";
    return kExitOk;
}

int rulesTestCommand(const std::vector<std::string>& args, const char* argv0)
{
    app::RulesChoice rules;
    std::vector<std::string> caseRoots;
    bool verbose = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        bool missing = false;
        if (rulesOption(args, i, rules, missing)) {
            if (missing)
                return usage(args[i] + " needs a value");
        } else if (args[i] == "--cases" && i + 1 < args.size())
            caseRoots.push_back(args[++i]);
        else if (args[i] == "--verbose" || args[i] == "-v")
            verbose = true;
        else if (!args[i].empty() && args[i][0] == '-')
            return usage("unknown option " + args[i]);
        else if (rules.catalogDir.empty())
            rules.catalogDir = args[i];
        else
            return usage("rules test takes one catalog DIR");
    }
    const auto sources = rulesSources(rules, argv0);
    if (!sources)
        return kExitUsage;
    const std::string& dir = sources->root;
    // Every layer's diagnostics, then its rules' own tests.
    auto catalog = loadCatalog(*sources);
    if (!catalog)
        return kExitCatalog;
    std::size_t passed = 0;
    std::size_t failed = 0;
    for (const auto& r : core::runRuleTests(*catalog)) {
        // The bundled layer's files are named relative to its root, a pack layer's by their full path.
        const std::string file = r.origin.layer == 0 ? dir + "/" + r.origin.file : r.origin.file;
        if (r.passed) {
            ++passed;
            if (verbose)
                std::cout << "PASS " << r.ruleId << " (" << file << ":" << r.origin.line << ")\n";
        } else {
            ++failed;
            std::cout << file << ":" << r.origin.line << ":" << r.origin.column << ": error: rule '" << r.ruleId
                      << "' test failed: " << r.message << "\n";
        }
    }
    // Verdict cases: the catalog's, each pack layer's, then the ones given.
    std::error_code ec;
    std::vector<std::string> layerCases { (fs::path(dir) / "cases").string() };
    for (const auto& pack : sources->packDirs)
        layerCases.push_back((fs::path(pack) / "cases").string());
    caseRoots.insert(caseRoots.begin(), layerCases.begin(), layerCases.end());
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
              << " rules";
    if (const std::size_t packs = catalog->packLayerCount())
        std::cout << ", " << packs << " rule pack layer(s)";
    std::cout << ")\n";
    std::cout << passed << " passed, " << failed << " failed\n";
    return failed == 0 ? kExitOk : kExitTestsFailed;
}

/// The workbench's executable, which draws what faultline-cli cannot (a report's pictures, its PDF): `faultline`
/// beside this program, else on PATH; "" when there is none. `looked` says where it was looked for.
std::string findRenderer(const char* argv0, std::string& looked)
{
    std::error_code ec;
    fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (ec)
        self = fs::absolute(argv0, ec);
    auto runnable = [](const fs::path& p) {
        std::error_code e;
        return fs::is_regular_file(p, e) && access(p.c_str(), X_OK) == 0;
    };
    const fs::path beside = self.parent_path() / "faultline";
    looked = beside.parent_path().string();
    if (runnable(beside))
        return beside.string();
    const char* path = std::getenv("PATH");
    looked += " and PATH";
    for (std::string_view rest = path ? path : ""; !rest.empty();) {
        const std::size_t colon = rest.find(':');
        const std::string dir(rest.substr(0, colon));
        rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
        if (!dir.empty() && runnable(fs::path(dir) / "faultline"))
            return (fs::path(dir) / "faultline").string();
    }
    return {};
}

/// Runs the workbench's headless report export (faultline --export-report ...) on the offscreen platform and returns
/// its exit code; it prints its own errors and what it wrote.
int runRenderer(const std::vector<std::string>& args, const char* argv0)
{
    std::string looked;
    const std::string renderer = findRenderer(argv0, looked);
    if (renderer.empty()) {
        std::cerr << "faultline-cli: a PDF report and a report's pictures are drawn by the workbench, `faultline`, "
                     "which is not installed here (looked in "
                  << looked
                  << "). Install the faultline package (it brings the workbench and Qt 6), or write the report as "
                     "--format md or html without --pictures.\n";
        return kExitUsage;
    }
    std::vector<std::string> argvStrings { renderer };
    argvStrings.insert(argvStrings.end(), args.begin(), args.end());
    std::vector<char*> argvPtrs;
    for (auto& a : argvStrings)
        argvPtrs.push_back(a.data());
    argvPtrs.push_back(nullptr);
    std::cout.flush();
    const pid_t child = fork();
    if (child < 0) {
        std::cerr << "faultline-cli: cannot start " << renderer << ": " << std::strerror(errno) << '\n';
        return kExitUsage;
    }
    if (child == 0) {
        // No window and no display needed: the report is drawn off screen.
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
        execv(renderer.c_str(), argvPtrs.data());
        std::fprintf(stderr, "faultline-cli: cannot run %s: %s\n", renderer.c_str(), std::strerror(errno));
        _exit(kExitUsage);
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0)
        if (errno != EINTR) {
            std::cerr << "faultline-cli: lost " << renderer << ": " << std::strerror(errno) << '\n';
            return kExitUsage;
        }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    std::cerr << "faultline-cli: " << renderer << " was stopped by signal " << WTERMSIG(status)
              << "; no report was written\n";
    return 70;
}

int reportCommand(const std::vector<std::string>& args, const char* argv0)
{
    usecases::ReportRequest req;
    std::string outPath;
    std::string format = "md";
    std::string redactArg;
    bool pictures = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& k = args[i];
        const bool hasValue = i + 1 < args.size();
        if (k == "--format" && hasValue) {
            format = args[++i];
            if (format == "md" || format == "markdown")
                req.format = usecases::ReportFormat::Markdown;
            else if (format == "html")
                req.format = usecases::ReportFormat::Html;
            else if (format != "pdf")
                return usage("--format takes md, html or pdf");
        } else if (k == "-o" && hasValue)
            outPath = args[++i];
        else if (k == "--rules" && hasValue)
            req.currentRulesDir = args[++i];
        else if (k == "--pictures")
            pictures = true;
        else if (k == "--redact" && hasValue) {
            redactArg = args[++i];
            auto profile = usecases::loadRedactionProfile(redactArg);
            if (!profile.ok()) {
                printWarnings(profile.failure.diagnostics);
                return usage(profile.failure.message);
            }
            req.redaction = std::move(*profile.value);
        } else if (!k.empty() && k[0] == '-')
            return usage("unknown option or missing value: " + k);
        else if (req.casePath.empty())
            req.casePath = k;
        else
            return usage("report takes one CASE");
    }
    if (req.casePath.empty())
        return usage("report needs a CASE");
    if (req.currentRulesDir.empty())
        req.currentRulesDir = app::defaultRulesDir(argv0);
    if (!outPath.empty())
        if (const std::string problem = usecases::reportTargetProblem(outPath, req.casePath); !problem.empty())
            return usage(problem);
    if (format == "pdf" || pictures) {
        if (outPath.empty())
            return usage(format == "pdf" ? "a PDF report needs -o FILE"
                                         : "--pictures needs -o FILE (the pictures are files or data beside the text)");
        std::vector<std::string> forward { "--export-report", req.casePath, "--format",
            format == "markdown" ? "md" : format, "-o", outPath, "--rules", req.currentRulesDir };
        if (!redactArg.empty()) {
            forward.push_back("--redact");
            forward.push_back(redactArg);
        }
        return runRenderer(forward, argv0);
    }
    const auto res = usecases::caseReport(req);
    if (!res.ok()) {
        std::cerr << "faultline-cli: " << res.failure.text() << '\n';
        return static_cast<int>(res.failure.code);
    }
    if (outPath.empty()) {
        std::cout << *res.value;
        return kExitOk;
    }
    const auto written = usecases::writeCaseReport({ *res.value, {} }, outPath, req.casePath);
    if (!written.ok()) {
        std::cerr << "faultline-cli: " << written.failure.text() << '\n';
        return static_cast<int>(written.failure.code);
    }
    std::cerr << "report written to " << outPath << '\n';
    return kExitOk;
}

int rulesRegressCommand(const std::vector<std::string>& args, const char* argv0)
{
    usecases::RegressRequest req;
    app::RulesChoice rules;
    std::string junit;
    bool json = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& k = args[i];
        const bool hasValue = i + 1 < args.size();
        bool missing = false;
        if (rulesOption(args, i, rules, missing)) {
            if (missing)
                return usage("unknown option or missing value: " + k);
        } else if (k == "--cases" && hasValue)
            req.casesDir = args[++i];
        else if (k == "--junit" && hasValue)
            junit = args[++i];
        else if (k == "--json")
            json = true;
        else if (k == "--threads" && hasValue)
            req.threads = static_cast<unsigned>(std::strtoul(args[++i].c_str(), nullptr, 10));
        else
            return usage("unknown option or missing value: " + k);
    }
    if (req.casesDir.empty())
        return usage("rules regress needs --cases DIR");
    const auto sources = rulesSources(rules, argv0);
    if (!sources)
        return kExitUsage;
    req.rulesDir = sources->root;
    req.packDirs = sources->packDirs;
    const auto res = usecases::regressCases(req);
    if (!res.ok()) {
        std::cerr << "faultline-cli: " << res.failure.text() << '\n';
        return static_cast<int>(res.failure.code);
    }
    const usecases::Regression& r = *res.value;
    if (!junit.empty()) {
        std::ofstream out(junit, std::ios::binary | std::ios::trunc);
        out << usecases::regressionJunit(r);
        if (!out.flush()) {
            std::cerr << "faultline-cli: cannot write the JUnit report " << junit << '\n';
            return kExitUsage;
        }
    }
    if (json) {
        std::cout << usecases::regressionJson(r);
        return r.failed() ? kExitTestsFailed : kExitOk;
    }
    if (r.catalogFrom.find(" + ") != std::string::npos)
        std::cerr << "rules regress: catalog from " << r.catalogFrom << '\n';
    std::cout << "rules regress: catalog " << r.catalogName << " " << r.catalogVersion << " ("
              << r.catalogHash.substr(0, 12) << ") over " << r.cases.size() << " case(s) in " << r.elapsedMs
              << " ms on " << r.threads << " thread(s)\n";
    // What needs a look first: broken expectations and unreadable cases, then what changed; unchanged last.
    const usecases::CaseOutcome order[] = { usecases::CaseOutcome::Broken, usecases::CaseOutcome::Failed,
        usecases::CaseOutcome::StillFailing, usecases::CaseOutcome::Fixed, usecases::CaseOutcome::Changed,
        usecases::CaseOutcome::Holds, usecases::CaseOutcome::Unchanged };
    for (const auto o : order)
        for (const auto& c : r.cases) {
            if (c.outcome != o)
                continue;
            char name[16];
            std::snprintf(name, sizeof name, "%-14s", usecases::caseOutcomeName(o));
            std::cout << "  " << name << c.path;
            if (o == usecases::CaseOutcome::Failed) {
                std::cout << ": " << c.error.substr(0, c.error.find('\n')) << '\n';
                continue;
            }
            std::cout << "  (run " << c.run << ": " << c.before;
            if (!c.diff.same && c.after != c.before)
                std::cout << " → " << c.after;
            else if (!c.diff.same)
                std::cout << "; the cause or its symptoms changed";
            std::cout << ")\n";
            for (const auto& m : c.misses)
                std::cout << "      " << m << '\n';
            if (o != usecases::CaseOutcome::Holds && o != usecases::CaseOutcome::Unchanged)
                for (const auto& d : c.diff.changes)
                    std::cout << "      " << d << '\n';
        }
    std::cout << "broken " << r.count(usecases::CaseOutcome::Broken) << ", failed "
              << r.count(usecases::CaseOutcome::Failed) << ", still failing "
              << r.count(usecases::CaseOutcome::StillFailing) << ", fixed " << r.count(usecases::CaseOutcome::Fixed)
              << ", holds " << r.count(usecases::CaseOutcome::Holds) << ", changed "
              << r.count(usecases::CaseOutcome::Changed) << ", unchanged " << r.count(usecases::CaseOutcome::Unchanged)
              << '\n';
    return r.failed() ? kExitTestsFailed : kExitOk;
}

/// The replacements as a table (category, original, pseudonym, count), or as JSON.
void printReplacements(const std::vector<core::Replacement>& list, bool json, const std::string& casePath,
    const core::RedactionProfile& profile, const std::string& written)
{
    if (json) {
        core::JsonWriter w(true);
        w.beginObject();
        w.field("schema", "faultline.redaction-preview/1");
        w.field("case", casePath);
        w.key("profile").beginObject().field("name", profile.name).field("origin", profile.origin);
        w.field("sha256", profile.sha256).endObject();
        if (written.empty())
            w.key("written").null();
        else
            w.field("written", written);
        w.key("replacements").beginArray();
        for (const auto& r : list)
            w.beginObject()
                .field("category", core::redactionCategoryName(r.category))
                .field("original", r.original)
                .field("pseudonym", r.pseudonym)
                .field("count", r.count)
                .endObject();
        w.endArray().endObject();
        std::cout << w.str() << '\n';
        return;
    }
    std::size_t wide = 8;
    std::size_t widePseudonym = 9;
    for (const auto& r : list) {
        wide = std::max(wide, core::escapeForDisplay(r.original).size());
        widePseudonym = std::max(widePseudonym, r.pseudonym.size());
    }
    auto pad = [](std::string s, std::size_t n) { return s.size() < n ? s + std::string(n - s.size(), ' ') : s; };
    std::cout << pad("category", 9) << pad("original", wide + 2) << pad("pseudonym", widePseudonym + 2) << "count\n";
    for (const auto& r : list)
        std::cout << pad(core::redactionCategoryName(r.category), 9)
                  << pad(core::escapeForDisplay(r.original), wide + 2) << pad(r.pseudonym, widePseudonym + 2) << r.count
                  << '\n';
}

int redactCommand(const std::vector<std::string>& args, const char* argv0)
{
    usecases::RedactRequest req;
    bool preview = false;
    bool json = false;
    std::string profileArg = "default";
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& k = args[i];
        const bool hasValue = i + 1 < args.size();
        if (k == "-o" && hasValue)
            req.outPath = args[++i];
        else if (k == "--profile" && hasValue)
            profileArg = args[++i];
        else if (k == "--rules" && hasValue)
            req.currentRulesDir = args[++i];
        else if (k == "--preview")
            preview = true;
        else if (k == "--json")
            json = true;
        else if (!k.empty() && k[0] == '-')
            return usage("unknown option or missing value: " + k);
        else if (req.casePath.empty())
            req.casePath = k;
        else
            return usage("redact takes one CASE");
    }
    if (req.casePath.empty())
        return usage("redact needs a CASE");
    if (preview == !req.outPath.empty())
        return usage(preview ? "redact --preview writes nothing: drop -o" : "redact needs -o COPY (or --preview)");
    auto profile = usecases::loadRedactionProfile(profileArg);
    if (!profile.ok()) {
        printWarnings(profile.failure.diagnostics);
        return usage(profile.failure.message);
    }
    req.profile = std::move(*profile.value);
    if (req.currentRulesDir.empty())
        req.currentRulesDir = app::defaultRulesDir(argv0);
    if (preview) {
        const auto res = usecases::previewRedaction(req);
        if (!res.ok())
            return res.failure.code == usecases::Exit::Case ? printCaseFailure(res.failure) : printFailure(res.failure);
        printReplacements(res.value->replacements, json, req.casePath, res.value->profile, {});
        if (!json) {
            std::cout << "redaction preview of " << req.casePath << " with the profile " << req.profile.name << ": "
                      << usecases::replacementSummary(res.value->replacements) << "; nothing was written\n";
            for (const auto& f : res.value->changedCatalogFiles)
                std::cout << "note: the stored rule file " << f
                          << " names a secret of the case: redacted too, and the copy's catalog gets a new hash\n";
        }
        return kExitOk;
    }
    const auto res = usecases::redactCase(req);
    if (!res.ok())
        return res.failure.code == usecases::Exit::Case ? printCaseFailure(res.failure) : printFailure(res.failure);
    const auto& r = *res.value;
    if (json) {
        core::JsonWriter w(true);
        w.beginObject();
        w.field("schema", "faultline.redacted-copy/1");
        w.field("case", req.casePath);
        w.field("written", r.path);
        w.field("bytes", static_cast<std::uint64_t>(r.bytes));
        w.field("files", r.files);
        w.key("profile").beginObject().field("name", req.profile.name).field("sha256", req.profile.sha256).endObject();
        w.key("replaced").beginObject();
        for (std::size_t c = 0; c < core::kRedactionCategories; ++c) {
            std::uint64_t values = 0;
            std::uint64_t times = 0;
            for (const auto& x : r.replacements)
                if (static_cast<std::size_t>(x.category) == c && x.count > 0) {
                    ++values;
                    times += x.count;
                }
            w.key(core::redactionCategoryName(static_cast<core::RedactionCategory>(c)))
                .beginObject()
                .field("values", values)
                .field("times", times)
                .endObject();
        }
        w.endObject();
        if (r.reproduces)
            w.field("reproduces", *r.reproduces);
        else
            w.key("reproduces").null();
        w.field("note", r.checkNote);
        w.endObject();
        std::cout << w.str() << '\n';
        return kExitOk;
    }
    std::cout << "redacted copy written: " << r.path << " (" << (r.bytes + 1023) / 1024 << " KiB, " << r.files
              << " files) with the profile " << req.profile.name << '\n'
              << "  replaced: " << usecases::replacementSummary(r.replacements) << '\n';
    if (r.reproduces && *r.reproduces)
        std::cout << "  the copy re-analyses to its stored verdict\n";
    if (!r.checkNote.empty())
        std::cout << "  note: " << r.checkNote << '\n';
    if (!r.changedCatalogFiles.empty())
        std::cout << "  note: " << r.changedCatalogFiles.size()
                  << " stored rule file(s) named secrets of the case: redacted too (the copy's catalog has a new "
                     "hash; the original's is in its redaction record)\n";
    std::cout << "  (faultline-cli redact " << req.casePath << " --preview lists every replacement)\n";
    return kExitOk;
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
        if (args[0] == "rerun")
            return rerunCommand({ args.begin() + 1, args.end() }, argv[0]);
        if (args[0] == "show")
            return showCommand({ args.begin() + 1, args.end() });
        if (args[0] == "grep")
            return grepCommand({ args.begin() + 1, args.end() });
        if (args[0] == "annotate")
            return annotateCommand({ args.begin() + 1, args.end() });
        if (args[0] == "expect")
            return expectCommand({ args.begin() + 1, args.end() });
        if (args[0] == "story")
            return storyCommand({ args.begin() + 1, args.end() }, argv[0]);
        if (args[0] == "report")
            return reportCommand({ args.begin() + 1, args.end() }, argv[0]);
        if (args[0] == "redact")
            return redactCommand({ args.begin() + 1, args.end() }, argv[0]);
        if (args[0] == "explain")
            return explainCommand({ args.begin() + 1, args.end() }, argv[0]);
        if (args[0] == "verify")
            return verifyCommand({ args.begin() + 1, args.end() });
        if (args[0] == "import-report")
            return importReportCommand({ args.begin() + 1, args.end() }, argv[0]);
        if (args[0] == "rules" && args.size() >= 2 && args[1] == "test")
            return rulesTestCommand({ args.begin() + 2, args.end() }, argv[0]);
        if (args[0] == "rules" && args.size() >= 2 && args[1] == "regress")
            return rulesRegressCommand({ args.begin() + 2, args.end() }, argv[0]);
    } catch (const std::exception& e) {
        std::cerr << "faultline-cli: internal error: " << e.what() << '\n';
        return 70;
    }
    return usage("unknown command '" + args[0] + "'");
}
