// SPDX-License-Identifier: Apache-2.0
#include "app/usecases/report.h"

#include "app/usecases/case_history.h"
#include "app/usecases/markup.h"
#include "app/usecases/redact.h"
#include "core/casefile/case_file.h"
#include "core/report/verdict_report.h"
#include "core/time/civil_time.h"
#include "core/util/json_spans.h"
#include "core/version.h"

#include <charconv>
#include <map>

namespace faultline::usecases {

namespace {

/// The report as blocks that both formats render: headings, paragraphs of "label: value" facts, tables and
/// verbatim excerpts. Text is plain; each renderer escapes it.
struct Block
{
    enum class Kind { Heading, Fact, Paragraph, Table, Excerpt };
    Kind kind = Kind::Paragraph;
    std::string label;
    std::string text;
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
};

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

std::vector<Block> buildReport(const Analysis& a, const core::CaseHistory& history,
    const std::map<std::string, std::string>& sha256, const CopyRecord& copy)
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
            + (v.domain.empty() || v.domain == "unknown"
                    ? std::string()
                    : " — " + v.domain + (v.subdomain.empty() ? std::string() : "/" + v.subdomain)));
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
            else if (an->target == "event")
                on = "event " + std::to_string(an->runId) + ":" + std::to_string(an->eventIdx);
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

std::string markdown(const std::vector<Block>& blocks)
{
    std::string out;
    // One blank line before a block that needs one, however the previous block ended.
    auto gap = [&out] {
        while (!out.empty() && out.back() == '\n')
            out.pop_back();
        if (!out.empty())
            out += "\n\n";
    };
    bool first = true;
    Block::Kind previous = Block::Kind::Heading;
    for (const auto& b : blocks) {
        switch (b.kind) {
        case Block::Kind::Heading:
            gap();
            out += (first ? "# " : "## ") + mdEscaped(b.text) + "\n\n";
            first = false;
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
        }
        previous = b.kind;
    }
    while (out.size() > 1 && out.back() == '\n' && out[out.size() - 2] == '\n')
        out.pop_back();
    return out;
}

// ---- HTML -----------------------------------------------------------------------------------------------------

std::string html(const std::vector<Block>& blocks)
{
    std::string title = blocks.empty() ? std::string("Postmortem") : blocks.front().text;
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
        + markupEscaped(title)
        + "</title>\n<style>\nbody{font-family:sans-serif;max-width:60rem;margin:2rem auto;padding:0 "
          "1rem;line-height:1.4}"
          "\ntable{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #999;padding:.2rem .5rem;"
          "text-align:left;vertical-align:top}\npre{background:#f4f4f4;padding:.5rem;overflow-x:auto}"
          "\n@media (prefers-color-scheme:dark){body{background:#1e1e1e;color:#ddd}pre{background:#2a2a2a}}\n"
          "</style>\n</head>\n<body>\n";
    bool first = true;
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
        case Block::Kind::Heading:
            out += first ? "<h1>" + markupEscaped(b.text) + "</h1>\n" : "<h2>" + markupEscaped(b.text) + "</h2>\n";
            first = false;
            break;
        case Block::Kind::Fact:
            if (!inList)
                out += "<ul>\n";
            inList = true;
            out += "<li><b>" + markupEscaped(b.label) + "</b>: " + markupEscaped(b.text) + "</li>\n";
            break;
        case Block::Kind::Paragraph:
            out += "<p>" + markupEscaped(b.text) + "</p>\n";
            break;
        case Block::Kind::Table:
            out += "<table>\n<tr>";
            for (const auto& h : b.header)
                out += "<th>" + markupEscaped(h) + "</th>";
            out += "</tr>\n";
            for (const auto& r : b.rows) {
                out += "<tr>";
                for (const auto& c : r)
                    out += "<td>" + markupEscaped(c) + "</td>";
                out += "</tr>\n";
            }
            out += "</table>\n";
            break;
        case Block::Kind::Excerpt:
            out += "<pre>" + markupEscaped(b.text) + "</pre>\n";
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

Result<std::string> caseReport(const ReportRequest& request, const Task& task)
{
    auto history = caseHistory(request.casePath);
    if (!history.ok())
        return Result<std::string>::fail(history.failure.code, history.failure.message, history.failure.diagnostics);
    std::map<std::string, std::string> sha256;
    CopyRecord copy;
    {
        std::vector<core::Diagnostic> errors;
        auto c = core::CaseFile::open(request.casePath, { true, false }, errors);
        if (!c)
            return Result<std::string>::fail(Exit::Case, "cannot open the case " + request.casePath, errors);
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
            return Result<std::string>::fail(r.failure.code, r.failure.message, r.failure.diagnostics);
        redactor = std::move(*r.value);
    }
    ReproduceRequest rr;
    rr.casePath = request.casePath;
    rr.rules = Rules::Stored;
    rr.currentRulesDir = request.currentRulesDir;
    rr.threads = request.threads;
    rr.readOnly = true;
    const auto analysed = reproduceCase(rr, task);
    if (!analysed.ok())
        return Result<std::string>::fail(analysed.failure.code, analysed.failure.message, analysed.failure.diagnostics);
    auto blocks = buildReport(*analysed.value, *history.value, sha256, copy);
    if (redactor) {
        const auto& p = redactor->profile();
        blocks.insert(blocks.begin() + 1,
            Block { Block::Kind::Fact, "Redacted",
                "with the redaction profile " + p.name
                    + ": host names, addresses, users, paths and secrets are pseudonyms, the same as in a redacted "
                      "copy of this case",
                {}, {} });
        redactBlocks(blocks, *redactor);
    }
    Result<std::string> out;
    out.value = request.format == ReportFormat::Html ? html(blocks) : markdown(blocks);
    return out;
}

} // namespace faultline::usecases
