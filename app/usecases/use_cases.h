// SPDX-License-Identifier: Apache-2.0
// The use cases both front ends run: analyse a bundle (and save it as a case), reproduce a case with its own rules
// or the current ones, save an analysis as a case, add an analysis to its case as a run. Written once, Qt-free; the
// CLI parses arguments and prints what these return, the GUI runs the same calls off the UI thread. Each call takes
// a Task for progress and cancellation and returns either its result or a Failure with the exit code the CLI uses.
#pragma once

#include "core/casefile/case_file.h"
#include "core/model/analysis.h"
#include "core/model/bundle_input.h"
#include "core/model/verdict.h"
#include "core/rules/rule_catalog.h"
#include "core/util/diagnostic.h"

#include <atomic>
#include <climits>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace faultline::usecases {

/// The process exit codes (faultline-cli --help and README.md document them).
enum class Exit : int {
    Ok = 0,
    TestsFailed = 1, ///< rule tests or verdict cases failed; grep: no line matched
    Usage = 2,
    Catalog = 3, ///< the rule catalog has errors
    NoEvidence = 4, ///< the bundle holds no readable evidence
    Case = 5, ///< the case file cannot be opened or written, or is damaged or altered
    Cancelled = 130, ///< the caller cancelled (as a shell reports SIGINT)
};

/// Progress and cancellation for one call. Progress goes from 0 to 100 with the step's name.
struct Task
{
    std::function<void(int percent, const std::string& step)> progress;
    const std::atomic_bool* cancel = nullptr;

    bool cancelled() const { return cancel && cancel->load(); }
    void report(int percent, const std::string& step) const
    {
        if (progress)
            progress(percent, step);
    }
};

struct Failure
{
    Exit code = Exit::Ok;
    std::string message; ///< one line
    std::vector<core::Diagnostic> diagnostics; ///< located details (catalog errors, case damage)
    /// The message and every diagnostic, one per line.
    std::string text() const;
};

template <class T> struct Result
{
    std::optional<T> value;
    Failure failure;

    bool ok() const { return value.has_value(); }
    static Result fail(Exit code, std::string message, std::vector<core::Diagnostic> diagnostics = {})
    {
        Result r;
        r.failure = { code, std::move(message), std::move(diagnostics) };
        return r;
    }
};

/// "the rule catalog DIR has errors", naming the rule pack directories layered on it when there are any.
std::string catalogErrorsMessage(const core::CatalogSources& sources);

/// One analysis: the input, the evidence, the verdict and how they were made. Immutable once returned.
using Analysis = core::Analysis;

struct BundleRequest
{
    std::vector<std::string> paths; ///< directories, archives, files
    std::string rulesDir; ///< the bundled catalog (catalog.yaml, tables/, packs/)
    std::string jobId;
    std::int64_t windowFromNs = INT64_MIN;
    std::int64_t windowToNs = INT64_MIN;
    unsigned threads = 0; ///< 0: hardware concurrency
    /// When set, the analysis is also saved as a new case there (never over an existing file); its evidence is
    /// hashed and compressed while the import and the analysis run.
    std::string saveAs;
    core::CaseCheckpoint checkpoint; ///< passed to the case's creation (timings, tests)
    std::vector<std::string> packDirs = {}; ///< rule pack directories layered on rulesDir, lowest first
    /// A catalog already loaded (the workbench's): used instead of loading rulesDir and packDirs.
    std::shared_ptr<const core::RuleCatalog> catalog = {};
};

struct SavedCase
{
    std::string path;
    std::uintmax_t bytes = 0;
    std::size_t files = 0;
    std::int64_t run = 1;
};

struct BundleAnalysis
{
    Analysis analysis;
    std::optional<SavedCase> saved; ///< when BundleRequest::saveAs was set
};

/// Imports the bundle, analyses it, and saves it as a case when asked.
/// Fails with Catalog, NoEvidence, Case (saveAs exists or cannot be written) or Cancelled.
Result<BundleAnalysis> analyseBundle(const BundleRequest& request, const Task& task = {});

enum class Rules {
    Stored, ///< the latest run's own catalog, kept in the case (the current one when the case lacks it)
    Current, ///< `currentCatalog`, or `currentRulesDir` with `currentPackDirs`
};

struct ReproduceRequest
{
    std::string casePath;
    Rules rules = Rules::Stored;
    std::string currentRulesDir;
    /// The current catalog already loaded (a regression loads it once for every case; the workbench at start);
    /// null: loaded from currentRulesDir and currentPackDirs when needed.
    std::shared_ptr<const core::RuleCatalog> currentCatalog;
    unsigned threads = 0;
    /// Opens the case read-only: a case of an older schema is then refused instead of migrated.
    bool readOnly = false;
    std::vector<std::string> currentPackDirs = {}; ///< rule pack directories layered on currentRulesDir, lowest first
};

/// Re-imports a case's stored evidence and analyses it with the same job and window as its latest run, and says
/// whether that gives the latest run's verdict. Writes nothing. Fails with Catalog, Case or Cancelled.
Result<Analysis> reproduceCase(const ReproduceRequest& request, const Task& task = {});

struct StoredVerdict
{
    core::RunInfo run; ///< the latest run
    std::size_t runs = 0; ///< how many runs the case holds
    std::string text; ///< the run's verdict as faultline-cli show prints it
};

/// The latest run's stored verdict, read without re-importing anything: what a front end shows at once while
/// reproduceCase runs. Opens the case read-only. Fails with Case (also when the case has no run).
Result<StoredVerdict> storedVerdict(const std::string& casePath);

/// Saves an analysis of a bundle as a new case (run 1). Fails with Case.
Result<SavedCase> saveCase(const std::string& path, const Analysis& analysis);

struct AddedRun
{
    std::int64_t id = 0;
    std::optional<core::RunDiff> diff; ///< from the analysis's stored run, when it had one
    std::optional<core::Expectation> expectation; ///< the case's expectation, if any
    std::vector<std::string> expectationMisses; ///< empty: met
};

/// Adds an analysis of a case's evidence (reproduceCase) to that case as a new run, with the analysis's job,
/// window, rules and import. Fails with Case.
Result<AddedRun> addRun(const Analysis& analysis);

} // namespace faultline::usecases
