// SPDX-License-Identifier: Apache-2.0
// The parse phase: every file the scope phase did not read, in parallel. Large line-oriented files are cut into
// chunks at line boundaries so one big job log does not serialise the import; the merge phase puts the chunks back
// together in order.
#include "importers/bundle/formats.h"
#include "importers/bundle/phases.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace faultline::importers {

using core::CoverageStatus;

namespace {

constexpr std::size_t kChunkBytes = 8u << 20;

/// One part to parse: parts[file][part].
struct Task
{
    std::size_t file;
    std::size_t part;
};

/// The parts each file is parsed in, in file order: a line-oriented file larger than kChunkBytes, when there is more
/// than one thread, in up to two chunks per thread; every other file whole. `tasks` lists the parts still to parse,
/// in file order: not the scoping files, which the scope phase parsed.
ParsedFiles cutIntoParts(std::vector<FileParse>& files, const std::vector<const FormatInfo*>& formats, unsigned threads,
    const std::atomic_bool* cancel, std::vector<Task>& tasks)
{
    ParsedFiles parts(files.size());
    for (std::size_t i = 0; i < files.size(); ++i) {
        const bool scoping = formats[i] && formats[i]->scoping;
        const std::string_view bytes = files[i].file ? files[i].file->bytes() : std::string_view();
        std::size_t chunks = 1;
        if (!scoping && formats[i] && formats[i]->lineOriented && threads > 1 && bytes.size() > kChunkBytes)
            chunks = std::min<std::size_t>(threads * 2, bytes.size() / (kChunkBytes / 2));
        std::size_t begin = 0;
        for (std::size_t c = 0; c < chunks; ++c) {
            std::size_t end = c + 1 == chunks ? bytes.size() : bytes.size() * (c + 1) / chunks;
            if (end < bytes.size()) {
                const auto nl = bytes.find('\n', end);
                end = nl == std::string_view::npos ? bytes.size() : nl + 1;
            }
            if (end <= begin && c + 1 < chunks)
                continue;
            FileParse part;
            if (chunks == 1) {
                part = std::move(files[i]);
            } else {
                part.source = files[i].source;
                part.absPath = files[i].absPath;
                part.hostName = files[i].hostName;
                part.zone = files[i].zone;
                part.zoneFromManifest = files[i].zoneFromManifest;
                part.bootNs = files[i].bootNs;
                part.labels = files[i].labels;
                part.file = files[i].file;
                part.source.warnings.clear();
            }
            part.data = bytes.substr(begin, end - begin);
            part.baseOffset = begin;
            part.lastChunk = end >= bytes.size();
            part.cancel = cancel;
            parts[i].push_back(std::move(part));
            if (!scoping)
                tasks.push_back({ i, parts[i].size() - 1 });
            begin = end;
        }
        if (chunks > 1) // warnings found while choosing the format stay with the first chunk
            parts[i].front().source.warnings = files[i].source.warnings;
    }
    return parts;
}

/// Parses one part; `parsed` says whether it was read before the import was cancelled. A part without a format
/// (unreadable, a nested archive) or already failed is left as it is.
void parsePart(FileParse& part, const FormatInfo* format, const BundleContext& ctx, const std::atomic_bool* cancel)
{
    if (!format || part.source.status == CoverageStatus::Error)
        return;
    runParser(*format, part, ctx);
    part.parsed = !(cancel && cancel->load());
}

/// Runs the tasks on `threads` threads, the calling one included, each taking the next task in order as it frees
/// up; no task starts once the import is cancelled. Progress after each task the calling thread ran, and once at
/// the end.
void runTasks(ParsedFiles& parts, const std::vector<Task>& tasks, const std::vector<const FormatInfo*>& formats,
    const BundleContext& ctx, const LoadOptions& options, unsigned threads)
{
    std::atomic<std::size_t> next { 0 };
    std::atomic<std::size_t> finished { 0 };
    auto worker = [&](bool callingThread) {
        for (std::size_t k; (k = next.fetch_add(1)) < tasks.size();) {
            if (options.cancel && options.cancel->load())
                return;
            parsePart(parts[tasks[k].file][tasks[k].part], formats[tasks[k].file], ctx, options.cancel);
            const std::size_t n = finished.fetch_add(1) + 1;
            if (callingThread && options.progress) {
                const core::Source& src = parts[tasks[k].file][tasks[k].part].source;
                options.progress(n, tasks.size(), src.path, src.format);
            }
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < std::min<std::size_t>(threads, tasks.size()); ++t)
        pool.emplace_back(worker, false);
    worker(true);
    for (auto& t : pool)
        t.join();
    if (options.progress)
        options.progress(tasks.size(), tasks.size(), {}, {});
}

} // namespace

ParsedFiles parseFiles(std::vector<FileParse> files, const std::vector<const FormatInfo*>& formats,
    const BundleContext& ctx, const LoadOptions& options)
{
    const unsigned threads = std::max(1u, options.threads ? options.threads : std::thread::hardware_concurrency());
    std::vector<Task> tasks;
    ParsedFiles parts = cutIntoParts(files, formats, threads, options.cancel, tasks);
    runTasks(parts, tasks, formats, ctx, options, threads);
    return parts;
}

} // namespace faultline::importers
