// SPDX-License-Identifier: Apache-2.0
#include "core/analysis/rule_trace.h"

#include "core/analysis/analysis_trace.h"
#include "core/report/verdict_report.h"
#include "core/rules/extraction.h"
#include "core/time/civil_time.h"

#include <re2/filtered_re2.h>
#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <memory>
#include <set>
#include <tuple>

namespace faultline::core {

const char* eventFateName(EventFate f)
{
    switch (f) {
    case EventFate::Kept:
        return "kept";
    case EventFate::Merged:
        return "merged";
    case EventFate::OutOfWindow:
        return "out-of-window";
    case EventFate::OtherJob:
        return "other-job";
    case EventFate::Dropped:
        return "dropped";
    case EventFate::Superseded:
        return "superseded";
    case EventFate::Missing:
        return "missing";
    }
    return "missing";
}

const char* missClauseName(MissClause c)
{
    switch (c) {
    case MissClause::SourceKind:
        return "source-kind";
    case MissClause::EmptyRecord:
        return "empty-record";
    case MissClause::Literals:
        return "literals";
    case MissClause::Pattern:
        return "pattern";
    case MissClause::PrecededBy:
        return "preceded-by";
    }
    return "pattern";
}

const char* linkClauseName(LinkClause c)
{
    switch (c) {
    case LinkClause::Holds:
        return "holds";
    case LinkClause::Untimed:
        return "untimed";
    case LinkClause::LineOrder:
        return "line-order";
    case LinkClause::Window:
        return "window";
    case LinkClause::Nodes:
        return "nodes";
    case LinkClause::RootOrder:
        return "root-order";
    }
    return "holds";
}

const char* traceRuleKindName(TraceRuleKind k)
{
    switch (k) {
    case TraceRuleKind::Extractor:
        return "extractor";
    case TraceRuleKind::Metric:
        return "metric";
    case TraceRuleKind::Filter:
        return "filter";
    case TraceRuleKind::Correlator:
        return "correlator";
    case TraceRuleKind::Aggregate:
        return "aggregate";
    case TraceRuleKind::Hypothesis:
        return "hypothesis";
    }
    return "extractor";
}

namespace {

constexpr std::size_t kTextMax = 240;

std::vector<std::string> allRuleIds(const RuleCatalog& c)
{
    std::vector<std::string> ids;
    for (const auto& r : c.extractors())
        ids.push_back(r.id);
    for (const auto& r : c.metricRules())
        ids.push_back(r.id);
    for (const auto& r : c.filters())
        ids.push_back(r.id);
    for (const auto& r : c.correlators())
        ids.push_back(r.id);
    for (const auto& r : c.aggregates())
        ids.push_back(r.id);
    for (const auto& r : c.hypotheses())
        ids.push_back(r.id);
    return ids;
}

std::size_t editDistance(std::string_view a, std::string_view b)
{
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({ row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1) });
            diag = up;
        }
    }
    return row[b.size()];
}

std::string origin(const RuleOrigin& o)
{
    return o.file + ":" + std::to_string(o.line);
}

std::string joined(const std::vector<std::string>& v, const char* sep = ", ")
{
    std::string s;
    for (const auto& x : v)
        s += (s.empty() ? "" : sep) + x;
    return s;
}

std::string quoted(const std::vector<std::string>& v)
{
    std::vector<std::string> q;
    for (const auto& x : v)
        q.push_back("'" + x + "'");
    return joined(q);
}

/// At most the last `max` bytes of `s` (not cutting a UTF-8 character), "…" before them when cut.
std::string tail(std::string_view s, std::size_t max)
{
    if (s.size() <= max)
        return std::string(s);
    std::size_t from = s.size() - max;
    while (from < s.size() && (static_cast<unsigned char>(s[from]) & 0xc0) == 0x80)
        ++from;
    return "…" + std::string(s.substr(from));
}

/// At most the first `max` bytes of `s` (not cutting a UTF-8 character), "…" after them when cut.
std::string head(std::string_view s, std::size_t max)
{
    if (s.size() <= max)
        return std::string(s);
    std::size_t to = max;
    while (to > 0 && (static_cast<unsigned char>(s[to]) & 0xc0) == 0x80)
        --to;
    return std::string(s.substr(0, to)) + "…";
}

std::string capped(std::string_view text)
{
    return head(text, kTextMax);
}

/// A multi-line excerpt on one line: each newline as "\n".
std::string flat(std::string_view s)
{
    std::string out;
    for (char c : s)
        if (c == '\n')
            out += "\\n";
        else
            out += c;
    return out;
}

std::string selectorText(const EventSelector& s)
{
    std::vector<std::string> parts;
    if (!s.types.empty())
        parts.push_back("event " + joined(s.types));
    if (!s.roles.empty()) {
        std::vector<std::string> r;
        for (Role x : s.roles)
            r.emplace_back(roleName(x));
        parts.push_back("role " + joined(r));
    }
    if (!s.domains.empty())
        parts.push_back("domain " + joined(s.domains));
    if (!s.subdomains.empty())
        parts.push_back("subdomain " + joined(s.subdomains));
    if (!s.severities.empty())
        parts.push_back("severity " + joined(s.severities));
    for (const auto& [k, values] : s.fields)
        parts.push_back(k + "=" + joined(values, "|"));
    return parts.empty() ? std::string("any event") : joined(parts, "; ");
}

/// "12s" for a duration: formatDelta without its sign.
std::string span(std::int64_t ns)
{
    const std::string d = formatDelta(ns < 0 ? -ns : ns);
    return !d.empty() && (d[0] == '+' || d[0] == '-') ? d.substr(1) : d;
}

std::string windowText(std::int64_t beforeNs, std::int64_t afterNs)
{
    return formatDelta(-beforeNs) + " .. " + formatDelta(afterNs);
}

const char* nodesName(Correlator::Nodes n)
{
    switch (n) {
    case Correlator::Nodes::Any:
        return "any";
    case Correlator::Nodes::Same:
        return "same";
    case Correlator::Nodes::SameGpu:
        return "same-gpu";
    case Correlator::Nodes::Other:
        return "other";
    case Correlator::Nodes::Unnamed:
        return "unnamed";
    }
    return "any";
}

/// Reads the evidence, the verdict and what the engine recorded, for one request.
class Tracer
{
public:
    Tracer(const EvidenceSet& evidence, const RuleCatalog& catalog, const Verdict& verdict,
        const AnalysisTrace& recorded, const TraceRequest& request)
        : m_ev(evidence)
        , m_catalog(catalog)
        , m_v(verdict)
        , m_recorded(recorded)
        , m_request(request)
        , m_extraction(catalog)
    {
        for (std::size_t k = 0; k < m_v.events.size(); ++k) {
            const Event& e = m_v.events[k];
            m_byRecord.emplace(std::make_pair(e.ruleId, e.observation), k);
            for (std::size_t p = 1; p < e.provenance.size(); ++p)
                m_merged.emplace(std::make_tuple(e.type, e.provenance[p].source, e.provenance[p].line), k);
        }
        for (const auto& s : m_recorded.steps)
            m_steps[std::make_pair(s.eventRule, s.observation)].push_back(&s);
        for (std::size_t r = 0; r < m_catalog.extractors().size(); ++r)
            m_extractorIndex.emplace(m_catalog.extractors()[r].id, r);
        for (const auto& m : m_catalog.metricRules())
            m_metricIds.insert(m.id);
    }

