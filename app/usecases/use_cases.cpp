// SPDX-License-Identifier: Apache-2.0
#include "app/usecases/use_cases.h"

#include "app/usecases/story.h"
#include "core/analysis/analyzer.h"
#include "core/report/verdict_report.h"
#include "importers/bundle_loader.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <random>

namespace fs = std::filesystem;

namespace faultline::usecases {

std::string Failure::text() const
{
    std::string s = message;
    for (const auto& d : diagnostics)
        s += (s.empty() ? "" : "\n") + d.format();
    return s;
}

std::string catalogErrorsMessage(const core::CatalogSources& sources)
{
    std::string s = "the rule catalog " + sources.root;
    for (std::size_t i = 0; i < sources.packDirs.size(); ++i)
        s += (i == 0 ? " with the rule packs in " : ", ") + sources.packDirs[i];
    return s + " has errors";
}

namespace {

using Clock = std::chrono::steady_clock;

std::int64_t msSince(Clock::time_point t0)
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
}

/// Loads a catalog; a catalog with errors is a Catalog failure that carries them (every layer's).
template <class T>
std::shared_ptr<const core::RuleCatalog> loadCatalog(
    const core::CatalogSources& sources, std::vector<core::Diagnostic>& warnings, Result<T>& failed)
{
    auto res = core::RuleCatalog::load(sources);
    if (!res.ok()) {
        failed = Result<T>::fail(Exit::Catalog, catalogErrorsMessage(sources), res.diagnostics);
        return nullptr;
    }
    warnings = res.diagnostics;
    return res.catalog;
}

importers::LoadOptions loadOptions(const Task& task, const std::string& jobId, unsigned threads, int from, int to)
{
    importers::LoadOptions load;
    load.jobId = jobId;
    load.threads = threads;
    load.cancel = task.cancel;
    load.progress = [&task, from, to](
                        std::size_t done, std::size_t total, const std::string& file, const std::string&) {
        if (total > 0)
            task.report(
                from + static_cast<int>(static_cast<std::size_t>(to - from) * done / total), "Importing " + file);
    };
    return load;
}

/// The import's progress once the input is known: which file in which format, how far, and how much evidence in all
/// ("Importing nodes/node-02/dmesg.txt (kernel-dmesg) — part 12 of 40, 250.3 MB in 36 files").
std::function<void(std::size_t, std::size_t, const std::string&, const std::string&)> importProgress(
    const Task& task, const core::BundleInput& input, int from, int to)
{
    std::uint64_t bytes = 0;
    for (const auto& f : input.files)
        bytes += f.bytes.size();
    char size[64];
    std::snprintf(size, sizeof size, "%.1f MB in %zu files", static_cast<double>(bytes) / 1e6, input.files.size());
    return [&task, from, to, all = std::string(size)](
               std::size_t done, std::size_t total, const std::string& file, const std::string& format) {
        if (total == 0)
            return;
        const int percent = from + static_cast<int>(static_cast<std::size_t>(to - from) * done / total);
        std::string what = file.empty() ? std::string("Importing") : "Importing " + file;
        if (!file.empty() && !format.empty())
            what += " (" + format + ")";
        task.report(percent, what + " — part " + std::to_string(done) + " of " + std::to_string(total) + ", " + all);
    };
}

/// A temporary directory that removes itself.
struct TempDir
{
    fs::path path;
    TempDir()
    {
        std::error_code ec;
        std::random_device rd;
        for (int i = 0; i < 16 && path.empty(); ++i) {
            const fs::path p = fs::temp_directory_path(ec) / ("faultline-rules-" + std::to_string(rd()));
            if (fs::create_directory(p, ec))
                path = p;
        }
    }
    ~TempDir()
    {
        std::error_code ec;
        if (!path.empty())
            fs::remove_all(path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
};

/// Runs the catalog over the evidence with the analysis's window; records the time it took.
std::shared_ptr<core::Verdict> correlate(
    Analysis& a, const core::EvidenceSet& evidence, unsigned threads, const Task& task)
{
    task.report(75, "Correlating");
    const auto t0 = Clock::now();
    core::AnalysisOptions opts;
    opts.threads = threads;
    opts.windowFromNs = a.windowFromNs;
    opts.windowToNs = a.windowToNs;
    opts.cancel = task.cancel;
    auto verdict = std::make_shared<core::Verdict>(core::analyze(evidence, *a.catalog, opts));
    a.analyseMs = msSince(t0);
    return verdict;
}

/// The request that saves an analysis as a new case (run 1) with how it was made.
core::CaseCreateRequest createRequest(const Analysis& a)
{
    core::CaseCreateRequest req;
    req.input = a.input.get();
    req.evidence = a.evidence.get();
    req.verdict = a.verdict.get();
    req.importMs = a.importMs;
    req.jobOption = a.jobOption;
    req.run.rulesDir = a.rulesDir;
    req.run.catalog = a.catalog.get();
    req.run.durationMs = a.analyseMs;
    req.run.windowFromNs = a.windowFromNs;
    req.run.windowToNs = a.windowToNs;
    // A new case starts with the story its verdict proposes, as revision 1.
    req.story = proposedStory(a);
    req.storyChange = "proposed from run 1";
    return req;
}

} // namespace

Result<BundleAnalysis> analyseBundle(const BundleRequest& request, const Task& task)
{
    Result<BundleAnalysis> out;
    if (request.paths.empty())
        return Result<BundleAnalysis>::fail(Exit::Usage, "no bundle given");
    if (!request.saveAs.empty() && fs::exists(request.saveAs))
        return Result<BundleAnalysis>::fail(Exit::Case, "the case was not saved",
            { core::makeDiagnostic(core::Severity::Error, "case-exists",
                "a file already exists there; a case is never overwritten: choose another name, or add a run to "
                "it with 'faultline-cli rerun'",
                request.saveAs) });
    task.report(2, "Loading rules");
    Analysis a;
    a.catalog = request.catalog;
    if (!a.catalog)
        a.catalog =
            loadCatalog(core::CatalogSources { request.rulesDir, request.packDirs, {} }, a.catalogWarnings, out);
    if (!a.catalog)
        return out;
    a.rulesDir = a.catalog->loadedFrom();
    a.jobOption = request.jobId;
    a.windowFromNs = request.windowFromNs;
    a.windowToNs = request.windowToNs;

    task.report(5, "Reading the bundle");
    const auto t0 = Clock::now();
    auto load = loadOptions(task, request.jobId, request.threads, 25, 75);
    auto input = std::make_shared<core::BundleInput>(importers::collectBundle(request.paths, load));
    if (task.cancelled())
        return Result<BundleAnalysis>::fail(Exit::Cancelled, "cancelled");
    load.progress = importProgress(task, *input, 25, 75);
    // A case's evidence is hashed, compressed and written to its temporary file while the import and the analysis
    // run.
    std::future<std::shared_ptr<core::CaseDraft>> draft;
    if (!request.saveAs.empty())
        draft = std::async(
            std::launch::async, [&request, input] { return core::draftCase(request.saveAs, *input, request.threads); });
    task.report(25, "Importing evidence");
    auto evidence = std::make_shared<core::EvidenceSet>(importers::importBundle(*input, load));
    a.importMs = msSince(t0);
    if (task.cancelled())
        return Result<BundleAnalysis>::fail(Exit::Cancelled, "cancelled");
    if (evidence->sources.empty())
        return Result<BundleAnalysis>::fail(
            Exit::NoEvidence, "no readable evidence in " + request.paths.front(), evidence->diagnostics);
    std::future<std::shared_ptr<const core::PreparedObservations>> prepared;
    if (!request.saveAs.empty())
        prepared = std::async(std::launch::async,
            [evidence, threads = request.threads] { return core::prepareCaseObservations(*evidence, threads); });

    auto verdict = correlate(a, *evidence, request.threads, task);
    if (task.cancelled())
        return Result<BundleAnalysis>::fail(Exit::Cancelled, "cancelled");
    a.input = std::move(input);
    a.evidence = std::move(evidence);
    a.verdict = std::move(verdict);

    BundleAnalysis result;
    if (!request.saveAs.empty()) {
        task.report(90, "Saving the case");
        core::CaseCreateRequest req = createRequest(a);
        req.draft = draft.get();
        req.preparedObservations = prepared.get();
        req.threads = request.threads;
        req.checkpoint = request.checkpoint;
        std::vector<core::Diagnostic> errors;
        if (!core::CaseFile::create(request.saveAs, req, errors))
            return Result<BundleAnalysis>::fail(Exit::Case, "the case was not saved", errors);
        std::error_code ec;
        result.saved = SavedCase { request.saveAs, fs::file_size(request.saveAs, ec), a.input->files.size(), 1 };
        a.casePath = request.saveAs;
        a.storedRun = 1;
        a.matchesStoredRun = true;
        a.rulesOrigin = "current rules";
    }
    task.report(100, "Done");
    result.analysis = std::move(a);
    out.value = std::move(result);
    return out;
}

Result<Analysis> reproduceCase(const ReproduceRequest& request, const Task& task)
{
    Result<Analysis> out;
    task.report(5, "Reading the case");
    std::vector<core::Diagnostic> errors;
    auto c = core::CaseFile::open(request.casePath, { request.readOnly, !request.readOnly }, errors);
    std::optional<core::BundleInput> input;
    if (c)
        input = c->loadInput(errors);
    if (!c || !input)
        return Result<Analysis>::fail(Exit::Case, "cannot open the case " + request.casePath, errors);
    const auto runs = c->runs(errors);
    if (!errors.empty())
        return Result<Analysis>::fail(Exit::Case, "cannot read the case's runs", errors);

    Analysis a;
    a.casePath = request.casePath;
    // By default the latest run is reproduced with its own rules, stored in the case; the current rules are used
    // on request, or when the case does not hold them (runs written before schema 2).
    TempDir stored;
    bool useStored = false;
    a.rulesOrigin = "current rules";
    if (request.rules == Rules::Stored && !runs.empty()) {
        std::vector<core::Diagnostic> missing;
        if (stored.path.empty())
            a.rulesOrigin = "current rules (no temporary directory for the stored ones)";
        else if (c->extractCatalog(runs.back().id, stored.path.string(), missing)) {
            useStored = true;
            a.rulesOrigin = "run " + std::to_string(runs.back().id) + "'s rules";
        } else if (!missing.empty())
            a.rulesOrigin = "current rules (" + missing.front().message + ")";
    }
    task.report(10, "Loading rules");
    if (useStored)
        a.catalog = loadCatalog(core::storedCatalogSources(stored.path.string()), a.catalogWarnings, out);
    else if (request.currentCatalog)
        a.catalog = request.currentCatalog;
    else
        a.catalog = loadCatalog(
            core::CatalogSources { request.currentRulesDir, request.currentPackDirs, {} }, a.catalogWarnings, out);
    if (!a.catalog)
        return out;
    // A catalog extracted from the case lives in a temporary directory: the run records where it came from.
    a.rulesDir = useStored ? runs.back().rulesDir : a.catalog->loadedFrom();

    // The same job and window as the latest run, so that reproducing it compares like with like.
    a.jobOption = c->importJobOption(errors);
    if (!runs.empty()) {
        const auto [from, to] = c->runWindow(runs.back().id, errors);
        a.windowFromNs = from;
        a.windowToNs = to;
    }
    const auto t0 = Clock::now();
    auto load = loadOptions(task, a.jobOption, request.threads, 25, 75);
    task.report(25, "Importing the stored evidence");
    auto sharedInput = std::make_shared<core::BundleInput>(std::move(*input));
    load.progress = importProgress(task, *sharedInput, 25, 75);
    auto evidence = std::make_shared<core::EvidenceSet>(importers::importBundle(*sharedInput, load));
    a.importMs = msSince(t0);
    if (task.cancelled())
        return Result<Analysis>::fail(Exit::Cancelled, "cancelled");
    const std::string recorded = c->importFingerprint(errors);
    a.importDiffers = !recorded.empty() && recorded != core::evidenceFingerprint(*evidence);

    auto verdict = correlate(a, *evidence, request.threads, task);
    if (task.cancelled())
        return Result<Analysis>::fail(Exit::Cancelled, "cancelled");
    if (!runs.empty()) {
        a.storedRun = runs.back().id;
        const auto json = c->verdictJson(a.storedRun, errors);
        a.matchesStoredRun = json && *json == core::verdictToJson(*verdict, *evidence);
    }
    a.input = std::move(sharedInput);
    a.evidence = std::move(evidence);
    a.verdict = std::move(verdict);
    task.report(100, "Done");
    out.value = std::move(a);
    return out;
}

Result<StoredVerdict> storedVerdict(const std::string& casePath)
{
    std::vector<core::Diagnostic> errors;
    core::CaseOpenOptions options;
    options.readOnly = true;
    auto c = core::CaseFile::open(casePath, options, errors);
    if (!c)
        return Result<StoredVerdict>::fail(Exit::Case, "cannot open the case " + casePath, errors);
    const auto runs = c->runs(errors);
    if (runs.empty())
        return Result<StoredVerdict>::fail(Exit::Case, "the case " + casePath + " holds no run", errors);
    auto text = c->verdictText(runs.back().id, errors);
    if (!text)
        return Result<StoredVerdict>::fail(Exit::Case, "cannot read the latest run of " + casePath, errors);
    Result<StoredVerdict> out;
    out.value = StoredVerdict { runs.back(), runs.size(), std::move(*text) };
    return out;
}

Result<SavedCase> saveCase(const std::string& path, const Analysis& analysis)
{
    if (!analysis.input || !analysis.evidence || !analysis.verdict)
        return Result<SavedCase>::fail(Exit::Case, "nothing to save: analyse a bundle first");
    std::vector<core::Diagnostic> errors;
    if (!core::CaseFile::create(path, createRequest(analysis), errors))
        return Result<SavedCase>::fail(Exit::Case, "the case was not saved", errors);
    Result<SavedCase> out;
    std::error_code ec;
    out.value = SavedCase { path, fs::file_size(path, ec), analysis.input->files.size(), 1 };
    return out;
}

Result<AddedRun> addRun(const Analysis& analysis)
{
    if (analysis.casePath.empty() || !analysis.evidence || !analysis.verdict)
        return Result<AddedRun>::fail(Exit::Case, "this analysis did not come from a case: save it as a case instead");
    std::vector<core::Diagnostic> errors;
    auto c = core::CaseFile::open(analysis.casePath, {}, errors);
    if (!c)
        return Result<AddedRun>::fail(Exit::Case, "cannot open the case " + analysis.casePath, errors);
    if (c->readOnly())
        return Result<AddedRun>::fail(Exit::Case, "the run was not added",
            { core::makeDiagnostic(core::Severity::Error, "case-read-only",
                "the case cannot be written (read-only file or newer schema): a run cannot be added",
                analysis.casePath) });
    core::RunContext ctx;
    ctx.rulesDir = analysis.rulesDir;
    ctx.catalog = analysis.catalog.get();
    ctx.durationMs = analysis.analyseMs;
    ctx.fingerprint = core::evidenceFingerprint(*analysis.evidence);
    ctx.windowFromNs = analysis.windowFromNs;
    ctx.windowToNs = analysis.windowToNs;
    ctx.input = analysis.input.get();
    ctx.importMs = analysis.importMs;
    ctx.jobOption = analysis.jobOption;
    AddedRun added;
    added.id = c->addRun(*analysis.verdict, *analysis.evidence, ctx, errors);
    if (added.id == 0)
        return Result<AddedRun>::fail(Exit::Case, "the run was not added", errors);
    if (analysis.storedRun > 0) {
        added.diff = c->diff(analysis.storedRun, added.id, errors);
        if (!added.diff)
            return Result<AddedRun>::fail(Exit::Case, "the run was added, but its diff cannot be read", errors);
    }
    added.expectation = c->expectation(errors);
    if (added.expectation)
        added.expectationMisses = c->checkExpectation(added.id, errors);
    Result<AddedRun> out;
    out.value = std::move(added);
    return out;
}

} // namespace faultline::usecases
