// SPDX-License-Identifier: Apache-2.0
// Editing one rule against an open case (the workbench's rule editor; Qt-free, so a test or a script runs it the
// same way). A rule is edited as a small document of its own (its section key and its entry, see
// core/rules/rule_text.h) that belongs in one pack file of one layer: a rule of a pack layer in its own file, a
// bundled rule as an override in the user's pack directory, a new rule in the user's packs/local.yaml.
//
// * checkRule builds the catalog the document gives, exactly as Save would write the pack file, with every
//   diagnostic located, in the document where it lies there (line:col, rule id, code; an RE2 error at the pattern),
//   and the rule's own tests run.
// * runEditedRule re-runs the engine over the open analysis's evidence with that catalog (the import is re-used;
//   only extraction onward runs) and returns the new verdict, its diff against the shown one, and the rule's trace
//   with its near misses.
// * draftRuleFromLine makes an extractor from one record: the text escaped, its variable tokens (numbers, hex, PCI
//   ids, GPU UUIDs, addresses, host names, ranks, times) as named captures, a test made from the line.
// * saveRule writes the pack file (to a temporary file, then renamed; a backup of the file as it was before its first
//   save from here), with the rule's entry replaced or appended and its `version:` bumped; the rest of the file,
//   comments included, stays byte for byte.
// * sweepRule runs the edited catalog over every saved case of a library and lists every record where the rule fires.
#pragma once

#include "app/usecases/use_cases.h"
#include "core/analysis/rule_trace.h"
#include "core/model/case_records.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace faultline::usecases {

/// Where an edited rule is saved, and which entry of that file it replaces.
struct RuleTarget
{
    std::string dir; ///< the pack layer's directory (created on the first save when it does not exist)
    std::string packFile; ///< relative to `dir`: "packs/gpu.yaml"
    std::string replaceId; ///< the entry the document replaces (the rule's id when it was opened); "" for a new rule

    std::string path() const; ///< dir/packFile
};

/// A rule opened for editing.
struct RuleDocument
{
    std::string text; ///< its section key and its entry ("extractors:\n  - id: ...")
    RuleTarget target;
    std::string ruleId;
    std::string from; ///< where it was read, "packs/gpu.yaml:144 (bundled)", or "drafted from PATH:LINE"
    bool isOverride = false; ///< it replaces a rule of a lower layer (`override: true`)
};

/// The pack file a new rule goes to in the user's directory.
inline constexpr const char* kLocalPack = "packs/local.yaml";

/// Opens rule `id` of a loaded catalog for editing: a rule of a pack layer in its own file, a bundled rule as an
/// override in `userDir` (in a file named as its bundled pack, where an earlier save may already have put it). Fails
/// with Usage for an unknown id (naming the closest ones) or a file that cannot be read.
Result<RuleDocument> openRuleForEdit(
    const core::RuleCatalog& catalog, const std::string& id, const std::string& userDir);

/// A diagnostic of an edited catalog and where it lies in the document.
struct EditDiagnostic
{
    core::Diagnostic diagnostic; ///< as located in the pack file or the layer that has it
    std::uint64_t line = 0; ///< 1-based line in the document; 0 when it lies elsewhere
    std::uint32_t column = 0; ///< 1-based column in the document
    std::uint32_t length = 0; ///< characters to mark from there (0: to the end of the line)
};

struct RuleCheckRequest
{
    /// The workbench's catalog: the bundled layer, its pack layers (the target's directory among them, or it is added
    /// as the lowest pack layer) and any other unsaved texts.
    core::CatalogSources sources;
    RuleTarget target;
    std::string text; ///< the document
};

struct RuleCheck
{
    std::shared_ptr<const core::RuleCatalog> catalog; ///< null when there are errors
    core::CatalogSources sources; ///< what was loaded (the pack file's text as Save would write it among them)
    std::vector<EditDiagnostic> diagnostics; ///< the catalog's errors and warnings, then the rule's failed tests
    std::string ruleId; ///< the document's rule ("" when it holds none)
    std::string section; ///< its kind's section ("extractors", ...)
    std::size_t testsRun = 0; ///< the rule's own tests
    std::size_t testsFailed = 0;
    std::int64_t ms = 0;
    std::size_t errors() const;
};

/// Builds the catalog the document gives. Never fails: what is wrong is in `diagnostics`.
RuleCheck checkRule(const RuleCheckRequest& request);

struct RuleRunRequest
{
    Analysis shown; ///< the analysis on screen: its input, evidence and verdict are re-used, never re-imported
    std::shared_ptr<const core::RuleCatalog> catalog; ///< the edited catalog (RuleCheck::catalog)
    std::string ruleId; ///< the rule to trace ("" or unknown: no trace)
    unsigned threads = 0;
    std::size_t maxNearMisses = 50; ///< listed per kind of miss (all are counted)
};

