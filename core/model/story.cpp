// SPDX-License-Identifier: Apache-2.0
#include "core/model/story.h"

#include "core/model/evidence.h"
#include "core/model/verdict.h"
#include "core/time/civil_time.h"
#include "core/util/json_spans.h"
#include "core/util/json_writer.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

namespace faultline::core {

namespace {

// --- the view state as JSON ---------------------------------------------------------------------------------------

void writeStrings(JsonWriter& w, std::string_view key, const std::vector<std::string>& values)
{
    if (values.empty())
        return;
    w.key(key).beginArray();
    for (const auto& v : values)
        w.value(v);
    w.endArray();
}

void writeText(JsonWriter& w, std::string_view key, const std::string& value)
{
    if (!value.empty())
        w.field(key, value);
}

void writeTime(JsonWriter& w, std::string_view key, std::int64_t ns)
{
    if (ns != INT64_MIN)
        w.field(key, ns);
}

void writeState(JsonWriter& w, const StoryViewState& state)
{
    w.beginObject();
    writeTime(w, "from_ns", state.fromNs);
    writeTime(w, "to_ns", state.toNs);
    writeStrings(w, "expanded_lanes", state.expandedLanes);
    writeText(w, "top_lane", state.topLane);
    if (state.event) {
        const StoryEventRef& e = *state.event;
        // The record's file is named "path" so that its byte offset is read as an offset into that file.
        w.key("event").beginObject();
        writeText(w, "rule", e.ruleId);
        writeText(w, "path", e.path);
        if (e.line > 0)
            w.field("line", e.line);
        if (e.byteOffset >= 0)
            w.field("byte_offset", e.byteOffset);
        writeText(w, "type", e.type);
        writeText(w, "node", e.node);
        writeTime(w, "time_ns", e.timeNs);
        w.endObject();
    }
    writeText(w, "lane", state.lane);
    writeText(w, "symptom", state.symptom);
    writeText(w, "evidence_path", state.evidencePath);
    if (!state.evidenceLines.empty()) {
        w.key("evidence_lines").beginArray();
        for (const auto l : state.evidenceLines)
            w.value(l);
        w.endArray();
    }
    writeStrings(w, "panes", state.panes);
    if (state.clocksAligned)
        w.field("clocks_aligned", true);
    w.endObject();
}

/// Reads one state object, reporting the first member that is not what it should be.
class StateReader
{
public:
    StateReader(const std::string& json, const std::string& where, std::vector<Diagnostic>& errors)
        : m_json(json)
        , m_where(where)
        , m_errors(errors)
    { }

    std::optional<StoryViewState> read()
    {
        std::size_t errorAt = 0;
        const auto tree = parseJsonSpans(m_json, errorAt);
        if (!tree) {
            fail(errorAt, "the view state is not JSON (it stops being JSON here)");
            return std::nullopt;
        }
        if (tree->type != JsonSpan::Type::Object) {
            fail(tree->begin, "the view state is not a JSON object");
            return std::nullopt;
        }
        StoryViewState s;
        // Members this build does not know (written by a newer one) are left alone.
        const bool ok = time(*tree, "from_ns", s.fromNs) && time(*tree, "to_ns", s.toNs)
            && strings(*tree, "expanded_lanes", s.expandedLanes) && text(*tree, "top_lane", s.topLane)
            && event(*tree, s.event) && text(*tree, "lane", s.lane) && text(*tree, "symptom", s.symptom)
            && text(*tree, "evidence_path", s.evidencePath) && lines(*tree, "evidence_lines", s.evidenceLines)
            && strings(*tree, "panes", s.panes) && flag(*tree, "clocks_aligned", s.clocksAligned);
        if (!ok)
            return std::nullopt;
        return s;
    }

private:
    void fail(std::size_t at, const std::string& message)
    {
        Diagnostic d = makeDiagnostic(Severity::Error, "story-state", message, m_where);
        // The line and column of `at` in the text (1-based; a state is usually one line).
        std::uint64_t line = 1;
        std::size_t lineStart = 0;
        for (std::size_t i = 0; i < at && i < m_json.size(); ++i)
            if (m_json[i] == '\n') {
                ++line;
                lineStart = i + 1;
            }
        d.where.line = line;
        d.where.column = static_cast<std::uint32_t>(at - lineStart + 1);
        d.where.byteOffset = at;
        const std::size_t from = at > 20 ? at - 20 : 0;
        d.snippet = escapeForDisplay(std::string_view(m_json).substr(from, 40));
        m_errors.push_back(std::move(d));
    }

