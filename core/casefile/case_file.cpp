// SPDX-License-Identifier: Apache-2.0
#include "core/casefile/case_file.h"

#include "core/casefile/case_schema.h"
#include "core/casefile/sqlite_handle.h"
#include "core/report/import_report.h"
#include "core/report/verdict_report.h"
#include "core/rules/rule_catalog.h"
#include "core/time/civil_time.h"
#include "core/util/json_writer.h"
#include "core/util/sha256.h"
#include "core/version.h"

#include <fcntl.h>
#include <re2/re2.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <tuple>

namespace fs = std::filesystem;

namespace faultline::core {

using casefile::exec;
using casefile::SqlFailure;
using casefile::Stmt;

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

namespace {

constexpr std::size_t kChunkTarget = 64 * 1024;
constexpr std::size_t kBlockRecords = 4096;
constexpr std::size_t kMaxGrepLine = 4096;

/// A failure inside the case code, already worded as a diagnostic; converted at the public boundary.
struct CaseFailure
{
    Diagnostic diagnostic;
};

[[noreturn]] void fail(const std::string& file, std::string code, std::string message)
{
    throw CaseFailure { makeDiagnostic(Severity::Error, std::move(code), std::move(message), file) };
}

/// Maps an SQLite failure to a stable code and a message a user can act on.
Diagnostic sqlDiagnostic(const std::string& file, const SqlFailure& e)
{
    switch (e.code & 0xff) {
    case SQLITE_CORRUPT:
        return makeDiagnostic(Severity::Error, "case-corrupt",
            std::string("the case file is damaged (") + e.what() + "); restore it from a copy", file);
    case SQLITE_NOTADB:
        return makeDiagnostic(
            Severity::Error, "case-not-sqlite", "not an SQLite database: " + std::string(e.what()), file);
    case SQLITE_READONLY:
        return makeDiagnostic(
            Severity::Error, "case-read-only", std::string("the case is read-only: ") + e.what(), file);
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return makeDiagnostic(
            Severity::Error, "case-busy", std::string("another process is writing the case: ") + e.what(), file);
    case SQLITE_FULL:
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
        return makeDiagnostic(
            Severity::Error, "case-io", std::string("cannot read or write the case: ") + e.what(), file);
    default:
        return makeDiagnostic(Severity::Error, "case-sqlite", std::string("SQLite error: ") + e.what(), file);
    }
}

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

std::string nowUtc()
{
    const auto ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    return formatUtc(ns - ns % kNsPerSec);
}

std::string defaultAuthor(const std::string& given)
{
    if (!given.empty())
        return given;
    for (const char* var : { "FAULTLINE_AUTHOR", "USER", "LOGNAME" })
        if (const char* v = std::getenv(var); v && *v)
            return v;
    return "unknown";
}

// --- compact encodings ---------------------------------------------------------------------------------------

std::uint64_t zigzag(std::int64_t v)
{
    return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}

std::int64_t unzigzag(std::uint64_t v)
{
    return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

class VarintReader
{
public:
    VarintReader(std::string_view data, const std::string& file)
        : m_p(data.data())
        , m_end(data.data() + data.size())
        , m_file(file)
    { }
    std::uint64_t next()
    {
        std::uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (m_p == m_end)
                fail(m_file, "case-corrupt", "an observation block ends early");
            const auto b = static_cast<unsigned char>(*m_p++);
            v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
            if (!(b & 0x80))
                return v;
        }
        fail(m_file, "case-corrupt", "an observation block holds a malformed number");
    }

private:
    const char* m_p;
    const char* m_end;
    const std::string& m_file;
};

std::string compress(std::string_view raw, int level)
{
    // One compression context per thread: creating one per chunk costs more than compressing 64 KiB.
    thread_local std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> ctx(ZSTD_createCCtx(), &ZSTD_freeCCtx);
    // Compress into a reused scratch buffer and keep only the compressed bytes: fresh bound-sized buffers per
    // chunk would touch (and fault in) as much memory as the evidence itself.
    thread_local std::vector<char> scratch;
    scratch.resize(std::max(scratch.size(), ZSTD_compressBound(raw.size())));
    const std::size_t n = ZSTD_compressCCtx(ctx.get(), scratch.data(), scratch.size(), raw.data(), raw.size(), level);
    if (ZSTD_isError(n))
        throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(n));
    return std::string(scratch.data(), n);
}

void decompressInto(
    std::string_view data, std::size_t rawSize, char* out, const std::string& file, const std::string& what)
{
    thread_local std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> ctx(ZSTD_createDCtx(), &ZSTD_freeDCtx);
    const std::size_t n = ZSTD_decompressDCtx(ctx.get(), out, rawSize, data.data(), data.size());
    if (ZSTD_isError(n) || n != rawSize)
        fail(file, "case-altered",
            what + " does not decompress to its recorded size (" + (ZSTD_isError(n) ? ZSTD_getErrorName(n) : "size")
                + "): the case was altered (tampering or corruption)");
}

/// Decompresses a frame whose size is recorded in the frame itself, refusing sizes over `cap`.
std::string decompressAtMost(std::string_view data, std::size_t cap, const std::string& file, const std::string& what)
{
    const unsigned long long size = ZSTD_getFrameContentSize(data.data(), data.size());
    if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > cap)
        fail(file, "case-altered",
            what + " is not a valid compressed block: the case was altered (tampering or corruption)");
    std::string out(static_cast<std::size_t>(size), '\0');
    decompressInto(data, out.size(), out.data(), file, what);
    return out;
}

std::string decompress(std::string_view data, std::size_t rawSize, const std::string& file, const std::string& what)
{
    std::string out(rawSize, '\0');
    decompressInto(data, rawSize, out.data(), file, what);
    return out;
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

std::uint64_t countNewlines(std::string_view s)
{
    std::uint64_t n = 0;
    const char* p = s.data();
    const char* end = p + s.size();
    while ((p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)))) != nullptr) {
        ++n;
        ++p;
    }
    return n;
}

/// Cuts a file into chunks after a newline near kChunkTarget bytes (inside a longer line when there is none).
void planChunks(std::size_t file, std::string_view bytes, std::vector<PreparedChunk>& out)
{
    std::uint64_t line = 1;
    std::size_t pos = 0;
    std::uint64_t seq = 0;
    while (pos < bytes.size()) {
        std::size_t end = std::min(bytes.size(), pos + kChunkTarget);
        if (end < bytes.size()) {
            const auto nl = bytes.substr(pos, end - pos).rfind('\n');
            if (nl != std::string_view::npos)
                end = pos + nl + 1;
        }
        PreparedChunk c;
        c.file = file;
        c.seq = seq++;
        c.firstByte = pos;
        c.firstLine = line;
        c.startsLine = pos == 0 || bytes[pos - 1] == '\n';
        c.raw = bytes.substr(pos, end - pos);
        c.newlines = countNewlines(c.raw);
        line += c.newlines;
        out.push_back(std::move(c));
        pos = end;
    }
}

std::string kindText(SourceKind k)
{
    return sourceKindName(k);
}

std::string scopeJson(const Scope& scope, const EvidenceSet& evidence)
{
    JsonWriter w(false);
    w.beginObject();
    w.field("scheduler", scope.scheduler);
    w.field("job_id", scope.jobId);
    w.field("job_name", scope.jobName);
    w.field("state", scope.state);
    w.key("nodes").beginArray();
    for (NodeId n : scope.nodes)
        w.value(evidence.nodeName(n));
    w.endArray();
    w.field("ranks_per_node", scope.ranksPerNode);
    w.field("start", formatUtc(scope.startNs));
    w.field("end", formatUtc(scope.endNs));
    w.field("origin", scope.origin);
    w.field("window_zone_assumed", scope.windowZoneAssumed);
    w.endObject();
    return w.str();
}

/// Encodes one block of observations as varint columns (see schema.sql).
/// Appends varints to a buffer sized for the worst case (10 bytes per value) without per-byte checks.
class VarintWriter
{
public:
    explicit VarintWriter(std::vector<char>& buf, std::size_t values)
        : m_buf(buf)
    {
        m_buf.resize(std::max(m_buf.size(), values * 10 + 10));
        m_p = m_buf.data();
    }
    void put(std::uint64_t v)
    {
        while (v >= 0x80) {
            *m_p++ = static_cast<char>((v & 0x7f) | 0x80);
            v >>= 7;
        }
        *m_p++ = static_cast<char>(v);
    }
    std::string_view bytes() const { return { m_buf.data(), static_cast<std::size_t>(m_p - m_buf.data()) }; }

private:
    std::vector<char>& m_buf;
    char* m_p;
};

/// Encodes one block of observations as varint columns (see schema.sql) and compresses it. The records are read
/// once (one pass over memory), each field going to its own column buffer.
std::string encodeObservationBlock(const EvidenceSet& ev, const std::vector<std::uint32_t>& idx, int level)
{
    constexpr int kColumns = 9;
    thread_local std::vector<char> columnBuf[kColumns];
    thread_local std::vector<char> joined;
    std::vector<VarintWriter> col;
    col.reserve(kColumns);
    for (auto& b : columnBuf)
        col.emplace_back(b, idx.size());
    std::uint64_t prevIndex = 0;
    std::int64_t prevLine = 0;
    std::int64_t prevOffset = 0;
    std::int64_t prevTime = 0;
    for (std::uint32_t i : idx) {
        const Observation& o = ev.observations[i];
        col[0].put(i - prevIndex);
        prevIndex = i;
        const auto line = static_cast<std::int64_t>(o.where.line);
        col[1].put(zigzag(line - prevLine));
        prevLine = line;
        const auto off = static_cast<std::int64_t>(o.where.byteOffset);
        col[2].put(zigzag(off - prevOffset));
        prevOffset = off;
        col[3].put(o.where.length);
        if (o.timeNs == INT64_MIN) {
            col[4].put(0);
        } else {
            col[4].put(zigzag(o.timeNs - prevTime) + 1);
            prevTime = o.timeNs;
        }
        col[5].put(static_cast<std::uint64_t>(std::max<std::int64_t>(0, o.precisionNs)));
        col[6].put(zigzag(o.rank));
        col[7].put(zigzag(o.gpu));
        col[8].put(static_cast<std::uint64_t>(o.quality) | (o.outOfScope ? 0x10u : 0u));
    }
    std::size_t size = 0;
    {
        VarintWriter head(joined, 1);
        head.put(idx.size());
        size = head.bytes().size();
    }
    std::size_t at = size;
    for (const auto& c : col)
        size += c.bytes().size();
    joined.resize(std::max(joined.size(), size));
    for (const auto& c : col) {
        std::memcpy(joined.data() + at, c.bytes().data(), c.bytes().size());
        at += c.bytes().size();
    }
    return compress(std::string_view(joined.data(), size), level);
}