    /// Resolves the request's path and line to a record. False (with errors) when the file or line is unknown.
    bool resolveFocus(TraceReport& report, std::vector<Diagnostic>& errors)
    {
        if (m_request.path.empty())
            return true;
        std::optional<std::uint32_t> source;
        std::vector<std::uint32_t> suffixed;
        for (std::uint32_t s = 0; s < m_ev.sources.size(); ++s) {
            const std::string& p = m_ev.sources[s].path;
            if (p == m_request.path)
                source = s;
            else if ((p.size() > m_request.path.size() && p.ends_with("/" + m_request.path))
                || (m_request.path.size() > p.size() && m_request.path.ends_with("/" + p)))
                suffixed.push_back(s);
        }
        if (!source && suffixed.size() == 1)
            source = suffixed.front();
        if (!source) {
            // Several files end in the path given: name them; else files with the same name.
            std::vector<std::string> close;
            for (std::uint32_t s : suffixed)
                close.push_back(m_ev.sources[s].path);
            const std::string base = m_request.path.substr(m_request.path.find_last_of('/') + 1);
            if (close.empty())
                for (const auto& s : m_ev.sources)
                    if (s.path.substr(s.path.find_last_of('/') + 1) == base)
                        close.push_back(s.path);
            const std::size_t named = close.size();
            if (close.size() > 6)
                close.resize(6);
            std::string message = "no file '" + m_request.path + "' in the evidence";
            if (suffixed.size() > 1)
                message = "'" + m_request.path + "' names " + std::to_string(named) + " files of the evidence: "
                    + joined(close, ", ") + (named > close.size() ? ", …" : "") + "; give more of the path";
            else if (!close.empty())
                message += "; did you mean " + joined(close, " or ") + "?";
            else
                message += " (faultline-cli import-report lists its files)";
            errors.push_back(makeDiagnostic(Severity::Error, "unknown-file", message, m_request.path));
            return false;
        }
        const Source& src = m_ev.sources[*source];
        const std::uint64_t want = m_request.line;
        auto located = [&](std::string code, std::string message) {
            Diagnostic d = makeDiagnostic(Severity::Error, std::move(code), std::move(message), src.path);
            d.where.line = want;
            errors.push_back(std::move(d));
            return false;
        };
        if (src.lines > 0 && want > src.lines)
            return located("no-record",
                "line " + std::to_string(want) + " is past the end of the file (" + std::to_string(src.lines)
                    + " lines)");
        // The record that holds the line: the last one of the file starting at or before it. A metrics file holds
        // series instead of records.
        std::optional<std::uint32_t> at;
        std::uint64_t first = 0;
        for (std::uint32_t i = 0; i < m_ev.observations.size(); ++i) {
            const Provenance& w = m_ev.observations[i].where;
            if (w.source != *source)
                continue;
            first = first == 0 ? w.line : std::min(first, w.line);
            if (w.line <= want && (!at || m_ev.observations[*at].where.line <= w.line))
                at = i;
        }
        std::optional<std::size_t> series;
        for (std::size_t k = 0; !at && k < m_ev.metrics.size(); ++k) {
            const Provenance& w = m_ev.metrics[k].where;
            if (w.source == *source && w.line <= want && (!series || m_ev.metrics[*series].where.line <= w.line))
                series = k;
            if (w.source == *source)
                first = first == 0 ? w.line : std::min(first, w.line);
        }
        if (!at && !series)
            return located("no-record",
                first == 0 ? std::string("the file holds no record the importer read")
                           : "no record starts at or before line " + std::to_string(want)
                        + " (the first starts on line " + std::to_string(first) + ")");
        TracedRecord r;
        if (at) {
            m_focus = *at;
            m_focusWhere = m_ev.observations[*at].where;
            r = record(*at);
        } else {
            const MetricSeries& m = m_ev.metrics[*series];
            m_focusWhere = m.where;
            r.observation = static_cast<std::uint32_t>(*series);
            r.path = src.path;
            r.line = m.where.line;
            r.byteOffset = m.where.byteOffset;
            r.kind = sourceKindName(SourceKind::Metrics);
            r.format = src.format;
            r.node = m_ev.nodeName(m.node);
            std::string labels;
            for (const auto& [k, v] : m.labels)
                labels += (labels.empty() ? "" : ",") + k + "=\"" + v + "\"";
            r.text = capped(m.name + "{" + labels + "} (" + std::to_string(m.samples.size()) + " samples)");
        }
        if (r.line != want)
            report.focusNote = "line " + std::to_string(want) + " is not the first line of a record: the "
                + (at ? "record " : "series ") + src.path + ":" + std::to_string(r.line)
                + " is the last one starting before it (a multi-line record, or a line the importer did not read as a "
                  "record of its own)";
        report.focus = std::move(r);
        return true;
    }

    void run(TraceReport& report)
    {
        report.outcome = m_v.outcome;
        report.summary = m_v.summary;
        if (!m_request.ruleId.empty()) {
            report.rules.push_back(traceRule(m_request.ruleId));
            return;
        }
        // One record over every rule: the extractors that matched it or came near, then every other rule that
        // acted on the events it gave.
        const SourceKind kind = m_focus ? m_ev.observations[*m_focus].kind : SourceKind::Metrics;
        report.extractorsReading = m_focus && m_catalog.prefilterFor(kind) ? m_catalog.extractorsFor(kind).size() : 0;
        for (const auto& x : m_catalog.extractors()) {
            if (!m_focus)
                break; // the record is a metric series
            RuleTrace t = traceExtractor(x);
            if (t.recordsMatched > 0)
                report.matchedBy.push_back(x.id);
            // Near: the pattern's literals are in the record (a pattern without literals is near everything).
            const bool near = std::any_of(t.misses.begin(), t.misses.end(), [&](const ExtractorMiss& m) {
                return (m.clause == MissClause::Pattern && !t.literals.empty()) || m.clause == MissClause::PrecededBy
                    || (m.clause == MissClause::SourceKind && m.patternMatches);
            });
            if (t.recordsMatched > 0 || near)
                report.rules.push_back(std::move(t));
        }
        for (const auto& m : m_catalog.metricRules())
            if (RuleTrace t = traceMetric(m); !t.events.empty())
                report.rules.push_back(std::move(t));
        for (const auto& f : m_catalog.filters())
            if (RuleTrace t = traceFilter(f); !t.events.empty() || !t.filterMisses.empty())
                report.rules.push_back(std::move(t));
        for (const auto& c : m_catalog.correlators())
            if (RuleTrace t = traceCorrelator(c); !t.links.empty() || !t.linkMisses.empty())
                report.rules.push_back(std::move(t));
        for (const auto& a : m_catalog.aggregates())
            if (RuleTrace t = traceAggregate(a); !t.events.empty() || !t.links.empty())
                report.rules.push_back(std::move(t));
    }

private:
    RuleTrace traceRule(const std::string& id)
    {
        for (const auto& r : m_catalog.extractors())
            if (r.id == id)
                return traceExtractor(r);
        for (const auto& r : m_catalog.metricRules())
            if (r.id == id)
                return traceMetric(r);
        for (const auto& r : m_catalog.filters())
            if (r.id == id)
                return traceFilter(r);
        for (const auto& r : m_catalog.correlators())
            if (r.id == id)
                return traceCorrelator(r);
        for (const auto& r : m_catalog.aggregates())
            if (r.id == id)
                return traceAggregate(r);
        for (const auto& r : m_catalog.hypotheses())
            if (r.id == id)
                return traceHypothesis(r);
        return {}; // checkTraceRequest rejects unknown ids first
    }

