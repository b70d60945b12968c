// SPDX-License-Identifier: Apache-2.0
#include "app/usecases/search.h"

#include <re2/filtered_re2.h>
#include <re2/re2.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <string_view>
#include <thread>
#include <tuple>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace faultline::usecases {

SearchRequest SearchRequest::over(const Analysis& analysis, std::string pattern)
{
    SearchRequest r;
    r.input = analysis.input;
    r.evidence = analysis.evidence;
    r.verdict = analysis.verdict;
    r.pattern = std::move(pattern);
    return r;
}

namespace {

using Clock = std::chrono::steady_clock;

/// Newlines in [p, p + n): the line count of a chunk and the line number of each hit.
std::uint64_t countNewlines(const char* p, std::size_t n)
{
    std::uint64_t count = 0;
    std::size_t i = 0;
#if defined(__SSE2__)
    const __m128i nl = _mm_set1_epi8('\n');
    while (n - i >= 16) {
        // Up to 255 blocks add into 8-bit lanes before the lanes are summed.
        const std::size_t blocks = std::min<std::size_t>((n - i) / 16, 255);
        __m128i acc = _mm_setzero_si128();
        for (std::size_t b = 0; b < blocks; ++b, i += 16)
            acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)), nl));
        const __m128i sums = _mm_sad_epu8(acc, _mm_setzero_si128());
        count += static_cast<std::uint64_t>(_mm_cvtsi128_si32(sums))
            + static_cast<std::uint64_t>(_mm_extract_epi16(sums, 4));
    }
#endif
    for (; i < n; ++i)
        count += p[i] == '\n' ? 1 : 0;
    return count;
}

RE2::Options reOptions(const SearchRequest& r)
{
    RE2::Options o;
    o.set_log_errors(false);
    o.set_case_sensitive(!r.ignoreCase);
    // Lines never hold a newline, so no class may match one: the whole-chunk scan then never runs across lines.
    o.set_never_nl(true);
    o.set_max_mem(std::int64_t(64) << 20);
    return o;
}

/// The two compiled forms of one pattern, owned by one thread (RE2 is thread-safe, but a DFA cache per thread avoids
/// contention on it).
struct Matcher
{
    Matcher(const std::string& body, const RE2::Options& opts)
        : line(body, opts)
        , scan("(?m:" + body + ")", opts)
    { }
    RE2 line; ///< matched against one line without its newline
    RE2 scan; ///< matched against a whole chunk: ^ and $ anchor at lines
};

/// When the whole-chunk scan would miss a line the line-by-line match finds, the chunk is matched line by line.
struct ScanLimits
{
    bool alwaysPerLine = false; ///< \A, \z or a flag group that turns multi-line mode off
    bool dollar = false; ///< `$` cannot match before the "\r" of a CRLF line in the scan
};

ScanLimits scanLimits(const SearchRequest& r, const std::string& body)
{
    ScanLimits s;
    if (r.literal)
        return s;
    static const RE2 flagM(R"(\(\?[a-zA-Z-]*m)");
    s.alwaysPerLine = body.find("\\A") != std::string::npos || body.find("\\z") != std::string::npos
        || RE2::PartialMatch(body, flagM);
    s.dollar = body.find('$') != std::string::npos;
    return s;
}

/// The literals of which every match contains one (RE2's prefilter atoms, lower case): when RE2 has no fast way to
/// skip text (an alternation without a common prefix, a pattern starting with a class), looking for them with SSE2
/// and matching only the lines that hold one is several times faster than RE2's DFA over the whole chunk.
struct AtomFilter
{
    struct Atom
    {
        std::string text; ///< lower-case ASCII
        bool foldFirst = false; ///< the first byte is a letter: compare it without case
        bool foldLast = false;
    };
    std::vector<Atom> atoms;
    std::size_t longest = 0;
    /// An atom holds k or s and the pattern may fold case: RE2 then also matches U+212A KELVIN SIGN and U+017F LONG
    /// S, which an ASCII comparison misses; chunks that hold either are scanned by RE2.
    bool foldRisk = false;

    bool usable() const { return !atoms.empty(); }

