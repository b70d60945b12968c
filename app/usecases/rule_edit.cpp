// SPDX-License-Identifier: Apache-2.0
#include "app/usecases/rule_edit.h"

#include "app/usecases/regress.h"
#include "core/analysis/analyzer.h"
#include "core/casefile/case_file.h"
#include "core/report/verdict_report.h"
#include "core/rules/rule_tester.h"
#include "core/rules/rule_text.h"

#include <re2/re2.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;

namespace faultline::usecases {

namespace {

using Clock = std::chrono::steady_clock;

std::int64_t msSince(Clock::time_point t0)
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
}

/// The name the document's own diagnostics carry before they are placed in it.
const char* const kDocumentName = "(the rule being edited)";

std::string normal(const std::string& path)
{
    return fs::path(path).lexically_normal().string();
}

std::optional<std::string> readText(const fs::path& path, std::string& error)
{
    std::error_code ec;
    if (!fs::exists(path, ec))
        return std::string();
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "cannot read " + path.string();
        return std::nullopt;
    }
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// The rule with this id in the catalog: its origin and kind's section.
struct Found
{
    core::RuleOrigin origin;
    std::string section;
    int version = 0;
};

std::optional<Found> findRule(const core::RuleCatalog& c, const std::string& id)
{
    auto look = [&](const auto& rules, const char* section) -> std::optional<Found> {
        for (const auto& r : rules)
            if (r.id == id)
                return Found { r.origin, section, r.version };
        return std::nullopt;
    };
    if (auto f = look(c.extractors(), "extractors"))
        return f;
    if (auto f = look(c.filters(), "filters"))
        return f;
    if (auto f = look(c.correlators(), "correlators"))
        return f;
    if (auto f = look(c.metricRules(), "metrics"))
        return f;
    if (auto f = look(c.aggregates(), "aggregates"))
        return f;
    return look(c.hypotheses(), "hypotheses");
}

/// The catalog's file that defines a rule of this origin (a pack layer's origin names its directory and the file).
const core::CatalogFile* fileOf(const core::RuleCatalog& c, const core::RuleOrigin& o)
{
    for (const auto& f : c.files()) {
        if (f.layer != o.layer || f.layer >= c.layers().size())
            continue;
        const std::string named = f.layer == 0 ? f.path : (fs::path(c.layers()[f.layer].dir) / f.path).string();
        if (normal(named) == normal(o.file))
            return &f;
    }
    return nullptr;
}

} // namespace

std::string RuleTarget::path() const
{
    return (fs::path(dir) / packFile).string();
}

std::size_t RuleCheck::errors() const
{
    return static_cast<std::size_t>(std::count_if(diagnostics.begin(), diagnostics.end(),
        [](const EditDiagnostic& d) { return d.diagnostic.severity == core::Severity::Error; }));
}

Result<RuleDocument> openRuleForEdit(
    const core::RuleCatalog& catalog, const std::string& id, const std::string& userDir)
{
    const auto found = findRule(catalog, id);
    if (!found) {
        std::string message = "no rule '" + id + "' in the catalog";
        const auto close = core::closeRuleIds(catalog, id);
        for (std::size_t i = 0; i < close.size(); ++i)
            message += (i == 0 ? " (did you mean " : ", ") + close[i];
        if (!close.empty())
            message += ")";
        return Result<RuleDocument>::fail(Exit::Usage, message);
    }
    const core::CatalogFile* file = fileOf(catalog, found->origin);
    if (!file)
        return Result<RuleDocument>::fail(
            Exit::Usage, "the catalog does not hold the text of " + found->origin.file + ", where '" + id + "' is");
    RuleDocument doc;
    doc.ruleId = id;
    doc.target.replaceId = id;
    const bool bundled = found->origin.layer == 0;
    doc.from = found->origin.file + ":" + std::to_string(found->origin.line) + (bundled ? " (bundled)" : "");
    if (bundled) {
        // A bundled rule is edited as an override in the user's directory; an earlier save may have put it there.
        doc.target.dir = userDir;
        doc.target.packFile = "packs/" + fs::path(file->path).filename().string();
        doc.isOverride = true;
    } else {
        const auto layer = catalog.layers().at(found->origin.layer);
        doc.target.dir = layer.dir;
        doc.target.packFile = file->path;
        doc.isOverride = found->origin.layer > 0;
    }
    std::vector<core::Diagnostic> errors;
    auto text = core::extractRuleDocument(file->text, id, bundled, found->origin.file, errors);
    if (!text)
        return Result<RuleDocument>::fail(Exit::Usage, "cannot take '" + id + "' out of " + found->origin.file, errors);
    if (!bundled) {
        // The rule's own file: is it an override of a lower layer's rule?
        const auto pack = core::scanPackText(file->text, found->origin.file, errors);
        const core::RuleEntryText* entry = pack ? pack->find(id) : nullptr;
        doc.isOverride = entry && entry->hasOverride;
    }
    doc.text = std::move(*text);
    Result<RuleDocument> out;
    out.value = std::move(doc);
    return out;
}