    bool wrong(const JsonSpan& v, std::string_view key, const char* what)
    {
        fail(v.begin, "'" + std::string(key) + "' must be " + what);
        return false;
    }

    static bool integer(const JsonSpan& v, std::int64_t& out)
    {
        if (v.type != JsonSpan::Type::Number)
            return false;
        const char* end = v.text.data() + v.text.size();
        const auto [p, ec] = std::from_chars(v.text.data(), end, out);
        return ec == std::errc() && p == end;
    }

    bool time(const JsonSpan& obj, std::string_view key, std::int64_t& out)
    {
        const JsonSpan* v = obj.member(key);
        if (!v)
            return true;
        if (!integer(*v, out))
            return wrong(*v, key, "an integer (nanoseconds since the epoch)");
        return true;
    }

    bool text(const JsonSpan& obj, std::string_view key, std::string& out)
    {
        const JsonSpan* v = obj.member(key);
        if (!v)
            return true;
        if (v->type != JsonSpan::Type::String)
            return wrong(*v, key, "a string");
        out = v->text;
        return true;
    }

    bool flag(const JsonSpan& obj, std::string_view key, bool& out)
    {
        const JsonSpan* v = obj.member(key);
        if (!v)
            return true;
        if (v->type != JsonSpan::Type::Literal || v->text == "null")
            return wrong(*v, key, "true or false");
        out = v->text == "true";
        return true;
    }

    bool strings(const JsonSpan& obj, std::string_view key, std::vector<std::string>& out)
    {
        const JsonSpan* v = obj.member(key);
        if (!v)
            return true;
        if (v->type != JsonSpan::Type::Array)
            return wrong(*v, key, "an array of strings");
        for (const auto& item : v->items) {
            if (item.type != JsonSpan::Type::String)
                return wrong(item, key, "an array of strings");
            out.push_back(item.text);
        }
        return true;
    }

    bool lines(const JsonSpan& obj, std::string_view key, std::vector<std::uint64_t>& out)
    {
        const JsonSpan* v = obj.member(key);
        if (!v)
            return true;
        if (v->type != JsonSpan::Type::Array)
            return wrong(*v, key, "an array of line numbers");
        for (const auto& item : v->items) {
            std::int64_t n = 0;
            if (!integer(item, n) || n < 1)
                return wrong(item, key, "an array of line numbers (from 1)");
            out.push_back(static_cast<std::uint64_t>(n));
        }
        return true;
    }

    bool event(const JsonSpan& obj, std::optional<StoryEventRef>& out)
    {
        const JsonSpan* v = obj.member("event");
        if (!v)
            return true;
        if (v->type != JsonSpan::Type::Object)
            return wrong(*v, "event", "an object");
        StoryEventRef r;
        std::int64_t line = 0;
        if (!text(*v, "rule", r.ruleId) || !text(*v, "path", r.path) || !time(*v, "line", line)
            || !time(*v, "byte_offset", r.byteOffset) || !text(*v, "type", r.type) || !text(*v, "node", r.node)
            || !time(*v, "time_ns", r.timeNs))
            return false;
        if (line < 0)
            return wrong(*v->member("line"), "line", "a line number (from 1)");
        r.line = static_cast<std::uint64_t>(line);
        out = std::move(r);
        return true;
    }

    const std::string& m_json;
    const std::string& m_where;
    std::vector<Diagnostic>& m_errors;
};

// --- the proposed story ---------------------------------------------------------------------------------------------

constexpr std::int64_t kMinMarginNs = 2 * kNsPerSec;

/// What a proposal reads of one analysis.
struct Proposal
{
    const Verdict& v;
    const EvidenceSet& ev;

    std::string node(std::size_t i) const
    {
        const NodeId n = v.events[i].node;
        return n == kNoNode ? std::string() : v.nodes.name(n);
    }
    bool timed(std::size_t i) const { return v.events[i].timeNs != INT64_MIN; }
    const std::string& relation(std::size_t i) const
    {
        static const std::string none;
        return i < v.linkRelation.size() ? v.linkRelation[i] : none;
    }