    TracedRecord record(std::uint32_t i) const
    {
        const Observation& o = m_ev.observations[i];
        TracedRecord r;
        r.observation = i;
        r.line = o.where.line;
        r.byteOffset = o.where.byteOffset;
        r.kind = sourceKindName(o.kind);
        if (o.where.source < m_ev.sources.size()) {
            r.path = m_ev.sources[o.where.source].path;
            r.format = m_ev.sources[o.where.source].format;
        }
        r.node = m_ev.nodeName(o.node);
        r.timeNs = o.timeNs;
        r.text = capped(o.text);
        return r;
    }

    /// The record of a verdict event: its first provenance (the copy the verdict kept).
    TracedRecord recordOfEvent(const Event& e) const
    {
        TracedRecord r;
        const Provenance& p = e.provenance.front();
        if (!m_metricIds.count(e.ruleId) && e.observation < m_ev.observations.size()
            && m_ev.observations[e.observation].where.source == p.source
            && m_ev.observations[e.observation].where.line == p.line)
            r = record(e.observation);
        else {
            r.observation = e.observation;
            r.line = p.line;
            r.byteOffset = p.byteOffset;
            if (p.source < m_ev.sources.size()) {
                r.path = m_ev.sources[p.source].path;
                r.format = m_ev.sources[p.source].format;
                r.kind = sourceKindName(m_ev.sources[p.source].kind);
            }
            r.timeNs = e.timeNs;
            r.text = capped(e.excerpt);
        }
        r.node = e.node == kNoNode ? std::string() : m_v.nodes.name(e.node);
        r.timeNs = e.timeNs;
        return r;
    }

    /// Whether a verdict event came (also) from the focus record.
    bool touchesFocus(const Event& e) const
    {
        if (!m_focusWhere)
            return true;
        const Provenance& f = *m_focusWhere;
        return std::any_of(e.provenance.begin(), e.provenance.end(),
            [&](const Provenance& p) { return p.source == f.source && p.line == f.line; });
    }

    std::string eventName(std::size_t k) const
    {
        const Event& e = m_v.events[k];
        return "#" + std::to_string(k) + " '" + e.label + "' (" + locationOf(e.provenance.front(), m_ev) + ")";
    }

    /// The part an event of the verdict plays in it.
    std::string partInVerdict(std::size_t k) const
    {
        if (m_v.hasCause && k == m_v.cause)
            return "the cause";
        if (k < m_v.causeOf.size() && m_v.causeOf[k] >= 0)
            return m_v.linkRelation[k] + " of " + eventName(static_cast<std::size_t>(m_v.causeOf[k])) + " via "
                + m_v.linkVia[k];
        for (const auto& a : m_v.alternatives)
            if (a.event == k)
                return "alternative: " + a.reason;
        for (const auto& t : m_v.trail)
            if (t.event == k)
                return t.why;
        std::size_t explains = 0;
        for (auto c : m_v.causeOf)
            explains += c == static_cast<std::int64_t>(k) ? 1u : 0u;
        const std::string role = roleName(m_v.events[k].role);
        if (explains > 0)
            return role + ", explains " + std::to_string(explains) + " event(s), not part of the cause's trail";
        return role + ", linked to nothing";
    }

    /// What became of an event the engine's extraction kept: the filter phase's steps, then the verdict.
    void resolveFate(TracedEvent& te, const std::string& rule, std::uint32_t observation, const Provenance& where)
    {
        if (auto it = m_steps.find(std::make_pair(rule, observation)); it != m_steps.end())
            for (const FilterStep* s : it->second) {
                switch (s->what) {
                case FilterStep::What::OutOfWindow:
                    te.fate = EventFate::OutOfWindow;
                    te.detail = "at " + formatUtc(s->timeNs) + ", outside the workload window "
                        + (m_recorded.windowLoNs == INT64_MIN ? std::string("(open)")
                                                              : formatUtc(m_recorded.windowLoNs))
                        + " .. "
                        + (m_recorded.windowHiNs == INT64_MAX ? std::string("(open)")
                                                              : formatUtc(m_recorded.windowHiNs))
                        + " (the job's scope widened by the catalog's scope margin)";
                    return;
                case FilterStep::What::OtherJob:
                    te.fate = EventFate::OtherJob;
                    te.detail = "its record names job " + s->job + "; the analysis is about job " + m_recorded.jobId;
                    return;
                case FilterStep::What::Dropped:
                    te.fate = EventFate::Dropped;
                    te.by = s->filter;
                    te.detail = "dropped by filter " + s->filter;
                    return;
                case FilterStep::What::Changed:
                    te.changedBy.push_back(s->filter + " (role " + roleName(s->role) + ")");
                    break;
                case FilterStep::What::TextMissed:
                    te.notes.push_back("filter " + s->filter
                        + " chose the event by its selector, but the record's text does not match the filter's text "
                          "pattern, so it did not apply");
                    break;
                }
            }
        if (auto it = m_byRecord.find(std::make_pair(rule, observation)); it != m_byRecord.end()) {
            te.fate = EventFate::Kept;
            te.verdictIndex = static_cast<std::int64_t>(it->second);
            te.inVerdict = partInVerdict(it->second);
            te.detail = "event #" + std::to_string(it->second) + " of the verdict";
            return;
        }
        if (auto it = m_merged.find(std::make_tuple(te.type, where.source, where.line)); it != m_merged.end()) {
            const Event& keep = m_v.events[it->second];
            te.fate = EventFate::Merged;
            te.verdictIndex = static_cast<std::int64_t>(it->second);
            te.by = locationOf(keep.provenance.front(), m_ev);
            te.inVerdict = partInVerdict(it->second);
            te.detail = "a duplicate of the copy at " + te.by + " (rule " + keep.ruleId
                + "), which the verdict keeps as #" + std::to_string(it->second)
                + ": copies of one event merge, the most precisely timed one stays";
            return;
        }
        te.fate = EventFate::Missing;
        te.detail = "not in the verdict, and no filter, window or duplicate accounts for it";
    }

    /// A near miss is listed while fewer than maxNearMisses of its clause are; all are counted.
    void addMiss(RuleTrace& t, ExtractorMiss m)
    {
        const std::string name = missClauseName(m.clause);
        if (t.missCounts[name]++ < m_request.maxNearMisses)
            t.misses.push_back(std::move(m));
    }