namespace {

/// The sources with the target's pack file given as `text`, the target's directory added as the lowest pack layer
/// when it is not one of them.
core::CatalogSources withText(core::CatalogSources sources, const RuleTarget& target, const std::string& text)
{
    const std::string dir = normal(target.dir);
    const bool layered = std::any_of(
        sources.packDirs.begin(), sources.packDirs.end(), [&](const std::string& d) { return normal(d) == dir; });
    if (!layered)
        sources.packDirs.insert(sources.packDirs.begin(), target.dir);
    const std::string path = normal(target.path());
    sources.texts.erase(std::remove_if(sources.texts.begin(), sources.texts.end(),
                            [&](const core::CatalogText& t) { return normal(t.path) == path; }),
        sources.texts.end());
    sources.texts.push_back({ target.path(), text });
    return sources;
}

/// Places a diagnostic of the pack file in the document when it lies in the edited entry.
EditDiagnostic place(const core::Diagnostic& d, const std::string& packPath, const core::MergedRule& merged)
{
    EditDiagnostic e;
    e.diagnostic = d;
    if (normal(d.where.file) != normal(packPath) || d.where.line == 0)
        return e;
    const std::uint64_t line = d.where.line - 1;
    if (line < merged.first || line >= merged.first + merged.lines)
        return e;
    e.line = merged.documentFirst + (line - merged.first) + 1;
    const long column = static_cast<long>(std::max<std::uint32_t>(d.where.column, 1)) - merged.shift;
    e.column = static_cast<std::uint32_t>(std::max(1L, column));
    return e;
}

/// Where a pattern's parentheses fail: the innermost '(' left open ("missing )") or the first ')' that closes
/// nothing ("unexpected )"); npos when they balance.
std::size_t unbalancedParen(const std::string& p, bool open)
{
    std::vector<std::size_t> stack;
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (p[i] == '\\') {
            ++i;
        } else if (p[i] == '[') {
            std::size_t j = i + 1;
            if (j < p.size() && p[j] == '^')
                ++j;
            if (j < p.size() && p[j] == ']')
                ++j;
            while (j < p.size() && p[j] != ']')
                j += p[j] == '\\' ? 2u : 1u;
            i = j;
        } else if (p[i] == '(') {
            stack.push_back(i);
        } else if (p[i] == ')') {
            if (stack.empty()) {
                if (!open)
                    return i;
            } else {
                stack.pop_back();
            }
        }
    }
    return open && !stack.empty() ? stack.back() : std::string::npos;
}

/// Points an RE2 compile error that lies in the document at the part of the pattern it is about: the '(' left open
/// for "missing )", the stray ')' for "unexpected )", else the fragment RE2 quotes (a class left open, an escape,
/// a repetition). The message then names that part instead of repeating the whole pattern. Patterns written in
/// double quotes (whose escapes shift columns) keep the location of their value.
void pointAtRegexError(EditDiagnostic& e, const std::string& docLine)
{
    std::string& msg = e.diagnostic.message;
    const std::string lead = "regex does not compile: ";
    const auto p = msg.find(lead);
    const auto in = msg.rfind(" (in '");
    if (e.line == 0 || p == std::string::npos || in == std::string::npos || in < p + lead.size() || msg.size() < in + 8)
        return;
    const std::string error = msg.substr(p + lead.size(), in - p - lead.size());
    const std::string pattern = msg.substr(in + 6, msg.size() - in - 8);
    const auto colon = error.find(": ");
    const std::string kind = error.substr(0, colon);
    std::string arg = colon == std::string::npos ? std::string() : error.substr(colon + 2);
    if (arg.rfind("(?m)", 0) == 0 && pattern.rfind("(?m)", 0) != 0)
        arg.erase(0, 4);
    std::size_t offset = std::string::npos;
    std::size_t length = arg.size();
    std::string said;
    if (kind == "missing )") {
        offset = unbalancedParen(pattern, true);
        length = 1;
        said = "missing ): the group opened here is never closed";
    } else if (kind == "unexpected )") {
        offset = unbalancedParen(pattern, false);
        length = 1;
        said = "unexpected ): this ')' closes no group";
    } else if (!arg.empty() && arg != pattern) {
        offset = pattern.find(arg);
        said = kind + ": '" + arg + "'";
    }
    if (offset == std::string::npos)
        return;
    // The document's column of the pattern's offset: one character per character, '' for a quote in single quotes.
    std::size_t col = e.column > 0 ? e.column - 1 : 0;
    if (col >= docLine.size() || docLine[col] == '"')
        return;
    const bool single = docLine[col] == '\'';
    if (single)
        ++col;
    std::string decoded;
    std::size_t at = std::string::npos;
    std::size_t end = std::string::npos;
    for (std::size_t i = col; i < docLine.size() && decoded.size() < pattern.size(); ++i) {
        if (decoded.size() == offset)
            at = i;
        if (single && docLine[i] == '\'') {
            if (i + 1 < docLine.size() && docLine[i + 1] == '\'')
                ++i;
            else
                break;
        }
        decoded += docLine[i];
        if (decoded.size() == offset + length)
            end = i + 1;
    }
    if (decoded != pattern || at == std::string::npos)
        return;
    e.column = static_cast<std::uint32_t>(at + 1);
    e.length = static_cast<std::uint32_t>((end == std::string::npos ? docLine.size() : end) - at);
    msg = msg.substr(0, p) + lead + said;
}

} // namespace