    bool atomAt(const char* p, std::size_t n, std::size_t i) const
    {
        for (const Atom& a : atoms) {
            if (a.text.size() > n - i)
                continue;
            std::size_t k = 0;
            for (; k < a.text.size(); ++k) {
                auto c = static_cast<unsigned char>(p[i + k]);
                if (c >= 'A' && c <= 'Z')
                    c = static_cast<unsigned char>(c | 0x20);
                if (c != static_cast<unsigned char>(a.text[k]))
                    break;
            }
            if (k == a.text.size())
                return true;
        }
        return false;
    }

    /// The first position at or after `from` where an atom starts (without case), or npos.
    std::size_t find(std::string_view t, std::size_t from) const
    {
        const char* p = t.data();
        const std::size_t n = t.size();
        std::size_t i = from;
#if defined(__SSE2__)
        // Per atom, 16 candidate starts at a time: its first and its last byte must both be there (W. Mula's
        // "SIMD-friendly" substring search); each candidate is then compared whole.
        const __m128i fold = _mm_set1_epi8(0x20);
        while (i + 15 + longest < n) {
            const __m128i head = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
            unsigned mask = 0;
            for (const Atom& a : atoms) {
                const __m128i tail = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + a.text.size() - 1));
                const __m128i first = _mm_cmpeq_epi8(
                    a.foldFirst ? _mm_or_si128(head, fold) : head, _mm_set1_epi8(static_cast<char>(a.text.front())));
                const __m128i last = _mm_cmpeq_epi8(
                    a.foldLast ? _mm_or_si128(tail, fold) : tail, _mm_set1_epi8(static_cast<char>(a.text.back())));
                mask |= static_cast<unsigned>(_mm_movemask_epi8(_mm_and_si128(first, last)));
            }
            while (mask) {
                const auto j = static_cast<std::size_t>(__builtin_ctz(mask));
                if (atomAt(p, n, i + j))
                    return i + j;
                mask &= mask - 1;
            }
            i += 16;
        }
#endif
        for (; i < n; ++i)
            if (atomAt(p, n, i))
                return i;
        return std::string_view::npos;
    }

    /// Whether RE2 may match a K or long s the atoms miss in `t`.
    bool riskIn(std::string_view t) const
    {
        return foldRisk
            && (t.find("\xe2\x84\xaa") != std::string_view::npos || t.find("\xc5\xbf") != std::string_view::npos);
    }
};

AtomFilter atomFilter(const SearchRequest& r, const std::string& body, const RE2::Options& opts)
{
    AtomFilter f;
    if (!r.literalPrefilter)
        return f;
    re2::FilteredRE2 filtered(3);
    int id = 0;
    if (filtered.Add(body, opts, &id) != RE2::NoError)
        return f;
    std::vector<std::string> atoms;
    filtered.Compile(&atoms);
    std::vector<int> unfiltered; // the pattern passes even without any atom: nothing to look for
    filtered.AllPotentials({}, &unfiltered);
    // A long list of atoms costs more per byte than RE2's DFA.
    if (atoms.empty() || !unfiltered.empty() || atoms.size() > 4)
        return f;
    // A case-sensitive literal prefix is RE2's own fast path (memchr for its first byte, then a compare): keep it.
    {
        const RE2 re(body, opts);
        std::string min;
        std::string max;
        if (re.PossibleMatchRange(&min, &max, 8)) {
            const auto diff = std::mismatch(min.begin(), min.end(), max.begin(), max.end());
            if (diff.first - min.begin() >= 3)
                return f;
        }
    }
    const bool mayFold = r.ignoreCase || body.find("(?") != std::string::npos;
    for (const std::string& a : atoms) {
        if (a.empty() || std::any_of(a.begin(), a.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; }))
            return {};
        auto letter = [](char c) { return c >= 'a' && c <= 'z'; };
        f.atoms.push_back({ a, letter(a.front()), letter(a.back()) });
        f.longest = std::max(f.longest, a.size());
        f.foldRisk = f.foldRisk || (mayFold && a.find_first_of("ks") != std::string::npos);
    }
    return f;
}

