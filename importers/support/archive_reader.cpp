// SPDX-License-Identifier: Apache-2.0
#include "importers/support/archive_reader.h"

#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

namespace faultline::importers {
namespace {

bool endsWith(const std::string& s, const char* suffix)
{
    const std::string_view x(suffix);
    return s.size() > x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0;
}

struct ArchiveCloser
{
    void operator()(archive* a) const noexcept { archive_read_free(a); }
};

} // namespace

bool looksLikeArchive(const std::string& name)
{
    for (const char* ext : { ".tar", ".tar.gz", ".tgz", ".tar.zst", ".tzst", ".zip", ".gz", ".zst" })
        if (endsWith(name, ext))
            return true;
    return false;
}

ArchiveRead readArchive(const std::string& path, const ArchiveLimits& limits)
{
    ArchiveRead out;
    std::unique_ptr<archive, ArchiveCloser> a(archive_read_new());
    archive_read_support_filter_all(a.get());
    archive_read_support_format_all(a.get());
    archive_read_support_format_raw(a.get()); // a single compressed file (kubelet's 0.log.*.gz)
    if (archive_read_open_filename(a.get(), path.c_str(), 1 << 16) != ARCHIVE_OK) {
        out.complete = false;
        out.stopCode = "archive-corrupt";
        out.stopReason = std::string("cannot open: ") + archive_error_string(a.get());
        return out;
    }
    struct stat st
    { };
    const std::uint64_t compressed = ::stat(path.c_str(), &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
    const std::uint64_t ratioBudget = compressed * limits.maxRatio + (64ull << 20);
    std::uint64_t total = 0;
    archive_entry* entry = nullptr;
    std::vector<char> buf(1 << 16);
    while (true) {
        const int r = archive_read_next_header(a.get(), &entry);
        if (r == ARCHIVE_EOF)
            break;
        if (r == ARCHIVE_FATAL || r == ARCHIVE_RETRY) {
            out.complete = false;
            out.stopCode = "archive-corrupt";
            out.stopReason = std::string("after ") + std::to_string(out.members.size())
                + " member(s): " + archive_error_string(a.get());
            break;
        }
        const bool raw = archive_format(a.get()) == ARCHIVE_FORMAT_RAW;
        if (archive_entry_filetype(entry) != AE_IFREG && !raw)
            continue;
        std::string name = archive_entry_pathname(entry) ? archive_entry_pathname(entry) : "";
        if (raw) {
            // Raw (single compressed file): name it after the archive without its compression suffix.
            name = std::filesystem::path(path).filename().string();
            for (const char* ext : { ".gz", ".zst" })
                if (endsWith(name, ext))
                    name.resize(name.size() - std::string_view(ext).size());
        }
        while (name.rfind("./", 0) == 0)
            name.erase(0, 2);
        auto content = std::make_shared<std::string>();
        bool stop = false;
        while (true) {
            const la_ssize_t n = archive_read_data(a.get(), buf.data(), buf.size());
            if (n == 0)
                break;
            if (n < 0) {
                out.complete = false;
                out.stopCode = "archive-corrupt";
                out.stopReason = "at member " + name + ": " + archive_error_string(a.get());
                stop = true;
                break;
            }
            total += static_cast<std::uint64_t>(n);
            if (total > limits.maxTotalBytes || total > ratioBudget) {
                out.complete = false;
                out.stopCode = "archive-limit";
                out.stopReason = "at member " + name + ": more than "
                    + (total > limits.maxTotalBytes ? std::to_string(limits.maxTotalBytes >> 20) + " MiB uncompressed"
                                                    : std::to_string(limits.maxRatio) + "x the archive's size")
                    + " (a decompression bomb?); the rest of the archive is not read";
                stop = true;
                break;
            }
            content->append(buf.data(), static_cast<std::size_t>(n));
        }
        // A member cut short is kept too, even empty: coverage then names the file the archive lost.
        out.members.push_back({ name, std::move(content), stop });
        if (stop)
            break;
    }
    // One top-level directory ("bundle-48213/...") is the bundle root, as it is for a directory bundle.
    if (!out.members.empty()) {
        const std::string first = out.members.front().path.substr(0, out.members.front().path.find('/') + 1);
        const bool common = first.size() > 1 && first.back() == '/'
            && std::all_of(out.members.begin(), out.members.end(),
                [&](const ArchiveMember& m) { return m.path.rfind(first, 0) == 0; });
        if (common)
            for (auto& m : out.members)
                m.path.erase(0, first.size());
    }
    return out;
}

} // namespace faultline::importers
