// SPDX-License-Identifier: Apache-2.0
#include "app/usecases/case_history.h"

#include "app/usecases/case_access.h"
#include "core/casefile/case_file.h"

#include <unistd.h>

#include <algorithm>

namespace faultline::usecases {

using detail::caseFailure;
using detail::openCase;
using detail::openNotes;

Result<core::CaseHistory> caseHistory(const std::string& casePath)
{
    std::vector<core::Diagnostic> errors;
    auto c = openCase(casePath, true, errors);
    if (!c)
        return Result<core::CaseHistory>::fail(Exit::Case, "cannot open the case " + casePath, errors);
    core::CaseHistory h;
    h.path = casePath;
    h.notes = c->notes();
    // Opened read-only here on purpose; whether a front end may write it is the file's and the schema's say.
    h.readOnly = ::access(casePath.c_str(), W_OK) != 0
        || std::any_of(h.notes.begin(), h.notes.end(), [](const auto& d) { return d.code == "case-newer-schema"; });
    const auto runs = c->runs(errors);
    h.runs.reserve(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i) {
        core::CaseRun run { runs[i], std::nullopt };
        if (i > 0)
            run.diff = c->diff(runs[i - 1].id, runs[i].id, errors);
        h.runs.push_back(std::move(run));
    }
    h.expectation = c->expectation(errors);
    if (h.expectation && !runs.empty())
        h.expectationMisses = c->checkExpectation(runs.back().id, errors);
    h.annotations = c->annotations(errors);
    if (!runs.empty()) {
        // Each annotation as it stands in the latest run: an event found again by its rule and record, or why not.
        if (const auto scope = c->annotationScope(h.annotations, runs.back().id, errors)) {
            h.resolutions = core::resolveAnnotations(h.annotations, *scope);
            h.resolvedRun = runs.back().id;
        }
    }
    if (auto story = c->story(0, errors))
        h.story = std::move(*story);
    h.problems = c->problems();
    h.problems.insert(h.problems.end(), errors.begin(), errors.end());
    Result<core::CaseHistory> out;
    out.value = std::move(h);
    return out;
}

const char* annotationKindName(AnnotationKind kind)
{
    switch (kind) {
    case AnnotationKind::Note:
        return "note";
    case AnnotationKind::Tag:
        return "tag";
    case AnnotationKind::Bookmark:
        return "bookmark";
    case AnnotationKind::Narrative:
        return "narrative";
    }
    return "note";
}

AnnotationTarget AnnotationTarget::of(const core::Annotation& a)
{
    AnnotationTarget t;
    t.path = a.path;
    t.line = a.line;
    t.run = a.runId;
    t.eventIdx = a.eventIdx;
    t.ruleId = a.ruleId;
    t.byteOffset = a.byteOffset;
    t.type = a.eventType;
    t.node = a.node;
    t.fromNs = a.fromNs;
    t.toNs = a.toNs;
    t.kind = a.target == "line" ? Kind::Line
        : a.target == "event"   ? Kind::Event
        : a.target == "symptom" ? Kind::Symptom
        : a.target == "lane"    ? Kind::Lane
        : a.target == "range"   ? Kind::Range
                                : Kind::Case;
    return t;
}

namespace {

/// Fills `a`'s target from `t`; false (and errors) when the case stores no file of a line or event.
bool setTarget(core::CaseFile& c, const AnnotationTarget& t, core::Annotation& a, std::vector<core::Diagnostic>& errors)
{
    using Kind = AnnotationTarget::Kind;
    a.target = "case";
    auto file = [&]() -> bool {
        const auto id = c.fileId(t.path, errors);
        if (!id)
            return false;
        a.fileId = *id;
        a.path = t.path;
        a.line = t.line;
        return true;
    };
    switch (t.kind) {
    case Kind::Case:
        return true;
    case Kind::Line:
        a.target = "line";
        return file();
    case Kind::Event:
        a.target = "event";
        a.runId = t.run > 0 ? t.run : 0;
        a.eventIdx = t.run > 0 ? t.eventIdx : -1;
        if (t.run > 0 && t.ruleId.empty())
            return true; // the run's event: the case reads its identity
        a.ruleId = t.ruleId;
        a.byteOffset = t.byteOffset;
        a.eventType = t.type;
        a.node = t.node;
        a.fromNs = t.fromNs;
        return file();
    case Kind::Symptom:
        a.target = "symptom";
        a.eventType = t.type;
        return true;
    case Kind::Lane:
        a.target = "lane";
        a.node = t.node;
        return true;
    case Kind::Range:
        a.target = "range";
        a.fromNs = t.fromNs;
        a.toNs = t.toNs;
        a.node = t.node;
        return true;
    }
    return true;
}

} // namespace

Result<Annotated> annotateCase(const AnnotateRequest& request)
{
    const std::string& path = request.casePath;
    std::vector<core::Diagnostic> errors;
    auto c = openCase(path, false, errors);
    if (!c)
        return Result<Annotated>::fail(Exit::Case, "cannot open the case " + path, errors);
    Annotated out;
    out.notes = openNotes(*c);
    auto removal = [&](std::int64_t id) {
        if (!c->removeAnnotation(id, request.author, errors))
            return caseFailure<Annotated>(
                "cannot remove annotation #" + std::to_string(id) + " from " + path, out.notes, errors);
        out.id = id;
        out.removed = true;
        Result<Annotated> r;
        r.value = std::move(out);
        return r;
    };
    if (request.removeId > 0)
        return removal(request.removeId);
    core::Annotation a;
    a.kind = annotationKindName(request.kind);
    a.text = request.text;
    a.author = request.author;
    for (const auto& tag : request.tags)
        if (tag.find_first_not_of(" \t") != std::string::npos)
            a.tags.push_back(tag);
    const auto current = c->annotations(errors);
    if (!errors.empty())
        return caseFailure<Annotated>("cannot read the annotations of " + path, out.notes, errors);
    if (request.kind == AnnotationKind::Narrative) {
        // A new narrative is an edit of the current one: the case shows one narrative and keeps the older ones.
        a.target = "case";
        for (const auto& old : current)
            if (old.kind == "narrative")
                a.supersedes = old.id;
    } else if (request.editId > 0) {
        const auto old = std::find_if(
            current.begin(), current.end(), [&](const core::Annotation& x) { return x.id == request.editId; });
        if (old == current.end()) {
            errors.push_back(core::makeDiagnostic(core::Severity::Error, "annotation-target",
                "no current annotation " + std::to_string(request.editId), path));
            return caseFailure<Annotated>(
                "cannot edit annotation #" + std::to_string(request.editId) + " of " + path, out.notes, errors);
        }
        // The edit keeps the target exactly as stored (an event's run, rule and record).
        core::Annotation edit = *old;
        edit.id = 0;
        edit.kind = a.kind;
        edit.text = a.text;
        edit.tags = a.tags;
        edit.author = a.author;
        edit.supersedes = old->id;
        a = std::move(edit);
    } else {
        if (!setTarget(*c, request.target, a, errors))
            return caseFailure<Annotated>(
                "the case " + path + " stores no file " + request.target.path, out.notes, errors);
        if (request.toggle && request.kind == AnnotationKind::Bookmark) {
            // An event named by its run and index is compared by its rule and record, as a stored one is.
            if (a.target == "event" && a.runId > 0 && a.ruleId.empty()) {
                const auto identity = c->eventTarget(a.runId, a.eventIdx, errors);
                if (!identity)
                    return caseFailure<Annotated>("the annotation was not added to " + path, out.notes, errors);
                a.ruleId = identity->ruleId;
                a.path = identity->path;
                a.byteOffset = identity->byteOffset;
            }
            for (const auto& x : current)
                if (x.kind == "bookmark" && core::sameTarget(x, a))
                    return removal(x.id);
        }
    }
    out.id = c->annotate(a, errors);
    if (out.id == 0)
        return caseFailure<Annotated>("the annotation was not added to " + path, out.notes, errors);
    out.supersedes = a.supersedes;
    Result<Annotated> r;
    r.value = std::move(out);
    return r;
}

Result<std::vector<core::AnnotationResolution>> resolveAnnotations(const std::string& casePath, std::int64_t run)
{
    using R = Result<std::vector<core::AnnotationResolution>>;
    std::vector<core::Diagnostic> errors;
    auto c = openCase(casePath, true, errors);
    if (!c)
        return R::fail(Exit::Case, "cannot open the case " + casePath, errors);
    if (run == 0) {
        const auto runs = c->runs(errors);
        if (runs.empty()) {
            if (errors.empty())
                errors.push_back(
                    core::makeDiagnostic(core::Severity::Error, "case-no-run", "the case has no run", casePath));
            return R::fail(Exit::Case, "the case " + casePath + " holds no run", errors);
        }
        run = runs.back().id;
    }
    const auto annotations = c->annotations(errors);
    const auto scope = c->annotationScope(annotations, run, errors);
    if (!scope || !errors.empty())
        return R::fail(
            Exit::Case, "cannot resolve the annotations of " + casePath + " in run " + std::to_string(run), errors);
    R r;
    r.value = core::resolveAnnotations(annotations, *scope);
    return r;
}

Result<ExpectedRun> expectRun(
    const std::string& casePath, std::int64_t run, const std::string& author, const std::string& note)
{
    std::vector<core::Diagnostic> errors;
    auto c = openCase(casePath, false, errors);
    if (!c)
        return Result<ExpectedRun>::fail(Exit::Case, "cannot open the case " + casePath, errors);
    ExpectedRun out;
    out.notes = openNotes(*c);
    if (run == 0) {
        const auto runs = c->runs(errors);
        if (runs.empty()) {
            if (errors.empty())
                errors.push_back(
                    core::makeDiagnostic(core::Severity::Error, "case-no-run", "the case has no run", casePath));
            return caseFailure<ExpectedRun>("the case " + casePath + " holds no run", out.notes, errors);
        }
        run = runs.back().id;
    }
    out.run = run;
    out.expectation = c->expect(run, author, note, errors);
    if (out.expectation == 0)
        return caseFailure<ExpectedRun>(
            "run " + std::to_string(run) + " was not marked expected in " + casePath, out.notes, errors);
    Result<ExpectedRun> r;
    r.value = std::move(out);
    return r;
}

Result<std::string> runVerdictText(const std::string& casePath, std::int64_t run)
{
    std::vector<core::Diagnostic> errors;
    auto c = openCase(casePath, true, errors);
    if (!c)
        return Result<std::string>::fail(Exit::Case, "cannot open the case " + casePath, errors);
    auto text = c->verdictText(run, errors);
    if (!text)
        return Result<std::string>::fail(
            Exit::Case, "cannot read run " + std::to_string(run) + " of " + casePath, errors);
    Result<std::string> r;
    r.value = std::move(*text);
    return r;
}

} // namespace faultline::usecases
