// SPDX-License-Identifier: Apache-2.0
// Leading hypotheses when the evidence holds no initiating event: how candidates are ranked (kinds of symptom
// combined as independent evidence, each counted once whatever the fan-out), when one leads (min_support, min_lead),
// how present-but-silent sources count against it, what would confirm it, and that its confidence stays low.
#include "core/analysis/analyzer.h"
#include "core/report/verdict_report.h"
#include "core/time/civil_time.h"
#include "tests/common/test_helpers.h"

#include <QTest>

#include <algorithm>

using namespace faultline;
using namespace faultline::core;

namespace {

constexpr std::int64_t T0 = 1793614501123456000; // 2026-11-02T10:15:01.123456Z

/// Evidence by hand: one application log and, when asked, a kernel log per node or a metrics source.
class Evidence
{
public:
    Evidence() { addSource("job.out", SourceKind::AppLog, kNoNode); }
    Evidence& kernelOf(const std::string& node)
    {
        addSource("nodes/" + node + "/dmesg.txt", SourceKind::Kernel, m_ev.nodes.intern(node));
        return *this;
    }
    Evidence& metrics()
    {
        addSource("prometheus/x.json", SourceKind::Metrics, kNoNode);
        return *this;
    }
    Evidence& nodes(std::vector<std::string> names)
    {
        for (const auto& n : names)
            m_ev.scope.nodes.push_back(m_ev.nodes.intern(n));
        m_ev.scope.startNs = T0 - 3600 * kNsPerSec;
        m_ev.scope.endNs = T0 + 3600 * kNsPerSec;
        return *this;
    }
    /// An application line of `node` ("" for none) and `rank` (-1 for none), `dt` seconds after T0.
    Evidence& app(const std::string& node, int rank, int dt, const std::string& text)
    {
        Observation o;
        o.text = m_ev.arena->store(text);
        o.kind = SourceKind::AppLog;
        o.node = node.empty() ? kNoNode : m_ev.nodes.intern(node);
        o.rank = rank;
        o.timeNs = T0 + dt * kNsPerSec;
        o.precisionNs = 1000;
        o.quality = TimeQuality::Exact;
        o.where.source = 0;
        o.where.line = ++m_line;
        m_ev.observations.push_back(o);
        return *this;
    }
    const EvidenceSet& get() const { return m_ev; }
    /// The manifest's address of `node`.
    Evidence& address(const std::string& ip, const std::string& node)
    {
        m_ev.addressNodes[ip] = m_ev.nodes.intern(node);
        return *this;
    }

private:
    void addSource(const std::string& path, SourceKind kind, NodeId host)
    {
        Source s;
        s.path = path;
        s.kind = kind;
        s.host = host;
        s.records = 1;
        m_ev.sources.push_back(s);
    }
    EvidenceSet m_ev;
    std::uint64_t m_line = 0;
};

/// A catalog whose extractors turn "sym-a", "sym-b", ... lines into cascade events sym.a, sym.b, ..., and whose
/// hypotheses give them known weights.
const char* kHypotheses = R"(hypotheses:
  - id: hyp.net
    domain: infrastructure
    subdomain: network-fabric
    label: network
    support:
      - {when: {event: sym.a}, weight: 0.6, why: a says network}
      - {when: {event: sym.b}, weight: 0.5, why: b says network}
      - {when: {event: 'sym.*'}, weight: 0.1, why: anything}
    confirm:
      - {source: kernel, of: reporter, name: the kernel log, what: link down, silence: 0.5}
      - {source: kernel, of: peer, peer: '{peer}', name: the kernel log, what: the peer failing}
      - {source: metrics, of: job, name: the IB counters, what: errors rising}
  - id: hyp.app
    domain: workload
    subdomain: application
    label: application
    support:
      - {when: {event: sym.a}, weight: 0.2, why: a peer exit looks the same}
      - {when: {event: sym.c}, weight: 0.55, why: c says application}
)";