RuleCheck checkRule(const RuleCheckRequest& request)
{
    const auto t0 = Clock::now();
    RuleCheck out;
    std::string readError;
    const auto onDisk = readText(request.target.path(), readError);
    if (!onDisk) {
        out.diagnostics.push_back(
            { core::makeDiagnostic(core::Severity::Error, "unreadable", readError, request.target.path()), 0, 0, 0 });
        out.ms = msSince(t0);
        return out;
    }
    core::MergeOptions options;
    options.packName = fs::path(request.target.packFile).stem().string();
    options.replaceId = request.target.replaceId;
    std::vector<core::Diagnostic> errors;
    const auto merged =
        core::mergeRuleText(*onDisk, request.text, options, request.target.path(), kDocumentName, errors);
    if (!merged) {
        for (auto& d : errors) {
            EditDiagnostic e;
            if (d.where.file == kDocumentName) {
                e.line = d.where.line;
                e.column = d.where.column;
                d.where.file = request.target.path() + " (unsaved)";
            }
            e.diagnostic = std::move(d);
            out.diagnostics.push_back(std::move(e));
        }
        out.ms = msSince(t0);
        return out;
    }
    out.ruleId = merged->id;
    out.section = merged->section;
    out.sources = withText(request.sources, request.target, merged->text);
    auto loaded = core::RuleCatalog::load(out.sources);
    std::vector<std::string> docLines;
    {
        std::istringstream lines(request.text);
        for (std::string l; std::getline(lines, l);)
            docLines.push_back(l);
    }
    for (const auto& d : loaded.diagnostics) {
        EditDiagnostic e = place(d, request.target.path(), *merged);
        if (d.code == "bad-regex" && e.line > 0 && e.line <= docLines.size())
            pointAtRegexError(e, docLines[e.line - 1]);
        out.diagnostics.push_back(std::move(e));
    }
    if (loaded.ok()) {
        for (const auto& t : core::runRuleTests(*loaded.catalog, merged->id)) {
            ++out.testsRun;
            if (t.passed)
                continue;
            ++out.testsFailed;
            core::Diagnostic d;
            d.severity = core::Severity::Error;
            d.code = "rule-test-failed";
            d.message = "test failed: " + t.message;
            d.ruleId = t.ruleId;
            d.where = { t.origin.file, t.origin.line, t.origin.column, 0 };
            out.diagnostics.push_back(place(d, request.target.path(), *merged));
        }
        out.catalog = std::move(loaded.catalog);
    }
    out.ms = msSince(t0);
    return out;
}