/// One file to search, with what the evidence says about it.
struct FilePlan
{
    std::size_t file = 0;
    std::string_view bytes;
    const core::Observation* obsBegin = nullptr; ///< the source's records, in file order
    const core::Observation* obsEnd = nullptr;
    core::NodeId host = core::kNoNode;
    core::SourceKind kind = core::SourceKind::Other;
};

struct Chunk
{
    std::size_t plan = 0;
    std::size_t begin = 0;
    std::size_t end = 0;
};

/// Where the counts stand right after a hit (used when the search stops at that hit).
struct HitMark
{
    std::uint64_t end = 0; ///< chunk-relative end of the hit's line, newline included
    std::uint64_t untimed = 0;
};

struct ChunkOut
{
    std::vector<SearchHit> hits; ///< `line` is the 0-based line index within the chunk until merged
    std::vector<HitMark> marks;
    std::uint64_t lines = 0;
    std::uint64_t untimed = 0;
};

/// The filters a line must pass once its record is known.
struct LineFilter
{
    bool byNode = false;
    std::vector<core::NodeId> nodes; ///< sorted
    bool byTime = false;
    std::int64_t fromNs = INT64_MIN;
    std::int64_t toNs = INT64_MAX;

    bool bySeverity = false;
    std::uint8_t minSeverity = 0;
    std::vector<std::uint8_t> severityOf; ///< per observation: the highest severity of the events taken from it

    bool keepsNode(core::NodeId n) const { return std::binary_search(nodes.begin(), nodes.end(), n); }
};

/// Severities in increasing order; 0 for none or an unknown name.
std::uint8_t severityRank(std::string_view s)
{
    if (s == "info")
        return 1;
    if (s == "warning")
        return 2;
    if (s == "error")
        return 3;
    if (s == "fatal")
        return 4;
    return 0;
}

std::string cutLine(std::string_view s, bool& cut)
{
    cut = s.size() > kSearchLineCap;
    if (!cut)
        return std::string(s);
    std::size_t n = kSearchLineCap;
    // Do not split a UTF-8 sequence: back off to the start of the character that straddles the cap.
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xc0) == 0x80)
        --n;
    return std::string(s.substr(0, n));
}

struct Searcher
{
    const SearchRequest& req;
    const core::EvidenceSet* ev;
    const std::vector<FilePlan>& plans;
    const LineFilter& filter;
    ScanLimits limits;
    const AtomFilter& atoms;
    std::size_t cap; ///< hits per chunk worth keeping (0: all)

