// SPDX-License-Identifier: Apache-2.0
#include "app/usecases/story.h"

#include "app/usecases/case_access.h"
#include "core/casefile/case_file.h"
#include "core/model/story.h"

namespace faultline::usecases {

using detail::caseFailure;
using detail::openCase;
using detail::openNotes;

Result<core::Story> readStory(const std::string& casePath, std::int64_t revision)
{
    std::vector<core::Diagnostic> errors;
    auto c = openCase(casePath, true, errors);
    if (!c)
        return Result<core::Story>::fail(Exit::Case, "cannot open the case " + casePath, errors);
    auto story = c->story(revision, errors);
    if (!story)
        return caseFailure<core::Story>("cannot read the story of " + casePath, c->notes(), errors);
    Result<core::Story> out;
    out.value = std::move(*story);
    return out;
}

Result<std::vector<core::Story>> storyRevisions(const std::string& casePath)
{
    std::vector<core::Diagnostic> errors;
    auto c = openCase(casePath, true, errors);
    if (!c)
        return Result<std::vector<core::Story>>::fail(Exit::Case, "cannot open the case " + casePath, errors);
    auto revisions = c->storyRevisions(errors);
    if (!errors.empty())
        return caseFailure<std::vector<core::Story>>(
            "cannot read the story's revisions of " + casePath, c->notes(), errors);
    Result<std::vector<core::Story>> out;
    out.value = std::move(revisions);
    return out;
}

Result<SavedStory> saveStory(const SaveStoryRequest& request)
{
    std::vector<core::Diagnostic> errors;
    auto c = openCase(request.casePath, false, errors);
    if (!c)
        return Result<SavedStory>::fail(Exit::Case, "cannot open the case " + request.casePath, errors);
    SavedStory saved;
    saved.notes = openNotes(*c);
    if (c->readOnly())
        return caseFailure<SavedStory>("the story was not saved", saved.notes,
            { core::makeDiagnostic(core::Severity::Error, "case-read-only",
                "the case cannot be written (read-only file or newer schema): its story cannot be saved",
                request.casePath) });
    saved.revision = c->writeStory(request.steps, request.change, request.author, request.baseRevision, errors);
    if (saved.revision == 0)
        return caseFailure<SavedStory>("the story was not saved", saved.notes, errors);
    Result<SavedStory> out;
    out.value = std::move(saved);
    return out;
}

std::vector<core::StoryStep> proposedStory(const Analysis& analysis)
{
    if (!analysis.verdict || !analysis.evidence)
        return {};
    return core::proposeStory(*analysis.verdict, *analysis.evidence);
}

Result<SavedStory> proposeCaseStory(const std::string& casePath, const std::string& author, const std::string& rulesDir)
{
    // The latest run's verdict, made again from the stored evidence with that run's own rules: the case stores the
    // run's events and verdict as text and rows, the analysis gives them with the evidence they point into.
    ReproduceRequest request;
    request.casePath = casePath;
    request.rules = Rules::Stored;
    request.currentRulesDir = rulesDir;
    auto analysis = reproduceCase(request);
    if (!analysis.ok())
        return Result<SavedStory>::fail(analysis.failure.code, analysis.failure.message, analysis.failure.diagnostics);
    const Analysis& a = *analysis.value;
    if (a.storedRun == 0)
        return Result<SavedStory>::fail(Exit::Case, "the story was not proposed",
            { core::makeDiagnostic(
                core::Severity::Error, "case-no-run", "the case has no run to propose a story from", casePath) });
    SaveStoryRequest save;
    save.casePath = casePath;
    save.steps = proposedStory(a);
    save.author = author;
    save.change = a.matchesStoredRun ? "proposed from run " + std::to_string(a.storedRun)
                                     : "proposed from a re-analysis of run " + std::to_string(a.storedRun)
            + "'s evidence (its verdict differs from the run's)";
    return saveStory(save);
}

} // namespace faultline::usecases