Result<RuleRun> runEditedRule(const RuleRunRequest& request, const Task& task)
{
    const Analysis& shown = request.shown;
    if (!shown.evidence || !shown.verdict)
        return Result<RuleRun>::fail(Exit::Usage, "nothing is analysed: open a case or a bundle first");
    if (!request.catalog)
        return Result<RuleRun>::fail(Exit::Usage, "the edited rules have errors: fix them first");
    RuleRun out;
    out.analysis = shown;
    out.analysis.catalog = request.catalog;
    out.analysis.rulesDir = request.catalog->loadedFrom();
    out.analysis.rulesOrigin = "edited rules";
    out.analysis.catalogWarnings.clear();
    core::AnalysisOptions options;
    options.threads = request.threads;
    options.windowFromNs = shown.windowFromNs;
    options.windowToNs = shown.windowToNs;
    options.cancel = task.cancel;
    task.report(
        10, "Running the edited rules over " + std::to_string(shown.evidence->observations.size()) + " records");
    const auto t0 = Clock::now();
    auto verdict = std::make_shared<core::Verdict>();
    const bool known = !request.ruleId.empty() && findRule(*request.catalog, request.ruleId);
    if (known) {
        // One engine pass with the recorder on gives both the verdict and the rule's trace.
        core::TraceRequest trace;
        trace.ruleId = request.ruleId;
        trace.maxNearMisses = request.maxNearMisses;
        std::vector<core::Diagnostic> errors;
        out.trace = core::traceRules(*shown.evidence, *request.catalog, trace, options, errors, verdict.get());
        if (!out.trace)
            out.traceNote = errors.empty() ? std::string("no trace") : errors.front().message;
    } else {
        *verdict = core::analyze(*shown.evidence, *request.catalog, options);
        out.traceNote = request.ruleId.empty() ? std::string("no rule to trace")
                                               : "the edited catalog has no rule '" + request.ruleId + "'";
    }
    out.analyseMs = msSince(t0);
    out.analysis.analyseMs = out.analyseMs;
    if (task.cancelled())
        return Result<RuleRun>::fail(Exit::Cancelled, "cancelled");
    task.report(85, "Comparing the verdicts");
    const auto t1 = Clock::now();
    std::vector<core::Diagnostic> errors;
    const auto diff = core::diffVerdicts(
        core::verdictToJson(*shown.verdict, *shown.evidence), core::verdictToJson(*verdict, *shown.evidence), errors);
    if (!diff)
        return Result<RuleRun>::fail(Exit::Usage, "the verdicts cannot be compared", errors);
    out.diff = *diff;
    out.baseline = !shown.casePath.empty() && shown.storedRun > 0 && shown.matchesStoredRun
        ? "run " + std::to_string(shown.storedRun)
        : std::string("the shown verdict");
    out.diff.from = shown.matchesStoredRun ? shown.storedRun : 0;
    // A case shown with its run's own stored rules is compared with the current rules plus the edit.
    if (!shown.casePath.empty() && shown.rulesOrigin.rfind("run ", 0) == 0)
        out.baselineNote = "the shown verdict was made with " + shown.rulesOrigin
            + "; the edited catalog is the current rules with this edit, so the diff also shows what else the current "
              "rules change (File ▸ Re-run the Case with Current Rules compares like with like)";
    out.analysis.verdict = std::move(verdict);
    out.analysis.matchesStoredRun = out.diff.same && shown.matchesStoredRun;
    out.diffMs = msSince(t1);
    task.report(100, "Done");
    Result<RuleRun> r;
    r.value = std::move(out);
    return r;
}

std::optional<RecordAtLine> recordAt(const core::EvidenceSet& evidence, const std::string& path, std::uint64_t line)
{
    std::uint32_t source = 0;
    for (; source < evidence.sources.size(); ++source)
        if (evidence.sources[source].path == path)
            break;
    if (source == evidence.sources.size() || line == 0)
        return std::nullopt;
    const auto& obs = evidence.observations;
    // Observations are grouped by source, in file order: the last record of the source starting at or before the
    // line is the one that holds it, when the line lies within its text.
    auto it = std::upper_bound(obs.begin(), obs.end(), std::make_pair(source, line),
        [](const std::pair<std::uint32_t, std::uint64_t>& key, const core::Observation& o) {
            return key.first < o.where.source || (key.first == o.where.source && key.second < o.where.line);
        });
    if (it == obs.begin())
        return std::nullopt;
    --it;
    if (it->where.source != source)
        return std::nullopt;
    const auto lines = static_cast<std::uint64_t>(std::count(it->text.begin(), it->text.end(), '\n')) + 1;
    if (line >= it->where.line + lines)
        return std::nullopt;
    RecordAtLine r;
    r.observation = static_cast<std::uint32_t>(it - obs.begin());
    r.path = path;
    r.line = it->where.line;
    r.text = std::string(it->text);
    r.kind = it->kind;
    return r;
}

// --- drafting a rule from a record ------------------------------------------------------------------------------

namespace {

/// Quotes a scalar for YAML: single quotes when every character may stand in them, else double quotes with escapes.
std::string yamlQuoted(std::string_view s)
{
    const bool plain = std::all_of(s.begin(), s.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u >= 0x20 || c == '\t';
    });
    std::string out;
    if (plain) {
        out = "'";
        for (char c : s)
            out += c == '\'' ? std::string("''") : std::string(1, c);
        return out + "'";
    }
    out = "\"";
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20 && c != '\t') {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", u);
            out += buf;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

/// A literal for an RE2 pattern: metacharacters escaped, runs of white space as \s+, control characters as \x{..}.
void appendLiteral(std::string& pattern, std::string_view text)
{
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const auto u = static_cast<unsigned char>(c);
        if (c == ' ' || c == '\t') {
            std::size_t j = i;
            while (j < text.size() && (text[j] == ' ' || text[j] == '\t'))
                ++j;
            if (j - i > 1 || c == '\t')
                pattern += "\\s+";
            else
                pattern += ' ';
            i = j - 1;
        } else if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) {
            pattern += '\\';
            pattern += c;
        } else if (u < 0x20 || u == 0x7f) {
            char buf[12];
            std::snprintf(buf, sizeof buf, "\\x{%02x}", u);
            pattern += buf;
        } else {
            pattern += c;
        }
    }
}