    /// Whether the engine runs extractor `index` on records of `kind`.
    bool runsOn(std::size_t index, SourceKind kind) const
    {
        const auto& idx = m_catalog.extractorsFor(kind);
        return m_catalog.prefilterFor(kind) && std::find(idx.begin(), idx.end(), index) != idx.end();
    }

    std::string readsText(const ExtractorRule& r) const
    {
        if (r.sources.empty())
            return "every kind";
        std::vector<std::string> k;
        for (SourceKind s : r.sources)
            k.emplace_back(sourceKindName(s));
        return joined(k);
    }

    std::string patternMissText(const PatternMiss& pm, std::string_view text, const std::string& lead) const
    {
        if (!pm.explained)
            return lead + ", but the pattern does not match";
        std::string what = pm.capture.empty() ? "the part `" + pm.failedPart + "`"
                                              : "the capture `" + pm.capture + "` (`" + pm.failedPart + "`)";
        std::string s = lead + ", but " + what + " did not match";
        if (pm.alternatives > 1)
            s += " (alternative " + std::to_string(pm.alternative + 1) + " of " + std::to_string(pm.alternatives)
                + " got furthest)";
        if (!pm.patternBefore.empty()) {
            // The pattern before the failure, its end kept when it is long.
            s += ": `" + tail(pm.patternBefore, 60) + "` matched '" + flat(tail(pm.matchedText, 60)) + "'";
        } else
            s += ": it is the pattern's first part";
        const std::string_view rest = text.substr(std::min(pm.textAt, text.size()));
        s += rest.empty() ? std::string(", then the record ends") : ", then came '" + flat(head(rest, 60)) + "'";
        return s;
    }

    RuleTrace traceExtractor(const ExtractorRule& rule)
    {
        RuleTrace t;
        t.id = rule.id;
        t.kind = TraceRuleKind::Extractor;
        t.origin = origin(rule.origin);
        t.description = rule.description;
        t.settings = { { "sources", readsText(rule) }, { "pattern", rule.patternText }, { "event", rule.eventType },
            { "role", roleName(rule.role) } };
        if (rule.precededBy)
            t.settings.emplace_back("preceded_by",
                rule.precededBy->pattern().substr(rule.precededBy->pattern().rfind("(?m)", 0) == 0 ? 4 : 0)
                    + " (lookback " + std::to_string(rule.lookback) + ")");
        if (!rule.supersedes.empty())
            t.settings.emplace_back("supersedes", joined(rule.supersedes));
        std::vector<std::string> supersededBy;
        for (const auto& other : m_catalog.extractors())
            if (std::find(other.supersedes.begin(), other.supersedes.end(), rule.id) != other.supersedes.end())
                supersededBy.push_back(other.id);
        if (!supersededBy.empty())
            t.settings.emplace_back("superseded_by", joined(supersededBy));

        // RE2's own literal prefilter for this pattern: the lower-case strings any match must contain.
        re2::FilteredRE2 literal(3);
        RE2::Options opts;
        opts.set_log_errors(false);
        opts.set_max_mem(8 << 20);
        int id = 0;
        const bool added = literal.Add("(?m)" + rule.patternText, opts, &id) == RE2::NoError;
        if (added)
            literal.Compile(&t.literals);
        const bool hasLiterals = added && !t.literals.empty();
        // Most records hold none of the literals: one case-insensitive RE2 scan over the record for any of them tells
        // so without lower-casing a copy of it. Latin-1 folding matches every byte-wise lower-case match (and a few
        // more, which then take the exact path below), so no record that holds a literal is skipped.
        std::unique_ptr<RE2> anyLiteral;
        bool potentialWithoutAtoms = false;
        std::vector<int> potential;
        if (hasLiterals) {
            std::string alternatives;
            for (const auto& l : t.literals)
                alternatives += (alternatives.empty() ? "" : "|") + RE2::QuoteMeta(l);
            RE2::Options any;
            any.set_log_errors(false);
            any.set_encoding(RE2::Options::EncodingLatin1);
            any.set_case_sensitive(false);
            any.set_max_mem(16 << 20);
            anyLiteral = std::make_unique<RE2>(alternatives, any);
            if (!anyLiteral->ok())
                anyLiteral.reset();
            literal.AllPotentials({}, &potential);
            potentialWithoutAtoms = !potential.empty();
        }
        if (!hasLiterals)
            t.notes.push_back("the pattern has no literal RE2 can require of a match, so records that nearly match it "
                              "are not searched (only those of a kind the rule does not read)");

        // Which kinds the rule runs on: the catalog's per-kind index (the engine's own choice).
        // Asked once per kind (a small table, as every record asks).
        std::array<signed char, static_cast<std::size_t>(SourceKind::Other) + 1> reads {};
        reads.fill(-1);
        const std::size_t self = m_extractorIndex.at(rule.id);
        auto readsKind = [&](SourceKind k) {
            signed char& r = reads[static_cast<std::size_t>(k)];
            if (r < 0)
                r = runsOn(self, k) ? 1 : 0;
            return r == 1;
        };

        PatternProbe probe(rule.patternText);
        ExtractionScratch scratch;
        std::vector<RawEvent> alone;
        std::vector<RawEvent> kept;
        std::string lower;
        std::vector<int> atoms;
        const std::span<const Observation> records(m_ev.observations);
        const std::size_t from = m_focus ? *m_focus : 0;
        const std::size_t to = m_focus ? *m_focus + 1 : records.size();
        for (std::size_t i = from; i < to; ++i) {
            const Observation& o = records[i];
            ++t.recordsScanned;
            const bool kindRead = readsKind(o.kind);
            if (kindRead)
                ++t.recordsRead;
            if (o.text.empty()) {
                if (m_focus)
                    addMiss(t,
                        { record(static_cast<std::uint32_t>(i)), MissClause::EmptyRecord, false, {},
                            "the record has no text" });
                continue;
            }
            bool mayMatch = true;
            if (hasLiterals && anyLiteral
                && !RE2::PartialMatch(re2::StringPiece(o.text.data(), o.text.size()), *anyLiteral)) {
                atoms.clear();
                mayMatch = potentialWithoutAtoms;
            } else if (hasLiterals) {
                lower.assign(o.text);
                for (auto& c : lower)
                    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
                atoms.clear();
                for (std::size_t a = 0; a < t.literals.size(); ++a)
                    if (lower.find(t.literals[a]) != std::string::npos)
                        atoms.push_back(static_cast<int>(a));
                literal.AllPotentials(atoms, &potential);
                mayMatch = !potential.empty();
            }
            if (!mayMatch && !m_focus)
                continue; // RE2 guarantees no match without the literals
            const bool matches =
                mayMatch && RE2::PartialMatch(re2::StringPiece(o.text.data(), o.text.size()), *rule.pattern);
            const auto rec = [&] { return record(static_cast<std::uint32_t>(i)); };
            if (!kindRead) {
                if (matches || m_focus) {
                    std::string d = std::string("the record is in a ") + sourceKindName(o.kind) + " source ("
                        + m_ev.sources[o.where.source].format + ") and the rule reads only " + readsText(rule);
                    d += matches ? ": its pattern matches the text" : "; its pattern does not match the text either";
                    addMiss(t, { rec(), MissClause::SourceKind, matches, {}, d });
                }
                continue;
            }
            if (!matches) {
                if (!mayMatch) {
                    // One record asked for: say what it lacks, and how far the pattern gets anyway.
                    ExtractorMiss m { rec(), MissClause::Literals, false, probe.explain(o.text), {} };
                    m.detail = patternMissText(m.pattern, o.text,
                        "the record lacks the literal(s) the pattern requires (" + quoted(t.literals) + ")");
                    addMiss(t, std::move(m));
                } else if (hasLiterals) {
                    ExtractorMiss m { rec(), MissClause::Pattern, false, {}, {} };
                    if (t.missCounts[missClauseName(MissClause::Pattern)] < m_request.maxNearMisses) {
                        m.pattern = probe.explain(o.text);
                        std::vector<std::string> found;
                        for (int a : atoms)
                            found.push_back(t.literals[static_cast<std::size_t>(a)]);
                        m.detail = patternMissText(m.pattern, o.text,
                            "the record holds the pattern's literal(s) " + quoted(found)
                                + ", so RE2's prefilter passes it");
                    }
                    addMiss(t, std::move(m));
                } else if (m_focus) {
                    ExtractorMiss m { rec(), MissClause::Pattern, false, probe.explain(o.text), {} };
                    m.detail = patternMissText(m.pattern, o.text, "the rule reads this kind of record");
                    addMiss(t, std::move(m));
                }
                continue;
            }
            ++t.recordsMatched;
            alone.clear();
            m_extraction.runRule(records, i, rule, alone);
            if (alone.empty()) {
                addMiss(t,
                    { rec(), MissClause::PrecededBy, true, {},
                        "the pattern matches, but its preceded_by context is not in this record nor in the "
                            + std::to_string(rule.lookback) + " record(s) before it in the same file" });
                continue;
            }
            const Event& made = alone.front().event;
            TracedEvent te;
            te.record = rec();
            te.rule = rule.id;
            te.type = made.type;
            te.label = made.label;
            te.role = roleName(made.role);
            for (const auto& x : rule.supersedes)
                if (auto it = m_extractorIndex.find(x); it != m_extractorIndex.end() && runsOn(it->second, o.kind)) {
                    std::vector<RawEvent> other;
                    m_extraction.runRule(records, i, m_catalog.extractors()[it->second], other);
                    if (!other.empty())
                        te.replaced.push_back(x);
                }
            kept.clear();
            m_extraction.runRecord(records, i, scratch, kept);
            const bool survives =
                std::any_of(kept.begin(), kept.end(), [&](const RawEvent& r) { return r.event.ruleId == rule.id; });
            if (!survives) {
                std::vector<std::string> by;
                for (const auto& r : kept)
                    if (auto it = m_extractorIndex.find(r.event.ruleId); it != m_extractorIndex.end()) {
                        const auto& s = m_catalog.extractors()[it->second].supersedes;
                        if (std::find(s.begin(), s.end(), rule.id) != s.end())
                            by.push_back(r.event.ruleId);
                    }
                te.fate = EventFate::Superseded;
                te.by = joined(by);
                te.detail = "replaced on this record by " + (by.empty() ? std::string("another rule") : te.by)
                    + ", which supersedes " + rule.id;
            } else {
                resolveFate(te, rule.id, static_cast<std::uint32_t>(i), o.where);
            }
            t.events.push_back(std::move(te));
        }
        for (const auto& [clause, n] : t.missCounts)
            if (n > m_request.maxNearMisses)
                t.notes.push_back("near misses (" + clause + "): the first " + std::to_string(m_request.maxNearMisses)
                    + " of " + std::to_string(n) + " are listed");
        return t;
    }