    /// "Xid 149 NVLINK" of "Xid 149 NVLINK: NETIR Error: ...": a label's head, for a title.
    static std::string shortLabel(const std::string& label)
    {
        std::string s = label;
        if (const auto colon = s.find(": "); colon != std::string::npos && colon >= 3)
            s.resize(colon);
        if (s.size() > 48) {
            const auto space = s.rfind(' ', 45);
            s.resize(space != std::string::npos && space > 20 ? space : 45);
            s += "…";
        }
        return s;
    }

    /// "on node-02 at 2026-11-02T10:15:01.123456Z" (the parts that are known).
    std::string whereWhen(std::size_t i) const
    {
        std::string s;
        if (!node(i).empty())
            s += " on " + node(i);
        if (timed(i))
            s += " at " + formatUtc(v.events[i].timeNs);
        return s;
    }

    /// " (nodes/node-02/dmesg.txt:70)": the record the event was made from.
    std::string record(std::size_t i) const
    {
        const Event& e = v.events[i];
        if (e.provenance.empty() || e.provenance.front().source >= ev.sources.size())
            return {};
        return " (" + ev.sources[e.provenance.front().source].path + ":" + std::to_string(e.provenance.front().line)
            + ")";
    }

    /// A step selecting event `i`: its reference, lane and evidence line, the window over `events` (the timed ones)
    /// with a margin.
    StoryStep step(std::size_t i, const std::vector<std::size_t>& events) const
    {
        StoryStep s;
        s.origin = "proposed";
        s.state.event = storyEventOf(v, ev, i);
        s.state.lane = node(i);
        if (!s.state.lane.empty())
            s.state.expandedLanes.push_back(s.state.lane);
        if (s.state.event && !s.state.event->path.empty()) {
            s.state.evidencePath = s.state.event->path;
            s.state.evidenceLines.push_back(s.state.event->line);
        }
        s.state.panes = { "evidence", "symptoms" };
        std::int64_t lo = INT64_MAX;
        std::int64_t hi = INT64_MIN;
        for (const std::size_t e : events)
            if (e < v.events.size() && timed(e)) {
                lo = std::min(lo, v.events[e].timeNs);
                hi = std::max(hi, v.events[e].timeNs + std::max<std::int64_t>(v.events[e].precisionNs, 0));
            }
        if (hi != INT64_MIN) {
            const std::int64_t margin = std::max(kMinMarginNs, (hi - lo) / 5);
            // Whole seconds outward (whole minutes past an hour): a window reads as a time people say aloud.
            const std::int64_t unit = hi - lo > 3600 * kNsPerSec ? 60 * kNsPerSec : kNsPerSec;
            auto floorTo = [unit](
                               std::int64_t t) { return t >= 0 ? t / unit * unit : -((-t + unit - 1) / unit) * unit; };
            s.state.fromNs = floorTo(lo - margin);
            s.state.toNs = floorTo(hi + margin + unit - 1);
        }
        return s;
    }

    /// The first of `events` with a time, else the first.
    std::size_t firstTimed(const std::vector<std::size_t>& events) const
    {
        for (const std::size_t e : events)
            if (timed(e))
                return e;
        return events.front();
    }

