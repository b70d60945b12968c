// SPDX-License-Identifier: Apache-2.0
// Redaction for sharing a case: a preview of every replacement, a redacted copy of the case, and the redactor a
// report uses. Every export of one case with one profile gives the same pseudonyms (node-02 is host-b in the report
// and in the copy), because each starts from a redactor that discovered the whole case in the same order. The
// original case is only ever opened read-only. Qt-free: the CLI's `redact` and `report --redact` and the workbench's
// File ▸ Export Redacted Copy… call it.
#pragma once

#include "app/usecases/use_cases.h"
#include "core/redact/redaction.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace faultline::usecases {

/// "default" (the built-in profile) or a profile file. Fails with Usage, with the file's located errors.
Result<core::RedactionProfile> loadRedactionProfile(const std::string& nameOrPath);

/// A redactor that registered the case's nodes and authors and read every text of it, so that its pseudonyms are
/// the ones every export of this case with this profile gets. Opens the case read-only. Fails with Usage (the
/// profile's patterns) or Case.
Result<std::shared_ptr<core::Redactor>> caseRedactor(
    const std::string& casePath, const core::RedactionProfile& profile);

struct RedactRequest
{
    std::string casePath;
    std::string outPath; ///< the copy (redactCase); never the case itself, never an existing file
    core::RedactionProfile profile = core::defaultRedactionProfile();
    unsigned threads = 0;
    /// redactCase: re-analyse the copy with its stored rules and say whether that gives its stored verdict.
    bool check = true;
    std::string currentRulesDir; ///< for the check, when the case does not hold its run's rules
};

struct RedactionPreview
{
    core::RedactionProfile profile;
    std::vector<core::Replacement> replacements; ///< every secret of the case, its pseudonym and how often it occurs
    /// Stored rule files that name a secret of the case (a rule's test line naming node-02): those secrets are
    /// replaced in them too, and the catalog gets a new hash in the copy.
    std::vector<std::string> changedCatalogFiles;
};

/// What redactCase would replace, everywhere in the case; nothing is written. Fails with Usage or Case.
Result<RedactionPreview> previewRedaction(const RedactRequest& request, const Task& task = {});

struct RedactedCase
{
    std::string path;
    std::uintmax_t bytes = 0;
    std::uint64_t files = 0;
    std::vector<core::Replacement> replacements;
    std::vector<std::string> changedCatalogFiles; ///< as in RedactionPreview
    /// The check: true when the copy re-analyses to its stored verdict; nullopt when not checked or not possible.
    std::optional<bool> reproduces;
    std::string checkNote; ///< why the check could not run, or what differs
};

/// Writes a redacted copy of the case at request.outPath. Fails with Usage (no path, the case itself, a bad
/// profile), Case (the case cannot be read, the copy cannot be written or exists) or Cancelled.
Result<RedactedCase> redactCase(const RedactRequest& request, const Task& task = {});

/// The totals of a list of replacements: values and occurrences per category ("host 4 values, 37 times").
std::string replacementSummary(const std::vector<core::Replacement>& replacements);

} // namespace faultline::usecases