    void run(const Chunk& c, Matcher& m, ChunkOut& out) const
    {
        const FilePlan& plan = plans[c.plan];
        const std::string_view text = plan.bytes.substr(c.begin, c.end - c.begin);
        const std::size_t size = text.size();
        const re2::StringPiece whole(text.data(), size);
        const bool byAtoms = atoms.usable() && !atoms.riskIn(text);
        const bool perLine =
            !byAtoms && (limits.alwaysPerLine || (limits.dollar && std::memchr(text.data(), '\r', size)));
        if (filter.byNode && !filter.keepsNode(plan.host) && !holdsNodes(plan, c)) {
            // No line here can be of the nodes: only count the lines.
            out.lines = countNewlines(text.data(), size) + (size > 0 && text[size - 1] != '\n' ? 1 : 0);
            return;
        }
        const core::Observation* cursor = plan.obsBegin; // hits come in file order: records are looked up forwards
        std::size_t pos = 0; // always a line start
        std::size_t counted = 0;
        std::uint64_t lineIdx = 0;
        while (pos < size) {
            std::size_t lineStart = pos;
            std::size_t matchAt = 0;
            std::size_t matchLen = 0;
            bool confirm = perLine || byAtoms;
            if (!perLine) {
                // The next line that can match: where an atom starts (then matched on its own), or RE2's next match.
                re2::StringPiece hit;
                std::size_t at = 0;
                if (byAtoms) {
                    at = atoms.find(text, pos);
                    if (at == std::string_view::npos)
                        break;
                } else {
                    if (!m.scan.Match(whole, pos, size, RE2::UNANCHORED, &hit, 1))
                        break;
                    at = static_cast<std::size_t>(hit.data() - text.data());
                }
                if (at > pos)
                    if (const auto k = text.rfind('\n', at - 1); k != std::string_view::npos && k >= pos)
                        lineStart = k + 1;
                if (lineStart >= size)
                    break; // an empty match after the last newline: no line there
                matchAt = at;
                matchLen = hit.size();
            }
            const auto nl = text.find('\n', lineStart);
            const std::size_t lineEnd = nl == std::string_view::npos ? size : nl;
            const std::size_t next = nl == std::string_view::npos ? size : nl + 1;
            std::size_t contentEnd = lineEnd;
            if (contentEnd > lineStart && text[contentEnd - 1] == '\r')
                --contentEnd;
            // A scan match inside the line is the line's own first match (same bytes, same context at ^, $ and \b);
            // one that reaches into the "\r" is checked on the line alone.
            if (!confirm && matchAt + matchLen > contentEnd)
                confirm = true;
            if (confirm) {
                const re2::StringPiece line(text.data() + lineStart, contentEnd - lineStart);
                re2::StringPiece hit;
                if (!m.line.Match(line, 0, line.size(), RE2::UNANCHORED, &hit, 1)) {
                    pos = next;
                    continue;
                }
                matchAt = lineStart + static_cast<std::size_t>(hit.data() - line.data());
                matchLen = hit.size();
            }
            lineIdx += countNewlines(text.data() + counted, lineStart - counted);
            counted = lineStart;
            pos = next;
            if (!keep(plan, c, text, lineStart, contentEnd, matchAt, matchLen, lineIdx, cursor, out))
                continue;
            out.marks.push_back({ next, out.untimed });
            if (cap && out.hits.size() >= cap)
                return; // the merge stops within this chunk: its line count is never needed
        }
        out.lines = lineIdx + countNewlines(text.data() + counted, size - counted)
            + (size > 0 && text[size - 1] != '\n' ? 1 : 0);
    }

    /// Whether a record of the chunk (or one running into it) is of one of the filter's nodes.
    bool holdsNodes(const FilePlan& plan, const Chunk& c) const
    {
        const core::Observation* lo = std::upper_bound(plan.obsBegin, plan.obsEnd, std::uint64_t(c.begin),
            [](std::uint64_t off, const core::Observation& o) { return off < o.where.byteOffset; });
        if (lo != plan.obsBegin)
            --lo;
        const core::Observation* hi = std::lower_bound(lo, plan.obsEnd, std::uint64_t(c.end),
            [](const core::Observation& o, std::uint64_t off) { return o.where.byteOffset < off; });
        return std::any_of(lo, hi, [&](const core::Observation& o) { return filter.keepsNode(o.node); });
    }

    /// Applies the record filters to a matching line; adds the hit when it passes.
    bool keep(const FilePlan& plan, const Chunk& c, std::string_view text, std::size_t lineStart,
        std::size_t contentEnd, std::size_t matchAt, std::size_t matchLen, std::uint64_t lineIdx,
        const core::Observation*& cursor, ChunkOut& out) const
    {
        const std::uint64_t offset = c.begin + lineStart;
        const core::Observation* rec = nullptr;
        if (cursor != plan.obsEnd) {
            const auto* it = std::upper_bound(cursor, plan.obsEnd, offset,
                [](std::uint64_t off, const core::Observation& o) { return off < o.where.byteOffset; });
            if (it != plan.obsBegin) {
                const core::Observation& o = *(it - 1);
                if (offset < o.where.byteOffset + std::max<std::uint64_t>(1, o.where.length))
                    rec = &o;
                cursor = it - 1;
            }
        }
        const core::NodeId node = rec && rec->node != core::kNoNode ? rec->node : plan.host;
        const std::int64_t timeNs = rec ? rec->timeNs : INT64_MIN;
        if (filter.byNode && !filter.keepsNode(node))
            return false;
        if (filter.bySeverity
            && (!rec
                || filter.severityOf[static_cast<std::size_t>(rec - ev->observations.data())] < filter.minSeverity))
            return false;
        if (filter.byTime) {
            if (timeNs == INT64_MIN) {
                ++out.untimed;
                return false;
            }
            const std::int64_t last = rec->precisionNs > 0 ? timeNs + rec->precisionNs - 1 : timeNs;
            if (timeNs > filter.toNs || last < filter.fromNs)
                return false;
        }
        SearchHit h;
        h.file = plan.file;
        h.path = req.input->files[plan.file].path;
        h.line = lineIdx;
        h.byteOffset = offset;
        h.matchStart = static_cast<std::uint32_t>(std::min<std::size_t>(matchAt - lineStart, UINT32_MAX));
        h.matchLength = static_cast<std::uint32_t>(std::min<std::size_t>(matchLen, UINT32_MAX));
        h.node = ev && node != core::kNoNode ? ev->nodeName(node) : std::string();
        h.timeNs = timeNs;
        h.observation = rec ? static_cast<std::int64_t>(rec - ev->observations.data()) : -1;
        h.kind = plan.kind;
        h.text = cutLine(text.substr(lineStart, contentEnd - lineStart), h.textCut);
        out.hits.push_back(std::move(h));
        return true;
    }
};