bool wordChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// A kind of variable token: how to find it at a position and the class that matches its kind.
struct TokenKind
{
    std::string name; ///< the capture's default name
    std::unique_ptr<RE2> find; ///< anchored at the position (RE2::Consume)
    std::string capture; ///< the class written into the pattern
    bool keyed = false; ///< named after the key before it when there is one ("pid=2211" → pid)
    std::string rightForbidden = "_"; ///< characters that may not follow it (besides letters and digits)
    std::size_t minLength = 1;
};

std::vector<TokenKind> tokenKinds(const std::vector<std::string>& hosts)
{
    std::vector<TokenKind> kinds;
    auto add = [&](std::string name, const std::string& re, std::string capture, bool keyed,
                   std::string forbidden = "_", std::size_t minLength = 1) {
        TokenKind k;
        k.name = std::move(name);
        RE2::Options o;
        o.set_log_errors(false);
        k.find = std::make_unique<RE2>("(" + re + ")", o);
        k.capture = std::move(capture);
        k.keyed = keyed;
        k.rightForbidden = std::move(forbidden);
        k.minLength = minLength;
        kinds.push_back(std::move(k));
    };
    const std::string uuid = "(?:GPU|MIG)-[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}";
    add("uuid", uuid, uuid, false);
    const std::string stamp = "\\d{4}-\\d{2}-\\d{2}[T _]\\d{2}:\\d{2}:\\d{2}(?:[.,]\\d+)?(?:Z|[+-]\\d{2}:?\\d{2})?";
    add("time", stamp, stamp, false);
    const std::string clock = "\\d{2}:\\d{2}:\\d{2}(?:[.,]\\d+)?";
    add("time", clock, clock, false, "_:");
    add("date", "\\d{4}-\\d{2}-\\d{2}", "\\d{4}-\\d{2}-\\d{2}", false);
    // A PCI bus id with its domain or its function, so that a time of day is not one.
    const std::string pciClass = "(?:[0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}(?:\\.[0-7])?";
    add("pci", "[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}(?:\\.[0-7])?|[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]",
        pciClass, false);
    const std::string ip = "\\d{1,3}(?:\\.\\d{1,3}){3}";
    add("ip", ip, ip, false, "_.");
    const std::string hostClass = "[A-Za-z0-9][A-Za-z0-9-]*(?:\\.[A-Za-z0-9-]+)*";
    if (!hosts.empty()) {
        std::vector<std::string> names = hosts;
        std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
            return a.size() != b.size() ? a.size() > b.size() : a < b;
        });
        std::string alt;
        for (const auto& n : names)
            if (!n.empty())
                alt += (alt.empty() ? "" : "|") + RE2::QuoteMeta(n);
        if (!alt.empty())
            add("host", "(?i:" + alt + ")(?:\\.[A-Za-z0-9-]+)*", hostClass, false, "_-");
    }
    // A fully qualified name whose first label holds a digit (node-02.cluster.example.com, not torch.distributed).
    add("host", "[A-Za-z][A-Za-z0-9-]*[0-9][A-Za-z0-9-]*(?:\\.[A-Za-z][A-Za-z0-9-]*)+", hostClass, false, "_-");
    add("hex", "0x[0-9a-fA-F]+", "0x[0-9a-fA-F]+", true);
    // A bare hex value of six digits or more that mixes letters and digits (a GPU serial, a checksum).
    add("hex", "[0-9a-fA-F]*(?:[0-9][a-fA-F]|[a-fA-F][0-9])[0-9a-fA-F]*", "[0-9a-fA-F]+", true, "_", 6);
    // A number: an integer's class is \d+, a decimal's (3.00e-04) allows a fraction and an exponent.
    add("num", "\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?", "\\d+", true, "_");
    return kinds;
}

/// A capture name from text: lower case, [a-z0-9_], starting with a letter; names the engine reads as event
/// attributes are avoided.
std::string captureName(std::string_view word)
{
    std::string n;
    for (char c : word) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u))
            n += static_cast<char>(std::tolower(u));
        else if (!n.empty() && n.back() != '_')
            n += '_';
    }
    while (!n.empty() && n.back() == '_')
        n.pop_back();
    if (n.size() > 24)
        n.resize(24);
    if (n.empty() || !std::isalpha(static_cast<unsigned char>(n.front())))
        return {};
    if (n == "gpu")
        return "gpu_index";
    if (n == "node" || n == "severity" || n == "domain" || n == "subdomain" || n == "action")
        return n + "_name";
    return n;
}

/// The key a value follows: "pid=" "code: " "Link " give pid, code, link.
std::string keyBefore(std::string_view before)
{
    std::size_t end = before.size();
    std::size_t seps = 0;
    while (end > 0 && (before[end - 1] == ' ' || before[end - 1] == '=' || before[end - 1] == ':')) {
        --end;
        ++seps;
    }
    if (seps == 0 || seps > 3)
        return {};
    std::size_t start = end;
    while (start > 0 && (std::isalpha(static_cast<unsigned char>(before[start - 1])) || before[start - 1] == '_'))
        --start;
    if (end - start < 2 || (start > 0 && std::isdigit(static_cast<unsigned char>(before[start - 1]))))
        return {};
    return captureName(before.substr(start, end - start));
}

