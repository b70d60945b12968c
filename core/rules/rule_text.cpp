// SPDX-License-Identifier: Apache-2.0
#include "core/rules/rule_text.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>

namespace faultline::core {

namespace {

std::vector<std::string> splitLines(std::string_view text, bool& endsWithNewline)
{
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        const auto nl = text.find('\n', start);
        if (nl == std::string_view::npos) {
            lines.emplace_back(text.substr(start));
            endsWithNewline = false;
            return lines;
        }
        lines.emplace_back(text.substr(start, nl - start));
        start = nl + 1;
    }
    endsWithNewline = true;
    return lines;
}

std::string joinLines(const std::vector<std::string>& lines, bool endsWithNewline)
{
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        out += lines[i];
        if (i + 1 < lines.size() || endsWithNewline)
            out += '\n';
    }
    return out;
}

/// The column of a line's first character that is not a space, or npos for a blank line.
std::size_t contentColumn(const std::string& line)
{
    for (std::size_t i = 0; i < line.size(); ++i)
        if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
            return i;
    return std::string::npos;
}

Diagnostic located(std::string code, std::string message, const std::string& file, std::size_t line, std::size_t col)
{
    Diagnostic d = makeDiagnostic(Severity::Error, std::move(code), std::move(message), file);
    d.where.line = line + 1;
    d.where.column = static_cast<std::uint32_t>(col + 1);
    return d;
}

bool isRuleSection(const std::string& key)
{
    const auto& all = ruleSections();
    return std::find(all.begin(), all.end(), key) != all.end();
}

/// Re-indents lines by `shift` columns (removing only leading spaces when negative); blank lines stay blank.
void reindent(std::vector<std::string>& lines, long shift)
{
    for (auto& l : lines) {
        if (contentColumn(l) == std::string::npos)
            continue;
        if (shift > 0) {
            l.insert(0, static_cast<std::size_t>(shift), ' ');
        } else if (shift < 0) {
            std::size_t n = 0;
            while (n < static_cast<std::size_t>(-shift) && n < l.size() && l[n] == ' ')
                ++n;
            l.erase(0, n);
        }
    }
}

int versionOf(const YAML::Node& entry, std::size_t& line, std::size_t& column)
{
    const YAML::Node v = entry["version"];
    if (!v.IsDefined() || !v.IsScalar())
        return 0;
    const std::string s = v.Scalar();
    if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return 0;
    line = static_cast<std::size_t>(v.Mark().line);
    column = static_cast<std::size_t>(v.Mark().column);
    return std::stoi(s);
}

} // namespace

const std::vector<std::string>& ruleSections()
{
    static const std::vector<std::string> kSections = { "extractors", "filters", "correlators", "metrics", "aggregates",
        "hypotheses" };
    return kSections;
}

const RuleEntryText* PackText::find(std::string_view id) const
{
    for (const auto& r : rules)
        if (r.id == id)
            return &r;
    return nullptr;
}

const RuleSectionText* PackText::section(std::string_view name) const
{
    for (const auto& s : sections)
        if (s.name == name)
            return &s;
    return nullptr;
}

std::optional<PackText> scanPackText(std::string_view text, const std::string& file, std::vector<Diagnostic>& errors)
{
    PackText out;
    out.lines = splitLines(text, out.endsWithNewline);
    out.crlf = text.find("\r\n") != std::string_view::npos;
    YAML::Node doc;
    try {
        doc = YAML::Load(std::string(text));
    } catch (const YAML::ParserException& e) {
        errors.push_back(
            located("yaml-syntax", e.msg, file, e.mark.line < 0 ? 0 : static_cast<std::size_t>(e.mark.line),
                e.mark.column < 0 ? 0 : static_cast<std::size_t>(e.mark.column)));
        return std::nullopt;
    }
    if (doc.IsNull() || !doc.IsDefined())
        return out;
    if (!doc.IsMap()) {
        errors.push_back(located("not-a-map", "top level must be a map", file, 0, 0));
        return std::nullopt;
    }
    for (const auto& kv : doc) {
        if (!kv.first.IsScalar() || !isRuleSection(kv.first.Scalar()))
            continue;
        RuleSectionText section;
        section.name = kv.first.Scalar();
        section.line = static_cast<std::size_t>(kv.first.Mark().line);
        const YAML::Node list = kv.second;
        if (list.IsSequence()) {
            section.flow = list.Style() == YAML::EmitterStyle::Flow;
            section.entries = list.size();
        }
        out.sections.push_back(section);
        if (!list.IsSequence() || section.flow)
            continue;
        for (const auto& entry : list) {
            RuleEntryText r;
            r.section = section.name;
            r.flow = entry.Style() == YAML::EmitterStyle::Flow;
            const auto mark = entry.Mark();
            if (mark.line < 0 || static_cast<std::size_t>(mark.line) >= out.lines.size())
                continue;
            const auto line = static_cast<std::size_t>(mark.line);
            const auto column = static_cast<std::size_t>(mark.column);
            r.keyIndent = column;
            // The entry's "-": before its first key on the same line, or alone on a line above it.
            const std::string& here = out.lines[line];
            const auto dash = here.substr(0, std::min(column, here.size())).rfind('-');
            if (dash != std::string::npos) {
                r.first = line;
                r.indent = dash;
            } else {
                std::size_t up = line;
                while (up > 0) {
                    --up;
                    const auto c = contentColumn(out.lines[up]);
                    if (c != std::string::npos && out.lines[up][c] == '-') {
                        r.first = up;
                        r.indent = c;
                        break;
                    }
                }
            }
            if (entry.IsMap()) {
                if (const YAML::Node id = entry["id"]; id.IsDefined() && id.IsScalar()) {
                    r.id = id.Scalar();
                    r.idLine = static_cast<std::size_t>(std::max(0, id.Mark().line));
                }
                r.version = versionOf(entry, r.versionLine, r.versionColumn);
                r.hasOverride = entry["override"].IsDefined();
            }
            out.rules.push_back(std::move(r));
        }
    }
    // Each entry ends before the next line whose content stands at or left of its "-" (the next entry, the next
    // top-level key); the comments and blank lines just before that line belong to what follows.
    for (auto& r : out.rules) {
        std::size_t end = r.first + 1;
        while (end < out.lines.size()) {
            const auto c = contentColumn(out.lines[end]);
            if (c != std::string::npos && c <= r.indent && out.lines[end][c] != '#')
                break;
            ++end;
        }
        while (end > r.first + 1) {
            const std::string& l = out.lines[end - 1];
            const auto c = contentColumn(l);
            if (c == std::string::npos || (l[c] == '#' && c <= r.indent))
                --end;
            else
                break;
        }
        r.end = end;
    }
    return out;
}

