// SPDX-License-Identifier: Apache-2.0
// A saved case as a postmortem report: the verdict, its coverage, the cause and what it explains, the evidence trail
// with each line's file:line and the file's SHA-256, the narrative and the annotations, and the versions that made
// it. The case's evidence is re-analysed with its latest run's own rules (as opening it does); the report says
// whether that reproduces the stored run. Markdown, or one self-contained HTML file. Qt-free: the CLI's `report`
// and the workbench call it.
#pragma once

#include "app/usecases/use_cases.h"
#include "core/redact/redaction.h"

#include <optional>
#include <string>

namespace faultline::usecases {

enum class ReportFormat { Markdown, Html };

struct ReportRequest
{
    std::string casePath;
    ReportFormat format = ReportFormat::Markdown;
    std::string currentRulesDir; ///< used when the case does not hold its run's rules
    unsigned threads = 0;
    /// Redacts every text of the report with this profile, with the pseudonyms a redacted copy of the same case
    /// gets (redact.h); none: the report is not redacted.
    std::optional<core::RedactionProfile> redaction;
};

/// The report's text. Fails with Case (the case cannot be read), Usage (a redaction profile with errors) or
/// Cancelled. A redacted copy's report gives each file's SHA-256 in the original, which its copy records.
Result<std::string> caseReport(const ReportRequest& request, const Task& task = {});

} // namespace faultline::usecases