    std::vector<StoryStep> propose() const
    {
        std::vector<StoryStep> out;
        if (!v.hasCause || v.cause >= v.events.size()) {
            leadingEvidence(out);
            return out;
        }
        const std::size_t cause = v.cause;
        const std::string causeNode = node(cause);
        std::vector<std::size_t> precursors;
        std::vector<std::size_t> companions { cause };
        std::vector<std::size_t> teardown;
        std::set<std::size_t> symptoms;
        for (const auto& g : v.symptoms)
            symptoms.insert(g.events.begin(), g.events.end());
        for (std::size_t i = 0; i < v.events.size(); ++i) {
            if (i == cause)
                continue;
            const Event& e = v.events[i];
            // A precursor of this cause: linked as one, or a warning sign that came before it.
            if (relation(i) == "precursor"
                || (e.role == Role::Precursor && timed(i) && timed(cause) && e.timeNs <= v.events[cause].timeNs))
                precursors.push_back(i);
            else if (relation(i) == "companion" && i < v.causeOf.size()
                && v.causeOf[i] == static_cast<std::int64_t>(cause))
                companions.push_back(i);
            if (e.role == Role::Teardown)
                teardown.push_back(i);
            else if (relation(i) == "symptom")
                symptoms.insert(i);
        }

        if (!precursors.empty()) {
            const std::size_t first = firstTimed(precursors);
            std::vector<std::size_t> window = precursors;
            window.push_back(cause);
            StoryStep s = step(first, window);
            const std::size_t n = precursors.size();
            s.title = n == 1
                ? "Precursor: " + shortLabel(v.events[first].label) + (node(first).empty() ? "" : " on " + node(first))
                : "Precursors: " + std::to_string(n) + " warning signs before the cause";
            s.text = (n == 1 ? std::string("A warning sign came before the cause: ")
                             : std::to_string(n) + " warning signs came before the cause, the first: ")
                + v.events[first].label + whereWhen(first) + record(first) + ".";
            out.push_back(std::move(s));
        }

        {
            StoryStep s = step(cause, companions);
            s.title = "Cause: " + shortLabel(v.events[cause].label) + (causeNode.empty() ? "" : " on " + causeNode);
            s.text = v.events[cause].label + whereWhen(cause) + record(cause) + " is the first plausible cause";
            if (companions.size() > 1)
                s.text += ", with " + std::to_string(companions.size() - 1) + " event"
                    + (companions.size() == 2 ? "" : "s") + " beside it";
            s.text += ".";
            // The verdict's summary, without the cause it starts with ("...; 59 later symptom(s) on 3 other nodes").
            std::string rest = v.summary;
            if (rest.rfind(v.events[cause].label, 0) == 0) {
                const auto semi = rest.find("; ");
                rest = semi == std::string::npos ? std::string() : rest.substr(semi + 2);
            }
            if (!rest.empty()) {
                if (rest[0] >= 'a' && rest[0] <= 'z')
                    rest[0] = static_cast<char>(rest[0] - 'a' + 'A');
                s.text += " " + rest + (rest.back() == '.' ? "" : ".");
            }
            out.push_back(std::move(s));
        }

        // The first symptom on each other node, in order of time (a node whose symptoms are all teardown is left to
        // the teardown step).
        std::map<std::string, std::size_t> firstOnNode;
        std::vector<std::string> nodeOrder;
        for (const std::size_t i : symptoms) {
            const std::string n = node(i);
            if (n.empty() || n == causeNode || v.events[i].role == Role::Teardown)
                continue;
            const auto it = firstOnNode.find(n);
            if (it == firstOnNode.end()) {
                firstOnNode.emplace(n, i);
                nodeOrder.push_back(n);
            } else if (timed(i) && (!timed(it->second) || v.events[i].timeNs < v.events[it->second].timeNs)) {
                it->second = i;
            }
        }
        std::stable_sort(nodeOrder.begin(), nodeOrder.end(), [&](const std::string& a, const std::string& b) {
            const std::size_t ia = firstOnNode.at(a);
            const std::size_t ib = firstOnNode.at(b);
            const std::int64_t ta = timed(ia) ? v.events[ia].timeNs : INT64_MAX;
            const std::int64_t tb = timed(ib) ? v.events[ib].timeNs : INT64_MAX;
            return ta != tb ? ta < tb : a < b;
        });
        for (const std::string& n : nodeOrder) {
            const std::size_t i = firstOnNode.at(n);
            StoryStep s = step(i, { cause, i });
            s.state.symptom = v.events[i].type;
            if (!causeNode.empty()
                && std::find(s.state.expandedLanes.begin(), s.state.expandedLanes.end(), causeNode)
                    == s.state.expandedLanes.end())
                s.state.expandedLanes.insert(s.state.expandedLanes.begin(), causeNode);
            s.title = "Symptom on " + n + ": " + shortLabel(v.events[i].label);
            s.text = "The first symptom on " + n + ": " + v.events[i].label
                + (timed(i) ? " at " + formatUtc(v.events[i].timeNs) : "") + record(i);
            if (timed(i) && timed(cause))
                s.text += ", " + formatDelta(v.events[i].timeNs - v.events[cause].timeNs) + " after the cause";
            s.text += ".";
            out.push_back(std::move(s));
        }

        if (!teardown.empty()) {
            const std::size_t first = firstTimed(teardown);
            std::vector<std::size_t> window = teardown;
            window.push_back(cause);
            StoryStep s = step(first, window);
            const std::size_t n = teardown.size();
            s.title = "Teardown: the job shuts down";
            s.text = (n == 1 ? std::string("The job was torn down: ")
                             : std::to_string(n) + " teardown events follow the failure, the first: ")
                + v.events[first].label + whereWhen(first) + record(first) + ".";
            out.push_back(std::move(s));
        }
        return out;
    }

