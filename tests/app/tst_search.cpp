// SPDX-License-Identifier: Apache-2.0
// The evidence search: exact lines, offsets and match spans on small synthetic inputs (CRLF, no final newline,
// empty files, matches that would need to cross a newline), every filter, a bad pattern, cancellation, the same hits
// with 1 or N threads and any chunk size (checked against a naive line-by-line search), maxHits, and the flagship
// sample. Every comparison prints the expected and the actual hits as text.
#include "app/usecases/search.h"
#include "core/model/evidence_text.h"
#include "importers/bundle_loader.h"
#include "tests/common/test_helpers.h"

#include <QTest>

#include <re2/re2.h>

#include <random>

using namespace faultline;
using usecases::SearchHit;
using usecases::SearchRequest;

namespace faultline::usecases {
inline char* toString(Exit e)
{
    return QTest::toString(static_cast<int>(e));
}
} // namespace faultline::usecases

namespace {

constexpr std::int64_t kSec = 1000000000LL;

std::shared_ptr<core::BundleInput> makeInput(const std::vector<std::pair<std::string, std::string>>& files)
{
    auto in = std::make_shared<core::BundleInput>();
    for (const auto& [path, text] : files) {
        auto owned = std::make_shared<std::string>(text);
        core::InputFile f;
        f.path = path;
        f.origin = path;
        f.bytes = *owned;
        f.owner = owned;
        in->files.push_back(std::move(f));
    }
    return in;
}

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

/// One hit per line of text: "path:line @offset [start+length] node t=seconds |text|".
QString describe(const std::vector<SearchHit>& hits)
{
    QStringList out;
    for (const auto& h : hits) {
        QString s = QStringLiteral("%1:%2 @%3 [%4+%5]")
                        .arg(q(h.path))
                        .arg(h.line)
                        .arg(h.byteOffset)
                        .arg(h.matchStart)
                        .arg(h.matchLength);
        if (!h.node.empty())
            s += QStringLiteral(" ") + q(h.node);
        if (h.timeNs != INT64_MIN)
            s += QStringLiteral(" t=%1").arg(h.timeNs / kSec);
        s += QStringLiteral(" |") + q(h.text) + (h.textCut ? QStringLiteral("|cut") : QStringLiteral("|"));
        out << s;
    }
    return out.join(QLatin1Char('\n'));
}

QString describe(const usecases::SearchCounts& c)
{
    return QStringLiteral("files=%1 bytes=%2 lines=%3 hits=%4 untimed=%5 truncated=%6")
        .arg(c.files)
        .arg(c.bytes)
        .arg(c.lines)
        .arg(c.hits)
        .arg(c.untimedExcluded)
        .arg(c.truncated ? 1 : 0);
}

usecases::SearchResult run(const SearchRequest& r, const usecases::Task& task = {})
{
    auto res = usecases::searchEvidence(r, task);
    if (!res.ok())
        qWarning("search failed: %s", res.failure.text().c_str());
    return res.ok() ? *res.value : usecases::SearchResult();
}

/// The naive search the fast one must agree with: every line on its own, without its "\n" / "\r\n".
std::vector<SearchHit> reference(const core::BundleInput& in, const SearchRequest& r)
{
    RE2::Options o;
    o.set_log_errors(false);
    o.set_case_sensitive(!r.ignoreCase);
    const RE2 re(r.literal ? RE2::QuoteMeta(r.pattern) : r.pattern, o);
    std::vector<SearchHit> hits;
    for (std::size_t f = 0; f < in.files.size(); ++f) {
        const std::string_view b = in.files[f].bytes;
        std::size_t start = 0;
        std::uint64_t line = 0;
        while (start < b.size()) {
            ++line;
            const auto nl = b.find('\n', start);
            std::size_t end = nl == std::string_view::npos ? b.size() : nl;
            if (end > start && b[end - 1] == '\r')
                --end;
            const re2::StringPiece text(b.data() + start, end - start);
            re2::StringPiece m;
            if (re.Match(text, 0, text.size(), RE2::UNANCHORED, &m, 1)) {
                SearchHit h;
                h.file = f;
                h.path = in.files[f].path;
                h.line = line;
                h.byteOffset = start;
                h.matchStart = static_cast<std::uint32_t>(m.data() - text.data());
                h.matchLength = static_cast<std::uint32_t>(m.size());
                h.text = std::string(b.substr(start, std::min<std::size_t>(end - start, usecases::kSearchLineCap)));
                h.textCut = end - start > usecases::kSearchLineCap;
                hits.push_back(h);
            }
            start = nl == std::string_view::npos ? b.size() : nl + 1;
        }
    }
    return hits;
}

/// Synthetic evidence over three files: two per-host kernel logs and a job log whose records carry their node.
struct Fixture
{
    std::shared_ptr<core::BundleInput> input;
    std::shared_ptr<core::EvidenceSet> evidence;
};

Fixture filterFixture()
{
    Fixture fx;
    // Line offsets: n1: 0 "t10 error a", 12 "t20 error b", 24 "no record error"
    //               n2: 0 "t15 error c", 12 "t25 error d"
    //               job: 0 "node-01 error e" (t12), 16 "node-02 error f" (t22, a two-line record with the next),
    //                    32 "  continued error g", 52 "between records error h", 76 "untimed error i"
    //               notes: 0 "error j"
    fx.input = makeInput({
        { "nodes/node-01/dmesg.txt", "t10 error a\nt20 error b\nno record error\n" },
        { "nodes/node-02/dmesg.txt", "t15 error c\nt25 error d\n" },
        { "joblogs/job.out",
            "node-01 error e\nnode-02 error f\n  continued error g\nbetween records error h\nuntimed error i\n" },
        { "notes.txt", "error j\n" },
    });
    auto ev = std::make_shared<core::EvidenceSet>();
    const auto n1 = ev->nodes.intern("node-01");
    const auto n2 = ev->nodes.intern("node-02");
    auto source = [&](const std::string& path, core::SourceKind kind, core::NodeId host) {
        core::Source s;
        s.path = path;
        s.kind = kind;
        s.host = host;
        ev->sources.push_back(s);
        return static_cast<std::uint32_t>(ev->sources.size() - 1);
    };
    auto record = [&](std::uint32_t src, std::uint64_t line, std::uint64_t offset, std::uint32_t length,
                      core::NodeId node, std::int64_t t, std::int64_t precision = 0) {
        core::Observation o;
        o.where = { line, offset, src, length };
        o.node = node;
        o.timeNs = t == INT64_MIN ? INT64_MIN : t * kSec;
        o.precisionNs = precision;
        o.kind = ev->sources[src].kind;
        ev->observations.push_back(o);
    };
    const auto s1 = source("nodes/node-01/dmesg.txt", core::SourceKind::Kernel, n1);
    record(s1, 1, 0, 11, core::kNoNode, 10);
    record(s1, 2, 12, 11, core::kNoNode, 20);
    const auto s2 = source("nodes/node-02/dmesg.txt", core::SourceKind::Kernel, n2);
    record(s2, 1, 0, 11, n2, 15);
    record(s2, 2, 12, 11, n2, 25);
    const auto s3 = source("joblogs/job.out", core::SourceKind::AppLog, core::kNoNode);
    record(s3, 1, 0, 15, n1, 12);
    record(s3, 2, 16, 35, n2, 22); // "node-02 error f\n  continued error g"
    record(s3, 5, 76, 15, n2, INT64_MIN); // a record whose time is unknown
    fx.evidence = ev;
    return fx;
}

QStringList lettersOf(const std::vector<SearchHit>& hits)
{
    QStringList out;
    for (const auto& h : hits)
        out << q(h.text.substr(h.text.size() - 1));
    return out;
}

} // namespace

