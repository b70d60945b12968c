// SPDX-License-Identifier: Apache-2.0
// The engine on small synthetic evidence sets, with the bundled catalog: cause before symptoms across nodes,
// inconclusive without an initiating event, teardown never a cause, precision-aware ordering, scoping, and
// output that does not depend on the thread count.
#include "core/analysis/analyzer.h"
#include "core/report/verdict_report.h"
#include "core/time/civil_time.h"
#include "tests/common/test_helpers.h"

#include <QTest>

using namespace faultline;
using namespace faultline::core;

namespace {

constexpr std::int64_t T0 = 1793614501123456000; // 2026-11-02T10:15:01.123456Z

class Builder
{
public:
    Builder()
    {
        m_ev.sources.push_back(Source {});
        m_ev.sources.back().path = "kernel.log";
        m_ev.sources.back().kind = SourceKind::Kernel;
        m_ev.sources.push_back(Source {});
        m_ev.sources.back().path = "job.out";
        m_ev.sources.back().kind = SourceKind::AppLog;
        for (auto& s : m_ev.sources)
            s.records = 1;
    }
    Builder& add(SourceKind kind, const std::string& node, std::int64_t t, const std::string& text, int rank = -1,
        std::int64_t precision = 1000)
    {
        Observation o;
        o.text = m_ev.arena->store(text);
        o.kind = kind;
        o.node = node.empty() ? kNoNode : m_ev.nodes.intern(node);
        o.rank = rank;
        o.timeNs = t;
        o.precisionNs = precision;
        o.quality = t == INT64_MIN ? TimeQuality::Missing : TimeQuality::Exact;
        o.where.source = kind == SourceKind::Kernel ? 0 : 1;
        if (kind == SourceKind::Scheduler) {
            // A scheduler log (slurmd.log) only when a test adds scheduler records: coverage counts sources.
            if (m_ev.sources.size() < 3) {
                m_ev.sources.push_back(Source {});
                m_ev.sources.back().path = "slurmd.log";
                m_ev.sources.back().kind = SourceKind::Scheduler;
                m_ev.sources.back().records = 1;
            }
            o.where.source = 2;
        }
        o.where.line = ++m_line;
        m_ev.observations.push_back(o);
        return *this;
    }
    Builder& scope(std::vector<std::string> nodes, std::int64_t start, std::int64_t end)
    {
        for (const auto& n : nodes)
            m_ev.scope.nodes.push_back(m_ev.nodes.intern(n));
        m_ev.scope.startNs = start;
        m_ev.scope.endNs = end;
        m_ev.scope.jobId = "100";
        return *this;
    }
    EvidenceSet& get()
    {
        // Extraction requires records of one source to be contiguous and in order.
        std::stable_sort(m_ev.observations.begin(), m_ev.observations.end(),
            [](const Observation& a, const Observation& b) { return a.where.source < b.where.source; });
        return m_ev;
    }

private:
    EvidenceSet m_ev;
    std::uint64_t m_line = 0;
};

const std::string kXid149 =
    "NVRM: Xid (PCI:0000:c3:00): 149, NETIR_LINK_EVT  Fatal   XC0 i0 Link 07 (0x021475c6 0x00000000)";
/// "" when the verdict has events of `type` and each is linked to the verdict's cause; else what it found instead.
std::string linkedToCause(const Verdict& v, const std::string& type)
{
    std::size_t seen = 0;
    for (std::size_t i = 0; i < v.events.size(); ++i)
        if (v.events[i].type == type) {
            ++seen;
            if (v.causeOf[i] != static_cast<std::int64_t>(v.cause))
                return type + " at event " + std::to_string(i) + " is linked to "
                    + (v.causeOf[i] < 0 ? std::string("nothing")
                                        : v.events[static_cast<std::size_t>(v.causeOf[i])].type)
                    + ", not to the cause " + v.events[v.cause].type;
        }
    return seen ? std::string() : "no " + type + " event";
}

std::string watchdog(int rank)
{
    return "[Rank " + std::to_string(rank)
        + "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
          "Timeout(ms)=600000) ran for 600418 milliseconds before timing out.";
}

} // namespace