/// The observations of source `s` (grouped by source in increasing order, EvidenceSet's contract).
std::pair<const core::Observation*, const core::Observation*> recordsOf(const core::EvidenceSet& ev, std::uint32_t s)
{
    const core::Observation* first = ev.observations.data();
    const core::Observation* last = first + ev.observations.size();
    const core::Observation* b = std::lower_bound(
        first, last, s, [](const core::Observation& o, std::uint32_t v) { return o.where.source < v; });
    const core::Observation* e =
        std::upper_bound(b, last, s, [](std::uint32_t v, const core::Observation& o) { return v < o.where.source; });
    return { b, e };
}

/// For each observation, the highest severity of the verdict's events extracted from it (or merged into one that
/// was): every provenance of an event names the record it was found in.
std::vector<std::uint8_t> severityByObservation(const core::EvidenceSet& ev, const core::Verdict& v)
{
    std::vector<std::uint8_t> out(ev.observations.size(), 0);
    for (const core::Event& e : v.events) {
        const std::uint8_t rank = severityRank(e.severity);
        for (const core::Provenance& p : e.provenance) {
            const auto [b, end] = recordsOf(ev, p.source);
            const core::Observation* it = std::upper_bound(b, end, p.byteOffset,
                [](std::uint64_t off, const core::Observation& o) { return off < o.where.byteOffset; });
            if (it == b)
                continue;
            const core::Observation& o = *(it - 1);
            if (p.byteOffset < o.where.byteOffset + std::max<std::uint64_t>(1, o.where.length)) {
                std::uint8_t& slot = out[static_cast<std::size_t>(&o - ev.observations.data())];
                slot = std::max(slot, rank);
            }
        }
    }
    return out;
}

bool contains(const std::vector<std::string>& list, const std::string& s)
{
    return std::find(list.begin(), list.end(), s) != list.end();
}

} // namespace