std::optional<std::string> extractRuleDocument(std::string_view packText, std::string_view id, bool asOverride,
    const std::string& file, std::vector<Diagnostic>& errors)
{
    const auto pack = scanPackText(packText, file, errors);
    if (!pack)
        return std::nullopt;
    const RuleEntryText* r = pack->find(id);
    if (!r) {
        errors.push_back(located("no-such-rule", "no rule '" + std::string(id) + "' in this file", file, 0, 0));
        return std::nullopt;
    }
    std::vector<std::string> lines(
        pack->lines.begin() + static_cast<long>(r->first), pack->lines.begin() + static_cast<long>(r->end));
    for (auto& l : lines)
        if (!l.empty() && l.back() == '\r')
            l.pop_back();
    if (asOverride && !r->flow && !r->hasOverride) {
        lines.insert(lines.begin() + static_cast<long>(r->idLine - r->first + 1),
            std::string(r->keyIndent, ' ') + "override: true");
    }
    reindent(lines, 2 - static_cast<long>(r->indent));
    std::string doc = r->section + ":\n";
    for (const auto& l : lines)
        doc += l + '\n';
    return doc;
}

namespace {

std::optional<MergedRule> mergeInto(std::string_view packText, const RuleEntryText& entry,
    std::vector<std::string> block, const MergeOptions& options, int floorVersion, const std::string& packFile,
    std::vector<Diagnostic>& errors);

} // namespace

std::optional<MergedRule> mergeRuleText(std::string_view packText, std::string_view ruleDocument,
    const MergeOptions& options, const std::string& packFile, const std::string& documentName,
    std::vector<Diagnostic>& errors)
{
    const std::size_t before = errors.size();
    const auto doc = scanPackText(ruleDocument, documentName, errors);
    if (!doc)
        return std::nullopt;
    // The document: one rule section holding one entry, and nothing else.
    YAML::Node parsed = YAML::Load(std::string(ruleDocument));
    std::size_t keys = 0;
    if (parsed.IsMap())
        for (const auto& kv : parsed) {
            ++keys;
            if (!kv.first.IsScalar() || !isRuleSection(kv.first.Scalar()))
                errors.push_back(located("one-rule",
                    "only one rule section belongs here (extractors, filters, correlators, metrics, aggregates or "
                    "hypotheses), not '"
                        + (kv.first.IsScalar() ? kv.first.Scalar() : std::string("?")) + "'",
                    documentName, static_cast<std::size_t>(std::max(0, kv.first.Mark().line)),
                    static_cast<std::size_t>(std::max(0, kv.first.Mark().column))));
        }
    if (errors.size() > before)
        return std::nullopt;
    for (const auto& sec : doc->sections)
        if (sec.flow) {
            errors.push_back(located("flow-section",
                "write the rule as a block entry ('  - id: ...'), not inside [...]", documentName, sec.line, 0));
            return std::nullopt;
        }
    if (doc->rules.size() != 1 || keys != 1) {
        const std::size_t at = doc->rules.size() > 1 ? doc->rules[1].first : 0;
        errors.push_back(located("one-rule",
            doc->rules.empty() ? std::string("write one rule here: a section key (such as 'extractors:') and one "
                                             "entry under it ('  - id: ...')")
                               : std::string("one rule at a time: this holds ") + std::to_string(doc->rules.size()),
            documentName, at, 0));
        return std::nullopt;
    }
    const RuleEntryText& entry = doc->rules.front();
    if (entry.id.empty()) {
        errors.push_back(
            located("missing-key", "required key 'id' is missing", documentName, entry.first, entry.indent));
        return std::nullopt;
    }
    std::vector<std::string> block(
        doc->lines.begin() + static_cast<long>(entry.first), doc->lines.begin() + static_cast<long>(entry.end));
    for (auto& l : block)
        if (!l.empty() && l.back() == '\r')
            l.pop_back();
    return mergeInto(packText, entry, std::move(block), options, 0, packFile, errors);
}

