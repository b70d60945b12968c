// SPDX-License-Identifier: Apache-2.0
#include "app/usecases/report.h"

#include "app/usecases/case_history.h"
#include "app/usecases/markup.h"
#include "app/usecases/redact.h"
#include "core/casefile/case_file.h"
#include "core/model/annotations.h"
#include "core/model/story.h"
#include "core/report/verdict_report.h"
#include "core/time/civil_time.h"
#include "core/util/json_spans.h"
#include "core/version.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <string_view>

namespace fs = std::filesystem;

namespace faultline::usecases {

namespace {

using Block = ReportBlock;

/// How an annotation's or a step's reason names what it was resolved against.
constexpr const char* kScopeName = "the report's analysis";

/// The stored run the report's analysis stands for (0: none, it differs from the stored run).
std::int64_t scopeRun(const Analysis& a)
{
    return a.matchesStoredRun ? a.storedRun : 0;
}

std::string joined(const std::vector<std::string>& v, const char* none = "none")
{
    std::string out;
    for (const auto& s : v)
        out += (out.empty() ? "" : ", ") + s;
    return out.empty() ? none : out;
}

/// How the case came to be, when it is a redacted copy: its meta 'redaction' record.
struct CopyRecord
{
    std::string profile; ///< empty: the case is not a redacted copy
    std::string redactedAt;
};

/// The timeline picture of the cause and the symptoms it explains: the window from the cause to the last symptom
/// of any group; none without a cause with a time.
std::optional<PictureSlot> causeWindowSlot(const core::Verdict& v)
{
    if (!v.hasCause || v.cause >= v.events.size() || v.events[v.cause].timeNs == INT64_MIN)
        return std::nullopt;
    const core::Event& cause = v.events[v.cause];
    const std::string causeNode = cause.node == core::kNoNode ? std::string() : v.nodes.name(cause.node);
    PictureSlot slot;
    slot.id = "cause-window";
    slot.focusEvent = v.cause;
    slot.fromNs = cause.timeNs;
    slot.toNs = cause.timeNs;
    for (const auto& g : v.symptoms)
        for (const std::int64_t t : { g.firstNs, g.lastNs })
            if (t != INT64_MIN) {
                slot.fromNs = std::min(slot.fromNs, t);
                slot.toNs = std::max(slot.toNs, t);
            }
    // A margin on both sides, so the first and the last mark are not cut by the picture's edges; a cause alone is
    // shown with a minute around it.
    const std::int64_t span = slot.toNs - slot.fromNs;
    const std::int64_t pad = span > 0 ? std::max<std::int64_t>(span / 25, 1'000'000) : 30'000'000'000;
    slot.fromNs -= pad;
    slot.toNs += pad;
    slot.caption = "Timeline of the cause (◆ " + cause.label + (causeNode.empty() ? "" : " on " + causeNode)
        + ") and the symptoms it explains (○, linked to it), " + core::formatUtc(slot.fromNs + pad) + " → "
        + core::formatUtc(slot.toNs - pad) + "; one lane per node";
    return slot;
}

/// The story's texts split into paragraphs at blank lines (a step's text is short Markdown; the report shows it
/// as plain paragraphs).
std::vector<std::string> paragraphsOf(const std::string& text)
{
    std::vector<std::string> out;
    std::string current;
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        std::string line = text.substr(at, end - at);
        while (!line.empty() && (line.back() == ' ' || line.back() == '\r' || line.back() == '\t'))
            line.pop_back();
        if (line.empty()) {
            if (!current.empty())
                out.push_back(std::move(current));
            current.clear();
        } else {
            current += (current.empty() ? "" : " ") + line;
        }
        at = end + 1;
    }
    if (!current.empty())
        out.push_back(std::move(current));
    return out;
}

/// The story's section: each step's title, text, window, selection and its own picture (slot "story-N": the step's
/// window, or the cause's when it has none, with its event selected and its lanes open). A step's event is found
/// again in the report's analysis by its rule and record, as an annotation is; when it is not, the step says why.
void storySection(const Analysis& a, const core::Story& story, const std::optional<PictureSlot>& causeWindow,
    std::vector<Block>& out, std::vector<PictureSlot>& slots)
{
    if (story.steps.empty())
        return;
    const core::Verdict& v = *a.verdict;
    const core::EvidenceSet& ev = *a.evidence;
    std::vector<core::Annotation> refs;
    for (std::size_t i = 0; i < story.steps.size(); ++i)
        if (const auto& e = story.steps[i].state.event)
            refs.push_back(core::storyEventAnnotation(*e, static_cast<std::int64_t>(i + 1)));
    const std::vector<core::AnnotationResolution> found =
        core::resolveAnnotations(refs, core::annotationScope(refs, v, ev, kScopeName));
    auto resolutionOf = [&](std::size_t step) -> const core::AnnotationResolution* {
        for (const auto& r : found)
            if (r.annotation == static_cast<std::int64_t>(step + 1))
                return &r;
        return nullptr;
    };

    out.push_back({ Block::Kind::Heading, {}, "Story", {}, {} });
    out.push_back({ Block::Kind::Paragraph, {},
        "How the failure unfolded, in " + std::to_string(story.steps.size()) + " step"
            + (story.steps.size() == 1 ? "" : "s") + " (revision " + std::to_string(story.revision)
            + (story.author.empty() ? std::string() : " by " + story.author)
            + (story.createdAt.empty() ? std::string() : " at " + story.createdAt) + ").",
        {}, {} });
    for (std::size_t i = 0; i < story.steps.size(); ++i) {
        const core::StoryStep& step = story.steps[i];
        const core::StoryViewState& state = step.state;
        const std::string n = std::to_string(i + 1);
        Block title { Block::Kind::Heading, {}, "Step " + n + ": " + step.title, {}, {} };
        title.level = 3;
        out.push_back(std::move(title));
        for (auto& p : paragraphsOf(step.text))
            out.push_back({ Block::Kind::Paragraph, {}, std::move(p), {}, {} });

        PictureSlot slot;
        slot.id = "story-" + n;
        slot.expandedLanes = state.expandedLanes;
        std::string selected; // the selected event as the report names it; "" none
        std::string missing; // the selected event when it is not found, and why
        if (state.event) {
            const core::AnnotationResolution* r = resolutionOf(i);
            if (r && r->matched && r->eventIndex >= 0 && static_cast<std::size_t>(r->eventIndex) < v.events.size()) {
                const auto idx = static_cast<std::size_t>(r->eventIndex);
                const core::Event& e = v.events[idx];
                slot.focusEvent = idx;
                selected = e.label + " (" + e.type + ")"
                    + (e.node == core::kNoNode ? std::string() : " on " + v.nodes.name(e.node)) + " at "
                    + core::formatUtc(e.timeNs)
                    + (e.provenance.empty() ? std::string() : " — " + core::locationOf(e.provenance.front(), ev));
            } else {
                const core::StoryEventRef& ref = *state.event;
                missing = "not found: " + (ref.type.empty() ? ref.ruleId : ref.type)
                    + (ref.path.empty() ? std::string() : " at " + ref.path + ":" + std::to_string(ref.line)) + "; "
                    + (r ? r->reason : std::string("not resolved"));
            }
        }
        // The step's own window; else the cause's; else a minute around its event.
        std::string window;
        std::string whose;
        if (state.fromNs != INT64_MIN && state.toNs != INT64_MIN && state.toNs > state.fromNs) {
            slot.fromNs = state.fromNs;
            slot.toNs = state.toNs;
        } else if (causeWindow) {
            slot.fromNs = causeWindow->fromNs;
            slot.toNs = causeWindow->toNs;
            whose = "the cause's window";
        } else if (slot.focusEvent && v.events[*slot.focusEvent].timeNs != INT64_MIN) {
            slot.fromNs = v.events[*slot.focusEvent].timeNs - 30'000'000'000;
            slot.toNs = v.events[*slot.focusEvent].timeNs + 30'000'000'000;
            whose = "a minute around its event";
        }
        if (slot.fromNs != INT64_MIN)
            window = (whose.empty() ? std::string() : whose + ", ") + core::formatUtc(slot.fromNs) + " → "
                + core::formatUtc(slot.toNs);
        out.push_back({ Block::Kind::Fact, "Window (UTC)", window.empty() ? std::string("none") : window, {}, {} });
        if (!selected.empty() || !missing.empty())
            out.push_back({ Block::Kind::Fact, "Selected event", selected.empty() ? missing : selected, {}, {} });
        if (!state.event && !state.lane.empty())
            out.push_back({ Block::Kind::Fact, "Selected lane", state.lane, {}, {} });
        // A symptom that is the selected event's own type is said by it already.
        if (!state.symptom.empty() && !(slot.focusEvent && v.events[*slot.focusEvent].type == state.symptom))
            out.push_back({ Block::Kind::Fact, "Symptom", state.symptom, {}, {} });
        if (!state.evidencePath.empty()) {
            std::string lines;
            for (const auto l : state.evidenceLines)
                lines += (lines.empty() ? ":" : ", ") + std::to_string(l);
            const std::string shown = state.evidencePath + lines;
            // Said once: the selected event's own line is already named with it.
            if (!selected.ends_with(" — " + shown))
                out.push_back({ Block::Kind::Fact, "Evidence", shown, {}, {} });
        }

        if (slot.fromNs == INT64_MIN)
            continue; // nothing to place in time: no picture
        slot.caption = "Step " + n + "'s timeline"
            + (slot.focusEvent ? ", " + v.events[*slot.focusEvent].label + " selected" : std::string())
            + (whose.empty() ? std::string() : " (" + whose + ")")
            + (state.expandedLanes.empty() ? std::string() : "; " + joined(state.expandedLanes) + " expanded");
        out.push_back({ Block::Kind::Picture, slot.caption, slot.id, {}, {} });
        slots.push_back(std::move(slot));
    }
}

std::vector<Block> buildReport(const Analysis& a, const core::CaseHistory& history, const core::Story& story,
    const std::map<std::string, std::string>& sha256, const CopyRecord& copy, std::vector<PictureSlot>& slots)
{
    const core::Verdict& v = *a.verdict;
    const core::EvidenceSet& ev = *a.evidence;
    std::vector<Block> out;
    auto heading = [&](std::string t) { out.push_back({ Block::Kind::Heading, {}, std::move(t), {}, {} }); };
    auto fact = [&](std::string l, std::string t) {
        out.push_back({ Block::Kind::Fact, std::move(l), std::move(t), {}, {} });
    };
    auto paragraph = [&](std::string t) { out.push_back({ Block::Kind::Paragraph, {}, std::move(t), {}, {} }); };
    auto where = [&](std::size_t i) {
        const core::Event& e = v.events[i];
        return e.provenance.empty() ? std::string("-") : core::locationOf(e.provenance.front(), ev);
    };
    auto nodeOf = [&](const core::Event& e) {
        return e.node == core::kNoNode ? std::string("-") : v.nodes.name(e.node);
    };

    const std::string name = history.path.substr(history.path.find_last_of('/') + 1);
    heading("Postmortem: " + name);
    out.back().level = 1;
    const core::RunInfo* latest = history.runs.empty() ? nullptr : &history.runs.back().info;
    if (latest)
        fact("Case",
            history.path + " · run " + std::to_string(latest->id) + " by " + latest->author + " at "
                + latest->createdAt);
    if (!copy.profile.empty())
        fact("Redacted copy",
            "made with the redaction profile " + copy.profile + " at " + copy.redactedAt
                + "; the SHA-256 given for each evidence file is the original file's");
    fact("Re-analysis",
        a.matchesStoredRun ? "reproduces the stored run with " + a.rulesOrigin
                           : "differs from the stored run (with " + a.rulesOrigin + ")");
    fact("Scope",
        (v.scope.jobId.empty() ? std::string("no job identified") : "job " + v.scope.jobId)
            + (v.scope.state.empty() ? std::string() : " (" + v.scope.state + ")") + ", "
            + std::to_string(v.scope.nodes.size()) + " node(s)");

    heading("Verdict");
    fact("Outcome",
        v.outcome
            + (v.domain.empty() || v.domain == "unknown" ? std::string()
                                                         : " — " + core::domainPath(v.domain, v.subdomain)));
    fact("Evidence",
        v.evidenceStatus == "established"      ? "the initiating event is in the evidence"
            : v.evidenceStatus == "hypothesis" ? "leading hypothesis, not confirmed"
                                               : "nothing points at a cause");
    char conf[48];
    std::snprintf(conf, sizeof conf, "%s (%.0f%%)", v.confidenceLevel.c_str(), v.confidence * 100);
    fact("Confidence", conf);
    fact("Cause", v.hasCause ? v.summary : "none found");
    if (!v.action.empty())
        fact("Action", v.action);
    fact("Blamed nodes", joined(v.blamedNodes));
    fact("Symptom nodes", joined(v.symptomNodes));
    for (const auto& r : v.inconclusiveReasons)
        paragraph("Why not conclusive: " + r);

    if (!v.symptoms.empty()) {
        heading("What the cause explains");
        Block t { Block::Kind::Table, {}, {}, { "Symptom", "Count", "Nodes", "First seen (UTC)", "After the cause" },
            {} };
        const std::int64_t causeNs = v.hasCause ? v.events[v.cause].timeNs : INT64_MIN;
        for (const auto& g : v.symptoms) {
            // As the verdict's text says it: no delay from a time inferred between neighbours far apart.
            const std::int64_t span = core::inferredSpan(v, g);
            std::string delay = "-";
            if (span > core::kDelayKnownWithinNs)
                delay = "unknown (time known only within " + core::formatDelta(span).substr(1) + ")";
            else if (causeNs != INT64_MIN && g.firstNs != INT64_MIN)
                delay = core::formatDelta(g.firstNs - causeNs);
            t.rows.push_back({ g.label + " (" + g.type + ")", std::to_string(g.count), joined(g.nodes),
                core::formatUtc(g.firstNs), delay });
        }
        out.push_back(std::move(t));
    }
    const std::optional<PictureSlot> causeWindow = causeWindowSlot(v);
    if (causeWindow) {
        if (v.symptoms.empty())
            heading("What the cause explains");
        out.push_back({ Block::Kind::Picture, causeWindow->caption, causeWindow->id, {}, {} });
        slots.push_back(*causeWindow);
    }
    storySection(a, story, causeWindow, out, slots);

    heading("Coverage");
    {
        Block t { Block::Kind::Table, {}, {}, { "Source", "Node", "Status", "Why" }, {} };
        for (const auto& c : v.coverage)
            t.rows.push_back({ c.kind, c.node.empty() ? std::string("-") : c.node, core::coverageStatusName(c.status),
                c.reason.empty() ? std::string("-") : c.reason });
        out.push_back(std::move(t));
    }

    heading("Evidence trail");
    for (const auto& step : v.trail) {
        if (step.event >= v.events.size())
            continue;
        const core::Event& e = v.events[step.event];
        const std::string loc = where(step.event);
        const std::string file = loc.substr(0, loc.rfind(':'));
        const auto sha = sha256.find(file);
        const std::string hashWord = copy.profile.empty() ? "sha256 " : "original sha256 ";
        fact(core::formatUtc(e.timeNs) + " · " + nodeOf(e) + " · " + step.why,
            e.label + " — " + loc + (sha == sha256.end() ? std::string() : " (" + hashWord + sha->second + ")"));
        if (!e.excerpt.empty())
            out.push_back({ Block::Kind::Excerpt, {}, e.excerpt, {}, {} });
    }

    if (const core::Annotation* n = history.narrative()) {
        heading("Narrative");
        paragraph(n->text);
        paragraph("— " + n->author + ", " + n->createdAt);
    }
    std::vector<const core::Annotation*> notes;
    for (const auto& an : history.annotations)
        if (an.kind != "narrative")
            notes.push_back(&an);
    if (!notes.empty()) {
        heading("Annotations");
        Block t { Block::Kind::Table, {}, {}, { "Kind", "On", "Text", "By", "At" }, {} };
        for (const auto* an : notes) {
            std::string on = "the case";
            if (an->target == "line")
                on = an->path + ":" + std::to_string(an->line);
            else if (an->target == "event" && an->runId > 0)
                on = "event " + std::to_string(an->runId) + ":" + std::to_string(an->eventIdx);
            else if (an->target != "case")
                on = core::describeTarget(*an); // a symptom, a lane, a range, an event of an unsaved analysis
            t.rows.push_back({ an->kind, on, an->text, an->author, an->createdAt });
        }
        out.push_back(std::move(t));
    }
    if (history.expectation) {
        heading("Expected verdict");
        paragraph("Run " + std::to_string(history.expectation->runId) + " (" + history.expectation->outcome
            + "), marked by " + history.expectation->author + ": "
            + (history.expectationMisses.empty()
                    ? std::string("the latest run meets it")
                    : "the latest run does not meet it (" + joined(history.expectationMisses) + ")"));
    }
    heading("Made with");
    fact("Rules",
        a.catalog ? a.catalog->name() + " " + a.catalog->version() + " (sha256 " + a.catalog->contentHash() + ")"
                  : std::string("-"));
    fact("Engine", std::string("Faultline ") + core::kVersion);
    return out;
}

// ---- Pictures -------------------------------------------------------------------------------------------------

std::string base64(std::string_view bytes)
{
    static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const auto n = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16
            | static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8
            | static_cast<unsigned char>(bytes[i + 2]);
        for (const int shift : { 18, 12, 6, 0 })
            out += kDigits[(n >> shift) & 63];
    }
    if (i < bytes.size()) {
        std::uint32_t n = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
        if (i + 1 < bytes.size())
            n |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
        out += kDigits[(n >> 18) & 63];
        out += kDigits[(n >> 12) & 63];
        out += i + 1 < bytes.size() ? kDigits[(n >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

/// A path as a URL's path: every byte outside the unreserved characters and '/' percent-encoded, so a report named
/// "incident 48213 (draft).md" links its pictures in Markdown and HTML alike.
std::string urlPath(std::string_view path)
{
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (const char c : path) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) || c == '-' || c == '_' || c == '.' || c == '~' || c == '/')
            out += c;
        else
            out += std::string { '%', kHex[u >> 4], kHex[u & 15] };
    }
    return out;
}

/// The pictures a render has, by slot id, and the links it makes to them (collecting the files to write).
class PictureLinker
{
public:
    PictureLinker(const std::vector<ReportPicture>& pictures, const RenderOptions& options)
        : m_options(options)
    {
        for (const auto& p : pictures)
            if (!p.png.empty())
                m_byId.emplace(p.id, &p);
    }
    const ReportPicture* find(const std::string& id) const
    {
        const auto it = m_byId.find(id);
        return it == m_byId.end() ? nullptr : it->second;
    }
    /// The picture's link target (a data: URI, or the asset's relative path, URL-encoded).
    std::string link(const ReportPicture& p)
    {
        if (m_options.links == PictureLinks::Inline)
            return "data:image/png;base64," + base64(p.png);
        const std::string path =
            (m_options.assetDir.empty() ? std::string() : m_options.assetDir + "/") + p.id + ".png";
        m_assets.push_back({ path, p.png });
        return urlPath(path);
    }
    std::vector<ReportAsset> takeAssets() { return std::move(m_assets); }

private:
    RenderOptions m_options;
    std::map<std::string, const ReportPicture*> m_byId;
    std::vector<ReportAsset> m_assets;
};

// ---- Markdown -------------------------------------------------------------------------------------------------

std::string mdEscaped(const std::string& s)
{
    std::string out;
    for (const char c : s) {
        if (c == '|' || c == '*' || c == '_' || c == '`' || c == '<' || c == '[' || c == ']' || c == '\\')
            out += '\\';
        out += c == '\n' ? ' ' : c;
    }
    return out;
}

std::string markdown(const std::vector<Block>& blocks, PictureLinker& pictures)
{
    std::string out;
    // One blank line before a block that needs one, however the previous block ended.
    auto gap = [&out] {
        while (!out.empty() && out.back() == '\n')
            out.pop_back();
        if (!out.empty())
            out += "\n\n";
    };
    Block::Kind previous = Block::Kind::Heading;
    for (const auto& b : blocks) {
        switch (b.kind) {
        case Block::Kind::Heading:
            gap();
            out += std::string(static_cast<std::size_t>(std::clamp(b.level, 1, 6)), '#') + " " + mdEscaped(b.text)
                + "\n\n";
            break;
        case Block::Kind::Fact:
            if (previous != Block::Kind::Fact && previous != Block::Kind::Heading)
                gap(); // a list after a table, an excerpt or a paragraph starts after a blank line
            out += "- **" + mdEscaped(b.label) + "**: " + mdEscaped(b.text) + "\n";
            break;
        case Block::Kind::Paragraph:
            gap();
            out += mdEscaped(b.text) + "\n";
            break;
        case Block::Kind::Table: {
            gap();
            out += "|";
            for (const auto& h : b.header)
                out += " " + mdEscaped(h) + " |";
            out += "\n|";
            for (std::size_t i = 0; i < b.header.size(); ++i)
                out += "---|";
            out += "\n";
            for (const auto& r : b.rows) {
                out += "|";
                for (const auto& c : r)
                    out += " " + mdEscaped(c) + " |";
                out += "\n";
            }
            break;
        }
        case Block::Kind::Excerpt: {
            // A fence longer than any run of backticks in the excerpt keeps it verbatim.
            std::size_t run = 0;
            std::size_t longest = 0;
            for (const char c : b.text) {
                run = c == '`' ? run + 1 : 0;
                longest = std::max(longest, run);
            }
            const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
            out +=
                "\n" + fence + "\n" + b.text + (b.text.empty() || b.text.back() != '\n' ? "\n" : "") + fence + "\n\n";
            break;
        }
        case Block::Kind::Picture: {
            const ReportPicture* p = pictures.find(b.text);
            if (!p)
                continue; // not drawn: nothing in its place
            gap();
            out += "![" + mdEscaped(b.label) + "](" + pictures.link(*p) + ")\n\n*" + mdEscaped(b.label) + "*\n";
            break;
        }
        }
        previous = b.kind;
    }
    while (out.size() > 1 && out.back() == '\n' && out[out.size() - 2] == '\n')
        out.pop_back();
    return out;
}

// ---- HTML -----------------------------------------------------------------------------------------------------

/// The page's style for a browser: a readable column, tables with rules, excerpts shaded and indented under their
/// trail entry, a dark theme honoured.
const char* kBrowserStyle =
    "body{font-family:sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.4}\n"
    "table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #999;padding:.2rem .5rem;"
    "text-align:left;vertical-align:top}\npre{background:#f4f4f4;padding:.5rem;margin-left:2.5rem;overflow-x:auto}\n"
    ".picture img{max-width:100%;height:auto;border:1px solid #ccc}.caption{font-style:italic}\n"
    "@media (prefers-color-scheme:dark){body{background:#1e1e1e;color:#ddd}pre{background:#2a2a2a}}\n";

/// Column widths, in percent, for a table too wide to leave to the layout: every column gets its longest word (a
/// time, a hash, a path), and the room left goes to the columns with long texts, in proportion to how much longer
/// they are. Empty for a narrow table.
std::vector<int> columnWidths(const Block& table)
{
    const std::size_t n = table.header.size();
    std::vector<std::size_t> longest(n, 0);
    std::vector<std::size_t> word(n, 0);
    auto measure = [&](std::size_t c, const std::string& text) {
        longest[c] = std::max(longest[c], std::min<std::size_t>(text.size(), 80));
        std::size_t run = 0;
        for (const char ch : text) {
            run = ch == ' ' ? 0 : run + 1;
            word[c] = std::max(word[c], run);
        }
    };
    for (std::size_t c = 0; c < n; ++c)
        measure(c, table.header[c]);
    for (const auto& row : table.rows)
        for (std::size_t c = 0; c < row.size() && c < n; ++c)
            measure(c, row[c]);
    // In characters of the text's average width; a long word is mostly digits and punctuation, which are wider.
    std::vector<double> need(n);
    std::vector<double> want(n);
    double total = 0;
    double needed = 0;
    double spare = 0;
    for (std::size_t c = 0; c < n; ++c) {
        need[c] = static_cast<double>(std::min<std::size_t>(word[c], 40)) * 1.2 + 3; // and a cell's padding
        want[c] = std::max(static_cast<double>(longest[c]) + 3, need[c]);
        total += want[c];
        needed += need[c];
        spare += want[c] - need[c];
    }
    if (total < 90)
        return {};
    const double budget = std::max(needed, 110.0);
    std::vector<int> out;
    for (std::size_t c = 0; c < n; ++c) {
        const double extra = spare > 0 ? (budget - needed) * (want[c] - need[c]) / spare : 0;
        out.push_back(static_cast<int>((need[c] + extra) * 100 / budget));
    }
    return out;
}

std::string html(const std::vector<Block>& blocks, PictureLinker& pictures, const std::string& style)
{
    std::string title = blocks.empty() ? std::string("Postmortem") : blocks.front().text;
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
        + markupEscaped(title) + "</title>\n<style>\n" + (style.empty() ? std::string(kBrowserStyle) : style)
        + "</style>\n</head>\n<body>\n";
    bool inList = false;
    auto closeList = [&] {
        if (inList)
            out += "</ul>\n";
        inList = false;
    };
    for (const auto& b : blocks) {
        if (b.kind != Block::Kind::Fact)
            closeList();
        switch (b.kind) {
        case Block::Kind::Heading: {
            const std::string h = std::to_string(std::clamp(b.level, 1, 6));
            out += "<h" + h + ">" + markupEscaped(b.text) + "</h" + h + ">\n";
            break;
        }
        case Block::Kind::Fact:
            if (!inList)
                out += "<ul>\n";
            inList = true;
            out += "<li><b>" + markupEscaped(b.label) + "</b>: " + markupEscaped(b.text) + "</li>\n";
            break;
        case Block::Kind::Paragraph:
            out += "<p>" + markupEscaped(b.text) + "</p>\n";
            break;
        case Block::Kind::Table: {
            const std::vector<int> widths = columnWidths(b);
            // The header row in <thead>: a print layout repeats it on every page the table runs over.
            out += widths.empty() ? "<table>\n<thead><tr>" : "<table width=\"100%\">\n<thead><tr>";
            for (std::size_t c = 0; c < b.header.size(); ++c)
                out += (widths.empty() ? std::string("<th>") : "<th width=\"" + std::to_string(widths[c]) + "%\">")
                    + markupEscaped(b.header[c]) + "</th>";
            out += "</tr></thead>\n<tbody>\n";
            for (const auto& r : b.rows) {
                out += "<tr>";
                for (const auto& c : r)
                    out += "<td>" + markupEscaped(c) + "</td>";
                out += "</tr>\n";
            }
            out += "</tbody>\n</table>\n";
            break;
        }
        case Block::Kind::Excerpt:
            out += "<pre>" + markupEscaped(b.text) + "</pre>\n";
            break;
        case Block::Kind::Picture:
            if (const ReportPicture* p = pictures.find(b.text)) {
                out += "<p class=\"picture\"><img src=\"" + pictures.link(*p) + "\"";
                if (p->width > 0 && p->height > 0)
                    out += " width=\"" + std::to_string(p->width) + "\" height=\"" + std::to_string(p->height) + "\"";
                out += " alt=\"" + markupEscaped(b.label) + "\"></p>\n<p class=\"caption\">" + markupEscaped(b.label)
                    + "</p>\n";
            }
            break;
        }
    }
    closeList();
    return out + "</body>\n</html>\n";
}

/// Every text of the report through the redactor (before any escaping, so Markdown's backslashes and HTML's
/// entities cannot hide a secret from it).
void redactBlocks(std::vector<Block>& blocks, core::Redactor& r)
{
    for (auto& b : blocks) {
        b.label = r.redact(b.label);
        if (b.kind != Block::Kind::Picture) // a picture's text is its slot's id
            b.text = r.redact(b.text);
        for (auto& h : b.header)
            h = r.redact(h);
        for (auto& row : b.rows)
            for (auto& cell : row)
                cell = r.redact(cell);
    }
}

/// The record of a redacted copy (its profile and time) and the original's SHA-256 per file id; empty when the case
/// is not a redacted copy.
CopyRecord readCopyRecord(const std::string& json, std::map<std::int64_t, std::string>& originalSha)
{
    CopyRecord out;
    const auto tree = core::parseJsonSpans(json);
    if (!tree)
        return out;
    const core::JsonSpan* profile = tree->member("profile");
    const core::JsonSpan* name = profile ? profile->member("name") : nullptr;
    out.profile = name ? name->text : std::string("(unnamed)");
    if (const core::JsonSpan* at = tree->member("redacted_at"))
        out.redactedAt = at->text;
    const core::JsonSpan* original = tree->member("original");
    const core::JsonSpan* files = original ? original->member("files") : nullptr;
    if (files)
        for (const auto& f : files->items) {
            const core::JsonSpan* id = f.member("id");
            const core::JsonSpan* sha = f.member("sha256");
            std::int64_t n = 0;
            if (id && sha && sha->type == core::JsonSpan::Type::String
                && std::from_chars(id->text.data(), id->text.data() + id->text.size(), n).ec == std::errc())
                originalSha[n] = sha->text;
        }
    return out;
}

} // namespace