std::vector<std::string> words(std::string_view text, std::size_t max)
{
    std::vector<std::string> out;
    std::string w;
    auto flush = [&] {
        if (w.size() >= 3 && out.size() < max && std::none_of(w.begin(), w.end(), [](char c) { return c == '_'; }))
            out.push_back(w);
        w.clear();
    };
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalpha(u))
            w += static_cast<char>(std::tolower(u));
        else
            flush();
        if (out.size() >= max)
            break;
    }
    flush();
    return out;
}

bool idTaken(const core::RuleCatalog* catalog, const std::string& id)
{
    return catalog && findRule(*catalog, id).has_value();
}

} // namespace

RuleDraft draftRuleFromLine(std::string_view text, core::SourceKind kind, const DraftHints& hints)
{
    RuleDraft d;
    // One line of the record: a test line holds one record (its "\n" would split it into context records).
    std::string_view line = text.substr(0, text.find('\n'));
    while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
        line.remove_suffix(1);
    d.testLine = std::string(line);
    const auto kinds = tokenKinds(hints.hosts);
    std::set<std::string> names;
    auto uniqueName = [&](std::string n) {
        std::string candidate = n;
        for (int k = 2; names.count(candidate); ++k)
            candidate = n + "_" + std::to_string(k);
        names.insert(candidate);
        return candidate;
    };
    std::string pattern;
    std::size_t literalFrom = 0;
    constexpr std::size_t kMaxDraft = 300;
    std::size_t i = 0;
    while (i < line.size()) {
        if (i >= kMaxDraft && !wordChar(line[i])) {
            line = line.substr(0, i);
            break;
        }
        // "rank 13", "rank=13", "[Rank 13]": the keyword stays literal, the number is the event's rank.
        if ((i == 0 || !wordChar(line[i - 1])) && line.size() - i > 4) {
            std::string_view rest = line.substr(i);
            re2::StringPiece in(rest.data(), rest.size());
            std::string kw;
            std::string value;
            static const RE2 kRank("((?i)rank\\s*[=:\\[]?\\s*)(\\d+)");
            if (RE2::Consume(&in, kRank, &kw, &value) && (in.empty() || !wordChar(in[0])) && !names.count("rank")) {
                appendLiteral(pattern, line.substr(literalFrom, i - literalFrom));
                appendLiteral(pattern, kw);
                pattern += "(?P<" + uniqueName("rank") + ">\\d+)";
                d.captures.emplace_back("rank", value);
                i += kw.size() + value.size();
                literalFrom = i;
                continue;
            }
        }
        bool matched = false;
        if (i == 0 || !wordChar(line[i - 1])) {
            for (const auto& k : kinds) {
                std::string_view rest = line.substr(i);
                re2::StringPiece in(rest.data(), rest.size());
                std::string token;
                if (!RE2::Consume(&in, *k.find, &token) || token.size() < k.minLength)
                    continue;
                const std::size_t after = i + token.size();
                if (after < line.size()
                    && (std::isalnum(static_cast<unsigned char>(line[after]))
                        || k.rightForbidden.find(line[after]) != std::string::npos))
                    continue;
                std::string name = k.keyed ? keyBefore(line.substr(literalFrom, i - literalFrom)) : std::string();
                if (name.empty())
                    name = k.name;
                name = uniqueName(name);
                appendLiteral(pattern, line.substr(literalFrom, i - literalFrom));
                const bool decimal = k.name == "num" && token.find_first_of(".eE") != std::string::npos;
                pattern += "(?P<" + name + ">"
                    + (decimal ? std::string("\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?") : k.capture) + ")";
                d.captures.emplace_back(name, token);
                i = after;
                literalFrom = i;
                matched = true;
                break;
            }
        }
        if (!matched)
            ++i;
    }
    appendLiteral(pattern, line.substr(literalFrom));
    d.pattern = pattern;

    // Its id and event from the record's first words: local.nvrm-xid-netir, event local.nvrm_xid_netir.
    auto w = words(line, 3);
    if (w.empty())
        w = { "drafted" };
    std::string slug;
    std::string under;
    for (const auto& x : w) {
        slug += (slug.empty() ? "" : "-") + x;
        under += (under.empty() ? "" : "_") + x;
    }
    d.id = "local." + slug;
    d.eventType = "local." + under;
    for (int k = 2; idTaken(hints.catalog, d.id); ++k) {
        d.id = "local." + slug + "-" + std::to_string(k);
        d.eventType = "local." + under + "_" + std::to_string(k);
    }
    std::string label;
    for (const auto& x : w)
        label += (label.empty() ? "" : " ") + x;
    if (!d.captures.empty())
        label += " {" + d.captures.front().first + "}";

    std::string y = "extractors:\n";
    y += "  - id: " + d.id + "\n";
    y += "    # Drafted from " + (hints.where.empty() ? std::string("a line of the evidence") : hints.where)
        + ": give it the role, domain and severity it deserves.\n";
    y += "    description: "
        + yamlQuoted("Drafted in the workbench from "
            + (hints.where.empty() ? std::string("a line of the evidence") : hints.where) + ".")
        + "\n";
    if (kind != core::SourceKind::Other)
        y += std::string("    sources: [") + core::sourceKindName(kind) + "]\n";
    y += "    pattern: " + yamlQuoted(d.pattern) + "\n";
    y += "    event: " + d.eventType + "\n";
    y += "    role: context\n";
    y += "    severity: info\n";
    y += "    label: " + yamlQuoted(label) + "\n";
    for (const auto& [name, value] : d.captures)
        if (name == "pci") {
            y += "    gpu: '{pci}'\n";
            break;
        }
    for (const auto& [name, value] : d.captures)
        if (name == "rank") {
            y += "    rank: '{rank}'\n";
            break;
        }
    y += "    tests:\n";
    y += "      - line: " + yamlQuoted(d.testLine) + "\n";
    std::string fields;
    std::size_t listed = 0;
    for (const auto& [name, value] : d.captures) {
        if (listed++ == 8)
            break;
        fields += (fields.empty() ? "" : ", ") + name + ": " + yamlQuoted(value);
    }
    y += "        expect: {event: " + d.eventType + (fields.empty() ? std::string() : ", fields: {" + fields + "}")
        + "}\n";
    d.text = std::move(y);
    return d;
}

