// SPDX-License-Identifier: Apache-2.0
// Cause-versus-symptom selection follows the L0A stage of NVIDIA's nvidia-resiliency-ext restart agent: pick the
// earliest supported initiating event of the terminal failure episode; cascades and teardown never become the
// cause; a later event is a symptom when a correlator links it to an earlier cause within its window. Without an
// initiating event, the catalog's hypotheses rank the domains the symptoms point at; a clear leader is named as a
// low-confidence hypothesis that is not confirmed, never as a cause.
#include "core/analysis/analyzer.h"

#include "core/analysis/analysis_trace.h"
#include "core/analysis/correlation.h"
#include "core/rules/aggregation.h"
#include "core/rules/extraction.h"
#include "core/rules/template.h"
#include "core/time/civil_time.h"
#include "core/version.h"

#include <re2/re2.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <set>
#include <system_error>
#include <thread>

namespace faultline::core {
namespace {

constexpr std::int64_t kDedupSlackNs = 2 * kNsPerSec;

int qualityRank(TimeQuality q)
{
    switch (q) {
    case TimeQuality::Exact:
        return 0;
    case TimeQuality::AssumedZone:
        return 1;
    case TimeQuality::Inferred:
        return 2;
    case TimeQuality::Missing:
        return 3;
    }
    return 3;
}

std::string signature(const Event& e)
{
    std::string s = e.type;
    s += '|';
    s += std::to_string(e.node);
    s += '|';
    s += std::to_string(e.rank);
    s += '|';
    s += e.gpu;
    for (const auto& [k, v] : e.fields) {
        s += '|';
        s += k;
        s += '=';
        s += v;
    }
    return s;
}

/// Merges the same event seen in several sources (dmesg + journal + Loki), or printed twice by one process: keeps
/// the most precise copy and every provenance.
std::vector<Event> dedupe(std::vector<Event> events)
{
    std::map<std::string, std::vector<std::size_t>> bySig;
    for (std::size_t i = 0; i < events.size(); ++i)
        bySig[signature(events[i])].push_back(i);
    std::vector<bool> gone(events.size(), false);
    for (auto& [sig, idx] : bySig) {
        if (idx.size() < 2)
            continue;
        std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
            const Event& x = events[a];
            const Event& y = events[b];
            if (qualityRank(x.quality) != qualityRank(y.quality))
                return qualityRank(x.quality) < qualityRank(y.quality);
            if (x.precisionNs != y.precisionNs)
                return x.precisionNs < y.precisionNs;
            return a < b;
        });
        for (std::size_t a = 0; a < idx.size(); ++a) {
            if (gone[idx[a]])
                continue;
            Event& keep = events[idx[a]];
            for (std::size_t b = a + 1; b < idx.size(); ++b) {
                Event& other = events[idx[b]];
                if (gone[idx[b]])
                    continue;
                // Another source's copy (dmesg + journal + Loki) within the clocks' precision, or the same report
                // printed again by the same process (PyTorch repeats an exception in its "what():" block).
                bool sameSource = false;
                for (const auto& p : keep.provenance)
                    sameSource = sameSource || p.source == other.provenance.front().source;
                const std::int64_t tol =
                    sameSource ? kDedupSlackNs : std::max(keep.precisionNs, other.precisionNs) + kDedupSlackNs;
                // A copy without a time (dmesg without a boot time) is the same record as the timed copy.
                const bool untimed = !sameSource && (keep.timeNs == INT64_MIN || other.timeNs == INT64_MIN);
                if (!untimed
                    && (keep.timeNs == INT64_MIN || other.timeNs == INT64_MIN
                        || std::llabs(keep.timeNs - other.timeNs) > tol))
                    continue;
                keep.provenance.insert(keep.provenance.end(), other.provenance.begin(), other.provenance.end());
                gone[idx[b]] = true;
            }
        }
    }
    std::vector<Event> out;
    out.reserve(events.size());
    for (std::size_t i = 0; i < events.size(); ++i)
        if (!gone[i])
            out.push_back(std::move(events[i]));
    return out;
}

bool eventLess(const Event& a, const Event& b)
{
    if (a.orderTimeNs() != b.orderTimeNs())
        return a.orderTimeNs() < b.orderTimeNs();
    if (a.priority != b.priority)
        return a.priority > b.priority;
    if (a.type != b.type)
        return a.type < b.type;
    const Provenance& pa = a.provenance.front();
    const Provenance& pb = b.provenance.front();
    if (pa.source != pb.source)
        return pa.source < pb.source;
    if (pa.line != pb.line)
        return pa.line < pb.line;
    return a.ruleId < b.ruleId;
}

} // namespace

std::vector<CoverageEntry> buildCoverage(
    const EvidenceSet& evidence, const CatalogSettings& settings, const std::vector<SourceKind>* readAs)
{
    std::vector<CoverageEntry> out;
    auto summarise = [&](const std::string& kindName, NodeId node, bool perNode) {
        CoverageEntry c;
        c.kind = kindName;
        c.node = perNode ? evidence.nodeName(node) : std::string();
        SourceKind kind {};
        sourceKindFromName(kindName, kind);
        bool anyOk = false;
        bool anyError = false;
        bool anyTruncated = false;
        bool anySource = false;
        std::vector<std::string> inferred;
        for (std::size_t i = 0; i < evidence.sources.size(); ++i) {
            const Source& s = evidence.sources[i];
            const bool readAsKind = s.kind == SourceKind::Other && readAs && i < readAs->size() && (*readAs)[i] == kind
                && kind != SourceKind::Other;
            if ((s.kind != kind && !readAsKind) || (perNode && s.host != node))
                continue;
            if (readAsKind)
                inferred.push_back(s.path);
            anySource = true;
            c.files.push_back(s.path);
            c.records += s.records;
            anyOk = anyOk || (s.status == CoverageStatus::Ok && s.records > 0);
            anyError = anyError || s.status == CoverageStatus::Error;
            anyTruncated = anyTruncated || s.status == CoverageStatus::Truncated;
        }
        if (!anySource) {
            c.status = CoverageStatus::Missing;
            c.reason = perNode ? "no " + kindName + " log for " + c.node + " in the bundle"
                               : "no " + kindName + " source in the bundle";
        } else if (anyTruncated) {
            c.status = CoverageStatus::Truncated;
            c.reason = "a source ends early (see its warnings); evidence after the cut is missing";
        } else if (anyOk) {
            c.status = CoverageStatus::Ok;
            if (anyError)
                c.reason = "some sources of this kind failed to import";
        } else if (anyError) {
            c.status = CoverageStatus::Error;
            c.reason = "every source of this kind failed to import";
        } else {
            c.status = CoverageStatus::Empty;
            c.reason = "sources present but they hold no records";
        }
        if (!inferred.empty()) {
            std::string files;
            for (const auto& f : inferred)
                files += (files.empty() ? "" : ", ") + f;
            c.reason += (c.reason.empty() ? "" : "; ") + files + " read as " + kindName
                + ": format unknown, its lines match " + kindName + " rules";
        }
        out.push_back(std::move(c));
    };
    for (const auto& k : settings.expectedSources) {
        const bool perNode = std::find(settings.perNodeSources.begin(), settings.perNodeSources.end(), k)
            != settings.perNodeSources.end();
        if (perNode && !evidence.scope.nodes.empty()) {
            for (NodeId n : evidence.scope.nodes)
                summarise(k, n, true);
        } else {
            summarise(k, kNoNode, false);
        }
    }
    return out;
}

