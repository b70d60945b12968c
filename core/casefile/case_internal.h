// SPDX-License-Identifier: Apache-2.0
// Internal to core/casefile (not installed, not for other modules): what the case file's translation units share.
// case_file.cpp creates, opens and writes cases; case_evidence.cpp reads the stored evidence back (lines, search,
// re-import); case_encoding.cpp holds the compact encodings and the preparation of a case's evidence.
#pragma once

#include "core/casefile/case_file.h"
#include "core/casefile/sqlite_handle.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace faultline::core {

struct PreparedChunk
{
    std::size_t file = 0;
    std::uint64_t seq = 0;
    std::uint64_t firstByte = 0;
    std::uint64_t firstLine = 0;
    bool startsLine = true;
    std::uint64_t newlines = 0;
    std::string_view raw;
    std::string sha;
    std::string data;
};

struct PreparedObservations
{
    struct Block
    {
        std::uint32_t source = 0;
        NodeId node = kNoNode;
        SourceKind kind = SourceKind::Other;
        std::uint32_t first = 0;
        std::uint32_t count = 0;
        std::int64_t minNs = INT64_MIN;
        std::int64_t maxNs = INT64_MIN;
        std::string data;
    };
    const EvidenceSet* evidence = nullptr;
    std::vector<Block> blocks;
    std::string fingerprint;
};

struct PreparedEvidence
{
    const BundleInput* input = nullptr;
    std::vector<PreparedChunk> chunks;
    std::vector<std::string> fileSha;
};

namespace casefile {

inline constexpr std::size_t kChunkTarget = 128 * 1024;
inline constexpr std::size_t kBlockRecords = 4096;
inline constexpr std::size_t kMaxGrepLine = 4096;

/// The statement that stores a prepared chunk (insertChunk binds it).
inline constexpr const char* kInsertChunkSql =
    "INSERT INTO chunks(file_id, seq, first_byte, first_line, starts_line, newlines, raw_size, sha256, codec, data) "
    "VALUES (?,?,?,?,?,?,?,?,'zstd',?)";

/// Stores chunk `c` of the file whose row id is `fileId` with `insert` (prepared from kInsertChunkSql).
inline void insertChunk(Stmt& insert, std::int64_t fileId, const PreparedChunk& c)
{
    insert.bind(1, fileId)
        .bind(2, c.seq)
        .bind(3, c.firstByte)
        .bind(4, c.firstLine)
        .bind(5, c.startsLine)
        .bind(6, c.newlines)
        .bind(7, c.raw.size())
        .bind(8, c.sha)
        .bindBlob(9, c.data)
        .run();
}

/// A failure inside the case code, already worded as a diagnostic; converted at the public boundary.
struct CaseFailure
{
    Diagnostic diagnostic;
};

[[noreturn]] inline void fail(const std::string& file, std::string code, std::string message)
{
    throw CaseFailure { makeDiagnostic(Severity::Error, std::move(code), std::move(message), file) };
}

/// Compares two verdicts' JSON reports (the fields a reader acts on, each symptom, the event count, and the inputs
/// that changed beside them), with SQLite's JSON functions on `db`. Throws on JSON SQLite cannot read.
RunDiff diffVerdictJson(sqlite3* db, const std::string& from, const std::string& to);
/// How a verdict's JSON report departs from the expectation; empty when it meets it.
std::vector<std::string> expectationMisses(sqlite3* db, const Expectation& e, const std::string& verdictJson);

/// Maps an SQLite failure to a stable code and a message a user can act on.
Diagnostic sqlDiagnostic(const std::string& file, const SqlFailure& e);

/// Runs `body` and turns any failure into a diagnostic in `errors`. Returns false on failure.
template <class F> bool guarded(const std::string& file, std::vector<Diagnostic>& errors, F&& body)
{
    try {
        body();
        return true;
    } catch (const CaseFailure& f) {
        errors.push_back(f.diagnostic);
    } catch (const SqlFailure& e) {
        errors.push_back(sqlDiagnostic(file, e));
    } catch (const std::bad_alloc&) {
        errors.push_back(makeDiagnostic(Severity::Error, "case-memory", "out of memory while reading the case", file));
    } catch (const std::exception& e) {
        errors.push_back(makeDiagnostic(Severity::Error, "case-internal", e.what(), file));
    }
    return false;
}

/// Runs `task(i)` for i in [0, n) on `threads` threads.
template <class F> void parallelFor(std::size_t n, unsigned threads, F&& task)
{
    std::atomic<std::size_t> next { 0 };
    std::exception_ptr error;
    std::mutex errorMutex;
    auto worker = [&] {
        for (std::size_t i = next++; i < n; i = next++) {
            try {
                task(i);
            } catch (...) {
                std::lock_guard lock(errorMutex);
                if (!error)
                    error = std::current_exception();
                next = n;
            }
        }
    };
    std::vector<std::thread> pool;
    const unsigned count = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(n)));
    for (unsigned t = 1; t < count; ++t)
        pool.emplace_back(worker);
    worker();
    for (auto& t : pool)
        t.join();
    if (error)
        std::rethrow_exception(error);
}

std::string compress(std::string_view raw, int level);
/// Decompresses exactly `rawSize` bytes into `out`; anything else is reported as an altered case.
void decompressInto(
    std::string_view data, std::size_t rawSize, char* out, const std::string& file, const std::string& what);
/// Decompresses a frame whose size is recorded in the frame itself, refusing sizes over `cap`.
std::string decompressAtMost(std::string_view data, std::size_t cap, const std::string& file, const std::string& what);
std::string decompress(std::string_view data, std::size_t rawSize, const std::string& file, const std::string& what);
std::uint64_t countNewlines(std::string_view s);
/// Decodes one observation block (see encodeObservationBlock in case_encoding.cpp), appending to `out`.
void decodeObservationBlock(std::string_view raw, std::uint32_t source, const std::string& node, SourceKind kind,
    const std::string& file, std::vector<StoredObservation>& out);
/// Encodes decoded observations back into one compressed block (the inverse of decodeObservationBlock).
std::string encodeStoredObservations(const std::vector<StoredObservation>& block, int level);

/// Now, as RFC 3339 UTC text to the second.
std::string nowUtc();
bool fileExists(const std::string& path);
/// Removes a database file and its -wal, -shm and -journal sidecars.
void removeWithSidecars(const std::string& path);
void fsyncPath(const std::string& path, bool directory);

} // namespace casefile
} // namespace faultline::core
