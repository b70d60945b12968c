// SPDX-License-Identifier: Apache-2.0
// Reading a case's stored evidence back: files, one line by its index, observations by time/node/kind, RE2
// search, the bundle input for a re-import, and the full verification.
#include "core/casefile/case_internal.h"
#include "core/util/sha256.h"

#include <re2/re2.h>

#include <cstring>
#include <memory>

namespace faultline::core {

using namespace casefile;

namespace {

Severity severityFrom(const std::string& s)
{
    return s == "info" ? Severity::Info : s == "warning" ? Severity::Warning : Severity::Error;
}

} // namespace

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

std::optional<std::int64_t> CaseFile::fileId(const std::string& path, std::vector<Diagnostic>& errors)
{
    std::optional<std::int64_t> out;
    guarded(m_path, errors, [&] {
        Stmt st(m_db, "SELECT id FROM files WHERE path = ? ORDER BY id LIMIT 1");
        st.bind(1, path);
        if (!st.step())
            fail(m_path, "case-no-file", "the case holds no evidence file '" + path + "'");
        out = st.i64(0);
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
    /// A file's bytes, decompressed in place by several threads (not zero-filled first).
    struct Buffer
    {
        explicit Buffer(std::size_t n)
            : data(new char[n ? n : 1])
            , size(n)
        { }
        std::unique_ptr<char[]> data;
        std::size_t size;
    };
    struct Job
    {
        std::size_t file = 0;
        std::uint64_t seq = 0;
        std::uint64_t rawSize = 0;
        std::string sha;
        std::string codec;
        std::string stored;
        char* dest = nullptr;
    };
    std::optional<BundleInput> out;
    guarded(m_path, errors, [&] {
        std::vector<Job> jobs;
        std::vector<std::pair<std::size_t, std::string>> shas;
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
            while (ar.step())
                in.archiveStops.push_back({ ar.text(0), ar.text(1) == "truncated", ar.u64(2), ar.text(3), ar.text(4) });
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
                auto buffer = std::make_shared<Buffer>(static_cast<std::size_t>(size));
                ch.bind(1, id);
                std::uint64_t expectSeq = 0;
                std::uint64_t at = 0;
                while (ch.step()) {
                    Job job;
                    job.file = in.files.size();
                    job.seq = ch.u64(0);
                    job.rawSize = ch.u64(4);
                    job.sha = ch.text(5);
                    job.codec = ch.text(6);
                    job.stored = std::string(ch.blob(7));
                    if (job.seq != expectSeq || ch.u64(1) != at || job.rawSize > size - at)
                        fail(m_path, "case-missing-chunk",
                            "evidence file '" + f.path + "' lacks chunk " + std::to_string(expectSeq)
                                + ": its bytes cannot be read back in full (the case was altered or damaged)");
                    job.dest = buffer->data.get() + at;
                    at += job.rawSize;
                    ++expectSeq;
                    jobs.push_back(std::move(job));
                }
                ch.reset();
                if (at != size)
                    fail(m_path, "case-missing-chunk",
                        "evidence file '" + f.path + "' reads back as " + std::to_string(at) + " bytes instead of "
                            + std::to_string(size) + ": chunks are missing (the case was altered or damaged)");
                f.bytes = std::string_view(buffer->data.get(), buffer->size);
                f.owner = std::move(buffer);
                shas.push_back({ in.files.size(), sha });
            }
            in.files.push_back(std::move(f));
        }
        // Every chunk is checked and decompressed, then every file checked against its SHA-256, on every core.
        const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
        parallelFor(jobs.size(), threads, [&](std::size_t j) {
            const Job& job = jobs[j];
            const std::string& path = in.files[job.file].path;
            const std::string what = "chunk " + std::to_string(job.seq) + " of evidence file '" + path + "'";
            if (m_storedChunkHash && Sha256::hex(job.stored) != job.sha)
                fail(m_path, "case-altered",
                    what + " does not match its SHA-256: the case was altered (tampering or corruption)");
            if (job.codec == "none") {
                if (job.stored.size() != job.rawSize)
                    fail(m_path, "case-altered", what + " does not have its recorded size: the case was altered");
                std::memcpy(job.dest, job.stored.data(), job.stored.size());
            } else {
                decompressInto(job.stored, static_cast<std::size_t>(job.rawSize), job.dest, m_path, what);
            }
            if (!m_storedChunkHash
                && Sha256::hex(std::string_view(job.dest, static_cast<std::size_t>(job.rawSize))) != job.sha)
                fail(m_path, "case-altered",
                    what + " does not match its SHA-256: the case was altered (tampering or corruption)");
        });
        parallelFor(shas.size(), threads, [&](std::size_t k) {
            const auto& [file, sha] = shas[k];
            if (Sha256::hex(in.files[file].bytes) != sha)
                fail(m_path, "case-altered",
                    "evidence file '" + in.files[file].path
                        + "' does not match its recorded SHA-256: the case was altered (tampering or corruption)");
        });
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
        // The latest import's blocks (rows of schema 1 have no import_id: they belong to the first import).
        std::string sql = "SELECT source_idx, node, kind, count, data FROM observation_blocks WHERE "
                          "coalesce(import_id, (SELECT min(id) FROM imports)) = (SELECT max(id) FROM imports) AND "
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

} // namespace faultline::core