namespace {

/// One run of the engine over one evidence set. Each phase is a method; the verdict being built is the state.
class Attribution
{
public:
    Attribution(const EvidenceSet& evidence, const RuleCatalog& catalog, const AnalysisOptions& options, Verdict& v)
        : m_evidence(evidence)
        , m_catalog(catalog)
        , m_settings(catalog.settings())
        , m_options(options)
        , m_v(v)
    { }

    /// Phase 1: extraction; hosts named inside records win, then ranks map to nodes through the allocation.
    void extract()
    {
        const unsigned threads =
            m_options.threads ? m_options.threads : std::max(1u, std::min(4u, std::thread::hardware_concurrency()));
        Extraction extraction(m_catalog);
        std::vector<RawEvent> raws = extraction.runAll(m_evidence.observations, threads);
        for (auto& m : extraction.runMetrics(m_evidence.metrics))
            raws.push_back(std::move(m));

        // Hosts named inside records win; then ranks map to nodes through the allocation layout.
        m_events.reserve(raws.size());
        for (auto& raw : raws) {
            Event& e = raw.event;
            if (!raw.nodeHint.empty())
                e.node = m_v.nodes.intern(raw.nodeHint);
            const Source& src = m_evidence.sources[e.provenance.front().source];
            if (e.rank >= 0 && e.node == kNoNode && src.host == kNoNode) {
                // A rank without a node: the node the evidence says it ran on (NCCL init lines, pod names), else the
                // allocation's block layout (ranks_per_node consecutive ranks per node). A node the record itself
                // names is never replaced by that guess.
                const auto it = std::lower_bound(m_evidence.ranks.begin(), m_evidence.ranks.end(), e.rank,
                    [](const RankIdentity& r, std::int32_t rank) { return r.rank < rank; });
                if (it != m_evidence.ranks.end() && it->rank == e.rank && it->node != kNoNode)
                    e.node = it->node;
                else if (m_v.scope.ranksPerNode > 0) {
                    const auto idx = static_cast<std::size_t>(e.rank / m_v.scope.ranksPerNode);
                    if (idx < m_v.scope.nodes.size())
                        e.node = m_v.scope.nodes[idx];
                }
            }
            // A GPU named by the kernel is a rank's GPU when an NCCL init line says so (the silent rank).
            if (e.rank < 0 && !e.gpu.empty())
                e.rank = m_evidence.rankOnGpu(e.node, e.gpu);
            m_events.push_back(std::move(e));
        }
        inferSourceKinds();
    }

    /// The kind each file of unknown format reads as: the kind most of the rules that matched its lines are written
    /// for (their first listed source kind). A file nothing matched stays Other.
    void inferSourceKinds()
    {
        m_readAs.assign(m_evidence.sources.size(), SourceKind::Other);
        std::map<std::string, SourceKind, std::less<>> kindOfRule;
        for (const auto& r : m_catalog.extractors())
            if (!r.sources.empty())
                kindOfRule.emplace(r.id, r.sources.front());
        std::map<std::uint32_t, std::map<SourceKind, std::size_t>> votes;
        for (const auto& e : m_events) {
            const std::uint32_t src = e.provenance.front().source;
            if (src >= m_evidence.sources.size() || m_evidence.sources[src].kind != SourceKind::Other)
                continue;
            if (const auto it = kindOfRule.find(e.ruleId); it != kindOfRule.end())
                ++votes[src][it->second];
        }
        for (const auto& [src, byKind] : votes) {
            const auto best = std::max_element(
                byKind.begin(), byKind.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
            m_readAs[src] = best->first;
        }
    }

    /// Phase 2: filters. Scope first: events outside the workload window (plus margin) and other jobs' records
    /// are kept out; then the catalog's filters; then duplicates merge and events are put in time order.
    void filter()
    {
        m_windowTrusted = !m_v.scope.windowZoneAssumed || m_options.windowFromNs != INT64_MIN;
        const std::int64_t lo = m_v.scope.startNs == INT64_MIN || !m_windowTrusted
            ? INT64_MIN
            : m_v.scope.startNs - m_settings.scopeMarginNs;
        const std::int64_t hi =
            m_v.scope.endNs == INT64_MIN || !m_windowTrusted ? INT64_MAX : m_v.scope.endNs + m_settings.scopeMarginNs;
        if (!m_windowTrusted)
            m_v.confidenceNotes.push_back(
                "the workload window comes from scheduler times written without a zone and read "
                "as UTC (no tz in a manifest): evidence is not filtered by window");
        AnalysisTrace* trace = m_options.trace;
        if (trace) {
            trace->windowLoNs = lo;
            trace->windowHiNs = hi;
            trace->windowTrusted = m_windowTrusted;
            trace->jobId = m_v.scope.jobId;
        }
        std::vector<Event> kept;
        for (auto& e : m_events) {
            // Scheduler logs hold every job: a record naming another job id is out of scope.
            const std::string* job = e.field("job");
            const bool otherJob = job && !m_v.scope.jobId.empty() && *job != m_v.scope.jobId;
            if (otherJob || (e.timeNs != INT64_MIN && (e.timeNs < lo || e.timeNs > hi))) {
                ++m_v.filteredEvents;
                if (trace && trace->wants(e.ruleId))
                    traceStep(e, otherJob ? FilterStep::What::OtherJob : FilterStep::What::OutOfWindow, {},
                        otherJob ? *job : std::string());
                continue;
            }
            bool drop = false;
            for (const auto& f : m_catalog.filters()) {
                if (!f.when.matches(e))
                    continue;
                if (f.text && !RE2::PartialMatch(e.excerpt, *f.text)) {
                    if (trace && trace->wants(e.ruleId, f.id))
                        traceStep(e, FilterStep::What::TextMissed, f.id);
                    continue;
                }
                if (f.action == FilterRule::Action::Drop) {
                    drop = true;
                    if (trace && trace->wants(e.ruleId, f.id))
                        traceStep(e, FilterStep::What::Dropped, f.id);
                    break;
                }
                e.role = f.action == FilterRule::Action::Suppress ? Role::Context : f.role;
                e.fields.emplace_back("filtered_by", f.id);
                std::sort(e.fields.begin(), e.fields.end());
                if (trace && trace->wants(e.ruleId, f.id))
                    traceStep(e, FilterStep::What::Changed, f.id);
            }
            if (drop) {
                ++m_v.filteredEvents;
                continue;
            }
            kept.push_back(std::move(e));
        }
        m_events = dedupe(std::move(kept));
        std::sort(m_events.begin(), m_events.end(), eventLess);
    }

    /// Phase 2b: aggregates. Facts read from many events (one GPU faulting under several processes, nodes on
    /// different versions) join the events in their time order; the events each was read from are linked to it
    /// with the relation its rule names, before any correlator runs.
    void aggregate()
    {
        std::vector<AggregateResult> results = runAggregates(m_catalog, m_events, m_v.nodes);
        if (results.empty())
            return;
        const std::size_t before = m_events.size();
        for (auto& r : results)
            m_events.push_back(std::move(r.event));
        std::vector<std::size_t> order(m_events.size());
        std::iota(order.begin(), order.end(), std::size_t(0));
        std::stable_sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return eventLess(m_events[a], m_events[b]); });
        std::vector<std::size_t> at(order.size());
        std::vector<Event> sorted;
        sorted.reserve(order.size());
        for (std::size_t k = 0; k < order.size(); ++k) {
            at[order[k]] = k;
            sorted.push_back(std::move(m_events[order[k]]));
        }
        m_events = std::move(sorted);
        for (std::size_t k = 0; k < results.size(); ++k) {
            const AggregateRule& rule = m_catalog.aggregates()[results[k].rule];
            for (std::size_t m : results[k].members)
                m_memberLinks.push_back({ at[m], at[before + k], rule.id, rule.members });
        }
    }

