// SPDX-License-Identifier: Apache-2.0
// The case file's compact encodings (compressed chunks, varint observation blocks) and the preparation of a case's
// evidence, which callers may run while the import and the analysis run.
#include "core/casefile/case_internal.h"
#include "core/util/sha256.h"

#include <zstd.h>

#include <cstring>
#include <map>
#include <memory>
#include <tuple>

namespace faultline::core {
namespace casefile {

std::string compress(std::string_view raw, int level)
{
    // One compression context per thread: creating one per chunk costs about as much as compressing the chunk.
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

namespace {

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

/// One record's values as an observation block stores them.
struct BlockRow
{
    std::uint64_t index = 0;
    std::int64_t line = 0;
    std::int64_t offset = 0;
    std::uint64_t length = 0;
    std::int64_t timeNs = INT64_MIN;
    std::int64_t precisionNs = 0;
    std::int32_t rank = -1;
    std::int32_t gpu = -1;
    std::uint64_t flags = 0; ///< time quality | 0x10 when out of scope
};

/// Encodes one block of `n` records (row(k) gives the k-th) as varint columns (see schema.sql) and compresses it.
/// The records are read once (one pass over memory), each field going to its own column buffer.
template <class Row> std::string encodeBlock(std::size_t n, Row&& row, int level)
{
    constexpr int kColumns = 9;
    thread_local std::vector<char> columnBuf[kColumns];
    thread_local std::vector<char> joined;
    std::vector<VarintWriter> col;
    col.reserve(kColumns);
    for (auto& b : columnBuf)
        col.emplace_back(b, n);
    std::uint64_t prevIndex = 0;
    std::int64_t prevLine = 0;
    std::int64_t prevOffset = 0;
    std::int64_t prevTime = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const BlockRow o = row(k);
        col[0].put(o.index - prevIndex);
        prevIndex = o.index;
        col[1].put(zigzag(o.line - prevLine));
        prevLine = o.line;
        col[2].put(zigzag(o.offset - prevOffset));
        prevOffset = o.offset;
        col[3].put(o.length);
        if (o.timeNs == INT64_MIN) {
            col[4].put(0);
        } else {
            col[4].put(zigzag(o.timeNs - prevTime) + 1);
            prevTime = o.timeNs;
        }
        col[5].put(static_cast<std::uint64_t>(std::max<std::int64_t>(0, o.precisionNs)));
        col[6].put(zigzag(o.rank));
        col[7].put(zigzag(o.gpu));
        col[8].put(o.flags);
    }
    std::size_t size = 0;
    {
        VarintWriter head(joined, 1);
        head.put(n);
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

std::string encodeObservationBlock(const EvidenceSet& ev, const std::vector<std::uint32_t>& idx, int level)
{
    return encodeBlock(
        idx.size(),
        [&](std::size_t k) {
            const Observation& o = ev.observations[idx[k]];
            return BlockRow { idx[k], static_cast<std::int64_t>(o.where.line),
                static_cast<std::int64_t>(o.where.byteOffset), o.where.length, o.timeNs, o.precisionNs, o.rank, o.gpu,
                static_cast<std::uint64_t>(o.quality) | (o.outOfScope ? 0x10u : 0u) };
        },
        level);
}

} // namespace

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

std::string encodeStoredObservations(const std::vector<StoredObservation>& block, int level)
{
    return encodeBlock(
        block.size(),
        [&](std::size_t k) {
            const StoredObservation& o = block[k];
            return BlockRow { o.index, static_cast<std::int64_t>(o.line), static_cast<std::int64_t>(o.byteOffset),
                o.length, o.timeNs, o.precisionNs, o.rank, o.gpu,
                static_cast<std::uint64_t>(o.quality) | (o.outOfScope ? 0x10u : 0u) };
        },
        level);
}

} // namespace casefile

using namespace casefile;

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

} // namespace faultline::core
