// SPDX-License-Identifier: Apache-2.0
// Redacted copies of a case. The same walk over the case serves both passes: discovery (every text read for secrets,
// in a fixed order, so pseudonyms are numbered the same way by every export of the case) and the copy (every text
// redacted and written to a new case file). The walk is driven by the case's own schema (sqlite_master): a table
// or column this file does not name is still copied, its texts redacted, so nothing escapes redaction by being new.
//
// Offsets. Redaction works line by line and never adds or removes a newline, so every line number stays valid. Byte
// offsets do change; the copy's are recomputed: each redacted file keeps a map of its changed lines (where each
// starts, the shift before it, its edits), and every stored offset (observation blocks, ranks, metric series,
// events, annotations, and "offset"/"length"/"byte_offset" in the stored JSON next to a file's path, as in the
// verdicts and in the story steps' selected events) is moved through it. An offset inside a
// replaced secret moves to the start of its pseudonym (an end to its end), so a record still covers its text.
#include "core/casefile/case_internal.h"
#include "core/redact/redaction.h"
#include "core/util/json_spans.h"
#include "core/util/json_writer.h"
#include "core/version.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <map>
#include <set>

namespace fs = std::filesystem;

namespace faultline::core {

using namespace casefile;

namespace {

/// Where a redacted file's bytes moved.
class OffsetMap
{
public:
    OffsetMap() = default;
    OffsetMap(std::string_view bytes, const std::vector<TextEdit>& edits)
    {
        std::int64_t shift = 0;
        for (const auto& e : edits) {
            if (m_lines.empty() || e.offset > m_lines.back().end) {
                const auto nl = e.offset == 0 ? std::string_view::npos : bytes.rfind('\n', e.offset - 1);
                Line l;
                l.start = nl == std::string_view::npos ? 0 : nl + 1;
                const auto next = bytes.find('\n', e.offset);
                l.end = next == std::string_view::npos ? bytes.size() : next;
                l.before = shift;
                m_lines.push_back(std::move(l));
            }
            Line& l = m_lines.back();
            l.edits.push_back(e);
            const std::int64_t d = static_cast<std::int64_t>(e.newLength) - static_cast<std::int64_t>(e.oldLength);
            l.delta += d;
            shift += d;
        }
    }