    RuleTrace traceMetric(const MetricRule& rule)
    {
        RuleTrace t;
        t.id = rule.id;
        t.kind = TraceRuleKind::Metric;
        t.origin = origin(rule.origin);
        t.description = rule.description;
        t.settings = { { "metric", rule.metricText }, { "event", rule.eventType }, { "role", roleName(rule.role) } };
        std::size_t named = 0;
        for (const auto& s : m_ev.metrics)
            named += RE2::FullMatch(s.name, *rule.metric) ? 1u : 0u;
        t.findings.push_back(std::to_string(named) + " of " + std::to_string(m_ev.metrics.size())
            + " metric series have a name the rule's metric pattern matches");
        for (auto& raw : m_extraction.runMetrics(m_ev.metrics)) {
            const Event& e = raw.event;
            if (e.ruleId != rule.id)
                continue;
            TracedEvent te;
            te.record.observation = e.observation;
            te.record.line = e.provenance.front().line;
            te.record.byteOffset = e.provenance.front().byteOffset;
            if (e.provenance.front().source < m_ev.sources.size()) {
                te.record.path = m_ev.sources[e.provenance.front().source].path;
                te.record.format = m_ev.sources[e.provenance.front().source].format;
            }
            te.record.kind = sourceKindName(SourceKind::Metrics);
            te.record.node = m_ev.nodeName(e.node);
            te.record.timeNs = e.timeNs;
            te.record.text = capped(e.excerpt);
            te.rule = rule.id;
            te.type = e.type;
            te.label = e.label;
            te.role = roleName(e.role);
            if (m_focusWhere
                && (m_focusWhere->source != e.provenance.front().source
                    || m_focusWhere->line != e.provenance.front().line))
                continue;
            resolveFate(te, rule.id, e.observation, e.provenance.front());
            t.events.push_back(std::move(te));
        }
        t.recordsMatched = t.events.size();
        return t;
    }

    /// A verdict event, or an event the filter phase saw (by its rule and record), as a traced event.
    TracedEvent eventOfStep(const FilterStep& s) const
    {
        TracedEvent te;
        te.rule = s.eventRule;
        te.type = s.type;
        te.label = s.label;
        te.role = roleName(s.role);
        if (!m_metricIds.count(s.eventRule) && s.observation < m_ev.observations.size())
            te.record = record(s.observation);
        te.record.timeNs = s.timeNs;
        return te;
    }

    Provenance whereOfStep(const FilterStep& s) const
    {
        if (m_metricIds.count(s.eventRule))
            return s.observation < m_ev.metrics.size() ? m_ev.metrics[s.observation].where : Provenance {};
        return s.observation < m_ev.observations.size() ? m_ev.observations[s.observation].where : Provenance {};
    }

    bool stepTouchesFocus(const FilterStep& s) const
    {
        const Provenance w = whereOfStep(s);
        return w.source == m_focusWhere->source && w.line == m_focusWhere->line;
    }

