// SPDX-License-Identifier: Apache-2.0
#include "app/usecases/regress.h"

#include "app/usecases/markup.h"
#include "core/casefile/case_file.h"
#include "core/report/verdict_report.h"
#include "core/util/json_writer.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <thread>

namespace faultline::usecases {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

std::int64_t msSince(Clock::time_point t0)
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
}

std::string joined(const std::vector<core::Diagnostic>& diags)
{
    std::string out;
    for (const auto& d : diags)
        out += (out.empty() ? "" : "\n") + d.format();
    return out;
}

std::string verdictLine(const std::string& outcome, const std::string& domain, const std::string& subdomain)
{
    std::string s = outcome;
    if (!domain.empty())
        s += " " + core::domainPath(domain, subdomain);
    return s;
}

/// Re-analyses one case with the catalog and compares the verdict with the case's latest run and expectation.
CaseRegression regressOne(const std::string& path, const RegressRequest& request,
    const std::shared_ptr<const core::RuleCatalog>& catalog, const std::atomic_bool* cancel)
{
    const auto t0 = Clock::now();
    CaseRegression r;
    r.path = path;
    std::vector<core::Diagnostic> errors;
    std::string storedJson;
    bool metBefore = false;
    {
        auto c = core::CaseFile::open(path, { true, false }, errors);
        const auto runs = c ? c->runs(errors) : std::vector<core::RunInfo> {};
        if (!c || runs.empty()) {
            r.error = errors.empty() ? "the case has no run" : joined(errors);
            r.ms = msSince(t0);
            return r;
        }
        const core::RunInfo& latest = runs.back();
        r.run = latest.id;
        r.before = verdictLine(latest.outcome, latest.domain, latest.subdomain);
        storedJson = c->verdictJson(latest.id, errors).value_or(std::string());
        r.expectation = c->expectation(errors);
        if (r.expectation)
            metBefore = c->checkExpectation(latest.id, errors).empty();
        if (!errors.empty()) {
            r.error = joined(errors);
            r.ms = msSince(t0);
            return r;
        }
    }
    ReproduceRequest req;
    req.casePath = path;
    req.rules = Rules::Current;
    req.currentRulesDir = request.rulesDir;
    req.currentPackDirs = request.packDirs;
    req.currentCatalog = catalog;
    req.threads = 1; // cases run side by side, one per worker
    req.readOnly = true;
    Task task;
    task.cancel = cancel;
    const auto analysed = reproduceCase(req, task);
    if (!analysed.ok()) {
        r.error = analysed.failure.text();
        r.ms = msSince(t0);
        return r;
    }
    const Analysis& a = *analysed.value;
    const core::Verdict& v = *a.verdict;
    r.after = verdictLine(v.outcome, v.hasCause ? v.domain : std::string(), v.hasCause ? v.subdomain : std::string());
    const std::string newJson = core::verdictToJson(v, *a.evidence);
    const auto diff = core::diffVerdicts(storedJson, newJson, errors);
    if (!diff) {
        r.error = joined(errors);
        r.ms = msSince(t0);
        return r;
    }
    r.diff = *diff;
    r.diff.from = r.run;
    if (r.expectation) {
        const auto misses = core::verdictMisses(*r.expectation, newJson, errors);
        if (!misses) {
            r.error = joined(errors);
            r.ms = msSince(t0);
            return r;
        }
        r.misses = *misses;
        if (r.misses.empty())
            r.outcome = metBefore ? CaseOutcome::Holds : CaseOutcome::Fixed;
        else
            r.outcome = metBefore ? CaseOutcome::Broken : CaseOutcome::StillFailing;
    } else {
        r.outcome = r.diff.same ? CaseOutcome::Unchanged : CaseOutcome::Changed;
    }
    r.ms = msSince(t0);
    return r;
}

std::string seconds(std::int64_t ms)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ms) / 1000.0);
    return buf;
}

} // namespace

std::vector<std::string> libraryCases(const std::string& dir)
{
    std::vector<std::string> paths;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec) && it->path().extension() == ".faultline")
            paths.push_back(it->path().string());
    std::sort(paths.begin(), paths.end());
    return paths;
}

const char* caseOutcomeName(CaseOutcome o)
{
    switch (o) {
    case CaseOutcome::Unchanged:
        return "unchanged";
    case CaseOutcome::Changed:
        return "changed";
    case CaseOutcome::Holds:
        return "holds";
    case CaseOutcome::Broken:
        return "broken";
    case CaseOutcome::Fixed:
        return "fixed";
    case CaseOutcome::StillFailing:
        return "still-failing";
    case CaseOutcome::Failed:
        return "failed";
    }
    return "failed";
}

std::size_t Regression::count(CaseOutcome o) const
{
    return static_cast<std::size_t>(
        std::count_if(cases.begin(), cases.end(), [o](const CaseRegression& c) { return c.outcome == o; }));
}

