// SPDX-License-Identifier: Apache-2.0
// The plain records a case file holds about its history (runs, how two runs differ, annotations, the expected
// verdict) and CaseHistory, one immutable snapshot of all of them. Views show these without reaching the case file
// itself: the use cases read them off the UI thread and hand them over.
#pragma once

#include "core/util/diagnostic.h"

#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace faultline::core {

/// One verdict run stored in a case: when and by whom it was made, with which catalog and engine, and its outcome.
struct RunInfo
{
    std::int64_t id = 0;
    std::string createdAt;
    std::string kind;
    std::string author;
    std::string catalogName;
    std::string catalogVersion;
    std::string catalogHash;
    std::string engineVersion;
    std::string importerVersion;
    std::string fingerprint;
    std::string rulesDir;
    std::int64_t importId = 0; ///< the import whose evidence the run analysed
    std::string outcome;
    std::string domain;
    std::string subdomain;
    std::string summary;
    double confidence = 0;
};

/// The part of a run that a diff compares.
struct RunDiff
{
    std::int64_t from = 0;
    std::int64_t to = 0;
    bool same = true; ///< verdict identical in every compared field
    std::vector<std::string> changes; ///< one readable line per difference, "outcome: a → b"
};

/// A bookmark, note, tag or narrative (see schema.sql). Targets: the case, an event, a line of a file, a symptom, a
/// node's lane or a time range. An event is known by its rule and provenance (file, line, byte offset), so that the
/// annotation finds it again in a later run (resolveAnnotations).
struct Annotation
{
    std::int64_t id = 0;
    std::string kind; ///< bookmark | note | tag | narrative
    std::string target; ///< case | event | line | symptom | lane | range
    std::int64_t runId = 0; ///< event: the run it was made on (0: an analysis not stored as a run)
    std::int64_t eventIdx = -1; ///< event: its index in that run
    std::int64_t fileId = -1; ///< line, event: the stored file (where an event's record was found)
    std::string path; ///< the file's path (filled when read)
    std::uint64_t line = 0; ///< line, event: 1-based
    std::int64_t byteOffset = -1; ///< event: the record's first byte in the file (-1: unknown)
    std::string ruleId; ///< event: the rule that made it
    std::string eventType; ///< event: its type; symptom: the symptom's type
    std::string node; ///< lane: the node; range: the node it was drawn on ("" every node); event: the event's node
    std::int64_t fromNs = INT64_MIN; ///< range: its start; event: the event's time
    std::int64_t toNs = INT64_MIN; ///< range: its end
    std::vector<std::string> tags; ///< a note's or bookmark's tags (a tag's own text is `text`)
    std::string text;
    std::string author; ///< "" picks $FAULTLINE_AUTHOR / $USER
    std::string createdAt;
    std::int64_t supersedes = 0; ///< an edit: the annotation it replaces
};

/// How an annotation's target stands in one analysis (a stored run, or the analysis a front end shows).
struct AnnotationResolution
{
    std::int64_t annotation = 0; ///< Annotation::id
    bool matched = true; ///< false: the event (or symptom) it was made on is no longer found
    std::int64_t eventIndex = -1; ///< event, symptom: the event that carries it in this analysis (-1: none)
    std::int64_t timeNs = INT64_MIN; ///< where it shows in time (a line: its record's time; a range: its start)
    std::int64_t toNs = INT64_MIN; ///< range: its end
    std::string node; ///< the node whose lane shows it ("" none: the job, the case)
    std::string reason; ///< unmatched: why, naming the analysis ("no longer matched in run 3: ...")
};

/// The verdict a person marked as the expected one for the case (taken from one run).
struct Expectation
{
    std::int64_t id = 0;
    std::int64_t runId = 0;
    std::string outcome;
    std::string domain;
    std::string subdomain;
    std::string causeType;
    std::string causeNode;
    std::string author;
    std::string createdAt;
    std::string note;
};

/// One run of a case's history with how its verdict differs from the run before it.
struct CaseRun
{
    RunInfo info;
    std::optional<RunDiff> diff; ///< from the previous run; none for the first run or when it could not be read
};

// --- the story (story.h has what reads and builds it) ---

/// The event a step selects, named as an event annotation names it.
struct StoryEventRef
{
    std::string ruleId;
    std::string path; ///< the file of the record it was made from
    std::uint64_t line = 0; ///< 1-based
    std::int64_t byteOffset = -1; ///< the record's first byte (-1: unknown)
    std::string type; ///< what it shows (for a text when it is no longer found)
    std::string node;
    std::int64_t timeNs = INT64_MIN;

    bool operator==(const StoryEventRef&) const = default;
};

/// The state of the workbench's views that a step restores. Empty fields leave that part of the view as it is.
struct StoryViewState
{
    std::int64_t fromNs = INT64_MIN; ///< the timeline's window (both INT64_MIN: fit to the verdict)
    std::int64_t toNs = INT64_MIN;
    std::vector<std::string> expandedLanes; ///< nodes whose GPU/rank sub-lanes are open
    std::string topLane; ///< the node lane scrolled to the top ("" the first)
    std::optional<StoryEventRef> event; ///< the selected event
    std::string lane; ///< the selected node lane (when no event is selected)
    std::string symptom; ///< the selected symptom type
    std::string evidencePath; ///< the file the evidence viewer shows
    std::vector<std::uint64_t> evidenceLines; ///< its highlighted lines (1-based), the first one scrolled to
    std::vector<std::string> panes; ///< the open panes by name (evidence, symptoms, metrics, search, rules, …)
    bool clocksAligned = false;

    bool operator==(const StoryViewState&) const = default;
};

/// One step: a title, a short text (Markdown) and the view state it shows.
struct StoryStep
{
    std::string title;
    std::string text;
    StoryViewState state;
    std::string origin; ///< "proposed" (built from the verdict) or "user"

    bool operator==(const StoryStep&) const = default;
};

/// A revision of a case's story: the whole list of steps as one save left it.
struct Story
{
    std::int64_t revision = 0; ///< 0: the case has no story yet
    std::string author;
    std::string createdAt;
    std::string change; ///< what the save did ("proposed from run 2", "added step 3", …)
    std::vector<StoryStep> steps;
};

/// A case's history as one snapshot, read in one go: what a front end shows of a case beside its verdict.
struct CaseHistory
{
    std::string path;
    bool readOnly = false; ///< the case cannot be written (read-only file or newer schema)
    std::vector<CaseRun> runs; ///< oldest first
    std::optional<Expectation> expectation;
    /// How the latest run departs from the expectation ("outcome: expected a, got b"); empty: it meets it.
    std::vector<std::string> expectationMisses;
    std::vector<Annotation> annotations; ///< the current ones (not superseded, not removed), in creation order
    /// Each current annotation (same order) resolved against the latest run; empty when the case has no run.
    std::vector<AnnotationResolution> resolutions;
    std::int64_t resolvedRun = 0; ///< the run `resolutions` were made against
    /// Damage found when the case was opened and errors met while reading parts of its history.
    std::vector<Diagnostic> problems;
    /// Notes about the open (a migration and its backup, read-only because of a newer schema).
    std::vector<Diagnostic> notes;
    /// The story's latest revision (revision 0 and no steps: the case has none).
    Story story;

    /// The current narrative (the latest one), or null when the case has none.
    const Annotation* narrative() const
    {
        const Annotation* found = nullptr;
        for (const auto& a : annotations)
            if (a.kind == "narrative")
                found = &a;
        return found;
    }
};

} // namespace faultline::core