    /// Clock skew between nodes, estimated from collectives every node timed out on: ranks enqueue a collective
    /// within milliseconds of each other, so "timeout time - ran for" of one SeqNum should agree on every node.
    /// Per node: the median difference to the all-node median over every such collective. Only an estimate shown
    /// in the verdict and used to compare times across nodes; no record's time is rewritten.
    void estimateSkew()
    {
        // Anchors: moments every node logs at (nearly) the same true time. A collective's start (its watchdog
        // timeout minus how long it ran), and a step's launch by slurmd on each allocated node.
        std::map<std::string, std::map<NodeId, std::vector<std::int64_t>>> bySeq;
        for (const auto& e : m_events) {
            if (e.node == kNoNode || e.timeNs == INT64_MIN)
                continue;
            if (e.type == "pytorch.watchdog_timeout") {
                const std::string* seq = e.field("seq");
                const std::string* ran = e.field("ran_ms");
                if (!seq || !ran)
                    continue;
                std::int64_t ranMs = 0;
                std::from_chars(ran->data(), ran->data() + ran->size(), ranMs);
                bySeq["watchdog timeouts of SeqNum " + *seq][e.node].push_back(e.timeNs - ranMs * kNsPerMs);
            } else if (e.type == "slurm.step_launch") {
                if (const std::string* step = e.field("step"))
                    bySeq["slurmd launches of step " + *step][e.node].push_back(e.timeNs);
            }
        }
        auto median = [](std::vector<std::int64_t> v) {
            std::sort(v.begin(), v.end());
            return v[v.size() / 2];
        };
        std::map<NodeId, std::vector<std::int64_t>> deltas;
        std::map<NodeId, std::string> basis;
        for (const auto& [seq, nodes] : bySeq) {
            if (nodes.size() < 2)
                continue;
            std::vector<std::int64_t> perNode;
            for (const auto& [node, times] : nodes)
                perNode.push_back(median(times));
            const std::int64_t reference = median(perNode);
            for (const auto& [node, times] : nodes) {
                deltas[node].push_back(median(times) - reference);
                if (basis[node].empty())
                    basis[node] = seq;
            }
        }
        for (const auto& [node, d] : deltas) {
            ClockSkew k;
            k.node = m_v.nodes.name(node);
            k.offsetNs = median(d);
            k.samples = d.size();
            k.basis = basis[node] + (d.size() > 1 ? " and " + std::to_string(d.size() - 1) + " more anchor(s)" : "");
            m_v.clockSkew.push_back(k);
            // Skews below the NCCL/c10 stamp precision are noise: only larger ones are corrected for.
            if (std::llabs(k.offsetNs) >= kSkewCorrectionNs)
                m_skew[node] = k.offsetNs;
        }
    }

    /// Phase 3: correlation. Each event gets at most one explaining cause: the earliest that any correlator allows
    /// (catalog order breaks ties).
    void correlate()
    {
        const std::size_t n = m_events.size();
        if (m_options.trace)
            m_options.trace->skew = m_skew;
        m_v.causeOf.assign(n, -1);
        m_v.linkVia.assign(n, {});
        m_v.linkRelation.assign(n, {});
        // An event an aggregate was read from belongs to it (the first such aggregate, when several read it).
        for (const auto& l : m_memberLinks)
            if (m_v.causeOf[l.member] < 0) {
                m_v.causeOf[l.member] = static_cast<std::int64_t>(l.aggregate);
                m_v.linkVia[l.member] = l.rule;
                m_v.linkRelation[l.member] = l.relation;
            }
        std::vector<std::vector<std::size_t>> causesOf(m_catalog.correlators().size());
        for (std::size_t c = 0; c < m_catalog.correlators().size(); ++c)
            for (std::size_t j = 0; j < n; ++j)
                if (m_catalog.correlators()[c].cause.matches(m_events[j]))
                    causesOf[c].push_back(j);
        auto reaches = [&](std::size_t from, std::size_t target) {
            for (std::int64_t k = static_cast<std::int64_t>(from); k >= 0; k = m_v.causeOf[static_cast<std::size_t>(k)])
                if (static_cast<std::size_t>(k) == target)
                    return true;
            return false;
        };
        for (std::size_t i = 0; i < n; ++i) {
            if (m_v.causeOf[i] >= 0)
                continue;
            const Event& s = m_events[i];
            std::int64_t best = -1;
            std::size_t bestCorr = 0;
            bool bestByOrder = false;
            for (std::size_t c = 0; c < m_catalog.correlators().size(); ++c) {
                const Correlator& corr = m_catalog.correlators()[c];
                if (!corr.symptom.matches(s))
                    continue;
                for (std::size_t j : causesOf[c]) {
                    if (j == i || (best >= 0 && static_cast<std::int64_t>(j) >= best))
                        continue;
                    const LinkCheck check = checkLink(
                        corr, m_events[j], j, s, i, [this](NodeId node) { return skewOf(node); },
                        fromOneHostLog(m_events[j], s, m_evidence.sources));
                    if (check.clause != LinkClause::Holds || reaches(j, i))
                        continue;
                    best = static_cast<std::int64_t>(j);
                    bestCorr = c;
                    bestByOrder = check.byOrder;
                }
            }
            if (best >= 0) {
                m_v.causeOf[i] = best;
                m_v.linkVia[i] = m_catalog.correlators()[bestCorr].id;
                m_v.linkRelation[i] = m_catalog.correlators()[bestCorr].relation;
                if (bestByOrder)
                    m_linkedByOrder.insert(i);
            }
        }
    }

