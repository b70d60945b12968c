// SPDX-License-Identifier: Apache-2.0
#include "app/usecases/case_history.h"

#include "core/casefile/case_file.h"

#include <unistd.h>

#include <algorithm>

namespace faultline::usecases {

namespace {

/// What opening the case had to say: its notes (migration, read-only), then the damage it found.
std::vector<core::Diagnostic> openNotes(const core::CaseFile& c)
{
    std::vector<core::Diagnostic> out = c.notes();
    out.insert(out.end(), c.problems().begin(), c.problems().end());
    return out;
}

/// A Case failure carrying the open's notes first and then the errors, in the order the CLI prints them.
template <class T>
Result<T> caseFailure(
    std::string message, std::vector<core::Diagnostic> notes, const std::vector<core::Diagnostic>& errors)
{
    notes.insert(notes.end(), errors.begin(), errors.end());
    return Result<T>::fail(Exit::Case, std::move(message), std::move(notes));
}

std::unique_ptr<core::CaseFile> openCase(const std::string& path, bool readOnly, std::vector<core::Diagnostic>& errors)
{
    core::CaseOpenOptions options;
    options.readOnly = readOnly;
    return core::CaseFile::open(path, options, errors);
}

} // namespace

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

Result<Annotated> annotateCase(const AnnotateRequest& request)
{
    const std::string& path = request.casePath;
    std::vector<core::Diagnostic> errors;
    auto c = openCase(path, false, errors);
    if (!c)
        return Result<Annotated>::fail(Exit::Case, "cannot open the case " + path, errors);
    Annotated out;
    out.notes = openNotes(*c);
    if (request.removeId > 0) {
        if (!c->removeAnnotation(request.removeId, request.author, errors))
            return caseFailure<Annotated>(
                "cannot remove annotation #" + std::to_string(request.removeId) + " from " + path, out.notes, errors);
        out.id = request.removeId;
        Result<Annotated> r;
        r.value = std::move(out);
        return r;
    }
    core::Annotation a;
    a.kind = annotationKindName(request.kind);
    a.text = request.text;
    a.author = request.author;
    a.target = "case";
    const auto& t = request.target;
    if (request.kind == AnnotationKind::Narrative) {
        // A new narrative is an edit of the current one: the case shows one narrative and keeps the older ones.
        for (const auto& old : c->annotations(errors))
            if (old.kind == "narrative")
                a.supersedes = old.id;
        if (!errors.empty())
            return caseFailure<Annotated>("cannot read the annotations of " + path, out.notes, errors);
    } else if (t.kind == AnnotationTarget::Kind::Line) {
        const auto file = c->fileId(t.path, errors);
        if (!file)
            return caseFailure<Annotated>("the case " + path + " stores no file " + t.path, out.notes, errors);
        a.target = "line";
        a.fileId = *file;
        a.line = t.line;
    } else if (t.kind == AnnotationTarget::Kind::Event) {
        a.target = "event";
        a.runId = t.run;
        a.eventIdx = t.eventIdx;
    }
    out.id = c->annotate(a, errors);
    if (out.id == 0)
        return caseFailure<Annotated>("the annotation was not added to " + path, out.notes, errors);
    out.supersedes = a.supersedes;
    Result<Annotated> r;
    r.value = std::move(out);
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