Result<SearchResult> searchEvidence(
    const SearchRequest& req, const Task& task, std::function<void(const SearchHit&)> onHit)
{
    const auto t0 = Clock::now();
    if (!req.input)
        return Result<SearchResult>::fail(Exit::NoEvidence, "nothing to search: the analysis has no input");
    if (req.fromNs > req.toNs)
        return Result<SearchResult>::fail(Exit::Usage, "the search window starts after it ends");
    const std::string body = req.literal ? RE2::QuoteMeta(req.pattern) : req.pattern;
    const RE2::Options opts = reOptions(req);
    {
        const Matcher check(body, opts);
        const RE2& bad = !check.line.ok() ? check.line : check.scan;
        if (!bad.ok()) {
            core::Diagnostic d = core::makeDiagnostic(
                core::Severity::Error, "search-pattern", "invalid RE2 pattern: " + bad.error(), "pattern");
            const auto at = bad.error_arg().empty() ? std::string::npos : body.find(bad.error_arg());
            d.where.line = 1;
            d.where.column = at == std::string::npos ? 0 : static_cast<std::uint32_t>(at + 1);
            d.snippet = body;
            if (at != std::string::npos)
                d.snippet += "\n    " + std::string(at, ' ') + '^';
            return Result<SearchResult>::fail(Exit::Usage, "invalid RE2 pattern: " + bad.error(), { d });
        }
    }
    const core::EvidenceSet* ev = req.evidence.get();

    // The files to search: the file filters, then each file's source (paths may repeat across bundle paths: the
    // n-th file with a path is the n-th source with it).
    std::map<std::string_view, std::vector<std::uint32_t>> sourcesByPath;
    if (ev)
        for (std::uint32_t s = 0; s < ev->sources.size(); ++s)
            sourcesByPath[ev->sources[s].path].push_back(s);
    std::map<std::string_view, std::size_t> seen;
    LineFilter filter;
    filter.byNode = !req.nodes.empty();
    if (ev)
        for (const auto& n : req.nodes)
            if (const auto id = ev->nodes.find(n); id != core::kNoNode)
                filter.nodes.push_back(id);
    std::sort(filter.nodes.begin(), filter.nodes.end());
    filter.byTime = req.fromNs != INT64_MIN || req.toNs != INT64_MAX;
    filter.fromNs = req.fromNs;
    filter.toNs = req.toNs;
    if (!req.minSeverity.empty()) {
        filter.bySeverity = true;
        filter.minSeverity = severityRank(req.minSeverity);
        if (filter.minSeverity == 0)
            return Result<SearchResult>::fail(
                Exit::Usage, "unknown severity \"" + req.minSeverity + "\" (use info, warning, error or fatal)");
        if (!ev || !req.verdict)
            return Result<SearchResult>::fail(
                Exit::Usage, "a severity filter needs the analysis's events: the search has no verdict or evidence");
        filter.severityOf = severityByObservation(*ev, *req.verdict);
    }
    std::vector<FilePlan> plans;
    for (std::size_t i = 0; i < req.input->files.size(); ++i) {
        const core::InputFile& f = req.input->files[i];
        const std::size_t nth = seen[f.path]++;
        if (!f.readable)
            continue;
        if (!req.paths.empty() && !contains(req.paths, f.path))
            continue;
        if (!req.pathContains.empty() && f.path.find(req.pathContains) == std::string::npos)
            continue;
        FilePlan p;
        p.file = i;
        p.bytes = f.bytes;
        if (const auto it = sourcesByPath.find(f.path); it != sourcesByPath.end() && nth < it->second.size()) {
            const core::Source& src = ev->sources[it->second[nth]];
            p.host = src.host;
            p.kind = src.kind;
            std::tie(p.obsBegin, p.obsEnd) = recordsOf(*ev, it->second[nth]);
        }
        if (!req.kinds.empty() && std::find(req.kinds.begin(), req.kinds.end(), p.kind) == req.kinds.end())
            continue;
        plans.push_back(p);
    }

    // Chunks: whole small files, large ones cut after the first newline past each chunkBytes.
    const std::size_t chunkBytes = std::max<std::size_t>(1, req.chunkBytes);
    std::vector<Chunk> chunks;
    std::uint64_t totalBytes = 0;
    for (std::size_t p = 0; p < plans.size(); ++p) {
        const std::string_view b = plans[p].bytes;
        totalBytes += b.size();
        std::size_t begin = 0;
        do {
            std::size_t end = b.size();
            if (b.size() - begin > chunkBytes) {
                const auto nl = b.find('\n', begin + chunkBytes - 1);
                end = nl == std::string_view::npos ? b.size() : nl + 1;
            }
            chunks.push_back({ p, begin, end });
            begin = end;
        } while (begin < b.size());
    }

    const unsigned threads = req.threads ? req.threads : std::max(1u, std::thread::hardware_concurrency());
    const unsigned workers =
        static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(threads, chunks.size())));
    const AtomFilter atoms = atomFilter(req, body, opts);
    const Searcher searcher { req, ev, plans, filter, scanLimits(req, body), atoms, req.maxHits };

    SearchResult result;
    result.threads = workers;
    SearchCounts& counts = result.counts;
    std::vector<ChunkOut> outs(chunks.size());
    std::size_t currentPlan = SIZE_MAX;
    std::uint64_t lineBase = 0;
    std::uint64_t flushedBytes = 0;
    int lastPercent = -1;
    task.report(0, "Searching");
    // Hands chunk k's hits on in order; true when the search stops there (maxHits reached).
    auto merge = [&](std::size_t k) {
        ChunkOut& o = outs[k];
        const Chunk& c = chunks[k];
        if (c.plan != currentPlan) {
            currentPlan = c.plan;
            lineBase = 0;
            ++counts.files;
        }
        for (std::size_t i = 0; i < o.hits.size(); ++i) {
            SearchHit& h = o.hits[i];
            const std::uint64_t lineInChunk = h.line;
            h.line = lineBase + lineInChunk + 1;
            ++counts.hits;
            if (onHit)
                onHit(h);
            if (req.keepHits)
                result.hits.push_back(std::move(h));
            if (req.maxHits && counts.hits >= req.maxHits) {
                const HitMark& m = o.marks[i];
                counts.bytes += m.end;
                counts.lines += lineInChunk + 1;
                counts.untimedExcluded += m.untimed;
                counts.truncated = !(k + 1 == chunks.size() && m.end == c.end - c.begin);
                return true;
            }
        }
        counts.bytes += c.end - c.begin;
        counts.lines += o.lines;
        counts.untimedExcluded += o.untimed;
        lineBase += o.lines;
        o = ChunkOut();
        flushedBytes += c.end - c.begin;
        const int percent = totalBytes ? static_cast<int>(flushedBytes * 100 / totalBytes) : 100;
        if (percent != lastPercent) {
            lastPercent = percent;
            task.report(percent, "Searching");
        }
        return false;
    };

    // Complete: every chunk merged, or the search stopped at maxHits; otherwise it was cancelled.
    bool complete = chunks.empty();
    if (workers == 1) {
        Matcher m(body, opts);
        for (std::size_t k = 0; k < chunks.size() && !task.cancelled(); ++k) {
            searcher.run(chunks[k], m, outs[k]);
            if (merge(k) || k + 1 == chunks.size()) {
                complete = true;
                break;
            }
        }
    } else {
        std::atomic<std::size_t> next { 0 };
        std::atomic_bool stop { false };
        std::mutex mutex;
        std::condition_variable doneCv;
        std::vector<char> done(chunks.size(), 0);
        std::exception_ptr error;
        auto work = [&] {
            try {
                Matcher m(body, opts);
                while (!stop.load()) {
                    const std::size_t k = next.fetch_add(1);
                    if (k >= chunks.size())
                        break;
                    if (task.cancelled()) {
                        stop = true;
                        break;
                    }
                    searcher.run(chunks[k], m, outs[k]);
                    {
                        const std::lock_guard lock(mutex);
                        done[k] = 1;
                    }
                    doneCv.notify_all();
                }
            } catch (...) {
                const std::lock_guard lock(mutex);
                if (!error)
                    error = std::current_exception();
                stop = true;
            }
            doneCv.notify_all();
        };
        std::vector<std::thread> pool;
        pool.reserve(workers);
        for (unsigned w = 0; w < workers; ++w)
            pool.emplace_back(work);
        for (std::size_t k = 0; k < chunks.size(); ++k) {
            {
                std::unique_lock lock(mutex);
                while (!done[k] && !stop.load() && !task.cancelled())
                    doneCv.wait_for(lock, std::chrono::milliseconds(20));
                if (!done[k])
                    break; // cancelled or failed
            }
            if (merge(k) || k + 1 == chunks.size()) {
                complete = true;
                break;
            }
        }
        stop = true;
        for (auto& t : pool)
            t.join();
        if (error)
            std::rethrow_exception(error);
    }
    // A cancel arriving after the last chunk was merged changes nothing.
    if (!complete)
        return Result<SearchResult>::fail(Exit::Cancelled, "the search was cancelled");
    if (lastPercent != 100)
        task.report(100, "Searching");
    result.elapsedUs = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - t0).count();
    Result<SearchResult> r;
    r.value = std::move(result);
    return r;
}

} // namespace faultline::usecases