    /// Phase 4: the terminal failure episode, and the earliest unexplained root inside it.
    void selectCause()
    {
        const std::size_t n = m_events.size();
        m_timeout = m_settings.collectiveTimeoutNs;
        for (const auto& e : m_events)
            if (const std::string* t = e.field("timeout_ms")) {
                // A value that is not a number of milliseconds, or too large for ns, leaves the timeout as it is.
                std::int64_t ms = 0;
                if (std::from_chars(t->data(), t->data() + t->size(), ms).ec == std::errc() && ms > 0
                    && ms < INT64_MAX / kNsPerMs)
                    m_timeout = std::max<std::int64_t>(m_timeout, ms * kNsPerMs);
            }
        // The terminal failure episode is read from the evidence itself: the last cluster of cascade and teardown
        // events (a scheduler end time can be off by a zone, or far after a hang).
        m_endT = INT64_MIN;
        for (const auto& e : m_events)
            if ((e.role == Role::Cascade || e.role == Role::Teardown) && e.timeNs != INT64_MIN)
                m_endT = std::max(m_endT, e.timeNs);
        if (m_endT == INT64_MIN)
            m_endT = m_v.scope.endNs;
        if (m_endT == INT64_MIN)
            for (const auto& e : m_events)
                m_endT = std::max(m_endT, e.timeNs);
        m_firstFailure = m_endT;
        for (const auto& e : m_events)
            if ((e.role == Role::Cascade || e.role == Role::Teardown) && e.timeNs != INT64_MIN
                && e.timeNs >= m_endT - 2 * m_timeout - m_settings.scopeMarginNs)
                m_firstFailure = std::min(m_firstFailure, e.timeNs);
        m_episodeStart =
            m_firstFailure == INT64_MIN ? INT64_MIN : m_firstFailure - m_timeout - m_settings.scopeMarginNs;

        std::vector<std::size_t> candidates;
        for (std::size_t i = 0; i < n; ++i)
            if (m_events[i].role == Role::Root && m_v.causeOf[i] < 0)
                candidates.push_back(i);
        m_primary = -1;
        // An event with an inferred time may lie anywhere in its interval: it is in the episode if the interval reaches
        // it.
        for (std::size_t i : candidates)
            if (m_events[i].timeNs != INT64_MIN
                && (m_episodeStart == INT64_MIN || m_events[i].timeNs + m_events[i].precisionNs >= m_episodeStart)) {
                m_primary = static_cast<std::int64_t>(i);
                break;
            }
        // A root whose time is missing cannot be placed before the episode or in it: it is the cause only when no
        // timed root is, and is never dropped because other records of the bundle carry times.
        if (m_primary < 0)
            for (std::size_t i : candidates)
                if (m_events[i].timeNs == INT64_MIN) {
                    m_primary = static_cast<std::int64_t>(i);
                    break;
                }
        // Among untimed roots, the same failure may be reported twice: once job-level (a scheduler's summary) and
        // once by a file that names where it happened. The one with the node says more, and nothing orders them.
        if (m_primary >= 0 && m_events[static_cast<std::size_t>(m_primary)].timeNs == INT64_MIN
            && m_events[static_cast<std::size_t>(m_primary)].node == kNoNode) {
            const Event& first = m_events[static_cast<std::size_t>(m_primary)];
            for (std::size_t i : candidates)
                if (m_events[i].timeNs == INT64_MIN && m_events[i].node != kNoNode
                    && m_events[i].ruleId == first.ruleId) {
                    m_primary = static_cast<std::int64_t>(i);
                    break;
                }
        }
    }

    /// Outcome mapping and the verdict's body: cause, symptoms, trail, alternatives, coverage, confidence.
    void explain()
    {
        m_v.coverage = buildCoverage(m_evidence, m_settings, &m_readAs);
        if (m_primary >= 0)
            explainCause();
        else
            explainInconclusive();
        weighCoverage();
        summarise();
        m_v.events = std::move(m_events);
    }

private:
    void traceStep(const Event& e, FilterStep::What what, const std::string& filter, std::string job = {})
    {
        FilterStep step;
        step.what = what;
        step.eventRule = e.ruleId;
        step.type = e.type;
        step.label = e.label;
        step.observation = e.observation;
        step.filter = filter;
        step.role = e.role;
        step.timeNs = e.timeNs;
        step.job = std::move(job);
        m_options.trace->steps.push_back(std::move(step));
    }

    std::int64_t skewOf(NodeId node) const
    {
        auto it = m_skew.find(node);
        return it == m_skew.end() ? 0 : it->second;
    }

    std::size_t rootOf(std::size_t i) const
    {
        std::size_t k = i;
        while (m_v.causeOf[k] >= 0)
            k = static_cast<std::size_t>(m_v.causeOf[k]);
        return k;
    }

    /// Hosts that are not part of the allocation (the slurmctld host, a log collector) never count as symptom nodes.
    bool inScopeNode(NodeId node) const
    {
        return m_v.scope.nodes.empty()
            || std::find(m_v.scope.nodes.begin(), m_v.scope.nodes.end(), node) != m_v.scope.nodes.end();
    }