void decodeObservationBlock(std::string_view raw, std::uint32_t source, const std::string& node, SourceKind kind,
    const std::string& file, std::vector<StoredObservation>& out)
{
    VarintReader r(raw, file);
    const std::uint64_t n = r.next();
    if (n > kBlockRecords)
        fail(file, "case-corrupt", "an observation block claims " + std::to_string(n) + " records");
    const std::size_t base = out.size();
    out.resize(base + n);
    std::uint64_t index = 0;
    std::int64_t line = 0;
    std::int64_t offset = 0;
    std::int64_t time = 0;
    for (std::size_t k = 0; k < n; ++k) {
        auto& o = out[base + k];
        index += r.next();
        o.index = static_cast<std::uint32_t>(index);
        o.source = source;
        o.node = node;
        o.kind = kind;
    }
    for (std::size_t k = 0; k < n; ++k)
        out[base + k].line = static_cast<std::uint64_t>(line += unzigzag(r.next()));
    for (std::size_t k = 0; k < n; ++k)
        out[base + k].byteOffset = static_cast<std::uint64_t>(offset += unzigzag(r.next()));
    for (std::size_t k = 0; k < n; ++k)
        out[base + k].length = static_cast<std::uint32_t>(r.next());
    for (std::size_t k = 0; k < n; ++k) {
        const std::uint64_t v = r.next();
        out[base + k].timeNs = v == 0 ? INT64_MIN : (time += unzigzag(v - 1));
    }
    for (std::size_t k = 0; k < n; ++k)
        out[base + k].precisionNs = static_cast<std::int64_t>(r.next());
    for (std::size_t k = 0; k < n; ++k)
        out[base + k].rank = static_cast<std::int32_t>(unzigzag(r.next()));
    for (std::size_t k = 0; k < n; ++k)
        out[base + k].gpu = static_cast<std::int32_t>(unzigzag(r.next()));
    for (std::size_t k = 0; k < n; ++k) {
        const std::uint64_t v = r.next();
        out[base + k].quality = static_cast<TimeQuality>(std::min<std::uint64_t>(v & 0x0f, 3));
        out[base + k].outOfScope = (v & 0x10) != 0;
    }
}

const char* severityText(Severity s)
{
    return severityName(s);
}

Severity severityFrom(const std::string& s)
{
    return s == "info" ? Severity::Info : s == "warning" ? Severity::Warning : Severity::Error;
}

void insertDiagnostics(sqlite3* db, std::int64_t importId, const char* phase, const std::vector<Diagnostic>& diags)
{
    Stmt st(db,
        "INSERT INTO import_diagnostics(import_id, phase, severity, code, message, file, line) "
        "VALUES (?,?,?,?,?,?,?)");
    for (const auto& d : diags)
        st.bind(1, importId)
            .bind(2, phase)
            .bind(3, severityText(d.severity))
            .bind(4, d.code)
            .bind(5, d.message)
            .bind(6, d.where.file)
            .bind(7, d.where.line)
            .run();
}

std::string fieldsJson(const Event& e)
{
    JsonWriter w(false);
    w.beginObject();
    for (const auto& [k, v] : e.fields)
        w.field(k, v);
    w.endObject();
    return w.str();
}

