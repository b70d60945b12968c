// SPDX-License-Identifier: Apache-2.0
// The case file: one self-contained SQLite file per incident (schema and its documentation: schema.sql). It holds
// the evidence byte for byte (compressed in chunks, hashed), the import's provenance, the observations indexed by
// time, node and kind, and the history of verdict runs with their events; annotations, expectations and the
// story's revisions follow.
//
// Safety: a case is created in a temporary file beside the target and renamed into place only once complete, with
// mode 0600; every later write is one transaction in WAL mode, so a killed process leaves the previous state.
// Opening checks the header, the application id, the schema version and the chunk index before trusting the file,
// and reports a located error instead of touching a damaged file.
//
// Thread contract: a CaseFile is one SQLite connection; use it from one thread at a time. Open a second CaseFile on
// the same path for another thread (a reader beside a writer works: WAL).
#pragma once

#include "core/model/annotations.h"
#include "core/model/bundle_input.h"
#include "core/model/case_records.h"
#include "core/model/verdict.h"
#include "core/util/diagnostic.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;

namespace faultline::core {

class RuleCatalog;
class Redactor;

inline constexpr int kCaseSchemaVersion = 4;
inline constexpr std::uint32_t kCaseApplicationId = 0x464C5443; // "FLTC"

/// Called at named points of a long write ("chunk", "events", "before-commit", ...). Tests use it to kill the
/// process at many points; it may also report progress.
using CaseCheckpoint = std::function<void(std::string_view step)>;

struct RunContext
{
    std::string author; ///< who ran it (user name); "" picks $FAULTLINE_AUTHOR, else $USER
    std::string rulesDir; ///< where the catalog came from
    const RuleCatalog* catalog = nullptr; ///< for the rule trace (rules that fired nothing are listed too)
    std::int64_t durationMs = 0;
    std::string importerVersion;
    std::string fingerprint; ///< of the evidence analysed (evidenceFingerprint)
    std::int64_t windowFromNs = INT64_MIN; ///< the window override the run used (AnalysisOptions)
    std::int64_t windowToNs = INT64_MIN;
    /// For a re-run: the stored input it re-imported. When its evidence fingerprint differs from the case's latest
    /// import (a newer importer), addRun records a new import and its observation blocks with the run.
    const BundleInput* input = nullptr;
    std::int64_t importMs = 0;
    std::string jobOption;
};

/// A bundle's bytes cut into chunks, hashed and compressed: the costly half of creating a case. It reads the
/// input's bytes, so the input must outlive it.
struct PreparedEvidence;
/// Prepares the evidence of a future case; a caller may run it while the import and the analysis run.
std::shared_ptr<const PreparedEvidence> prepareCaseEvidence(
    const BundleInput& input, unsigned threads = 0, int zstdLevel = 1);

/// An evidence set's observations encoded in indexed blocks, and its fingerprint: the other costly half, which a
/// caller may run while the analysis runs. It reads the evidence set, which must outlive it.
struct PreparedObservations;
std::shared_ptr<const PreparedObservations> prepareCaseObservations(
    const EvidenceSet& evidence, unsigned threads = 0, int zstdLevel = 1);

/// The first half of creating a case at a path: the evidence prepared and written into the case's temporary file.
/// It may run while the import and the analysis run; CaseFile::create finishes it. Dropping an unused draft removes
/// its temporary file. `errors` says why a draft failed.
struct CaseDraft
{
    std::string path; ///< the case's final path
    std::string tmp; ///< the temporary file beside it
    std::string dir;
    const BundleInput* input = nullptr;
    sqlite3* db = nullptr;
    std::vector<Diagnostic> errors;
    bool consumed = false;
    CaseDraft() = default;
    CaseDraft(const CaseDraft&) = delete;
    CaseDraft& operator=(const CaseDraft&) = delete;
    ~CaseDraft();
};
std::shared_ptr<CaseDraft> draftCase(const std::string& path, const BundleInput& input, unsigned threads = 0,
    int zstdLevel = 1, const CaseCheckpoint& checkpoint = {});

struct CaseCreateRequest
{
    const BundleInput* input = nullptr;
    const EvidenceSet* evidence = nullptr;
    const Verdict* verdict = nullptr;
    RunContext run;
    std::int64_t importMs = 0;
    std::string jobOption; ///< the job id the import was asked for (LoadOptions::jobId)
    unsigned threads = 0; ///< compression threads; 0: hardware concurrency
    int zstdLevel = 1; ///< zstd level 1: about 550 MB/s per core on logs, which it shrinks 7x
    /// The case already drafted (draftCase for the same path and input); null: drafted here.
    std::shared_ptr<CaseDraft> draft;
    /// The evidence's observations already prepared (prepareCaseObservations over `evidence`); null: prepared here.
    std::shared_ptr<const PreparedObservations> preparedObservations;
    CaseCheckpoint checkpoint;
    /// The story the case starts with, written as its revision 1 in the same transaction as the first run (by the
    /// run's author); none: the case starts without a story.
    std::optional<std::vector<StoryStep>> story;
    std::string storyChange = "proposed from run 1";
};

struct CaseOpenOptions
{
    bool readOnly = false;
    /// Migrate an older schema forward (after writing a backup copy). Without it, an older case is refused.
    bool migrate = true;
};

struct StoredFile
{
    std::int64_t id = 0;
    std::string path;
    std::uint64_t size = 0;
    std::string sha256;
    std::uint64_t lines = 0;
    std::uint64_t chunks = 0;
    bool readable = true;
};

struct StoredObservation
{
    std::uint32_t index = 0; ///< in the evidence set
    std::uint32_t source = 0;
    std::uint64_t line = 0;
    std::uint64_t byteOffset = 0;
    std::uint32_t length = 0;
    std::int64_t timeNs = INT64_MIN;
    std::int64_t precisionNs = 0;
    std::string node;
    std::int32_t rank = -1;
    std::int32_t gpu = -1;
    SourceKind kind = SourceKind::Other;
    TimeQuality quality = TimeQuality::Missing;
    bool outOfScope = false;
};

struct ObservationQuery
{
    std::int64_t fromNs = INT64_MIN;
    std::int64_t toNs = INT64_MAX;
    std::string node; ///< "" = any
    std::optional<SourceKind> kind;
    std::optional<std::uint32_t> source;
};

struct GrepQuery
{
    std::string pattern; ///< RE2, matched against each line
    bool ignoreCase = false;
    std::int64_t fromNs = INT64_MIN; ///< a time filter keeps lines of records with a time in [from, to]
    std::int64_t toNs = INT64_MAX;
    std::string node; ///< keeps lines of records of that node (or of files of that host)
    std::string pathContains; ///< keeps files whose path contains this text
    std::size_t maxMatches = 0; ///< 0 = no limit
    const std::atomic_bool* cancel = nullptr;
};

struct GrepMatch
{
    std::string path;
    std::uint64_t line = 0;
    std::uint64_t byteOffset = 0;
    std::string text; ///< the line (capped at 4 KiB)
    std::int64_t timeNs = INT64_MIN;
    std::string node;
};

struct GrepStats
{
    std::uint64_t bytes = 0; ///< evidence bytes searched
    std::uint64_t files = 0;
    bool truncated = false; ///< stopped at maxMatches
};

/// A redacted copy of a case to write (CaseFile::writeRedactedCopy).
struct RedactedCopyRequest
{
    std::string path; ///< the copy (never an existing file); "" redacts everything without writing (a preview)
    /// The fingerprint of the redacted evidence as an import of it gives (evidenceFingerprint). The copy's latest
    /// import and its runs record it; without it they keep the original's, which no longer matches the bytes.
    std::function<std::string(const BundleInput&)> fingerprint;
    /// The content hash of a rule catalog given as its stored files (path, content), as loading it gives
    /// (RuleCatalog::contentHash); nullopt when it does not load. A stored catalog that named a secret of the case
    /// is redacted and known by this new hash in the copy; without it, it keeps the original's.
    std::function<std::optional<std::string>(const std::vector<std::pair<std::string, std::string>>& files)>
        catalogHash;
    unsigned threads = 0; ///< compression threads; 0: hardware concurrency
    int zstdLevel = 1;
    CaseCheckpoint checkpoint;
};

struct RedactedCopyResult
{
    std::uint64_t files = 0; ///< evidence files
    std::uint64_t bytes = 0; ///< the copy's size on disk (0 for a preview)
    /// Stored rule files that named a secret of the case (a rule's test line naming node-02): only the case's own
    /// secrets are replaced in the rule catalog, which then gets a new hash everywhere in the copy (the original's
    /// is in the redaction record).
    std::vector<std::string> changedCatalogFiles;
};

class CaseFile
{
public:
    ~CaseFile();
    CaseFile(const CaseFile&) = delete;
    CaseFile& operator=(const CaseFile&) = delete;

