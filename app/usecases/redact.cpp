// SPDX-License-Identifier: Apache-2.0
#include "app/usecases/redact.h"

#include "core/casefile/case_file.h"
#include "core/rules/rule_catalog.h"
#include "importers/bundle_loader.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <random>

namespace fs = std::filesystem;

namespace faultline::usecases {

namespace {

/// The case opened read-only and a redactor that discovered it.
struct Opened
{
    std::unique_ptr<core::CaseFile> file;
    std::shared_ptr<core::Redactor> redactor;
};

Result<Opened> openAndDiscover(const std::string& casePath, const core::RedactionProfile& profile, const Task& task)
{
    auto redactor = std::make_shared<core::Redactor>(profile);
    if (!redactor->errors().empty())
        return Result<Opened>::fail(Exit::Usage, "the redaction profile has errors", redactor->errors());
    task.report(5, "Reading the case");
    std::vector<core::Diagnostic> errors;
    core::CaseOpenOptions options;
    options.readOnly = true; // the original is never written: not even migrated
    options.migrate = false;
    auto c = core::CaseFile::open(casePath, options, errors);
    if (!c)
        return Result<Opened>::fail(Exit::Case, "cannot open the case " + casePath, errors);
    if (!c->problems().empty())
        return Result<Opened>::fail(Exit::Case, "the case " + casePath + " is damaged", c->problems());
    if (task.cancelled())
        return Result<Opened>::fail(Exit::Cancelled, "cancelled");
    task.report(10, "Finding the case's secrets");
    if (!c->discoverSecrets(*redactor, errors))
        return Result<Opened>::fail(Exit::Case, "cannot read the case " + casePath + " for redaction", errors);
    Result<Opened> out;
    out.value = Opened { std::move(c), std::move(redactor) };
    return out;
}

/// The content hash of a stored catalog (its files by stored path), as loading it from a directory gives it, the way
/// a case's run is reproduced with its own rules; nullopt when it does not load.
std::optional<std::string> storedCatalogHash(const std::vector<std::pair<std::string, std::string>>& files)
{
    std::error_code ec;
    std::random_device rd;
    fs::path dir;
    for (int i = 0; i < 16 && dir.empty(); ++i) {
        const fs::path p = fs::temp_directory_path(ec) / ("faultline-redacted-rules-" + std::to_string(rd()));
        if (fs::create_directory(p, ec))
            dir = p;
    }
    if (dir.empty())
        return std::nullopt;
    std::optional<std::string> out;
    bool written = true;
    for (const auto& [rel, content] : files) {
        if (rel.empty() || rel.front() == '/' || rel.find("..") != std::string::npos) {
            written = false;
            break;
        }
        const fs::path target = dir / rel;
        fs::create_directories(target.parent_path(), ec);
        std::ofstream f(target, std::ios::binary | std::ios::trunc);
        f.write(content.data(), static_cast<std::streamsize>(content.size()));
        written = written && static_cast<bool>(f);
    }
    if (written) {
        // Loaded as a case's stored catalog is (its pack layers under layers/N/), so that two catalogs of one case
        // keep two hashes.
        const auto loaded = core::RuleCatalog::load(core::storedCatalogSources(dir.string()));
        if (loaded.ok())
            out = loaded.catalog->contentHash();
    }
    fs::remove_all(dir, ec);
    return out;
}

bool sameFile(const std::string& a, const std::string& b)
{
    std::error_code ec;
    if (fs::exists(b, ec) && fs::equivalent(a, b, ec))
        return true;
    const fs::path ca = fs::weakly_canonical(a, ec);
    const fs::path cb = fs::weakly_canonical(b, ec);
    return !ec && ca == cb;
}

} // namespace

Result<core::RedactionProfile> loadRedactionProfile(const std::string& nameOrPath)
{
    auto load = core::redactionProfile(nameOrPath);
    if (!load.ok())
        return Result<core::RedactionProfile>::fail(
            Exit::Usage, "cannot use the redaction profile " + nameOrPath, load.diagnostics);
    Result<core::RedactionProfile> out;
    out.value = std::move(*load.profile);
    return out;
}

Result<std::shared_ptr<core::Redactor>> caseRedactor(const std::string& casePath, const core::RedactionProfile& profile)
{
    auto opened = openAndDiscover(casePath, profile, {});
    if (!opened.ok())
        return Result<std::shared_ptr<core::Redactor>>::fail(
            opened.failure.code, opened.failure.message, opened.failure.diagnostics);
    // Counts start at zero: what the caller redacts next is what it replaced.
    opened.value->redactor->resetCounts();
    Result<std::shared_ptr<core::Redactor>> out;
    out.value = std::move(opened.value->redactor);
    return out;
}

Result<RedactionPreview> previewRedaction(const RedactRequest& request, const Task& task)
{
    auto opened = openAndDiscover(request.casePath, request.profile, task);
    if (!opened.ok())
        return Result<RedactionPreview>::fail(opened.failure.code, opened.failure.message, opened.failure.diagnostics);
    task.report(50, "Redacting (nothing is written)");
    core::Redactor& r = *opened.value->redactor;
    std::vector<core::Diagnostic> errors;
    // The same walk as the copy, without a file: the counts are what the copy would replace.
    const auto dry = opened.value->file->writeRedactedCopy(r, core::RedactedCopyRequest {}, errors);
    if (!dry)
        return Result<RedactionPreview>::fail(Exit::Case, "cannot redact the case " + request.casePath, errors);
    Result<RedactionPreview> out;
    out.value = RedactionPreview { r.profile(), r.replacements(), dry->changedCatalogFiles };
    task.report(100, "Done");
    return out;
}

Result<RedactedCase> redactCase(const RedactRequest& request, const Task& task)
{
    if (request.outPath.empty())
        return Result<RedactedCase>::fail(Exit::Usage, "a redacted copy needs a path of its own");
    if (sameFile(request.casePath, request.outPath))
        return Result<RedactedCase>::fail(Exit::Usage,
            "refusing to write the redacted copy over the case itself (" + request.outPath
                + "): the original is never modified; give the copy another name");
    auto opened = openAndDiscover(request.casePath, request.profile, task);
    if (!opened.ok())
        return Result<RedactedCase>::fail(opened.failure.code, opened.failure.message, opened.failure.diagnostics);
    core::CaseFile& c = *opened.value->file;
    core::Redactor& r = *opened.value->redactor;
    std::vector<core::Diagnostic> errors;
    const std::string jobOption = c.importJobOption(errors);
    if (task.cancelled())
        return Result<RedactedCase>::fail(Exit::Cancelled, "cancelled");

    task.report(40, "Writing the redacted copy");
    core::RedactedCopyRequest copy;
    copy.path = request.outPath;
    copy.threads = request.threads;
    // The copy's import records the fingerprint its own (redacted) bytes import to, as a new case's does.
    copy.fingerprint = [&](const core::BundleInput& input) {
        importers::LoadOptions load;
        load.jobId = jobOption;
        load.threads = request.threads;
        load.cancel = task.cancel;
        return core::evidenceFingerprint(importers::importBundle(input, load));
    };
    copy.catalogHash = storedCatalogHash;
    const auto written = c.writeRedactedCopy(r, copy, errors);
    if (!written)
        return Result<RedactedCase>::fail(Exit::Case, "the redacted copy was not written", errors);
    if (task.cancelled())
        return Result<RedactedCase>::fail(Exit::Cancelled, "cancelled");

    RedactedCase out;
    out.path = request.outPath;
    out.bytes = written->bytes;
    out.files = written->files;
    out.replacements = r.replacements();
    out.changedCatalogFiles = written->changedCatalogFiles;
    if (request.check) {
        task.report(70, "Re-analysing the redacted copy");
        ReproduceRequest rr;
        rr.casePath = request.outPath;
        rr.rules = Rules::Stored;
        rr.currentRulesDir = request.currentRulesDir;
        rr.threads = request.threads;
        rr.readOnly = true;
        Task inner;
        inner.cancel = task.cancel;
        const auto again = reproduceCase(rr, inner);
        if (again.ok()) {
            out.reproduces = again.value->matchesStoredRun;
            if (!again.value->matchesStoredRun)
                out.checkNote = "re-analysing the redacted evidence (with " + again.value->rulesOrigin
                    + ") gives another verdict than the copy's stored run: a replaced value changed what the rules "
                      "read";
        } else if (again.failure.code == Exit::Cancelled) {
            return Result<RedactedCase>::fail(Exit::Cancelled, "cancelled");
        } else {
            out.checkNote = "the copy could not be re-analysed: " + again.failure.text();
        }
    }
    task.report(100, "Done");
    Result<RedactedCase> res;
    res.value = std::move(out);
    return res;
}

std::string replacementSummary(const std::vector<core::Replacement>& replacements)
{
    std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> by; // category → values, occurrences
    std::vector<std::string> order;
    for (const auto& r : replacements) {
        if (r.count == 0)
            continue;
        const std::string name = core::redactionCategoryName(r.category);
        if (!by.count(name))
            order.push_back(name);
        by[name].first += 1;
        by[name].second += r.count;
    }
    std::string out;
    for (const auto& name : order) {
        const auto [values, times] = by[name];
        out += (out.empty() ? "" : ", ") + name + " " + std::to_string(values) + (values == 1 ? " value" : " values")
            + " (" + std::to_string(times) + (times == 1 ? " time)" : " times)");
    }
    return out.empty() ? std::string("nothing to replace") : out;
}

} // namespace faultline::usecases