    /// A verdict without a cause: one step for the first items of its evidence trail.
    void leadingEvidence(std::vector<StoryStep>& out) const
    {
        std::vector<std::size_t> lead;
        for (const auto& t : v.trail)
            if (t.event < v.events.size() && lead.size() < 3)
                lead.push_back(t.event);
        if (lead.empty() && v.hypotheses.leading && !v.hypotheses.candidates.empty())
            for (const auto& e : v.hypotheses.candidates.front().evidence)
                if (!e.events.empty() && e.events.front() < v.events.size() && lead.size() < 3)
                    lead.push_back(e.events.front());
        if (lead.empty())
            return;
        const std::size_t first = lead.front();
        StoryStep s = step(first, lead);
        if (v.hypotheses.leading && !v.hypotheses.candidates.empty()) {
            const auto& h = v.hypotheses.candidates.front();
            s.title = "Leading hypothesis: " + (h.label.empty() ? domainPath(h.domain, h.subdomain) : h.label);
        } else {
            s.title = "Leading evidence: " + shortLabel(v.events[first].label)
                + (node(first).empty() ? "" : " on " + node(first));
        }
        s.text = v.summary + (v.summary.empty() || v.summary.back() == '.' ? "" : ".");
        s.text += std::string(s.text.empty() ? "" : " ") + "The evidence starts with " + v.events[first].label
            + whereWhen(first) + record(first) + ".";
        out.push_back(std::move(s));
    }
};

} // namespace

std::string storyStateToJson(const StoryViewState& state)
{
    JsonWriter w(false);
    writeState(w, state);
    return w.str();
}

std::string storyToJson(const Story& story)
{
    JsonWriter w(true);
    w.beginObject();
    w.field("schema", "faultline.story/1");
    w.field("revision", story.revision);
    w.field("author", story.author);
    w.field("created_at", story.createdAt);
    w.field("change", story.change);
    w.key("steps").beginArray();
    std::int64_t position = 0;
    for (const auto& step : story.steps) {
        w.beginObject();
        w.field("position", ++position);
        w.field("title", step.title);
        w.field("text", step.text);
        w.field("origin", step.origin);
        w.key("state");
        writeState(w, step.state);
        w.endObject();
    }
    w.endArray();
    w.endObject();
    return w.str() + "\n";
}

std::optional<StoryViewState> storyStateFromJson(
    const std::string& json, const std::string& where, std::vector<Diagnostic>& errors)
{
    return StateReader(json, where, errors).read();
}

Annotation storyEventAnnotation(const StoryEventRef& ref, std::int64_t id)
{
    Annotation a;
    a.id = id;
    a.kind = "bookmark";
    a.target = "event";
    a.ruleId = ref.ruleId;
    a.path = ref.path;
    a.line = ref.line;
    a.byteOffset = ref.byteOffset;
    a.eventType = ref.type;
    a.node = ref.node;
    a.fromNs = ref.timeNs;
    return a;
}

std::optional<StoryEventRef> storyEventOf(const Verdict& verdict, const EvidenceSet& evidence, std::size_t eventIndex)
{
    if (eventIndex >= verdict.events.size())
        return std::nullopt;
    const Event& e = verdict.events[eventIndex];
    StoryEventRef r;
    r.ruleId = e.ruleId;
    r.type = e.type;
    r.node = e.node == kNoNode ? std::string() : verdict.nodes.name(e.node);
    r.timeNs = e.timeNs;
    if (!e.provenance.empty() && e.provenance.front().source < evidence.sources.size()) {
        const Provenance& p = e.provenance.front();
        r.path = evidence.sources[p.source].path;
        r.line = p.line;
        r.byteOffset = static_cast<std::int64_t>(p.byteOffset);
    }
    return r;
}

std::vector<StoryStep> proposeStory(const Verdict& verdict, const EvidenceSet& evidence)
{
    return Proposal { verdict, evidence }.propose();
}

} // namespace faultline::core