Result<ReportDraft> prepareCaseReport(const ReportRequest& request, const Task& task)
{
    auto history = caseHistory(request.casePath);
    if (!history.ok())
        return Result<ReportDraft>::fail(history.failure.code, history.failure.message, history.failure.diagnostics);
    std::map<std::string, std::string> sha256;
    CopyRecord copy;
    {
        std::vector<core::Diagnostic> errors;
        auto c = core::CaseFile::open(request.casePath, { true, false }, errors);
        if (!c)
            return Result<ReportDraft>::fail(Exit::Case, "cannot open the case " + request.casePath, errors);
        std::map<std::int64_t, std::string> originalSha;
        if (const auto record = c->metaValue("redaction", errors))
            copy = readCopyRecord(*record, originalSha);
        for (const auto& f : c->files(errors)) {
            const auto orig = originalSha.find(f.id);
            sha256.emplace(f.path, copy.profile.empty() || orig == originalSha.end() ? f.sha256 : orig->second);
        }
    }
    std::shared_ptr<core::Redactor> redactor;
    if (request.redaction) {
        task.report(2, "Finding the case's secrets");
        auto r = caseRedactor(request.casePath, *request.redaction);
        if (!r.ok())
            return Result<ReportDraft>::fail(r.failure.code, r.failure.message, r.failure.diagnostics);
        redactor = std::move(*r.value);
    }
    if (task.cancelled())
        return Result<ReportDraft>::fail(Exit::Cancelled, "cancelled");
    ReproduceRequest rr;
    rr.casePath = request.casePath;
    rr.rules = Rules::Stored;
    rr.currentRulesDir = request.currentRulesDir;
    rr.threads = request.threads;
    rr.readOnly = true;
    auto analysed = reproduceCase(rr, task);
    if (!analysed.ok())
        return Result<ReportDraft>::fail(analysed.failure.code, analysed.failure.message, analysed.failure.diagnostics);
    ReportDraft draft;
    {
        // The annotations as the report's analysis has them: an event's by its rule and record; one named only by
        // its index stands for the stored run's event when the re-analysis reproduces that run.
        const Analysis& a = *analysed.value;
        draft.annotations = history.value->annotations;
        draft.resolutions = core::resolveAnnotations(draft.annotations,
            core::annotationScope(draft.annotations, *a.verdict, *a.evidence, kScopeName, scopeRun(a)));
    }
    draft.blocks = buildReport(*analysed.value, *history.value, history.value->story, sha256, copy, draft.pictures);
    if (redactor) {
        const auto& p = redactor->profile();
        draft.blocks.insert(draft.blocks.begin() + 1,
            Block { Block::Kind::Fact, "Redacted",
                "with the redaction profile " + p.name
                    + ": host names, addresses, users, paths and secrets are pseudonyms, the same as in a redacted "
                      "copy of this case",
                {}, {} });
        redactBlocks(draft.blocks, *redactor);
        // The slots' captions as the blocks now say them.
        for (auto& slot : draft.pictures)
            for (const auto& b : draft.blocks)
                if (b.kind == Block::Kind::Picture && b.text == slot.id)
                    slot.caption = b.label;
    }
    draft.title = draft.blocks.empty() ? std::string("Postmortem") : draft.blocks.front().text;
    draft.analysis = std::move(*analysed.value);
    draft.redactor = std::move(redactor);
    Result<ReportDraft> out;
    out.value = std::move(draft);
    return out;
}

