// SPDX-License-Identifier: Apache-2.0
#include "core/analysis/pattern_probe.h"

#include <re2/re2.h>

#include <cstdint>

namespace faultline::core {
namespace {

constexpr std::size_t kBad = SIZE_MAX;
constexpr int kMaxDepth = 8;

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

/// The end of the escape sequence starting at `k` (a backslash).
std::size_t skipEscape(std::string_view p, std::size_t k)
{
    if (k + 1 >= p.size())
        return kBad;
    const char c = p[k + 1];
    if (c == 'Q') {
        const auto e = p.find("\\E", k + 2);
        return e == std::string_view::npos ? p.size() : e + 2;
    }
    if ((c == 'x' || c == 'p' || c == 'P') && k + 2 < p.size() && p[k + 2] == '{') {
        const auto e = p.find('}', k + 3);
        return e == std::string_view::npos ? kBad : e + 1;
    }
    if (c == 'x')
        return std::min(p.size(), k + 4);
    if (c == 'p' || c == 'P')
        return std::min(p.size(), k + 3);
    if (c >= '0' && c <= '7') {
        std::size_t j = k + 1;
        while (j < p.size() && j < k + 4 && p[j] >= '0' && p[j] <= '7')
            ++j;
        return j;
    }
    // An escaped multi-byte character takes its continuation bytes along.
    std::size_t j = k + 2;
    while (j < p.size() && (static_cast<unsigned char>(p[j]) & 0xc0) == 0x80)
        ++j;
    return j;
}

/// The end of the character class starting at `k` (a '[').
std::size_t skipClass(std::string_view p, std::size_t k)
{
    std::size_t j = k + 1;
    if (j < p.size() && p[j] == '^')
        ++j;
    if (j < p.size() && p[j] == ']')
        ++j; // a ']' first is a literal
    while (j < p.size()) {
        if (p[j] == '\\') {
            j = skipEscape(p, j);
            if (j == kBad)
                return kBad;
        } else if (p.compare(j, 2, "[:") == 0) {
            const auto e = p.find(":]", j + 2);
            if (e == std::string_view::npos)
                return kBad;
            j = e + 2;
        } else if (p[j] == ']') {
            return j + 1;
        } else {
            ++j;
        }
    }
    return kBad;
}

/// The end of the group starting at `k` (a '('), its closing parenthesis included.
std::size_t skipGroup(std::string_view p, std::size_t k)
{
    int depth = 0;
    for (std::size_t j = k; j < p.size();) {
        const char c = p[j];
        if (c == '\\') {
            j = skipEscape(p, j);
            if (j == kBad)
                return kBad;
            continue;
        }
        if (c == '[') {
            j = skipClass(p, j);
            if (j == kBad)
                return kBad;
            continue;
        }
        if (c == '(')
            ++depth;
        else if (c == ')' && --depth == 0)
            return j + 1;
        ++j;
    }
    return kBad;
}

/// A quantifier at `j`: its end and whether it asks for at least one repetition; `end == j` when there is none.
std::size_t skipQuantifier(std::string_view p, std::size_t j, bool& required)
{
    required = true;
    if (j >= p.size())
        return j;
    std::size_t e = j;
    if (p[j] == '*' || p[j] == '?') {
        required = false;
        e = j + 1;
    } else if (p[j] == '+') {
        e = j + 1;
    } else if (p[j] == '{') {
        // {n}, {n,} or {n,m}; anything else is a literal brace.
        std::size_t k = j + 1;
        std::size_t digits = 0;
        unsigned long min = 0;
        while (k < p.size() && isDigit(p[k])) {
            min = min * 10 + static_cast<unsigned long>(p[k] - '0');
            ++k;
            ++digits;
        }
        if (digits == 0)
            return j;
        if (k < p.size() && p[k] == ',') {
            ++k;
            while (k < p.size() && isDigit(p[k]))
                ++k;
        }
        if (k >= p.size() || p[k] != '}')
            return j;
        required = min > 0;
        e = k + 1;
    } else {
        return j;
    }
    if (e < p.size() && p[e] == '?')
        ++e; // non-greedy
    return e;
}

bool isFlagChar(char c)
{
    return c == 'i' || c == 'm' || c == 's' || c == 'U' || c == '-';
}

/// A part that stands for one literal character, without a quantifier: "a", "\\(", " ".
bool isLiteral(std::string_view p, const PatternProbe::Part& part)
{
    if (part.kind != PatternProbe::Part::Kind::Atom || part.end <= part.begin)
        return false;
    const char c = p[part.begin];
    if (c == '\\')
        return part.end - part.begin == 2
            && std::string_view("()[]{}.|*+?\\/-^$ :=,#\"'<>").find(p[part.begin + 1]) != std::string_view::npos;
    if (c == '.' || c == '^' || c == '$' || c == '[' || c == '(')
        return false;
    std::size_t len = 1;
    while (part.begin + len < part.end && (static_cast<unsigned char>(p[part.begin + len]) & 0xc0) == 0x80)
        ++len;
    return part.begin + len == part.end; // no quantifier
}

} // namespace

PatternProbe::PatternProbe(std::string pattern)
    : m_pattern(std::move(pattern))
{ }

PatternProbe::~PatternProbe() = default;

bool PatternProbe::split(std::string_view p, std::size_t begin, std::size_t end,
    std::vector<std::vector<Part>>& alternatives, std::vector<std::size_t>& starts)
{
    alternatives.assign(1, {});
    starts.assign(1, begin);
    for (std::size_t j = begin; j < end;) {
        const char c = p[j];
        if (c == '|') {
            alternatives.emplace_back();
            starts.push_back(j + 1);
            ++j;
            continue;
        }
        if (c == ')')
            return false; // unbalanced
        Part part;
        part.begin = j;
        std::size_t atomEnd = j + 1;
        if (c == '\\') {
            atomEnd = skipEscape(p, j);
        } else if (c == '[') {
            atomEnd = skipClass(p, j);
        } else if (c == '(') {
            atomEnd = skipGroup(p, j);
            if (atomEnd == kBad || atomEnd > end)
                return false;
            part.kind = Part::Kind::Group;
            part.innerEnd = atomEnd - 1;
            part.open = "(?:";
            if (p.compare(j, 4, "(?P<") == 0
                || (p.compare(j, 3, "(?<") == 0 && j + 3 < end && p[j + 3] != '=' && p[j + 3] != '!')) {
                const std::size_t nameAt = p[j + 2] == 'P' ? j + 4 : j + 3;
                const auto close = p.find('>', nameAt);
                if (close == std::string_view::npos || close >= atomEnd)
                    return false;
                part.capture = std::string(p.substr(nameAt, close - nameAt));
                part.innerBegin = close + 1;
            } else if (p.compare(j, 2, "(?") == 0) {
                std::size_t k = j + 2;
                while (k < atomEnd && isFlagChar(p[k]))
                    ++k;
                if (k < atomEnd && p[k] == ')') {
                    part.kind = Part::Kind::Flags; // "(?i)": sets flags for the rest of the enclosing group
                    part.end = k + 1;
                    alternatives.back().push_back(part);
                    j = k + 1;
                    continue;
                }
                if (k >= atomEnd || p[k] != ':')
                    return false;
                part.open = std::string(p.substr(j, k + 1 - j));
                part.innerBegin = k + 1;
            } else {
                part.innerBegin = j + 1;
            }
        } else {
            // One character, all of its UTF-8 bytes.
            while (atomEnd < end && (static_cast<unsigned char>(p[atomEnd]) & 0xc0) == 0x80)
                ++atomEnd;
        }
        if (atomEnd == kBad || atomEnd > end)
            return false;
        part.end = skipQuantifier(p, atomEnd, part.required);
        if (part.end > end)
            return false;
        if (part.end == atomEnd && (c == '*' || c == '+' || c == '?'))
            return false; // a quantifier with nothing before it
        alternatives.back().push_back(part);
        j = part.end;
    }
    return true;
}

PatternProbe::Probe PatternProbe::match(const std::string& regex, std::string_view text)
{
    auto it = m_compiled.find(regex);
    if (it == m_compiled.end()) {
        RE2::Options opts;
        opts.set_log_errors(false);
        opts.set_max_mem(8 << 20);
        opts.set_encoding(RE2::Options::EncodingUTF8);
        it = m_compiled.emplace(regex, std::make_unique<re2::RE2>(regex, opts)).first;
    }
    Probe r;
    const re2::RE2& re = *it->second;
    if (!re.ok())
        return r;
    re2::StringPiece whole;
    if (!re.Match(re2::StringPiece(text.data(), text.size()), 0, text.size(), RE2::UNANCHORED, &whole, 1))
        return r;
    r.matched = true;
    r.startAt = static_cast<std::size_t>(whole.data() - text.data());
    r.endAt = r.startAt + whole.size();
    return r;
}

PatternMiss PatternProbe::level(std::string_view text, std::size_t begin, std::size_t end, const std::string& before,
    const std::string& closers, const std::string& capture, int depth)
{
    std::vector<std::vector<Part>> alts;
    std::vector<std::size_t> starts;
    if (!split(m_pattern, begin, end, alts, starts))
        return {};
    auto concat = [&](const std::vector<Part>& parts, std::size_t k) {
        std::string s;
        for (std::size_t x = 0; x < k; ++x)
            s += m_pattern.substr(parts[x].begin, parts[x].end - parts[x].begin);
        return s;
    };
    // Flags set in one alternative ("(?i)") hold to the end of the group, so later alternatives are probed with them.
    std::string carried;
    std::size_t bestAlt = 0;
    std::size_t bestK = 0;
    std::string bestBase;
    Probe bestProbe;
    bool any = false;
    for (std::size_t a = 0; a < alts.size(); ++a) {
        const auto& parts = alts[a];
        const std::string base = before + carried;
        std::size_t lo = 0;
        std::size_t hi = parts.size();
        Probe atLo = match(base + closers, text);
        if (!atLo.matched)
            continue; // not even the part before this group matches: nothing to say at this level
        if (Probe full = match(base + concat(parts, hi) + closers, text); full.matched) {
            lo = hi;
            atLo = full;
        } else {
            // Invariant: the prefix of lo parts matches, the prefix of hi parts does not.
            while (hi - lo > 1) {
                const std::size_t mid = lo + (hi - lo) / 2;
                const Probe p = match(base + concat(parts, mid) + closers, text);
                if (p.matched) {
                    lo = mid;
                    atLo = p;
                } else {
                    hi = mid;
                }
            }
        }
        if (!any || atLo.endAt > bestProbe.endAt || (atLo.endAt == bestProbe.endAt && lo > bestK)) {
            any = true;
            bestAlt = a;
            bestK = lo;
            bestBase = base;
            bestProbe = atLo;
        }
        for (const auto& part : parts)
            if (part.kind == Part::Kind::Flags)
                carried += m_pattern.substr(part.begin, part.end - part.begin);
    }
    if (!any || bestK >= alts[bestAlt].size())
        return {}; // every part matched: what failed is a repetition of the enclosing group, or something outside
    // The first part of one alternative among several failing says only that no alternative matched there: the
    // group of alternatives is the part to name.
    if (depth > 0 && alts.size() > 1 && bestK == 0)
        return {};
    const auto& parts = alts[bestAlt];
    const Part& failed = parts[bestK];
    const std::string prefix = bestBase + concat(parts, bestK);
    const std::string innerCapture = failed.capture.empty() ? capture : failed.capture;
    if (failed.kind == Part::Kind::Group && failed.required && depth < kMaxDepth) {
        PatternMiss inner = level(
            text, failed.innerBegin, failed.innerEnd, prefix + failed.open, ")" + closers, innerCapture, depth + 1);
        if (inner.explained)
            return inner;
    }
    PatternMiss m;
    m.explained = true;
    // A literal character that fails is named with the literal characters after it ("` State=`", not "` `").
    std::size_t failedEnd = failed.end;
    if (isLiteral(m_pattern, failed))
        for (std::size_t k = bestK + 1; k < parts.size() && isLiteral(m_pattern, parts[k]); ++k)
            failedEnd = parts[k].end;
    m.failedPart = m_pattern.substr(failed.begin, failedEnd - failed.begin);
    m.capture = failed.kind == Part::Kind::Group ? innerCapture : capture;
    m.matchedText = std::string(text.substr(bestProbe.startAt, bestProbe.endAt - bestProbe.startAt));
    m.textAt = bestProbe.endAt;
    m.failedAt = failed.begin;
    return m;
}

PatternMiss PatternProbe::explain(std::string_view text)
{
    PatternMiss m = level(text, 0, m_pattern.size(), "(?m)", "", "", 0);
    if (!m.explained)
        return m;
    // The failure may lie inside a group: say which top-level alternative it belongs to, and what of that
    // alternative came before it.
    std::vector<std::vector<Part>> alts;
    std::vector<std::size_t> starts;
    if (!split(m_pattern, 0, m_pattern.size(), alts, starts))
        return {};
    m.alternatives = alts.size();
    for (std::size_t a = 0; a < starts.size(); ++a)
        if (starts[a] <= m.failedAt)
            m.alternative = a;
    m.patternBefore = m_pattern.substr(starts[m.alternative], m.failedAt - starts[m.alternative]);
    return m;
}

} // namespace faultline::core