    RuleTrace traceFilter(const FilterRule& rule)
    {
        RuleTrace t;
        t.id = rule.id;
        t.kind = TraceRuleKind::Filter;
        t.origin = origin(rule.origin);
        t.description = rule.description;
        const char* action = rule.action == FilterRule::Action::Drop ? "drop"
            : rule.action == FilterRule::Action::Suppress            ? "suppress"
                                                                     : "set-role";
        t.settings = { { "when", selectorText(rule.when) }, { "action", action } };
        if (rule.text)
            t.settings.emplace_back("text", rule.text->pattern());
        if (rule.action == FilterRule::Action::SetRole)
            t.settings.emplace_back("role", roleName(rule.role));
        if (!rule.reason.empty())
            t.settings.emplace_back("reason", rule.reason);
        for (const auto& s : m_recorded.steps) {
            if (s.filter != rule.id)
                continue;
            if (m_focusWhere && !stepTouchesFocus(s))
                continue;
            TracedEvent te = eventOfStep(s);
            if (s.what == FilterStep::What::TextMissed) {
                te.detail = "its selector chose the event, but the record's text does not match the filter's text "
                            "pattern";
                if (t.missCounts["text"]++ < m_request.maxNearMisses)
                    t.filterMisses.push_back(std::move(te));
                continue;
            }
            if (s.what == FilterStep::What::Dropped) {
                te.fate = EventFate::Dropped;
                te.by = rule.id;
                te.detail = "dropped";
            } else if (s.what == FilterStep::What::Changed) {
                te.changedBy.push_back(rule.id + " (role " + roleName(s.role) + ")");
                resolveFate(te, s.eventRule, s.observation, whereOfStep(s));
            } else {
                continue;
            }
            t.events.push_back(std::move(te));
        }
        if (t.missCounts["text"] > m_request.maxNearMisses)
            t.notes.push_back("events its selector chose but its text pattern did not match: the first "
                + std::to_string(m_request.maxNearMisses) + " of " + std::to_string(t.missCounts["text"])
                + " are listed");
        if (t.missCounts["text"] == 0)
            t.missCounts.erase("text");
        return t;
    }

    std::int64_t skewOf(NodeId node) const
    {
        auto it = m_recorded.skew.find(node);
        return it == m_recorded.skew.end() ? 0 : it->second;
    }

    bool reaches(std::size_t from, std::size_t target) const
    {
        for (std::int64_t k = static_cast<std::int64_t>(from); k >= 0; k = m_v.causeOf[static_cast<std::size_t>(k)])
            if (static_cast<std::size_t>(k) == target)
                return true;
        return false;
    }

    std::string nodeOf(const Event& e) const { return e.node == kNoNode ? std::string() : m_v.nodes.name(e.node); }

    /// The first failed clause of a link, in words.
    std::string clauseText(
        const Correlator& corr, const Event& cause, const Event& s, const LinkCheck& c, std::int64_t& excess) const
    {
        excess = 0;
        switch (c.clause) {
        case LinkClause::Holds:
            return "every clause holds";
        case LinkClause::Untimed:
            return std::string(cause.timeNs == INT64_MIN ? "the cause" : "the symptom")
                + " has no time and the two records are in different files: untimed events are related only by "
                  "line order within one file";
        case LinkClause::LineOrder:
            return corr.relation == "precursor"
                ? "untimed: a precursor must come before the cause in their file, and line "
                    + std::to_string(s.provenance.front().line) + " comes after line "
                    + std::to_string(cause.provenance.front().line)
                : "untimed: a symptom must come at or after the cause in their file, and line "
                    + std::to_string(s.provenance.front().line) + " comes before line "
                    + std::to_string(cause.provenance.front().line);
        case LinkClause::Window: {
            const std::int64_t hi = corr.afterNs + c.slackNs;
            const std::int64_t lo = -(corr.beforeNs + c.slackNs);
            excess = c.deltaNs > hi ? c.deltaNs - hi : lo - c.deltaNs;
            std::string s1 = "outside the correlator's window by " + span(excess) + ": the symptom came "
                + span(c.deltaNs) + (c.deltaNs >= 0 ? " after" : " before") + " the cause, the window is "
                + windowText(corr.beforeNs, corr.afterNs);
            if (c.slackNs > 0)
                s1 += " widened by " + span(c.slackNs) + " of time precision";
            return s1;
        }
        case LinkClause::Nodes: {
            const std::string cn = nodeOf(cause);
            const std::string sn = nodeOf(s);
            switch (corr.nodes) {
            case Correlator::Nodes::Other:
                return "other node required, same node found ("
                    + (cn.empty() ? std::string("neither event names a node") : "both on " + cn) + ")";
            case Correlator::Nodes::SameGpu:
                if (!cn.empty() && cn == sn)
                    return "same GPU required, other GPU found (cause on " + cause.gpu + ", symptom on " + s.gpu
                        + ", both on " + cn + ")";
                [[fallthrough]];
            case Correlator::Nodes::Same:
                if (cn.empty() && sn.empty())
                    return std::string(corr.nodes == Correlator::Nodes::SameGpu ? "same GPU" : "same node")
                        + " required; neither event names a node"
                        + (corr.nodes == Correlator::Nodes::Same ? " and their ranks differ or are unknown" : "");
                if (cn.empty() || sn.empty())
                    return std::string(corr.nodes == Correlator::Nodes::SameGpu ? "same GPU" : "same node")
                        + " required; the " + (cn.empty() ? "cause" : "symptom") + " names no node";
                return std::string(corr.nodes == Correlator::Nodes::SameGpu ? "same GPU" : "same node")
                    + " required, other node found (cause on " + cn + ", symptom on " + sn + ")";
            case Correlator::Nodes::Unnamed:
                if (cn.empty())
                    return std::string("a cause on a named node required; the cause names no node");
                return "a symptom that names no node required, symptom on " + sn;
            case Correlator::Nodes::Any:
                break;
            }
            return "the node relation does not hold";
        }
        case LinkClause::RootOrder:
            return "the symptom is root-capable and the cause candidate comes after it in the engine's event order: a "
                   "root event is only explained by an earlier one";
        }
        return {};
    }

