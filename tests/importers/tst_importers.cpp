// SPDX-License-Identifier: Apache-2.0
// Importers on small inline bundles: time conversion (boot time, zones, year-less stamps, inferred times),
// identity (srun label, [rankN]:, NCCL host), detection without a manifest, and bad input that yields a located
// warning while the rest is still imported.
#include "core/time/civil_time.h"
#include "importers/application/app_log_line_reader.h"
#include "importers/bundle/phases.h"
#include "importers/bundle_loader.h"
#include "tests/common/test_helpers.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <cstdlib>
#include <filesystem>
#include <map>

using namespace faultline;
using namespace faultline::core;

namespace {

const Source* source(const EvidenceSet& ev, const std::string& path)
{
    for (const auto& s : ev.sources)
        if (s.path == path)
            return &s;
    return nullptr;
}

std::vector<const Observation*> records(const EvidenceSet& ev, const std::string& path)
{
    std::vector<const Observation*> out;
    for (const auto& o : ev.observations)
        if (ev.sources[o.where.source].path == path)
            out.push_back(&o);
    return out;
}

/// Strings compared as QString, so a failing QCOMPARE prints both values.
QString text(const std::string& s)
{
    return QString::fromStdString(s);
}

bool hasWarning(const Source* s, const std::string& code, std::uint64_t line = 0)
{
    for (const auto& d : s->warnings)
        if (d.code == code && (line == 0 || d.where.line == line))
            return true;
    return false;
}

const char* kManifest = R"(bundle: t
workload: {scheduler: slurm, job_id: "7", nodes: "node-[01-02]", ranks_per_node: 8}
hosts:
  ctld: {tz: Europe/Berlin}
  node-01: {tz: UTC, boot_time: "2026-11-02T00:00:00Z"}
  node-02: {tz: UTC}
files:
  sacct.psv: {format: sacct-parsable2, host: ctld}
  n1/dmesg.txt: {format: dmesg-raw, host: node-01}
  n2/dmesg.txt: {format: dmesg-raw, host: node-02}
)";

const char* kSacct = "JobID|JobName|State|ExitCode|Start|End|NodeList\n"
                     "7|train|FAILED|1:0|2026-11-02T11:00:00|2026-11-02T12:00:00|node-[01-02]\n"
                     "7.0|torchrun|FAILED|1:0|2026-11-02T11:00:05|2026-11-02T12:00:00|node-[01-02]\n";

} // namespace

