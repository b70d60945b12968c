// SPDX-License-Identifier: Apache-2.0
#include "core/casefile/case_file.h"

#include "core/casefile/case_internal.h"
#include "core/casefile/case_schema.h"
#include "core/model/story.h"
#include "core/report/import_report.h"
#include "core/report/verdict_report.h"
#include "core/rules/rule_catalog.h"
#include "core/time/civil_time.h"
#include "core/util/json_writer.h"
#include "core/util/sha256.h"
#include "core/version.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

namespace fs = std::filesystem;

namespace faultline::core {

using namespace casefile;

namespace casefile {

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

std::string nowUtc()
{
    const auto ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    return formatUtc(ns - ns % kNsPerSec);
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

} // namespace casefile

namespace {

std::string defaultAuthor(const std::string& given)
{
    if (!given.empty())
        return given;
    for (const char* var : { "FAULTLINE_AUTHOR", "USER", "LOGNAME" })
        if (const char* v = std::getenv(var); v && *v)
            return v;
    return "unknown";
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

void insertDiagnostics(sqlite3* db, std::int64_t importId, const char* phase, const std::vector<Diagnostic>& diags)
{
    Stmt st(db,
        "INSERT INTO import_diagnostics(import_id, phase, severity, code, message, file, line) "
        "VALUES (?,?,?,?,?,?,?)");
    for (const auto& d : diags)
        st.bind(1, importId)
            .bind(2, phase)
            .bind(3, severityName(d.severity))
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

/// Stores the files of `catalog` (once per catalog hash) inside the caller's transaction: the texts the catalog was
/// loaded from, every layer's under its stored path (a pack layer's under layers/N/), in-memory texts included, so
/// they hash to the catalog's own content hash.
void storeCatalog(sqlite3* db, const RuleCatalog& catalog)
{
    {
        Stmt have(db, "SELECT 1 FROM catalog_files WHERE catalog_hash = ? LIMIT 1");
        have.bind(1, catalog.contentHash());
        if (have.step())
            return;
    }
    Stmt st(db, "INSERT INTO catalog_files(catalog_hash, path, content) VALUES (?,?,?)");
    for (const auto& f : catalog.files())
        st.bind(1, catalog.contentHash()).bind(2, f.storedPath).bindBlob(3, f.text).run();
}

/// Inserts a revision of the story with all its steps inside the caller's transaction. Returns the revision.
std::int64_t insertStory(
    sqlite3* db, const std::vector<StoryStep>& steps, const std::string& change, const std::string& author)
{
    {
        Stmt rev(db, "INSERT INTO story_revisions(author, created_at, change) VALUES (?,?,?)");
        rev.bind(1, author).bind(2, nowUtc()).bind(3, change).run();
    }
    const std::int64_t revision = sqlite3_last_insert_rowid(db);
    Stmt st(db, "INSERT INTO story_steps(revision, position, title, text, state_json, origin) VALUES (?,?,?,?,?,?)");
    std::int64_t position = 0;
    for (const auto& step : steps)
        st.bind(1, revision)
            .bind(2, ++position)
            .bind(3, step.title)
            .bind(4, step.text)
            .bind(5, storyStateToJson(step.state))
            .bind(6, step.origin.empty() ? std::string("user") : step.origin)
            .run();
    return revision;
}

/// Inserts a run and its events inside the caller's transaction. Returns the run id.
std::int64_t insertRun(sqlite3* db, const Verdict& v, const EvidenceSet& ev, const RunContext& ctx, const char* kind,
    std::int64_t importId, const CaseCheckpoint& checkpoint)
{
    Stmt run(db,
        "INSERT INTO runs(created_at, kind, author, catalog_name, catalog_version, catalog_hash, rules_dir, "
        "engine_version, importer_version, fingerprint, scope_json, outcome, domain, subdomain, summary, "
        "confidence, cause_event, verdict_json, verdict_text, trace_json, duration_ms, window_from_ns, "
        "window_to_ns, import_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
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
    run.bind(21, ctx.durationMs).bindTime(22, ctx.windowFromNs).bindTime(23, ctx.windowToNs).bind(24, importId).run();
    const std::int64_t id = sqlite3_last_insert_rowid(db);
    if (ctx.catalog)
        storeCatalog(db, *ctx.catalog);
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

/// Inserts an import (its row, diagnostics, incomplete archives and observation blocks) inside the caller's
/// transaction. Returns its id.
std::int64_t insertImport(sqlite3* db, const BundleInput& input, const EvidenceSet& ev,
    const std::vector<CoverageEntry>& coverage, const PreparedObservations& blocks, std::int64_t importMs,
    const std::string& jobOption)
{
    const std::string& fingerprint = blocks.fingerprint;
    Stmt imp(db,
        "INSERT INTO imports(created_at, importer, importer_version, bundle_root, has_manifest, "
        "manifest_readable, manifest_path, manifest, scope_json, observations, metric_series, "
        "fingerprint, report_text, report_json, duration_ms, job_option) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    imp.bind(1, nowUtc())
        .bind(2, "faultline-importers")
        .bind(3, kVersion)
        .bind(4, input.root)
        .bind(5, input.hasManifest)
        .bind(6, input.manifestReadable)
        .bind(7, input.manifestPath);
    if (input.hasManifest)
        imp.bindBlob(8, input.manifestText);
    else
        imp.bindNull(8);
    imp.bind(9, scopeJson(ev.scope, ev))
        .bind(10, ev.observations.size())
        .bind(11, ev.metrics.size())
        .bind(12, fingerprint)
        .bind(13, importReportToText(ev, coverage))
        .bind(14, importReportToJson(ev, coverage))
        .bind(15, importMs)
        .bind(16, jobOption)
        .run();
    const std::int64_t importId = sqlite3_last_insert_rowid(db);
    insertDiagnostics(db, importId, "input", input.diagnostics);
    {
        // Bundle-level diagnostics of the evidence that the input did not already carry.
        std::vector<Diagnostic> own(ev.diagnostics.begin()
                + static_cast<std::ptrdiff_t>(std::min(ev.diagnostics.size(), input.diagnostics.size())),
            ev.diagnostics.end());
        insertDiagnostics(db, importId, "evidence", own);
    }
    {
        Stmt st(db,
            "INSERT INTO import_archives(import_id, path, status, bytes, code, message) VALUES "
            "(?,?,?,?,?,?)");
        for (const auto& a : input.archiveStops)
            st.bind(1, importId)
                .bind(2, a.path)
                .bind(3, a.partial ? "truncated" : "error")
                .bind(4, a.bytes)
                .bind(5, a.code)
                .bind(6, a.message)
                .run();
    }
    {
        Stmt st(db,
            "INSERT INTO observation_blocks(source_idx, node, kind, first_index, count, min_ns, max_ns, "
            "data, import_id) VALUES (?,?,?,?,?,?,?,?,?)");
        for (std::size_t b = 0; b < blocks.blocks.size(); ++b) {
            const auto& blk = blocks.blocks[b];
            st.bind(1, blk.source)
                .bindOptText(2, ev.nodeName(blk.node))
                .bind(3, sourceKindName(blk.kind))
                .bind(4, blk.first)
                .bind(5, blk.count)
                .bindTime(6, blk.minNs)
                .bindTime(7, blk.maxNs)
                .bindBlob(8, blk.data)
                .bind(9, importId)
                .run();
        }
    }
    return importId;
}

} // namespace

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

// --- create ----------------------------------------------------------------------------------------------------

CaseFile::~CaseFile()
{
    if (m_db)
        sqlite3_close_v2(m_db);
}

CaseDraft::~CaseDraft()
{
    if (db)
        sqlite3_close_v2(db);
    if (!consumed && !tmp.empty())
        removeWithSidecars(tmp);
}

std::shared_ptr<CaseDraft> draftCase(const std::string& path, const BundleInput& input, unsigned threads, int zstdLevel,
    const CaseCheckpoint& checkpoint)
{
    auto draft = std::make_shared<CaseDraft>();
    draft->path = path;
    draft->input = &input;
    std::vector<Diagnostic>& errors = draft->errors;
    const auto& cp = checkpoint;
    auto step = [&](std::string_view s) {
        if (cp)
            cp(s);
    };
    if (fileExists(path)) {
        errors.push_back(makeDiagnostic(Severity::Error, "case-exists",
            "a file already exists there; a case is never overwritten: choose another name, or add a run to it "
            "with 'faultline-cli rerun'",
            path));
        return draft;
    }
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    // Temporary files of earlier attempts whose process is gone (killed while writing) are removed.
    {
        std::error_code ec;
        const std::string prefix = "." + target.filename().string() + ".partial-";
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            const std::string name = it->path().filename().string();
            if (name.rfind(prefix, 0) != 0)
                continue;
            const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
            if (pid > 0 && pid != ::getpid() && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
                fs::remove(it->path(), ec);
        }
    }
    static std::atomic<unsigned> serial { 0 };
    const std::string tmp = (dir
        / ("." + target.filename().string() + ".partial-" + std::to_string(::getpid()) + "-"
            + std::to_string(serial++)))
                                .string();
    removeWithSidecars(tmp);
    const int fd = ::open(tmp.c_str(), O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0) {
        errors.push_back(makeDiagnostic(
            Severity::Error, "case-io", std::string("cannot create the case file: ") + std::strerror(errno), path));
        return draft;
    }
    ::close(fd);
    draft->tmp = tmp;
    draft->dir = dir.string();
    sqlite3*& db = draft->db;
    guarded(path, errors, [&] {
        const int rc = sqlite3_open_v2(tmp.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
        if (rc != SQLITE_OK)
            casefile::throwSql(db, rc, "open");
        // The new case is a private temporary file until the rename: no journal is needed while it is written
        // (a failure deletes it), and an fsync before the rename makes it durable.
        exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;");
        exec(db, "BEGIN");
        exec(db, (std::string("PRAGMA application_id = ") + std::to_string(kCaseApplicationId) + ";").c_str());
        exec(db, (std::string("PRAGMA user_version = ") + std::to_string(kCaseSchemaVersion) + ";").c_str());
        for (int v = 1; v <= kCaseSchemaVersion; ++v)
            exec(db, schemaSection(v).c_str());
        {
            Stmt meta(db, "INSERT INTO meta(key, value) VALUES (?, ?)");
            const std::pair<const char*, std::string> rows[] = { { "format", "faultline-case" },
                { "created_at", nowUtc() }, { "created_by", std::string("faultline ") + kVersion },
                { "bundle_root", input.root }, { "read_compat_version", "1" },
                { "chunk_target", std::to_string(kChunkTarget) }, { "chunk_hash", "stored" } };
            for (const auto& [k, v] : rows)
                meta.bind(1, k).bind(2, v).run();
        }
        step("meta");
        // Evidence bytes: chunked, hashed and compressed on every core.
        const auto& files = input.files;
        const std::shared_ptr<const PreparedEvidence> prepared = prepareCaseEvidence(input, threads, zstdLevel);
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
                st.bind(1, static_cast<std::uint64_t>(f)).bind(2, in.path).bind(3, in.origin).bind(4, in.bytes.size());
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
            Stmt ch(db, casefile::kInsertChunkSql);
            for (std::size_t i = 0; i < chunks.size(); ++i) {
                auto& c = chunks[i];
                casefile::insertChunk(ch, static_cast<std::int64_t>(c.file), c);
                if (i % 64 == 63)
                    step("chunk");
            }
        }
        step("files");
        exec(db, "COMMIT");
        // Flush the bulk now, while the caller is still analysing: the final fsync then has little left to do.
        fsyncPath(tmp, false);
        step("evidence-written");
    });
    return draft;
}

std::unique_ptr<CaseFile> CaseFile::create(
    const std::string& path, const CaseCreateRequest& req, std::vector<Diagnostic>& errors)
{
    if (!req.input || !req.evidence || !req.verdict) {
        errors.push_back(makeDiagnostic(Severity::Error, "case-internal", "incomplete case request", path));
        return nullptr;
    }
    const unsigned threads = req.threads ? req.threads : std::max(1u, std::thread::hardware_concurrency());
    const auto& cp = req.checkpoint;
    auto step = [&](std::string_view s) {
        if (cp)
            cp(s);
    };
    const std::shared_ptr<CaseDraft> draft = req.draft && req.draft->path == path && req.draft->input == req.input
        ? req.draft
        : draftCase(path, *req.input, threads, req.zstdLevel, cp);
    if (!draft->errors.empty() || !draft->db) {
        errors.insert(errors.end(), draft->errors.begin(), draft->errors.end());
        if (draft->errors.empty())
            errors.push_back(makeDiagnostic(Severity::Error, "case-internal", "the case draft was used already", path));
        return nullptr;
    }
    sqlite3* db = draft->db;
    const std::string& tmp = draft->tmp;
    const bool ok = guarded(path, errors, [&] {
        { // statements are finalised at the end of this block, before the connection closes
            exec(db, "BEGIN");

            // The import and its evidence.
            const EvidenceSet& ev = *req.evidence;
            const Verdict& v = *req.verdict;
            const std::shared_ptr<const PreparedObservations> blocks =
                req.preparedObservations && req.preparedObservations->evidence == &ev
                ? req.preparedObservations
                : prepareCaseObservations(ev, threads, req.zstdLevel);
            const std::string fingerprint = blocks->fingerprint;
            step("fingerprint");
            const std::int64_t importId =
                insertImport(db, *req.input, ev, v.coverage, *blocks, req.importMs, req.jobOption);
            step("import");
            std::map<std::string, std::int64_t> fileIds;
            for (std::size_t f = 0; f < req.input->files.size(); ++f)
                fileIds.emplace(req.input->files[f].path, static_cast<std::int64_t>(f));
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
                        .bind(6, sourceKindName(src.kind))
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
            insertRun(db, v, ev, ctx, "create", importId, cp);
            if (req.story)
                insertStory(db, *req.story, req.storyChange, defaultAuthor(req.run.author));
            step("before-commit");
            exec(db, "COMMIT");
            exec(db, "PRAGMA journal_mode = WAL;");
            step("after-commit");
        }
        // Closing checkpoints the WAL into the file, so the case is one self-contained file from here on.
        const int closeRc = sqlite3_close(db);
        if (closeRc != SQLITE_OK)
            casefile::throwSql(nullptr, closeRc, "close"); // the draft still owns the connection and closes it
        draft->db = nullptr;
        fsyncPath(tmp, false);
        if (fileExists(tmp + "-wal"))
            fail(path, "case-io", "the new case's write-ahead log was not checkpointed");
        if (::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) != 0)
            fail(path, errno == EEXIST ? "case-exists" : "case-io",
                std::string("cannot move the new case into place: ") + std::strerror(errno));
        draft->consumed = true;
        fsyncPath(draft->dir, true);
        step("renamed");
    });
    if (!ok)
        return nullptr; // the draft's destructor closes and removes the temporary file
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
            // The backup is written under a temporary name and renamed, so a killed migration never leaves a
            // partial file that looks like a backup.
            const std::string partial = backup + ".partial-" + std::to_string(::getpid());
            removeWithSidecars(partial);
            {
                Stmt vac(c->m_db, "VACUUM INTO ?");
                vac.bind(1, partial).run();
            }
            ::chmod(partial.c_str(), 0600);
            fsyncPath(partial, false);
            if (::renameat2(AT_FDCWD, partial.c_str(), AT_FDCWD, backup.c_str(), RENAME_NOREPLACE) != 0) {
                removeWithSidecars(partial);
                fail(path, "case-io", "cannot keep a backup before migrating: " + std::string(std::strerror(errno)));
            }
            casefile::Transaction tx(c->m_db);
            for (int v = version + 1; v <= kCaseSchemaVersion; ++v)
                exec(c->m_db, schemaSection(v).c_str());
            exec(c->m_db, (std::string("PRAGMA user_version = ") + std::to_string(kCaseSchemaVersion)).c_str());
            tx.commit();
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
            "rules_dir, coalesce(import_id, (SELECT min(id) FROM imports)) FROM runs ORDER BY id");
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
            r.importId = st.i64(16);
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

/// A column of the case's latest import; nullopt (and an error) when the case records none.
std::optional<std::string> latestImportColumn(
    sqlite3* db, const std::string& file, const char* column, std::vector<Diagnostic>& errors)
{
    std::optional<std::string> out;
    guarded(file, errors, [&] {
        Stmt st(db, (std::string("SELECT ") + column + " FROM imports ORDER BY id DESC LIMIT 1").c_str());
        if (!st.step())
            fail(file, "case-corrupt", "the case records no import");
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
    return latestImportColumn(m_db, m_path, json ? "report_json" : "report_text", errors);
}

std::optional<std::string> CaseFile::metaValue(const std::string& key, std::vector<Diagnostic>& errors)
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
    return latestImportColumn(m_db, m_path, "fingerprint", errors).value_or(std::string());
}

std::string CaseFile::importJobOption(std::vector<Diagnostic>& errors)
{
    return latestImportColumn(m_db, m_path, "job_option", errors).value_or(std::string());
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

bool CaseFile::writable(std::vector<Diagnostic>& errors) const
{
    if (m_readOnly)
        errors.push_back(makeDiagnostic(Severity::Error, "case-read-only", "the case is open read-only", m_path));
    return !m_readOnly;
}

std::int64_t CaseFile::addRun(const Verdict& verdict, const EvidenceSet& evidence, const RunContext& context,
    std::vector<Diagnostic>& errors, const CaseCheckpoint& checkpoint)
{
    if (!writable(errors))
        return 0;
    std::int64_t id = 0;
    guarded(m_path, errors, [&] {
        casefile::Transaction tx(m_db);
        std::int64_t importId = 0;
        std::string latestFingerprint;
        {
            Stmt st(m_db, "SELECT id, fingerprint FROM imports ORDER BY id DESC LIMIT 1");
            if (st.step()) {
                importId = st.i64(0);
                latestFingerprint = st.text(1);
            }
        }
        if (context.input && !context.fingerprint.empty() && context.fingerprint != latestFingerprint) {
            // The stored bytes import differently now: keep this import beside the earlier ones.
            const auto blocks = prepareCaseObservations(evidence);
            importId = insertImport(
                m_db, *context.input, evidence, verdict.coverage, *blocks, context.importMs, context.jobOption);
            if (checkpoint)
                checkpoint("import");
        }
        const std::int64_t added = insertRun(m_db, verdict, evidence, context, "rerun", importId, checkpoint);
        if (checkpoint)
            checkpoint("before-commit");
        tx.commit();
        id = added;
        if (checkpoint)
            checkpoint("after-commit");
    });
    return id;
}

bool CaseFile::extractCatalog(std::int64_t run, const std::string& dir, std::vector<Diagnostic>& errors)
{
    return guarded(m_path, errors, [&] {
        Stmt st(m_db,
            "SELECT f.path, f.content FROM runs r JOIN catalog_files f ON f.catalog_hash = r.catalog_hash "
            "WHERE r.id = ? ORDER BY f.path");
        st.bind(1, run);
        std::size_t n = 0;
        while (st.step()) {
            const std::string rel = st.text(0);
            if (rel.empty() || rel.front() == '/' || rel.find("..") != std::string::npos)
                fail(m_path, "case-corrupt", "a stored catalog file has an unsafe path '" + rel + "'");
            const fs::path target = fs::path(dir) / rel;
            fs::create_directories(target.parent_path());
            std::ofstream out(target, std::ios::binary | std::ios::trunc);
            const auto bytes = st.blob(1);
            out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
            if (!out)
                fail(m_path, "case-io", "cannot write the stored catalog to " + target.string());
            ++n;
        }
        if (n == 0)
            fail(m_path, "case-no-catalog",
                "the case does not hold the rule catalog of run " + std::to_string(run)
                    + " (runs written before schema 2 do not)");
    });
}

std::int64_t CaseFile::importCount(std::vector<Diagnostic>& errors)
{
    std::int64_t n = 0;
    guarded(m_path, errors, [&] {
        Stmt st(m_db, "SELECT count(*) FROM imports");
        if (st.step())
            n = st.i64(0);
    });
    return n;
}

std::optional<RunDiff> CaseFile::diff(std::int64_t from, std::int64_t to, std::vector<Diagnostic>& errors)
{
    std::optional<RunDiff> out;
    guarded(m_path, errors, [&] {
        auto load = [&](std::int64_t run) {
            Stmt st(m_db, "SELECT verdict_json, fingerprint FROM runs WHERE id = ?");
            st.bind(1, run);
            if (!st.step())
                fail(m_path, "case-no-run", "the case has no run " + std::to_string(run));
            return std::make_pair(st.text(0), st.isNull(1) ? std::string("(none)") : st.text(1));
        };
        const auto [jsonA, printA] = load(from);
        const auto [jsonB, printB] = load(to);
        RunDiff d = diffVerdictJson(m_db, jsonA, jsonB);
        d.from = from;
        d.to = to;
        // The evidence the runs analysed is an input too: listed, but alone it does not make the verdicts differ.
        if (printA != printB)
            d.changes.push_back("input evidence fingerprint: " + printA.substr(0, 12) + " → " + printB.substr(0, 12));
        out = std::move(d);
    });
    return out;
}

// --- annotations and expectations ------------------------------------------------------------------------------

std::int64_t CaseFile::annotate(const Annotation& a, std::vector<Diagnostic>& errors)
{
    if (!writable(errors))
        return 0;
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
        auto checkLine = [&] {
            Stmt f(m_db, "SELECT line_count FROM files WHERE id = ?");
            f.bind(1, x.fileId);
            if (!f.step() || x.line == 0 || x.line > f.u64(0))
                fail(m_path, "annotation-target", "the case has no such evidence line");
        };
        if (x.kind == "removed") {
            // A removal supersedes a current row and copies its target as it is.
        } else if (x.target == "event" && x.runId > 0) {
            // An event of a stored run: its identity is read from the run.
            if (!readEventTarget(x))
                fail(m_path, "annotation-target",
                    "run " + std::to_string(x.runId) + " has no event " + std::to_string(x.eventIdx));
        } else if (x.target == "event") {
            // An event of an analysis not stored as a run: it comes with its rule and record.
            if (x.ruleId.empty() || x.byteOffset < 0)
                fail(m_path, "annotation-target", "an event is annotated by its run and index, or its rule and record");
            checkLine();
            x.eventIdx = -1;
        } else if (x.target == "line") {
            checkLine();
        } else if (x.target == "symptom") {
            if (x.eventType.empty())
                fail(m_path, "annotation-target", "a symptom is annotated by its type");
        } else if (x.target == "lane") {
            if (x.node.empty())
                fail(m_path, "annotation-target", "a lane is annotated by its node");
        } else if (x.target == "range") {
            if (x.fromNs == INT64_MIN || x.toNs == INT64_MIN || x.toNs < x.fromNs)
                fail(m_path, "annotation-target", "a time range needs a start and an end after it");
        } else if (x.target != "case") {
            fail(m_path, "annotation-target",
                "an annotation targets the case, an event, a line, a symptom, a lane or a time range");
        }
        JsonWriter tags(false);
        tags.beginArray();
        for (const auto& t : x.tags)
            tags.value(t);
        tags.endArray();
        casefile::Transaction tx(m_db);
        Stmt st(m_db,
            "INSERT INTO annotations(kind, target, run_id, event_idx, file_id, line, text, author, created_at, "
            "supersedes, rule_id, event_type, byte_offset, node, from_ns, to_ns, tags_json) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
        st.bind(1, x.kind).bind(2, x.target);
        if (x.target == "event" && x.runId > 0)
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
        auto text = [&](int col, const std::string& v) {
            if (v.empty())
                st.bindNull(col);
            else
                st.bind(col, v);
        };
        auto number = [&](int col, std::int64_t v, std::int64_t none) {
            if (v == none)
                st.bindNull(col);
            else
                st.bind(col, v);
        };
        text(11, x.ruleId);
        text(12, x.eventType);
        number(13, x.byteOffset, -1);
        text(14, x.node);
        number(15, x.fromNs, INT64_MIN);
        number(16, x.toNs, INT64_MIN);
        st.bind(17, tags.str());
        st.run();
        const std::int64_t added = sqlite3_last_insert_rowid(m_db);
        tx.commit();
        id = added;
    });
    return id;
}

bool CaseFile::readEventTarget(Annotation& a)
{
    Stmt ev(m_db,
        "SELECT e.line, s.file_id, e.rule_id, e.type, e.byte_offset, coalesce(e.node, ''), e.time_ns, "
        "coalesce(f.path, '') FROM events e LEFT JOIN sources s ON s.idx = e.source_idx "
        "LEFT JOIN files f ON f.id = s.file_id WHERE e.run_id = ? AND e.idx = ?");
    ev.bind(1, a.runId).bind(2, a.eventIdx);
    if (!ev.step())
        return false;
    a.line = ev.u64(0);
    a.fileId = ev.isNull(1) ? -1 : ev.i64(1);
    a.ruleId = ev.text(2);
    a.eventType = ev.text(3);
    a.byteOffset = ev.i64(4);
    a.node = ev.text(5);
    a.fromNs = ev.isNull(6) ? INT64_MIN : ev.i64(6);
    a.path = ev.text(7);
    return true;
}

std::optional<Annotation> CaseFile::eventTarget(
    std::int64_t run, std::int64_t eventIdx, std::vector<Diagnostic>& errors)
{
    std::optional<Annotation> out;
    guarded(m_path, errors, [&] {
        Annotation a;
        a.target = "event";
        a.runId = run;
        a.eventIdx = eventIdx;
        if (!readEventTarget(a))
            fail(m_path, "annotation-target",
                "run " + std::to_string(run) + " has no event " + std::to_string(eventIdx));
        out = std::move(a);
    });
    return out;
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
            "a.created_at, coalesce(a.supersedes, 0), coalesce(a.rule_id, ''), coalesce(a.event_type, ''), "
            "coalesce(a.byte_offset, -1), coalesce(a.node, ''), a.from_ns, a.to_ns, "
            "(SELECT group_concat(t.value, char(31)) FROM json_each(a.tags_json) t) "
            "FROM annotations a LEFT JOIN files f ON f.id = a.file_id "
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
            a.ruleId = st.text(12);
            a.eventType = st.text(13);
            a.byteOffset = st.i64(14);
            a.node = st.text(15);
            a.fromNs = st.isNull(16) ? INT64_MIN : st.i64(16);
            a.toNs = st.isNull(17) ? INT64_MIN : st.i64(17);
            if (!st.isNull(18)) {
                const std::string all = st.text(18);
                std::size_t from = 0;
                for (std::size_t cut = all.find('\x1f');; cut = all.find('\x1f', from)) {
                    a.tags.push_back(all.substr(from, cut == std::string::npos ? std::string::npos : cut - from));
                    if (cut == std::string::npos)
                        break;
                    from = cut + 1;
                }
            }
            out.push_back(std::move(a));
        }
    });
    return out;
}

std::optional<AnnotationScope> CaseFile::annotationScope(
    const std::vector<Annotation>& annotations, std::int64_t run, std::vector<Diagnostic>& errors)
{
    std::optional<AnnotationScope> out;
    guarded(m_path, errors, [&] {
        {
            Stmt r(m_db, "SELECT 1 FROM runs WHERE id = ?");
            r.bind(1, run);
            if (!r.step())
                fail(m_path, "case-no-run", "the case has no run " + std::to_string(run));
        }
        AnnotationScope scope;
        scope.name = "run " + std::to_string(run);
        scope.run = run;
        std::set<std::pair<std::string, std::uint64_t>> wanted;
        std::set<std::int64_t> wantedIndex;
        for (const auto& a : annotations) {
            if (a.target != "event")
                continue;
            if (!a.ruleId.empty())
                scope.eventsOfRule.emplace(a.ruleId, 0);
            else if (a.runId == run)
                wantedIndex.insert(a.eventIdx);
            if (a.byteOffset >= 0)
                wanted.insert({ a.path, static_cast<std::uint64_t>(a.byteOffset) });
        }
        // One pass over the run's events: the records and rules the annotations name.
        Stmt ev(m_db,
            "SELECT e.idx, e.rule_id, e.type, coalesce(e.node, ''), e.time_ns, e.line, e.byte_offset, "
            "coalesce(f.path, '') FROM events e LEFT JOIN sources s ON s.idx = e.source_idx "
            "LEFT JOIN files f ON f.id = s.file_id WHERE e.run_id = ? ORDER BY e.idx");
        ev.bind(1, run);
        while (ev.step()) {
            const std::string rule = ev.text(1);
            if (const auto it = scope.eventsOfRule.find(rule); it != scope.eventsOfRule.end())
                ++it->second;
            const std::int64_t idx = ev.i64(0);
            const std::pair<std::string, std::uint64_t> record { ev.text(7), ev.u64(6) };
            const bool atWanted = wanted.count(record) != 0;
            const bool byIndex = wantedIndex.count(idx) != 0;
            if (!atWanted && !byIndex)
                continue;
            AnnotatedEvent e { idx, rule, ev.text(2), ev.text(3), ev.isNull(4) ? INT64_MIN : ev.i64(4), ev.u64(5) };
            if (byIndex)
                scope.byIndex[idx] = e;
            if (atWanted)
                scope.atRecord[record].push_back(std::move(e));
        }
        Stmt sy(m_db,
            "SELECT json_extract(value, '$.type') FROM runs, json_each(runs.verdict_json, '$.symptoms') "
            "WHERE runs.id = ?");
        sy.bind(1, run);
        while (sy.step())
            scope.symptoms.emplace(sy.text(0), -1);
        Stmt nodes(m_db,
            "SELECT node FROM events WHERE run_id = ?1 AND node IS NOT NULL UNION "
            "SELECT node FROM observation_blocks WHERE node IS NOT NULL UNION "
            "SELECT node FROM ranks WHERE node IS NOT NULL");
        nodes.bind(1, run);
        while (nodes.step())
            scope.nodes.insert(nodes.text(0));
        out = std::move(scope);
    });
    return out;
}

// --- the story ----------------------------------------------------------------------------------------------------

std::optional<Story> CaseFile::story(std::int64_t revision, std::vector<Diagnostic>& errors)
{
    std::optional<Story> out;
    guarded(m_path, errors, [&] {
        Story story;
        {
            Stmt st(m_db,
                revision > 0 ? "SELECT revision, author, created_at, change FROM story_revisions WHERE revision = ?"
                             : "SELECT revision, author, created_at, change FROM story_revisions "
                               "ORDER BY revision DESC LIMIT 1");
            if (revision > 0)
                st.bind(1, revision);
            if (!st.step()) {
                if (revision > 0)
                    fail(m_path, "story-no-revision", "the case's story has no revision " + std::to_string(revision));
                out = std::move(story); // no story yet
                return;
            }
            story.revision = st.i64(0);
            story.author = st.text(1);
            story.createdAt = st.text(2);
            story.change = st.text(3);
        }
        Stmt st(m_db,
            "SELECT position, title, text, state_json, origin FROM story_steps WHERE revision = ? ORDER BY position");
        st.bind(1, story.revision);
        while (st.step()) {
            StoryStep step;
            step.title = st.text(1);
            step.text = st.text(2);
            std::vector<Diagnostic> stateErrors;
            auto state = storyStateFromJson(st.text(3),
                m_path + " (story revision " + std::to_string(story.revision) + ", step " + std::to_string(st.i64(0))
                    + ")",
                stateErrors);
            if (!state)
                throw CaseFailure { stateErrors.empty()
                        ? makeDiagnostic(Severity::Error, "story-state", "a step's view state cannot be read", m_path)
                        : stateErrors.front() };
            step.state = std::move(*state);
            step.origin = st.text(4);
            story.steps.push_back(std::move(step));
        }
        out = std::move(story);
    });
    return out;
}

std::vector<Story> CaseFile::storyRevisions(std::vector<Diagnostic>& errors)
{
    std::vector<Story> out;
    guarded(m_path, errors, [&] {
        Stmt st(m_db, "SELECT revision, author, created_at, change FROM story_revisions ORDER BY revision");
        while (st.step()) {
            Story s;
            s.revision = st.i64(0);
            s.author = st.text(1);
            s.createdAt = st.text(2);
            s.change = st.text(3);
            out.push_back(std::move(s));
        }
    });
    return out;
}

std::int64_t CaseFile::writeStory(const std::vector<StoryStep>& steps, const std::string& change,
    const std::string& author, std::int64_t baseRevision, std::vector<Diagnostic>& errors)
{
    if (!writable(errors))
        return 0;
    std::int64_t revision = 0;
    guarded(m_path, errors, [&] {
        // BEGIN IMMEDIATE: no other writer can add a revision between the check and the insert.
        casefile::Transaction tx(m_db);
        if (baseRevision >= 0) {
            Stmt st(m_db, "SELECT coalesce(max(revision), 0) FROM story_revisions");
            const std::int64_t latest = st.step() ? st.i64(0) : 0;
            if (latest != baseRevision)
                fail(m_path, "story-conflict",
                    "the story was changed meanwhile: its latest revision is " + std::to_string(latest)
                        + ", and this save was made from "
                        + (baseRevision == 0 ? std::string("no story") : "revision " + std::to_string(baseRevision))
                        + "; nothing was written (reload the story and make the change again)");
        }
        const std::int64_t added = insertStory(m_db, steps, change, defaultAuthor(author));
        tx.commit();
        revision = added;
    });
    return revision;
}

std::int64_t CaseFile::expect(
    std::int64_t run, const std::string& author, const std::string& note, std::vector<Diagnostic>& errors)
{
    if (!writable(errors))
        return 0;
    std::int64_t id = 0;
    guarded(m_path, errors, [&] {
        casefile::Transaction tx(m_db);
        Stmt st(m_db,
            "INSERT INTO expectations(run_id, outcome, domain, subdomain, cause_type, cause_node, author, "
            "created_at, note) SELECT id, outcome, domain, subdomain, "
            "coalesce(json_extract(verdict_json, '$.cause.type'), ''), "
            "coalesce(json_extract(verdict_json, '$.cause.node'), ''), ?, ?, ? FROM runs WHERE id = ?");
        st.bind(1, defaultAuthor(author)).bind(2, nowUtc()).bind(3, note).bind(4, run).run();
        if (sqlite3_changes(m_db) != 1)
            fail(m_path, "case-no-run", "the case has no run " + std::to_string(run));
        const std::int64_t added = sqlite3_last_insert_rowid(m_db);
        tx.commit();
        id = added;
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
        Stmt st(m_db, "SELECT verdict_json FROM runs WHERE id = ?");
        st.bind(1, run);
        if (!st.step())
            fail(m_path, "case-no-run", "the case has no run " + std::to_string(run));
        out = expectationMisses(m_db, *e, st.text(0));
    });
    return out;
}

} // namespace faultline::core