    /// The offset in the redacted bytes of `offset` in the original ones; `end` maps an offset inside a replaced
    /// secret to the end of its pseudonym instead of its start.
    std::uint64_t map(std::uint64_t offset, bool end) const
    {
        auto it = std::upper_bound(
            m_lines.begin(), m_lines.end(), offset, [](std::uint64_t off, const Line& l) { return off < l.start; });
        if (it == m_lines.begin())
            return offset;
        const Line& l = *(it - 1);
        if (offset > l.end)
            return shifted(offset, l.before + l.delta);
        std::int64_t d = l.before;
        for (const auto& e : l.edits) {
            if (offset >= e.offset + e.oldLength) {
                d += static_cast<std::int64_t>(e.newLength) - static_cast<std::int64_t>(e.oldLength);
            } else if (offset > e.offset) {
                return shifted(e.offset, d) + (end ? e.newLength : 0);
            } else {
                break;
            }
        }
        return shifted(offset, d);
    }

private:
    struct Line
    {
        std::uint64_t start = 0;
        std::uint64_t end = 0; ///< its newline (or the end of the file)
        std::int64_t before = 0; ///< the shift of every byte before the line
        std::int64_t delta = 0; ///< the line's own change of length
        std::vector<TextEdit> edits; ///< file offsets
    };
    static std::uint64_t shifted(std::uint64_t offset, std::int64_t d)
    {
        return static_cast<std::uint64_t>(static_cast<std::int64_t>(offset) + d);
    }
    std::vector<Line> m_lines;
};

/// One value of a row, as SQLite gave it.
struct Cell
{
    int type = SQLITE_NULL;
    std::int64_t i = 0;
    double f = 0;
    std::string bytes;
};

std::string sqlName(const std::string& name)
{
    std::string out = "\"";
    for (const char c : name)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

/// Columns that hold hashes or values the engine itself names (never evidence text): copied as they are.
bool verbatimColumn(const std::string& table, const std::string& column)
{
    static const std::set<std::string> kColumns { "meta.key", "files.sha256", "runs.catalog_hash",
        "catalog_files.catalog_hash", "catalog_files.path", "runs.fingerprint", "imports.fingerprint",
        "runs.created_at", "imports.created_at", "annotations.created_at", "expectations.created_at", "runs.kind",
        "runs.outcome", "runs.domain", "runs.subdomain", "events.quality", "events.role", "events.domain",
        "events.subdomain", "events.severity", "events.relation", "sources.kind", "sources.status", "sources.zone",
        "observation_blocks.kind", "annotations.kind", "annotations.target", "import_diagnostics.phase",
        "import_diagnostics.severity", "import_diagnostics.code", "import_archives.status", "import_archives.code",
        "expectations.outcome", "expectations.domain", "expectations.subdomain", "story_revisions.created_at",
        "story_steps.origin" };
    return kColumns.count(table + "." + column) != 0;
}

/// Meta values Faultline itself writes as fixed words and numbers.
bool verbatimMeta(const std::string& key)
{
    return key == "format" || key == "chunk_hash" || key == "chunk_target" || key == "read_compat_version"
        || key == "created_at";
}

bool jsonColumn(const std::string& column)
{
    return column.size() > 5 && column.compare(column.size() - 5, 5, "_json") == 0;
}

/// The order tables are read in: the case's own first, as schema.sql lists them, then any other by name.
std::vector<std::string> tableOrder(sqlite3* db)
{
    static const char* const kKnown[] = { "meta", "files", "chunks", "imports", "import_diagnostics", "import_archives",
        "sources", "observation_blocks", "ranks", "metric_series", "runs", "events", "catalog_files", "annotations",
        "expectations", "story_revisions", "story_steps" };
    std::set<std::string> present;
    {
        Stmt st(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'");
        while (st.step())
            present.insert(st.text(0));
    }
    std::vector<std::string> out;
    for (const char* t : kKnown)
        if (present.erase(t))
            out.emplace_back(t);
    out.insert(out.end(), present.begin(), present.end());
    return out;
}

/// The walk over a case that discovers or redacts every text of it (see the top of this file).
class CaseRedaction
{
public:
    CaseRedaction(sqlite3* src, const std::string& path, Redactor& r, bool discover)
        : m_src(src)
        , m_path(path)
        , m_r(r)
        , m_discover(discover)
    { }

    /// Reads (discovery) or redacts the evidence. `in` is the case's stored input, checked against its hashes.
    void evidence(const BundleInput& in)
    {
        {
            Stmt st(m_src, "SELECT id, path FROM files ORDER BY id");
            while (st.step()) {
                m_fileIndex[st.i64(0)] = m_fileIds.size();
                m_byPath.emplace(st.text(1), m_fileIds.size());
                m_fileIds.push_back(st.i64(0));
            }
        }
        {
            Stmt st(m_src, "SELECT idx, file_id FROM sources WHERE file_id IS NOT NULL");
            while (st.step())
                if (const auto it = m_fileIndex.find(st.i64(1)); it != m_fileIndex.end())
                    m_sourceFile[st.i64(0)] = it->second;
        }
        if (m_fileIds.size() != in.files.size())
            fail(m_path, "case-corrupt", "the case's file list does not match its stored evidence");
        m_maps.resize(in.files.size());
        m_bytes.resize(in.files.size());
        for (std::size_t f = 0; f < in.files.size(); ++f) {
            const InputFile& file = in.files[f];
            if (!file.readable)
                continue;
            if (m_discover) {
                m_r.discover(file.bytes);
                continue;
            }
            std::vector<TextEdit> edits;
            auto out = std::make_shared<std::string>(m_r.redact(file.bytes, &edits));
            if (countNewlines(*out) != countNewlines(file.bytes))
                fail(m_path, "case-internal",
                    "redacting evidence file '" + file.path + "' changed its line count; nothing was written");
            m_maps[f] = OffsetMap(file.bytes, edits);
            m_bytes[f] = std::move(out);
        }
        if (m_discover)
            return;
        m_input.root = quiet(in.root);
        m_input.hasManifest = in.hasManifest;
        m_input.manifestReadable = in.manifestReadable;
        m_input.manifestPath = quiet(in.manifestPath);
        m_input.manifestText = quiet(in.manifestText);
        for (const auto& a : in.archiveStops)
            m_input.archiveStops.push_back({ quiet(a.path), a.partial, a.bytes, a.code, quiet(a.message) });
        for (auto d : in.diagnostics) {
            d.message = quiet(d.message);
            d.where.file = quiet(d.where.file);
            m_input.diagnostics.push_back(std::move(d));
        }
        for (std::size_t f = 0; f < in.files.size(); ++f) {
            const InputFile& src = in.files[f];
            InputFile out;
            out.path = quiet(src.path);
            out.origin = quiet(src.origin);
            out.readable = src.readable;
            out.readError = quiet(src.readError);
            out.cut = src.cut;
            out.mtimeNs = src.mtimeNs;
            if (m_bytes[f]) {
                out.bytes = *m_bytes[f];
                out.owner = m_bytes[f];
            }
            m_input.files.push_back(std::move(out));
        }
    }

    const BundleInput& redactedInput() const { return m_input; }
    /// A redacted text of the input that repeats a table's value (counted when that value is redacted).
    std::string quiet(std::string_view s) { return m_r.redact(s, nullptr, false); }

    std::string text(std::string_view s)
    {
        if (m_discover) {
            m_r.discover(s);
            return {};
        }
        return m_r.redact(s);
    }

    /// A JSON text with every string (keys too) redacted and every offset next to an evidence file's path moved;
    /// text that is not JSON is redacted as text.
    std::string json(std::string_view s)
    {
        const auto tree = parseJsonSpans(s);
        if (!tree)
            return text(s);
        std::vector<SpanEdit> edits;
        jsonValue(*tree, -1, edits);
        return m_discover ? std::string() : applySpanEdits(s, std::move(edits));
    }

    std::optional<std::size_t> fileOfSource(std::int64_t source) const
    {
        const auto it = m_sourceFile.find(source);
        return it == m_sourceFile.end() ? std::nullopt : std::optional<std::size_t>(it->second);
    }
    std::optional<std::size_t> fileOfId(std::int64_t id) const
    {
        const auto it = m_fileIndex.find(id);
        return it == m_fileIndex.end() ? std::nullopt : std::optional<std::size_t>(it->second);
    }
    std::uint64_t map(std::size_t file, std::uint64_t offset, bool end) const { return m_maps[file].map(offset, end); }
    std::uint64_t newSize(std::size_t file) const { return m_bytes[file] ? m_bytes[file]->size() : 0; }
    std::int64_t fileIdAt(std::size_t position) const { return m_fileIds.at(position); }

private:
    void string(const JsonSpan& v, std::vector<SpanEdit>& edits)
    {
        if (m_discover) {
            m_r.discover(v.text);
            return;
        }
        // A string that is a secret as a whole (a uid in a field of its own) has no context around it.
        const auto exact = m_r.redactExact(v.text);
        const std::string r = exact ? *exact : m_r.redact(v.text);
        if (r == v.text)
            return;
        std::string literal = "\"";
        JsonWriter::escapeInto(literal, r);
        literal += '"';
        edits.push_back({ v.begin, v.end, std::move(literal) });
    }

    static std::optional<std::uint64_t> number(const JsonSpan& v)
    {
        if (v.type != JsonSpan::Type::Number || v.text.empty() || v.text.size() > 19
            || !std::all_of(v.text.begin(), v.text.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return std::nullopt;
        return std::stoull(v.text);
    }

    void jsonValue(const JsonSpan& v, std::int64_t file, std::vector<SpanEdit>& edits)
    {
        switch (v.type) {
        case JsonSpan::Type::String:
            string(v, edits);
            return;
        case JsonSpan::Type::Array:
            for (const auto& item : v.items)
                jsonValue(item, file, edits);
            return;
        case JsonSpan::Type::Object:
            break;
        default:
            return;
        }
        // An object naming an evidence file ({"file": ..., "offset": ..., "length": ...}, a source's {"path": ...,
        // "bytes": ...}) sets where its offsets, and those of the objects inside it, point.
        std::int64_t own = -1;
        for (const auto& [k, val] : v.members)
            if ((k.text == "file" || k.text == "path") && val.type == JsonSpan::Type::String)
                if (const auto it = m_byPath.find(val.text); it != m_byPath.end())
                    own = static_cast<std::int64_t>(it->second);
        const std::int64_t ctx = own >= 0 ? own : file;
        const JsonSpan* offsetNode = v.member("offset") ? v.member("offset") : v.member("byte_offset");
        for (const auto& [k, val] : v.members) {
            string(k, edits);
            if (ctx >= 0 && val.type == JsonSpan::Type::Number) {
                if (!m_discover) {
                    const auto f = static_cast<std::size_t>(ctx);
                    std::optional<std::uint64_t> moved;
                    const auto n = number(val);
                    if (n && (k.text == "offset" || k.text == "byte_offset")) {
                        moved = map(f, *n, false);
                    } else if (n && k.text == "length" && offsetNode && number(*offsetNode)) {
                        const std::uint64_t start = *number(*offsetNode);
                        moved = map(f, start + *n, true) - map(f, start, false);
                    } else if (n && own >= 0 && (k.text == "bytes" || k.text == "size") && m_bytes[f]) {
                        moved = newSize(f);
                    }
                    if (moved && *moved != *n)
                        edits.push_back({ val.begin, val.end, std::to_string(*moved) });
                }
                continue;
            }
            jsonValue(val, ctx, edits);
        }
    }

    sqlite3* m_src;
    const std::string& m_path;
    Redactor& m_r;
    bool m_discover;
    std::vector<std::int64_t> m_fileIds; ///< files.id by position
    std::map<std::int64_t, std::size_t> m_fileIndex; ///< files.id → position
    std::map<std::string, std::size_t> m_byPath; ///< the original display path → position
    std::map<std::int64_t, std::size_t> m_sourceFile; ///< sources.idx → position
    std::vector<OffsetMap> m_maps;
    std::vector<std::shared_ptr<std::string>> m_bytes;
    BundleInput m_input;
};

/// Removes a partly written copy unless it was renamed into place.
struct PartialFile
{
    std::string path;
    sqlite3* db = nullptr;
    bool consumed = false;
    ~PartialFile()
    {
        if (db)
            sqlite3_close_v2(db);
        if (!consumed && !path.empty())
            removeWithSidecars(path);
    }
};

} // namespace

bool CaseFile::discoverSecrets(Redactor& redactor, std::vector<Diagnostic>& errors)
{
    return guarded(m_path, errors, [&] {
        // The case's names first: its nodes and hosts (numbered in name order), its authors.
        {
            Stmt st(m_db,
                "SELECT node FROM observation_blocks WHERE node IS NOT NULL UNION SELECT node FROM events WHERE node "
                "IS NOT NULL UNION SELECT node FROM ranks WHERE node IS NOT NULL UNION SELECT node FROM metric_series "
                "WHERE node IS NOT NULL UNION SELECT host FROM sources WHERE host IS NOT NULL UNION SELECT j.value "
                "FROM imports, json_each(imports.scope_json, '$.nodes') j UNION SELECT j.value FROM runs, "
                "json_each(runs.scope_json, '$.nodes') j UNION SELECT cause_node FROM expectations WHERE cause_node "
                "<> ''");
            while (st.step())
                redactor.addKnownHost(st.text(0));
        }
        {
            std::string authors =
                "SELECT author FROM runs UNION SELECT author FROM annotations UNION SELECT author FROM expectations";
            if (m_schema >= 4)
                authors += " UNION SELECT author FROM story_revisions";
            Stmt st(m_db, authors.c_str());
            while (st.step())
                redactor.addKnownUser(st.text(0));
        }
        RedactedCopyRequest none;
        std::vector<Diagnostic> inner;
        if (!writeRedactedCopyImpl(redactor, none, true, inner))
            throw CaseFailure { inner.empty()
                    ? makeDiagnostic(Severity::Error, "case-internal", "cannot read the case for redaction", m_path)
                    : inner.front() };
    });
}

std::optional<RedactedCopyResult> CaseFile::writeRedactedCopy(
    Redactor& redactor, const RedactedCopyRequest& request, std::vector<Diagnostic>& errors)
{
    return writeRedactedCopyImpl(redactor, request, false, errors);
}

std::optional<RedactedCopyResult> CaseFile::writeRedactedCopyImpl(
    Redactor& redactor, const RedactedCopyRequest& request, bool discover, std::vector<Diagnostic>& errors)
{
    std::optional<RedactedCopyResult> result;
    const bool write = !discover && !request.path.empty();
    const auto step = [&](std::string_view s) {
        if (request.checkpoint)
            request.checkpoint(s);
    };
    PartialFile partial;
    const bool ok = guarded(m_path, errors, [&] {
        RedactedCopyResult res;
        std::vector<Diagnostic> loadErrors;
        const auto input = loadInput(loadErrors);
        if (!input)
            throw CaseFailure { loadErrors.empty()
                    ? makeDiagnostic(Severity::Error, "case-internal", "cannot read the stored evidence", m_path)
                    : loadErrors.front() };
        CaseRedaction walk(m_db, m_path, redactor, discover);
        walk.evidence(*input);
        res.files = input->files.size();
        step("evidence");

        // The new file, written privately beside its target and renamed into place at the end.
        sqlite3* db = nullptr;
        std::shared_ptr<const PreparedEvidence> prepared;
        if (write) {
            if (fileExists(request.path))
                fail(request.path, "case-exists",
                    "a file already exists there; a redacted copy is never written over a file: choose another name");
            const fs::path target(request.path);
            const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
            static std::atomic<unsigned> serial { 0 };
            partial.path = (dir
                / ("." + target.filename().string() + ".partial-" + std::to_string(::getpid()) + "-"
                    + std::to_string(serial++)))
                               .string();
            const int fd = ::open(partial.path.c_str(), O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
            if (fd < 0) {
                partial.path.clear();
                fail(request.path, "case-io", std::string("cannot create the redacted copy: ") + std::strerror(errno));
            }
            ::close(fd);
            const int rc = sqlite3_open_v2(partial.path.c_str(), &partial.db, SQLITE_OPEN_READWRITE, nullptr);
            if (rc != SQLITE_OK)
                casefile::throwSql(partial.db, rc, "open");
            db = partial.db;
            exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;");
            exec(db, "BEGIN");
            exec(db, (std::string("PRAGMA application_id = ") + std::to_string(kCaseApplicationId)).c_str());
            {
                Stmt st(m_db, "PRAGMA user_version");
                const std::int64_t version = st.step() ? st.i64(0) : kCaseSchemaVersion;
                exec(db, ("PRAGMA user_version = " + std::to_string(version)).c_str());
            }
            Stmt schema(m_db,
                "SELECT sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL AND name NOT LIKE "
                "'sqlite\\_%' ESCAPE '\\' ORDER BY rowid");
            while (schema.step())
                exec(db, schema.text(0).c_str());
            const unsigned threads =
                request.threads ? request.threads : std::max(1u, std::thread::hardware_concurrency());
            prepared = prepareCaseEvidence(walk.redactedInput(), threads, request.zstdLevel);
        }

        std::int64_t firstImport = 0;
        std::int64_t latestImport = 0;
        {
            Stmt st(m_db, "SELECT coalesce(min(id), 0), coalesce(max(id), 0) FROM imports");
            if (st.step()) {
                firstImport = st.i64(0);
                latestImport = st.i64(1);
            }
        }
        std::string fingerprint;
        if (write && request.fingerprint)
            fingerprint = request.fingerprint(walk.redactedInput());
        std::string earlierRecord;

        // The stored rule catalogs: rule data, not evidence, so only the case's own secrets are replaced in them
        // (a rule's test line naming node-02). A catalog that changed is known by its new hash (as loading it gives
        // it) everywhere in the copy; the redaction record keeps the original's.
        std::map<std::string, std::string> rehash; // original catalog hash → the redacted catalog's
        std::map<std::pair<std::string, std::string>, std::string> catalogText; // (hash, path) → redacted content
        if (!discover) {
            std::map<std::string, std::vector<std::pair<std::string, std::string>>> catalogs;
            {
                Stmt st(m_db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'catalog_files'");
                if (st.step()) {
                    Stmt files(m_db, "SELECT catalog_hash, path, content FROM catalog_files ORDER BY rowid");
                    while (files.step())
                        catalogs[files.text(0)].emplace_back(files.text(1), std::string(files.blob(2)));
                }
            }
            for (auto& [hash, files] : catalogs) {
                bool changed = false;
                for (auto& [rel, content] : files) {
                    std::string r = redactor.redactKnown(content);
                    if (r != content) {
                        changed = true;
                        res.changedCatalogFiles.push_back(rel);
                    }
                    catalogText[{ hash, rel }] = r;
                    content = std::move(r);
                }
                if (!changed || !write || !request.catalogHash)
                    continue;
                if (const auto h = request.catalogHash(files); h && *h != hash)
                    rehash[hash] = *h;
            }
        }
        const auto renameCatalogs = [&](std::string& text) {
            for (const auto& [from, to] : rehash) {
                for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
                    text.replace(at, from.size(), to);
                // The verdict's text names a catalog by its first 12 digits.
                const std::string shortFrom = "sha256 " + from.substr(0, 12);
                for (auto at = text.find(shortFrom); at != std::string::npos; at = text.find(shortFrom, at + 1))
                    text.replace(at + 7, 12, to.substr(0, 12));
            }
        };

        for (const std::string& table : tableOrder(m_db)) {
            std::vector<std::string> columns;
            {
                Stmt info(m_db, ("PRAGMA table_info(" + sqlName(table) + ")").c_str());
                while (info.step())
                    columns.push_back(info.text(1));
            }
            if (table == "catalog_files" && discover)
                continue; // rule data: its own names and numbers are not the case's secrets
            if (table == "chunks") {
                if (!write)
                    continue;
                // The redacted evidence, cut and hashed anew (as a new case is).
                Stmt ch(db, casefile::kInsertChunkSql);
                for (const auto& c : prepared->chunks)
                    casefile::insertChunk(ch, walk.fileIdAt(c.file), c);
                continue;
            }
            std::string select = "SELECT ";
            std::string insert = "INSERT INTO " + sqlName(table) + "(";
            std::string values;
            for (std::size_t i = 0; i < columns.size(); ++i) {
                select += (i ? ", " : "") + sqlName(columns[i]);
                insert += (i ? ", " : "") + sqlName(columns[i]);
                values += i ? ",?" : "?";
            }
            select += " FROM " + sqlName(table) + " ORDER BY rowid";
            insert += ") VALUES (" + values + ")";
            std::map<std::string, std::size_t> col;
            for (std::size_t i = 0; i < columns.size(); ++i)
                col[columns[i]] = i;
            const auto has = [&](const char* name) { return col.count(name) != 0; };
            Stmt rows(m_db, select.c_str());
            std::unique_ptr<Stmt> ins;
            if (write)
                ins = std::make_unique<Stmt>(db, insert.c_str());
            std::vector<Cell> row(columns.size());
            std::uint64_t n = 0;
            while (rows.step()) {
                for (std::size_t i = 0; i < columns.size(); ++i) {
                    Cell& c = row[i];
                    const int ci = static_cast<int>(i);
                    c.type = rows.type(ci);
                    c.i = c.type == SQLITE_INTEGER ? rows.i64(ci) : 0;
                    c.f = c.type == SQLITE_FLOAT ? rows.f64(ci) : 0;
                    c.bytes = c.type == SQLITE_TEXT ? rows.text(ci)
                        : c.type == SQLITE_BLOB     ? std::string(rows.blob(ci))
                                                    : std::string();
                }
                auto cell = [&](const char* name) -> Cell& { return row[col.at(name)]; };
                if (table == "meta" && cell("key").bytes == "redaction") {
                    // The record of an earlier redaction goes inside this copy's own.
                    earlierRecord = walk.json(cell("value").bytes);
                    continue;
                }
                // Offsets and sizes first (they read the row's own source, file and length).
                if (!discover) {
                    auto moveOffset = [&](const char* sourceCol, const char* offsetCol, const char* lengthCol) {
                        if (!has(sourceCol) || !has(offsetCol) || cell(sourceCol).type != SQLITE_INTEGER
                            || cell(offsetCol).type != SQLITE_INTEGER)
                            return;
                        const auto f = walk.fileOfSource(cell(sourceCol).i);
                        if (!f)
                            return;
                        const auto start = static_cast<std::uint64_t>(cell(offsetCol).i);
                        const std::uint64_t moved = walk.map(*f, start, false);
                        if (lengthCol && has(lengthCol) && cell(lengthCol).type == SQLITE_INTEGER) {
                            const auto end = start + static_cast<std::uint64_t>(cell(lengthCol).i);
                            cell(lengthCol).i = static_cast<std::int64_t>(walk.map(*f, end, true) - moved);
                        }
                        cell(offsetCol).i = static_cast<std::int64_t>(moved);
                    };
                    if (table == "events")
                        moveOffset("source_idx", "byte_offset", "length");
                    else if (table == "ranks" || table == "metric_series")
                        moveOffset("source_idx", "byte_offset", nullptr);
                    // An annotated event's record: its offset in the redacted bytes, as the event's own moves.
                    if (table == "annotations" && has("byte_offset") && cell("byte_offset").type == SQLITE_INTEGER
                        && cell("file_id").type == SQLITE_INTEGER)
                        if (const auto f = walk.fileOfId(cell("file_id").i))
                            cell("byte_offset").i = static_cast<std::int64_t>(
                                walk.map(*f, static_cast<std::uint64_t>(cell("byte_offset").i), false));
                    if (table == "files" && cell("id").type == SQLITE_INTEGER)
                        if (const auto f = walk.fileOfId(cell("id").i); f && cell("readable").i != 0 && prepared) {
                            cell("size").i = static_cast<std::int64_t>(walk.newSize(*f));
                            cell("sha256").bytes = prepared->fileSha[*f];
                            std::int64_t chunks = 0;
                            for (const auto& c : prepared->chunks)
                                chunks += c.file == *f ? 1 : 0;
                            cell("chunk_count").i = chunks;
                        }
                    if (table == "sources" && has("file_id") && cell("file_id").type == SQLITE_INTEGER)
                        if (const auto f = walk.fileOfId(cell("file_id").i); f && walk.newSize(*f) > 0)
                            cell("bytes").i = static_cast<std::int64_t>(walk.newSize(*f));
                    if (!fingerprint.empty() && table == "imports" && cell("id").i == latestImport)
                        cell("fingerprint").bytes = fingerprint;
                    if (!fingerprint.empty() && table == "runs") {
                        const Cell& imp = cell("import_id");
                        if ((imp.type == SQLITE_NULL ? firstImport : imp.i) == latestImport)
                            cell("fingerprint").bytes = fingerprint;
                    }
                    if (table == "meta" && cell("key").bytes == "chunk_hash")
                        cell("value").bytes = "stored"; // the copy's chunks are hashed as stored
                    if (table == "meta" && cell("key").bytes == "chunk_target")
                        cell("value").bytes = std::to_string(kChunkTarget);
                }
                for (std::size_t i = 0; i < columns.size(); ++i) {
                    Cell& c = row[i];
                    const std::string& name = columns[i];
                    if (c.type == SQLITE_TEXT) {
                        if (verbatimColumn(table, name)
                            || (table == "meta" && name == "value" && verbatimMeta(cell("key").bytes)))
                            continue;
                        std::string r = jsonColumn(name) ? walk.json(c.bytes) : walk.text(c.bytes);
                        if (!discover)
                            c.bytes = std::move(r);
                    } else if (c.type == SQLITE_BLOB) {
                        if (table == "observation_blocks" && name == "data") {
                            if (discover)
                                continue;
                            const auto f = walk.fileOfSource(cell("source_idx").i);
                            if (!f)
                                continue;
                            std::vector<StoredObservation> obs;
                            // A block's varints take at most 10 bytes per value and 10 values per record.
                            const std::string raw =
                                decompressAtMost(c.bytes, kBlockRecords * 100 + 16, m_path, "an observation block");
                            decodeObservationBlock(raw, 0, std::string(), SourceKind::Other, m_path, obs);
                            for (auto& o : obs) {
                                const std::uint64_t start = walk.map(*f, o.byteOffset, false);
                                const std::uint64_t end = walk.map(*f, o.byteOffset + o.length, true);
                                o.byteOffset = start;
                                o.length = static_cast<std::uint32_t>(end - start);
                            }
                            c.bytes = encodeStoredObservations(obs, request.zstdLevel);
                        } else if (table == "metric_series" && name == "data") {
                            continue; // (time, value) pairs: numbers only
                        } else if (table == "catalog_files" && name == "content") {
                            if (!discover)
                                c.bytes = catalogText[{ cell("catalog_hash").bytes, cell("path").bytes }];
                        } else if (std::memchr(c.bytes.data(), '\0', c.bytes.size()) == nullptr) {
                            // Text kept as bytes (the manifest, anything newer).
                            std::string r = walk.text(c.bytes);
                            if (!discover)
                                c.bytes = std::move(r);
                        } else {
                            fail(m_path, "case-redact-binary",
                                "column " + table + "." + name
                                    + " holds binary data this build cannot redact; no copy was written");
                        }
                    }
                }
                if (ins) {
                    if (!rehash.empty())
                        for (auto& c : row)
                            if (c.type == SQLITE_TEXT)
                                renameCatalogs(c.bytes);
                    for (std::size_t i = 0; i < columns.size(); ++i) {
                        const Cell& c = row[i];
                        const int bi = static_cast<int>(i) + 1;
                        switch (c.type) {
                        case SQLITE_INTEGER:
                            ins->bind(bi, c.i);
                            break;
                        case SQLITE_FLOAT:
                            ins->bind(bi, c.f);
                            break;
                        case SQLITE_TEXT:
                            ins->bind(bi, c.bytes);
                            break;
                        case SQLITE_BLOB:
                            ins->bindBlob(bi, c.bytes);
                            break;
                        default:
                            ins->bindNull(bi);
                        }
                    }
                    ins->run();
                }
                if (++n % 256 == 0)
                    step("rows");
            }
            step(table);
        }
        if (write) {
            // What the copy is: its profile, and the original's evidence hashes (its own are of the redacted bytes).
            const RedactionProfile& p = redactor.profile();
            JsonWriter w(false);
            w.beginObject();
            w.field("schema", "faultline.redaction/1");
            w.field("redacted_at", nowUtc());
            w.field("redacted_by", std::string("faultline ") + kVersion);
            w.key("profile").beginObject();
            w.field("name", walk.quiet(p.name));
            w.field("origin", p.origin == "built-in" ? p.origin : walk.quiet(fs::path(p.origin).filename().string()));
            w.field("sha256", p.sha256);
            w.endObject();
            w.field("offsets", "recomputed for the redacted evidence; line numbers unchanged");
            w.key("original").beginObject();
            {
                Stmt v(m_db, "PRAGMA user_version");
                w.field("schema_version", static_cast<std::int64_t>(v.step() ? v.i64(0) : 0));
            }
            w.key("files").beginArray();
            {
                Stmt st(m_db, "SELECT id, path, size, sha256, line_count FROM files ORDER BY id");
                while (st.step()) {
                    w.beginObject().field("id", st.i64(0)).field("path", walk.quiet(st.text(1)));
                    w.field("size", st.i64(2));
                    if (st.isNull(3))
                        w.key("sha256").null();
                    else
                        w.field("sha256", st.text(3));
                    w.field("lines", st.i64(4));
                    w.endObject();
                }
            }
            w.endArray();
            w.key("imports").beginArray();
            {
                Stmt st(m_db, "SELECT id, fingerprint FROM imports ORDER BY id");
                while (st.step())
                    w.beginObject().field("id", st.i64(0)).field("fingerprint", st.text(1)).endObject();
            }
            w.endArray();
            w.key("catalogs").beginArray();
            for (const auto& [from, to] : rehash)
                w.beginObject().field("sha256", from).field("redacted_sha256", to).endObject();
            w.endArray();
            w.endObject();
            if (!earlierRecord.empty())
                w.key("earlier").value(earlierRecord);
            w.endObject();
            {
                Stmt meta(db, "INSERT INTO meta(key, value) VALUES ('redaction', ?)");
                meta.bind(1, w.str()).run();
            } // statements are finalised before the connection closes

            Stmt indexes(m_db, "SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY rowid");
            while (indexes.step())
                exec(db, indexes.text(0).c_str());
            step("before-commit");
            exec(db, "COMMIT");
            exec(db, "PRAGMA journal_mode = WAL;");
            const int closeRc = sqlite3_close(db);
            if (closeRc != SQLITE_OK)
                casefile::throwSql(nullptr, closeRc, "close");
            partial.db = nullptr;
            fsyncPath(partial.path, false);
            if (fileExists(partial.path + "-wal"))
                fail(request.path, "case-io", "the redacted copy's write-ahead log was not checkpointed");
            if (::renameat2(AT_FDCWD, partial.path.c_str(), AT_FDCWD, request.path.c_str(), RENAME_NOREPLACE) != 0)
                fail(request.path, errno == EEXIST ? "case-exists" : "case-io",
                    std::string("cannot move the redacted copy into place: ") + std::strerror(errno));
            partial.consumed = true;
            const fs::path target(request.path);
            fsyncPath(target.has_parent_path() ? target.parent_path().string() : std::string("."), true);
            struct stat st
            { };
            if (::stat(request.path.c_str(), &st) == 0)
                res.bytes = static_cast<std::uint64_t>(st.st_size);
            step("renamed");
        }
        result = std::move(res);
    });
    if (!ok)
        return std::nullopt;
    return result;
}

} // namespace faultline::core