class TstImporters : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void manifestScopeAndTimes()
    {
        QTemporaryDir dir;
        tests::writeFiles(dir,
            { { "faultline.yaml", kManifest }, { "sacct.psv", kSacct },
                { "n1/dmesg.txt", "[ 3600.500000] NVRM: Xid (PCI:0000:c3:00): 79, GPU has fallen off the bus.\n" },
                { "n2/dmesg.txt", "[   12.000001] boot noise\n" } });
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        QCOMPARE(ev.scope.jobId, std::string("7"));
        QCOMPARE(ev.scope.state, std::string("FAILED"));
        QCOMPARE(ev.scope.nodes.size(), std::size_t(2));
        // sacct times are Berlin local (UTC+1 in November).
        QCOMPARE(formatUtc(ev.scope.startNs), std::string("2026-11-02T10:00:00Z"));
        const auto n1 = records(ev, "n1/dmesg.txt");
        QCOMPARE(n1.size(), std::size_t(1));
        QCOMPARE(formatUtc(n1[0]->timeNs), std::string("2026-11-02T01:00:00.500Z"));
        QCOMPARE(ev.nodeName(n1[0]->node), std::string("node-01"));
        QCOMPARE(n1[0]->kind, SourceKind::Kernel);
        // node-02 has no boot_time: flagged, not invented.
        const Source* n2 = source(ev, "n2/dmesg.txt");
        QVERIFY(hasWarning(n2, "dmesg-no-boot-time", 1));
        QCOMPARE(records(ev, "n2/dmesg.txt")[0]->timeNs, INT64_MIN);
        QCOMPARE(source(ev, "sacct.psv")->zone, std::string("Europe/Berlin"));
        QVERIFY(!source(ev, "sacct.psv")->zoneAssumed);
    }

    void jobLogIdentityAndInferredTime()
    {
        QTemporaryDir dir;
        tests::writeFiles(dir,
            { { "faultline.yaml", kManifest }, { "sacct.psv", kSacct },
                { "job.out",
                    "1: node-02:48816:48816 [5] NCCL INFO ncclCommInitRankConfig comm 0x1 rank 13 nranks 16 cudaDev 5 "
                    "nvmlDev 5 busId c3000 commId 0x2 - Init COMPLETE\n"
                    "0: [rank3]:[E1102 10:15:06.211734912 ProcessGroupNCCL.cpp:1910] [Rank 3] boom\n"
                    "0: [rank3]: KeyError: 'input_ids'\n"
                    "1: [2026-11-02 10:15:32] node-02:48816:48999 [5] transport/net_ib.cc:2449 NCCL WARN NET/IB: x\n"
                    "srun: error: node-01: task 0: Exited with exit code 1\n" } });
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        const Source* s = source(ev, "job.out");
        QVERIFY(s);
        QCOMPARE(s->format, std::string("slurm-joblog"));
        QVERIFY(s->formatReason.find("srun --label") != std::string::npos);
        const auto r = records(ev, "job.out");
        QCOMPARE(r.size(), std::size_t(5));
        QCOMPARE(ev.nodeName(r[0]->node), std::string("node-02"));
        QCOMPARE(r[0]->rank, 13);
        QCOMPARE(r[1]->rank, 3);
        QCOMPARE(ev.nodeName(r[1]->node), std::string("node-01")); // srun task 0
        QCOMPARE(formatUtc(r[1]->timeNs), std::string("2026-11-02T10:15:06.211734912Z")); // year from the scope
        QCOMPARE(r[1]->quality, TimeQuality::AssumedZone);
        QCOMPARE(std::string(r[2]->text), std::string("KeyError: 'input_ids'"));
        QCOMPARE(r[2]->quality, TimeQuality::Inferred);
        QVERIFY(r[2]->timeNs >= r[1]->timeNs && r[2]->timeNs <= r[3]->timeNs);
        QCOMPARE(r[3]->rank, 13); // NCCL pid 48816 → rank 13 from the init line
        QCOMPARE(r[3]->precisionNs, kNsPerSec);
    }

    void badInputIsLocatedAndTheRestImported()
    {
        QTemporaryDir dir;
        std::string journal = "{\"__REALTIME_TIMESTAMP\":\"1793614501123456\",\"_HOSTNAME\":\"node-02\",\"MESSAGE\":"
                              "\"first\",\"_TRANSPORT\":\"kernel\"}\n";
        journal += "{\"__REALTIME_TIMESTAMP\": not json at all\n";
        journal += "{\"__REALTIME_TIMESTAMP\":\"1793614502000000\",\"_HOSTNAME\":\"node-02\",\"MESSAGE\":[78,86,82,77,"
                   "255,33],\"_TRANSPORT\":\"kernel\"}\n";
        journal += "{\"__REALTIME_TIMESTAMP\":\"17936145030000";
        const std::string longLine(3 << 20, 'x');
        tests::writeFiles(dir,
            { { "node-02/journal.jsonl", journal }, { "garbage.bin", std::string("\x00\x01\x02 binary \xff\xfe", 13) },
                { "long.log", "2026-11-02T10:00:00Z short\n" + longLine + "\n" }, { "empty.log", "" },
                { "prom.json",
                    "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{\"__name__\":"
                    "\"up\"}" } });
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        const Source* j = source(ev, "node-02/journal.jsonl");
        QVERIFY(j);
        QCOMPARE(j->format, std::string("journal-json"));
        QVERIFY(hasWarning(j, "json-malformed", 2));
        QVERIFY(hasWarning(j, "truncated"));
        QCOMPARE(j->status, CoverageStatus::Truncated);
        const auto r = records(ev, "node-02/journal.jsonl");
        QCOMPARE(r.size(), std::size_t(2));
        QCOMPARE(std::string(r[1]->text), std::string("NVRM\xff!")); // raw byte kept
        QCOMPARE(ev.nodeName(r[1]->node), std::string("node-02"));
        QCOMPARE(source(ev, "garbage.bin")->format, std::string("text"));
        QVERIFY(hasWarning(source(ev, "long.log"), "long-record", 2));
        QCOMPARE(records(ev, "long.log").size(), std::size_t(2));
        QCOMPARE(source(ev, "empty.log")->status, CoverageStatus::Empty);
        const Source* prom = source(ev, "prom.json");
        QCOMPARE(prom->format, std::string("prometheus-query-range"));
        QCOMPARE(prom->status, CoverageStatus::Truncated);
        QVERIFY(hasWarning(prom, "json-malformed"));
    }

    void cancelledImportIsPartialButConsistent()
    {
        std::atomic_bool cancel { true };
        importers::LoadOptions opts;
        opts.cancel = &cancel;
        const EvidenceSet ev = importers::loadBundle({ tests::sourcePath("resources/samples/bundle-48213") }, opts);
        QVERIFY(!ev.sources.empty());
        std::size_t cancelled = 0;
        for (const auto& s : ev.sources)
            if (hasWarning(&s, "import-cancelled")) {
                ++cancelled;
                QCOMPARE(s.status, CoverageStatus::Truncated);
            }
        QVERIFY(cancelled > 0);
        for (const auto& o : ev.observations)
            QVERIFY(o.where.source < ev.sources.size());
    }

    void archives_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("command");
        QTest::addRow("tar.gz") << "b.tar.gz"
                                << "tar czf %1 -C %2 bundle-48213";
        QTest::addRow("tar.zst") << "b.tar.zst"
                                 << "tar --zstd -cf %1 -C %2 bundle-48213";
        QTest::addRow("tar") << "b.tar"
                             << "tar cf %1 -C %2 bundle-48213";
        QTest::addRow("zip")
            << "b.zip"
            << "cd %2 && /usr/bin/python3 -c \"import shutil,sys; shutil.make_archive(sys.argv[1][:-4], 'zip', "
               "'.', 'bundle-48213')\" %1";
    }
    void archives()
    {
        // The same bundle as an archive gives the same evidence as the directory, read without extracting.
        QFETCH(QString, name);
        QFETCH(QString, command);
        QTemporaryDir dir;
        const QString archive = dir.filePath(name);
        const QString samples = QString::fromStdString(tests::sourcePath("resources/samples"));
        QCOMPARE(std::system(command.arg(archive, samples).toLocal8Bit().constData()), 0);
        const EvidenceSet fromDir = importers::loadBundle({ tests::sourcePath("resources/samples/bundle-48213") });
        const EvidenceSet fromArchive = importers::loadBundle({ archive.toStdString() });
        QCOMPARE(fromArchive.sources.size(), fromDir.sources.size());
        QCOMPARE(fromArchive.observations.size(), fromDir.observations.size());
        QCOMPARE(fromArchive.scope.jobId, std::string("48213"));
        QVERIFY(source(fromArchive, "nodes/node-02/dmesg.txt"));
        QCOMPARE(source(fromArchive, "slurm/sacct_48213.psv")->zone, std::string("Europe/Berlin")); // manifest read
        // Nothing was extracted next to the archive.
        QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).size(), 1);
    }

    void truncatedArchiveKeepsWhatWasRead()
    {
        QTemporaryDir dir;
        const QString full = dir.filePath(QStringLiteral("b.tar.gz"));
        const QString samples = QString::fromStdString(tests::sourcePath("resources/samples"));
        QCOMPARE(
            std::system(QStringLiteral("tar czf %1 -C %2 bundle-48213").arg(full, samples).toLocal8Bit().constData()),
            0);
        QFile f(full);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray half = f.read(f.size() / 2);
        QFile cut(dir.filePath(QStringLiteral("cut.tar.gz")));
        QVERIFY(cut.open(QIODevice::WriteOnly));
        cut.write(half);
        cut.close();
        const EvidenceSet ev = importers::loadBundle({ cut.fileName().toStdString() });
        const Source* archive = source(ev, "cut.tar.gz");
        QVERIFY(archive);
        QCOMPARE(archive->status, CoverageStatus::Truncated);
        QVERIFY(hasWarning(archive, "archive-corrupt"));
        QVERIFY(ev.sources.size() > 2); // the members before the cut are imported
        bool memberCut = false;
        for (const auto& s : ev.sources)
            memberCut = memberCut || hasWarning(&s, "archive-member-cut");
        QVERIFY(memberCut);
    }

    void decompressionBombStops()
    {
        QTemporaryDir dir;
        const QString bomb = dir.filePath(QStringLiteral("bomb.log.gz"));
        QCOMPARE(std::system(QStringLiteral(
                     "yes '2026-11-02T10:00:00Z node-01 kernel: again' | head -c 20000000 | gzip -9 > %1")
                                 .arg(bomb)
                                 .toLocal8Bit()
                                 .constData()),
            0);
        importers::LoadOptions opts;
        opts.archiveLimits.maxTotalBytes = 4 << 20;
        const EvidenceSet ev = importers::loadBundle({ bomb.toStdString() }, opts);
        const Source* archive = source(ev, "bomb.log.gz");
        QVERIFY(archive);
        QVERIFY(hasWarning(archive, "archive-limit"));
        const Source* member = source(ev, "bomb.log");
        QVERIFY(member);
        QCOMPARE(member->status, CoverageStatus::Truncated);
        QVERIFY(member->bytes <= (4u << 20));
        QVERIFY(member->records > 1000);
    }

    void kubernetesFormats()
    {
        QTemporaryDir dir;
        const std::string pods = R"({"apiVersion": "v1", "kind": "List", "items": [
  {"kind": "Pod", "metadata": {"name": "train-0-abc", "namespace": "ml"}, "spec": {"nodeName": "node-07"},
   "status": {"phase": "Failed", "containerStatuses": [{"name": "trainer",
     "state": {"terminated": {"exitCode": 137, "reason": "OOMKilled", "finishedAt": "2026-11-02T10:15:41Z",
                              "message": "line one\nline two"}}}]}}]})";
        const std::string events = R"({"kind": "List", "items": [
  {"metadata": {"name": "node-07.18f2"}, "involvedObject": {"kind": "Node", "name": "node-07"}, "type": "Warning",
   "reason": "GPUUnhealthy", "message": "GPU 3 Xid 79 fallen off the bus", "count": 2,
   "lastTimestamp": "2026-11-02T10:15:02Z", "source": {"component": "gpu-health"}}]})";
        const std::string workload =
            "apiVersion: kueue.x-k8s.io/v1beta1\nkind: Workload\nmetadata:\n  name: wl-1\n  namespace: ml\n"
            "status:\n  conditions:\n  - type: QuotaReserved\n    status: \"True\"\n    reason: QuotaReserved\n"
            "    lastTransitionTime: \"2026-11-02T08:14:50Z\"\n  - type: Finished\n    status: \"True\"\n"
            "    reason: Failed\n    message: Job failed\n    lastTransitionTime: \"2026-11-02T10:25:09Z\"\n";
        tests::writeFiles(dir,
            { { "pods.json", pods }, { "events.json", events }, { "kueue/wl.yaml", workload },
                { "logs/train-0-abc.log",
                    "2026-11-02T10:15:06.229800123Z [rank3]: KeyError: 'x'\n2026-11-02T10:15:07.000000001Z plain "
                    "line\n" },
                { "pods/node-07/train-0-abc/trainer/0.log",
                    "2026-11-02T10:15:06.100000000Z stdout P first half, \n"
                    "2026-11-02T10:15:06.100000001Z stderr F an error line\n"
                    "2026-11-02T10:15:06.100000002Z stdout F second half\n" },
                { "docker/c.log",
                    "{\"log\":\"partial \",\"stream\":\"stdout\",\"time\":\"2026-11-02T10:15:06.2Z\"}\n"
                    "{\"log\":\"rest\\n\",\"stream\":\"stdout\",\"time\":\"2026-11-02T10:15:06.3Z\"}\n" } });
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        QCOMPARE(source(ev, "pods.json")->format, std::string("k8s-pods-json"));
        QCOMPARE(source(ev, "events.json")->format, std::string("k8s-events-json"));
        QCOMPARE(source(ev, "kueue/wl.yaml")->format, std::string("kueue-workload"));
        QCOMPARE(source(ev, "logs/train-0-abc.log")->format, std::string("kubectl-logs"));
        QCOMPARE(source(ev, "pods/node-07/train-0-abc/trainer/0.log")->format, std::string("cri-log"));
        QCOMPARE(source(ev, "docker/c.log")->format, std::string("docker-json"));
        // Kueue gives the scope.
        QCOMPARE(ev.scope.scheduler, std::string("kueue"));
        QCOMPARE(ev.scope.jobId, std::string("wl-1"));
        QCOMPARE(ev.scope.state, std::string("Failed"));
        QCOMPARE(formatUtc(ev.scope.endNs), std::string("2026-11-02T10:25:09Z"));
        const auto p = records(ev, "pods.json");
        QCOMPARE(p.size(), std::size_t(1));
        QCOMPARE(std::string(p[0]->text),
            std::string("pod ml/train-0-abc container trainer terminated reason=OOMKilled exitCode=137 message=\"line "
                        "one\\nline two\""));
        QCOMPARE(ev.nodeName(p[0]->node), std::string("node-07"));
        const auto e = records(ev, "events.json");
        QCOMPARE(e.size(), std::size_t(1));
        QCOMPARE(ev.nodeName(e[0]->node), std::string("node-07"));
        QVERIFY(std::string(e[0]->text).find("type=Warning reason=GPUUnhealthy") != std::string::npos);
        // kubectl logs: the pod named in the path runs on node-07 (pods.json).
        const auto k = records(ev, "logs/train-0-abc.log");
        QCOMPARE(k.size(), std::size_t(2));
        QCOMPARE(ev.nodeName(k[0]->node), std::string("node-07"));
        QCOMPARE(k[0]->rank, 3);
        QCOMPARE(std::string(k[0]->text), std::string("KeyError: 'x'"));
        QCOMPARE(formatUtc(k[1]->timeNs), std::string("2026-11-02T10:15:07.000000001Z"));
        // CRI: the P record joins its F record of the same stream; stderr in between stays separate.
        const auto c = records(ev, "pods/node-07/train-0-abc/trainer/0.log");
        QCOMPARE(c.size(), std::size_t(2));
        QCOMPARE(std::string(c[0]->text), std::string("an error line"));
        QCOMPARE(std::string(c[1]->text), std::string("first half, second half"));
        QCOMPARE(c[1]->where.line, std::uint64_t(1));
        const auto d = records(ev, "docker/c.log");
        QCOMPARE(d.size(), std::size_t(1));
        QCOMPARE(std::string(d[0]->text), std::string("partial rest"));
    }

    void moreTextFormats()
    {
        QTemporaryDir dir;
        tests::writeFiles(dir,
            { { "scontrol_job.txt",
                  "JobId=48213 JobName=llm pretrain 7b\n   UserId=alice(1001) GroupId=ml(1001) MCS_label=N/A\n"
                  "   JobState=FAILED Reason=NonZeroExitCode Dependency=(null)\n   Requeue=0 Restarts=0 BatchFlag=1 "
                  "Reboot=0 ExitCode=1:0\n"
                  "   StartTime=2026-11-02T08:14:55 EndTime=2026-11-02T10:25:07 Deadline=N/A\n   "
                  "NodeList=node-[01-04]\n\n" },
                { "scrape_node-02_20261102T101515Z.prom",
                    "# HELP DCGM_FI_DEV_XID_ERRORS Value of the last XID error encountered.\n# TYPE "
                    "DCGM_FI_DEV_XID_ERRORS gauge\n"
                    "DCGM_FI_DEV_XID_ERRORS{gpu=\"5\",UUID=\"GPU-7c1d\",Hostname=\"node-02\",err_code=\"149\"} 149\n"
                    "DCGM_FI_DEV_GPU_TEMP{gpu=\"5\",Hostname=\"node-02\"} NaN\nbroken{gpu=\"1\" 3\n" },
                { "loki.txt",
                    "2026-11-02T10:15:01Z {host=\"node-02\", job=\"node-journal\", transport=\"kernel\"} NVRM: Xid "
                    "(PCI:0000:c3:00): 149, x\n"
                    "2026-11-02T10:15:32Z {job=\"slurm-joblogs\"} 0: [rank5]: NET/IB: error\n" },
                { "syslog5424.log",
                    "<4>1 2026-11-02T10:15:01.123456Z node-02 kernel - - [meta sequenceId=\"1\"] NVRM: Xid "
                    "(PCI:0000:c3:00): 79, x\n"
                    "<30>1 2026-11-02T10:15:02Z node-02 slurmd 4242 - - launch task StepId=48213.0\n" } });
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        QCOMPARE(source(ev, "scontrol_job.txt")->format, std::string("scontrol"));
        QCOMPARE(ev.scope.jobId, std::string("48213"));
        QCOMPARE(ev.scope.state, std::string("FAILED"));
        QCOMPARE(ev.scope.nodes.size(), std::size_t(4));
        const auto j = records(ev, "scontrol_job.txt");
        QCOMPARE(j.size(), std::size_t(1));
        QVERIFY(std::string(j[0]->text).find("JobName=llm pretrain 7b") != std::string::npos);
        QVERIFY(std::string(j[0]->text).find("JobState=FAILED Reason=NonZeroExitCode") != std::string::npos);
        QCOMPARE(j[0]->where.line, std::uint64_t(1));
        const Source* prom = source(ev, "scrape_node-02_20261102T101515Z.prom");
        QCOMPARE(prom->format, std::string("prometheus-text"));
        QVERIFY(hasWarning(prom, "prom-malformed", 5));
        QCOMPARE(ev.metrics.size(), std::size_t(2));
        QCOMPARE(ev.metrics[0].name, std::string("DCGM_FI_DEV_XID_ERRORS"));
        QCOMPARE(ev.nodeName(ev.metrics[0].node), std::string("node-02"));
        QCOMPARE(ev.metrics[0].gpu, 5);
        QCOMPARE(formatUtc(ev.metrics[0].samples.front().first), std::string("2026-11-02T10:15:15Z"));
        const auto l = records(ev, "loki.txt");
        QCOMPARE(source(ev, "loki.txt")->format, std::string("logcli-text"));
        QCOMPARE(l.size(), std::size_t(2));
        QCOMPARE(l[0]->kind, SourceKind::Kernel);
        QCOMPARE(ev.nodeName(l[0]->node), std::string("node-02"));
        QCOMPARE(l[1]->kind, SourceKind::AppLog);
        QCOMPARE(l[1]->rank, 5);
        const auto y = records(ev, "syslog5424.log");
        QCOMPARE(source(ev, "syslog5424.log")->format, std::string("syslog"));
        QCOMPARE(y.size(), std::size_t(2));
        QCOMPARE(std::string(y[0]->text), std::string("NVRM: Xid (PCI:0000:c3:00): 79, x"));
        QCOMPARE(formatUtc(y[0]->timeNs), std::string("2026-11-02T10:15:01.123456Z"));
        QCOMPARE(y[1]->kind, SourceKind::Scheduler);
        QCOMPARE(std::string(y[1]->text), std::string("launch task StepId=48213.0"));
    }

    void dmesgContinuationsDeltasAndRay()
    {
        QTemporaryDir dir;
        tests::writeFiles(dir,
            { { "faultline.yaml",
                  "hosts:\n  node-01: {tz: UTC, boot_time: \"2026-11-02T00:00:00Z\", ip: 10.0.0.1}\n"
                  "files:\n  dmesg.txt: {format: dmesg-raw, host: node-01}\n" },
                { "dmesg.txt",
                    "[  100.000000] NVRM: Xid (PCI:0000:1b:00): 13, Graphics Exception\n"
                    "    ESR 0x504648=0x0 0x504650=0x0\n"
                    "[  +0.500000] next message\n" },
                { "ray.log", "(RayTrainWorker pid=4242, ip=10.0.0.1) [rank1]: KeyError: 'x'\n" },
                // talosctl dmesg for one node: facility, level and an RFC 3339 stamp, with no node before them.
                { "talos-dmesg.txt",
                    "kern: warning: [2023-09-14T03:08:37.433482757Z]: nvidia: probe of 0000:00:10.0 failed with "
                    "error -1\nkern: warning: [2023-09-14T03:08:37.434129757Z]: NVRM: The NVIDIA probe routine failed "
                    "for 1 device(s).\n" } });
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        const auto d = records(ev, "dmesg.txt");
        QCOMPARE(d.size(), std::size_t(2));
        QCOMPARE(std::string(d[0]->text),
            std::string("NVRM: Xid (PCI:0000:1b:00): 13, Graphics Exception\n    ESR 0x504648=0x0 0x504650=0x0"));
        QCOMPARE(d[0]->where.length, std::uint32_t(99)); // both lines, from the first byte of the record
        QCOMPARE(formatUtc(d[1]->timeNs), std::string("2026-11-02T00:01:40.500Z"));
        const auto t = records(ev, "talos-dmesg.txt");
        QCOMPARE(t.size(), std::size_t(2));
        QCOMPARE(std::string(t[0]->text), std::string("nvidia: probe of 0000:00:10.0 failed with error -1"));
        QCOMPARE(formatUtc(t[0]->timeNs), std::string("2023-09-14T03:08:37.433482757Z"));
        QCOMPARE(std::string(t[1]->text), std::string("NVRM: The NVIDIA probe routine failed for 1 device(s)."));
        QCOMPARE(formatUtc(t[1]->timeNs), std::string("2023-09-14T03:08:37.434129757Z"));
        const auto r = records(ev, "ray.log");
        QCOMPARE(r.size(), std::size_t(1));
        QCOMPARE(ev.nodeName(r[0]->node), std::string("node-01"));
        QCOMPARE(r[0]->rank, 1);
        QCOMPARE(std::string(r[0]->text), std::string("KeyError: 'x'"));
    }

    void severalPathsAndAManifestWindow()
    {
        // Two bundle paths together; the manifest's window scopes the attempt and marks what lies outside it.
        QTemporaryDir a;
        QTemporaryDir b;
        tests::writeFiles(a,
            { { "faultline.yaml",
                  "workload: {job_id: \"9\", nodes: \"node-01\", window: {from: \"2026-11-02T10:00:00Z\", to: "
                  "\"2026-11-02T11:00:00Z\"}}\n" },
                { "syslog",
                    "2026-11-02T09:00:00Z node-01 kernel: early\n2026-11-02T10:30:00Z node-01 kernel: during\n" } });
        tests::writeFiles(b, { { "other.log", "2026-11-02T10:31:00Z node-01 kernel: second path\n" } });
        const EvidenceSet ev = importers::loadBundle({ a.path().toStdString(), b.path().toStdString() });
        QCOMPARE(ev.sources.size(), std::size_t(2));
        QCOMPARE(ev.scope.jobId, std::string("9"));
        QCOMPARE(formatUtc(ev.scope.startNs), std::string("2026-11-02T10:00:00Z"));
        const Source* first = nullptr;
        for (const auto& s : ev.sources)
            if (s.path.find("syslog") != std::string::npos)
                first = &s;
        QVERIFY(first);
        QCOMPARE(first->outOfScope, std::uint64_t(1));
        QCOMPARE(ev.observations.size(), std::size_t(3));
        QVERIFY(ev.observations[0].outOfScope);
        QVERIFY(!ev.observations[1].outOfScope);
    }

    void syslogLinesTakeTheirHostsZone()
    {
        // A central syslog with no manifest entry of its own: each zone-less line is read in the zone the
        // manifest gives the host it names; a host without one falls back to UTC, and then the file says so.
        QTemporaryDir dir;
        tests::writeFiles(dir,
            { { "faultline.yaml", "hosts:\n  node-01: {tz: Europe/Berlin}\n  node-02: {tz: UTC}\n" },
                { "messages",
                    "Nov  2 11:15:01 node-01 kernel: berlin\nNov  2 10:15:01 node-02.cluster.local kernel: utc\n" },
                { "other", "Nov  2 10:15:01 node-09 kernel: unknown host\n" } });
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        QCOMPARE(ev.sources.size(), std::size_t(2));
        const Source& messages = ev.sources[0].path == "messages" ? ev.sources[0] : ev.sources[1];
        const Source& other = ev.sources[0].path == "messages" ? ev.sources[1] : ev.sources[0];
        QVERIFY(!messages.zoneAssumed);
        QCOMPARE(messages.zone, std::string("each line's host zone"));
        QVERIFY(other.zoneAssumed);
        QCOMPARE(ev.observations.size(), std::size_t(3));
        for (const auto& o : ev.observations)
            QCOMPARE(formatUtc(o.timeNs), std::string("2026-11-02T10:15:01Z"));
    }

    void missingPathIsAnError()
    {
        const EvidenceSet ev = importers::loadBundle({ "/nonexistent/bundle" });
        QVERIFY(ev.sources.empty());
        QCOMPARE(ev.diagnostics.size(), std::size_t(1));
        QCOMPARE(ev.diagnostics.front().code, std::string("no-such-path"));
    }

    void brokenManifestIsLocated()
    {
        QTemporaryDir dir;
        tests::writeFiles(
            dir, { { "faultline.yaml", "bundle: x\nhosts: {node-01: {tz: [unclosed\n" }, { "a.log", "hello\n" } });
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        QCOMPARE(ev.sources.size(), std::size_t(1));
        QVERIFY(!ev.diagnostics.empty());
        QCOMPARE(ev.diagnostics.front().code, std::string("manifest-syntax"));
        QVERIFY(ev.diagnostics.front().where.line >= 2);
    }

    void lokiNodeLabels_data()
    {
        // What the shipping agents put on a stream: Promtail's Kubernetes discovery relabels
        // __meta_kubernetes_pod_node_name to node_name; other configs use node or nodename, OTel k8s_node_name;
        // host agents add host/hostname, a scrape-style instance carries a port.
        QTest::addColumn<QString>("labels");
        QTest::addColumn<QString>("node");
        QTest::addRow("node_name") << "\"node_name\":\"node-03\",\"pod\":\"train-3\""
                                   << "node-03";
        QTest::addRow("nodename") << "\"nodename\":\"node-03\""
                                  << "node-03";
        QTest::addRow("hostname") << "\"hostname\":\"node-03.cluster.local\""
                                  << "node-03";
        QTest::addRow("host") << "\"host\":\"node-03\""
                              << "node-03";
        QTest::addRow("instance-port") << "\"instance\":\"node-03:9080\""
                                       << "node-03";
        QTest::addRow("instance-ip") << "\"instance\":\"10.0.0.3:9080\""
                                     << "node-03";
        QTest::addRow("kubernetes_node_name") << "\"kubernetes_node_name\":\"node-03\""
                                              << "node-03";
        QTest::addRow("k8s_node_name") << "\"k8s_node_name\":\"node-03\""
                                       << "node-03";
        QTest::addRow("node") << "\"node\":\"node-03\""
                              << "node-03";
        // The pod's node outranks the agent's own host name.
        QTest::addRow("node_name-over-host") << "\"host\":\"collector-01\",\"node_name\":\"node-03\""
                                             << "node-03";
        QTest::addRow("hostname-over-instance") << "\"hostname\":\"node-03\",\"instance\":\"node-09:9080\""
                                                << "node-03";
    }
    void lokiNodeLabels()
    {
        // A CUDA OOM on rank 13 whose line names no host: the stream's node label is the record's node, in the
        // logcli jsonl export and in the query_range body alike.
        QFETCH(QString, labels);
        QFETCH(QString, node);
        const std::string l = labels.toStdString();
        const std::string oom = "[rank13]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB.";
        QTemporaryDir dir;
        tests::writeFiles(dir,
            { { "faultline.yaml", "hosts:\n  node-03: {tz: UTC, ip: 10.0.0.3}\n" },
                { "oom.jsonl",
                    "{\"labels\":{" + l + "},\"line\":\"" + oom + "\",\"timestamp\":\"2026-11-02T10:15:06.2298Z\"}\n" },
                { "oom.query_range.json",
                    "{\"status\":\"success\",\"data\":{\"resultType\":\"streams\",\"result\":[{\"stream\":{" + l
                        + "},\"values\":[[\"1793614506229800000\",\"" + oom + "\"]]}]}}\n" } });
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        for (const char* file : { "oom.jsonl", "oom.query_range.json" }) {
            const auto r = records(ev, file);
            QVERIFY2(r.size() == 1, file);
            QCOMPARE(r[0]->rank, 13);
            QCOMPARE(text(ev.nodeName(r[0]->node)), node);
        }
    }

    void lokiKernelStreamNodeLabels()
    {
        // A kernel stream (journald via the agent) named by hostname, and one by instance: the Xid's node.
        QTemporaryDir dir;
        tests::writeFiles(dir,
            { { "kernel.json",
                "{\"status\":\"success\",\"data\":{\"resultType\":\"streams\",\"result\":["
                "{\"stream\":{\"job\":\"node-journal\",\"transport\":\"kernel\",\"hostname\":\"node-02\"},"
                "\"values\":[[\"1793614501123456000\",\"NVRM: Xid (PCI:0000:c3:00): 149, NETIR_LINK_EVT  Fatal\"]]},"
                "{\"stream\":{\"job\":\"node-journal\",\"transport\":\"kernel\",\"instance\":\"node-04:9080\"},"
                "\"values\":[[\"1793614502000000000\",\"NVRM: Xid (PCI:0000:1b:00): 79, GPU has fallen off the "
                "bus.\"]]}]}}" } });
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        const auto r = records(ev, "kernel.json");
        QCOMPARE(r.size(), std::size_t(2));
        QCOMPARE(text(sourceKindName(r[0]->kind)), QStringLiteral("kernel"));
        QCOMPARE(text(ev.nodeName(r[0]->node)), QStringLiteral("node-02"));
        QCOMPARE(text(ev.nodeName(r[1]->node)), QStringLiteral("node-04"));
    }

    void lokiPodAndRankLabels()
    {
        // A stream labelled with its pod (pods.json names the node) and its rank: a line with neither prefix nor
        // host takes both; a line's own [rankN]: prefix wins over the label.
        QTemporaryDir dir;
        // kubectl sorts keys: a List's "kind" comes after its items.
        const std::string pods =
            "{\"apiVersion\": \"v1\", \"items\": [{\"apiVersion\": \"v1\", \"kind\": \"Pod\", "
            "\"metadata\": {\"name\": \"train-3-abc\", \"namespace\": \"ml\"}, \"spec\": "
            "{\"nodeName\": \"node-07\"}, \"status\": {\"phase\": \"Failed\"}}], \"kind\": \"List\"}";
        tests::writeFiles(dir,
            { { "pods.json", pods },
                { "pod.jsonl",
                    "{\"labels\":{\"pod\":\"train-3-abc\",\"rank\":\"27\"},\"line\":\"torch.OutOfMemoryError: CUDA out "
                    "of memory.\",\"timestamp\":\"2026-11-02T10:15:06Z\"}\n"
                    "{\"labels\":{\"pod\":\"train-3-abc\",\"rank\":\"27\"},\"line\":\"[rank26]: KeyError: "
                    "'x'\",\"timestamp\":\"2026-11-02T10:15:07Z\"}\n" } });
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        const auto r = records(ev, "pod.jsonl");
        QCOMPARE(r.size(), std::size_t(2));
        QCOMPARE(text(ev.nodeName(r[0]->node)), QStringLiteral("node-07"));
        QCOMPARE(r[0]->rank, 27);
        QCOMPARE(text(ev.nodeName(r[1]->node)), QStringLiteral("node-07"));
        QCOMPARE(r[1]->rank, 26);
    }

    void lokiSharedJobLogIsNotTheCollectors()
    {
        // A job log on a shared filesystem, tailed on node-01, carries node-01's labels; its lines
        // are attributed by their content (srun label, NCCL host, rank → node), never by the collector's name.
        QTemporaryDir dir;
        tests::writeFiles(dir,
            { { "faultline.yaml",
                  "workload: {scheduler: slurm, job_id: \"7\", nodes: \"node-[01-02]\"}\nfiles:\n"
                  "  joblog.jsonl: {format: logcli-jsonl, labels: {job: slurm-joblogs, host: node-01, filename: "
                  "/shared/jobs/slurm-7.out}}\n" },
                { "joblog.jsonl",
                    "{\"labels\":{},\"line\":\"1: [rank12]: KeyError: 'x'\",\"timestamp\":\"2026-11-02T10:15:06Z\"}\n"
                    "{\"labels\":{},\"line\":\"[rank13]: torch.OutOfMemoryError: CUDA out of "
                    "memory.\",\"timestamp\":\"2026-11-02T10:15:07Z\"}\n" } });
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        const auto r = records(ev, "joblog.jsonl");
        QCOMPARE(r.size(), std::size_t(2));
        QCOMPARE(text(ev.nodeName(r[0]->node)), QStringLiteral("node-02")); // srun task 1
        QCOMPARE(text(ev.nodeName(r[1]->node)), QString()); // nothing names rank 13's node; node-01 only collected it
    }

    void rankWithoutNodeTakesTheIdentityMap()
    {
        // Records with a rank and no node take the node the bundle's identity statements give that rank: NCCL init
        // lines (rank 13), the torchrun failure summary's host/rank pair (rank 21) and an srun-labelled [rankN]:
        // line (rank 5).
        QTemporaryDir dir;
        tests::writeFiles(dir,
            { { "faultline.yaml", "workload: {scheduler: slurm, job_id: \"7\", nodes: \"node-[01-03]\"}\n" },
                { "slurm-7.out",
                    "1: node-02:48816:48816 [5] NCCL INFO ncclCommInitRankConfig comm 0x1 rank 13 nranks 24 cudaDev 5 "
                    "nvmlDev 5 busId c3000 commId 0x2 - Init COMPLETE\n"
                    "0: [rank5]: step 100 loss 2.5\n"
                    "2: Root Cause (first observed failure):\n2: [0]:\n2:   time      : 2026-11-02_10:15:08\n"
                    "2:   host      : node-03.cluster.local\n2:   rank      : 21 (local_rank: 5)\n" },
                { "loki.jsonl",
                    "{\"labels\":{},\"line\":\"[rank13]: torch.OutOfMemoryError: CUDA out of "
                    "memory.\",\"timestamp\":\"2026-11-02T10:15:06Z\"}\n"
                    "{\"labels\":{},\"line\":\"[rank21]: KeyError: 'x'\",\"timestamp\":\"2026-11-02T10:15:07Z\"}\n"
                    "{\"labels\":{},\"line\":\"[rank5]: RuntimeError: boom\",\"timestamp\":\"2026-11-02T10:15:08Z\"}\n"
                    "{\"labels\":{},\"line\":\"[rank99]: unknown rank\",\"timestamp\":\"2026-11-02T10:15:09Z\"}\n" } });
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        const auto r = records(ev, "loki.jsonl");
        QCOMPARE(r.size(), std::size_t(4));
        QCOMPARE(text(ev.nodeName(r[0]->node)), QStringLiteral("node-02"));
        QCOMPARE(text(ev.nodeName(r[1]->node)), QStringLiteral("node-03"));
        QCOMPARE(text(ev.nodeName(r[2]->node)), QStringLiteral("node-01"));
        QCOMPARE(text(ev.nodeName(r[3]->node)), QString());
    }

    void bareExcerptTakesTheTorchrunSummaryHost()
    {
        // A pasted torchrun summary with nothing else that names nodes: its host places its rank. In a bundle that
        // names its nodes, a host outside them (a pod name, an FQDN of another network) still places nothing.
        const std::string summary = "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
                                    "Root Cause (first observed failure):\n[0]:\n  time      : 2024-03-01_10:11:12\n"
                                    "  host      : gpu-node-7\n  rank      : 3 (local_rank: 3)\n"
                                    "  exitcode  : -9 (pid: 1237)\n"
                                    "[rank3]: RuntimeError: boom\n";
        {
            QTemporaryDir dir;
            tests::writeFiles(dir, { { "rank-stderr.txt", summary } });
            const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
            const auto r = records(ev, "rank-stderr.txt");
            QVERIFY(!r.empty());
            QCOMPARE(text(ev.nodeName(r.back()->node)), QStringLiteral("gpu-node-7"));
            const auto rankLine = std::find_if(r.begin(), r.end(), [](const auto* o) {
                return std::string_view(o->text).find("rank      : 3") != std::string_view::npos;
            });
            QVERIFY(rankLine != r.end());
            QCOMPARE(text(ev.nodeName((*rankLine)->node)), QStringLiteral("gpu-node-7"));
        }
        {
            QTemporaryDir dir;
            tests::writeFiles(dir,
                { { "faultline.yaml", "workload: {scheduler: slurm, job_id: \"7\", nodes: \"node-[01-02]\"}\n" },
                    { "rank-stderr.txt", summary } });
            const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
            const auto r = records(ev, "rank-stderr.txt");
            QVERIFY(!r.empty());
            QCOMPARE(text(ev.nodeName(r.back()->node)), QString());
        }
    }

    void collectorStampedApplicationLinesAreNotSyslog()
    {
        // CloudWatch and similar collectors put an ISO stamp before each application line: there is no host and no
        // ident after it, so the file is not a syslog and its CUDA OOM is read as the application's.
        QTemporaryDir dir;
        tests::writeFiles(dir,
            { { "cloudwatch.txt",
                  "2021-12-02T11:01:44.277+01:00 RuntimeError: CUDA out of memory. Tried to allocate 288.00 MiB (GPU "
                  "0; "
                  "15.78 GiB total capacity; 14.45 GiB already allocated)\n" },
                { "messages",
                    "2026-11-02T10:15:06.123456+01:00 node-02 kernel: NVRM: Xid (PCI:0000:c3:00): 79, GPU has fallen "
                    "off the bus.\n" } });
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        bool sawApp = false, sawSyslog = false;
        for (const auto& src : ev.sources) {
            if (src.path.find("cloudwatch.txt") != std::string::npos) {
                QVERIFY2(src.format != "syslog", src.format.c_str());
                sawApp = true;
            }
            if (src.path.find("messages") != std::string::npos) {
                QCOMPARE(src.format, std::string("syslog"));
                sawSyslog = true;
            }
        }
        QVERIFY(sawApp && sawSyslog);
    }

    void jobOutputWithIsoFirstLine()
    {
        // A batch script that stamps its first line is still the job's output, not a slurmctld log: that needs the
        // daemon's line shape ("[time] function: ...", "[time] error: ...", "[time] [48213.0] ...").
        QTemporaryDir dir;
        tests::writeFiles(dir,
            { { "slurm-48213.out",
                  "[2026-11-02T08:15:02.123] starting llm-pretrain-7b on node-01\n"
                  "0: [rank0]: step 0 loss 11.2\n1: [rank8]: step 0 loss 11.2\n"
                  "srun: error: node-02: task 1: Exited with exit code 1\n" },
                { "run.log", "[2026-11-02T08:15:02] starting training\n[2026-11-02T08:15:03] epoch 1\n" },
                { "slurmctld.log",
                    "[2026-11-02T08:14:52.771] _slurm_rpc_submit_batch_job: JobId=48213 InitPrio=10000 usec=587\n"
                    "[2026-11-02T10:15:44.206] update_node: node node-02 state set to DRAINING\n" },
                { "d/slurmd.log",
                    "[2026-11-02T08:15:02.114] launch task StepId=48213.0 request from UID:1001 GID:1001\n"
                    "[2026-11-02T10:25:06.902] [48213.0] error: *** STEP 48213.0 ON node-02 CANCELLED ***\n" } });
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        QCOMPARE(text(source(ev, "slurm-48213.out")->format), QStringLiteral("slurm-joblog"));
        QCOMPARE(text(source(ev, "run.log")->format), QStringLiteral("text"));
        QCOMPARE(text(source(ev, "slurmctld.log")->format), QStringLiteral("slurmctld-log"));
        QCOMPARE(text(source(ev, "d/slurmd.log")->format), QStringLiteral("slurmd-log"));
        const auto r = records(ev, "slurm-48213.out");
        QCOMPARE(r.size(), std::size_t(4));
        QCOMPARE(r[1]->rank, 0);
    }

    void syslogLinesInGenericTextNameTheirHost()
    {
        // A journal excerpt whose first line is a unit's message without a stamp is not detected as a syslog, but
        // its stamped lines still name their host and program; an application line a collector stamped does not.
        QTemporaryDir dir;
        tests::writeFiles(dir,
            { { "journal-excerpt.txt",
                "nvidia-docker.service: Main process exited, code=exited, status=1/FAILURE\n"
                "Aug 26 14:08:07 gpu-07 kernel: NVRM: API mismatch: the client has the version 367.44, but\n"
                "2021-12-02T11:01:44+01:00 RuntimeError: CUDA out of memory.\n" } });
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        QCOMPARE(text(source(ev, "journal-excerpt.txt")->format), QStringLiteral("text"));
        const auto r = records(ev, "journal-excerpt.txt");
        QCOMPARE(r.size(), std::size_t(3));
        QCOMPARE(text(std::string(r[1]->text)),
            QStringLiteral("NVRM: API mismatch: the client has the version 367.44, but"));
        QCOMPARE(text(ev.nodes.name(r[1]->node)), QStringLiteral("gpu-07"));
        QCOMPARE(text(sourceKindName(r[1]->kind)), QStringLiteral("kernel"));
        QCOMPARE(r[0]->node, core::kNoNode);
        QCOMPARE(r[2]->node, core::kNoNode);
        QCOMPARE(text(std::string(r[2]->text)), QStringLiteral("RuntimeError: CUDA out of memory."));
    }

    void prometheusErrorEnvelope()
    {
        // The API's own answer to a failed query (HTTP 400/422/503), saved as it came (no trailing newline): a
        // Prometheus source whose query failed, with the errorType and the error, never a truncated text file.
        QTemporaryDir dir;
        tests::writeFiles(dir,
            { { "gpu_util__20261102T1000Z__20261102T1030Z__15s.json",
                "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter \\\"query\\\": 1:21: "
                "parse error: unexpected \\\"=\\\"\"}" } });
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        const Source* s = source(ev, "gpu_util__20261102T1000Z__20261102T1030Z__15s.json");
        QVERIFY(s);
        QCOMPARE(text(s->format), QStringLiteral("prometheus-query-range"));
        QCOMPARE(text(sourceKindName(s->kind)), QStringLiteral("metrics"));
        QCOMPARE(text(coverageStatusName(s->status)), QStringLiteral("error"));
        QVERIFY2(!hasWarning(s, "truncated"), tests::diagCodes(s->warnings).c_str());
        QVERIFY2(!hasWarning(s, "prom-shape"), tests::diagCodes(s->warnings).c_str());
        QVERIFY2(hasWarning(s, "prom-status", 1), tests::diagCodes(s->warnings).c_str());
        std::string message;
        for (const auto& d : s->warnings)
            if (d.code == "prom-status")
                message = d.message;
        QVERIFY2(message.find("bad_data") != std::string::npos, message.c_str());
        QVERIFY2(message.find("parse error: unexpected \"=\"") != std::string::npos, message.c_str());
    }

    void lokiErrorEnvelope()
    {
        // Loki's failed query, saved under loki/: a Loki source (not metrics) whose query failed.
        QTemporaryDir dir;
        tests::writeFiles(dir,
            { { "loki/joblog.query_range.json",
                "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"parse error at line 1, col 7: "
                "syntax error: unexpected IDENTIFIER\"}" } });
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        const Source* s = source(ev, "loki/joblog.query_range.json");
        QVERIFY(s);
        QCOMPARE(text(s->format), QStringLiteral("loki-query-range"));
        QCOMPARE(text(coverageStatusName(s->status)), QStringLiteral("error"));
        QVERIFY2(hasWarning(s, "loki-status", 1), tests::diagCodes(s->warnings).c_str());
        QVERIFY2(!hasWarning(s, "loki-shape") && !hasWarning(s, "truncated"), tests::diagCodes(s->warnings).c_str());
    }

    void prometheusWarningsAreKept()
    {
        // A successful answer with warnings (and Prometheus 3 infos): the series are imported, every warning is a
        // located diagnostic of the source, and the source stays ok.
        QTemporaryDir dir;
        tests::writeFiles(dir,
            { { "dcgm_xid.json",
                "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[\n"
                "{\"metric\":{\"__name__\":\"DCGM_FI_DEV_XID_ERRORS\",\"Hostname\":\"node-02\",\"gpu\":\"5\"},"
                "\"values\":[[1793614515,\"149\"],[1793614530,\"149\"]]}]},\n"
                "\"warnings\":[\"PromQL warning: query hit the sample limit, results may be partial\",\n"
                "\"remote read: store unavailable\"],\n"
                "\"infos\":[\"PromQL info: metric might not be a counter\"]}" } });
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        const Source* s = source(ev, "dcgm_xid.json");
        QVERIFY(s);
        QCOMPARE(text(s->format), QStringLiteral("prometheus-query-range"));
        QCOMPARE(text(coverageStatusName(s->status)), QStringLiteral("ok"));
        QCOMPARE(s->records, std::uint64_t(2));
        QCOMPARE(ev.metrics.size(), std::size_t(1));
        QCOMPARE(text(ev.nodeName(ev.metrics[0].node)), QStringLiteral("node-02"));
        QVERIFY2(hasWarning(s, "prom-warning", 3), tests::diagCodes(s->warnings).c_str());
        QVERIFY2(hasWarning(s, "prom-warning", 4), tests::diagCodes(s->warnings).c_str());
        QVERIFY2(hasWarning(s, "prom-info", 5), tests::diagCodes(s->warnings).c_str());
        QVERIFY(!hasWarning(s, "truncated"));
        QCOMPARE(s->skipped, std::uint64_t(0)); // a warning about the answer skips no record
    }

    void detection_data()
    {
        QTest::addColumn<QString>("head");
        QTest::addColumn<QString>("format");
        QTest::addRow("journal") << "{\"__CURSOR\":\"s\",\"__REALTIME_TIMESTAMP\":\"1\",\"MESSAGE\":\"m\"}"
                                 << "journal-json";
        QTest::addRow("logcli") << "{\"labels\":{},\"line\":\"x\",\"timestamp\":\"2026-11-02T10:15:06Z\"}"
                                << "logcli-jsonl";
        QTest::addRow("sacct") << "JobID|JobName|State\n1|a|FAILED"
                               << "sacct-parsable2";
        QTest::addRow("sacct-table") << "JobID           JobName      State \n------------ ---------- ---------- \n1   "
                                        "               a     FAILED "
                                     << "sacct-table";
        QTest::addRow("slurmctld") << "[2026-11-02T09:14:52.101] _slurm_rpc_submit_batch_job: JobId=1"
                                   << "slurmctld-log";
        QTest::addRow("dmesg") << "[274501.123456] NVRM: Xid"
                               << "dmesg-raw";
        QTest::addRow("dmesg-pri") << "<4>[   12.000001] x"
                                   << "dmesg-raw";
        QTest::addRow("talosctl-dmesg") << "10.1.1.2: kern:     err: [2026-11-02T10:15:03.5Z]: NVRM: Xid"
                                        << "dmesg-raw";
        QTest::addRow("host-prefixed-text") << "worker-1: kern is ready [2026-11-02T10:15:03Z]"
                                            << "text";
        QTest::addRow("fm") << "[Nov 02 2026 10:15:01] [ERROR] [tid 2231] detected"
                            << "fabricmanager-log";
        QTest::addRow("syslog") << "2026-11-02T10:15:01.123456+00:00 node-02 kernel: NVRM: Xid"
                                << "syslog";
        QTest::addRow("rfc3164") << "Nov  2 10:15:01 node-02 kernel: NVRM: Xid"
                                 << "syslog";
        QTest::addRow("promql") << "{\"kind\": \"promql-snapshot\", \"version\": 1}"
                                << "promql-snapshot";
        QTest::addRow("loki") << "{\"status\":\"success\",\"data\":{\"resultType\":\"streams\""
                              << "loki-query-range";
        QTest::addRow("slurmd-step") << "[2026-11-02T10:25:07.301] [48213.0] main: done with step (step_rc: 256)"
                                     << "slurmctld-log";
        QTest::addRow("slurmctld-error") << "[2026-11-02T10:20:03.101] error: Nodes node-02 not responding"
                                         << "slurmctld-log";
        QTest::addRow("slurmctld-rfc3339") << "[2026-11-02T10:15:44+01:00] update_node: node node-02 state set to DOWN"
                                           << "slurmctld-log";
        QTest::addRow("slurmctld-startup")
            << "[2026-11-02T06:00:01.002] slurmctld version 25.11.0 started on cluster gpu-east\n"
               "[2026-11-02T06:00:01.113] accounting_storage/slurmdbd: clusteracct_storage_p_register_ctld: "
               "Registering slurmctld at port 6817\n"
               "[2026-11-02T06:00:01.200] Recovered state of 4 nodes\n"
               "[2026-11-02T06:00:01.201] Recovered information about 0 jobs\n"
               "[2026-11-02T06:00:01.305] select/cons_tres: part_data_create_array: preparing for 1 partitions\n"
               "[2026-11-02T06:00:01.400] Running as primary controller\n"
            << "slurmctld-log";
        QTest::addRow("stamped-stdout") << "[2026-11-02T08:15:02.123] starting training on node-01\nepoch 1\n"
                                        << "text";
        QTest::addRow("stamped-stdout-labels") << "[2026-11-02T08:15:02] start\n0: [rank0]: a\n1: [rank8]: b\n"
                                               << "slurm-joblog";
        QTest::addRow("prom-error") << "{\"status\":\"error\",\"errorType\":\"timeout\",\"error\":\"query timed out\"}"
                                    << "prometheus-query-range";
        QTest::addRow("prom-error-pretty")
            << "{\n  \"status\": \"error\",\n  \"errorType\": \"bad_data\",\n  \"error\": \"x\"\n}"
            << "prometheus-query-range";
        QTest::addRow("joblog") << "0: hello\n1: world\n"
                                << "slurm-joblog";
        QTest::addRow("unknown") << "just some words\nand more"
                                 << "text";
        // A rank-labelled NCCL line starts with "[3]": not a kernel stamp, which always has microseconds.
        QTest::addRow("rank-bracket-nccl")
            << "[3] include/shm.h:28 NCCL WARN Call to posix_fallocate failed : No space left on device\n"
               "[3] NCCL INFO include/shm.h:41 -> 2\n"
            << "slurm-joblog";
        QTest::addRow("dmesg-uptime") << "[ 4012.118201] NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.\n"
                                      << "dmesg-raw";
    }
    void detection()
    {
        QFETCH(QString, head);
        QFETCH(QString, format);
        std::string reason;
        QCOMPARE(QString::fromStdString(importers::detectFormat(head.toStdString(), "f", reason)), format);
        QVERIFY(!reason.empty());
    }

    void detectionByName_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("head");
        QTest::addColumn<QString>("format");
        const QString stamped = QStringLiteral("[2026-11-02T08:15:02.123] starting llm-pretrain-7b\nepoch 1\n");
        QTest::addRow("slurm-N.out") << "joblogs/slurm-48213.out" << stamped << "slurm-joblog";
        QTest::addRow("slurm-N.err") << "slurm-48213.err" << stamped << "slurm-joblog";
        QTest::addRow("array-task.out") << "slurm-48100_7.out" << stamped << "slurm-joblog";
        // Daemon lines named like job output are still the job's output (srun/sbatch --output names it).
        QTest::addRow("daemon-shaped-out") << "slurm-48213.out"
                                           << "[2026-11-02T08:14:52.771] _job_complete: JobId=1 done\n"
                                           << "slurm-joblog";
        QTest::addRow("slurmd.log") << "nodes/node-02/slurmd.log"
                                    << "[2026-11-02T08:15:02.114] launch task StepId=48213.0 request from UID:1001\n"
                                    << "slurmd-log";
        // An API error envelope is Prometheus's, unless the path says the answer is Loki's.
        QTest::addRow("prom-error") << "prometheus/gpu_util.json"
                                    << "{\"status\":\"error\",\"errorType\":\"timeout\",\"error\":\"query timed out\"}"
                                    << "prometheus-query-range";
        QTest::addRow("prom-error-no-type") << "gpu_util.json"
                                            << "{\"status\": \"error\", \"error\": \"upstream unavailable\"}"
                                            << "prometheus-query-range";
        QTest::addRow("loki-error") << "loki/kernel_all_nodes.query_range.json"
                                    << "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"parse error\"}"
                                    << "loki-query-range";
        QTest::addRow("slurmctld.log") << "slurmctld.log"
                                       << "[2026-11-02T10:15:44.206] update_node: node node-02 reason set to: NHC\n"
                                       << "slurmctld-log";
    }
    void detectionByName()
    {
        QFETCH(QString, name);
        QFETCH(QString, head);
        QFETCH(QString, format);
        std::string reason;
        QCOMPARE(
            QString::fromStdString(importers::detectFormat(head.toStdString(), name.toStdString(), reason)), format);
        QVERIFY(!reason.empty());
    }

    void pastedPreamble_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("host");
        QTest::addRow("rhel prompt") << "[root@node045 ~]# ibstatus\nFatal error:  device '*': sys files not found\n"
                                     << "Fatal error:  device '*': sys files not found\n"
                                     << "node045";
        QTest::addRow("debian prompt") << "admin@gpu-07:~$ nvidia-smi\nTue Nov  3 10:15:01 2026\n"
                                       << "Tue Nov  3 10:15:01 2026\n"
                                       << "gpu-07";
        QTest::addRow("command note")
            << "# systemctl status nvidia-fabricmanager\nNov 05 13:55:26 node1 systemd[1]: x\n"
            << "Nov 05 13:55:26 node1 systemd[1]: x\n"
            << "";
        QTest::addRow("systemctl header")
            << "\xe2\x97\x8f nvidia-fabricmanager.service - NVIDIA fabric manager service\n"
               "     Loaded: loaded (/lib/systemd/system/nvidia-fabricmanager.service; enabled)\n"
               "     Active: failed (Result: exit-code) since Tue 2026-11-05 13:55:26 UTC\n"
               "\n"
               "Nov 05 13:55:26 node1 nv-fabricmanager[104230]: fabric manager NVIDIA GPU driver interface version\n"
            << "Nov 05 13:55:26 node1 nv-fabricmanager[104230]: fabric manager NVIDIA GPU driver interface version\n"
            << "";
        // A Prometheus text exposition starts with "# HELP": a comment, not a command.
        QTest::addRow("prometheus comment") << "# HELP DCGM_FI_DEV_XID_ERRORS Value of the last XID\nDCGM 1\n"
                                            << "# HELP DCGM_FI_DEV_XID_ERRORS Value of the last XID\nDCGM 1\n"
                                            << "";
        QTest::addRow("localhost") << "[root@localhost ~]# dmesg\n[ 1.0] x\n"
                                   << "[ 1.0] x\n"
                                   << "";
        QTest::addRow("no preamble") << "NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.\n"
                                     << "NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.\n"
                                     << "";
    }
    void pastedPreamble()
    {
        QFETCH(QString, text);
        QFETCH(QString, body);
        QFETCH(QString, host);
        const std::string t = text.toStdString();
        const importers::PastedPreamble p = importers::pastedPreamble(t);
        QCOMPARE(t.substr(p.bodyOffset), body.toStdString());
        QCOMPARE(p.promptHost, host.toStdString());
    }

    void aShellPromptNamesTheFilesHost()
    {
        // Pasted ibstatus output behind a root prompt: the file is node045's, and its event says so.
        QTemporaryDir dir;
        tests::writeFiles(dir,
            { { "ibstatus.txt",
                "[root@node045 ~]# ibstatus\nFatal error:  device '*': sys files not found "
                "(/sys/class/infiniband/*/ports)\n" } });
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        QCOMPARE(ev.sources.size(), std::size_t(1));
        QVERIFY(ev.sources[0].host != kNoNode);
        QCOMPARE(ev.nodes.name(ev.sources[0].host), std::string("node045"));
        VERIFY_CONTAINS(QString::fromStdString(ev.sources[0].formatReason), "from the shell prompt on line 1");
    }

    void pbsMailHost_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("line");
        QTest::addRow("one host") << "PBS Job Id: 2600365.mskcc-fe1.local\nJob Name:   STDIN\nExec host:  gpu-2-17/5\n"
                                     "job deleted\n"
                                  << "gpu-2-17" << 3;
        QTest::addRow("one host, several slots")
            << "\nPBS Job Id: 7.pbs\r\nJob Name:   train\r\nExec host:  n01/0*8+n01/1*8\r\n"
            << "n01" << 4;
        QTest::addRow("two hosts") << "PBS Job Id: 7.pbs\nJob Name:   train\nExec host:  n01/0*8+n02/0*8\n"
                                   << "" << 0;
        QTest::addRow("no PBS mail") << "Job Name: x\nExec host:  n01/0\n"
                                     << "" << 0;
        QTest::addRow("no Exec host") << "PBS Job Id: 7.pbs\nJob Name:   train\nAborted by PBS Server\n"
                                      << "" << 0;
        QTest::addRow("not a host name") << "PBS Job Id: 7.pbs\nExec host:  n01 (down)/0\n"
                                         << "" << 0;
    }
    void pbsMailHost()
    {
        QFETCH(QString, text);
        QFETCH(QString, host);
        QFETCH(int, line);
        const std::string t = text.toStdString();
        const importers::PbsMailHost got = importers::pbsMailHost(t);
        QCOMPARE(got.host, host.toStdString());
        QCOMPARE(got.line, static_cast<std::uint64_t>(line));
    }

    void aPbsMailNamesTheFilesHost()
    {
        // A PBS job mail for a job on one host: the job's failure is that node's.
        QTemporaryDir dir;
        tests::writeFiles(dir,
            { { "pbs-job-mail.txt",
                "PBS Job Id: 2600365.mskcc-fe1.local\nJob Name:   STDIN\nExec host:  gpu-2-17/5\njob deleted\n"
                "Job deleted at request of root@mskcc-fe1.local\njob preempted (node failure)\n" } });
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        QCOMPARE(ev.sources.size(), std::size_t(1));
        QVERIFY(ev.sources[0].host != kNoNode);
        QCOMPARE(ev.nodes.name(ev.sources[0].host), std::string("gpu-2-17"));
        VERIFY_CONTAINS(QString::fromStdString(ev.sources[0].formatReason), "from the PBS mail's Exec host on line 3");
    }

    void aFileNamedAfterItsHostLendsItToBareLines()
    {
        // One host's NCCL output pasted into a file named after it: the bare version line (NCCL_DEBUG=VERSION) is
        // that host's too. A file whose records name two hosts, or whose name is another host's, is left alone.
        QTemporaryDir dir;
        const std::string nccl = "gpu-a1:5257:5257 [0] NCCL INFO Bootstrap : Using ens7:10.128.0.30<0>\n"
                                 "NCCL version 2.14.3+cuda11.7\n";
        tests::writeFiles(dir,
            { { "gpu-a1-standalone.txt", nccl }, { "gpu-a10-standalone.txt", nccl },
                { "gpu-a1-mixed.txt", nccl + "gpu-b2:61:61 [0] NCCL INFO Bootstrap : Using ens7:10.128.0.31<0>\n" } });
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        QCOMPARE(ev.sources.size(), std::size_t(3));
        std::map<std::string, std::string> hostOf;
        for (const auto& src : ev.sources)
            hostOf[std::filesystem::path(src.path).filename().string()] =
                src.host == kNoNode ? std::string("(none)") : ev.nodes.name(src.host);
        QCOMPARE(hostOf["gpu-a1-standalone.txt"], std::string("gpu-a1"));
        QCOMPARE(hostOf["gpu-a10-standalone.txt"], std::string("(none)"));
        QCOMPARE(hostOf["gpu-a1-mixed.txt"], std::string("(none)"));
        int bareOnA1 = 0;
        for (const auto& o : ev.observations)
            if (o.node != kNoNode && ev.nodes.name(o.node) == "gpu-a1" && o.text.find("NCCL version") == 0)
                ++bareOnA1;
        QCOMPARE(bareOnA1, 1); // only the file named after gpu-a1 gives the bare line a host
    }

    void grepFilePrefixes_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("rest");
        QTest::addRow("grep -H") << "rank0.log:node-a:311:405 [0] NCCL WARN x"
                                 << "node-a:311:405 [0] NCCL WARN x";
        QTest::addRow("grep -Hn with a path") << "logs/run-2/rank0.err:1234:[2025-09-17 15:16:23] message"
                                              << "[2025-09-17 15:16:23] message";
        QTest::addRow("NCCL's own prefix stays") << "node-a:311:405 [0] NCCL WARN x"
                                                 << "node-a:311:405 [0] NCCL WARN x";
        QTest::addRow("a host name with a dot stays") << "gpu01.cluster:311:405 [0] NCCL INFO x"
                                                      << "gpu01.cluster:311:405 [0] NCCL INFO x";
        QTest::addRow("srun label stays") << "12: message"
                                          << "12: message";
        QTest::addRow("a time stays") << "10:15:01 rank0.log: x"
                                      << "10:15:01 rank0.log: x";
    }
    void grepFilePrefixes()
    {
        QFETCH(QString, line);
        QFETCH(QString, rest);
        const std::string l = line.toStdString();
        QCOMPARE(std::string(importers::stripGrepFilePrefix(l)), rest.toStdString());
    }

    void aGrepOverLogFilesKeepsEachRecordsTimeAndHost()
    {
        // "grep net_ib *.log" pasted into a ticket: the file names before each line do not hide the records' own
        // collector stamp and NCCL host.
        QTemporaryDir dir;
        tests::writeFiles(dir,
            { { "nccl-debug.txt",
                "# grep net_ib *.log\n"
                "prefill-2.log:[2025-09-17 15:16:23] prefill-2:311:405 [0] transport/net_ib.cc:199 NCCL WARN NET/IB "
                ": mlx5_32:1 Got async error event: port error\n"
                "prefill-3.log:7:[2025-09-17 15:16:24] prefill-3:312:406 [1] transport/net_ib.cc:199 NCCL WARN "
                "NET/IB : mlx5_33:1 Got async error event: port active\n" } });
        const EvidenceSet ev = importers::loadBundle({ dir.path().toStdString() });
        std::vector<std::string> nodes;
        std::size_t timed = 0;
        for (const auto& o : ev.observations) {
            if (o.node != kNoNode)
                nodes.push_back(ev.nodes.name(o.node));
            timed += o.timeNs != INT64_MIN ? 1 : 0;
        }
        QCOMPARE(nodes, (std::vector<std::string> { "prefill-2", "prefill-3" }));
        QCOMPARE(timed, std::size_t(2));
    }
};

QTEST_GUILESS_MAIN(TstImporters)
#include "tst_importers.moc"
