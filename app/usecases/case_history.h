// SPDX-License-Identifier: Apache-2.0
// The use cases over a case's history, shared by the CLI (annotate, expect) and the GUI's case view: read the whole
// history as one snapshot, annotate the case (a note, tag, bookmark or narrative on the case, a stored line, an
// event, a symptom, a lane or a time range; edit or remove one), resolve the annotations against a run, mark a run's
// verdict as the expected one, and read a run's stored verdict. Each call opens the case, does one short read or one
// transaction, and closes it; none keeps a connection, so the GUI runs them on a worker thread. Failures are
// Exit::Case with the case's located diagnostics.
#pragma once

#include "app/usecases/use_cases.h"
#include "core/model/case_records.h"

#include <climits>
#include <cstdint>
#include <string>
#include <vector>

namespace faultline::usecases {

/// Reads `casePath`'s runs (each with its diff from the one before), expectation and how the latest run meets it,
/// current annotations resolved against the latest run, the story's latest revision, and the notes and problems of
/// the open. Opens the case read-only; errors met while reading a part are kept in CaseHistory::problems. Fails with
/// Case when the case cannot be opened.
Result<core::CaseHistory> caseHistory(const std::string& casePath);

enum class AnnotationKind { Note, Tag, Bookmark, Narrative };

/// The name the case file and the CLI use for a kind ("note", "tag", "bookmark", "narrative").
const char* annotationKindName(AnnotationKind kind);

/// What an annotation is attached to.
struct AnnotationTarget
{
    enum class Kind { Case, Line, Event, Symptom, Lane, Range };
    Kind kind = Kind::Case;
    std::string path; ///< Line, Event (when run is 0): the stored file's path, as the import report names it
    std::uint64_t line = 0; ///< Line, Event: 1-based
    std::int64_t run = 0; ///< Event: the stored run and the event's index in its verdict (0: not a stored run)
    std::int64_t eventIdx = -1;
    /// Event of an analysis not stored as a run: what identifies it (its rule and record) and what it shows.
    std::string ruleId;
    std::int64_t byteOffset = -1;
    std::string type; ///< Event: its type; Symptom: the symptom's type
    std::string node; ///< Lane: the node; Range: the node it was drawn on ("" every node); Event: its node
    std::int64_t fromNs = INT64_MIN; ///< Range: start; Event: its time
    std::int64_t toNs = INT64_MIN; ///< Range: end

    static AnnotationTarget wholeCase() { return {}; }
    static AnnotationTarget lineOf(std::string path, std::uint64_t line)
    {
        AnnotationTarget t;
        t.kind = Kind::Line;
        t.path = std::move(path);
        t.line = line;
        return t;
    }
    static AnnotationTarget event(std::int64_t run, std::int64_t eventIdx)
    {
        AnnotationTarget t;
        t.kind = Kind::Event;
        t.run = run;
        t.eventIdx = eventIdx;
        return t;
    }
    /// An event by its rule and record (file, line, byte offset), as an analysis in memory has it.
    static AnnotationTarget eventAt(std::string ruleId, std::string path, std::uint64_t line, std::uint64_t byteOffset)
    {
        AnnotationTarget t;
        t.kind = Kind::Event;
        t.ruleId = std::move(ruleId);
        t.path = std::move(path);
        t.line = line;
        t.byteOffset = static_cast<std::int64_t>(byteOffset);
        return t;
    }
    static AnnotationTarget symptom(std::string type)
    {
        AnnotationTarget t;
        t.kind = Kind::Symptom;
        t.type = std::move(type);
        return t;
    }
    static AnnotationTarget lane(std::string node)
    {
        AnnotationTarget t;
        t.kind = Kind::Lane;
        t.node = std::move(node);
        return t;
    }
    static AnnotationTarget range(std::int64_t fromNs, std::int64_t toNs, std::string node = {})
    {
        AnnotationTarget t;
        t.kind = Kind::Range;
        t.fromNs = fromNs;
        t.toNs = toNs;
        t.node = std::move(node);
        return t;
    }
    /// The target of a stored annotation (its own identity, as read from the case).
    static AnnotationTarget of(const core::Annotation& a);
};

struct AnnotateRequest
{
    std::string casePath;
    AnnotationKind kind = AnnotationKind::Note;
    std::string text;
    std::vector<std::string> tags; ///< a note's or bookmark's tags (blank ones are dropped)
    AnnotationTarget target; ///< a narrative is always about the whole case
    std::string author; ///< "" picks $FAULTLINE_AUTHOR, else $USER
    /// When > 0, the annotation with this id is removed instead (history is kept); kind, text and target are unused.
    std::int64_t removeId = 0;
    /// When > 0, an edit: the new annotation supersedes this one (which stays in the history) and keeps its target;
    /// `target` is unused.
    std::int64_t editId = 0;
    /// A bookmark that toggles: when the target already has a current bookmark, that one is removed instead.
    bool toggle = false;
};

struct Annotated
{
    std::int64_t id = 0; ///< the new annotation, or the removed one
    std::int64_t supersedes = 0; ///< a narrative or an edit: the annotation it replaced (0: none)
    bool removed = false; ///< a removal (removeId, or a toggled bookmark that was there)
    /// The notes and problems of the open (migration, read-only, damage), for a front end to report.
    std::vector<core::Diagnostic> notes;
};

/// Adds an annotation to a case, edits or removes one. A new narrative supersedes the current one (which stays in
/// the history). A line target must name a file the case stores and a line it has; an event is named by its stored
/// run and index, or by its rule and record. Fails with Case.
Result<Annotated> annotateCase(const AnnotateRequest& request);

/// Resolves the case's current annotations against its run `run` (0: the latest): each one matched, with the event
/// that carries it there, or "no longer matched in run N" with the reason. Opens the case read-only. Fails with Case
/// when the case cannot be opened or has no such run.
Result<std::vector<core::AnnotationResolution>> resolveAnnotations(const std::string& casePath, std::int64_t run = 0);

struct ExpectedRun
{
    std::int64_t run = 0; ///< the run whose verdict is now expected
    std::int64_t expectation = 0; ///< the expectation's id
    std::vector<core::Diagnostic> notes; ///< as Annotated::notes
};

/// Marks run `run`'s verdict (0: the latest run's) as the case's expected verdict. Fails with Case (also when the
/// case has no run or no such run).
Result<ExpectedRun> expectRun(
    const std::string& casePath, std::int64_t run = 0, const std::string& author = {}, const std::string& note = {});

/// Run `run`'s stored verdict as faultline-cli show --run prints it. Opens the case read-only. Fails with Case when
/// the case cannot be opened or has no such run.
Result<std::string> runVerdictText(const std::string& casePath, std::int64_t run);

} // namespace faultline::usecases
