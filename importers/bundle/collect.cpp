// SPDX-License-Identifier: Apache-2.0
// Collects the raw input of an import: lists the bundle paths (directories walked in path order, archives read
// through libarchive, single files), maps every file and reads the manifest's text. Nothing is parsed here.
#include "importers/bundle_loader.h"
#include "importers/support/archive_reader.h"
#include "importers/support/mapped_file.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace fs = std::filesystem;

namespace faultline::importers {

namespace {

std::int64_t mtimeNs(const fs::path& p)
{
    std::error_code ec;
    const auto t = fs::last_write_time(p, ec);
    if (ec)
        return INT64_MIN;
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::file_clock::to_sys(t).time_since_epoch())
        .count();
}

/// A file on disk as input: mapped, or unreadable with the reason.
core::InputFile mappedInput(const fs::path& file, std::string displayPath)
{
    core::InputFile f;
    f.path = std::move(displayPath);
    f.origin = file.string();
    std::string error;
    if (auto mapped = MappedFile::open(f.origin, error)) {
        f.bytes = mapped->bytes();
        f.owner = std::move(mapped);
    } else {
        f.readable = false;
        f.readError = error;
    }
    f.mtimeNs = mtimeNs(file);
    return f;
}

bool skippedName(const std::string& rel, const std::string& name)
{
    return rel == "expected.yaml" || name.empty() || name.rfind("README", 0) == 0 || name[0] == '.';
}

} // namespace

core::BundleInput collectBundle(const std::vector<std::string>& paths, const LoadOptions& options)
{
    core::BundleInput in;
    in.root = paths.empty() ? std::string() : paths.front();
    auto diag = [&](std::string file, std::string code, std::string message) {
        in.diagnostics.push_back(
            core::makeDiagnostic(core::Severity::Error, std::move(code), std::move(message), std::move(file)));
    };
    auto byPath = [](const core::InputFile& a, const core::InputFile& b) { return a.path < b.path; };
    for (const auto& p : paths) {
        std::error_code ec;
        const fs::path root(p);
        if (fs::is_directory(root, ec)) {
            if (fs::exists(root / "faultline.yaml", ec)) {
                in.hasManifest = true;
                in.manifestPath = "faultline.yaml";
                std::ifstream file(root / "faultline.yaml", std::ios::binary);
                std::ostringstream text;
                text << file.rdbuf();
                in.manifestReadable = static_cast<bool>(file);
                in.manifestText = in.manifestReadable ? text.str() : std::string();
            }
            std::vector<core::InputFile> here;
            for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
                 !ec && it != end; it.increment(ec)) {
                if (!it->is_regular_file(ec))
                    continue;
                const std::string rel = fs::relative(it->path(), root, ec).generic_string();
                if (rel == "faultline.yaml" || skippedName(rel, it->path().filename().string()))
                    continue;
                here.push_back(
                    mappedInput(it->path(), paths.size() > 1 ? (root.filename() / rel).generic_string() : rel));
            }
            if (ec)
                diag(p, "walk-error", "cannot list the bundle directory: " + ec.message());
            std::sort(here.begin(), here.end(), byPath);
            std::move(here.begin(), here.end(), std::back_inserter(in.files));
        } else if (fs::is_regular_file(root, ec) && looksLikeArchive(root.filename().string())) {
            ArchiveRead read = readArchive(p, options.archiveLimits);
            const std::string prefix = paths.size() > 1 ? root.filename().string() + "/" : std::string();
            const std::int64_t archiveTime = mtimeNs(root);
            std::vector<core::InputFile> here;
            for (auto& m : read.members) {
                if (m.path == "faultline.yaml") {
                    in.hasManifest = true;
                    in.manifestPath = prefix + m.path;
                    in.manifestText = *m.content;
                    continue;
                }
                if (skippedName(m.path, fs::path(m.path).filename().string()))
                    continue;
                core::InputFile f;
                f.path = prefix + m.path;
                f.origin = p + "!/" + m.path;
                f.bytes = *m.content;
                f.owner = m.content;
                f.cut = m.cut;
                f.mtimeNs = archiveTime;
                here.push_back(std::move(f));
            }
            std::sort(here.begin(), here.end(), byPath);
            std::move(here.begin(), here.end(), std::back_inserter(in.files));
            if (!read.complete)
                in.archiveStops.push_back({ root.filename().string(), !read.members.empty(),
                    fs::is_regular_file(root, ec) ? fs::file_size(root, ec) : 0, read.stopCode,
                    read.stopReason + "; " + std::to_string(read.members.size()) + " member(s) were read" });
        } else if (fs::is_regular_file(root, ec)) {
            in.files.push_back(mappedInput(root, root.filename().string()));
        } else {
            diag(p, "no-such-path", "bundle path does not exist or is not a file or directory");
        }
    }
    return in;
}

} // namespace faultline::importers
