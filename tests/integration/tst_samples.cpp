// SPDX-License-Identifier: Apache-2.0
// Every bundled sample (resources/samples/*) gives the verdict its expected.yaml names, with provenance on every
// piece of evidence, and the JSON output is byte-identical across runs and thread counts.
#include "core/analysis/analyzer.h"
#include "core/report/verdict_report.h"
#include "core/rules/extraction.h"
#include "core/rules/verdict_expectation.h"
#include "core/time/civil_time.h"
#include "importers/bundle_loader.h"
#include "tests/common/test_helpers.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <map>

using namespace faultline;
using namespace faultline::core;

class TstSamples : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void verdicts_data()
    {
        QTest::addColumn<QString>("bundle");
        std::vector<std::string> names;
        for (const auto& e : std::filesystem::directory_iterator(tests::sourcePath("resources/samples")))
            if (std::filesystem::exists(e.path() / "expected.yaml"))
                names.push_back(e.path().filename().string());
        std::sort(names.begin(), names.end());
        QVERIFY(names.size() >= 6);
        for (const auto& n : names)
            QTest::addRow("%s", n.c_str()) << QString::fromStdString(n);
    }

    void verdicts()
    {
        QFETCH(QString, bundle);
        const std::string dir = tests::sourcePath("resources/samples/" + bundle.toStdString());
        std::vector<Diagnostic> diags;
        const auto expected = readExpectation(dir + "/expected.yaml", diags);
        QVERIFY(expected);
        const EvidenceSet ev = importers::loadBundle({ dir });
        QVERIFY(ev.diagnostics.empty());
        const Verdict v = analyze(ev, *tests::bundledCatalog());
        std::string problems;
        for (const auto& p : checkExpectation(*expected, v))
            problems += p + "\n";
        QVERIFY2(problems.empty(), problems.c_str());
        // Every fact points back to a file, a line and a byte offset inside that file.
        for (const auto& t : v.trail)
            for (const auto& p : v.events[t.event].provenance) {
                QVERIFY(p.source < ev.sources.size());
                QVERIFY(p.line > 0);
                QVERIFY(p.byteOffset < std::max<std::uint64_t>(ev.sources[p.source].bytes, 1));
            }
        QCOMPARE(v.catalogHash, tests::bundledCatalog()->contentHash());
    }

    void flagshipDetails()
    {
        const std::string dir = tests::sourcePath("resources/samples/bundle-48213");
        const EvidenceSet ev = importers::loadBundle({ dir });
        const Verdict v = analyze(ev, *tests::bundledCatalog());
        QVERIFY(v.hasCause);
        const Event& c = v.events[v.cause];
        QCOMPARE(c.gpu, std::string("0000:c3:00.0"));
        // The silent rank: GPU 0000:c3:00.0 on node-02 is rank 13's, from its NCCL init line.
        QCOMPARE(c.rank, 13);
        QCOMPARE(ev.ranks.size(), std::size_t(32));
        QCOMPARE(*c.field("unit"), std::string("NETIR_LINK_EVT"));
        QCOMPARE(*c.field("link"), std::string("07"));
        QCOMPARE(formatUtc(c.timeNs), std::string("2026-11-02T10:15:01.123456Z"));
        // The same kernel line in dmesg and in the journal is one event with two provenances.
        QCOMPARE(c.provenance.size(), std::size_t(2));
        // Trap: the torchrun summary blames rank 12; it is listed as a losing alternative, not the cause.
        bool rank12Alternative = false;
        for (const auto& a : v.alternatives)
            rank12Alternative = rank12Alternative
                || (v.events[a.event].type == "torchrun.root_cause_summary" && v.events[a.event].rank == 12);
        QVERIFY(rank12Alternative);
        // Trap: the drain in slurmctld.log is written in Berlin time; read in UTC it would land after the job.
        bool drainConfirms = false;
        for (const auto& t : v.trail)
            if (v.events[t.event].type == "slurm.node_drain") {
                drainConfirms = drainConfirms || formatUtc(v.events[t.event].timeNs) == "2026-11-02T10:15:44.206Z";
                QVERIFY(t.why.find("confirmation") == 0);
            }
        QVERIFY(drainConfirms);
        // The rising NVLink CRC counter is a precursor of the cause.
        bool precursor = false;
        for (const auto& t : v.trail)
            precursor =
                precursor || (v.events[t.event].type == "metric.nvlink_crc_rising" && t.why.find("precursor") == 0);
        QVERIFY(precursor);
        QCOMPARE(v.confidenceLevel, std::string("high"));
    }

    void batchPrefilterChangesNothing_data() { verdicts_data(); }
    void batchPrefilterChangesNothing()
    {
        // The batch prefilter is an optimisation only: with and without it, the same events come out.
        QFETCH(QString, bundle);
        const EvidenceSet ev =
            importers::loadBundle({ tests::sourcePath("resources/samples/" + bundle.toStdString()) });
        Extraction batched(*tests::bundledCatalog());
        Extraction single(*tests::bundledCatalog());
        single.setBatching(false);
        const auto a = batched.runAll(ev.observations, 1);
        const auto b = single.runAll(ev.observations, 1);
        QCOMPARE(a.size(), b.size());
        QVERIFY(a.size() > 10);
        for (std::size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(a[i].event.ruleId, b[i].event.ruleId);
            QCOMPARE(a[i].event.observation, b[i].event.observation);
            QCOMPARE(a[i].event.fields, b[i].event.fields);
        }
    }

    void flagshipWithoutManifest()
    {
        // The same evidence with no faultline.yaml: formats, hosts (path components) and the dmesg boot time
        // (from the host's journald export) are found from the content; sacct times are read as UTC, which the
        // verdict says, and the cause is still the Xid 149 on node-02.
        QTemporaryDir dir;
        const std::filesystem::path src = tests::sourcePath("resources/samples/bundle-48213");
        std::filesystem::copy(src, dir.path().toStdString(), std::filesystem::copy_options::recursive);
        std::filesystem::remove(std::filesystem::path(dir.path().toStdString()) / "faultline.yaml");
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        QVERIFY(ev.scope.windowZoneAssumed);
        for (const auto& s : ev.sources)
            if (s.format == "dmesg-raw") {
                QVERIFY2(s.formatReason.find("boot time from nodes/") != std::string::npos, s.formatReason.c_str());
                QVERIFY(s.host != kNoNode);
            }
        const Verdict v = analyze(ev, *tests::bundledCatalog());
        QCOMPARE(v.outcome, std::string("infrastructure_failure"));
        QVERIFY(v.hasCause);
        QCOMPARE(tests::causeNodeName(v), std::string("node-02"));
        QCOMPARE(*v.events[v.cause].field("code"), std::string("149"));
        bool noted = false;
        for (const auto& n : v.confidenceNotes)
            noted = noted || n.find("without a zone") != std::string::npos;
        QVERIFY(noted);
    }

    void kubernetesBundleWithoutManifest()
    {
        // The Kubernetes sample with no faultline.yaml imports as it does with one: every file's format and node
        // (pods.json maps pods to nodes; "node-04-trainer-json.log" names its node), the Kueue admission gives
        // the nodes and an RFC 3339 window, which assumes no zone.
        const std::string withManifest = tests::sourcePath("resources/samples/bundle-48213-k8s");
        QTemporaryDir dir;
        std::filesystem::copy(withManifest, dir.path().toStdString(), std::filesystem::copy_options::recursive);
        std::filesystem::remove(std::filesystem::path(dir.path().toStdString()) / "faultline.yaml");
        const EvidenceSet a = importers::loadBundle({ withManifest });
        const EvidenceSet b = importers::loadBundle({ dir.path().toStdString() });
        QVERIFY(!b.scope.windowZoneAssumed);
        QCOMPARE(b.scope.nodes.size(), std::size_t(4));
        auto hostOf = [](const EvidenceSet& ev, const Source& s) {
            return s.host == kNoNode ? std::string() : ev.nodes.name(s.host);
        };
        std::map<std::string, std::pair<std::string, std::string>> expected;
        for (const auto& s : a.sources)
            if (s.path != "faultline.yaml")
                expected[s.path] = { s.format, hostOf(a, s) };
        for (const auto& s : b.sources) {
            if (s.path == "expected.yaml")
                continue;
            QVERIFY2(expected.count(s.path), s.path.c_str());
            QCOMPARE(s.format, expected[s.path].first);
            QCOMPARE(hostOf(b, s), expected[s.path].second);
        }
        const Verdict v = analyze(b, *tests::bundledCatalog());
        QVERIFY(v.hasCause);
        QCOMPARE(tests::causeNodeName(v), std::string("node-02"));
    }

    void lokiNodeLabelsNameTheCulprit()
    {
        // A Kubernetes job exported from Loki only (Promtail's Kubernetes discovery: node_name, pod, container, no
        // pods.json): rank 13 runs out of GPU memory on node-02, node-01's ranks time out 600 s later. The cause is
        // named with its node, the victims with theirs, and the text never says "job-level" or "none ranks".
        QTemporaryDir dir;
        std::string streams;
        auto stream = [&](const std::string& node, const std::string& pod, const std::string& values) {
            streams += std::string(streams.empty() ? "" : ",")
                + "{\"stream\":{\"container\":\"trainer\",\"filename\":" + "\"/var/log/pods/ml_" + pod
                + "_1f2e/trainer/0.log\",\"job\":\"ml/train\",\"namespace\":\"ml\"," + "\"node_name\":\"" + node
                + "\",\"pod\":\"" + pod + "\",\"stream\":\"stderr\"},\"values\":[" + values + "]}";
        };
        stream("node-02", "train-1-7hq4d",
            "[\"1793610164518000000\",\"[rank13]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
            "4.00 GiB. GPU 5 has a total capacity of 79.19 GiB of which 1.12 GiB is free.\"]");
        std::string victims;
        for (int r = 0; r < 4; ++r)
            victims += std::string(r ? "," : "") + "[\"" + std::to_string(1793610764700000000LL + r) + "\",\"[rank"
                + std::to_string(r) + "]:[E1102 09:12:44.70000000" + std::to_string(r)
                + " ProcessGroupNCCL.cpp:632] [Rank " + std::to_string(r)
                + "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=412877, OpType=_ALLGATHER_BASE, "
                  "NumelIn=1, NumelOut=8, Timeout(ms)=600000) ran for 600407 milliseconds before timing out.\"]";
        stream("node-01", "train-0-x2mzp", victims);
        tests::writeFiles(dir,
            { { "faultline.yaml",
                  "workload: {scheduler: kueue, job_id: wl-9, nodes: \"node-[01-02]\", window: {from: "
                  "\"2026-11-02T08:30:00Z\", to: \"2026-11-02T09:30:00Z\"}}\n"
                  "files:\n  loki/pods.json: {format: loki-query-range}\n" },
                { "loki/pods.json",
                    "{\"status\":\"success\",\"data\":{\"resultType\":\"streams\",\"result\":[" + streams
                        + "]}}\n" } });
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        const Verdict v = analyze(ev, *tests::bundledCatalog());
        QVERIFY(v.hasCause);
        const Event& c = v.events[v.cause];
        QCOMPARE(QString::fromStdString(c.type), QStringLiteral("cuda.oom"));
        QCOMPARE(c.rank, 13);
        QCOMPARE(QString::fromStdString(c.node == kNoNode ? std::string() : v.nodes.name(c.node)),
            QStringLiteral("node-02"));
        QCOMPARE(QString::fromStdString(v.symptomNodes.empty() ? std::string() : v.symptomNodes.front()),
            QStringLiteral("node-01"));
        QCOMPARE(v.symptomNodes.size(), std::size_t(1));
        const std::string text = verdictToText(v, ev, {});
        QVERIFY2(text.find("  node-02 rank 13 at 2026-11-02T09:02:44.518Z") != std::string::npos, text.c_str());
        QVERIFY2(text.find("none ranks") == std::string::npos, text.c_str());
        QVERIFY2(text.find("job-level") == std::string::npos, text.c_str());
        QVERIFY2(text.find("x pytorch.watchdog_timeout on node-01 ranks 0-3,") != std::string::npos, text.c_str());
    }

    void symptomsWithoutNodeNameTheirRanks()
    {
        // Victims whose node nothing names (a label-less export, no identity lines): the text lists their ranks
        // ("on ranks 0-3") and the cause's rank, never "on none ranks" or "job-level rank".
        QTemporaryDir dir;
        std::string lines = "{\"labels\":{},\"line\":\"[rank13]: torch.OutOfMemoryError: CUDA out of memory. Tried "
                            "to allocate 4.00 GiB.\",\"timestamp\":\"2026-11-02T09:02:44.518Z\"}\n";
        for (int r = 0; r < 4; ++r)
            lines += "{\"labels\":{},\"line\":\"[rank" + std::to_string(r) + "]:[E1102 09:12:44.70000000"
                + std::to_string(r) + " ProcessGroupNCCL.cpp:632] [Rank " + std::to_string(r)
                + "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=412877, OpType=_ALLGATHER_BASE, "
                  "NumelIn=1, NumelOut=8, Timeout(ms)=600000) ran for 600407 milliseconds before timing "
                  "out.\",\"timestamp\":\"2026-11-02T09:12:44.70000000"
                + std::to_string(r) + "Z\"}\n";
        tests::writeFiles(dir, { { "joblog.jsonl", lines } });
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        const Verdict v = analyze(ev, *tests::bundledCatalog());
        QVERIFY(v.hasCause);
        QCOMPARE(v.events[v.cause].node, kNoNode);
        const std::string text = verdictToText(v, ev, {});
        QVERIFY2(text.find("none ranks") == std::string::npos, text.c_str());
        QVERIFY2(text.find("job-level rank") == std::string::npos, text.c_str());
        QVERIFY2(text.find("x pytorch.watchdog_timeout on ranks 0-3,") != std::string::npos, text.c_str());
        QVERIFY2(text.find("  rank 13 (node unknown) at ") != std::string::npos, text.c_str());
    }

    void jsonIsByteIdentical()
    {
        const std::string dir = tests::sourcePath("resources/samples/bundle-48213");
        importers::LoadOptions l1;
        l1.threads = 1;
        importers::LoadOptions l2;
        l2.threads = 2;
        const EvidenceSet a = importers::loadBundle({ dir }, l1);
        const EvidenceSet b = importers::loadBundle({ dir }, l2);
        AnalysisOptions o1;
        o1.threads = 1;
        AnalysisOptions o2;
        o2.threads = 2;
        const std::string ja = verdictToJson(analyze(a, *tests::bundledCatalog(), o1), a);
        const std::string jb = verdictToJson(analyze(b, *tests::bundledCatalog(), o2), b);
        const std::string jc = verdictToJson(analyze(b, *tests::bundledCatalog(), o2), b);
        QCOMPARE(ja, jb);
        QCOMPARE(jb, jc);
        QVERIFY(ja.find("\"blamed_nodes\": [\n    \"node-02\"\n  ]") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TstSamples)
#include "tst_samples.moc"