RenderedReport renderCaseReport(
    const ReportDraft& draft, const std::vector<ReportPicture>& pictures, const RenderOptions& options)
{
    PictureLinker linker(pictures, options);
    RenderedReport out;
    out.text = options.format == ReportFormat::Html ? html(draft.blocks, linker, options.style)
                                                    : markdown(draft.blocks, linker);
    out.assets = linker.takeAssets();
    return out;
}

Result<std::string> caseReport(const ReportRequest& request, const Task& task)
{
    auto draft = prepareCaseReport(request, task);
    if (!draft.ok())
        return Result<std::string>::fail(draft.failure.code, draft.failure.message, draft.failure.diagnostics);
    Result<std::string> out;
    out.value = renderCaseReport(*draft.value, {}, RenderOptions { request.format, PictureLinks::Inline, {}, {} }).text;
    return out;
}

RenderOptions renderOptionsFor(ReportFormat format, const std::string& reportPath)
{
    RenderOptions o;
    o.format = format;
    if (format == ReportFormat::Markdown) {
        o.links = PictureLinks::Files;
        const std::string stem = fs::path(reportPath).stem().string();
        o.assetDir = (stem.empty() ? std::string("report") : stem) + ".assets";
    }
    return o;
}

std::string reportTargetProblem(const std::string& outPath, const std::string& casePath)
{
    std::error_code ec;
    if (fs::exists(outPath, ec)) {
        if (fs::equivalent(outPath, casePath, ec))
            return "refusing to write the report over the case " + casePath;
        // Another case (a SQLite database) is never a report's target either: nothing the user saved is lost.
        std::ifstream in(outPath, std::ios::binary);
        char magic[16] = {};
        if (in.read(magic, sizeof magic)
            && std::string_view(magic, sizeof magic) == std::string_view("SQLite format 3\0", 16))
            return "refusing to write the report over the case file " + outPath + " (a SQLite database)";
    } else if (fs::weakly_canonical(outPath, ec) == fs::weakly_canonical(casePath, ec) && !ec) {
        return "refusing to write the report over the case " + casePath;
    }
    return {};
}

