// SPDX-License-Identifier: Apache-2.0
// Golden-file tests for every importer format: each tests/data/golden/<case>/ bundle is imported and its sources,
// records (time, precision, quality, node, rank, GPU, provenance, text) and metric series are written as canonical
// JSON and compared with <case>/expected.json. On a mismatch the actual JSON is written next to it and `diff -u`
// is printed; FAULTLINE_UPDATE_GOLDEN=1 rewrites the expected files.
#include "core/time/civil_time.h"
#include "core/util/json_writer.h"
#include "importers/bundle_loader.h"
#include "tests/common/test_helpers.h"

#include <QTest>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace faultline;
using namespace faultline::core;

namespace {

std::string canonical(const EvidenceSet& ev)
{
    JsonWriter w;
    w.beginObject();
    w.key("scope").beginObject();
    w.field("scheduler", ev.scope.scheduler).field("job_id", ev.scope.jobId).field("state", ev.scope.state);
    w.field("start", formatUtc(ev.scope.startNs)).field("end", formatUtc(ev.scope.endNs));
    w.key("nodes").beginArray();
    for (NodeId n : ev.scope.nodes)
        w.value(ev.nodeName(n));
    w.endArray().endObject();
    w.key("sources").beginArray();
    for (const auto& s : ev.sources) {
        w.beginObject();
        w.field("path", s.path)
            .field("format", s.format)
            .field("why", s.formatReason)
            .field("kind", sourceKindName(s.kind));
        w.field("host", ev.nodeName(s.host)).field("zone", s.zone).field("status", coverageStatusName(s.status));
        w.field("lines", s.lines).field("records", s.records);
        w.key("warnings").beginArray();
        for (const auto& d : s.warnings)
            w.value(d.code + "@" + std::to_string(d.where.line));
        w.endArray().endObject();
    }
    w.endArray();
    w.key("records").beginArray();
    for (const auto& o : ev.observations) {
        w.beginObject();
        w.field("at",
            ev.sources[o.where.source].path + ":" + std::to_string(o.where.line) + "+"
                + std::to_string(o.where.byteOffset) + "/" + std::to_string(o.where.length));
        w.field("time", formatUtc(o.timeNs))
            .field("precision_ns", o.precisionNs)
            .field("quality", timeQualityName(o.quality));
        w.field("kind", sourceKindName(o.kind))
            .field("node", ev.nodeName(o.node))
            .field("rank", o.rank)
            .field("gpu", o.gpu);
        w.field("text", std::string(o.text));
        w.endObject();
    }
    w.endArray();
    w.key("ranks").beginArray();
    for (const auto& r : ev.ranks)
        w.value("rank " + std::to_string(r.rank) + " " + ev.nodeName(r.node) + " " + r.gpu + " cudaDev "
            + std::to_string(r.cudaDevice) + " pid " + std::to_string(r.pid));
    w.endArray();
    w.key("metrics").beginArray();
    for (const auto& m : ev.metrics) {
        w.beginObject();
        w.field("name", m.name).field("node", ev.nodeName(m.node)).field("gpu", m.gpu).field("device", m.device);
        w.field("at", ev.sources[m.where.source].path + ":" + std::to_string(m.where.line));
        w.field("samples", static_cast<std::uint64_t>(m.samples.size()));
        if (!m.samples.empty()) {
            w.field("first", formatUtc(m.samples.front().first)).field("first_value", m.samples.front().second);
            w.field("last", formatUtc(m.samples.back().first)).field("last_value", m.samples.back().second);
        }
        w.endObject();
    }
    w.endArray();
    w.endObject();
    return w.str() + "\n";
}

} // namespace

class TstGolden : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void formats_data()
    {
        QTest::addColumn<QString>("dir");
        std::vector<std::string> cases;
        for (const auto& e : std::filesystem::directory_iterator(tests::sourcePath("tests/data/golden")))
            if (e.is_directory())
                cases.push_back(e.path().filename().string());
        std::sort(cases.begin(), cases.end());
        QVERIFY(cases.size() >= 15);
        for (const auto& c : cases)
            QTest::addRow("%s", c.c_str()) << QString::fromStdString(c);
    }

    void formats()
    {
        QFETCH(QString, dir);
        const std::filesystem::path root = tests::sourcePath("tests/data/golden/" + dir.toStdString());
        // The expected file itself is not evidence: import a copy of the inputs only.
        QTemporaryDir tmp;
        for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
            if (!e.is_regular_file() || e.path().filename() == "expected.json" || e.path().filename() == "actual.json")
                continue;
            const auto target =
                std::filesystem::path(tmp.path().toStdString()) / std::filesystem::relative(e.path(), root);
            std::filesystem::create_directories(target.parent_path());
            std::filesystem::copy_file(e.path(), target);
            // A fixed modification time: year-less stamps of bundles without a workload window take their year
            // from it, and the golden files must not change with the calendar.
            std::filesystem::last_write_time(
                target, std::chrono::file_clock::from_sys(std::chrono::sys_seconds(std::chrono::seconds(1793620800))));
        }
        std::string actual = canonical(importers::loadBundle({ tmp.path().toStdString() }));
        // The temporary path is not part of the result.
        for (std::size_t at; (at = actual.find(tmp.path().toStdString())) != std::string::npos;)
            actual.replace(at, tmp.path().size(), "<bundle>");
        FAULTLINE_VERIFY_GOLDEN(actual, root / "expected.json", root / "actual.json", "import");
    }
};

QTEST_GUILESS_MAIN(TstGolden)
#include "tst_golden.moc"