namespace {

std::optional<MergedRule> mergeInto(std::string_view packText, const RuleEntryText& entry,
    std::vector<std::string> block, const MergeOptions& options, int floorVersion, const std::string& packFile,
    std::vector<Diagnostic>& errors)
{
    auto pack = scanPackText(packText, packFile, errors);
    if (!pack)
        return std::nullopt;
    const std::string target = options.replaceId.empty() ? entry.id : options.replaceId;
    const RuleEntryText* existing = pack->find(target);
    // A rule whose kind changed leaves its old section first; its version keeps counting from the one it had there.
    if (existing && existing->section != entry.section) {
        std::vector<std::string> lines = pack->lines;
        lines.erase(
            lines.begin() + static_cast<long>(existing->first), lines.begin() + static_cast<long>(existing->end));
        const std::string removed = joinLines(lines, pack->endsWithNewline);
        auto merged =
            mergeInto(removed, entry, block, options, std::max(floorVersion, existing->version), packFile, errors);
        if (merged)
            merged->replaced = true;
        return merged;
    }

    MergedRule out;
    out.id = entry.id;
    out.section = entry.section;
    out.documentFirst = entry.first;
    out.version = entry.version;
    if (options.bumpVersion && !entry.flow) {
        const int next = std::max({ entry.version, existing ? existing->version : 0, floorVersion }) + 1;
        if (entry.version > 0) {
            std::string& l = block[entry.versionLine - entry.first];
            std::size_t c = entry.versionColumn;
            std::size_t e = c;
            const bool quoted = c < l.size() && (l[c] == '\'' || l[c] == '"');
            if (quoted)
                ++e;
            while (e < l.size() && std::isdigit(static_cast<unsigned char>(l[e])))
                ++e;
            if (quoted && e < l.size())
                ++e;
            l.replace(c, e - c, std::to_string(next));
        } else {
            block.insert(block.begin() + static_cast<long>(entry.idLine - entry.first + 1),
                std::string(entry.keyIndent, ' ') + "version: " + std::to_string(next));
        }
        out.version = next;
    }

    std::vector<std::string> lines = pack->lines;
    const std::string eol = pack->crlf ? "\r" : "";
    std::size_t at = 0;
    std::size_t indent = 2;
    if (existing) {
        at = existing->first;
        indent = existing->indent;
        lines.erase(
            lines.begin() + static_cast<long>(existing->first), lines.begin() + static_cast<long>(existing->end));
        out.replaced = true;
    } else if (const RuleSectionText* s = pack->section(entry.section)) {
        if (s->flow && s->entries > 0) {
            errors.push_back(located("flow-section",
                "'" + s->name
                    + "' is written in flow style ([...]) in this file: write its entries one per line ('  - id: ...') "
                      "to add a rule to it",
                packFile, s->line, 0));
            return std::nullopt;
        }
        if (s->flow) {
            // "extractors: []": the empty list becomes a block section.
            std::string& key = lines[s->line];
            const auto open = key.find('[');
            const auto close = key.find(']', open);
            if (open != std::string::npos && close != std::string::npos) {
                std::size_t from = open;
                while (from > 0 && key[from - 1] == ' ')
                    --from;
                key.erase(from, close + 1 - from);
            }
        }
        // After the section's last entry, or just under its key when it has none.
        at = s->line + 1;
        for (const auto& r : pack->rules)
            if (r.section == s->name) {
                at = std::max(at, r.end);
                indent = r.indent;
            }
    } else {
        // A new section at the end of the file (a new file starts with its `pack:`).
        if (lines.empty() && !options.packName.empty())
            lines.push_back("pack: " + options.packName + eol);
        else if (!lines.empty() && contentColumn(lines.back()) != std::string::npos)
            lines.push_back(eol); // a blank line before the new section; the file's own lines stay as they were
        lines.push_back(entry.section + ":" + eol);
        at = lines.size();
        pack->endsWithNewline = true;
    }
    out.shift = static_cast<long>(indent) - static_cast<long>(entry.indent);
    reindent(block, out.shift);
    for (auto& l : block)
        l += eol;
    lines.insert(lines.begin() + static_cast<long>(at), block.begin(), block.end());
    out.first = at;
    out.lines = block.size();
    out.text = joinLines(lines, pack->endsWithNewline);
    return out;
}

} // namespace

} // namespace faultline::core