// --- saving -----------------------------------------------------------------------------------------------------

Result<SavedRule> saveRule(const RuleCheckRequest& request)
{
    const RuleCheck check = checkRule(request);
    if (check.errors() > 0) {
        std::vector<core::Diagnostic> errors;
        for (const auto& e : check.diagnostics)
            if (e.diagnostic.severity == core::Severity::Error)
                errors.push_back(e.diagnostic);
        return Result<SavedRule>::fail(Exit::Catalog,
            "the rule was not saved: the catalog it gives has " + std::to_string(errors.size()) + " error(s)", errors);
    }
    const fs::path path = request.target.path();
    std::string readError;
    const auto onDisk = readText(path, readError);
    if (!onDisk)
        return Result<SavedRule>::fail(Exit::Usage, "the rule was not saved: " + readError);
    core::MergeOptions options;
    options.packName = fs::path(request.target.packFile).stem().string();
    options.replaceId = request.target.replaceId;
    options.bumpVersion = true;
    std::vector<core::Diagnostic> errors;
    const auto merged = core::mergeRuleText(*onDisk, request.text, options, path.string(), kDocumentName, errors);
    if (!merged)
        return Result<SavedRule>::fail(Exit::Catalog, "the rule was not saved", errors);

    SavedRule saved;
    saved.path = path.string();
    std::error_code ec;
    saved.created = !fs::exists(path, ec);
    saved.replaced = merged->replaced;
    saved.version = merged->version;
    fs::create_directories(path.parent_path(), ec);
    if (ec)
        return Result<SavedRule>::fail(
            Exit::Usage, "the rule was not saved: cannot create " + path.parent_path().string() + ": " + ec.message());
    // The file as it was before Faultline first wrote it is kept beside it (NAME.yaml.bak, which no layer reads).
    if (!saved.created) {
        const fs::path backup = path.string() + ".bak";
        if (!fs::exists(backup, ec)) {
            fs::copy_file(path, backup, ec);
            if (ec)
                return Result<SavedRule>::fail(Exit::Usage,
                    "the rule was not saved: cannot keep a backup at " + backup.string() + ": " + ec.message());
            saved.backup = backup.string();
        }
    }
    // Written to a temporary file beside it and renamed over it: the pack is either the old file or the new one.
    std::random_device rd;
    const fs::path temp = path.parent_path() / ("." + path.filename().string() + ".tmp-" + std::to_string(rd()));
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        out << merged->text;
        out.flush();
        if (!out) {
            fs::remove(temp, ec);
            return Result<SavedRule>::fail(Exit::Usage, "the rule was not saved: cannot write " + temp.string());
        }
    }
    fs::permissions(
        temp, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read, ec);
    fs::rename(temp, path, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(temp, ignored);
        return Result<SavedRule>::fail(
            Exit::Usage, "the rule was not saved: cannot replace " + path.string() + ": " + ec.message());
    }
    // The document as saved (its new version), to keep editing from.
    saved.document.target = request.target;
    saved.document.target.replaceId = merged->id;
    saved.document.ruleId = merged->id;
    saved.document.from = path.string();
    if (auto doc = core::extractRuleDocument(merged->text, merged->id, false, path.string(), errors))
        saved.document.text = std::move(*doc);
    else
        saved.document.text = request.text;
    if (const auto pack = core::scanPackText(merged->text, path.string(), errors))
        if (const auto* e = pack->find(merged->id))
            saved.document.isOverride = e->hasOverride;
    Result<SavedRule> out;
    out.value = std::move(saved);
    return out;
}

