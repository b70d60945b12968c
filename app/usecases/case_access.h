// SPDX-License-Identifier: Apache-2.0
// What the use cases over a case's history share when they open a case: the open itself, the notes it had to give,
// and a Case failure carrying them. Internal to app/usecases.
#pragma once

#include "app/usecases/use_cases.h"
#include "core/casefile/case_file.h"

#include <memory>
#include <string>
#include <vector>

namespace faultline::usecases::detail {

/// What opening the case had to say: its notes (migration, read-only), then the damage it found.
inline std::vector<core::Diagnostic> openNotes(const core::CaseFile& c)
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

inline std::unique_ptr<core::CaseFile> openCase(
    const std::string& path, bool readOnly, std::vector<core::Diagnostic>& errors)
{
    core::CaseOpenOptions options;
    options.readOnly = readOnly;
    return core::CaseFile::open(path, options, errors);
}

} // namespace faultline::usecases::detail