Result<WrittenReport> writeCaseReport(
    const RenderedReport& report, const std::string& outPath, const std::string& casePath)
{
    if (outPath.empty())
        return Result<WrittenReport>::fail(Exit::Usage, "the report needs a file to be written to");
    if (const std::string problem = reportTargetProblem(outPath, casePath); !problem.empty())
        return Result<WrittenReport>::fail(Exit::Usage, problem);
    WrittenReport out;
    out.path = outPath;
    const fs::path dir = fs::path(outPath).parent_path();
    for (const auto& a : report.assets) {
        const fs::path target = dir / a.path;
        if (const std::string problem = reportTargetProblem(target.string(), casePath); !problem.empty())
            return Result<WrittenReport>::fail(Exit::Usage, problem);
        std::error_code ec;
        fs::create_directories(target.parent_path(), ec);
        std::ofstream f(target, std::ios::binary | std::ios::trunc);
        f.write(a.bytes.data(), static_cast<std::streamsize>(a.bytes.size()));
        if (!f.flush())
            return Result<WrittenReport>::fail(Exit::Usage, "cannot write the report's picture " + target.string());
        out.assets.push_back(target.string());
        out.bytes += a.bytes.size();
    }
    std::ofstream f(outPath, std::ios::binary | std::ios::trunc);
    f.write(report.text.data(), static_cast<std::streamsize>(report.text.size()));
    if (!f.flush())
        return Result<WrittenReport>::fail(Exit::Usage, "cannot write " + outPath);
    out.bytes += report.text.size();
    Result<WrittenReport> res;
    res.value = std::move(out);
    return res;
}

} // namespace faultline::usecases
