// SPDX-License-Identifier: Apache-2.0
#include "app/usecases/explain.h"

#include "core/analysis/analyzer.h"
#include "core/time/civil_time.h"
#include "core/util/json_writer.h"

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace faultline::usecases {

namespace {

/// A case is a *.faultline file or an SQLite database; anything else is evidence.
bool isCaseFile(const std::string& path)
{
    std::error_code ec;
    if (fs::path(path).extension() == ".faultline")
        return true;
    if (!fs::is_regular_file(path, ec))
        return false;
    std::ifstream in(path, std::ios::binary);
    char head[16] = {};
    in.read(head, sizeof head);
    return in.gcount() == sizeof head
        && std::string_view(head, sizeof head) == std::string_view("SQLite format 3\0", 16);
}

Result<Explanation> usage(std::vector<core::Diagnostic> errors)
{
    std::string message = errors.empty() ? std::string("nothing to explain") : errors.front().message;
    if (!errors.empty() && errors.front().code == "unknown-rule")
        message = "unknown rule '" + errors.front().ruleId + "'";
    return Result<Explanation>::fail(Exit::Usage, message, std::move(errors));
}

} // namespace

Result<Explanation> explainRule(const ExplainRequest& request, const Task& task)
{
    if (request.paths.empty())
        return Result<Explanation>::fail(Exit::Usage, "no case or bundle given");
    core::TraceRequest trace;
    trace.ruleId = request.ruleId;
    trace.path = request.linePath;
    trace.line = request.line;
    trace.maxNearMisses = request.maxNearMisses;
    Explanation out;
    out.input = request.paths.front();
    out.isCase = request.paths.size() == 1 && isCaseFile(request.paths.front());
    std::vector<core::Diagnostic> errors;
    if (out.isCase) {
        ReproduceRequest r;
        r.casePath = request.paths.front();
        r.rules = request.currentRules ? Rules::Current : Rules::Stored;
        r.currentRulesDir = request.sources.root;
        r.currentPackDirs = request.sources.packDirs;
        r.threads = request.threads;
        r.readOnly = true;
        auto a = reproduceCase(r, task);
        if (!a.ok())
            return Result<Explanation>::fail(a.failure.code, a.failure.message, a.failure.diagnostics);
        out.analysis = std::move(*a.value);
        out.rulesOrigin = out.analysis.rulesOrigin;
    } else {
        // The rule is checked against the catalog before the evidence is read; the analysis uses the same catalog.
        auto loaded = core::RuleCatalog::load(request.sources);
        if (!loaded.ok())
            return Result<Explanation>::fail(Exit::Catalog, catalogErrorsMessage(request.sources), loaded.diagnostics);
        if (!core::checkTraceRequest(*loaded.catalog, trace, errors))
            return usage(std::move(errors));
        BundleRequest b;
        b.paths = request.paths;
        b.rulesDir = request.sources.root;
        b.packDirs = request.sources.packDirs;
        b.catalog = loaded.catalog;
        b.jobId = request.jobId;
        b.threads = request.threads;
        auto a = analyseBundle(b, task);
        if (!a.ok())
            return Result<Explanation>::fail(a.failure.code, a.failure.message, a.failure.diagnostics);
        out.analysis = std::move(a.value->analysis);
        out.analysis.catalogWarnings = loaded.diagnostics;
        out.rulesOrigin = out.analysis.rulesDir;
    }
    if (task.cancelled())
        return Result<Explanation>::fail(Exit::Cancelled, "cancelled");
    task.report(90, "Tracing " + (request.ruleId.empty() ? std::string("every rule") : request.ruleId));
    // The engine runs once more over the same evidence, recording what it did; the analysis above ran without.
    core::AnalysisOptions options;
    options.threads = request.threads;
    options.windowFromNs = out.analysis.windowFromNs;
    options.windowToNs = out.analysis.windowToNs;
    options.cancel = task.cancel;
    auto verdict = std::make_shared<core::Verdict>();
    auto report =
        core::traceRules(*out.analysis.evidence, *out.analysis.catalog, trace, options, errors, verdict.get());
    if (task.cancelled())
        return Result<Explanation>::fail(Exit::Cancelled, "cancelled");
    if (!report) {
        // A case's own rules were read from a temporary copy: the case is where they are.
        for (auto& d : errors)
            if (out.isCase && d.code == "unknown-rule" && out.analysis.rulesOrigin != "current rules")
                d.where.file = out.input + " (" + out.rulesOrigin + ")";
        return usage(std::move(errors));
    }
    out.trace = std::move(*report);
    out.analysis.verdict = std::move(verdict);
    task.report(100, "Done");
    Result<Explanation> result;
    result.value = std::move(out);
    return result;
}

// --- text ------------------------------------------------------------------------------------------------------

namespace {

std::string where(const core::TracedRecord& r)
{
    return r.path.empty() ? std::string("-") : r.path + ":" + std::to_string(r.line);
}

std::string oneLine(const std::string& s, std::size_t max = 160)
{
    std::string out = core::escapeForDisplay(s.substr(0, s.find('\n')));
    if (out.size() > max)
        out = out.substr(0, max) + "…";
    else if (s.find('\n') != std::string::npos)
        out += " …";
    return out;
}

std::string countsOf(const std::map<std::string, std::size_t>& counts)
{
    std::string s;
    for (const auto& [k, n] : counts)
        s += (s.empty() ? "" : ", ") + std::to_string(n) + " " + k;
    return s;
}

/// Lists at most `max` items, then says how many more the JSON holds.
template <class T, class F> void listed(std::string& out, const std::vector<T>& items, std::size_t max, F line)
{
    for (std::size_t k = 0; k < items.size() && k < max; ++k)
        line(items[k]);
    if (items.size() > max)
        out += "  … " + std::to_string(items.size() - max) + " more (--json lists every one)\n";
}

std::string eventLine(const core::TracedEvent& e)
{
    std::string s = "  " + where(e.record) + "  " + oneLine(e.label, 100) + " {" + e.type + "} [" + e.role + "]";
    switch (e.fate) {
    case core::EventFate::Kept:
        s += " → kept as #" + std::to_string(e.verdictIndex) + ": " + e.inVerdict;
        break;
    case core::EventFate::Merged:
        s += " → merged into " + e.by + " (#" + std::to_string(e.verdictIndex) + ")";
        break;
    case core::EventFate::OutOfWindow:
    case core::EventFate::OtherJob:
    case core::EventFate::Dropped:
    case core::EventFate::Superseded:
    case core::EventFate::Missing:
        s += std::string(" → ") + core::eventFateName(e.fate) + ": " + e.detail;
        break;
    }
    s += '\n';
    for (const auto& c : e.changedBy)
        s += "      changed by filter " + c + '\n';
    for (const auto& r : e.replaced)
        s += "      replaced " + r + "'s event on this record (supersedes)\n";
    for (const auto& n : e.notes)
        s += "      note: " + n + '\n';
    return s;
}

void ruleText(std::string& out, const core::RuleTrace& t, std::size_t max)
{
    using core::TraceRuleKind;
    out += "rule " + t.id + " (" + core::traceRuleKindName(t.kind) + ", " + t.origin + ")\n";
    if (!t.description.empty())
        out += "  " + oneLine(t.description, 200) + '\n';
    for (const auto& [k, v] : t.settings)
        out += "  " + k + ": " + oneLine(v, 200) + '\n';
    if (t.kind == TraceRuleKind::Extractor) {
        std::string lits;
        for (const auto& l : t.literals)
            lits += (lits.empty() ? "'" : ", '") + core::escapeForDisplay(l) + "'";
        out += "  prefilter literals: " + (lits.empty() ? std::string("none") : lits) + '\n';
        out += "records: " + std::to_string(t.recordsScanned) + " looked at, " + std::to_string(t.recordsRead)
            + " of a kind it reads, " + std::to_string(t.recordsMatched) + " matched\n";
    }
    for (const auto& f : t.findings)
        out += "  " + f + '\n';
    if (t.kind == TraceRuleKind::Correlator)
        out += "candidates: " + std::to_string(t.causeCandidates) + " cause(s), " + std::to_string(t.symptomCandidates)
            + " symptom(s)\n";
    if (t.kind != TraceRuleKind::Correlator && t.kind != TraceRuleKind::Hypothesis) {
        std::map<std::string, std::size_t> fates;
        for (const auto& e : t.events)
            ++fates[core::eventFateName(e.fate)];
        out += (t.kind == TraceRuleKind::Filter ? "events it acted on (" : "events (") + std::to_string(t.events.size())
            + ")" + (fates.empty() ? std::string() : ": " + countsOf(fates)) + '\n';
        listed(out, t.events, max, [&](const core::TracedEvent& e) { out += eventLine(e); });
    } else if (!t.events.empty()) {
        out += "supporting events (" + std::to_string(t.events.size()) + ")\n";
        listed(out, t.events, max, [&](const core::TracedEvent& e) { out += eventLine(e); });
    }
    if (!t.filterMisses.empty()) {
        out += "selector chose, text did not match ("
            + std::to_string(t.missCounts.count("text") ? t.missCounts.at("text") : 0) + ")\n";
        listed(out, t.filterMisses, max, [&](const core::TracedEvent& e) {
            out += "  " + where(e.record) + "  " + oneLine(e.label, 100) + " {" + e.type + "}\n";
        });
    }
    if (t.kind == TraceRuleKind::Correlator || t.kind == TraceRuleKind::Aggregate) {
        out += (t.kind == TraceRuleKind::Aggregate ? "members linked (" : "links (") + std::to_string(t.links.size())
            + ")\n";
        listed(out, t.links, max, [&](const core::TracedLink& l) {
            out += "  #" + std::to_string(l.cause) + " " + where(l.causeRecord) + " → #" + std::to_string(l.symptom)
                + " " + where(l.symptomRecord) + "  "
                + (l.byOrder ? std::string("by line order (untimed)") : core::formatDelta(l.deltaNs))
                + (t.kind == TraceRuleKind::Correlator ? "  (window " + core::formatDelta(-t.windowBeforeNs) + " .. "
                            + core::formatDelta(t.windowAfterNs) + ")"
                                                       : std::string())
                + "\n      " + oneLine(l.causeLabel, 70) + " → " + oneLine(l.symptomLabel, 70) + '\n';
        });
    }
    if (t.kind == TraceRuleKind::Correlator) {
        std::size_t all = 0;
        for (const auto& [k, n] : t.missCounts)
            all += n;
        out += "not linked (" + std::to_string(all) + ")" + (all ? ": " + countsOf(t.missCounts) : std::string())
            + (all ? ", nearest first\n" : "\n");
        listed(out, t.linkMisses, max, [&](const core::CorrelationMiss& m) {
            out += "  #" + std::to_string(m.symptom) + " " + where(m.symptomRecord) + "  " + oneLine(m.symptomLabel, 90)
                + (m.symptomRecord.node.empty() ? std::string() : " on " + m.symptomRecord.node) + '\n';
            if (m.cause)
                out += "      vs cause #" + std::to_string(*m.cause) + " " + where(m.causeRecord)
                    + (m.causeRecord.node.empty() ? std::string() : " on " + m.causeRecord.node) + " (nearest of "
                    + std::to_string(m.causeCandidates) + "): " + m.detail + '\n';
            if (!m.linkedInstead.empty() && m.clause != core::LinkClause::Holds)
                out += "      linked instead as " + m.linkedInstead + '\n';
        });
    }
    if (t.kind == TraceRuleKind::Extractor) {
        std::size_t all = 0;
        for (const auto& [k, n] : t.missCounts)
            all += n;
        out +=
            "near misses (" + std::to_string(all) + ")" + (all ? ": " + countsOf(t.missCounts) : std::string()) + '\n';
        listed(out, t.misses, max, [&](const core::ExtractorMiss& m) {
            out += "  " + where(m.record) + "  [" + core::missClauseName(m.clause) + "] " + m.detail + '\n';
            out += "      | " + oneLine(m.record.text, 150) + '\n';
        });
    }
    for (const auto& n : t.notes)
        out += "note: " + n + '\n';
}

} // namespace

std::string explanationText(const Explanation& e, std::size_t maxListed)
{
    const auto& r = e.trace;
    const core::Analysis& a = e.analysis;
    std::string out = "explain " + std::string(e.isCase ? "case " : "bundle ") + e.input + " with "
        + (a.catalog ? a.catalog->name() + " " + a.catalog->version() : std::string("?")) + " (" + e.rulesOrigin
        + ")\n";
    out += "verdict: " + r.outcome + (r.summary.empty() ? std::string() : " — " + oneLine(r.summary, 200)) + '\n';
    if (r.focus) {
        out += "record: " + where(*r.focus) + " (byte " + std::to_string(r.focus->byteOffset) + ", " + r.focus->kind
            + (r.focus->format.empty() ? std::string() : ", " + r.focus->format)
            + (r.focus->node.empty() ? std::string() : ", node " + r.focus->node)
            + (r.focus->timeNs == INT64_MIN ? std::string(", untimed") : ", " + core::formatUtc(r.focus->timeNs))
            + ")\n  | " + oneLine(r.focus->text, 200) + '\n';
        if (!r.focusNote.empty())
            out += "  note: " + r.focusNote + '\n';
    }
    if (r.focus && e.trace.rules.size() != 1) {
        std::string by;
        for (const auto& id : r.matchedBy)
            by += (by.empty() ? "" : ", ") + id;
        out += std::to_string(r.extractorsReading)
            + " extractor(s) read this kind of record; matched by: " + (by.empty() ? std::string("none") : by) + '\n';
    }
    for (const auto& t : r.rules) {
        out += '\n';
        ruleText(out, t, maxListed);
    }
    if (r.rules.empty())
        out += "\nno rule matched this record, came near it, or acted on an event from it\n";
    return out;
}

// --- JSON ------------------------------------------------------------------------------------------------------

namespace {

void recordJson(core::JsonWriter& w, const core::TracedRecord& r)
{
    w.beginObject();
    w.field("path", r.path);
    w.field("line", r.line);
    w.field("byte_offset", r.byteOffset);
    w.field("kind", r.kind);
    w.field("format", r.format);
    w.field("node", r.node);
    if (r.timeNs == INT64_MIN)
        w.key("time").null();
    else
        w.field("time", core::formatUtc(r.timeNs));
    w.field("text", r.text);
    w.endObject();
}

void stringsJson(core::JsonWriter& w, const char* key, const std::vector<std::string>& v)
{
    w.key(key).beginArray();
    for (const auto& s : v)
        w.value(s);
    w.endArray();
}

void eventJson(core::JsonWriter& w, const core::TracedEvent& e)
{
    w.beginObject();
    w.key("record");
    recordJson(w, e.record);
    w.field("rule", e.rule);
    w.field("type", e.type);
    w.field("label", e.label);
    w.field("role", e.role);
    w.field("fate", core::eventFateName(e.fate));
    w.field("by", e.by);
    stringsJson(w, "changed_by", e.changedBy);
    stringsJson(w, "replaced", e.replaced);
    if (e.verdictIndex < 0)
        w.key("verdict_event").null();
    else
        w.field("verdict_event", e.verdictIndex);
    w.field("in_verdict", e.inVerdict);
    w.field("detail", e.detail);
    stringsJson(w, "notes", e.notes);
    w.endObject();
}

void ruleJson(core::JsonWriter& w, const core::RuleTrace& t)
{
    w.beginObject();
    w.field("id", t.id);
    w.field("kind", core::traceRuleKindName(t.kind));
    w.field("origin", t.origin);
    w.field("description", t.description);
    w.key("settings").beginArray();
    for (const auto& [k, v] : t.settings)
        w.beginObject().field("key", k).field("value", v).endObject();
    w.endArray();
    stringsJson(w, "literals", t.literals);
    w.key("counts")
        .beginObject()
        .field("records_scanned", static_cast<std::uint64_t>(t.recordsScanned))
        .field("records_read", static_cast<std::uint64_t>(t.recordsRead))
        .field("records_matched", static_cast<std::uint64_t>(t.recordsMatched))
        .field("events", static_cast<std::uint64_t>(t.events.size()))
        .field("cause_candidates", static_cast<std::uint64_t>(t.causeCandidates))
        .field("symptom_candidates", static_cast<std::uint64_t>(t.symptomCandidates))
        .field("links", static_cast<std::uint64_t>(t.links.size()))
        .endObject();
    w.key("near_miss_counts").beginObject();
    for (const auto& [k, n] : t.missCounts)
        w.field(k, static_cast<std::uint64_t>(n));
    w.endObject();
    w.key("events").beginArray();
    for (const auto& e : t.events)
        eventJson(w, e);
    w.endArray();
    w.key("near_misses").beginArray();
    for (const auto& m : t.misses) {
        w.beginObject();
        w.key("record");
        recordJson(w, m.record);
        w.field("clause", core::missClauseName(m.clause));
        w.field("pattern_matches", m.patternMatches);
        if (m.pattern.explained) {
            w.key("pattern")
                .beginObject()
                .field("failed_part", m.pattern.failedPart)
                .field("capture", m.pattern.capture)
                .field("matched_part", m.pattern.patternBefore)
                .field("matched_text", m.pattern.matchedText)
                .field("text_at", static_cast<std::uint64_t>(m.pattern.textAt))
                .field("alternative", static_cast<std::uint64_t>(m.pattern.alternative))
                .field("alternatives", static_cast<std::uint64_t>(m.pattern.alternatives))
                .endObject();
        } else {
            w.key("pattern").null();
        }
        w.field("detail", m.detail);
        w.endObject();
    }
    w.endArray();
    w.key("filter_misses").beginArray();
    for (const auto& e : t.filterMisses)
        eventJson(w, e);
    w.endArray();
    if (t.kind == core::TraceRuleKind::Correlator)
        w.key("window")
            .beginObject()
            .field("before_ns", t.windowBeforeNs)
            .field("after_ns", t.windowAfterNs)
            .field("text", core::formatDelta(-t.windowBeforeNs) + " .. " + core::formatDelta(t.windowAfterNs))
            .endObject();
    else
        w.key("window").null();
    w.key("links").beginArray();
    for (const auto& l : t.links) {
        w.beginObject();
        w.field("cause", static_cast<std::uint64_t>(l.cause));
        w.field("symptom", static_cast<std::uint64_t>(l.symptom));
        w.key("cause_record");
        recordJson(w, l.causeRecord);
        w.key("symptom_record");
        recordJson(w, l.symptomRecord);
        w.field("cause_label", l.causeLabel);
        w.field("symptom_label", l.symptomLabel);
        w.field("by_order", l.byOrder);
        w.field("delta_ns", l.deltaNs);
        w.field("slack_ns", l.slackNs);
        w.endObject();
    }
    w.endArray();
    w.key("link_misses").beginArray();
    for (const auto& m : t.linkMisses) {
        w.beginObject();
        w.field("symptom", static_cast<std::uint64_t>(m.symptom));
        w.key("symptom_record");
        recordJson(w, m.symptomRecord);
        w.field("symptom_label", m.symptomLabel);
        if (m.cause) {
            w.field("cause", static_cast<std::uint64_t>(*m.cause));
            w.key("cause_record");
            recordJson(w, m.causeRecord);
        } else {
            w.key("cause").null();
            w.key("cause_record").null();
        }
        w.field("cause_label", m.causeLabel);
        w.field("cause_candidates", static_cast<std::uint64_t>(m.causeCandidates));
        w.field("clause", core::linkClauseName(m.clause));
        w.field("delta_ns", m.deltaNs);
        w.field("excess_ns", m.excessNs);
        w.field("linked_instead", m.linkedInstead);
        w.field("detail", m.detail);
        w.endObject();
    }
    w.endArray();
    stringsJson(w, "findings", t.findings);
    stringsJson(w, "notes", t.notes);
    w.endObject();
}

} // namespace

std::string explanationJson(const Explanation& e)
{
    const auto& r = e.trace;
    const core::Analysis& a = e.analysis;
    core::JsonWriter w;
    w.beginObject();
    w.field("schema", "faultline.rule-trace/1");
    w.key("input")
        .beginObject()
        .field("kind", e.isCase ? "case" : "bundle")
        .field("path", e.input)
        .field("rules", e.rulesOrigin)
        .endObject();
    w.key("catalog")
        .beginObject()
        .field("name", a.catalog ? a.catalog->name() : std::string())
        .field("version", a.catalog ? a.catalog->version() : std::string())
        .field("hash", a.catalog ? a.catalog->contentHash() : std::string())
        .endObject();
    w.key("verdict").beginObject().field("outcome", r.outcome).field("summary", r.summary).endObject();
    if (r.focus) {
        w.key("record");
        recordJson(w, *r.focus);
    } else {
        w.key("record").null();
    }
    w.field("record_note", r.focusNote);
    w.field("extractors_reading", static_cast<std::uint64_t>(r.extractorsReading));
    stringsJson(w, "matched_by", r.matchedBy);
    w.key("rules").beginArray();
    for (const auto& t : r.rules)
        ruleJson(w, t);
    w.endArray();
    w.endObject();
    return w.str() + "\n";
}

} // namespace faultline::usecases