    void explainCause()
    {
        const std::size_t n = m_events.size();
        const auto p = static_cast<std::size_t>(m_primary);
        const Event& cause = m_events[p];
        m_v.hasCause = true;
        m_v.evidenceStatus = "established";
        m_v.cause = p;
        m_v.domain = cause.domain;
        m_v.subdomain = cause.subdomain;
        auto oc = m_settings.outcomeByDomain.find(cause.domain);
        m_v.outcome = oc == m_settings.outcomeByDomain.end() ? "inconclusive" : oc->second;
        m_v.action = !cause.action.empty()                         ? cause.action
            : m_settings.defaultActionByOutcome.count(m_v.outcome) ? m_settings.defaultActionByOutcome.at(m_v.outcome)
                                                                   : "";
        if (cause.node != kNoNode)
            m_v.originNodes.push_back(m_v.nodes.name(cause.node));
        if (m_v.outcome == "infrastructure_failure" && cause.node != kNoNode)
            m_v.blamedNodes.push_back(m_v.nodes.name(cause.node));

        // Symptoms, trail.
        std::map<std::string, SymptomGroup> groups;
        std::set<std::string> symptomNodes;
        std::size_t precursors = 0;
        std::size_t confirmations = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (i == p || m_v.causeOf[i] < 0 || rootOf(i) != p)
                continue;
            const Event& e = m_events[i];
            const std::string& rel = m_v.linkRelation[i];
            if (rel == "precursor")
                ++precursors;
            else if (rel == "confirmation" || rel == "companion")
                ++confirmations;
            if (rel != "symptom")
                continue;
            if (e.node != kNoNode && inScopeNode(e.node)
                && std::find(m_v.originNodes.begin(), m_v.originNodes.end(), m_v.nodes.name(e.node))
                    == m_v.originNodes.end())
                symptomNodes.insert(m_v.nodes.name(e.node));
            // Teardown (launchers and the scheduler stopping the job) shows how far the failure reached, but it is
            // not a symptom worth counting.
            if (e.role == Role::Teardown)
                continue;
            SymptomGroup& g = groups[e.type];
            if (g.count == 0) {
                g.type = e.type;
                g.label = e.label;
                g.correlator = m_v.linkVia[i];
                g.firstNs = e.timeNs;
            }
            ++g.count;
            g.lastNs = std::max(g.lastNs, e.timeNs);
            g.firstNs = std::min(g.firstNs, e.timeNs);
            g.events.push_back(i);
            if (e.node != kNoNode) {
                const std::string& nn = m_v.nodes.name(e.node);
                if (std::find(g.nodes.begin(), g.nodes.end(), nn) == g.nodes.end())
                    g.nodes.push_back(nn);
            }
            if (e.rank >= 0 && std::find(g.ranks.begin(), g.ranks.end(), e.rank) == g.ranks.end())
                g.ranks.push_back(e.rank);
        }
        for (auto& [type, g] : groups) {
            std::sort(g.nodes.begin(), g.nodes.end());
            std::sort(g.ranks.begin(), g.ranks.end());
            m_v.symptoms.push_back(std::move(g));
        }
        std::sort(m_v.symptoms.begin(), m_v.symptoms.end(), [](const SymptomGroup& a, const SymptomGroup& b) {
            return a.firstNs != b.firstNs ? a.firstNs < b.firstNs : a.type < b.type;
        });
        m_v.symptomNodes.assign(symptomNodes.begin(), symptomNodes.end());
        for (std::size_t i = 0; i < n; ++i) {
            if (i == p)
                m_v.trail.push_back({ i, "cause" });
            else if (m_v.causeOf[i] >= 0 && rootOf(i) == p)
                m_v.trail.push_back({ i,
                    m_v.linkRelation[i] + " via " + m_v.linkVia[i]
                        + (m_linkedByOrder.count(i) ? " (by line order: not timed)" : "") });
        }
        // Untimed events lead the engine's order, ranked by priority among themselves; the trail reads them in the
        // order of their lines instead, file by file, as the reader of a pasted excerpt does.
        const auto timed = std::find_if(m_v.trail.begin(), m_v.trail.end(),
            [&](const TrailItem& t) { return m_events[t.event].timeNs != INT64_MIN; });
        std::stable_sort(m_v.trail.begin(), timed, [&](const TrailItem& a, const TrailItem& b) {
            const Provenance& pa = m_events[a.event].provenance.front();
            const Provenance& pb = m_events[b.event].provenance.front();
            return pa.source != pb.source ? pa.source < pb.source : pa.line < pb.line;
        });

        // Alternatives and why they lost.
        for (std::size_t i = 0; i < n && m_v.alternatives.size() < 12; ++i) {
            if (i == p)
                continue;
            const Event& e = m_events[i];
            if (e.role == Role::Root && m_v.causeOf[i] < 0) {
                if (m_episodeStart != INT64_MIN && e.timeNs + e.precisionNs < m_episodeStart)
                    m_v.alternatives.push_back({ i,
                        "before the terminal failure episode: the job kept running for "
                            + formatDelta(m_firstFailure - e.timeNs) + " after it" });
                else if (e.timeNs == INT64_MIN || cause.timeNs == INT64_MIN)
                    m_v.alternatives.push_back({ i,
                        "another initiating event, with no time to order it against the cause and not linked to it "
                        "by any correlator: a second, independent failure is possible" });
                else
                    m_v.alternatives.push_back({ i,
                        "later than the cause (" + formatDelta(e.orderTimeNs() - cause.orderTimeNs())
                            + ") and not linked to it by any correlator: a second, independent failure is possible" });
            }
        }
        for (std::size_t i = 0; i < n && m_v.alternatives.size() < 16; ++i) {
            const Event& e = m_events[i];
            if (i != p && e.role == Role::Root && m_v.causeOf[i] >= 0)
                m_v.alternatives.push_back({ i,
                    "explained as " + m_v.linkRelation[i] + " of '"
                        + m_events[static_cast<std::size_t>(m_v.causeOf[i])].label + "' ("
                        + formatDelta(
                            e.orderTimeNs() - m_events[static_cast<std::size_t>(m_v.causeOf[i])].orderTimeNs())
                        + ", correlator " + m_v.linkVia[i] + ")" });
        }
        std::set<NodeId> summarised;
        for (std::size_t i = 0; i < n && m_v.alternatives.size() < 20; ++i) {
            const Event& e = m_events[i];
            if (e.role == Role::Teardown && e.field("root_cause_rank") && summarised.insert(e.node).second)
                m_v.alternatives.push_back({ i,
                    "teardown summary: a launcher names the first failure its own agent observed, "
                    "not the first failure of the job" });
        }