    /// Writes a new case at `path` (refused when it exists). On failure, nothing is left at `path`.
    static std::unique_ptr<CaseFile> create(
        const std::string& path, const CaseCreateRequest& request, std::vector<Diagnostic>& errors);
    static std::unique_ptr<CaseFile> open(
        const std::string& path, const CaseOpenOptions& options, std::vector<Diagnostic>& errors);

    const std::string& path() const { return m_path; }
    bool readOnly() const { return m_readOnly; }
    int schemaVersion() const { return m_schema; }
    /// Integrity findings of the open (a missing evidence chunk, ...): the case opened but is damaged.
    const std::vector<Diagnostic>& problems() const { return m_problems; }
    /// Notes about the open (migration and its backup, read-only because of a newer schema).
    const std::vector<Diagnostic>& notes() const { return m_notes; }

    std::vector<RunInfo> runs(std::vector<Diagnostic>& errors);
    /// The run's stored verdict as JSON or text; nullopt (and an error) when there is no such run.
    std::optional<std::string> verdictJson(std::int64_t run, std::vector<Diagnostic>& errors);
    std::optional<std::string> verdictText(std::int64_t run, std::vector<Diagnostic>& errors);
    std::optional<std::string> importReport(bool json, std::vector<Diagnostic>& errors);
    /// A value of the case's meta table (schema.sql lists the keys; a redacted copy has 'redaction'); nullopt when
    /// the key is absent.
    std::optional<std::string> metaValue(const std::string& key, std::vector<Diagnostic>& errors);

