// SPDX-License-Identifier: Apache-2.0
// Regression of a rule catalog over a library of saved cases: every case's stored evidence is re-analysed with the
// catalog (with its latest run's job and window), and the new verdict is compared with the latest run's and with the
// case's expected verdict. Nothing is written to the cases. Qt-free: the CLI (`rules regress`) and the workbench call
// it; cases are analysed in parallel, one per worker thread.
#pragma once

#include "app/usecases/use_cases.h"
#include "core/model/case_records.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace faultline::usecases {

struct RegressRequest
{
    std::string casesDir; ///< searched recursively for *.faultline files
    std::string rulesDir; ///< the catalog under test
    unsigned threads = 0; ///< cases analysed at once; 0: hardware concurrency
    std::vector<std::string> packDirs = {}; ///< rule pack directories layered on rulesDir, lowest first
    /// A catalog already loaded (the workbench's rule editor: the catalog an unsaved edit gives), used instead of
    /// loading rulesDir and packDirs.
    std::shared_ptr<const core::RuleCatalog> catalog = {};
};

/// The case files of a library: every *.faultline under `dir`, recursively, in path order.
std::vector<std::string> libraryCases(const std::string& dir);

/// Runs `each(k)` for every case k < `count` on `threads` threads (the calling one among them), reporting
/// "<verb> N of M cases" after each one; once the task is cancelled no further case is started.
void forEachCase(std::size_t count, unsigned threads, const Task& task, const std::string& verb,
    const std::function<void(std::size_t)>& each);

enum class CaseOutcome {
    Unchanged, ///< the same verdict as the latest run (the case has no expectation)
    Changed, ///< another verdict than the latest run's (the case has no expectation)
    Holds, ///< the case's expected verdict is met, as it was
    Broken, ///< the expected verdict was met by the latest run and is not met now: a regression
    Fixed, ///< the latest run missed the expected verdict and the new one meets it
    StillFailing, ///< the latest run missed the expected verdict and the new one does too
    Failed, ///< the case could not be read or analysed
};
const char* caseOutcomeName(CaseOutcome o);

struct CaseRegression
{
    std::string path;
    CaseOutcome outcome = CaseOutcome::Failed;
    std::int64_t run = 0; ///< the latest run compared against
    std::string before; ///< "outcome domain/subdomain, cause type" of the latest run
    std::string after; ///< the same of the new verdict
    core::RunDiff diff; ///< latest run → new verdict
    std::optional<core::Expectation> expectation;
    std::vector<std::string> misses; ///< how the new verdict departs from the expectation
    std::string error; ///< Failed: why (one line per diagnostic)
    std::int64_t ms = 0;
};

struct Regression
{
    std::vector<CaseRegression> cases; ///< in path order
    std::string catalogName;
    std::string catalogVersion;
    std::string catalogHash;
    std::string catalogFrom; ///< RuleCatalog::loadedFrom: its root and every pack layer that gave files
    std::int64_t elapsedMs = 0;
    unsigned threads = 0;
    std::size_t count(CaseOutcome o) const;
    /// An expected verdict broke or a case could not be analysed: the CLI exits non-zero.
    bool failed() const { return count(CaseOutcome::Broken) + count(CaseOutcome::Failed) > 0; }
};

/// Runs the catalog over every case of the library. Fails with Catalog (the catalog has errors), Usage (the folder
/// does not exist or holds no case) or Cancelled; a case that cannot be read is a Failed entry, not a failure.
Result<Regression> regressCases(const RegressRequest& request, const Task& task = {});

/// The regression as a JUnit XML report: one test suite, one test case per case file; Broken is a failure, Failed an
/// error, StillFailing a failure too (the expectation is not met).
std::string regressionJunit(const Regression& r);
/// The regression as JSON (schema "faultline.regression/1").
std::string regressionJson(const Regression& r);

} // namespace faultline::usecases
