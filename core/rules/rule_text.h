// SPDX-License-Identifier: Apache-2.0
// Rule pack files edited as text, one rule at a time, keeping every other byte: where each rule's entry lies in a
// pack file, a rule's entry taken out as a small document of its own (its section key and the entry), and such a
// document put back into a pack file (replacing the entry of that id, moving it to another section, or appending
// it), with its `version:` bumped. yaml-cpp finds the entries, so ids are read as YAML reads them (quoted, in flow
// maps, after a lone "-"); the file is never re-emitted, so its comments, key order, quoting and spacing outside the
// edited entry stay exactly as they were. Qt-free.
#pragma once

#include "core/util/diagnostic.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace faultline::core {

/// The sections of a pack that hold rules, in the order a new section is written.
const std::vector<std::string>& ruleSections();

/// One rule entry of a pack file, as lines of its text (0-based; `end` is one past its last line). Comment and blank
/// lines after the entry's last line that are indented no deeper than its "-" belong to what follows.
struct RuleEntryText
{
    std::string section; ///< "extractors", "filters", ...
    std::string id; ///< "" when the entry has none
    std::size_t first = 0; ///< the line of its "-"
    std::size_t end = 0;
    std::size_t indent = 0; ///< the column of its "-"
    std::size_t keyIndent = 0; ///< the column of its keys
    bool flow = false; ///< written as one flow map ("- {id: x, disable: true}")
    bool hasOverride = false; ///< it has an `override:` key
    std::size_t idLine = 0; ///< the line of its id's value
    int version = 0; ///< its `version:` (0: none, or not a number)
    std::size_t versionLine = 0; ///< with version > 0: the line and column of its value
    std::size_t versionColumn = 0;
};

/// A rule section of a pack file.
struct RuleSectionText
{
    std::string name;
    std::size_t line = 0; ///< the line of its key
    bool flow = false; ///< written as "[...]": its entries are not lines of their own
    std::size_t entries = 0;
};

struct PackText
{
    std::vector<std::string> lines; ///< the text split at '\n' (a CRLF file's lines keep their '\r')
    bool endsWithNewline = true;
    bool crlf = false;
    std::vector<RuleSectionText> sections; ///< in file order
    std::vector<RuleEntryText> rules; ///< in file order

    const RuleEntryText* find(std::string_view id) const;
    const RuleSectionText* section(std::string_view name) const;
};

/// Reads where each rule of a pack file's text lies. A text that does not parse as YAML, or whose top level is not a
/// map, fails with a located diagnostic (code yaml-syntax or not-a-map) naming `file`.
std::optional<PackText> scanPackText(std::string_view text, const std::string& file, std::vector<Diagnostic>& errors);

/// The entry of rule `id` in a pack text as a document of its own: its section key, then the entry's lines
/// re-indented so that its "-" stands at column 2. With `asOverride`, a block entry without `override:` gets
/// `override: true` after its id (the document is then saved into a layer above the one that defines the rule).
/// Fails with `no-such-rule` when the text holds no entry of that id.
std::optional<std::string> extractRuleDocument(std::string_view packText, std::string_view id, bool asOverride,
    const std::string& file, std::vector<Diagnostic>& errors);

struct MergeOptions
{
    std::string packName; ///< the `pack:` of a file written for the first time (`packText` empty)
    std::string replaceId; ///< the entry the document replaces (a renamed rule's old id); empty: the document's id
    /// Writes the entry's `version:` as one more than the highest of the replaced entry's and the document's (1 for
    /// a rule that had none), inserting the key after its id when it has none.
    bool bumpVersion = false;
};

/// What mergeRuleText made.
struct MergedRule
{
    std::string text; ///< the whole pack file
    std::string id;
    std::string section;
    std::size_t first = 0; ///< the entry's first line in `text`
    std::size_t lines = 0; ///< how many lines it has there
    std::size_t documentFirst = 0; ///< its first line in the document
    long shift = 0; ///< columns added to each of its lines (re-indented to the section's entries; may be negative)
    bool replaced = false; ///< an entry of that id was replaced; otherwise the entry was added
    int version = 0; ///< its version in `text` (0: none)
};

/// Puts the one rule entry of `ruleDocument` (a YAML map of one rule section holding one entry, as
/// extractRuleDocument gives) into the pack text `packText` ("" for a file that does not exist yet): in place of the
/// entry of that id, in its section; moved to the document's section when the kinds differ; else after the last
/// entry of that section, or in a new section at the end of the file. The entry is re-indented to its section's
/// entries; nothing else in the file changes. Fails, located in the document (file `documentName`) or in the pack
/// (`packFile`), on YAML that does not parse, a document that is not one section with one entry (`one-rule`), or a
/// pack section in flow style that holds entries (`flow-section`).
std::optional<MergedRule> mergeRuleText(std::string_view packText, std::string_view ruleDocument,
    const MergeOptions& options, const std::string& packFile, const std::string& documentName,
    std::vector<Diagnostic>& errors);

} // namespace faultline::core