std::string pack()
{
    std::string p = "pack: t\nextractors:\n";
    for (const char* k : { "a", "b", "c", "z" })
        p += std::string("  - id: t.sym-") + k + "\n    sources: [applog]\n    pattern: 'sym-" + k
            + "(?: peer (?P<peer>\\S+))?'\n    event: sym." + k
            + "\n    role: cascade\n    severity: error\n    label: 'symptom " + k
            + "'\n    tests:\n      - line: 'sym-" + k + " peer 10.0.0.9'\n        expect: {event: sym." + k
            + ", fields: {peer: 10.0.0.9}}\n";
    return p + kHypotheses;
}

std::shared_ptr<const RuleCatalog> testCatalog(const QTemporaryDir& dir)
{
    tests::writeFiles(dir,
        { { "catalog.yaml",
              "catalog: t\nversion: 0.0.1\nsettings: {expected_sources: [applog, kernel, metrics], per_node_sources: "
              "[kernel], hypothesis: {min_support: 0.5, min_lead: 0.2, max_confidence: 0.45}}\n" },
            { "packs/t.yaml", pack() } });
    auto r = RuleCatalog::load(dir.path().toStdString());
    if (!r.ok())
        qWarning("%s", r.asText().c_str());
    return r.catalog;
}

const HypothesisCandidate* candidate(const Verdict& v, const std::string& id)
{
    for (const auto& c : v.hypotheses.candidates)
        if (c.id == id)
            return &c;
    return nullptr;
}

} // namespace