// --- the must-not-fire sweep -------------------------------------------------------------------------------------

namespace {

std::string capped(std::string_view s, std::size_t max = 300)
{
    std::string out(s.substr(0, s.find('\n')));
    if (out.size() > max)
        out = out.substr(0, max) + "…";
    return out;
}

std::string fateText(const core::TracedEvent& e)
{
    std::string s = core::eventFateName(e.fate);
    if (e.fate == core::EventFate::Kept && !e.inVerdict.empty())
        s += ": " + e.inVerdict;
    else if (!e.detail.empty())
        s += ": " + e.detail;
    return s;
}

CaseSweep sweepOne(const std::string& path, const SweepRequest& request, const std::atomic_bool* cancel)
{
    const auto t0 = Clock::now();
    CaseSweep c;
    c.path = path;
    ReproduceRequest r;
    r.casePath = path;
    r.rules = Rules::Current;
    r.currentCatalog = request.catalog;
    r.threads = 1; // cases run side by side, one per worker
    r.readOnly = true;
    Task task;
    task.cancel = cancel;
    const auto analysed = reproduceCase(r, task);
    if (!analysed.ok()) {
        c.error = analysed.failure.text();
        c.ms = msSince(t0);
        return c;
    }
    const Analysis& a = *analysed.value;
    core::TraceRequest trace;
    trace.ruleId = request.ruleId;
    trace.maxNearMisses = 0;
    core::AnalysisOptions options;
    options.threads = 1;
    options.windowFromNs = a.windowFromNs;
    options.windowToNs = a.windowToNs;
    options.cancel = cancel;
    std::vector<core::Diagnostic> errors;
    const auto report = core::traceRules(*a.evidence, *request.catalog, trace, options, errors);
    if (!report || report->rules.empty()) {
        c.error = errors.empty() ? std::string("no trace") : errors.front().format();
        c.ms = msSince(t0);
        return c;
    }
    const core::RuleTrace& t = report->rules.front();
    std::set<std::pair<std::string, std::uint64_t>> seen;
    auto hit = [&](const core::TracedRecord& rec, const std::string& label, const std::string& fate) {
        if (!seen.insert({ rec.path, rec.line }).second)
            return;
        ++c.fired;
        if (c.hits.size() < request.maxListed)
            c.hits.push_back({ rec.path, rec.line, capped(rec.text), label, fate });
    };
    for (const auto& e : t.events)
        hit(e.record, e.label, fateText(e));
    for (const auto& l : t.links)
        hit(l.symptomRecord, l.symptomLabel,
            "linked to " + l.causeRecord.path + ":" + std::to_string(l.causeRecord.line));
    c.ms = msSince(t0);
    return c;
}

} // namespace

Result<Sweep> sweepRule(const SweepRequest& request, const Task& task)
{
    const auto t0 = Clock::now();
    std::error_code ec;
    if (!fs::is_directory(request.casesDir, ec))
        return Result<Sweep>::fail(Exit::Usage, "no case library at " + request.casesDir);
    if (!request.catalog)
        return Result<Sweep>::fail(Exit::Usage, "the edited rules have errors: fix them first");
    if (!findRule(*request.catalog, request.ruleId))
        return Result<Sweep>::fail(Exit::Usage, "the catalog has no rule '" + request.ruleId + "'");
    const std::vector<std::string> paths = libraryCases(request.casesDir);
    if (paths.empty())
        return Result<Sweep>::fail(Exit::Usage, "no case (*.faultline) under " + request.casesDir);
    Sweep out;
    out.ruleId = request.ruleId;
    out.cases.resize(paths.size());
    const unsigned wanted = request.threads ? request.threads : std::max(1u, std::thread::hardware_concurrency());
    out.threads = static_cast<unsigned>(std::min<std::size_t>(wanted, paths.size()));
    task.report(0, "Sweeping " + std::to_string(paths.size()) + " cases for " + request.ruleId);
    forEachCase(paths.size(), out.threads, task, "Swept",
        [&](std::size_t k) { out.cases[k] = sweepOne(paths[k], request, task.cancel); });
    if (task.cancelled())
        return Result<Sweep>::fail(Exit::Cancelled, "cancelled");
    for (const auto& c : out.cases) {
        out.fired += c.fired;
        out.casesFired += c.fired > 0 ? 1 : 0;
    }
    out.elapsedMs = msSince(t0);
    Result<Sweep> r;
    r.value = std::move(out);
    return r;
}

} // namespace faultline::usecases