Result<Regression> regressCases(const RegressRequest& request, const Task& task)
{
    const auto t0 = Clock::now();
    std::error_code ec;
    if (!fs::is_directory(request.casesDir, ec))
        return Result<Regression>::fail(Exit::Usage, "no case library at " + request.casesDir);
    const std::vector<std::string> paths = libraryCases(request.casesDir);
    if (paths.empty())
        return Result<Regression>::fail(Exit::Usage, "no case (*.faultline) under " + request.casesDir);

    std::shared_ptr<const core::RuleCatalog> catalog = request.catalog;
    if (!catalog) {
        const core::CatalogSources sources { request.rulesDir, request.packDirs, {} };
        auto loaded = core::RuleCatalog::load(sources);
        if (!loaded.ok())
            return Result<Regression>::fail(Exit::Catalog, catalogErrorsMessage(sources), loaded.diagnostics);
        catalog = std::move(loaded.catalog);
    }

    Regression out;
    out.catalogName = catalog->name();
    out.catalogVersion = catalog->version();
    out.catalogHash = catalog->contentHash();
    out.catalogFrom = catalog->loadedFrom();
    out.cases.resize(paths.size());
    const unsigned wanted = request.threads ? request.threads : std::max(1u, std::thread::hardware_concurrency());
    out.threads = static_cast<unsigned>(std::min<std::size_t>(wanted, paths.size()));
    task.report(0, "Re-analysing " + std::to_string(paths.size()) + " cases");
    forEachCase(paths.size(), out.threads, task, "Re-analysed",
        [&](std::size_t k) { out.cases[k] = regressOne(paths[k], request, catalog, task.cancel); });
    if (task.cancelled())
        return Result<Regression>::fail(Exit::Cancelled, "cancelled");
    out.elapsedMs = msSince(t0);
    Result<Regression> r;
    r.value = std::move(out);
    return r;
}

std::string regressionJunit(const Regression& r)
{
    const std::size_t failures = r.count(CaseOutcome::Broken) + r.count(CaseOutcome::StillFailing);
    const std::size_t errors = r.count(CaseOutcome::Failed);
    const std::string counts = " tests=\"" + std::to_string(r.cases.size()) + "\" failures=\""
        + std::to_string(failures) + "\" errors=\"" + std::to_string(errors) + "\" time=\"" + seconds(r.elapsedMs)
        + "\"";
    std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    x += "<testsuites name=\"faultline rules regress\"" + counts + ">\n";
    x += "  <testsuite name=\"" + markupEscaped(r.catalogName + " " + r.catalogVersion) + "\"" + counts
        + " skipped=\"0\">\n";
    x += "    <properties>\n      <property name=\"catalog.hash\" value=\"" + markupEscaped(r.catalogHash)
        + "\"/>\n      <property name=\"catalog.from\" value=\"" + markupEscaped(r.catalogFrom)
        + "\"/>\n    </properties>\n";
    for (const auto& c : r.cases) {
        x += "    <testcase classname=\"faultline.regress\" name=\"" + markupEscaped(c.path) + "\" time=\""
            + seconds(c.ms) + "\">\n";
        std::string body = c.after.empty() ? std::string() : c.before + " → " + c.after + "\n";
        for (const auto& m : c.misses)
            body += m + "\n";
        for (const auto& d : c.diff.changes)
            body += d + "\n";
        switch (c.outcome) {
        case CaseOutcome::Broken:
        case CaseOutcome::StillFailing:
            x += "      <failure type=\"" + std::string(caseOutcomeName(c.outcome)) + "\" message=\""
                + markupEscaped(c.misses.empty() ? std::string("expected verdict not met") : c.misses.front()) + "\">"
                + markupEscaped(body) + "</failure>\n";
            break;
        case CaseOutcome::Failed:
            x += "      <error type=\"failed\" message=\"" + markupEscaped(c.error.substr(0, c.error.find('\n')))
                + "\">" + markupEscaped(c.error) + "</error>\n";
            break;
        default:
            if (!body.empty())
                x += "      <system-out>" + markupEscaped(std::string(caseOutcomeName(c.outcome)) + "\n" + body)
                    + "</system-out>\n";
        }
        x += "    </testcase>\n";
    }
    x += "  </testsuite>\n</testsuites>\n";
    return x;
}

std::string regressionJson(const Regression& r)
{
    core::JsonWriter w;
    w.beginObject();
    w.field("schema", "faultline.regression/1");
    w.key("catalog")
        .beginObject()
        .field("name", r.catalogName)
        .field("version", r.catalogVersion)
        .field("hash", r.catalogHash)
        .field("from", r.catalogFrom)
        .endObject();
    w.field("elapsed_ms", r.elapsedMs);
    w.field("threads", r.threads);
    w.key("counts").beginObject();
    for (const CaseOutcome o : { CaseOutcome::Unchanged, CaseOutcome::Changed, CaseOutcome::Holds, CaseOutcome::Broken,
             CaseOutcome::Fixed, CaseOutcome::StillFailing, CaseOutcome::Failed })
        w.field(caseOutcomeName(o), static_cast<std::uint64_t>(r.count(o)));
    w.endObject();
    w.key("cases").beginArray();
    for (const auto& c : r.cases) {
        w.beginObject();
        w.field("path", c.path);
        w.field("outcome", caseOutcomeName(c.outcome));
        w.field("run", c.run);
        w.field("before", c.before);
        w.field("after", c.after);
        w.field("same", c.diff.same);
        w.key("changes").beginArray();
        for (const auto& d : c.diff.changes)
            w.value(d);
        w.endArray();
        w.field("expected", c.expectation.has_value());
        w.key("misses").beginArray();
        for (const auto& m : c.misses)
            w.value(m);
        w.endArray();
        if (!c.error.empty())
            w.field("error", c.error);
        w.field("ms", c.ms);
        w.endObject();
    }
    w.endArray();
    w.endObject();
    return w.str() + "\n";
}

void forEachCase(std::size_t count, unsigned threads, const Task& task, const std::string& verb,
    const std::function<void(std::size_t)>& each)
{
    std::atomic<std::size_t> next { 0 };
    std::size_t done = 0;
    std::mutex progress;
    auto worker = [&] {
        for (std::size_t k; (k = next.fetch_add(1)) < count;) {
            if (task.cancelled())
                return;
            each(k);
            const std::lock_guard lock(progress);
            ++done;
            task.report(static_cast<int>(done * 100 / count),
                verb + " " + std::to_string(done) + " of " + std::to_string(count) + " cases");
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back(worker);
    worker();
    for (auto& t : pool)
        t.join();
}

} // namespace faultline::usecases