class TstHypotheses : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        m_catalog = testCatalog(m_dir);
        QVERIFY(m_catalog);
    }

    void kindsCombineAndFanOutCountsOnce()
    {
        Evidence ev;
        ev.nodes({ "node-01", "node-02" });
        // sym-a on eight ranks is one kind of evidence; sym-b is a second one.
        for (int r = 0; r < 8; ++r)
            ev.app("node-02", 8 + r, 0, "sym-a peer 10.0.0.1");
        ev.app("node-02", 8, 1, "sym-b");
        const Verdict v = analyze(ev.get(), *m_catalog);
        QVERIFY(!v.hasCause);
        QVERIFY(v.hypotheses.leading);
        const auto& top = v.hypotheses.candidates.front();
        QCOMPARE(top.id, std::string("hyp.net"));
        // 1 - (1 - 0.6)(1 - 0.5): the catch-all entry does not count an event a more specific entry took.
        QCOMPARE(top.support, 0.8);
        QCOMPARE(top.evidence.size(), std::size_t(2));
        QCOMPARE(top.evidence.front().count, std::size_t(8));
        QCOMPARE(top.nodes, (std::vector<std::string> { "node-02" }));
        QCOMPARE(top.ranks.size(), std::size_t(8));
        // The rival is listed with its own support.
        const HypothesisCandidate* app = candidate(v, "hyp.app");
        QVERIFY(app);
        QCOMPARE(app->support, 0.2);
        QCOMPARE(v.hypotheses.candidates.back().id, std::string("hyp.app"));
        // The verdict: inconclusive, the hypothesis's domain, nothing blamed, low confidence.
        QCOMPARE(v.outcome, std::string("inconclusive"));
        QCOMPARE(v.evidenceStatus, std::string("hypothesis"));
        QCOMPARE(v.domain, std::string("infrastructure"));
        QCOMPARE(v.subdomain, std::string("network-fabric"));
        QVERIFY(v.blamedNodes.empty());
        QCOMPARE(v.confidenceLevel, std::string("low"));
        QCOMPARE(v.confidence, 0.36); // 0.45 x 0.8
        QVERIFY(v.summary.find("leading hypothesis, not confirmed") == 0);
    }

    void weakOrCloseCandidatesDoNotLead()
    {
        {
            // sym-b alone: 0.5 + the catch-all does not apply (the first match wins) -> exactly min_support leads.
            Evidence ev;
            ev.app("node-01", 0, 0, "sym-b");
            const Verdict v = analyze(ev.get(), *m_catalog);
            QVERIFY(v.hypotheses.leading);
        }
        {
            // A kind only the catch-all takes: 0.1 is below min_support; the verdict names no domain.
            Evidence ev;
            ev.app("node-01", 0, 0, "sym-z");
            const Verdict v = analyze(ev.get(), *m_catalog);
            QVERIFY(!v.hypotheses.leading);
            QCOMPARE(v.evidenceStatus, std::string("none"));
            QCOMPARE(v.domain, std::string("unknown"));
            QCOMPARE(v.hypotheses.candidates.size(), std::size_t(1));
            QVERIFY(v.hypotheses.basis.find("below") != std::string::npos);
        }
        {
            // sym-b (network 0.5) and sym-c (application 0.55, network 0.1 -> 0.55): too close to call.
            Evidence ev;
            ev.app("node-01", 0, 0, "sym-b");
            ev.app("node-01", 0, 1, "sym-c");
            const Verdict v = analyze(ev.get(), *m_catalog);
            QVERIFY(!v.hypotheses.leading);
            QCOMPARE(v.domain, std::string("unknown"));
            QCOMPARE(v.hypotheses.candidates.size(), std::size_t(2));
            QVERIFY(v.hypotheses.basis.find("too close") != std::string::npos);
            QVERIFY(v.hypotheses.confirm.empty());
        }
        {
            // Nothing matches any hypothesis.
            Evidence ev;
            ev.app("node-01", 0, 0, "nothing to see");
            const Verdict v = analyze(ev.get(), *m_catalog);
            QVERIFY(v.hypotheses.candidates.empty());
            QCOMPARE(v.evidenceStatus, std::string("none"));
            QVERIFY(std::find(v.inconclusiveReasons.begin(), v.inconclusiveReasons.end(),
                        "no symptom in the evidence points at a domain")
                != v.inconclusiveReasons.end());
        }
    }

    void wouldConfirmComesFromCoverage()
    {
        Evidence ev;
        ev.nodes({ "node-01", "node-02" });
        ev.app("node-02", 9, 0, "sym-a peer 10.0.0.1");
        const Verdict v = analyze(ev.get(), *m_catalog);
        QVERIFY(v.hypotheses.leading);
        std::vector<std::string> got;
        for (const auto& c : v.hypotheses.confirm)
            got.push_back(c.what + " [" + c.status + "]");
        QCOMPARE(got,
            (std::vector<std::string> { "the kernel log of node-02 [missing]",
                "the kernel log of the peer 10.0.0.1 [missing]", "the IB counters [missing]" }));
        QCOMPARE(v.hypotheses.confirm.front().node, std::string("node-02"));
        QVERIFY(v.action.find("Collect the kernel log of node-02") != std::string::npos);

        // The manifest gives node-01 the peer's address, and node-01's kernel log is in the bundle: the peer is asked
        // about by name, and its log counts as present (and silent).
        Evidence known;
        known.nodes({ "node-01", "node-02" }).kernelOf("node-01").address("10.0.0.1", "node-01");
        known.app("node-02", 9, 0, "sym-a peer 10.0.0.1");
        const Verdict k = analyze(known.get(), *m_catalog);
        std::vector<std::string> peers;
        for (const auto& c :
            k.hypotheses.candidates.empty() ? std::vector<ConfirmingEvidence> {} : k.hypotheses.confirm)
            if (c.what.find("peer") != std::string::npos)
                peers.push_back(c.what + " [" + c.status + "] node " + c.node);
        QCOMPARE(peers,
            (std::vector<std::string> { "the kernel log of the peer node-01 (10.0.0.1) [silent] node node-01" }));

        // A rank whose node no record names: the node that runs it.
        Evidence rankOnly;
        rankOnly.app("", 12, 0, "sym-a");
        const Verdict w = analyze(rankOnly.get(), *m_catalog);
        QVERIFY(w.hypotheses.leading);
        QCOMPARE(w.hypotheses.confirm.front().what, std::string("the kernel log of the node that runs rank 12"));
    }

    void silentSourcesCountAgainst()
    {
        // node-02's kernel log is in the bundle and shows nothing: the reporter entry's silence (0.5) halves the
        // support, 0.6 -> 0.3, below min_support.
        Evidence ev;
        ev.nodes({ "node-01", "node-02" }).kernelOf("node-02");
        ev.app("node-02", 9, 0, "sym-a");
        const Verdict v = analyze(ev.get(), *m_catalog);
        const HypothesisCandidate* net = candidate(v, "hyp.net");
        QVERIFY(net);
        QCOMPARE(net->support, 0.3);
        QVERIFY(!v.hypotheses.leading);
        QCOMPARE(v.domain, std::string("unknown"));

        // With the metrics present (no silence weight there) the support is unchanged and the entry says so.
        Evidence m;
        m.nodes({ "node-01", "node-02" }).metrics();
        m.app("node-02", 9, 0, "sym-a");
        const Verdict w = analyze(m.get(), *m_catalog);
        QVERIFY(w.hypotheses.leading);
        QCOMPARE(w.hypotheses.candidates.front().support, 0.6);
        QCOMPARE(w.hypotheses.confirm.back().status, std::string("silent"));
    }

    void aCauseLeavesNoHypothesis()
    {
        // With an initiating event the verdict is established and carries no hypotheses.
        Evidence ev;
        ev.nodes({ "node-01", "node-02" });
        ev.app("node-01", 3, 0, "KeyError: 'input_ids'");
        ev.app("node-02", 9, 30,
            "node-02:1:1 [1] NCCL WARN NET/IB : Got completion from peer 10.10.0.1<1> with error 12, "
            "opcode 0, len 0, vendor err 129 (Send)");
        const Verdict v = analyze(ev.get(), *tests::bundledCatalog());
        QVERIFY(v.hasCause);
        QCOMPARE(v.outcome, std::string("workload_failure"));
        QCOMPARE(v.evidenceStatus, std::string("established"));
        QVERIFY(v.hypotheses.candidates.empty());
    }

    void bundledCatalogPointsAtTheNamedFault_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("domain");
        QTest::addColumn<QString>("subdomain");
        QTest::addRow("NCCL IB error 12 (new wording)")
            << "node-02:48815:51399 [4] transport/net_ib.cc:2449 NCCL WARN NET/IB: Got completion from peer "
               "10.10.0.3<52311> with status=12 opcode=0 len=0 vendor err 129 (Send) hca mlx5_5"
            << "infrastructure"
            << "network-fabric";
        QTest::addRow("NCCL IB error 12 (old wording, no peer)")
            << "worker-1:946:988 [0] transport/net_ib.cc:839 NCCL WARN NET/IB : Got completion with error 12, opcode "
               "1, len 0, vendor err 129"
            << "infrastructure"
            << "network-fabric";
        QTest::addRow("verbs text") << "UCX  ERROR   Transport retry count exceeded on mlx5_0:1/IB"
                                    << "infrastructure"
                                    << "network-fabric";
        QTest::addRow("NCCL async port error") << "NCCL WARN NET/IB : Got async event : port error"
                                               << "infrastructure"
                                               << "network-fabric";
        QTest::addRow("CUDA ECC") << "torch.AcceleratorError: CUDA error: uncorrectable ECC error encountered"
                                  << "infrastructure"
                                  << "accelerator-memory";
        QTest::addRow("CUDA NVLink") << "RuntimeError: CUDA error: uncorrectable NVLink error detected during the "
                                        "execution"
                                     << "infrastructure"
                                     << "accelerator-fabric";
        // An ambiguous CUDA error: the GPU and the application's own kernel are equally likely.
        QTest::addRow("unspecified launch failure") << "RuntimeError: CUDA error: unspecified launch failure"
                                                    << "unknown"
                                                    << "";
        // NCCL's remote error alone names no domain.
        QTest::addRow("NCCL remote error") << "ncclRemoteError: A call failed possibly due to a network error or a "
                                              "remote process exiting prematurely."
                                           << "unknown"
                                           << "";
        QTest::addRow("step cancelled, no reason given")
            << "slurmstepd: error: *** STEP 4714782.0 ON ib12gpu-001 CANCELLED AT 2023-11-29T15:47:21 ***"
            << "scheduler"
            << "cancelled";
        QTest::addRow("lspci ACS redirect") << "ACSCtl:\tSrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ "
                                               "EgressCtrl- DirectTrans-"
                                            << "infrastructure"
                                            << "pcie-bus";
        // A collective the ranks had run before timed out and nothing failed first: ranks that stopped meeting
        // in it lead, a stalled node is the rival.
        QTest::addRow("watchdog timeout")
            << "[Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, "
               "NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600418 milliseconds before timing out."
            << "workload"
            << "application";
        // The first collective never completed: the ranks never communicated, and no reading leads.
        QTest::addRow("watchdog timeout, first collective")
            << "[Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, "
               "NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600418 milliseconds before timing out."
            << "unknown"
            << "";
        QTest::addRow("device busy or unavailable")
            << "RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable"
            << "configuration"
            << "";
        QTest::addRow("NCCL unhandled system error")
            << "RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1229, unhandled system error, NCCL version 2.12.10"
            << "configuration"
            << "network-config";
    }

    void bundledCatalogPointsAtTheNamedFault()
    {
        QFETCH(QString, line);
        QFETCH(QString, domain);
        QFETCH(QString, subdomain);
        Evidence ev;
        ev.app("", 12, 0, line.toStdString());
        const Verdict v = analyze(ev.get(), *tests::bundledCatalog());
        QVERIFY(!v.hasCause);
        QCOMPARE(v.outcome, std::string("inconclusive"));
        QCOMPARE(v.domain, domain.toStdString());
        QCOMPARE(v.subdomain, subdomain.toStdString());
        QCOMPARE(v.hypotheses.leading, domain != QStringLiteral("unknown"));
        QCOMPARE(v.confidenceLevel, std::string("low"));
        QVERIFY(v.blamedNodes.empty());
    }

    void aCancelAfterAFailedTaskIsNotCalledTheScheduler()
    {
        // srun saw a task exit with an error, then the step was cancelled: the cancellation may be srun ending the
        // step, so neither reading leads.
        Evidence ev;
        ev.app("", -1, 0, "srun: error: node-01: task 3: Exited with exit code 1");
        ev.app("", -1, 1, "slurmstepd: error: *** STEP 48213.0 ON node-02 CANCELLED AT 2026-11-02T10:15:02 ***");
        const Verdict v = analyze(ev.get(), *tests::bundledCatalog());
        QVERIFY2(!v.hypotheses.leading, verdictToText(v, ev.get()).c_str());
        QCOMPARE(v.domain, std::string("unknown"));
        QVERIFY2(v.hypotheses.candidates.size() >= 2, verdictToText(v, ev.get()).c_str());
    }

    void aJobLevelReportGivesWayToTheNodeThatReportedTheSameFailure()
    {
        // slurmstepd counts the step's OOM kills without naming a node; srun names the node whose task ran out of
        // memory. They are one failure, and the cause is the node's report, in either order.
        for (const bool stepdFirst : { true, false }) {
            Evidence ev;
            const int stepdAt = stepdFirst ? 0 : 2;
            ev.app("", -1, stepdAt,
                "slurmstepd: error: Detected 74 oom-kill event(s) in step 36403717.0 cgroup. Some of your processes "
                "may have been killed by the cgroup out-of-memory handler.");
            ev.app("", -1, 1, "srun: error: lxbk1122: task 0: Out Of Memory");
            const Verdict v = analyze(ev.get(), *tests::bundledCatalog());
            const std::string text = verdictToText(v, ev.get());
            QVERIFY2(v.hasCause, text.c_str());
            const Event& cause = v.events[v.cause];
            QVERIFY2(cause.node != kNoNode, text.c_str());
            QCOMPARE(v.nodes.name(cause.node), std::string("lxbk1122"));
            QCOMPARE(v.originNodes, std::vector<std::string> { "lxbk1122" });
        }
    }

    void aFaultOnTheReporterNamesItsNodeWithoutBlame()
    {
        // A GPU memory fault reported by CUDA is the GPU of the rank that reported it: the node is named as where it
        // happened, never blamed. A network error's reporter may only be the healthy end: no node is named.
        Evidence ecc;
        ecc.app("node-07", 3, 0, "torch.AcceleratorError: CUDA error: uncorrectable ECC error encountered");
        const Verdict v = analyze(ecc.get(), *tests::bundledCatalog());
        QCOMPARE(v.subdomain, std::string("accelerator-memory"));
        QCOMPARE(v.originNodes, std::vector<std::string> { "node-07" });
        QVERIFY(v.blamedNodes.empty());

        Evidence ib;
        ib.app("node-02", 4, 0,
            "node-02:48815:51399 [4] transport/net_ib.cc:2449 NCCL WARN NET/IB: Got completion from peer "
            "10.10.0.3<52311> with status=12 opcode=0 len=0 vendor err 129 (Send) hca mlx5_5");
        const Verdict w = analyze(ib.get(), *tests::bundledCatalog());
        QCOMPARE(w.subdomain, std::string("network-fabric"));
        QVERIFY2(w.originNodes.empty(), verdictToText(w, ib.get()).c_str());
        QVERIFY(w.blamedNodes.empty());
    }

    void anHcasOwnPortEventNamesItsNodeInANetworkHypothesis()
    {
        // A network hypothesis does not name its reporters as a whole, but an HCA's own asynchronous port event is
        // that node's port: its support item names the node (never blamed); a completion error beside it does not
        // add its reporter.
        Evidence ev;
        ev.app("node-05", 0, 0,
            "node-05:311:405 [0] transport/net_ib.cc:199 NCCL WARN NET/IB : mlx5_32:1 Got async error event: port "
            "error");
        ev.app("node-02", 4, 1,
            "node-02:48815:51399 [4] transport/net_ib.cc:2449 NCCL WARN NET/IB: Got completion from peer "
            "10.10.0.3<52311> with status=12 opcode=0 len=0 vendor err 129 (Send) hca mlx5_5");
        const Verdict v = analyze(ev.get(), *tests::bundledCatalog());
        QCOMPARE(v.subdomain, std::string("network-fabric"));
        QVERIFY2(v.originNodes == std::vector<std::string> { "node-05" }, verdictToText(v, ev.get()).c_str());
        QVERIFY(v.blamedNodes.empty());
    }

    void hardwareCudaErrorExplainsTheRanksLaterException()
    {
        // The ECC error is the rank's view of a GPU fault: the exception the rank raises afterwards is its
        // consequence, not a workload failure of its own.
        Evidence ev;
        ev.app("", 3, 0, "torch.AcceleratorError: CUDA error: uncorrectable ECC error encountered");
        ev.app("", 3, 2, "ValueError: checkpoint writer lost its device");
        const Verdict v = analyze(ev.get(), *tests::bundledCatalog());
        QVERIFY2(!v.hasCause, verdictToText(v, ev.get()).c_str());
        QCOMPARE(v.subdomain, std::string("accelerator-memory"));
    }

    void aHypothesisWithoutSubdomainStillNamesItsDomain()
    {
        // "Given no GPU" is configuration, of whichever kind (the job's request, the container's): the text's head
        // still names the domain, and no rival prints a dangling "/".
        Evidence ev;
        ev.app("", 0, 0, "RuntimeError: No CUDA GPUs are available");
        const Verdict v = analyze(ev.get(), *tests::bundledCatalog());
        const std::string text = verdictToText(v, ev.get());
        QVERIFY2(v.hypotheses.leading, text.c_str());
        QCOMPARE(v.domain, std::string("configuration"));
        QCOMPARE(v.subdomain, std::string());
        const std::string head = text.substr(0, text.find('\n'));
        QVERIFY2(head.find("[configuration]") != std::string::npos, head.c_str());
    }

    void rivalsOfOneDomainLetTheDomainLead()
    {
        // An empty peer address fits two configuration mistakes equally (NCCL versions that differ, an interface
        // NCCL_SOCKET_IFNAME names that a rank lacks): neither subdomain leads, but the domain does, and both are
        // named. Rivals of different domains that close stay inconclusive (a stopped controller elsewhere).
        Evidence ev;
        ev.app("", 0, 0,
            "ncclSocketInit: connecting to address  with family 59936 is neither AF_INET(2) nor AF_INET6(10)");
        const Verdict v = analyze(ev.get(), *tests::bundledCatalog());
        const std::string text = verdictToText(v, ev.get());
        QVERIFY2(v.hypotheses.leading, text.c_str());
        QCOMPARE(v.domain, std::string("configuration"));
        QCOMPARE(v.subdomain, std::string());
        QVERIFY2(v.summary.find(", or ") != std::string::npos, v.summary.c_str());
        QVERIFY2(v.hypotheses.basis.find("subdomain is open") != std::string::npos, v.hypotheses.basis.c_str());

        Evidence mixed;
        mixed.app("", 0, 0,
            "[W socket.cpp:601] [c10d] The client socket has failed to connect to [node-01]:29500 (errno: 110 - "
            "Connection timed out).");
        const Verdict w = analyze(mixed.get(), *tests::bundledCatalog());
        QVERIFY2(!w.hypotheses.leading, verdictToText(w, mixed.get()).c_str());
    }

    void reportsSayItPlainly()
    {
        Evidence ev;
        ev.nodes({ "node-01", "node-02" });
        ev.app("node-02", 9, 0, "sym-a peer 10.0.0.1");
        EvidenceSet set = ev.get();
        set.root = std::string("b"); // not a literal assignment: GCC 12 -O2 warns falsely (-Wrestrict) on that
        const Verdict v = analyze(set, *m_catalog);
        const std::string text = verdictToText(v, set);
        QVERIFY2(text.find("b: inconclusive — leading hypothesis, not confirmed: [infrastructure/network-fabric]") == 0,
            text.c_str());
        QVERIFY(text.find("NOT CONFIRMED") != std::string::npos);
        QVERIFY(text.find("would confirm it:\n  - the kernel log of node-02 (not in the bundle): link down")
            != std::string::npos);
        QVERIFY(text.find("rival hypotheses:\n  - workload/application") != std::string::npos);
        const std::string json = verdictToJson(v, set);
        QVERIFY(json.find("\"evidence_status\": \"hypothesis\"") != std::string::npos);
        QVERIFY(json.find("\"leading\": true") != std::string::npos);
        QVERIFY(json.find("\"confirmed\": false") != std::string::npos);
        QVERIFY(json.find("\"schema\": \"faultline.verdict/2\"") != std::string::npos);
    }

private:
    QTemporaryDir m_dir;
    std::shared_ptr<const RuleCatalog> m_catalog;
};

QTEST_GUILESS_MAIN(TstHypotheses)
#include "tst_hypotheses.moc"