        // Confidence: evidence quality minus coverage gaps.
        m_confidence = cause.quality == TimeQuality::Exact ? 0.9
            : cause.quality == TimeQuality::AssumedZone    ? 0.8
                                                           : 0.7;
        m_v.confidenceNotes.push_back(std::string("cause time is ") + timeQualityName(cause.quality));
        if (precursors + confirmations > 0) {
            m_confidence += std::min(0.08, 0.03 * static_cast<double>(precursors + confirmations));
            m_v.confidenceNotes.push_back(std::to_string(precursors) + " precursor(s) and "
                + std::to_string(confirmations) + " companion/confirmation(s) corroborate the cause");
        }
        if (!m_v.symptoms.empty())
            m_v.confidenceNotes.push_back("the cause explains "
                + std::to_string(m_v.trail.size() - 1 - precursors - confirmations) + " later symptom(s)");
        std::size_t byOrder = 0;
        for (const auto& t : m_v.trail)
            byOrder += m_linkedByOrder.count(t.event);
        if (byOrder > 0)
            m_v.confidenceNotes.push_back(std::to_string(byOrder)
                + " link(s) rest on the order of lines in one file, not on times (their records carry none): how "
                  "long after the cause they came is unknown");
        if (const std::string* peer = cause.field("peer_may_be_source"); peer && *peer == "true")
            m_v.confidenceNotes.push_back("NVIDIA's catalog says the device at the other end of this link may be the "
                                          "source (INVESTIGATE_PEER_DEVICE): check the peer GPU/NVSwitch too");
    }

    void explainInconclusive()
    {
        const std::size_t n = m_events.size();
        m_v.outcome = "inconclusive";
        m_v.domain = "unknown";
        m_v.summary = "no initiating event found";
        m_v.inconclusiveReasons.push_back("no root-cause candidate in the terminal failure episode"
            + (m_firstFailure == INT64_MIN ? std::string()
                                           : " (" + formatUtc(m_episodeStart) + " .. " + formatUtc(m_endT) + ")"));
        std::map<std::string, std::pair<std::size_t, std::set<std::string>>> unexplained;
        std::set<std::string> symptomNodes;
        for (std::size_t i = 0; i < n; ++i)
            if (m_events[i].role == Role::Cascade) {
                auto& u = unexplained[m_events[i].type];
                ++u.first;
                if (m_events[i].node != kNoNode) {
                    u.second.insert(m_v.nodes.name(m_events[i].node));
                    if (inScopeNode(m_events[i].node))
                        symptomNodes.insert(m_v.nodes.name(m_events[i].node));
                }
            }
        m_v.symptomNodes.assign(symptomNodes.begin(), symptomNodes.end());
        for (const auto& [type, u] : unexplained) {
            std::string nodes;
            for (const auto& nn : u.second)
                nodes += (nodes.empty() ? "" : ", ") + nn;
            m_v.inconclusiveReasons.push_back(std::to_string(u.first) + " " + type + " event(s) on "
                + (nodes.empty() ? "unknown nodes" : nodes)
                + " have no initiating event: they are symptoms of something the evidence does not show");
        }
        for (std::size_t i = 0; i < n && m_v.alternatives.size() < 8; ++i)
            if (m_events[i].role == Role::Cascade
                && (m_v.alternatives.empty() || m_events[m_v.alternatives.back().event].type != m_events[i].type))
                m_v.alternatives.push_back({ i,
                    "hypothesis only: a cascade, not an initiating failure; it stands as the "
                    "earliest observed failure of its kind" });
        for (std::size_t i = 0; i < n; ++i)
            if (m_events[i].role != Role::Context)
                m_v.trail.push_back({ i, std::string("unexplained ") + roleName(m_events[i].role) });
        m_v.action = m_settings.defaultActionByOutcome.count("inconclusive")
            ? m_settings.defaultActionByOutcome.at("inconclusive")
            : "";
        rankHypotheses();
        if (m_v.hypotheses.leading) {
            explainHypothesis();
            return;
        }
        m_v.evidenceStatus = "none";
        m_confidence = 0.5;
        m_v.confidenceNotes.push_back(
            "confidence is about the verdict 'inconclusive': the evidence shows a failure but "
            "not its cause");
    }

    /// Whether the bundle holds a source of `kind` with records for `node` (kNoNode: for any node).
    bool hasSource(SourceKind kind, NodeId node) const
    {
        for (const auto& s : m_evidence.sources)
            if (s.kind == kind && s.records > 0
                && (s.status == CoverageStatus::Ok || s.status == CoverageStatus::Truncated)
                && (node == kNoNode || s.host == node))
                return true;
        return false;
    }

    /// What would confirm hypothesis `h`, supported by events `support`, and whether the bundle already holds it.
    std::vector<ConfirmingEvidence> confirmingEvidence(
        const HypothesisRule& h, const std::vector<std::size_t>& support, double& silenceFactor) const
    {
        std::vector<ConfirmingEvidence> out;
        silenceFactor = 1;
        for (const auto& c : h.confirm) {
            const std::string kind = sourceKindName(c.kind);
            std::vector<ConfirmingEvidence> items;
            auto add = [&](const std::string& node, const std::string& what, bool present) {
                for (const auto& it : items)
                    if (it.what == what)
                        return;
                items.push_back({ kind, node, what, c.what, present ? "silent" : "missing" });
            };
            if (c.of == HypothesisConfirm::Of::Job) {
                add({}, c.name, hasSource(c.kind, kNoNode));
            } else if (c.of == HypothesisConfirm::Of::Reporter) {
                // A rank whose node no record names is only asked about when no supporting record names a node:
                // it most likely runs on one of those.
                const bool anyNode = std::any_of(
                    support.begin(), support.end(), [&](std::size_t i) { return m_events[i].node != kNoNode; });
                for (std::size_t i : support) {
                    const Event& e = m_events[i];
                    if (e.node != kNoNode)
                        add(m_v.nodes.name(e.node), c.name + " of " + m_v.nodes.name(e.node),
                            hasSource(c.kind, e.node));
                    else if (anyNode)
                        continue;
                    else if (e.rank >= 0)
                        add({}, c.name + " of the node that runs rank " + std::to_string(e.rank), false);
                    else
                        add({}, c.name + " of the node that reported '" + e.label + "'", false);
                }
            } else {
                // The peer is named by an address or host inside the record. A known node (by name, or by the
                // address the manifest gives it) is asked about by name; an unknown peer's source is present only
                // when every allocated node's source of this kind is.
                bool everyNode = !m_v.scope.nodes.empty();
                for (NodeId n : m_v.scope.nodes)
                    everyNode = everyNode && hasSource(c.kind, n);
                for (std::size_t i : support) {
                    const Event& e = m_events[i];
                    const std::string peer =
                        expandTemplate(c.peerTemplate, [&](std::string_view k) { return e.field(k); });
                    if (peer.empty())
                        continue;
                    NodeId node = m_v.nodes.find(peer);
                    if (const auto it = m_evidence.addressNodes.find(peer); it != m_evidence.addressNodes.end())
                        node = it->second;
                    if (node != kNoNode) {
                        const std::string name = m_v.nodes.name(node);
                        add(name, c.name + " of the peer " + name + (name == peer ? "" : " (" + peer + ")"),
                            hasSource(c.kind, node));
                    } else
                        add({}, c.name + " of the peer " + peer, everyNode);
                }
            }
            // A source that is present and silent counts against the hypothesis once per confirming entry, and
            // only when every source the entry names is present.
            const bool allSilent = !items.empty()
                && std::all_of(items.begin(), items.end(), [](const auto& it) { return it.status == "silent"; });
            if (allSilent)
                silenceFactor *= 1 - c.silenceWeight;
            for (auto& it : items)
                out.push_back(std::move(it));
        }
        return out;
    }

    /// Without an initiating event, the symptoms' kinds still point somewhere: each catalog hypothesis is
    /// supported by the symptoms of the terminal episode that its selectors match, every kind of symptom counting
    /// once (repetition across ranks is fan-out, not more evidence), kinds combined as independent evidence.
    void rankHypotheses()
    {
        const std::size_t n = m_events.size();
        std::vector<std::pair<HypothesisCandidate, std::vector<ConfirmingEvidence>>> ranked;
        for (const auto& h : m_catalog.hypotheses()) {
            HypothesisCandidate c;
            c.id = h.id;
            c.domain = h.domain;
            c.subdomain = h.subdomain;
            c.label = h.label;
            std::vector<std::size_t> supportEvents;
            std::map<std::size_t, HypothesisEvidence> byEntry;
            std::set<std::string> nodes;
            std::set<std::int32_t> ranks;
            for (std::size_t i = 0; i < n; ++i) {
                const Event& e = m_events[i];
                if (e.timeNs != INT64_MIN && m_episodeStart != INT64_MIN && e.timeNs + e.precisionNs < m_episodeStart)
                    continue;
                for (std::size_t k = 0; k < h.support.size(); ++k) {
                    if (!h.support[k].when.matches(e))
                        continue;
                    HypothesisEvidence& ev = byEntry[k];
                    if (ev.count++ == 0) {
                        ev.type = e.type;
                        ev.label = e.label;
                        ev.weight = h.support[k].weight;
                        ev.why = h.support[k].why;
                        ev.faultAtReporter = h.support[k].faultAtReporter;
                    }
                    ev.events.push_back(i);
                    supportEvents.push_back(i);
                    if (e.node != kNoNode)
                        nodes.insert(m_v.nodes.name(e.node));
                    if (e.rank >= 0)
                        ranks.insert(e.rank);
                    break;
                }
            }
            if (byEntry.empty())
                continue;
            double against = 1;
            for (auto& [k, ev] : byEntry) {
                against *= 1 - ev.weight;
                c.evidence.push_back(std::move(ev));
            }
            std::stable_sort(c.evidence.begin(), c.evidence.end(),
                [](const HypothesisEvidence& a, const HypothesisEvidence& b) { return a.weight > b.weight; });
            double silence = 1;
            auto confirm = confirmingEvidence(h, supportEvents, silence);
            c.support = std::round((1 - against) * silence * 100) / 100;
            c.nodes.assign(nodes.begin(), nodes.end());
            c.ranks.assign(ranks.begin(), ranks.end());
            if (c.support > 0)
                ranked.emplace_back(std::move(c), std::move(confirm));
        }
        std::stable_sort(ranked.begin(), ranked.end(),
            [](const auto& a, const auto& b) { return a.first.support > b.first.support; });
        Hypotheses& hs = m_v.hypotheses;
        const HypothesisSettings& cfg = m_settings.hypothesis;
        auto pct = [](double x) {
            char buf[16];
            std::snprintf(buf, sizeof buf, "%.2f", x);
            return std::string(buf);
        };
        auto name = [](const HypothesisCandidate& c) { return domainPath(c.domain, c.subdomain); };
        if (ranked.empty()) {
            hs.basis = "no symptom in the evidence points at a domain";
            m_v.inconclusiveReasons.push_back(hs.basis);
            return;
        }
        const HypothesisCandidate& top = ranked.front().first;
        const double next = ranked.size() > 1 ? ranked[1].first.support : 0;
        if (top.support < cfg.minSupport)
            hs.basis = "the best-supported hypothesis, " + name(top) + " (support " + pct(top.support)
                + "), is below the " + pct(cfg.minSupport) + " a leading hypothesis needs";
        else if (top.support - next < cfg.minLead - 1e-9) {
            // Rivals too close to call may still agree on the domain (two configuration mistakes that end in the
            // same message): then the domain leads and its subdomain stays open.
            std::vector<std::string> close;
            bool oneDomain = true;
            for (std::size_t k = 1; k < ranked.size() && top.support - ranked[k].first.support < cfg.minLead - 1e-9;
                 ++k) {
                oneDomain = oneDomain && ranked[k].first.domain == top.domain && top.domain != "unknown";
                close.push_back(name(ranked[k].first) + " (" + pct(ranked[k].first.support) + ")");
            }
            std::string rivals;
            for (const auto& c : close)
                rivals += (rivals.empty() ? "" : ", ") + c;
            if (!oneDomain)
                hs.basis = name(top) + " (support " + pct(top.support) + ") and " + rivals
                    + " are too close to call: a lead of " + pct(cfg.minLead) + " is needed";
            else {
                hs.leading = true;
                m_subdomainOpen = close.size();
                hs.basis = name(top) + " (support " + pct(top.support) + ") and " + rivals
                    + " are too close to call between them, but all are " + top.domain
                    + ": the domain leads, its subdomain is open";
                hs.confirm = ranked.front().second;
                for (std::size_t k = 1; k <= close.size(); ++k)
                    for (const auto& c : ranked[k].second)
                        if (std::none_of(hs.confirm.begin(), hs.confirm.end(),
                                [&](const ConfirmingEvidence& h) { return h.what == c.what; }))
                            hs.confirm.push_back(c);
            }
        } else {
            hs.leading = true;
            hs.basis = "support " + pct(top.support) + " from " + std::to_string(top.evidence.size())
                + " kind(s) of symptom"
                + (ranked.size() > 1 ? "; the next, " + name(ranked[1].first) + ", has " + pct(next)
                                     : std::string("; no rival"));
            hs.confirm = ranked.front().second;
        }
        for (auto& [c, confirm] : ranked)
            hs.candidates.push_back(std::move(c));
    }

    /// The verdict names the leading hypothesis: outcome stays inconclusive, domain/subdomain are the hypothesis's
    /// (the subdomain left open when close rivals share the domain), nothing is blamed, and what would confirm it is
    /// said.
    void explainHypothesis()
    {
        const HypothesisCandidate& top = m_v.hypotheses.candidates.front();
        const HypothesisRule* rule = hypothesisRule(top.id);
        m_v.evidenceStatus = "hypothesis";
        m_v.domain = top.domain;
        m_v.subdomain = m_subdomainOpen > 0 ? std::string() : top.subdomain;
        // With the subdomain open, the rivals it is open between are named beside the leader.
        std::string label = top.label;
        for (std::size_t k = 1; k <= m_subdomainOpen && k < m_v.hypotheses.candidates.size(); ++k)
            label += ", or " + m_v.hypotheses.candidates[k].label;
        if (rule && rule->faultAtReporter)
            for (const auto& nn : top.nodes)
                if (std::find(m_v.originNodes.begin(), m_v.originNodes.end(), nn) == m_v.originNodes.end())
                    m_v.originNodes.push_back(nn);
        // Symptoms whose support item places the fault on their reporter (an HCA's own port event) name that node
        // even when the hypothesis as a whole cannot (a completion error may be the peer's fault).
        for (const auto& ev : top.evidence)
            if (ev.faultAtReporter)
                for (const std::size_t i : ev.events)
                    if (i < m_events.size() && m_events[i].node != kNoNode) {
                        const std::string& nn = m_v.nodes.name(m_events[i].node);
                        if (std::find(m_v.originNodes.begin(), m_v.originNodes.end(), nn) == m_v.originNodes.end())
                            m_v.originNodes.push_back(nn);
                    }
        std::set<std::size_t> supporting;
        std::size_t symptoms = 0;
        for (const auto& ev : top.evidence) {
            supporting.insert(ev.events.begin(), ev.events.end());
            symptoms += ev.count;
        }
        for (auto& t : m_v.trail)
            if (supporting.count(t.event))
                t.why = "supports hypothesis " + top.id;
        std::string where;
        for (const auto& nn : top.nodes)
            where += (where.empty() ? "" : ", ") + nn;
        if (!top.ranks.empty())
            where += (where.empty() ? "rank " : " rank ") + formatRanks(top.ranks);
        m_v.summary = "leading hypothesis, not confirmed: " + label + " [" + domainPath(top.domain, m_v.subdomain)
            + "], from " + std::to_string(symptoms) + " symptom(s)" + (where.empty() ? std::string() : " on " + where);
        std::string missing;
        for (const auto& c : m_v.hypotheses.confirm)
            if (c.status == "missing")
                missing += (missing.empty() ? "" : "; ") + c.what;
        m_v.action = "Not confirmed: do not drain or requeue on this alone. "
            + (missing.empty() ? std::string() : "Collect " + missing + ". ")
            + (rule && !rule->action.empty() ? rule->action : m_v.action);
        for (std::size_t k = 1; k <= m_subdomainOpen && k < m_v.hypotheses.candidates.size(); ++k)
            if (const HypothesisRule* h = hypothesisRule(m_v.hypotheses.candidates[k].id); h && !h->action.empty())
                m_v.action += " Or, for the rival (" + h->label + "): " + h->action;
        m_confidence = m_settings.hypothesis.maxConfidence * top.support;
        m_v.confidenceNotes.push_back("confidence is about the leading hypothesis, which no initiating event "
                                      "confirms: at most "
            + std::to_string(static_cast<int>(m_settings.hypothesis.maxConfidence * 100)) + "% times its support ("
            + m_v.hypotheses.basis + ")");
    }

    /// The catalog's hypothesis rule `id`, or null.
    const HypothesisRule* hypothesisRule(const std::string& id) const
    {
        for (const auto& h : m_catalog.hypotheses())
            if (h.id == id)
                return &h;
        return nullptr;
    }

    static std::string formatRanks(const std::vector<std::int32_t>& ranks)
    {
        std::string out;
        for (std::size_t i = 0; i < ranks.size();) {
            std::size_t j = i;
            while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
                ++j;
            out += (out.empty() ? "" : ",") + std::to_string(ranks[i]) + (j > i ? "-" + std::to_string(ranks[j]) : "");
            i = j + 1;
        }
        return out;
    }

    /// Missing or broken sources lower the confidence; for an inconclusive verdict they are part of the reason.
    void weighCoverage()
    {
        for (const auto& c : m_v.coverage) {
            if (c.status == CoverageStatus::Ok)
                continue;
            const bool causeNode = m_v.hasCause && m_events[m_v.cause].node != kNoNode
                && c.node == m_v.nodes.name(m_events[m_v.cause].node);
            const double cost = causeNode ? 0.2 : c.node.empty() ? 0.1 : 0.05;
            // A hypothesis's confidence already rests on what the bundle lacks: missing sources are what would
            // confirm it, and present ones that stay silent lowered its support.
            if (!m_v.hypotheses.leading)
                m_confidence -= cost;
            std::string what = c.kind + (c.node.empty() ? std::string() : " on " + c.node);
            m_v.confidenceNotes.push_back(what + " is " + coverageStatusName(c.status) + ": " + c.reason);
            if (!m_v.hasCause)
                m_v.inconclusiveReasons.push_back(
                    what + " " + coverageStatusName(c.status) + ": a failure there would be invisible");
        }
        if (!m_windowTrusted && !m_v.hypotheses.leading)
            m_confidence -= 0.1;
        m_confidence = std::clamp(m_confidence, 0.05, 0.99);
        // Without an initiating event the verdict is never more than a low-confidence one.
        if (!m_v.hasCause)
            m_confidence = std::min(m_confidence, m_settings.hypothesis.maxConfidence);
        m_v.confidence = std::round(m_confidence * 100) / 100;
        m_v.confidenceLevel = m_v.confidence >= 0.8 ? "high" : m_v.confidence >= 0.5 ? "medium" : "low";
    }

    void summarise()
    {
        if (m_v.hasCause) {
            const Event& cause = m_events[m_v.cause];
            std::size_t symptomCount = 0;
            for (const auto& g : m_v.symptoms)
                symptomCount += g.count;
            // Where and when, as far as the evidence says: a pasted excerpt may name neither node nor time.
            std::string where;
            if (cause.node != kNoNode)
                where += " on " + m_v.nodes.name(cause.node);
            if (!cause.gpu.empty())
                where += " GPU " + cause.gpu;
            if (cause.rank >= 0)
                where += " rank " + std::to_string(cause.rank);
            if (cause.timeNs != INT64_MIN)
                where += " at " + formatUtc(cause.timeNs);
            if (cause.node == kNoNode && cause.timeNs == INT64_MIN)
                where += " (the evidence names no node and no time)";
            else if (cause.node == kNoNode)
                where += " (node not named in the evidence)";
            else if (cause.timeNs == INT64_MIN)
                where += " (time not in the evidence)";
            m_v.summary = cause.label + where;
            if (symptomCount > 0)
                m_v.summary += "; " + std::to_string(symptomCount) + " later symptom(s)"
                    + (m_v.symptomNodes.empty() ? std::string()
                                                : " on " + std::to_string(m_v.symptomNodes.size()) + " other node(s)");
        }
    }

    const EvidenceSet& m_evidence;
    const RuleCatalog& m_catalog;
    const CatalogSettings& m_settings;
    const AnalysisOptions& m_options;
    Verdict& m_v;
    std::vector<Event> m_events;
    bool m_windowTrusted = true;
    std::int64_t m_timeout = 0;
    std::int64_t m_endT = INT64_MIN;
    std::int64_t m_firstFailure = INT64_MIN;
    std::int64_t m_episodeStart = INT64_MIN;
    struct MemberLink
    {
        std::size_t member = 0;
        std::size_t aggregate = 0;
        std::string rule;
        std::string relation;
    };
    std::vector<MemberLink> m_memberLinks; ///< events linked to the aggregate event read from them
    std::size_t m_subdomainOpen = 0; ///< rivals of one domain, too close to the leader to pick its subdomain
    std::set<std::size_t> m_linkedByOrder; ///< events linked to their cause by their file's line order, not by time
    std::int64_t m_primary = -1;
    double m_confidence = 0;
    std::map<NodeId, std::int64_t> m_skew;
    std::vector<SourceKind> m_readAs; ///< per source: the kind a file of unknown format reads as (inferSourceKinds)
};

} // namespace

Verdict analyze(const EvidenceSet& evidence, const RuleCatalog& catalog, const AnalysisOptions& options)
{
    Verdict v;
    v.catalogName = catalog.name();
    v.catalogVersion = catalog.version();
    v.catalogHash = catalog.contentHash();
    v.engineVersion = kEngineVersion;
    v.scope = evidence.scope;
    v.nodes = evidence.nodes;
    if (options.windowFromNs != INT64_MIN)
        v.scope.startNs = options.windowFromNs;
    if (options.windowToNs != INT64_MIN)
        v.scope.endNs = options.windowToNs;
    auto cancelled = [&] { return options.cancel && options.cancel->load(); };

    Attribution run(evidence, catalog, options, v);
    run.extract();
    if (cancelled())
        return v;
    run.filter();
    if (cancelled())
        return v;
    run.aggregate();
    run.estimateSkew();
    run.correlate();
    run.selectCause();
    run.explain();
    return v;
}

} // namespace faultline::core