struct RuleRun
{
    Analysis analysis; ///< the shown analysis's input and evidence, the edited catalog's verdict
    core::RunDiff diff; ///< the shown verdict → the new one
    /// What the diff is against: "run N" when the shown verdict is the case's saved run N, else "the shown verdict".
    std::string baseline;
    std::string baselineNote; ///< when the baseline was made with other rules than the edited catalog's base
    std::optional<core::TraceReport> trace; ///< the rule's trace, its near misses included
    std::string traceNote; ///< why there is no trace
    std::int64_t analyseMs = 0; ///< the engine with the trace
    std::int64_t diffMs = 0;
};

/// Re-runs the engine on the shown analysis's evidence with the edited catalog. Fails with Usage (nothing analysed,
/// or no catalog) or Cancelled.
Result<RuleRun> runEditedRule(const RuleRunRequest& request, const Task& task = {});

/// A record of the evidence (the unit an extractor reads) at a line of a file.
struct RecordAtLine
{
    std::uint32_t observation = 0;
    std::string path;
    std::uint64_t line = 0; ///< the record's first line (the line asked for may be a continuation line)
    std::string text; ///< its message, as extractors read it (a journal or JSON record's message, no envelope)
    core::SourceKind kind = core::SourceKind::Other;
};

/// The record that holds line `line` of the file `path` (as the bundle names it); nullopt when the import made none
/// there (a skipped line, a metrics file).
std::optional<RecordAtLine> recordAt(const core::EvidenceSet& evidence, const std::string& path, std::uint64_t line);

struct DraftHints
{
    std::vector<std::string> hosts; ///< the evidence's node names: tokens naming them become `host` captures
    std::string where; ///< "PATH:LINE", for the description
    const core::RuleCatalog* catalog = nullptr; ///< ids and event types already taken
};

struct RuleDraft
{
    std::string text; ///< the rule document
    std::string id;
    std::string eventType;
    std::string pattern;
    std::string testLine;
    std::vector<std::pair<std::string, std::string>> captures; ///< name → the value in the line, in order
};

/// An extractor for one record's text: the text escaped as a regular expression, its variable tokens as named
/// captures (numbers and hex values named after the key before them when there is one, `pci` (the rule's gpu),
/// `uuid`, `ip`, `host`, `rank` (the event's rank), `time`), role context, and a test: the line and the fields it
/// must give. A text longer than about 300 characters is cut at a token boundary (the pattern needs no anchor).
RuleDraft draftRuleFromLine(std::string_view text, core::SourceKind kind, const DraftHints& hints = {});

struct SavedRule
{
    std::string path; ///< the pack file written
    std::string backup; ///< the copy of the file as it was before its first save from here ("" when none was made)
    bool created = false; ///< the file did not exist before
    bool replaced = false; ///< an entry was replaced (otherwise the rule was added)
    int version = 0; ///< the rule's version now
    RuleDocument document; ///< the document as saved (its new version), to keep editing
};

/// Checks the document (as checkRule) and, when the catalog has no errors and the rule's tests pass, writes the pack
/// file. Fails with Catalog (the errors, located) or Usage (the file cannot be read or written; nothing is changed).
Result<SavedRule> saveRule(const RuleCheckRequest& request);

struct SweepRequest
{
    std::string casesDir; ///< a case library: *.faultline files, found recursively
    std::shared_ptr<const core::RuleCatalog> catalog; ///< the edited catalog
    std::string ruleId;
    unsigned threads = 0; ///< cases at once; 0: hardware concurrency
    std::size_t maxListed = 200; ///< records listed per case (all are counted)
};

/// One record where the rule fired in a case.
struct SweepHit
{
    std::string path;
    std::uint64_t line = 0;
    std::string text; ///< the record's text, capped
    std::string label; ///< the event it made (or, for a filter or correlator, acted on)
    std::string fate; ///< what became of it: "kept: the cause", "dropped: ..."
};

struct CaseSweep
{
    std::string path;
    std::size_t fired = 0; ///< records where the rule fired
    std::vector<SweepHit> hits; ///< the first maxListed of them
    std::string error; ///< the case could not be read or analysed
    std::int64_t ms = 0;
};

struct Sweep
{
    std::string ruleId;
    std::vector<CaseSweep> cases; ///< in path order
    std::size_t casesFired = 0;
    std::size_t fired = 0;
    std::int64_t elapsedMs = 0;
    unsigned threads = 0;
};

/// Runs the edited catalog over every case of the library (each case's stored evidence, with its latest run's job and
/// window) and lists every record where the rule fires. Nothing is written to the cases. Fails with Usage (no such
/// folder, no case in it, a rule the catalog lacks) or Cancelled; a case that cannot be read is an entry with its
/// error.
Result<Sweep> sweepRule(const SweepRequest& request, const Task& task = {});

} // namespace faultline::usecases
