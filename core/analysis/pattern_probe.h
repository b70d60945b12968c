// SPDX-License-Identifier: Apache-2.0
// Why a regular expression did not match a text, in the pattern's own terms: the longest prefix of the pattern (per
// alternative, and inside the group where it fails) that still matches somewhere in the text, and the part right after
// it, which does not. A prefix that matches implies every shorter one does, so the boundary is found by bisection over
// the pattern's top-level parts. Used by the rule trace for near misses; never on the analysis path.
//
// Thread affinity: one thread per object (the compiled prefixes are cached in it).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
} // namespace re2

namespace faultline::core {

struct PatternMiss
{
    bool explained = false; ///< false: the pattern could not be split, or every part matched (a repetition failed)
    std::string failedPart; ///< the pattern text that does not match, e.g. "(?P<code>\d+)" or "\d+"
    std::string capture; ///< the innermost named capture the failed part is (or is inside), "" when none
    std::string patternBefore; ///< the pattern text before the failed part, within its top-level alternative
    std::size_t failedAt = 0; ///< the failed part's offset in the pattern
    std::string matchedText; ///< the text that pattern prefix matched
    std::size_t textAt = 0; ///< the offset in the text where the failed part was expected
    std::size_t alternative = 0; ///< which top-level alternative got furthest (0-based)
    std::size_t alternatives = 1; ///< how many top-level alternatives the pattern has
};

class PatternProbe
{
public:
    /// `pattern` is the rule's pattern as written; it is matched in multi-line mode, as the catalog compiles it.
    explicit PatternProbe(std::string pattern);
    ~PatternProbe();
    PatternProbe(const PatternProbe&) = delete;
    PatternProbe& operator=(const PatternProbe&) = delete;

    /// Explains why the pattern does not match `text`. Call only for a text the whole pattern does not match.
    PatternMiss explain(std::string_view text);

    /// One syntactic part of a sequence: an atom with its quantifier, a group, a flag setting.
    struct Part
    {
        enum class Kind { Atom, Group, Flags };
        Kind kind = Kind::Atom;
        std::size_t begin = 0; ///< [begin, end) in the pattern, quantifier included
        std::size_t end = 0;
        bool required = true; ///< its quantifier asks for at least one repetition
        std::string capture; ///< Group: its name when it is a named capture
        std::string open; ///< Group: the opening that keeps its flags without capturing, "(?:" or "(?i:"
        std::size_t innerBegin = 0; ///< Group: its content, between the opening and ")"
        std::size_t innerEnd = 0;
    };
    /// Splits pattern[begin, end) into its alternatives (separated by a top-level '|'), each a sequence of parts.
    /// Returns false when the text is not a well-formed pattern.
    static bool split(std::string_view pattern, std::size_t begin, std::size_t end,
        std::vector<std::vector<Part>>& alternatives, std::vector<std::size_t>& starts);

private:
    struct Probe
    {
        bool matched = false;
        std::size_t endAt = 0; ///< end of the match in the text
        std::size_t startAt = 0;
    };
    Probe match(const std::string& regex, std::string_view text);
    PatternMiss level(std::string_view text, std::size_t begin, std::size_t end, const std::string& before,
        const std::string& closers, const std::string& capture, int depth);

    std::string m_pattern;
    std::map<std::string, std::unique_ptr<re2::RE2>> m_compiled;
};

} // namespace faultline::core