    RuleTrace traceCorrelator(const Correlator& corr)
    {
        RuleTrace t;
        t.id = corr.id;
        t.kind = TraceRuleKind::Correlator;
        t.origin = origin(corr.origin);
        t.description = corr.description;
        t.windowBeforeNs = corr.beforeNs;
        t.windowAfterNs = corr.afterNs;
        t.settings = { { "cause", selectorText(corr.cause) }, { "symptom", selectorText(corr.symptom) },
            { "window", windowText(corr.beforeNs, corr.afterNs) }, { "nodes", nodesName(corr.nodes) },
            { "relation", corr.relation } };
        const auto& ev = m_v.events;
        std::vector<std::size_t> causes;
        std::vector<std::size_t> symptoms;
        for (std::size_t k = 0; k < ev.size(); ++k) {
            if (corr.cause.matches(ev[k]))
                causes.push_back(k);
            if (corr.symptom.matches(ev[k]))
                symptoms.push_back(k);
        }
        t.causeCandidates = causes.size();
        t.symptomCandidates = symptoms.size();
        if (causes.empty())
            t.findings.push_back("no event of the verdict matches the cause selector (" + selectorText(corr.cause)
                + "): the correlator had nothing to link to");
        if (symptoms.empty())
            t.findings.push_back(
                "no event of the verdict matches the symptom selector (" + selectorText(corr.symptom) + ")");
        const auto skew = [this](NodeId n) { return skewOf(n); };
        const std::set<std::size_t> focusCauses = [&] {
            std::set<std::size_t> s;
            if (m_focusWhere)
                for (std::size_t j : causes)
                    if (touchesFocus(ev[j]))
                        s.insert(j);
            return s;
        }();
        struct Ranked
        {
            int progress = 0;
            std::int64_t closeness = 0;
            CorrelationMiss miss;
        };
        std::vector<Ranked> misses;
        for (std::size_t i : symptoms) {
            const bool symptomInFocus = touchesFocus(ev[i]);
            if (m_focusWhere && !symptomInFocus && focusCauses.empty())
                continue;
            if (m_v.linkVia[i] == corr.id && m_v.causeOf[i] >= 0) {
                const auto j = static_cast<std::size_t>(m_v.causeOf[i]);
                if (m_focusWhere && !symptomInFocus && !focusCauses.count(j))
                    continue;
                const LinkCheck c =
                    checkLink(corr, ev[j], j, ev[i], i, skew, fromOneHostLog(ev[j], ev[i], m_ev.sources));
                TracedLink l;
                l.cause = j;
                l.symptom = i;
                l.causeRecord = recordOfEvent(ev[j]);
                l.symptomRecord = recordOfEvent(ev[i]);
                l.causeLabel = ev[j].label;
                l.symptomLabel = ev[i].label;
                l.byOrder = c.byOrder;
                l.deltaNs = c.deltaNs;
                l.slackNs = c.slackNs;
                t.links.push_back(std::move(l));
                continue;
            }
            // The nearest cause candidate: the one that got furthest through the clauses, then the closest in time.
            Ranked best;
            bool have = false;
            for (std::size_t j : causes) {
                if (j == i || (m_focusWhere && !symptomInFocus && !focusCauses.count(j)))
                    continue;
                const LinkCheck c =
                    checkLink(corr, ev[j], j, ev[i], i, skew, fromOneHostLog(ev[j], ev[i], m_ev.sources));
                Ranked r;
                r.progress = c.clause == LinkClause::Holds ? 3
                    : c.clause == LinkClause::RootOrder    ? 2
                    : c.clause == LinkClause::Nodes        ? 1
                                                           : 0;
                std::int64_t excess = 0;
                r.miss.detail = clauseText(corr, ev[j], ev[i], c, excess);
                r.closeness = c.clause == LinkClause::Window ? excess : std::llabs(c.deltaNs);
                if (have
                    && (r.progress < best.progress || (r.progress == best.progress && r.closeness >= best.closeness)))
                    continue;
                have = true;
                r.miss.cause = j;
                r.miss.clause = c.clause;
                r.miss.deltaNs = c.deltaNs;
                r.miss.excessNs = excess;
                best = std::move(r);
            }
            if (!have && (causes.empty() || (causes.size() == 1 && causes.front() == i)))
                continue; // said once above: nothing to link to
            if (!have)
                continue;
            CorrelationMiss& m = best.miss;
            m.symptom = i;
            m.symptomRecord = recordOfEvent(ev[i]);
            m.symptomLabel = ev[i].label;
            m.causeCandidates = causes.size() - (std::find(causes.begin(), causes.end(), i) != causes.end() ? 1 : 0);
            m.causeRecord = recordOfEvent(ev[*m.cause]);
            m.causeLabel = ev[*m.cause].label;
            if (m_v.causeOf[i] >= 0) {
                const auto k = static_cast<std::size_t>(m_v.causeOf[i]);
                m.linkedInstead = m_v.linkRelation[i] + " of " + eventName(k) + " via " + m_v.linkVia[i];
                if (m.clause == LinkClause::Holds) {
                    const bool member = std::any_of(m_catalog.aggregates().begin(), m_catalog.aggregates().end(),
                        [&](const AggregateRule& a) { return a.id == m_v.linkVia[i]; });
                    m.detail = member ? "every clause holds against " + eventName(*m.cause)
                            + ", but the event belongs to aggregate " + m_v.linkVia[i]
                            + " (events an aggregate was read from are linked to it before any correlator runs)"
                                      : "every clause holds against " + eventName(*m.cause)
                            + ", but the engine linked the event to an earlier cause, " + eventName(k) + " via "
                            + m_v.linkVia[i] + " (the earliest cause any correlator allows wins)";
                }
            } else if (m.clause == LinkClause::Holds) {
                m.detail = reaches(*m.cause, i) ? "every clause holds, but the link would close a loop: "
                        + eventName(*m.cause) + " is itself explained through this event"
                                                : "every clause holds against " + eventName(*m.cause)
                        + " now, but when the engine reached this event the link would have closed a loop";
            }
            misses.push_back(std::move(best));
        }
        for (const auto& r : misses)
            ++t.missCounts[linkClauseName(r.miss.clause)];
        std::stable_sort(misses.begin(), misses.end(), [](const Ranked& a, const Ranked& b) {
            return a.progress != b.progress ? a.progress > b.progress : a.closeness < b.closeness;
        });
        for (std::size_t k = 0; k < misses.size() && k < m_request.maxNearMisses; ++k)
            t.linkMisses.push_back(std::move(misses[k].miss));
        if (misses.size() > m_request.maxNearMisses)
            t.notes.push_back("unlinked symptom candidates: the " + std::to_string(m_request.maxNearMisses)
                + " nearest of " + std::to_string(misses.size()) + " are listed");
        if (!m_recorded.skew.empty())
            t.notes.push_back("times across nodes are compared on clocks aligned by the verdict's skew estimate, as "
                              "the engine compares them");
        return t;
    }

    RuleTrace traceAggregate(const AggregateRule& rule)
    {
        RuleTrace t;
        t.id = rule.id;
        t.kind = TraceRuleKind::Aggregate;
        t.origin = origin(rule.origin);
        t.description = rule.description;
        t.settings = { { "over", selectorText(rule.over) }, { "group_by", joined(rule.groupBy) },
            { "distinct", rule.distinct }, { "at_least", std::to_string(rule.atLeast) }, { "event", rule.eventType },
            { "members", rule.members },
            { "locate", rule.locate == AggregateRule::Locate::Minority ? "minority" : "record" } };
        const auto& ev = m_v.events;
        std::size_t over = 0;
        for (std::size_t k = 0; k < ev.size(); ++k) {
            if (rule.over.matches(ev[k]))
                ++over;
            if (ev[k].ruleId == rule.id && touchesFocus(ev[k])) {
                TracedEvent te;
                te.record = recordOfEvent(ev[k]);
                te.rule = rule.id;
                te.type = ev[k].type;
                te.label = ev[k].label;
                te.role = roleName(ev[k].role);
                te.verdictIndex = static_cast<std::int64_t>(k);
                te.inVerdict = partInVerdict(k);
                te.detail = "event #" + std::to_string(k) + " of the verdict";
                t.events.push_back(std::move(te));
            }
            if (m_v.linkVia[k] == rule.id && m_v.causeOf[k] >= 0) {
                const auto a = static_cast<std::size_t>(m_v.causeOf[k]);
                if (!touchesFocus(ev[k]) && !touchesFocus(ev[a]))
                    continue;
                TracedLink l;
                l.cause = a;
                l.symptom = k;
                l.causeRecord = recordOfEvent(ev[a]);
                l.symptomRecord = recordOfEvent(ev[k]);
                l.causeLabel = ev[a].label;
                l.symptomLabel = ev[k].label;
                if (ev[a].timeNs != INT64_MIN && ev[k].timeNs != INT64_MIN)
                    l.deltaNs = ev[k].orderTimeNs() - ev[a].orderTimeNs();
                t.links.push_back(std::move(l));
            }
        }
        t.findings.push_back(std::to_string(over) + " event(s) of the verdict match its 'over' selector");
        t.notes.push_back("groups that fell short of at_least are not traced");
        return t;
    }

