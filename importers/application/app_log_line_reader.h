// SPDX-License-Identifier: Apache-2.0
// Reads the lines of an application's output (a rank's stdout and stderr) wherever they were collected: a job log,
// a container log, a Loki stream. One reader per file or chunk; not thread-safe, like the FileParse it fills.
#pragma once

#include "importers/file_parse.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>

namespace faultline::importers {

/// What the labels of a log stream (a Loki stream) say about its records. A record's own content wins: a
/// host it names, its srun label, its [rankN]: prefix.
struct StreamIdentity
{
    std::string_view node; ///< the node the stream's records come from, "" when the labels name none
    /// `node` is the shipping agent's own host (host/hostname/instance), not a pod's node: it is applied after the
    /// rank → node map (see FileParse::agentHostNodes).
    bool agentHost = false;
    std::int32_t rank = -1; ///< a rank/global_rank label
};

/// `line` without a grep file prefix ("rank0.log:" or, with -n, "rank0.log:12:"), which grep over several files
/// puts before each line; the line as it is when it has none.
std::string_view stripGrepFilePrefix(std::string_view line);

/// Application-log line handling shared by job logs and Loki streams: strips launcher prefixes (srun label,
/// [rankN]:, [defaultN]:), finds the record's own time and host, and stores the observation.
class AppLogLineReader
{
public:
    AppLogLineReader(FileParse& fp, const BundleContext& ctx)
        : m_fp(fp)
        , m_ctx(ctx)
    { }
    /// `fallbackNs` (Loki's own timestamp) is used when the line carries no time; `stream` (the stream's labels:
    /// a pod's node, the agent's host, a rank) when the line names no host or rank itself.
    void read(std::string_view line, std::uint64_t lineNo, std::uint64_t offset, std::size_t length,
        std::int64_t fallbackNs = INT64_MIN, const StreamIdentity& stream = {});
    /// Emits what is still grouped (a traceback the input ends in). Call once after the last read().
    void flush();

private:
    struct PendingTraceback
    {
        std::string text;
        int task = -1;
        int rank = -1;
        std::string rayIp;
        std::string streamNode;
        bool streamAgentHost = false;
        std::int32_t streamRank = -1;
        std::uint64_t line = 0;
        std::uint64_t offset = 0;
        std::uint64_t end = 0;
        std::int64_t fallbackNs = INT64_MIN;
        int lines = 1;
    };
    static constexpr int kMaxTracebackLines = 400;

    void addRecord(std::string_view text, int task, int rank, std::string_view rayIp, std::uint64_t lineNo,
        std::uint64_t offset, std::size_t length, std::int64_t fallbackNs, const StreamIdentity& stream);
    /// torchrun's failure summary: "  host      : node-02" then "  rank      : 12 (local_rank: 4)" in one stream
    /// state that rank's node. Returns the node a summary's rank line is about ("" for any other line).
    std::string noteSummaryIdentity(std::string_view text, std::pair<int, int> streamKey);

    FileParse& m_fp;
    const BundleContext& m_ctx;
    std::string m_key; ///< scratch for "host:pid"
    std::map<std::pair<int, int>, PendingTraceback> m_tracebacks; ///< open tracebacks per (srun task, rank)
    std::map<std::pair<int, int>, std::string> m_summaryHost; ///< last torchrun summary "host :" per stream
};

} // namespace faultline::importers
