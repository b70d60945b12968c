// SPDX-License-Identifier: Apache-2.0
// A case's story: the ordered steps a postmortem walks through, each a state of the workbench's views (the time
// window, the lanes shown and expanded, the selection, the highlighted evidence lines, the open panes) and a short
// text. Stories are stored in the case (schema 4, story_revisions and story_steps in schema.sql): every save writes
// a new revision of the whole story, earlier revisions stay readable, so nothing written is lost.
//
// A step names its selected event as an annotation does, by rule and record (file and byte offset, the line as a
// check), so that it finds its event again in a later run; storyEventAnnotation turns the reference into the
// annotation resolveAnnotations reads. proposeStory builds the story a new case starts with from its verdict: the
// precursors, the cause, the first symptom on each other node and the teardown. Pure functions, no I/O.
#pragma once

#include "core/model/case_records.h"

#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace faultline::core {

struct EvidenceSet;
struct Verdict;

/// The view state as one JSON object (stable key order; empty fields left out), and back. fromJson returns nullopt
/// (and a `story-state` diagnostic naming `where`) when the text is not such an object.
std::string storyStateToJson(const StoryViewState& state);
std::optional<StoryViewState> storyStateFromJson(
    const std::string& json, const std::string& where, std::vector<Diagnostic>& errors);

/// A revision of the story as one JSON document (`"schema": "faultline.story/1"`): revision, author, created_at,
/// change and the steps (position, title, text, origin, and state as storyStateToJson writes it), pretty-printed.
std::string storyToJson(const Story& story);

/// The annotation (target event) resolveAnnotations matches a step's event by.
Annotation storyEventAnnotation(const StoryEventRef& ref, std::int64_t id = -1);

/// The reference a step keeps for the verdict's event `eventIndex` (its rule, record, type, node and time).
std::optional<StoryEventRef> storyEventOf(const Verdict& verdict, const EvidenceSet& evidence, std::size_t eventIndex);

/// The story a new case starts with: a step for the precursors (when there are any), the cause, the first symptom on
/// each node other than the cause's, and the teardown (when there is one); a verdict without a cause gets a step for
/// its leading evidence instead. Each step's window holds its events with a margin; its text says what it shows.
std::vector<StoryStep> proposeStory(const Verdict& verdict, const EvidenceSet& evidence);

} // namespace faultline::core