    RuleTrace traceHypothesis(const HypothesisRule& rule)
    {
        RuleTrace t;
        t.id = rule.id;
        t.kind = TraceRuleKind::Hypothesis;
        t.origin = origin(rule.origin);
        t.description = rule.description;
        t.settings = { { "domain", domainPath(rule.domain, rule.subdomain) }, { "label", rule.label } };
        for (const auto& s : rule.support) {
            char w[16];
            std::snprintf(w, sizeof w, "%.2f", s.weight);
            t.settings.emplace_back("support", selectorText(s.when) + " (weight " + w + ")");
        }
        const auto& cands = m_v.hypotheses.candidates;
        const auto it =
            std::find_if(cands.begin(), cands.end(), [&](const HypothesisCandidate& c) { return c.id == rule.id; });
        if (m_v.hasCause) {
            t.findings.push_back("not ranked: the verdict has an initiating event, and hypotheses are ranked only "
                                 "without one");
            return t;
        }
        if (it == cands.end()) {
            t.findings.push_back("no symptom of the terminal failure episode matches any of its support selectors");
            return t;
        }
        char sup[16];
        std::snprintf(sup, sizeof sup, "%.2f", it->support);
        const bool leads = m_v.hypotheses.leading && it == cands.begin();
        t.findings.push_back(std::string("support ") + sup + ", ranked " + std::to_string(it - cands.begin() + 1)
            + " of " + std::to_string(cands.size()) + (leads ? ": the leading hypothesis" : "") + " ("
            + m_v.hypotheses.basis + ")");
        for (const auto& e : it->evidence) {
            char w[16];
            std::snprintf(w, sizeof w, "%.2f", e.weight);
            t.findings.push_back(
                std::to_string(e.count) + "x " + e.type + " '" + e.label + "' (weight " + w + "): " + e.why);
            for (std::size_t k : e.events) {
                if (!touchesFocus(m_v.events[k]) || t.events.size() >= m_request.maxNearMisses)
                    continue;
                TracedEvent te;
                te.record = recordOfEvent(m_v.events[k]);
                te.rule = m_v.events[k].ruleId;
                te.type = m_v.events[k].type;
                te.label = m_v.events[k].label;
                te.role = roleName(m_v.events[k].role);
                te.verdictIndex = static_cast<std::int64_t>(k);
                te.inVerdict = partInVerdict(k);
                te.detail = "supports the hypothesis";
                t.events.push_back(std::move(te));
            }
        }
        return t;
    }

    const EvidenceSet& m_ev;
    const RuleCatalog& m_catalog;
    const Verdict& m_v;
    const AnalysisTrace& m_recorded;
    const TraceRequest& m_request;
    Extraction m_extraction;
    std::optional<std::uint32_t> m_focus; ///< the record asked about
    std::optional<Provenance> m_focusWhere; ///< where it is (also set when it is a metric series, not a record)
    std::map<std::pair<std::string, std::uint32_t>, std::size_t> m_byRecord; ///< (rule, record) → verdict event
    std::map<std::tuple<std::string, std::uint32_t, std::uint64_t>, std::size_t>
        m_merged; ///< (type, file, line) of a merged copy → the kept event
    std::map<std::pair<std::string, std::uint32_t>, std::vector<const FilterStep*>> m_steps;
    std::map<std::string, std::size_t> m_extractorIndex;
    std::set<std::string> m_metricIds;
};

} // namespace

std::vector<std::string> closeRuleIds(const RuleCatalog& catalog, const std::string& id, std::size_t max)
{
    std::vector<std::pair<std::size_t, std::string>> scored;
    for (const auto& r : allRuleIds(catalog)) {
        const std::size_t d = editDistance(id, r);
        const bool contains = !id.empty() && (r.find(id) != std::string::npos || id.find(r) != std::string::npos);
        if (contains || d <= std::max<std::size_t>(2, id.size() / 3))
            scored.emplace_back(contains ? 0 : d, r);
    }
    std::sort(scored.begin(), scored.end());
    std::vector<std::string> out;
    for (std::size_t k = 0; k < scored.size() && out.size() < max; ++k)
        out.push_back(scored[k].second);
    return out;
}

bool checkTraceRequest(const RuleCatalog& catalog, const TraceRequest& request, std::vector<Diagnostic>& errors)
{
    if (request.ruleId.empty() && request.path.empty()) {
        errors.push_back(
            makeDiagnostic(Severity::Error, "nothing-to-trace", "name a rule, a record (path and line), or both", {}));
        return false;
    }
    if (!request.path.empty() && request.line == 0) {
        errors.push_back(makeDiagnostic(Severity::Error, "bad-line", "lines are numbered from 1", request.path));
        return false;
    }
    if (request.ruleId.empty())
        return true;
    const auto ids = allRuleIds(catalog);
    if (std::find(ids.begin(), ids.end(), request.ruleId) != ids.end())
        return true;
    const auto close = closeRuleIds(catalog, request.ruleId);
    Diagnostic d = makeDiagnostic(Severity::Error, "unknown-rule",
        "no such rule in the catalog " + catalog.name() + " " + catalog.version()
            + (close.empty() ? std::string() : "; did you mean " + joined(close, ", ") + "?"),
        catalog.root());
    d.ruleId = request.ruleId;
    errors.push_back(std::move(d));
    return false;
}

std::string traceScope(const TraceRequest& request)
{
    return request.ruleId;
}

std::optional<TraceReport> explainRules(const EvidenceSet& evidence, const RuleCatalog& catalog, const Verdict& verdict,
    const AnalysisTrace& recorded, const TraceRequest& request, std::vector<Diagnostic>& errors)
{
    if (!checkTraceRequest(catalog, request, errors))
        return std::nullopt;
    TraceReport report;
    Tracer tracer(evidence, catalog, verdict, recorded, request);
    if (!tracer.resolveFocus(report, errors))
        return std::nullopt;
    tracer.run(report);
    return report;
}

std::optional<TraceReport> traceRules(const EvidenceSet& evidence, const RuleCatalog& catalog,
    const TraceRequest& request, AnalysisOptions options, std::vector<Diagnostic>& errors, Verdict* verdict)
{
    if (!checkTraceRequest(catalog, request, errors))
        return std::nullopt;
    AnalysisTrace recorded;
    recorded.ruleId = traceScope(request);
    options.trace = &recorded;
    Verdict v = analyze(evidence, catalog, options);
    auto report = explainRules(evidence, catalog, v, recorded, request, errors);
    if (verdict)
        *verdict = std::move(v);
    return report;
}

} // namespace faultline::core