/// Inserts a run and its events inside the caller's transaction. Returns the run id.
std::int64_t insertRun(sqlite3* db, const Verdict& v, const EvidenceSet& ev, const RunContext& ctx, const char* kind,
    const CaseCheckpoint& checkpoint)
{
    Stmt run(db,
        "INSERT INTO runs(created_at, kind, author, catalog_name, catalog_version, catalog_hash, rules_dir, "
        "engine_version, importer_version, fingerprint, scope_json, outcome, domain, subdomain, summary, "
        "confidence, cause_event, verdict_json, verdict_text, trace_json, duration_ms, window_from_ns, "
        "window_to_ns) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    run.bind(1, nowUtc())
        .bind(2, kind)
        .bind(3, defaultAuthor(ctx.author))
        .bind(4, v.catalogName)
        .bind(5, v.catalogVersion)
        .bind(6, v.catalogHash)
        .bind(7, ctx.rulesDir)
        .bind(8, v.engineVersion)
        .bind(9, ctx.importerVersion.empty() ? std::string(kVersion) : ctx.importerVersion)
        .bind(10, ctx.fingerprint)
        .bind(11, scopeJson(v.scope, ev))
        .bind(12, v.outcome)
        .bind(13, v.domain)
        .bind(14, v.subdomain)
        .bind(15, v.summary)
        .bind(16, v.confidence);
    if (v.hasCause)
        run.bind(17, static_cast<std::uint64_t>(v.cause));
    else
        run.bindNull(17);
    run.bind(18, verdictToJson(v, ev)).bind(19, verdictToText(v, ev)).bind(20, ruleTraceJson(v, ctx.catalog));
    run.bind(21, ctx.durationMs).bindTime(22, ctx.windowFromNs).bindTime(23, ctx.windowToNs).run();
    const std::int64_t id = sqlite3_last_insert_rowid(db);
    if (checkpoint)
        checkpoint("run");

    Stmt evs(db,
        "INSERT INTO events(run_id, idx, time_ns, precision_ns, quality, node, rank, gpu, type, rule_id, "
        "role, domain, subdomain, severity, label, source_idx, line, byte_offset, length, cause_of, "
        "relation, via, fields_json) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    for (std::size_t i = 0; i < v.events.size(); ++i) {
        const Event& e = v.events[i];
        const Provenance p = e.provenance.empty() ? Provenance {} : e.provenance.front();
        evs.bind(1, id)
            .bind(2, static_cast<std::uint64_t>(i))
            .bindTime(3, e.timeNs)
            .bind(4, e.precisionNs)
            .bind(5, timeQualityName(e.quality))
            .bindOptText(6, e.node == kNoNode ? std::string() : v.nodes.name(e.node));
        if (e.rank >= 0)
            evs.bind(7, e.rank);
        else
            evs.bindNull(7);
        evs.bind(8, e.gpu)
            .bind(9, e.type)
            .bind(10, e.ruleId)
            .bind(11, roleName(e.role))
            .bind(12, e.domain)
            .bind(13, e.subdomain)
            .bind(14, e.severity)
            .bind(15, e.label)
            .bind(16, p.source)
            .bind(17, p.line)
            .bind(18, p.byteOffset)
            .bind(19, p.length);
        if (i < v.causeOf.size() && v.causeOf[i] >= 0)
            evs.bind(20, v.causeOf[i]);
        else
            evs.bindNull(20);
        evs.bind(21, i < v.linkRelation.size() ? v.linkRelation[i] : std::string())
            .bind(22, i < v.linkVia.size() ? v.linkVia[i] : std::string())
            .bind(23, fieldsJson(e))
            .run();
        if (checkpoint && i % 64 == 63)
            checkpoint("events");
    }
    return id;
}

bool fileExists(const std::string& p)
{
    struct stat st
    { };
    return ::stat(p.c_str(), &st) == 0;
}

void removeWithSidecars(const std::string& p)
{
    for (const char* suffix : { "", "-wal", "-shm", "-journal" })
        ::unlink((p + suffix).c_str());
}

void fsyncPath(const std::string& p, bool directory)
{
    const int fd = ::open(p.c_str(), (directory ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

/// Checks the SQLite header before SQLite sees the file: a file that is empty, not SQLite, or shorter than its
/// header says is reported as such, without opening it.
void checkHeader(const std::string& path)
{
    struct stat st
    { };
    if (::stat(path.c_str(), &st) != 0)
        fail(path, "case-not-found", std::string("cannot open the case: ") + std::strerror(errno));
    if (!S_ISREG(st.st_mode))
        fail(path, "case-not-found", "the case path is not a regular file");
    std::ifstream in(path, std::ios::binary);
    char h[100] = {};
    in.read(h, sizeof h);
    const auto got = static_cast<std::size_t>(in.gcount());
    if (!in && got == 0 && st.st_size > 0)
        fail(path, "case-io", "cannot read the case file");
    if (got < 16 || std::memcmp(h, "SQLite format 3", 16) != 0)
        fail(path, "case-not-sqlite",
            st.st_size == 0 ? std::string("the file is empty: it is not a Faultline case")
                            : std::string("the file is not an SQLite database, so not a Faultline case"));
    if (got < 100)
        fail(path, "case-truncated",
            "the file is " + std::to_string(st.st_size) + " bytes, shorter than an SQLite header: it was cut short");
    auto be32 = [&](int at) {
        return (static_cast<std::uint32_t>(static_cast<unsigned char>(h[at])) << 24)
            | (static_cast<std::uint32_t>(static_cast<unsigned char>(h[at + 1])) << 16)
            | (static_cast<std::uint32_t>(static_cast<unsigned char>(h[at + 2])) << 8)
            | static_cast<std::uint32_t>(static_cast<unsigned char>(h[at + 3]));
    };
    std::uint32_t pageSize =
        (static_cast<std::uint32_t>(static_cast<unsigned char>(h[16])) << 8) | static_cast<unsigned char>(h[17]);
    if (pageSize == 1)
        pageSize = 65536;
    const std::uint32_t pages = be32(28);
    const bool countValid = be32(24) == be32(92) && pages > 0;
    if (countValid && static_cast<std::uint64_t>(pageSize) * pages > static_cast<std::uint64_t>(st.st_size)
        && !fileExists(path + "-wal"))
        fail(path, "case-truncated",
            "the file is " + std::to_string(st.st_size) + " bytes but its header records "
                + std::to_string(static_cast<std::uint64_t>(pageSize) * pages) + " (" + std::to_string(pages)
                + " pages of " + std::to_string(pageSize) + "): it was cut short; restore it from a copy");
}

std::int64_t pragmaInt(sqlite3* db, const char* sql)
{
    Stmt st(db, sql);
    return st.step() ? st.i64(0) : 0;
}

/// The schema's section for `version` (schema.sql is cut by "-- == version N ==" lines).
std::string schemaSection(int version)
{
    const std::string_view sql = casefile::kSchemaSql;
    const std::string marker = "-- == version " + std::to_string(version) + " ==";
    const auto begin = sql.find(marker);
    if (begin == std::string_view::npos)
        throw std::logic_error("schema.sql has no section for version " + std::to_string(version));
    const auto end = sql.find("-- == version ", begin + marker.size());
    return std::string(sql.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin));
}

} // namespace

// --- fingerprint and trace -----------------------------------------------------------------------------------

std::string evidenceFingerprint(const EvidenceSet& evidence)
{
    // Ranges of records are hashed on every core, then the range digests and the node names are hashed together.
    struct Packed
    {
        std::uint64_t line, offset, time, precision;
        std::uint32_t source, length, node;
        std::uint8_t kind, quality, outOfScope, pad;
    };
    static_assert(sizeof(Packed) == 48);
    constexpr std::size_t kRange = 1 << 16;
    const std::size_t ranges = (evidence.observations.size() + kRange - 1) / kRange;
    std::vector<std::string> digests(ranges);
    parallelFor(ranges, std::max(1u, std::thread::hardware_concurrency()), [&](std::size_t r) {
        std::vector<Packed> buf;
        const std::size_t end = std::min(evidence.observations.size(), (r + 1) * kRange);
        buf.reserve(end - r * kRange);
        for (std::size_t i = r * kRange; i < end; ++i) {
            const auto& o = evidence.observations[i];
            Packed p {};
            p.line = o.where.line;
            p.offset = o.where.byteOffset;
            p.time = static_cast<std::uint64_t>(o.timeNs);
            p.precision = static_cast<std::uint64_t>(o.precisionNs);
            p.source = o.where.source;
            p.length = o.where.length;
            p.node = o.node;
            p.kind = static_cast<std::uint8_t>(o.kind);
            p.quality = static_cast<std::uint8_t>(o.quality);
            p.outOfScope = o.outOfScope ? 1 : 0;
            buf.push_back(p);
        }
        digests[r] =
            Sha256::hex(std::string_view(reinterpret_cast<const char*>(buf.data()), buf.size() * sizeof(Packed)));
    });
    Sha256 h;
    for (std::size_t n = 0; n < evidence.nodes.size(); ++n) {
        h.update(evidence.nodes.name(static_cast<NodeId>(n)));
        h.update(std::string_view("\0", 1));
    }
    for (const auto& d : digests)
        h.update(d);
    for (const auto& m : evidence.metrics) {
        h.update(m.name);
        h.update(std::to_string(m.samples.size()));
    }
    return h.hexDigest();
}

std::string ruleTraceJson(const Verdict& v, const RuleCatalog* catalog)
{
    struct RuleHits
    {
        std::size_t events = 0;
        std::set<std::string> nodes;
        std::int64_t firstNs = INT64_MIN;
    };
    std::map<std::string, RuleHits> hits;
    for (const auto& e : v.events) {
        auto& h = hits[e.ruleId];
        ++h.events;
        if (e.node != kNoNode)
            h.nodes.insert(v.nodes.name(e.node));
        if (e.timeNs != INT64_MIN && (h.firstNs == INT64_MIN || e.timeNs < h.firstNs))
            h.firstNs = e.timeNs;
    }
    std::map<std::string, std::size_t> links;
    for (const auto& via : v.linkVia)
        if (!via.empty())
            ++links[via];
    std::vector<std::string> ruleIds;
    if (catalog) {
        for (const auto& r : catalog->extractors())
            ruleIds.push_back(r.id);
        for (const auto& r : catalog->metricRules())
            ruleIds.push_back(r.id);
    }
    for (const auto& [id, h] : hits)
        if (std::find(ruleIds.begin(), ruleIds.end(), id) == ruleIds.end())
            ruleIds.push_back(id);
    std::sort(ruleIds.begin(), ruleIds.end());
    JsonWriter w(false);
    w.beginObject();
    w.key("rules").beginArray();
    for (const auto& id : ruleIds) {
        const auto it = hits.find(id);
        w.beginObject().field("id", id).field("events", it == hits.end() ? std::uint64_t(0) : it->second.events);
        if (it != hits.end()) {
            w.key("nodes").beginArray();
            for (const auto& n : it->second.nodes)
                w.value(n);
            w.endArray();
            w.field("first", formatUtc(it->second.firstNs));
        }
        w.endObject();
    }
    w.endArray();
    w.key("correlators").beginArray();
    if (catalog)
        for (const auto& c : catalog->correlators()) {
            const auto it = links.find(c.id);
            w.beginObject().field("id", c.id).field("links", it == links.end() ? std::uint64_t(0) : it->second);
            w.endObject();
        }
    w.endArray();
    w.field("cause_rule", v.hasCause ? v.events[v.cause].ruleId : std::string());
    w.field("events", static_cast<std::uint64_t>(v.events.size()));
    w.field("filtered_events", static_cast<std::uint64_t>(v.filteredEvents));
    w.endObject();
    return w.str();
}

std::shared_ptr<const PreparedEvidence> prepareCaseEvidence(const BundleInput& input, unsigned threads, int zstdLevel)
{
    auto p = std::make_shared<PreparedEvidence>();
    p->input = &input;
    const auto& files = input.files;
    for (std::size_t f = 0; f < files.size(); ++f)
        if (files[f].readable)
            planChunks(f, files[f].bytes, p->chunks);
    p->fileSha.resize(files.size());
    threads = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
    parallelFor(files.size() + p->chunks.size(), threads, [&](std::size_t i) {
        if (i < files.size()) {
            if (files[i].readable)
                p->fileSha[i] = Sha256::hex(files[i].bytes);
            return;
        }
        PreparedChunk& c = p->chunks[i - files.size()];
        c.data = compress(c.raw, zstdLevel);
        c.sha = Sha256::hex(c.data);
    });
    return p;
}

std::shared_ptr<const PreparedObservations> prepareCaseObservations(
    const EvidenceSet& ev, unsigned threads, int zstdLevel)
{
    auto p = std::make_shared<PreparedObservations>();
    p->evidence = &ev;
    threads = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
    // Blocks per source, split by (node, kind), in file order.
    std::vector<std::vector<std::uint32_t>> members;
    std::map<std::tuple<std::uint32_t, NodeId, SourceKind>, std::size_t> open;
    std::size_t current = SIZE_MAX; // the block of the previous record: most records continue it
    for (std::uint32_t i = 0; i < ev.observations.size(); ++i) {
        const auto& o = ev.observations[i];
        if (current != SIZE_MAX) {
            const auto& b = p->blocks[current];
            if (b.source == o.where.source && b.node == o.node && b.kind == o.kind
                && members[current].size() < kBlockRecords) {
                members[current].push_back(i);
                continue;
            }
        }
        const auto key = std::make_tuple(o.where.source, o.node, o.kind);
        auto it = open.find(key);
        if (it == open.end() || members[it->second].size() >= kBlockRecords) {
            PreparedObservations::Block b;
            b.source = o.where.source;
            b.node = o.node;
            b.kind = o.kind;
            b.first = i;
            p->blocks.push_back(std::move(b));
            members.emplace_back().reserve(kBlockRecords);
            it = open.insert_or_assign(key, p->blocks.size() - 1).first;
        }
        current = it->second;
        members[current].push_back(i);
    }
    parallelFor(p->blocks.size() + 1, threads, [&](std::size_t b) {
        if (b == p->blocks.size()) {
            p->fingerprint = evidenceFingerprint(ev);
            return;
        }
        auto& blk = p->blocks[b];
        std::int64_t lo = INT64_MAX;
        std::int64_t hi = INT64_MIN;
        for (std::uint32_t i : members[b])
            if (const auto t = ev.observations[i].timeNs; t != INT64_MIN) {
                lo = std::min(lo, t);
                hi = std::max(hi, t + ev.observations[i].precisionNs);
            }
        blk.count = static_cast<std::uint32_t>(members[b].size());
        blk.minNs = hi == INT64_MIN ? INT64_MIN : lo;
        blk.maxNs = hi;
        blk.data = encodeObservationBlock(ev, members[b], zstdLevel);
    });
    return p;
}

// --- create ----------------------------------------------------------------------------------------------------

CaseFile::~CaseFile()
{
    if (m_db)
        sqlite3_close_v2(m_db);
}

std::unique_ptr<CaseFile> CaseFile::create(
    const std::string& path, const CaseCreateRequest& req, std::vector<Diagnostic>& errors)
{
    if (!req.input || !req.evidence || !req.verdict) {
        errors.push_back(makeDiagnostic(Severity::Error, "case-internal", "incomplete case request", path));
        return nullptr;
    }
    if (fileExists(path)) {
        errors.push_back(makeDiagnostic(Severity::Error, "case-exists",
            "a file already exists there; a case is never overwritten: choose another name, or add a run to it "
            "with 'faultline-cli rerun'",
            path));
        return nullptr;
    }
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    const std::string tmp =
        (dir / ("." + target.filename().string() + ".partial-" + std::to_string(::getpid()))).string();
    removeWithSidecars(tmp);
    const int fd = ::open(tmp.c_str(), O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0) {
        errors.push_back(makeDiagnostic(
            Severity::Error, "case-io", std::string("cannot create the case file: ") + std::strerror(errno), path));
        return nullptr;
    }
    ::close(fd);

    sqlite3* db = nullptr;
    const bool ok = guarded(path, errors, [&] {
        const int rc = sqlite3_open_v2(tmp.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
        if (rc != SQLITE_OK)
            casefile::throwSql(db, rc, "open");
        // The new case is a private temporary file until the rename: no journal is needed while it is written
        // (a failure deletes it), and one fsync before the rename makes it durable.
        exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;");
        const auto& cp = req.checkpoint;
        auto step = [&](std::string_view s) {
            if (cp)
                cp(s);
        };
        { // statements are finalised at the end of this block, before the connection closes
            exec(db, "BEGIN");
            exec(db, (std::string("PRAGMA application_id = ") + std::to_string(kCaseApplicationId) + ";").c_str());
            exec(db, (std::string("PRAGMA user_version = ") + std::to_string(kCaseSchemaVersion) + ";").c_str());
            for (int v = 1; v <= kCaseSchemaVersion; ++v)
                exec(db, schemaSection(v).c_str());
            {
                Stmt meta(db, "INSERT INTO meta(key, value) VALUES (?, ?)");
                const std::pair<const char*, std::string> rows[] = { { "format", "faultline-case" },
                    { "created_at", nowUtc() }, { "created_by", std::string("faultline ") + kVersion },
                    { "bundle_root", req.input->root }, { "read_compat_version", "1" },
                    { "chunk_target", std::to_string(kChunkTarget) }, { "chunk_hash", "stored" } };
                for (const auto& [k, v] : rows)
                    meta.bind(1, k).bind(2, v).run();
            }
            step("meta");

            // Evidence bytes: chunked, hashed and compressed on every core (unless the caller did it already).
            const auto& files = req.input->files;
            const unsigned threads = req.threads ? req.threads : std::max(1u, std::thread::hardware_concurrency());
            const std::shared_ptr<const PreparedEvidence> prepared = req.prepared && req.prepared->input == req.input
                ? req.prepared
                : prepareCaseEvidence(*req.input, threads, req.zstdLevel);
            const auto& chunks = prepared->chunks;
            const auto& fileSha = prepared->fileSha;
            step("compressed");
            {
                std::vector<std::uint64_t> chunkCount(files.size(), 0);
                std::vector<std::uint64_t> lineCount(files.size(), 0);
                for (const auto& c : chunks) {
                    ++chunkCount[c.file];
                    lineCount[c.file] += c.newlines;
                }
                Stmt st(db,
                    "INSERT INTO files(id, path, origin, size, sha256, mtime_ns, readable, read_error, cut, "
                    "line_count, chunk_count) VALUES (?,?,?,?,?,?,?,?,?,?,?)");
                for (std::size_t f = 0; f < files.size(); ++f) {
                    const auto& in = files[f];
                    const bool partialLine = !in.bytes.empty() && in.bytes.back() != '\n';
                    st.bind(1, static_cast<std::uint64_t>(f))
                        .bind(2, in.path)
                        .bind(3, in.origin)
                        .bind(4, in.bytes.size());
                    if (in.readable)
                        st.bind(5, fileSha[f]);
                    else
                        st.bindNull(5);
                    st.bindTime(6, in.mtimeNs)
                        .bind(7, in.readable)
                        .bind(8, in.readError)
                        .bind(9, in.cut)
                        .bind(10, lineCount[f] + (partialLine ? 1 : 0))
                        .bind(11, chunkCount[f])
                        .run();
                }
                Stmt ch(db,
                    "INSERT INTO chunks(file_id, seq, first_byte, first_line, starts_line, newlines, raw_size, "
                    "sha256, codec, data) VALUES (?,?,?,?,?,?,?,?,'zstd',?)");
                for (std::size_t i = 0; i < chunks.size(); ++i) {
                    auto& c = chunks[i];
                    ch.bind(1, static_cast<std::uint64_t>(c.file))
                        .bind(2, c.seq)
                        .bind(3, c.firstByte)
                        .bind(4, c.firstLine)
                        .bind(5, c.startsLine)
                        .bind(6, c.newlines)
                        .bind(7, c.raw.size())
                        .bind(8, c.sha)
                        .bindBlob(9, c.data)
                        .run();
                    if (i % 64 == 63)
                        step("chunk");
                }
            }
            step("files");

            // The import and its evidence.
            const EvidenceSet& ev = *req.evidence;
            const Verdict& v = *req.verdict;
            const std::shared_ptr<const PreparedObservations> blocks =
                req.preparedObservations && req.preparedObservations->evidence == &ev
                ? req.preparedObservations
                : prepareCaseObservations(ev, threads, req.zstdLevel);
            const std::string fingerprint = blocks->fingerprint;
            step("fingerprint");
            Stmt imp(db,
                "INSERT INTO imports(created_at, importer, importer_version, bundle_root, has_manifest, "
                "manifest_readable, manifest_path, manifest, scope_json, observations, metric_series, "
                "fingerprint, report_text, report_json, duration_ms, job_option) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
            imp.bind(1, nowUtc())
                .bind(2, "faultline-importers")
                .bind(3, kVersion)
                .bind(4, req.input->root)
                .bind(5, req.input->hasManifest)
                .bind(6, req.input->manifestReadable)
                .bind(7, req.input->manifestPath);
            if (req.input->hasManifest)
                imp.bindBlob(8, req.input->manifestText);
            else
                imp.bindNull(8);
            imp.bind(9, scopeJson(ev.scope, ev))
                .bind(10, ev.observations.size())
                .bind(11, ev.metrics.size())
                .bind(12, fingerprint)
                .bind(13, importReportToText(ev, v.coverage))
                .bind(14, importReportToJson(ev, v.coverage))
                .bind(15, req.importMs)
                .bind(16, req.jobOption)
                .run();
            const std::int64_t importId = sqlite3_last_insert_rowid(db);
            step("import");
            insertDiagnostics(db, importId, "input", req.input->diagnostics);
            {
                // Bundle-level diagnostics of the evidence that the input did not already carry.
                std::vector<Diagnostic> own(ev.diagnostics.begin()
                        + static_cast<std::ptrdiff_t>(std::min(ev.diagnostics.size(), req.input->diagnostics.size())),
                    ev.diagnostics.end());
                insertDiagnostics(db, importId, "evidence", own);
            }
            {
                Stmt st(db,
                    "INSERT INTO import_archives(import_id, path, status, bytes, code, message) VALUES "
                    "(?,?,?,?,?,?)");
                for (const auto& a : req.input->archiveSources)
                    st.bind(1, importId)
                        .bind(2, a.path)
                        .bind(3, coverageStatusName(a.status))
                        .bind(4, a.bytes)
                        .bind(5, a.warnings.empty() ? std::string() : a.warnings.front().code)
                        .bind(6, a.warnings.empty() ? std::string() : a.warnings.front().message)
                        .run();
            }
            std::map<std::string, std::int64_t> fileIds;
            for (std::size_t f = 0; f < files.size(); ++f)
                fileIds.emplace(files[f].path, static_cast<std::int64_t>(f));
            {
                Stmt st(db,
                    "INSERT INTO sources(idx, file_id, path, format, format_reason, kind, host, zone, zone_assumed, "
                    "status, bytes, lines, records, skipped, out_of_scope, first_ns, last_ns, warnings) "
                    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
                for (std::size_t s = 0; s < ev.sources.size(); ++s) {
                    const Source& src = ev.sources[s];
                    st.bind(1, static_cast<std::uint64_t>(s));
                    if (auto it = fileIds.find(src.path); it != fileIds.end())
                        st.bind(2, it->second);
                    else
                        st.bindNull(2);
                    st.bind(3, src.path)
                        .bind(4, src.format)
                        .bind(5, src.formatReason)
                        .bind(6, kindText(src.kind))
                        .bindOptText(7, ev.nodeName(src.host))
                        .bind(8, src.zone)
                        .bind(9, src.zoneAssumed)
                        .bind(10, coverageStatusName(src.status))
                        .bind(11, src.bytes)
                        .bind(12, src.lines)
                        .bind(13, src.records)
                        .bind(14, src.skipped)
                        .bind(15, src.outOfScope)
                        .bindTime(16, src.firstTimeNs)
                        .bindTime(17, src.lastTimeNs)
                        .bind(18, src.warnings.size())
                        .run();
                }
            }
            {
                Stmt st(db,
                    "INSERT INTO observation_blocks(source_idx, node, kind, first_index, count, min_ns, max_ns, "
                    "data) VALUES (?,?,?,?,?,?,?,?)");
                for (std::size_t b = 0; b < blocks->blocks.size(); ++b) {
                    const auto& blk = blocks->blocks[b];
                    st.bind(1, blk.source)
                        .bindOptText(2, ev.nodeName(blk.node))
                        .bind(3, kindText(blk.kind))
                        .bind(4, blk.first)
                        .bind(5, blk.count)
                        .bindTime(6, blk.minNs)
                        .bindTime(7, blk.maxNs)
                        .bindBlob(8, blk.data)
                        .run();
                    if (b % 64 == 63)
                        step("observations");
                }
            }
            {
                Stmt st(db,
                    "INSERT INTO ranks(rank, node, gpu, cuda_device, pid, source_idx, line, byte_offset) VALUES "
                    "(?,?,?,?,?,?,?,?)");
                for (const auto& r : ev.ranks)
                    st.bind(1, r.rank)
                        .bindOptText(2, ev.nodeName(r.node))
                        .bind(3, r.gpu)
                        .bind(4, r.cudaDevice)
                        .bind(5, r.pid)
                        .bind(6, r.where.source)
                        .bind(7, r.where.line)
                        .bind(8, r.where.byteOffset)
                        .run();
            }
            {
                Stmt st(db,
                    "INSERT INTO metric_series(name, labels_json, node, gpu, device, source_idx, line, byte_offset, "
                    "samples, min_ns, max_ns, data) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)");
                for (const auto& m : ev.metrics) {
                    JsonWriter lw(false);
                    lw.beginObject();
                    for (const auto& [k, val] : m.labels)
                        lw.field(k, val);
                    lw.endObject();
                    std::string raw;
                    raw.reserve(m.samples.size() * 16);
                    std::int64_t lo = INT64_MIN;
                    std::int64_t hi = INT64_MIN;
                    for (const auto& [t, val] : m.samples) {
                        char b[16];
                        std::memcpy(b, &t, 8);
                        std::memcpy(b + 8, &val, 8);
                        raw.append(b, 16);
                        lo = lo == INT64_MIN ? t : std::min(lo, t);
                        hi = std::max(hi, t);
                    }
                    st.bind(1, m.name)
                        .bind(2, lw.str())
                        .bindOptText(3, ev.nodeName(m.node))
                        .bind(4, m.gpu)
                        .bind(5, m.device)
                        .bind(6, m.where.source)
                        .bind(7, m.where.line)
                        .bind(8, m.where.byteOffset)
                        .bind(9, m.samples.size())
                        .bindTime(10, lo)
                        .bindTime(11, hi)
                        .bindBlob(12, compress(raw, req.zstdLevel))
                        .run();
                }
            }
            step("evidence");
            RunContext ctx = req.run;
            ctx.fingerprint = fingerprint;
            insertRun(db, v, ev, ctx, "create", cp);
            step("before-commit");
            exec(db, "COMMIT");
            exec(db, "PRAGMA journal_mode = WAL;");
            step("after-commit");
        }
        // Closing checkpoints the WAL into the file, so the case is one self-contained file from here on.
        const int closeRc = sqlite3_close(db);
        db = nullptr;
        if (closeRc != SQLITE_OK)
            casefile::throwSql(nullptr, closeRc, "close");
        fsyncPath(tmp, false);
        if (fileExists(tmp + "-wal"))
            fail(path, "case-io", "the new case's write-ahead log was not checkpointed");
        if (::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) != 0)
            fail(path, errno == EEXIST ? "case-exists" : "case-io",
                std::string("cannot move the new case into place: ") + std::strerror(errno));
        fsyncPath(dir.string(), true);
        step("renamed");
    });
    if (!ok) {
        if (db)
            sqlite3_close_v2(db);
        removeWithSidecars(tmp);
        return nullptr;
    }
    return open(path, CaseOpenOptions {}, errors);
}

// --- open ------------------------------------------------------------------------------------------------------

std::unique_ptr<CaseFile> CaseFile::open(
    const std::string& path, const CaseOpenOptions& options, std::vector<Diagnostic>& errors)
{
    std::unique_ptr<CaseFile> c(new CaseFile());
    c->m_path = path;
    const bool ok = guarded(path, errors, [&] {
        checkHeader(path);
        bool readOnly = options.readOnly || ::access(path.c_str(), W_OK) != 0;
        auto connect = [&](bool ro) {
            if (c->m_db)
                sqlite3_close_v2(c->m_db);
            c->m_db = nullptr;
            // A read-only look at a case that no process is writing (no -wal file) opens it immutable, so SQLite
            // creates no -wal/-shm files beside it: a read-only open leaves the directory as it was.
            const bool immutable = ro && !fileExists(path + "-wal");
            std::string uri = "file:";
            for (const char ch : path) {
                if (ch == '?' || ch == '#' || ch == '%') {
                    char hex[4];
                    std::snprintf(hex, sizeof hex, "%%%02X", static_cast<unsigned char>(ch));
                    uri += hex;
                } else {
                    uri += ch;
                }
            }
            if (immutable)
                uri += "?immutable=1";
            const int rc = sqlite3_open_v2(uri.c_str(), &c->m_db,
                (ro ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, nullptr);
            if (rc != SQLITE_OK)
                casefile::throwSql(c->m_db, rc, "open");
            sqlite3_busy_timeout(c->m_db, 5000);
        };
        // First look read-only: nothing is written to a file that turns out to be damaged or foreign.
        connect(true);
        const auto appId = static_cast<std::uint32_t>(pragmaInt(c->m_db, "PRAGMA application_id"));
        int version = static_cast<int>(pragmaInt(c->m_db, "PRAGMA user_version"));
        bool migrated = false;
        if (appId != kCaseApplicationId)
            fail(path, "case-not-faultline",
                "an SQLite database, but not a Faultline case (application_id " + std::to_string(appId) + ")");
        if (version > kCaseSchemaVersion) {
            int compat = version;
            Stmt st(c->m_db, "SELECT value FROM meta WHERE key = 'read_compat_version'");
            if (st.step())
                compat = std::atoi(st.text(0).c_str());
            if (compat > kCaseSchemaVersion)
                fail(path, "case-newer-schema",
                    "the case was written by a newer Faultline (schema " + std::to_string(version)
                        + "); this build reads schema " + std::to_string(kCaseSchemaVersion)
                        + " and older: open it with a newer Faultline");
            readOnly = true;
            c->m_notes.push_back(makeDiagnostic(Severity::Warning, "case-newer-schema",
                "the case was written by a newer Faultline (schema " + std::to_string(version) + "): opened read-only",
                path));
        } else if (version < kCaseSchemaVersion) {
            if (readOnly || !options.migrate)
                fail(path, "case-old-schema",
                    "the case uses schema " + std::to_string(version) + " and needs migrating to "
                        + std::to_string(kCaseSchemaVersion)
                        + ": open it once for writing (for example 'faultline-cli show CASE' without --read-only); "
                          "a backup copy is kept");
            connect(false);
            std::string backup = path + ".schema" + std::to_string(version) + ".bak";
            for (int n = 2; fileExists(backup); ++n)
                backup = path + ".schema" + std::to_string(version) + "-" + std::to_string(n) + ".bak";
            Stmt vac(c->m_db, "VACUUM INTO ?");
            vac.bind(1, backup).run();
            ::chmod(backup.c_str(), 0600);
            exec(c->m_db, "BEGIN IMMEDIATE");
            for (int v = version + 1; v <= kCaseSchemaVersion; ++v)
                exec(c->m_db, schemaSection(v).c_str());
            exec(c->m_db, (std::string("PRAGMA user_version = ") + std::to_string(kCaseSchemaVersion)).c_str());
            exec(c->m_db, "COMMIT");
            c->m_notes.push_back(makeDiagnostic(Severity::Info, "case-migrated",
                "migrated the case from schema " + std::to_string(version) + " to " + std::to_string(kCaseSchemaVersion)
                    + "; the original is kept as " + backup,
                path));
            version = kCaseSchemaVersion;
            migrated = true;
        }
        c->m_schema = version;
        {
            Stmt st(c->m_db, "SELECT value FROM meta WHERE key = 'chunk_hash'");
            c->m_storedChunkHash = st.step() && st.text(0) == "stored";
        }
        if (!readOnly && !migrated)
            connect(false);
        if (!readOnly)
            exec(c->m_db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
        c->m_readOnly = readOnly;
        // The chunk index must be whole: a missing chunk makes the evidence unreadable past it.
        Stmt chk(c->m_db,
            "SELECT f.id, f.path, f.chunk_count, (SELECT count(*) FROM chunks c WHERE c.file_id = f.id) "
            "FROM files f ORDER BY f.id");
        while (chk.step())
            if (chk.i64(2) != chk.i64(3))
                c->m_problems.push_back(makeDiagnostic(Severity::Error, "case-missing-chunk",
                    "evidence file '" + chk.text(1) + "' should have " + std::to_string(chk.i64(2))
                        + " stored chunks but has " + std::to_string(chk.i64(3))
                        + ": its bytes cannot be read back in full (the case was altered or damaged)",
                    path));
    });
    if (!ok)
        return nullptr;
    return c;
}

// --- queries ---------------------------------------------------------------------------------------------------

std::vector<RunInfo> CaseFile::runs(std::vector<Diagnostic>& errors)
{
    std::vector<RunInfo> out;
    guarded(m_path, errors, [&] {
        Stmt st(m_db,
            "SELECT id, created_at, kind, author, catalog_name, catalog_version, catalog_hash, "
            "engine_version, importer_version, fingerprint, outcome, domain, subdomain, summary, confidence, "
            "rules_dir FROM runs ORDER BY id");
        while (st.step()) {
            RunInfo r;
            r.id = st.i64(0);
            r.createdAt = st.text(1);
            r.kind = st.text(2);
            r.author = st.text(3);
            r.catalogName = st.text(4);
            r.catalogVersion = st.text(5);
            r.catalogHash = st.text(6);
            r.engineVersion = st.text(7);
            r.importerVersion = st.text(8);
            r.fingerprint = st.text(9);
            r.outcome = st.text(10);
            r.domain = st.text(11);
            r.subdomain = st.text(12);
            r.summary = st.text(13);
            r.confidence = st.f64(14);
            r.rulesDir = st.text(15);
            out.push_back(std::move(r));
        }
    });
    return out;
}

namespace {

std::optional<std::string> runColumn(
    sqlite3* db, const std::string& file, const char* column, std::int64_t run, std::vector<Diagnostic>& errors)
{
    std::optional<std::string> out;
    guarded(file, errors, [&] {
        Stmt st(db, (std::string("SELECT ") + column + " FROM runs WHERE id = ?").c_str());
        st.bind(1, run);
        if (!st.step())
            fail(file, "case-no-run", "the case has no run " + std::to_string(run));
        out = st.text(0);
    });
    return out;
}

} // namespace

std::optional<std::string> CaseFile::verdictJson(std::int64_t run, std::vector<Diagnostic>& errors)
{
    return runColumn(m_db, m_path, "verdict_json", run, errors);
}

std::optional<std::string> CaseFile::verdictText(std::int64_t run, std::vector<Diagnostic>& errors)
{
    return runColumn(m_db, m_path, "verdict_text", run, errors);
}

std::optional<std::string> CaseFile::importReport(bool json, std::vector<Diagnostic>& errors)
{
    std::optional<std::string> out;
    guarded(m_path, errors, [&] {
        Stmt st(m_db,
            json ? "SELECT report_json FROM imports ORDER BY id DESC LIMIT 1"
                 : "SELECT report_text FROM imports ORDER BY id DESC LIMIT 1");
        if (!st.step())
            fail(m_path, "case-corrupt", "the case records no import");
        out = st.text(0);
    });
    return out;
}

std::optional<std::string> CaseFile::meta(const std::string& key, std::vector<Diagnostic>& errors)
{
    std::optional<std::string> out;
    guarded(m_path, errors, [&] {
        Stmt st(m_db, "SELECT value FROM meta WHERE key = ?");
        st.bind(1, key);
        if (st.step())
            out = st.text(0);
    });
    return out;
}

std::string CaseFile::importFingerprint(std::vector<Diagnostic>& errors)
{
    std::string out;
    guarded(m_path, errors, [&] {
        Stmt st(m_db, "SELECT fingerprint FROM imports ORDER BY id DESC LIMIT 1");
        if (st.step())
            out = st.text(0);
    });
    return out;
}

std::string CaseFile::importJobOption(std::vector<Diagnostic>& errors)
{
    std::string out;
    guarded(m_path, errors, [&] {
        Stmt st(m_db, "SELECT job_option FROM imports ORDER BY id DESC LIMIT 1");
        if (st.step())
            out = st.text(0);
    });
    return out;
}

std::pair<std::int64_t, std::int64_t> CaseFile::runWindow(std::int64_t run, std::vector<Diagnostic>& errors)
{
    std::pair<std::int64_t, std::int64_t> out { INT64_MIN, INT64_MIN };
    guarded(m_path, errors, [&] {
        Stmt st(m_db, "SELECT window_from_ns, window_to_ns FROM runs WHERE id = ?");
        st.bind(1, run);
        if (st.step())
            out = { st.time(0), st.time(1) };
    });
    return out;
}

std::int64_t CaseFile::addRun(const Verdict& verdict, const EvidenceSet& evidence, const RunContext& context,
    std::vector<Diagnostic>& errors, const CaseCheckpoint& checkpoint)
{
    if (m_readOnly) {
        errors.push_back(makeDiagnostic(Severity::Error, "case-read-only", "the case is open read-only", m_path));
        return 0;
    }
    std::int64_t id = 0;
    bool began = false;
    const bool ok = guarded(m_path, errors, [&] {
        exec(m_db, "BEGIN IMMEDIATE");
        began = true;
        id = insertRun(m_db, verdict, evidence, context, "rerun", checkpoint);
        if (checkpoint)
            checkpoint("before-commit");
        exec(m_db, "COMMIT");
        began = false;
        if (checkpoint)
            checkpoint("after-commit");
    });
    if (!ok) {
        if (began)
            sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
        return 0;
    }
    return id;
}

std::optional<RunDiff> CaseFile::diff(std::int64_t from, std::int64_t to, std::vector<Diagnostic>& errors)
{
    std::optional<RunDiff> out;
    guarded(m_path, errors, [&] {
        struct Side
        {
            std::map<std::string, std::string> fields;
            std::map<std::string, std::string> symptoms; // type → "count on nodes"
            std::size_t events = 0;
        };
        auto load = [&](std::int64_t run) {
            Side s;
            Stmt st(m_db,
                "SELECT outcome, domain, subdomain, catalog_version, catalog_hash, engine_version, fingerprint, "
                "json_extract(verdict_json, '$.cause.type'), json_extract(verdict_json, '$.cause.label'), "
                "json_extract(verdict_json, '$.cause.node'), json_extract(verdict_json, '$.cause.time'), "
                "json_extract(verdict_json, '$.cause.provenance[0].file') || ':' || "
                "json_extract(verdict_json, '$.cause.provenance[0].line'), "
                "json_extract(verdict_json, '$.blamed_nodes'), json_extract(verdict_json, '$.confidence.level'), "
                "json_extract(verdict_json, '$.inconclusive_reasons'), json_extract(verdict_json, '$.symptom_nodes') "
                "FROM runs WHERE id = ?");
            st.bind(1, run);
            if (!st.step())
                fail(m_path, "case-no-run", "the case has no run " + std::to_string(run));
            const char* names[] = { "outcome", "domain", "subdomain", "catalog version", "catalog hash",
                "engine version", "evidence fingerprint", "cause type", "cause", "cause node", "cause time",
                "cause evidence", "blamed nodes", "confidence", "inconclusive reasons", "symptom nodes" };
            for (int i = 0; i < 16; ++i)
                s.fields[names[i]] = st.isNull(i) ? std::string("(none)") : st.text(i);
            Stmt sy(m_db,
                "SELECT json_extract(value, '$.type'), json_extract(value, '$.count'), "
                "json_extract(value, '$.nodes') FROM runs, json_each(runs.verdict_json, '$.symptoms') "
                "WHERE runs.id = ?");
            sy.bind(1, run);
            while (sy.step())
                s.symptoms[sy.text(0)] = sy.text(1) + " on " + sy.text(2);
            Stmt ne(m_db, "SELECT count(*) FROM events WHERE run_id = ?");
            ne.bind(1, run);
            if (ne.step())
                s.events = static_cast<std::size_t>(ne.i64(0));
            return s;
        };
        const Side a = load(from);
        const Side b = load(to);
        RunDiff d;
        d.from = from;
        d.to = to;
        const char* verdictFields[] = { "outcome", "domain", "subdomain", "cause type", "cause", "cause node",
            "cause time", "cause evidence", "blamed nodes", "symptom nodes", "confidence", "inconclusive reasons" };
        for (const char* f : verdictFields)
            if (a.fields.at(f) != b.fields.at(f)) {
                d.same = false;
                d.changes.push_back(std::string(f) + ": " + a.fields.at(f) + " → " + b.fields.at(f));
            }
        std::set<std::string> types;
        for (const auto& [t, _] : a.symptoms)
            types.insert(t);
        for (const auto& [t, _] : b.symptoms)
            types.insert(t);
        for (const auto& t : types) {
            const auto ia = a.symptoms.find(t);
            const auto ib = b.symptoms.find(t);
            const std::string va = ia == a.symptoms.end() ? "(none)" : ia->second;
            const std::string vb = ib == b.symptoms.end() ? "(none)" : ib->second;
            if (va != vb) {
                d.same = false;
                d.changes.push_back("symptom " + t + ": " + va + " → " + vb);
            }
        }
        if (a.events != b.events) {
            d.same = false;
            d.changes.push_back("events: " + std::to_string(a.events) + " → " + std::to_string(b.events));
        }
        // Inputs that changed are listed too, but alone they do not make the verdicts differ.
        for (const char* f : { "catalog version", "catalog hash", "engine version", "evidence fingerprint" })
            if (a.fields.at(f) != b.fields.at(f))
                d.changes.push_back(std::string("input ") + f + ": " + a.fields.at(f) + " → " + b.fields.at(f));
        out = std::move(d);
    });
    return out;
}

// --- evidence --------------------------------------------------------------------------------------------------

std::vector<StoredFile> CaseFile::files(std::vector<Diagnostic>& errors)
{
    std::vector<StoredFile> out;
    guarded(m_path, errors, [&] {
        Stmt st(m_db,
            "SELECT id, path, size, coalesce(sha256, ''), line_count, chunk_count, readable FROM files "
            "ORDER BY id");
        while (st.step())
            out.push_back({ st.i64(0), st.text(1), st.u64(2), st.text(3), st.u64(4), st.u64(5), st.i64(6) != 0 });
    });
    return out;
}

namespace {

struct ChunkRow
{
    std::uint64_t seq = 0;
    std::uint64_t firstByte = 0;
    std::uint64_t firstLine = 0;
    bool startsLine = true;
    std::uint64_t rawSize = 0;
    std::string sha;
    std::string codec;
};

/// Reads the current row of a chunk query (columns: seq, first_byte, first_line, starts_line, raw_size, sha256,
/// codec, data), checks it and returns its bytes.
std::string readChunk(const Stmt& st, const std::string& file, const std::string& path, ChunkRow& row, bool storedHash)
{
    row.seq = st.u64(0);
    row.firstByte = st.u64(1);
    row.firstLine = st.u64(2);
    row.startsLine = st.i64(3) != 0;
    row.rawSize = st.u64(4);
    row.sha = st.text(5);
    row.codec = st.text(6);
    const std::string what = "chunk " + std::to_string(row.seq) + " of evidence file '" + path + "'";
    if (row.rawSize > (64u << 20))
        fail(file, "case-corrupt", what + " records an impossible size");
    const std::string_view stored = st.blob(7);
    // Schema 2 hashes the stored bytes (cheap to check on every read); schema 1 hashed the uncompressed bytes.
    if (storedHash && Sha256::hex(stored) != row.sha)
        fail(
            file, "case-altered", what + " does not match its SHA-256: the case was altered (tampering or corruption)");
    std::string raw = row.codec == "none" ? std::string(stored)
                                          : decompress(stored, static_cast<std::size_t>(row.rawSize), file, what);
    if (!storedHash && Sha256::hex(raw) != row.sha)
        fail(
            file, "case-altered", what + " does not match its SHA-256: the case was altered (tampering or corruption)");
    return raw;
}

} // namespace

std::optional<BundleInput> CaseFile::loadInput(std::vector<Diagnostic>& errors)
{
    std::optional<BundleInput> out;
    guarded(m_path, errors, [&] {
        BundleInput in;
        {
            Stmt st(m_db,
                "SELECT id, bundle_root, has_manifest, manifest_readable, manifest_path, manifest "
                "FROM imports ORDER BY id DESC LIMIT 1");
            if (!st.step())
                fail(m_path, "case-corrupt", "the case records no import");
            const std::int64_t importId = st.i64(0);
            in.root = st.text(1);
            in.hasManifest = st.i64(2) != 0;
            in.manifestReadable = st.i64(3) != 0;
            in.manifestPath = st.text(4);
            in.manifestText = std::string(st.blob(5));
            Stmt dg(m_db,
                "SELECT severity, code, message, file, line FROM import_diagnostics "
                "WHERE import_id = ? AND phase = 'input' ORDER BY rowid");
            dg.bind(1, importId);
            while (dg.step()) {
                Diagnostic d = makeDiagnostic(severityFrom(dg.text(0)), dg.text(1), dg.text(2), dg.text(3));
                d.where.line = dg.u64(4);
                in.diagnostics.push_back(std::move(d));
            }
            Stmt ar(m_db,
                "SELECT path, status, bytes, code, message FROM import_archives WHERE import_id = ? "
                "ORDER BY rowid");
            ar.bind(1, importId);
            while (ar.step()) {
                Source src;
                src.path = ar.text(0);
                src.format = "archive";
                src.formatReason = "archive read with libarchive";
                src.status = ar.text(1) == "truncated" ? CoverageStatus::Truncated : CoverageStatus::Error;
                src.bytes = ar.u64(2);
                src.warnings.push_back(makeDiagnostic(Severity::Error, ar.text(3), ar.text(4), src.path));
                in.archiveSources.push_back(std::move(src));
            }
        }
        Stmt fs(m_db,
            "SELECT id, path, origin, size, sha256, mtime_ns, readable, read_error, cut, chunk_count "
            "FROM files ORDER BY id");
        Stmt ch(m_db,
            "SELECT seq, first_byte, first_line, starts_line, raw_size, sha256, codec, data FROM chunks "
            "WHERE file_id = ? ORDER BY seq");
        while (fs.step()) {
            InputFile f;
            const std::int64_t id = fs.i64(0);
            f.path = fs.text(1);
            f.origin = fs.text(2);
            const std::uint64_t size = fs.u64(3);
            const std::string sha = fs.text(4);
            f.mtimeNs = fs.time(5);
            f.readable = fs.i64(6) != 0;
            f.readError = fs.text(7);
            f.cut = fs.i64(8) != 0;
            if (f.readable) {
                if (size > (std::uint64_t(64) << 30))
                    fail(m_path, "case-corrupt", "evidence file '" + f.path + "' records an impossible size");
                auto bytes = std::make_shared<std::string>();
                bytes->reserve(static_cast<std::size_t>(size));
                ch.bind(1, id);
                std::uint64_t expectSeq = 0;
                while (ch.step()) {
                    ChunkRow row;
                    std::string raw = readChunk(ch, m_path, f.path, row, m_storedChunkHash);
                    if (row.seq != expectSeq || row.firstByte != bytes->size())
                        fail(m_path, "case-missing-chunk",
                            "evidence file '" + f.path + "' lacks chunk " + std::to_string(expectSeq)
                                + ": its bytes cannot be read back in full (the case was altered or damaged)");
                    bytes->append(raw);
                    ++expectSeq;
                }
                ch.reset();
                if (bytes->size() != size)
                    fail(m_path, "case-missing-chunk",
                        "evidence file '" + f.path + "' reads back as " + std::to_string(bytes->size())
                            + " bytes instead of " + std::to_string(size)
                            + ": chunks are missing (the case was altered or damaged)");
                if (Sha256::hex(*bytes) != sha)
                    fail(m_path, "case-altered",
                        "evidence file '" + f.path
                            + "' does not match its recorded SHA-256: the case was altered (tampering or corruption)");
                f.bytes = *bytes;
                f.owner = std::move(bytes);
            }
            in.files.push_back(std::move(f));
        }
        out = std::move(in);
    });
    return out;
}

std::optional<std::string> CaseFile::line(
    std::int64_t fileId, std::uint64_t lineNo, std::vector<Diagnostic>& errors, std::size_t maxBytes)
{
    std::optional<std::string> out;
    guarded(m_path, errors, [&] {
        std::string path;
        std::uint64_t lines = 0;
        {
            Stmt f(m_db, "SELECT path, line_count FROM files WHERE id = ?");
            f.bind(1, fileId);
            if (!f.step())
                fail(m_path, "case-no-file", "the case has no evidence file " + std::to_string(fileId));
            path = f.text(0);
            lines = f.u64(1);
        }
        if (lineNo == 0 || lineNo > lines)
            fail(m_path, "case-no-line",
                "'" + path + "' has " + std::to_string(lines) + " lines; there is no line " + std::to_string(lineNo));
        // The chunk holding the line's first byte (see schema.sql).
        std::int64_t seq = -1;
        {
            Stmt s(m_db,
                "SELECT coalesce((SELECT seq FROM chunks WHERE file_id = ?1 AND first_line = ?2 AND starts_line = 1 "
                "ORDER BY file_id, first_line, seq LIMIT 1), (SELECT seq FROM chunks WHERE file_id = ?1 AND "
                "first_line < ?2 ORDER BY file_id DESC, first_line DESC, seq DESC LIMIT 1))");
            s.bind(1, fileId).bind(2, lineNo);
            if (s.step() && !s.isNull(0))
                seq = s.i64(0);
        }
        if (seq < 0)
            fail(m_path, "case-missing-chunk",
                "no stored chunk holds line " + std::to_string(lineNo) + " of '" + path
                    + "' (the case was altered or damaged)");
        Stmt ch(m_db,
            "SELECT seq, first_byte, first_line, starts_line, raw_size, sha256, codec, data FROM chunks "
            "WHERE file_id = ? AND seq >= ? ORDER BY seq");
        ch.bind(1, fileId).bind(2, seq);
        std::string result;
        bool first = true;
        while (ch.step()) {
            ChunkRow row;
            const std::string raw = readChunk(ch, m_path, path, row, m_storedChunkHash);
            std::size_t begin = 0;
            if (first) {
                if (row.seq != static_cast<std::uint64_t>(seq))
                    fail(
                        m_path, "case-missing-chunk", "chunk " + std::to_string(seq) + " of '" + path + "' is missing");
                if (!(row.firstLine == lineNo && row.startsLine)) {
                    // Skip (lineNo - firstLine) newlines.
                    std::uint64_t skip = lineNo - row.firstLine;
                    std::size_t p = 0;
                    while (skip > 0) {
                        const auto nl = raw.find('\n', p);
                        if (nl == std::string::npos)
                            fail(m_path, "case-corrupt", "the line index of '" + path + "' is inconsistent");
                        p = nl + 1;
                        --skip;
                    }
                    begin = p;
                    if (begin == raw.size()) {
                        first = false;
                        continue; // the line starts in the next chunk
                    }
                }
                first = false;
            }
            const auto nl = raw.find('\n', begin);
            const std::size_t end = nl == std::string::npos ? raw.size() : nl;
            result.append(raw, begin, std::min(end - begin, maxBytes - std::min(maxBytes, result.size())));
            if (nl != std::string::npos || result.size() >= maxBytes)
                break;
        }
        if (!result.empty() && result.back() == '\r')
            result.pop_back();
        out = std::move(result);
    });
    return out;
}

std::optional<std::vector<StoredObservation>> CaseFile::observations(
    const ObservationQuery& q, std::vector<Diagnostic>& errors)
{
    std::optional<std::vector<StoredObservation>> out;
    guarded(m_path, errors, [&] {
        std::string sql = "SELECT source_idx, node, kind, count, data FROM observation_blocks WHERE "
                          "(min_ns IS NULL OR (min_ns <= ?1 AND max_ns >= ?2))";
        if (!q.node.empty())
            sql += " AND node = ?3";
        if (q.kind)
            sql += " AND kind = ?4";
        if (q.source)
            sql += " AND source_idx = ?5";
        sql += " ORDER BY first_index";
        Stmt st(m_db, sql.c_str());
        st.bind(1, q.toNs).bind(2, q.fromNs);
        if (!q.node.empty())
            st.bind(3, q.node);
        if (q.kind)
            st.bind(4, sourceKindName(*q.kind));
        if (q.source)
            st.bind(5, *q.source);
        std::vector<StoredObservation> all;
        while (st.step()) {
            SourceKind kind = SourceKind::Other;
            sourceKindFromName(st.text(2), kind);
            const auto count = st.u64(3);
            if (count > kBlockRecords)
                fail(m_path, "case-corrupt", "an observation block claims " + std::to_string(count) + " records");
            // A block's varints take at most 10 bytes per value and 10 values per record.
            const std::string raw = decompressAtMost(
                st.blob(4), static_cast<std::size_t>(count) * 100 + 16, m_path, "an observation block");
            decodeObservationBlock(raw, static_cast<std::uint32_t>(st.i64(0)), st.text(1), kind, m_path, all);
        }
        const bool timed = q.fromNs != INT64_MIN || q.toNs != INT64_MAX;
        std::vector<StoredObservation> kept;
        kept.reserve(all.size());
        for (auto& o : all)
            if (!timed || (o.timeNs != INT64_MIN && o.timeNs + o.precisionNs >= q.fromNs && o.timeNs <= q.toNs))
                kept.push_back(std::move(o));
        std::sort(kept.begin(), kept.end(),
            [](const StoredObservation& a, const StoredObservation& b) { return a.index < b.index; });
        out = std::move(kept);
    });
    return out;
}

std::optional<GrepStats> CaseFile::grep(
    const GrepQuery& q, const std::function<bool(const GrepMatch&)>& onMatch, std::vector<Diagnostic>& errors)
{
    std::optional<GrepStats> out;
    guarded(m_path, errors, [&] {
        RE2::Options opt;
        opt.set_log_errors(false);
        opt.set_case_sensitive(!q.ignoreCase);
        const RE2 lineRe(q.pattern, opt);
        if (!lineRe.ok())
            fail(m_path, "grep-pattern", "invalid RE2 pattern: " + lineRe.error());
        // The whole-chunk scan uses multi-line mode, so ^ and $ anchor at lines; each hit is confirmed on its line.
        const RE2 scanRe("(?m:" + q.pattern + ")", opt);
        if (!scanRe.ok())
            fail(m_path, "grep-pattern", "invalid RE2 pattern: " + scanRe.error());
        const bool timed = q.fromNs != INT64_MIN || q.toNs != INT64_MAX;
        const bool filtered = timed || !q.node.empty();
        GrepStats stats;
        struct FileRow
        {
            std::int64_t id;
            std::string path;
            std::int64_t source;
            std::string host;
        };
        std::vector<FileRow> files;
        {
            Stmt st(m_db,
                "SELECT f.id, f.path, coalesce(s.idx, -1), coalesce(s.host, '') FROM files f "
                "LEFT JOIN sources s ON s.file_id = f.id WHERE f.readable = 1 ORDER BY f.id");
            while (st.step())
                if (q.pathContains.empty() || st.text(1).find(q.pathContains) != std::string::npos)
                    files.push_back({ st.i64(0), st.text(1), st.i64(2), st.text(3) });
        }
        Stmt ch(m_db,
            "SELECT seq, first_byte, first_line, starts_line, raw_size, sha256, codec, data FROM chunks "
            "WHERE file_id = ? ORDER BY seq");
        bool stop = false;
        std::size_t matches = 0;
        for (const auto& f : files) {
            if (stop || (q.cancel && q.cancel->load()))
                break;
            // A node filter skips per-host files of other hosts at once.
            std::vector<StoredObservation> obs;
            if (filtered && f.source >= 0) {
                ObservationQuery oq;
                oq.source = static_cast<std::uint32_t>(f.source);
                std::vector<Diagnostic> oerr;
                auto got = observations(oq, oerr);
                if (!got)
                    throw CaseFailure { oerr.front() };
                obs = std::move(*got);
            }
            if (!q.node.empty() && !f.host.empty() && f.host != q.node
                && std::none_of(obs.begin(), obs.end(), [&](const StoredObservation& o) { return o.node == q.node; }))
                continue;
            ++stats.files;
            ch.bind(1, f.id);
            std::string carry; // a line cut by the chunk boundary
            std::uint64_t carryLine = 0;
            std::uint64_t carryOffset = 0;
            std::uint64_t expectSeq = 0;
            auto emit = [&](std::string_view lineText, std::uint64_t lineNo, std::uint64_t offset) {
                if (!RE2::PartialMatch(re2::StringPiece(lineText.data(), lineText.size()), lineRe))
                    return true;
                GrepMatch m;
                m.path = f.path;
                m.line = lineNo;
                m.byteOffset = offset;
                m.node = f.host;
                if (!obs.empty()) {
                    auto it = std::upper_bound(obs.begin(), obs.end(), offset,
                        [](std::uint64_t off, const StoredObservation& o) { return off < o.byteOffset; });
                    if (it != obs.begin()) {
                        --it;
                        if (offset < it->byteOffset + std::max<std::uint64_t>(1, it->length)) {
                            m.timeNs = it->timeNs;
                            if (!it->node.empty())
                                m.node = it->node;
                        }
                    }
                }
                if (timed && (m.timeNs == INT64_MIN || m.timeNs < q.fromNs || m.timeNs > q.toNs))
                    return true;
                if (!q.node.empty() && m.node != q.node)
                    return true;
                std::string_view shown = lineText;
                if (!shown.empty() && shown.back() == '\r')
                    shown.remove_suffix(1);
                m.text = std::string(shown.substr(0, kMaxGrepLine));
                if (!onMatch(m))
                    return false;
                if (q.maxMatches && ++matches >= q.maxMatches) {
                    stats.truncated = true;
                    return false;
                }
                return true;
            };
            while (!stop && ch.step()) {
                ChunkRow row;
                std::string raw = readChunk(ch, m_path, f.path, row, m_storedChunkHash);
                if (row.seq != expectSeq++)
                    fail(m_path, "case-missing-chunk",
                        "evidence file '" + f.path + "' lacks chunk " + std::to_string(expectSeq - 1));
                stats.bytes += raw.size();
                std::size_t pos = 0;
                std::uint64_t lineNo = row.firstLine;
                if (!carry.empty() || !row.startsLine) {
                    // Finish the line carried from the previous chunk.
                    const auto nl = raw.find('\n');
                    const std::size_t end = nl == std::string::npos ? raw.size() : nl;
                    if (carry.empty()) {
                        carryLine = row.firstLine;
                        carryOffset = row.firstByte;
                    }
                    carry.append(raw, 0, end);
                    if (nl == std::string::npos)
                        continue;
                    if (!emit(carry, carryLine, carryOffset)) {
                        stop = true;
                        break;
                    }
                    carry.clear();
                    pos = nl + 1;
                    lineNo = row.firstLine + 1;
                }
                // Scan the rest of the chunk; `lineNo` tracks the line at `pos`.
                std::string_view text(raw);
                std::size_t counted = pos;
                while (pos < text.size()) {
                    re2::StringPiece hit;
                    if (!scanRe.Match(
                            re2::StringPiece(text.data(), text.size()), pos, text.size(), RE2::UNANCHORED, &hit, 1))
                        break;
                    const auto at = static_cast<std::size_t>(hit.data() - text.data());
                    std::size_t lineStart = 0;
                    if (at > 0)
                        if (const auto k = text.rfind('\n', at - 1); k != std::string_view::npos)
                            lineStart = k + 1;
                    lineStart = std::max(lineStart, pos);
                    lineNo += countNewlines(text.substr(counted, lineStart - counted));
                    counted = lineStart;
                    const auto nl = text.find('\n', lineStart);
                    if (nl == std::string_view::npos) {
                        // The line goes on in the next chunk.
                        carry.assign(text.substr(lineStart));
                        carryLine = lineNo;
                        carryOffset = row.firstByte + lineStart;
                        pos = text.size();
                        break;
                    }
                    if (!emit(text.substr(lineStart, nl - lineStart), lineNo, row.firstByte + lineStart)) {
                        stop = true;
                        break;
                    }
                    pos = nl + 1;
                }
                if (!stop && pos < text.size() && text.back() != '\n' && carry.empty()) {
                    // No hit in the chunk's last, unfinished line so far: carry it, the rest may match.
                    const auto lastNl = text.rfind('\n');
                    const std::size_t lineStart = lastNl == std::string_view::npos ? 0 : lastNl + 1;
                    if (lineStart >= pos) {
                        lineNo += countNewlines(text.substr(counted, lineStart - counted));
                        carry.assign(text.substr(lineStart));
                        carryLine = lineNo;
                        carryOffset = row.firstByte + lineStart;
                    }
                }
            }
            ch.reset();
            if (!stop && !carry.empty() && !emit(carry, carryLine, carryOffset))
                stop = true;
        }
        out = stats;
    });
    return out;
}

std::vector<Diagnostic> CaseFile::verify()
{
    std::vector<Diagnostic> found = m_problems;
    guarded(m_path, found, [&] {
        Stmt st(m_db, "PRAGMA quick_check");
        while (st.step())
            if (st.text(0) != "ok")
                found.push_back(makeDiagnostic(Severity::Error, "case-corrupt",
                    "SQLite finds the file damaged: " + st.text(0) + "; restore it from a copy", m_path));
    });
    if (found.size() == m_problems.size()) {
        std::vector<Diagnostic> errs;
        if (!loadInput(errs))
            found.insert(found.end(), errs.begin(), errs.end());
    }
    return found;
}

// --- annotations and expectations ------------------------------------------------------------------------------

std::int64_t CaseFile::annotate(const Annotation& a, std::vector<Diagnostic>& errors)
{
    if (m_readOnly) {
        errors.push_back(makeDiagnostic(Severity::Error, "case-read-only", "the case is open read-only", m_path));
        return 0;
    }
    static const std::set<std::string> kinds { "bookmark", "note", "tag", "narrative", "removed" };
    if (!kinds.count(a.kind)) {
        errors.push_back(makeDiagnostic(Severity::Error, "annotation-kind",
            "unknown annotation kind '" + a.kind + "' (bookmark, note, tag or narrative)", m_path));
        return 0;
    }
    std::int64_t id = 0;
    guarded(m_path, errors, [&] {
        Annotation x = a;
        if (x.kind == "narrative")
            x.target = "case";
        if (x.target == "event") {
            Stmt ev(m_db,
                "SELECT e.line, s.file_id FROM events e LEFT JOIN sources s ON s.idx = e.source_idx "
                "WHERE e.run_id = ? AND e.idx = ?");
            ev.bind(1, x.runId).bind(2, x.eventIdx);
            if (!ev.step())
                fail(m_path, "annotation-target",
                    "run " + std::to_string(x.runId) + " has no event " + std::to_string(x.eventIdx));
            x.line = ev.u64(0);
            x.fileId = ev.isNull(1) ? -1 : ev.i64(1);
        } else if (x.target == "line") {
            Stmt f(m_db, "SELECT line_count FROM files WHERE id = ?");
            f.bind(1, x.fileId);
            if (!f.step() || x.line == 0 || x.line > f.u64(0))
                fail(m_path, "annotation-target", "the case has no such evidence line");
        } else if (x.target != "case") {
            fail(m_path, "annotation-target", "an annotation targets the case, an event or a line");
        }
        exec(m_db, "BEGIN IMMEDIATE");
        try {
            Stmt st(m_db,
                "INSERT INTO annotations(kind, target, run_id, event_idx, file_id, line, text, author, "
                "created_at, supersedes) VALUES (?,?,?,?,?,?,?,?,?,?)");
            st.bind(1, x.kind).bind(2, x.target);
            if (x.target == "event")
                st.bind(3, x.runId).bind(4, x.eventIdx);
            else
                st.bindNull(3).bindNull(4);
            if (x.fileId >= 0)
                st.bind(5, x.fileId).bind(6, x.line);
            else
                st.bindNull(5).bindNull(6);
            st.bind(7, x.text).bind(8, defaultAuthor(x.author)).bind(9, nowUtc());
            if (x.supersedes > 0)
                st.bind(10, x.supersedes);
            else
                st.bindNull(10);
            st.run();
            id = sqlite3_last_insert_rowid(m_db);
            exec(m_db, "COMMIT");
        } catch (...) {
            sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
            throw;
        }
    });
    return id;
}

bool CaseFile::removeAnnotation(std::int64_t id, const std::string& author, std::vector<Diagnostic>& errors)
{
    std::optional<Annotation> old;
    for (auto& a : annotations(errors))
        if (a.id == id)
            old = a;
    if (!old) {
        errors.push_back(makeDiagnostic(
            Severity::Error, "annotation-target", "no current annotation " + std::to_string(id), m_path));
        return false;
    }
    Annotation r = *old;
    r.kind = "removed";
    r.author = author;
    r.supersedes = id;
    return annotate(r, errors) != 0;
}

std::vector<Annotation> CaseFile::annotations(std::vector<Diagnostic>& errors)
{
    std::vector<Annotation> out;
    guarded(m_path, errors, [&] {
        Stmt st(m_db,
            "SELECT a.id, a.kind, a.target, coalesce(a.run_id, 0), coalesce(a.event_idx, -1), "
            "coalesce(a.file_id, -1), coalesce(f.path, ''), coalesce(a.line, 0), a.text, a.author, "
            "a.created_at, coalesce(a.supersedes, 0) FROM annotations a LEFT JOIN files f ON f.id = a.file_id "
            "WHERE a.kind <> 'removed' AND NOT EXISTS (SELECT 1 FROM annotations b WHERE b.supersedes = a.id) "
            "ORDER BY a.id");
        while (st.step()) {
            Annotation a;
            a.id = st.i64(0);
            a.kind = st.text(1);
            a.target = st.text(2);
            a.runId = st.i64(3);
            a.eventIdx = st.i64(4);
            a.fileId = st.i64(5);
            a.path = st.text(6);
            a.line = st.u64(7);
            a.text = st.text(8);
            a.author = st.text(9);
            a.createdAt = st.text(10);
            a.supersedes = st.i64(11);
            out.push_back(std::move(a));
        }
    });
    return out;
}

std::int64_t CaseFile::expect(
    std::int64_t run, const std::string& author, const std::string& note, std::vector<Diagnostic>& errors)
{
    if (m_readOnly) {
        errors.push_back(makeDiagnostic(Severity::Error, "case-read-only", "the case is open read-only", m_path));
        return 0;
    }
    std::int64_t id = 0;
    guarded(m_path, errors, [&] {
        exec(m_db, "BEGIN IMMEDIATE");
        try {
            Stmt st(m_db,
                "INSERT INTO expectations(run_id, outcome, domain, subdomain, cause_type, cause_node, author, "
                "created_at, note) SELECT id, outcome, domain, subdomain, "
                "coalesce(json_extract(verdict_json, '$.cause.type'), ''), "
                "coalesce(json_extract(verdict_json, '$.cause.node'), ''), ?, ?, ? FROM runs WHERE id = ?");
            st.bind(1, defaultAuthor(author)).bind(2, nowUtc()).bind(3, note).bind(4, run).run();
            if (sqlite3_changes(m_db) != 1)
                fail(m_path, "case-no-run", "the case has no run " + std::to_string(run));
            id = sqlite3_last_insert_rowid(m_db);
            exec(m_db, "COMMIT");
        } catch (...) {
            sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
            throw;
        }
    });
    return id;
}

std::optional<Expectation> CaseFile::expectation(std::vector<Diagnostic>& errors)
{
    std::optional<Expectation> out;
    guarded(m_path, errors, [&] {
        Stmt st(m_db,
            "SELECT id, run_id, outcome, domain, subdomain, cause_type, cause_node, author, created_at, note "
            "FROM expectations ORDER BY id DESC LIMIT 1");
        if (st.step())
            out = Expectation { st.i64(0), st.i64(1), st.text(2), st.text(3), st.text(4), st.text(5), st.text(6),
                st.text(7), st.text(8), st.text(9) };
    });
    return out;
}

std::vector<std::string> CaseFile::checkExpectation(std::int64_t run, std::vector<Diagnostic>& errors)
{
    std::vector<std::string> out;
    const auto e = expectation(errors);
    if (!e)
        return out;
    guarded(m_path, errors, [&] {
        Stmt st(m_db,
            "SELECT outcome, domain, subdomain, coalesce(json_extract(verdict_json, '$.cause.type'), ''), "
            "coalesce(json_extract(verdict_json, '$.cause.node'), '') FROM runs WHERE id = ?");
        st.bind(1, run);
        if (!st.step())
            fail(m_path, "case-no-run", "the case has no run " + std::to_string(run));
        const std::pair<const char*, std::string> expected[] = { { "outcome", e->outcome }, { "domain", e->domain },
            { "subdomain", e->subdomain }, { "cause type", e->causeType }, { "cause node", e->causeNode } };
        for (int i = 0; i < 5; ++i)
            if (st.text(i) != expected[i].second)
                out.push_back(std::string(expected[i].first) + ": expected '" + expected[i].second + "', got '"
                    + st.text(i) + "'");
    });
    return out;
}

} // namespace faultline::core
