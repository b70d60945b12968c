// SPDX-License-Identifier: Apache-2.0
// The use cases over a case's story, shared by the CLI (`story`) and the workbench's story pane: read the latest
// revision (or any earlier one), save a new revision of the whole story, and propose a story from an analysis. A
// save names the revision it was made from, so a story changed meanwhile elsewhere (another window, the CLI) is not
// overwritten: the save fails with a conflict and the newer revision stays. Each call opens the case, does one short
// read or one transaction and closes it, so the GUI runs them on a worker thread. Failures are Exit::Case with the
// case's located diagnostics.
#pragma once

#include "app/usecases/use_cases.h"
#include "core/model/case_records.h"

#include <cstdint>
#include <string>
#include <vector>

namespace faultline::usecases {

/// The story's revision `revision` (0: the latest; a case without a story gives revision 0 and no steps). Opens the
/// case read-only. Fails with Case (also for a revision the case does not have).
Result<core::Story> readStory(const std::string& casePath, std::int64_t revision = 0);

/// Every revision of the story, oldest first, without their steps (revision, author, time, change).
Result<std::vector<core::Story>> storyRevisions(const std::string& casePath);

struct SaveStoryRequest
{
    std::string casePath;
    std::vector<core::StoryStep> steps; ///< the whole story (an empty list is a story with no steps)
    std::string change; ///< what this save did, for the history ("added step 3")
    std::string author; ///< "" picks $FAULTLINE_AUTHOR, else $USER
    /// The revision the steps were edited from: when the case's latest revision is another one, nothing is written
    /// and the save fails with `story-conflict`. -1: save whatever the latest revision is.
    std::int64_t baseRevision = -1;
};

struct SavedStory
{
    std::int64_t revision = 0;
    std::vector<core::Diagnostic> notes; ///< the notes of the open (migration, …)
};

/// Writes the steps as the story's new revision. Fails with Case (a read-only case, a conflict, a write error).
Result<SavedStory> saveStory(const SaveStoryRequest& request);

/// The story core::proposeStory builds from the analysis's verdict and evidence.
std::vector<core::StoryStep> proposedStory(const Analysis& analysis);

/// Proposes a story from the case's latest stored run and saves it as a new revision ("proposed from run N"). The
/// run's verdict is made again from the stored evidence with the run's own stored rules (reproduceCase, Rules::Stored;
/// `rulesDir` is the catalog for a case that does not hold them), since the events a story names need the evidence
/// they point into; when that re-analysis does not give the run's verdict, the revision's change says so. Nothing but
/// the new revision is written. Fails with Case (also when the case has no run), Catalog or Cancelled.
Result<SavedStory> proposeCaseStory(
    const std::string& casePath, const std::string& author = {}, const std::string& rulesDir = {});

} // namespace faultline::usecases
