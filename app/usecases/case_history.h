// SPDX-License-Identifier: Apache-2.0
// The use cases over a case's history, shared by the CLI (annotate, expect) and the GUI's case view: read the whole
// history as one snapshot, annotate the case (a note, tag, bookmark or narrative on the case, a stored line or an
// event, or remove one), mark a run's verdict as the expected one, and read a run's stored verdict. Each call opens
// the case, does one short read or one transaction, and closes it; none keeps a connection, so the GUI runs them
// on a worker thread. Failures are Exit::Case with the case's located diagnostics.
#pragma once

#include "app/usecases/use_cases.h"
#include "core/model/case_records.h"

#include <cstdint>
#include <string>
#include <vector>

namespace faultline::usecases {

/// Reads `casePath`'s runs (each with its diff from the one before), expectation and how the latest run meets it,
/// current annotations, and the notes and problems of the open. Opens the case read-only; errors met while reading
/// a part are kept in CaseHistory::problems. Fails with Case when the case cannot be opened.
Result<core::CaseHistory> caseHistory(const std::string& casePath);

enum class AnnotationKind { Note, Tag, Bookmark, Narrative };

/// The name the case file and the CLI use for a kind ("note", "tag", "bookmark", "narrative").
const char* annotationKindName(AnnotationKind kind);

/// What an annotation is attached to.
struct AnnotationTarget
{
    enum class Kind { Case, Line, Event };
    Kind kind = Kind::Case;
    std::string path; ///< Line: the stored file's path, as the import report names it
    std::uint64_t line = 0; ///< Line: 1-based
    std::int64_t run = 0; ///< Event: the run and the event's index in its verdict
    std::int64_t eventIdx = -1;

    static AnnotationTarget wholeCase() { return {}; }
    static AnnotationTarget lineOf(std::string path, std::uint64_t line)
    {
        return { Kind::Line, std::move(path), line, 0, -1 };
    }
    static AnnotationTarget event(std::int64_t run, std::int64_t eventIdx)
    {
        return { Kind::Event, {}, 0, run, eventIdx };
    }
};

struct AnnotateRequest
{
    std::string casePath;
    AnnotationKind kind = AnnotationKind::Note;
    std::string text;
    AnnotationTarget target; ///< a narrative is always about the whole case
    std::string author; ///< "" picks $FAULTLINE_AUTHOR, else $USER
    /// When > 0, the annotation with this id is removed instead (history is kept); kind, text and target are unused.
    std::int64_t removeId = 0;
};

struct Annotated
{
    std::int64_t id = 0; ///< the new annotation, or the removed one
    std::int64_t supersedes = 0; ///< a narrative: the narrative it replaced (0: none)
    /// The notes and problems of the open (migration, read-only, damage), for a front end to report.
    std::vector<core::Diagnostic> notes;
};

/// Adds an annotation to a case, or removes one. A new narrative supersedes the current one (which stays in the
/// history). A line target must name a file the case stores and a line it has. Fails with Case.
Result<Annotated> annotateCase(const AnnotateRequest& request);

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