class TstSearch : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void exactLinesAndOffsets_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<bool>("ignoreCase");
        QTest::addColumn<bool>("literal");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<quint64>("lines");
        const QString lf = QStringLiteral("alpha\nbeta error\ngamma\nerror delta\n");
        QTest::addRow("LF") << lf << QStringLiteral("error") << false << false
                            << QStringLiteral("f:2 @6 [5+5] |beta error|\nf:4 @23 [0+5] |error delta|") << quint64(4);
        QTest::addRow("CRLF, text without the CR")
            << QStringLiteral("one\r\ntwo err\r\nthree\r\n") << QStringLiteral("err") << false << false
            << QStringLiteral("f:2 @5 [4+3] |two err|") << quint64(3);
        QTest::addRow("CRLF, $ before the CR")
            << QStringLiteral("one err\r\ntwo err x\r\nthree err\r\n") << QStringLiteral("err$") << false << false
            << QStringLiteral("f:1 @0 [4+3] |one err|\nf:3 @20 [6+3] |three err|") << quint64(3);
        QTest::addRow("CRLF, \\s does not match the CR")
            << QStringLiteral("ab\r\nab c\r\n") << QStringLiteral("b\\s") << false << false
            << QStringLiteral("f:2 @4 [1+2] |ab c|") << quint64(2);
        QTest::addRow("no final newline") << QStringLiteral("a\nlast err") << QStringLiteral("err$") << false << false
                                          << QStringLiteral("f:2 @2 [5+3] |last err|") << quint64(2);
        QTest::addRow("no match across a newline")
            << QStringLiteral("foo\nbar\nfoo bar\n") << QStringLiteral("foo\\s*bar|o[^x]b|o\\nb") << false << false
            << QStringLiteral("f:3 @8 [0+7] |foo bar|") << quint64(3);
        QTest::addRow("empty file") << QString() << QString() << false << false << QString() << quint64(0);
        QTest::addRow("empty pattern: every line")
            << QStringLiteral("a\n\nb") << QString() << false << false
            << QStringLiteral("f:1 @0 [0+0] |a|\nf:2 @2 [0+0] ||\nf:3 @3 [0+0] |b|") << quint64(3);
        QTest::addRow("^$: empty lines, none after the last newline")
            << QStringLiteral("a\n\nb\n") << QStringLiteral("^$") << false << false << QStringLiteral("f:2 @2 [0+0] ||")
            << quint64(3);
        QTest::addRow("^ anchors at lines") << QStringLiteral("xab\nab\n") << QStringLiteral("^ab") << false << false
                                            << QStringLiteral("f:2 @4 [0+2] |ab|") << quint64(2);
        QTest::addRow("\\A anchors at each line")
            << QStringLiteral("ab\nab\nxab") << QStringLiteral("\\Aab") << false << false
            << QStringLiteral("f:1 @0 [0+2] |ab|\nf:2 @3 [0+2] |ab|") << quint64(3);
        QTest::addRow("(?-m) keeps ^ at each line")
            << QStringLiteral("xab\nab\n") << QStringLiteral("(?-m)^ab") << false << false
            << QStringLiteral("f:2 @4 [0+2] |ab|") << quint64(2);
        QTest::addRow("ignore case") << QStringLiteral("Error\nERROR x\nnone\n") << QStringLiteral("error") << true
                                     << false << QStringLiteral("f:1 @0 [0+5] |Error|\nf:2 @6 [0+5] |ERROR x|")
                                     << quint64(3);
        QTest::addRow("case matters by default") << QStringLiteral("Error\nerror\n") << QStringLiteral("error") << false
                                                 << false << QStringLiteral("f:2 @6 [0+5] |error|") << quint64(2);
        QTest::addRow("literal") << QStringLiteral("a.b(\naxb(\n") << QStringLiteral("a.b(") << false << true
                                 << QStringLiteral("f:1 @0 [0+4] |a.b(|") << quint64(2);
        QTest::addRow("one hit per line, at the first match")
            << QStringLiteral("x err err\n") << QStringLiteral("err") << false << false
            << QStringLiteral("f:1 @0 [2+3] |x err err|") << quint64(1);
        // Case folding in RE2 also maps U+212A KELVIN SIGN to k and U+017F LONG S to s (the literal prefilter
        // compares ASCII without case, so such chunks go to RE2).
        QTest::addRow("ignore case: Kelvin sign")
            << QStringLiteral("x \u212Aab y\n") << QStringLiteral("kab") << true << false
            << QStringLiteral("f:1 @0 [2+5] |x \u212Aab y|") << quint64(1);
        QTest::addRow("ignore case: long s")
            << QStringLiteral("\u017Ftatus=1\n") << QStringLiteral("status|xyzzy") << true << false
            << QStringLiteral("f:1 @0 [0+7] |\u017Ftatus=1|") << quint64(1);
        QTest::addRow("UTF-8") << QStringLiteral("größe: 3 µs\n") << QStringLiteral("µs") << false << false
                               << QStringLiteral("f:1 @0 [11+3] |größe: 3 µs|") << quint64(1);
    }

    void exactLinesAndOffsets()
    {
        QFETCH(QString, text);
        QFETCH(QString, pattern);
        QFETCH(bool, ignoreCase);
        QFETCH(bool, literal);
        QFETCH(QString, expected);
        QFETCH(quint64, lines);
        // The same hits whatever the thread count and wherever the chunks are cut.
        for (const unsigned threads : { 1u, 2u, 3u })
            for (const std::size_t chunk : { std::size_t(1), std::size_t(5), std::size_t(8) << 20 }) {
                SearchRequest r;
                r.input = makeInput({ { "f", text.toStdString() } });
                r.pattern = pattern.toStdString();
                r.ignoreCase = ignoreCase;
                r.literal = literal;
                r.threads = threads;
                r.chunkBytes = chunk;
                const auto res = run(r);
                const QString where = QStringLiteral("threads %1, chunks of %2 bytes").arg(threads).arg(chunk);
                QVERIFY2(describe(res.hits) == expected,
                    qPrintable(where + QStringLiteral("\nexpected:\n") + expected + QStringLiteral("\ngot:\n")
                        + describe(res.hits)));
                QCOMPARE(res.counts.lines, lines);
                QCOMPARE(res.counts.files, quint64(1));
                QCOMPARE(res.counts.bytes, quint64(text.toUtf8().size()));
                QCOMPARE(res.counts.hits, quint64(res.hits.size()));
            }
    }

    void longLinesAreCutAtACharacter()
    {
        SearchRequest r;
        r.input =
            makeInput({ { "f", std::string(5000, 'x') + "needle\n" + std::string(4095, 'a') + "\xc3\xa9 needle" } });
        r.pattern = "needle";
        const auto res = run(r);
        QCOMPARE(res.hits.size(), std::size_t(2));
        QCOMPARE(res.hits[0].matchStart, 5000u);
        QCOMPARE(res.hits[0].text.size(), usecases::kSearchLineCap);
        QVERIFY(res.hits[0].textCut);
        QCOMPARE(res.hits[1].line, quint64(2));
        QCOMPARE(res.hits[1].text.size(), std::size_t(4095)); // the 2-byte é would straddle the cap
        QVERIFY(res.hits[1].textCut);
    }

    void filters_data()
    {
        QTest::addColumn<QStringList>("nodes");
        QTest::addColumn<QList<int>>("kinds");
        QTest::addColumn<QString>("pathContains");
        QTest::addColumn<QStringList>("paths");
        QTest::addColumn<qint64>("from");
        QTest::addColumn<qint64>("to");
        QTest::addColumn<QStringList>("expected");
        QTest::addColumn<quint64>("untimed");
        const QStringList none;
        const qint64 lo = INT64_MIN;
        const qint64 hi = INT64_MAX;
        const QList<int> anyKind;
        QTest::addRow("none") << none << anyKind << QString() << none << lo << hi
                              << QStringLiteral("a b r c d e f g h i j").split(QLatin1Char(' ')) << quint64(0);
        QTest::addRow("node: per-host file, records' node, file host under records without one")
            << QStringList { QStringLiteral("node-02") } << anyKind << QString() << none << lo << hi
            << QStringList { QStringLiteral("c"), QStringLiteral("d"), QStringLiteral("f"), QStringLiteral("g"),
                   QStringLiteral("i") }
            << quint64(0);
        QTest::addRow("node names are normalised")
            << QStringList { QStringLiteral("NODE-01.cluster.local") } << anyKind << QString() << none << lo << hi
            << QStringList { QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("r"), QStringLiteral("e") }
            << quint64(0);
        QTest::addRow("unknown node: nothing") << QStringList { QStringLiteral("node-99") } << anyKind << QString()
                                               << none << lo << hi << QStringList() << quint64(0);
        QTest::addRow("kind") << none << QList<int> { int(core::SourceKind::Kernel) } << QString() << none << lo << hi
                              << QStringList { QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("r"),
                                     QStringLiteral("c"), QStringLiteral("d") }
                              << quint64(0);
        QTest::addRow("kind Other: files not imported")
            << none << QList<int> { int(core::SourceKind::Other) } << QString() << none << lo << hi
            << QStringList { QStringLiteral("j") } << quint64(0);
        QTest::addRow("path contains") << none << anyKind << QStringLiteral("node-02") << none << lo << hi
                                       << QStringList { QStringLiteral("c"), QStringLiteral("d") } << quint64(0);
        QTest::addRow("exact path") << none << anyKind << QString() << QStringList { QStringLiteral("notes.txt") } << lo
                                    << hi << QStringList { QStringLiteral("j") } << quint64(0);
        QTest::addRow("time window: the record's time, continuation lines included, untimed lines out")
            << none << anyKind << QString() << none << qint64(12 * kSec) << qint64(22 * kSec)
            << QStringLiteral("b c e f g").split(QLatin1Char(' ')) << quint64(4); // r, h, i and j have no time
        QTest::addRow("time and node") << QStringList { QStringLiteral("node-02") } << anyKind << QString() << none
                                       << qint64(20 * kSec) << hi
                                       << QStringList { QStringLiteral("d"), QStringLiteral("f"), QStringLiteral("g") }
                                       << quint64(1);
    }

    void filters()
    {
        QFETCH(QStringList, nodes);
        QFETCH(QList<int>, kinds);
        QFETCH(QString, pathContains);
        QFETCH(QStringList, paths);
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        QFETCH(QStringList, expected);
        QFETCH(quint64, untimed);
        const Fixture fx = filterFixture();
        for (const unsigned threads : { 1u, 2u }) {
            SearchRequest r;
            r.input = fx.input;
            r.evidence = fx.evidence;
            r.pattern = "error";
            r.threads = threads;
            r.chunkBytes = 13;
            for (const auto& n : nodes)
                r.nodes.push_back(n.toStdString());
            for (int k : kinds)
                r.kinds.push_back(static_cast<core::SourceKind>(k));
            r.pathContains = pathContains.toStdString();
            for (const auto& p : paths)
                r.paths.push_back(p.toStdString());
            r.fromNs = from;
            r.toNs = to;
            const auto res = run(r);
            // "no record error" ends in 'r'.
            QCOMPARE(lettersOf(res.hits), expected);
            QCOMPARE(res.counts.untimedExcluded, untimed);
        }
    }

    void hitsCarryTheirRecordsNodeAndTime()
    {
        const Fixture fx = filterFixture();
        SearchRequest r;
        r.input = fx.input;
        r.evidence = fx.evidence;
        r.pattern = "error [a-j]";
        const auto res = run(r);
        const QString expected = QStringLiteral("nodes/node-01/dmesg.txt:1 @0 [4+7] node-01 t=10 |t10 error a|\n"
                                                "nodes/node-01/dmesg.txt:2 @12 [4+7] node-01 t=20 |t20 error b|\n"
                                                "nodes/node-02/dmesg.txt:1 @0 [4+7] node-02 t=15 |t15 error c|\n"
                                                "nodes/node-02/dmesg.txt:2 @12 [4+7] node-02 t=25 |t25 error d|\n"
                                                "joblogs/job.out:1 @0 [8+7] node-01 t=12 |node-01 error e|\n"
                                                "joblogs/job.out:2 @16 [8+7] node-02 t=22 |node-02 error f|\n"
                                                "joblogs/job.out:3 @32 [12+7] node-02 t=22 |  continued error g|\n"
                                                "joblogs/job.out:4 @52 [16+7] |between records error h|\n"
                                                "joblogs/job.out:5 @76 [8+7] node-02 |untimed error i|\n"
                                                "notes.txt:1 @0 [0+7] |error j|");
        QVERIFY2(describe(res.hits) == expected,
            qPrintable(QStringLiteral("expected:\n") + expected + QStringLiteral("\ngot:\n") + describe(res.hits)));
        QCOMPARE(res.hits[6].observation, std::int64_t(5));
        QCOMPARE(res.hits[7].observation, std::int64_t(-1));
        QCOMPARE(res.hits[4].kind, core::SourceKind::AppLog);
        QCOMPARE(res.hits[9].kind, core::SourceKind::Other);
        QCOMPARE(res.counts.files, quint64(4));
        // Without the evidence: no node, no time; node and time filters then keep nothing.
        r.evidence = nullptr;
        auto bare = run(r);
        QCOMPARE(bare.hits.size(), std::size_t(10));
        QVERIFY(bare.hits[0].node.empty() && bare.hits[0].timeNs == INT64_MIN);
        r.nodes = { "node-01" };
        QCOMPARE(run(r).hits.size(), std::size_t(0));
        r.nodes.clear();
        r.fromNs = 0;
        bare = run(r);
        QCOMPARE(bare.hits.size(), std::size_t(0));
        QCOMPARE(bare.counts.untimedExcluded, quint64(10));
    }

    void theSeverityFilterKeepsLinesOfEventsOfThatSeverity()
    {
        // Events: a warning from node-01's first record, an error from node-02's second, a fatal event found in the
        // job log's two-line record (its provenance points inside it, at the continuation) that also merged the
        // warning's duplicate on node-02's first record. Lines no event came from never pass the filter.
        const Fixture fx = filterFixture();
        auto v = std::make_shared<core::Verdict>();
        auto event = [&](const char* severity, std::vector<core::Provenance> where) {
            core::Event e;
            e.severity = severity;
            e.provenance = std::move(where);
            v->events.push_back(e);
        };
        event("warning", { { 1, 0, 0, 11 }, { 1, 0, 1, 11 } });
        event("error", { { 2, 12, 1, 11 } });
        event("fatal", { { 3, 32, 2, 19 } });
        SearchRequest r;
        r.input = fx.input;
        r.evidence = fx.evidence;
        r.verdict = v;
        r.pattern = "error";
        const std::vector<std::pair<std::string, QStringList>> cases = {
            { "", { "a", "b", "r", "c", "d", "e", "f", "g", "h", "i", "j" } },
            { "info", { "a", "c", "d", "f", "g" } },
            { "warning", { "a", "c", "d", "f", "g" } },
            { "error", { "d", "f", "g" } },
            { "fatal", { "f", "g" } },
        };
        for (const auto& [severity, expected] : cases)
            for (const unsigned threads : { 1u, 2u }) {
                r.minSeverity = severity;
                r.threads = threads;
                r.chunkBytes = 13;
                const auto got = lettersOf(run(r).hits);
                QVERIFY2(got == expected,
                    qPrintable(QStringLiteral("severity \"%1\": expected %2, got %3")
                                   .arg(q(severity), expected.join(QLatin1Char(',')), got.join(QLatin1Char(',')))));
            }
        r.minSeverity = "critical";
        auto res = usecases::searchEvidence(r);
        QCOMPARE(res.failure.code, usecases::Exit::Usage);
        QVERIFY2(res.failure.message.find("critical") != std::string::npos, res.failure.message.c_str());
        r.minSeverity = "error";
        r.verdict = nullptr;
        res = usecases::searchEvidence(r);
        QCOMPARE(res.failure.code, usecases::Exit::Usage);
    }

    void aPrecisionIntervalOverlappingTheWindowPasses()
    {
        Fixture fx = filterFixture();
        fx.evidence->observations[0].precisionNs = 5 * kSec; // "t10 error a" lies in [10 s, 15 s)
        SearchRequest r;
        r.input = fx.input;
        r.evidence = fx.evidence;
        r.pattern = "error a";
        r.fromNs = 14 * kSec;
        QCOMPARE(run(r).hits.size(), std::size_t(1));
        r.fromNs = 15 * kSec;
        QCOMPARE(run(r).hits.size(), std::size_t(0));
    }

    void aBadPatternIsAUsageFailureWithRe2sMessage_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<int>("column");
        QTest::addRow("missing )") << QStringLiteral("(abc") << 1;
        QTest::addRow("missing ]") << QStringLiteral("ab[z") << 3;
        QTest::addRow("bad repetition") << QStringLiteral("a**") << 2;
        QTest::addRow("bad escape") << QStringLiteral("x\\8") << 2;
    }

    void aBadPatternIsAUsageFailureWithRe2sMessage()
    {
        QFETCH(QString, pattern);
        QFETCH(int, column);
        SearchRequest r;
        r.input = makeInput({ { "f", "abc\n" } });
        r.pattern = pattern.toStdString();
        const auto res = usecases::searchEvidence(r);
        QVERIFY(!res.ok());
        QCOMPARE(res.failure.code, usecases::Exit::Usage);
        RE2::Options o;
        o.set_log_errors(false);
        const RE2 re(r.pattern, o);
        QVERIFY(!re.ok());
        QCOMPARE(q(res.failure.message), q("invalid RE2 pattern: " + re.error()));
        QCOMPARE(res.failure.diagnostics.size(), std::size_t(1));
        const auto& d = res.failure.diagnostics.front();
        QCOMPARE(q(d.code), QStringLiteral("search-pattern"));
        QCOMPARE(int(d.where.column), column);
        QVERIFY2(d.format().find(r.pattern) != std::string::npos, d.format().c_str());
        // As plain text the same pattern is fine.
        r.literal = true;
        QVERIFY(usecases::searchEvidence(r).ok());
    }

    void otherUsageFailures()
    {
        SearchRequest r;
        r.pattern = "x";
        QCOMPARE(usecases::searchEvidence(r).failure.code, usecases::Exit::NoEvidence);
        r.input = makeInput({ { "f", "x\n" } });
        r.fromNs = 20;
        r.toNs = 10;
        QCOMPARE(usecases::searchEvidence(r).failure.code, usecases::Exit::Usage);
    }

    void cancellation()
    {
        std::string big;
        for (int i = 0; i < 20000; ++i)
            big += "line " + std::to_string(i) + " hit\n";
        for (const unsigned threads : { 1u, 2u }) {
            // Cancelled before it starts.
            std::atomic_bool cancel { true };
            usecases::Task task;
            task.cancel = &cancel;
            SearchRequest r;
            r.input = makeInput({ { "a", big }, { "b", big } });
            r.pattern = "hit";
            r.threads = threads;
            r.chunkBytes = 4096;
            auto res = usecases::searchEvidence(r, task);
            QCOMPARE(res.failure.code, usecases::Exit::Cancelled);
            // Cancelled from within, after the first hits: the hits delivered so far are a prefix of the full list.
            cancel = false;
            std::vector<SearchHit> seen;
            res = usecases::searchEvidence(r, task, [&](const SearchHit& h) {
                seen.push_back(h);
                if (seen.size() == 100)
                    cancel = true;
            });
            QCOMPARE(res.failure.code, usecases::Exit::Cancelled);
            QVERIFY2(seen.size() >= 100 && seen.size() < 40000, qPrintable(QString::number(seen.size())));
            for (std::size_t i = 0; i < seen.size(); ++i)
                QCOMPARE(seen[i].line, quint64(i % 20000 + 1));
        }
    }

    void progressRisesTo100()
    {
        std::vector<int> seen;
        usecases::Task task;
        task.progress = [&](int p, const std::string&) { seen.push_back(p); };
        SearchRequest r;
        r.input = makeInput({ { "a", std::string(100000, 'x') + "\n" + std::string(100000, 'y') }, { "b", "z\n" } });
        r.pattern = "y";
        r.chunkBytes = 1000;
        r.threads = 2;
        QVERIFY(usecases::searchEvidence(r, task).ok());
        QVERIFY(seen.size() > 2);
        QCOMPARE(seen.front(), 0);
        QCOMPARE(seen.back(), 100);
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
    }

    void sameHitsWithOneOrManyThreadsAndAsTheNaiveSearch()
    {
        // Random lines over a small alphabet, LF and CRLF, long and empty lines, several files.
        std::mt19937 rng(48213);
        std::vector<std::pair<std::string, std::string>> files;
        for (int f = 0; f < 7; ++f) {
            std::string text;
            const int lines = f == 3 ? 0 : 200 + static_cast<int>(rng() % 2000);
            for (int l = 0; l < lines; ++l) {
                const int len = rng() % 50 == 0 ? 300 : static_cast<int>(rng() % 30);
                for (int c = 0; c < len; ++c)
                    text += "ab err foo\tXb "[rng() % 14];
                text += f % 2 ? "\r\n" : "\n";
            }
            if (f == 5)
                text += "no final newline err";
            files.emplace_back("file-" + std::to_string(f), text);
        }
        const auto input = makeInput(files);
        const char* patterns[] = { "err", "^a", "b$", "\\bfoo\\b", "b\\s", "", "^$", "(?i)ERR", "a[^r]*r", "o\\s+X",
            "err|foo$", "\\Ab", "err foo|Xb e", "(?i)xB |foo\\t", "ab\\s+err", "\\Aerr|foo", "rr$|bfo", "[ab]err" };
        for (const char* p : patterns) {
            SearchRequest r;
            r.input = input;
            r.pattern = p;
            const auto expected = reference(*input, r);
            usecases::SearchCounts first;
            for (const bool prefilter : { true, false })
                for (const unsigned threads : { 1u, 2u, 4u })
                    for (const std::size_t chunk : { std::size_t(64), std::size_t(1000), std::size_t(8) << 20 }) {
                        r.literalPrefilter = prefilter;
                        r.threads = threads;
                        r.chunkBytes = chunk;
                        const auto res = run(r);
                        const QString where = QStringLiteral("pattern '%1', prefilter %2, threads %3, chunk %4")
                                                  .arg(q(p))
                                                  .arg(prefilter)
                                                  .arg(threads)
                                                  .arg(chunk);
                        QVERIFY2(describe(res.hits) == describe(expected),
                            qPrintable(where + QStringLiteral("\nexpected:\n") + describe(expected).left(2000)
                                + QStringLiteral("\ngot:\n") + describe(res.hits).left(2000)));
                        if (prefilter && threads == 1 && chunk == 64)
                            first = res.counts;
                        QCOMPARE(describe(res.counts), describe(first));
                    }
        }
    }

    void maxHitsTruncatesTheSameWayWithAnyThreadCount()
    {
        std::string a;
        std::string b;
        for (int i = 1; i <= 50; ++i) {
            a += (i % 5 == 0 ? "hit " : "miss ") + std::to_string(i) + "\n";
            b += (i % 10 == 0 ? "hit " : "miss ") + std::to_string(i) + "\n";
        }
        const auto input = makeInput({ { "a", a }, { "b", b } });
        SearchRequest r;
        r.input = input;
        r.pattern = "^hit";
        const auto all = run(r);
        QCOMPARE(all.hits.size(), std::size_t(15));
        QVERIFY(!all.counts.truncated);
        QString counts;
        for (const unsigned threads : { 1u, 2u })
            for (const std::size_t chunk : { std::size_t(7), std::size_t(100000) }) {
                r.threads = threads;
                r.chunkBytes = chunk;
                r.maxHits = 12; // the 10 of a, then 2 of b
                const auto res = run(r);
                const std::vector<SearchHit> prefix(all.hits.begin(), all.hits.begin() + 12);
                QCOMPARE(describe(res.hits), describe(prefix));
                QVERIFY(res.counts.truncated);
                QCOMPARE(res.counts.hits, quint64(12));
                QCOMPARE(res.counts.files, quint64(2));
                QCOMPARE(res.counts.lines, quint64(50 + 20)); // stops at b's line 20
                if (counts.isEmpty())
                    counts = describe(res.counts);
                QCOMPARE(describe(res.counts), counts);
                // A limit the hits do not reach, or reach on the very last line, truncates nothing.
                r.maxHits = 15;
                QVERIFY(!run(r).counts.truncated);
                r.maxHits = 100;
                QCOMPARE(run(r).hits.size(), std::size_t(15));
            }
    }

    void onHitAloneWhenHitsAreNotKept()
    {
        SearchRequest r;
        r.input = makeInput({ { "a", "x\ny\nx\n" } });
        r.pattern = "x";
        r.keepHits = false;
        std::vector<std::uint64_t> lines;
        const auto res = usecases::searchEvidence(r, {}, [&](const SearchHit& h) { lines.push_back(h.line); });
        QVERIFY(res.ok());
        QVERIFY(res.value->hits.empty());
        QCOMPARE(res.value->counts.hits, quint64(2));
        QCOMPARE(lines, (std::vector<std::uint64_t> { 1, 3 }));
    }

    void theFlagshipSample()
    {
        const auto input = std::make_shared<core::BundleInput>(
            importers::collectBundle({ tests::sourcePath("resources/samples/bundle-48213") }));
        const auto evidence = std::make_shared<core::EvidenceSet>(importers::importBundle(*input));
        const auto text = core::inputText(input);
        // The cause's line: Xid 149 on node-02.
        SearchRequest r;
        r.input = input;
        r.evidence = evidence;
        r.pattern = R"(Xid \(PCI:[0-9a-f:]+\): 149\b)";
        auto res = run(r);
        const auto it = std::find_if(res.hits.begin(), res.hits.end(),
            [](const SearchHit& hit) { return hit.path == "nodes/node-02/dmesg.txt"; });
        QVERIFY2(it != res.hits.end(), qPrintable(describe(res.hits)));
        const SearchHit& h = *it;
        QCOMPARE(q(h.path), QStringLiteral("nodes/node-02/dmesg.txt"));
        QCOMPARE(h.line, quint64(70));
        QCOMPARE(q(h.node), QStringLiteral("node-02"));
        QVERIFY(h.timeNs != INT64_MIN);
        QCOMPARE(q(h.text), q(*text->line(h.file, 70)));
        QCOMPARE(q(h.text.substr(h.matchStart, h.matchLength)), QStringLiteral("Xid (PCI:0000:c3:00): 149"));
        const std::string_view bytes = input->files[h.file].bytes;
        QCOMPARE(q(std::string(bytes.substr(h.byteOffset, 16))), QStringLiteral("[274501.123456] "));
        QCOMPARE(q(core::sourceKindName(h.kind)), q(core::sourceKindName(core::SourceKind::Kernel)));

        // The words "Xid 149": the companion Xid 45 line just after it, and the node's drain reason.
        r.pattern = "Xid 149";
        r.literal = true;
        res = run(r);
        QStringList where;
        for (const auto& hit : res.hits)
            where << q(hit.path) + QLatin1Char(':') + QString::number(hit.line);
        QVERIFY2(where.contains(QStringLiteral("nodes/node-02/dmesg.txt:71")), qPrintable(where.join(u' ')));
        QCOMPARE(res.counts.files, quint64(input->files.size()));
        QVERIFY(res.counts.lines > 1000);
        // Only node-02's evidence, only the kernel's.
        r.nodes = { "node-02" };
        r.kinds = { core::SourceKind::Kernel };
        res = run(r);
        for (const auto& hit : res.hits) {
            QCOMPARE(q(hit.node), QStringLiteral("node-02"));
            QVERIFY2(hit.path.find("nodes/node-02/") == 0, hit.path.c_str());
        }
        QVERIFY(!res.hits.empty());
    }
};

QTEST_MAIN(TstSearch)
#include "tst_search.moc"