class TstAnalyzer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aFileOfUnknownFormatCountsAsTheKindItsLinesMatch()
    {
        // A kernel excerpt pasted into a file of no known format on node-b: its Xid line is read (every extractor
        // runs on it), and coverage counts it as node-b's kernel log, saying why.
        Builder b;
        b.scope({ "node-a", "node-b" }, T0 - 3600 * kNsPerSec, T0 + 700 * kNsPerSec);
        b.add(SourceKind::AppLog, "node-a", T0 + 600 * kNsPerSec, watchdog(1), 1);
        EvidenceSet& ev = b.get();
        Source paste;
        paste.path = "ticket-paste.txt";
        paste.kind = SourceKind::Other;
        paste.host = ev.nodes.find("node-b");
        paste.records = 1;
        ev.sources.push_back(paste);
        Observation o;
        o.text = ev.arena->store(kXid149);
        o.kind = SourceKind::Other;
        o.node = paste.host;
        o.timeNs = T0;
        o.quality = TimeQuality::Exact;
        o.where.source = static_cast<std::uint32_t>(ev.sources.size() - 1);
        o.where.line = 1;
        ev.observations.push_back(o);
        const Verdict v = analyze(ev, *tests::bundledCatalog());
        QVERIFY(v.hasCause);
        QCOMPARE(v.events[v.cause].type, std::string("gpu.xid"));
        bool counted = false;
        for (const auto& c : v.coverage)
            if (c.kind == "kernel" && c.node == "node-b") {
                counted = true;
                QCOMPARE(c.status, CoverageStatus::Ok);
                QVERIFY2(c.reason.find("ticket-paste.txt read as kernel") != std::string::npos, c.reason.c_str());
            } else if (c.kind == "kernel" && c.node == "node-a") {
                QCOMPARE(c.status, CoverageStatus::Missing);
            }
        QVERIFY2(counted, "no kernel coverage entry for node-b");
    }

    void aRankTakesItsNodeFromTheEvidenceNotFromTheLayout()
    {
        // Two nodes with eight ranks each. The evidence places rank 13 on node-a (say, its NCCL init line), so its
        // CUDA OOM, a record that names no node, is node-a's and not node-b's as the block layout would guess; a
        // record that names its node (rank 2 on node-b) keeps that node.
        Builder b;
        b.scope({ "node-a", "node-b" }, T0 - 3600 * kNsPerSec, T0 + 700 * kNsPerSec);
        b.add(SourceKind::AppLog, "", T0,
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB. GPU 5 has a total capacity of "
            "79.10 GiB of which 1.2 GiB is free.",
            13);
        b.add(SourceKind::AppLog, "node-b", T0 + 600 * kNsPerSec, watchdog(2), 2);
        EvidenceSet& ev = b.get();
        ev.scope.ranksPerNode = 8;
        for (auto& o : ev.observations)
            if (o.rank == 13)
                o.node = kNoNode;
        RankIdentity r13;
        r13.rank = 13;
        r13.node = ev.nodes.find("node-a");
        ev.ranks.push_back(r13);
        const Verdict v = analyze(ev, *tests::bundledCatalog());
        bool sawOom = false;
        bool sawWatchdog = false;
        for (const auto& e : v.events) {
            const std::string node = e.node == kNoNode ? std::string("(no node)") : v.nodes.name(e.node);
            if (e.type == "cuda.oom") {
                sawOom = true;
                QCOMPARE(node, std::string("node-a"));
            }
            if (e.rank == 2) {
                sawWatchdog = true;
                QCOMPARE(node, std::string("node-b"));
            }
        }
        QVERIFY2(sawOom, "no cuda.oom event");
        QVERIFY2(sawWatchdog, "no event of rank 2");
    }

    void untimedLinesOfOneFileAreLinkedByTheirOrder()
    {
        // One rank's stderr pasted without times: its CUDA OOM is followed by a watchdog timeout and an NCCL error.
        // Order in the file is all that relates them, and it is enough for a symptom that comes after its cause.
        const std::string oom = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB. GPU 5 has a "
                                "total capacity of 79.10 GiB of which 1.2 GiB is free.";
        Builder b;
        b.add(SourceKind::AppLog, "node-a", INT64_MIN, oom, 3, 0);
        b.add(SourceKind::AppLog, "node-a", INT64_MIN, watchdog(3), 3, 0);
        const Verdict v = analyze(b.get(), *tests::bundledCatalog());
        QVERIFY(v.hasCause);
        QCOMPARE(v.events[v.cause].type, std::string("cuda.oom"));
        const std::string link = linkedToCause(v, "pytorch.watchdog_timeout");
        QVERIFY2(link.empty(), link.c_str());
        bool said = false;
        for (const auto& t : v.trail)
            said = said || t.why.find("by line order") != std::string::npos;
        QVERIFY2(said, "the trail does not say the link rests on line order");
        bool noted = false;
        for (const auto& n : v.confidenceNotes)
            noted = noted || n.find("order of lines") != std::string::npos;
        QVERIFY2(noted, "no confidence note on links by line order");
    }

    void anUntimedRootIsNotDroppedForTheTimesOfOtherLines()
    {
        // A container log where only the framework's warnings carry a stamp: the untimed OOM is still the cause.
        // Its time cannot be placed in the terminal episode the stamped line defines, nor before it.
        const std::string oom = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB. GPU 5 has a "
                                "total capacity of 79.10 GiB of which 1.2 GiB is free.";
        Builder b;
        b.add(SourceKind::AppLog, "node-a", INT64_MIN, oom, 3, 0);
        b.add(SourceKind::AppLog, "node-a", 1'800'000'000'000'000'000, watchdog(3), 3);
        const Verdict v = analyze(b.get(), *tests::bundledCatalog());
        QVERIFY2(v.hasCause, v.summary.c_str());
        QCOMPARE(v.events[v.cause].type, std::string("cuda.oom"));
    }

    void untimedLinesAreNotLinkedAgainstTheirOrderOrAcrossFiles()
    {
        // The watchdog line comes before the OOM in the file: the OOM cannot explain it. An untimed Xid in the kernel
        // file and an untimed CUDA error in the application file have no order between them: no link either.
        const std::string oom = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB. GPU 5 has a "
                                "total capacity of 79.10 GiB of which 1.2 GiB is free.";
        Builder b;
        b.add(SourceKind::AppLog, "node-a", INT64_MIN, watchdog(3), 3, 0);
        b.add(SourceKind::AppLog, "node-a", INT64_MIN, oom, 3, 0);
        b.add(SourceKind::Kernel, "node-a", INT64_MIN, kXid149, -1, 0);
        const Verdict v = analyze(b.get(), *tests::bundledCatalog());
        for (std::size_t i = 0; i < v.events.size(); ++i) {
            if (v.events[i].type == "pytorch.watchdog_timeout" && v.causeOf[i] >= 0)
                QFAIL(("the watchdog line before the OOM was linked to "
                    + v.events[static_cast<std::size_t>(v.causeOf[i])].type)
                          .c_str());
            if (v.events[i].type == "cuda.oom" && v.causeOf[i] >= 0)
                QFAIL(("the OOM in job.out was linked to " + v.events[static_cast<std::size_t>(v.causeOf[i])].type
                    + " in another file, with no times")
                          .c_str());
        }
    }

    void untimedLinesOfOneHostsKernelLogNeedNoNodeName()
    {
        // A pasted dmesg with boot-relative stamps and no host: it is still one machine's log, so the driver's refusal
        // of the GPU explains the RmInitAdapter failure on the line after it, although the failure's rule ranks higher
        // among simultaneous events. In the other order, the refusal explains nothing before it.
        const std::string refusal = "NVRM: Open nvidia.ko is only ready for use on Data Center GPUs.";
        const std::string initFailed = "NVRM: GPU 0000:04:00.0: RmInitAdapter failed! (0x63:0x0:1905)";
        {
            Builder b;
            b.add(SourceKind::Kernel, "", INT64_MIN, refusal, -1, 0);
            b.add(SourceKind::Kernel, "", INT64_MIN, initFailed, -1, 0);
            const Verdict v = analyze(b.get(), *tests::bundledCatalog());
            QVERIFY(v.hasCause);
            QCOMPARE(v.events[v.cause].type, std::string("config.driver_gpu_unsupported"));
            const std::string link = linkedToCause(v, "gpu.driver_error");
            QVERIFY2(link.empty(), link.c_str());
            // The trail reads untimed lines in file order, and a summary with no node names none.
            QVERIFY(!v.trail.empty());
            QCOMPARE(v.trail.front().event, v.cause);
            QVERIFY2(v.summary.find("other node") == std::string::npos, v.summary.c_str());
        }
        {
            Builder b;
            b.add(SourceKind::Kernel, "", INT64_MIN, initFailed, -1, 0);
            b.add(SourceKind::Kernel, "", INT64_MIN, refusal, -1, 0);
            const Verdict v = analyze(b.get(), *tests::bundledCatalog());
            for (std::size_t i = 0; i < v.events.size(); ++i)
                if (v.events[i].type == "gpu.driver_error" && v.causeOf[i] >= 0)
                    QFAIL(("the RmInitAdapter line before the refusal was linked to "
                        + v.events[static_cast<std::size_t>(v.causeOf[i])].type)
                              .c_str());
        }
    }

    void anUntimedFailureReportedTwiceIsTheOneThatNamesItsNode()
    {
        // The same untimed node failure twice: from a job-level status dump, then from a log of node-07. Nothing
        // orders them; the cause is the report that names the node, the other its duplicate. A job-level report
        // alone stays job-level.
        const std::string fail = "job preempted (node failure)";
        {
            Builder b;
            b.add(SourceKind::AppLog, "", INT64_MIN, fail, -1, 0);
            b.add(SourceKind::Scheduler, "node-07", INT64_MIN, fail, -1, 0);
            const Verdict v = analyze(b.get(), *tests::bundledCatalog());
            QVERIFY2(v.hasCause, v.summary.c_str());
            QVERIFY2(v.events[v.cause].node != kNoNode,
                ("the cause is the job-level report, expected node-07's: " + v.summary).c_str());
            QCOMPARE(v.nodes.name(v.events[v.cause].node), std::string("node-07"));
        }
        {
            Builder b;
            b.add(SourceKind::AppLog, "", INT64_MIN, fail, -1, 0);
            const Verdict v = analyze(b.get(), *tests::bundledCatalog());
            QVERIFY2(v.hasCause, v.summary.c_str());
            QCOMPARE(v.events[v.cause].node, kNoNode);
        }
    }

    void oneGpuFaultingUnderManyProcessesIsTheGpu()
    {
        // Xid 31 alone is an application's page fault; the same GPU faulting under three unrelated processes is the
        // GPU. The aggregate is the cause, and the Xid 31s it was read from are its companions.
        auto xid31 = [](int pid) {
            return "NVRM: Xid (PCI:0000:db:00): 31, pid=" + std::to_string(pid)
                + ", Ch 00000008, intr 00000000. MMU Fault: ENGINE GRAPHICS GPCCLIENT_T1_10 faulted @ 0x7fd7_90743000. "
                  "Fault is of type FAULT_PDE ACCESS_TYPE_VIRT_READ";
        };
        Builder b;
        b.add(SourceKind::Kernel, "node-a", T0, xid31(13641));
        b.add(SourceKind::Kernel, "node-a", T0 + 60 * kNsPerSec, xid31(14323));
        b.add(SourceKind::Kernel, "node-a", T0 + 120 * kNsPerSec, xid31(33275));
        const Verdict v = analyze(b.get(), *tests::bundledCatalog());
        QVERIFY2(v.hasCause, verdictToText(v, b.get()).c_str());
        QCOMPARE(v.events[v.cause].type, std::string("gpu.repeated_fault"));
        QCOMPARE(v.domain, std::string("infrastructure"));
        QCOMPARE(v.events[v.cause].gpu, std::string("0000:db:00.0"));
        std::size_t companions = 0;
        for (std::size_t i = 0; i < v.events.size(); ++i)
            if (v.events[i].type == "gpu.xid") {
                QCOMPARE(v.causeOf[i], static_cast<std::int64_t>(v.cause));
                QCOMPARE(v.linkRelation[i], std::string("companion"));
                ++companions;
            }
        QCOMPARE(companions, std::size_t(3));

        // Two processes are not enough: the last Xid 31 stays an application fault.
        Builder two;
        two.add(SourceKind::Kernel, "node-a", T0, xid31(13641));
        two.add(SourceKind::Kernel, "node-a", T0 + 60 * kNsPerSec, xid31(14323));
        const Verdict w = analyze(two.get(), *tests::bundledCatalog());
        for (const auto& e : w.events)
            QVERIFY2(e.type != "gpu.repeated_fault", verdictToText(w, two.get()).c_str());
    }

    void nodesOnDifferentVersionsAreAConfigurationFault()
    {
        // Two nodes run NCCL 2.27.3, one runs 2.19.3; their collectives then fail at initialisation.
        Builder b;
        b.add(SourceKind::AppLog, "node-a", T0, "node-a:51202:51202 [0] NCCL INFO NCCL version 2.27.3+cuda12.9", 0);
        b.add(SourceKind::AppLog, "node-b", T0 + kNsPerSec,
            "node-b:61202:61202 [0] NCCL INFO NCCL version 2.27.3+cuda12.9", 8);
        b.add(SourceKind::AppLog, "node-c", T0 + 2 * kNsPerSec,
            "node-c:41202:41202 [0] NCCL INFO NCCL version 2.19.3+cuda12.3", 16);
        b.add(SourceKind::AppLog, "node-a", T0 + 30 * kNsPerSec,
            "node-a:51202:51202 [0] transport/net_ib.cc:839 NCCL WARN NET/IB : Got completion with error 12, opcode 1, "
            "len 0, vendor err 129",
            0);
        const Verdict v = analyze(b.get(), *tests::bundledCatalog());
        QVERIFY2(v.hasCause, verdictToText(v, b.get()).c_str());
        QCOMPARE(v.events[v.cause].type, std::string("config.version_mismatch"));
        QCOMPARE(v.outcome, std::string("configuration_failure"));
        QCOMPARE(tests::causeNodeName(v), std::string("node-c"));
        VERIFY_CONTAINS(QString::fromStdString(v.events[v.cause].label), "2.27.3 on node-a, node-b; 2.19.3 on node-c");
        bool explained = false;
        for (std::size_t i = 0; i < v.events.size(); ++i)
            if (v.events[i].type == "nccl.ib_completion_error")
                explained = v.causeOf[i] == static_cast<std::int64_t>(v.cause);
        QVERIFY2(explained, "the IB completion error is not a symptom of the version mismatch");
    }

    void aJobRecordIsNotTheControllersNode()
    {
        // sacct's row of the job lives in the controller's file: the NODE_FAIL it reports is the job's, not
        // slurmctld-01's, so no node is blamed for it.
        Builder b;
        b.add(SourceKind::Scheduler, "slurmctld-01", T0,
            "sacct JobID=51002 JobIDRaw=51002 JobName=train State=NODE_FAIL ExitCode=0:0 NodeList=node-[01-04]");
        const Verdict v = analyze(b.get(), *tests::bundledCatalog());
        QVERIFY2(v.hasCause, verdictToText(v, b.get()).c_str());
        QCOMPARE(v.events[v.cause].type, std::string("slurm.job_node_fail"));
        QCOMPARE(tests::causeNodeName(v), std::string("(no node)"));
        QVERIFY2(v.blamedNodes.empty(), verdictToText(v, b.get()).c_str());
    }

    void causeOnOneNodeSymptomsOnOthers()
    {
        Builder b;
        b.scope({ "node-a", "node-b", "node-c" }, T0 - 3600 * kNsPerSec, T0 + 700 * kNsPerSec);
        b.add(SourceKind::Kernel, "node-b", T0, kXid149);
        b.add(SourceKind::AppLog, "node-a", T0 + 600 * kNsPerSec, watchdog(1), 1);
        b.add(SourceKind::AppLog, "node-c", T0 + 601 * kNsPerSec, watchdog(17), 17);
        const Verdict v = analyze(b.get(), *tests::bundledCatalog());
        QCOMPARE(v.outcome, std::string("infrastructure_failure"));
        QVERIFY(v.hasCause);
        QCOMPARE(v.events[v.cause].type, std::string("gpu.xid"));
        QCOMPARE(tests::causeNodeName(v), std::string("node-b"));
        QCOMPARE(v.blamedNodes, (std::vector<std::string> { "node-b" }));
        QCOMPARE(v.symptomNodes, (std::vector<std::string> { "node-a", "node-c" }));
        QCOMPARE(v.symptoms.size(), std::size_t(1));
        QCOMPARE(v.symptoms.front().count, std::size_t(2));
        QCOMPARE(v.symptoms.front().ranks, (std::vector<std::int32_t> { 1, 17 }));
    }

    void multiLineRecordMatchesLineByLine()
    {
        // A record that spans lines (an indented continuation) still matches rules anchored with ^ and $.
        Builder b;
        b.scope({ "node-b" }, T0 - 3600 * kNsPerSec, T0 + 700 * kNsPerSec);
        b.add(SourceKind::Kernel, "node-b", T0,
            "NVRM: Xid (PCI:0000:1b:00): 79, GPU has fallen off the bus.\n    detail line");
        b.add(
            SourceKind::AppLog, "node-a", T0 + 30 * kNsPerSec, "Traceback (most recent call last):\nKeyError: 'x'", 3);
        const Verdict v = analyze(b.get(), *tests::bundledCatalog());
        QVERIFY(v.hasCause);
        QCOMPARE(*v.events[v.cause].field("code"), std::string("79"));
        bool exception = false;
        for (const auto& e : v.events)
            exception = exception || (e.type == "python.exception" && *e.field("exception") == "KeyError");
        QVERIFY(exception);
    }

    void clockSkewIsEstimatedAndAlignedFor()
    {
        // node-b's clock runs 300 s behind. Its Xid reads T0-300 and its ranks time out on SeqNum 5 at T0+300,
        // while node-a and node-c time out at T0+600. The skew estimate (-300 s for node-b) aligns the clocks, so
        // the other nodes' timeouts (T0+600, really 600 s after the Xid) are still its symptoms.
        Builder b;
        b.scope({ "node-a", "node-b", "node-c" }, T0 - 3600 * kNsPerSec, T0 + 700 * kNsPerSec);
        const std::int64_t behind = 300 * kNsPerSec;
        b.add(SourceKind::Kernel, "node-b", T0 - behind, kXid149);
        b.add(SourceKind::AppLog, "node-a", T0 + 600418 * kNsPerMs, watchdog(1), 1);
        b.add(SourceKind::AppLog, "node-b", T0 + 600418 * kNsPerMs - behind, watchdog(9), 9);
        b.add(SourceKind::AppLog, "node-c", T0 + 600418 * kNsPerMs, watchdog(17), 17);
        const Verdict v = analyze(b.get(), *tests::bundledCatalog());
        QVERIFY(v.hasCause);
        QCOMPARE(tests::causeNodeName(v), std::string("node-b"));
        QCOMPARE(v.symptomNodes, (std::vector<std::string> { "node-a", "node-c" }));
        bool estimated = false;
        for (const auto& k : v.clockSkew)
            if (k.node == "node-b") {
                estimated = true;
                QCOMPARE(k.offsetNs, -behind);
            }
        QVERIFY(estimated);
        // The evidence keeps its own times.
        QCOMPARE(v.events[v.cause].timeNs, T0 - behind);
    }

    void clockSkewFromStepLaunches()
    {
        // The same 300 s lag, seen only through slurmd's step launch: node-b logs "launch task" 300 s before the
        // others. That alone aligns its Xid with the timeouts node-a and node-c report 600 s after it.
        Builder b;
        b.scope({ "node-a", "node-b", "node-c" }, T0 - 3600 * kNsPerSec, T0 + 700 * kNsPerSec);
        const std::int64_t behind = 300 * kNsPerSec;
        const std::int64_t launch = T0 - 1800 * kNsPerSec;
        const std::string launchLine = "launch task StepId=100.0 request from UID:1001 GID:1001 HOST:10.0.0.1 PORT:1";
        b.add(SourceKind::Scheduler, "node-a", launch, launchLine, -1, kNsPerMs);
        b.add(SourceKind::Scheduler, "node-b", launch - behind + 12 * kNsPerMs, launchLine, -1, kNsPerMs);
        b.add(SourceKind::Scheduler, "node-c", launch + 4 * kNsPerMs, launchLine, -1, kNsPerMs);
        b.add(SourceKind::Kernel, "node-b", T0 - behind, kXid149);
        b.add(SourceKind::AppLog, "node-a", T0 + 600418 * kNsPerMs, watchdog(1), 1);
        b.add(SourceKind::AppLog, "node-c", T0 + 600418 * kNsPerMs, watchdog(17), 17);
        const Verdict v = analyze(b.get(), *tests::bundledCatalog());
        const ClockSkew* skew = nullptr;
        for (const auto& k : v.clockSkew)
            if (k.node == "node-b")
                skew = &k;
        QVERIFY(skew);
        QCOMPARE(skew->offsetNs, -behind + 12 * kNsPerMs); // against the median node, node-a
        QVERIFY(skew->basis.find("slurmd launches of step 100.0") != std::string::npos);
        QVERIFY(v.hasCause);
        QCOMPARE(tests::causeNodeName(v), std::string("node-b"));
        QCOMPARE(v.symptomNodes, (std::vector<std::string> { "node-a", "node-c" }));
    }

    void symptomOutsideTheWindowIsNotExplained()
    {
        Builder b;
        b.scope({ "node-a", "node-b" }, T0 - 3600 * kNsPerSec, T0 + 2000 * kNsPerSec);
        b.add(SourceKind::Kernel, "node-b", T0, kXid149);
        b.add(SourceKind::AppLog, "node-a", T0 + 1800 * kNsPerSec, watchdog(1), 1);
        const Verdict v = analyze(b.get(), *tests::bundledCatalog());
        // 30 minutes later is beyond the collective timeout: the timeout is not the Xid's symptom, and the Xid lies
        // before the terminal episode, so nothing explains the failure.
        QVERIFY(v.symptoms.empty());
        QCOMPARE(v.outcome, std::string("inconclusive"));
    }

    void onlyCascadesIsInconclusive()
    {
        Builder b;
        b.scope({ "node-a", "node-b" }, T0 - 3600 * kNsPerSec, T0 + 700 * kNsPerSec);
        b.add(SourceKind::AppLog, "node-a", T0, watchdog(1), 1);
        b.add(SourceKind::AppLog, "node-b", T0, watchdog(9), 9);
        b.add(SourceKind::AppLog, "node-b", T0 + kNsPerSec, "  rank      : 9 (local_rank: 1)", 9);
        const Verdict v = analyze(b.get(), *tests::bundledCatalog());
        QCOMPARE(v.outcome, std::string("inconclusive"));
        QVERIFY(!v.hasCause);
        QVERIFY(!v.inconclusiveReasons.empty());
        QCOMPARE(v.symptomNodes, (std::vector<std::string> { "node-a", "node-b" }));
        // Coverage: no metrics source at all; it is named.
        bool metricsMissing = false;
        for (const auto& c : v.coverage)
            metricsMissing = metricsMissing || (c.kind == "metrics" && c.status == CoverageStatus::Missing);
        QVERIFY(metricsMissing);
    }

    void preciseEventWinsTheSameSecond()
    {
        // Fabric Manager writes whole seconds; the Xid has microseconds within that second. The Xid is the cause.
        Builder b;
        b.scope({ "node-b" }, T0 - 3600 * kNsPerSec, T0 + 700 * kNsPerSec);
        b.add(SourceKind::FabricManager, "node-b", T0 - 123456000,
            "[ERROR] detected NVSwitch fatal error 20034 on fid 0 on NVSwitch pci bus id 00000000:06:00.0 physical id "
            "1 port 27",
            -1, kNsPerSec);
        b.add(SourceKind::Kernel, "node-b", T0, kXid149);
        const Verdict v = analyze(b.get(), *tests::bundledCatalog());
        QVERIFY(v.hasCause);
        QCOMPARE(v.events[v.cause].type, std::string("gpu.xid"));
    }

    void otherJobsAndOldEventsAreOutOfScope()
    {
        Builder b;
        b.scope({ "node-b" }, T0 - 600 * kNsPerSec, T0 + 700 * kNsPerSec);
        b.add(SourceKind::Scheduler, "ctld", T0 - 100 * kNsPerSec,
            "_slurm_rpc_kill_job: REQUEST_KILL_JOB JobId=999 uid 5");
        b.add(SourceKind::Kernel, "node-b", T0 - 86400 * kNsPerSec, kXid149);
        b.add(SourceKind::AppLog, "node-b", T0, watchdog(1), 1);
        const Verdict v = analyze(b.get(), *tests::bundledCatalog());
        QCOMPARE(v.outcome, std::string("inconclusive"));
        QVERIFY(v.filteredEvents >= 2);
    }

    void sameResultWhateverTheThreadCount()
    {
        Builder b;
        b.scope({ "node-a", "node-b" }, T0 - 3600 * kNsPerSec, T0 + 700 * kNsPerSec);
        for (int i = 0; i < 20000; ++i)
            b.add(SourceKind::AppLog, i % 2 ? "node-a" : "node-b", T0 - 3000 * kNsPerSec + i * kNsPerMs,
                "[rank0]: iteration " + std::to_string(i) + " | loss 2.31 | NCCL INFO noise", 0);
        b.add(SourceKind::Kernel, "node-b", T0, kXid149);
        for (int r = 0; r < 16; ++r)
            b.add(SourceKind::AppLog, r < 8 ? "node-a" : "node-b", T0 + 600 * kNsPerSec + r, watchdog(r), r);
        EvidenceSet& ev = b.get();
        AnalysisOptions one;
        one.threads = 1;
        AnalysisOptions two;
        two.threads = 2;
        const std::string a = verdictToJson(analyze(ev, *tests::bundledCatalog(), one), ev);
        const std::string c = verdictToJson(analyze(ev, *tests::bundledCatalog(), two), ev);
        QCOMPARE(a, c);
        QVERIFY(a.find("\"outcome\": \"infrastructure_failure\"") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TstAnalyzer)
#include "tst_analyzer.moc"