    /// Adds a run (one transaction). Returns its id, or 0 with errors.
    std::int64_t addRun(const Verdict& verdict, const EvidenceSet& evidence, const RunContext& context,
        std::vector<Diagnostic>& errors, const CaseCheckpoint& checkpoint = {});
    /// Writes the rule catalog run `run` used into `dir` (which must exist), so the run can be reproduced with its
    /// own rules: the bundled layer at the top, each rule pack layer under layers/N/ (storedCatalogSources reads it
    /// back). False (and `case-no-catalog`) when the case does not hold it (runs written before schema 2).
    bool extractCatalog(std::int64_t run, const std::string& dir, std::vector<Diagnostic>& errors);
    /// How many imports the case records (more than one when a re-run's import differed).
    std::int64_t importCount(std::vector<Diagnostic>& errors);
    std::optional<RunDiff> diff(std::int64_t from, std::int64_t to, std::vector<Diagnostic>& errors);

    /// The stored bundle input, every chunk checked against its hash and every file against its SHA-256.
    std::optional<BundleInput> loadInput(std::vector<Diagnostic>& errors);
    std::string importFingerprint(std::vector<Diagnostic>& errors);
    /// The job id the import was asked for ('' when none): a re-import must pick the same job.
    std::string importJobOption(std::vector<Diagnostic>& errors);
    /// The window override of a run (INT64_MIN when none), so a re-run analyses the same window.
    std::pair<std::int64_t, std::int64_t> runWindow(std::int64_t run, std::vector<Diagnostic>& errors);

    std::vector<StoredFile> files(std::vector<Diagnostic>& errors);
    /// The id of the stored file with this display path; nullopt (and `case-no-file`) when the case has none.
    std::optional<std::int64_t> fileId(const std::string& path, std::vector<Diagnostic>& errors);
    /// One line of a stored file (without its newline; capped at `maxBytes`), by 1-based number.
    std::optional<std::string> line(
        std::int64_t fileId, std::uint64_t lineNo, std::vector<Diagnostic>& errors, std::size_t maxBytes = 1 << 20);
    std::optional<std::vector<StoredObservation>> observations(
        const ObservationQuery& query, std::vector<Diagnostic>& errors);
    /// Searches the stored evidence line by line. `onMatch` returning false stops the search.
    std::optional<GrepStats> grep(
        const GrepQuery& query, const std::function<bool(const GrepMatch&)>& onMatch, std::vector<Diagnostic>& errors);

    /// Adds an annotation (an edit when `supersedes` is set). Returns its id, or 0 with errors. An event of a stored
    /// run (runId > 0) is named by its index and its identity (rule, record, type, node, time) is read from the run;
    /// an event of an analysis not stored as a run comes with its rule, file, line and byte offset.
    std::int64_t annotate(const Annotation& a, std::vector<Diagnostic>& errors);
    /// The target an annotation of run `run`'s event `eventIdx` gets (its rule, record, type, node and time); nullopt
    /// (and `annotation-target`) when the run has no such event.
    std::optional<Annotation> eventTarget(std::int64_t run, std::int64_t eventIdx, std::vector<Diagnostic>& errors);
    /// Removes an annotation by adding a 'removed' row that supersedes it (history is kept).
    bool removeAnnotation(std::int64_t id, const std::string& author, std::vector<Diagnostic>& errors);
    /// The current annotations: not superseded, not removed; in creation order.
    std::vector<Annotation> annotations(std::vector<Diagnostic>& errors);
    /// Run `run` read for resolving `annotations` against it (resolveAnnotations): one pass over its events, its
    /// symptoms and the nodes the case knows. Lines get no record times. nullopt (and `case-no-run`) without the run.
    std::optional<AnnotationScope> annotationScope(
        const std::vector<Annotation>& annotations, std::int64_t run, std::vector<Diagnostic>& errors);

    /// Marks run `run`'s verdict as the expected one. Returns the expectation's id, or 0 with errors.
    std::int64_t expect(
        std::int64_t run, const std::string& author, const std::string& note, std::vector<Diagnostic>& errors);
    std::optional<Expectation> expectation(std::vector<Diagnostic>& errors);
    /// How run `run` departs from the case's expectation ("outcome: expected a, got b"); empty when it meets it.
    std::vector<std::string> checkExpectation(std::int64_t run, std::vector<Diagnostic>& errors);

    /// The story's revision `revision` (0: the latest) with its steps in order. A case without a story gives
    /// revision 0 and no steps. nullopt and `story-no-revision` for a revision the case does not have, or
    /// `story-state` (located in the step's state text) for a step whose view state cannot be read.
    std::optional<Story> story(std::int64_t revision, std::vector<Diagnostic>& errors);
    /// Every revision of the story, oldest first, without their steps.
    std::vector<Story> storyRevisions(std::vector<Diagnostic>& errors);
    /// Writes `steps` as the story's new revision, in one transaction (a step without an origin is stored as
    /// "user"). `baseRevision` is the revision the steps were edited from (0: the case had no story yet); when the
    /// latest revision is another one, nothing is written and the save fails with `story-conflict`. -1 skips the
    /// check. Returns the new revision, or 0 with errors (also `case-read-only`).
    std::int64_t writeStory(const std::vector<StoryStep>& steps, const std::string& change, const std::string& author,
        std::int64_t baseRevision, std::vector<Diagnostic>& errors);

    /// Full check: SQLite's quick_check, then every chunk and file hash. Returns the problems found.
    std::vector<Diagnostic> verify();

    /// Registers the case's names with `redactor` (every node and host it records, every author) and lets it read
    /// every text of the case for secrets: the evidence file by file, then every table in a fixed order. Two
    /// redactors of the same profile that discovered the same case assign the same pseudonyms.
    bool discoverSecrets(Redactor& redactor, std::vector<Diagnostic>& errors);
    /// Writes a redacted copy of the case (call discoverSecrets first): every table, every text and the evidence
    /// itself redacted, and the copy's meta 'redaction' recording the profile and the original's evidence hashes.
    /// Line numbers never change (no secret or pseudonym spans a newline); byte offsets (of records, events, ranks,
    /// metric series, and those in the verdicts' JSON) are recomputed for the redacted bytes, so every reference
    /// points at the same text. The copy gets its own chunk and file hashes. This case is only read.
    std::optional<RedactedCopyResult> writeRedactedCopy(
        Redactor& redactor, const RedactedCopyRequest& request, std::vector<Diagnostic>& errors);

private:
    CaseFile() = default;
    /// False (and `case-read-only`) when the case is open read-only.
    bool writable(std::vector<Diagnostic>& errors) const;
    /// Fills `a`'s event identity from run a.runId's event a.eventIdx; false when there is none. Throws on SQL errors.
    bool readEventTarget(Annotation& a);
    /// The walk both redaction passes share: `discover` reads every text, otherwise the copy is written.
    std::optional<RedactedCopyResult> writeRedactedCopyImpl(
        Redactor& redactor, const RedactedCopyRequest& request, bool discover, std::vector<Diagnostic>& errors);
    std::string m_path;
    bool m_readOnly = false;
    int m_schema = 0;
    std::vector<Diagnostic> m_problems;
    std::vector<Diagnostic> m_notes;
    bool m_storedChunkHash = false; ///< chunk hashes cover the stored bytes (schema 2) or the uncompressed ones (1)
    sqlite3* m_db = nullptr;
};

/// Compares two verdicts given as JSON reports (verdictToJson), as a run diff does, without any case: a regression
/// compares a case's stored run with a re-analysis this way. nullopt (and errors) when a text is not a verdict.
std::optional<RunDiff> diffVerdicts(
    const std::string& fromJson, const std::string& toJson, std::vector<Diagnostic>& errors);
/// How a verdict given as a JSON report departs from an expectation ("outcome: expected 'a', got 'b'"); empty when
/// it meets it.
std::optional<std::vector<std::string>> verdictMisses(
    const Expectation& e, const std::string& verdictJson, std::vector<Diagnostic>& errors);

/// SHA-256 over every observation's source, line, byte offset, length, time, node and kind: two imports with the
/// same fingerprint gave the engine the same input.
std::string evidenceFingerprint(const EvidenceSet& evidence);

/// The rule trace of a verdict as JSON: events per rule, links per correlator, the filtered count.
std::string ruleTraceJson(const Verdict& verdict, const RuleCatalog* catalog);

} // namespace faultline::core
