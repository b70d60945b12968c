// SPDX-License-Identifier: Apache-2.0
// Located diagnostics shared by the rule loader, the importers and the analyzer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace faultline::core {

/// Where a diagnostic points: a file and, when known, a 1-based line and column.
struct SourceLocation
{
    std::string file;
    std::uint64_t line = 0;
    std::uint32_t column = 0;
    std::uint64_t byteOffset = 0;
};

enum class Severity { Info, Warning, Error };

/// A machine-checkable problem report. `code` is stable (tests assert on it); `message` is English developer
/// text. User-facing wording is built in views/app.
struct Diagnostic
{
    Severity severity = Severity::Error;
    std::string code;
    std::string message;
    SourceLocation where;
    std::string ruleId;
    std::string snippet;

    /// "file:line:col: error: message [code]" plus the snippet on its own line, like a compiler.
    std::string format() const;
};

/// A diagnostic about `file` (line 0 until the caller locates it further).
Diagnostic makeDiagnostic(Severity severity, std::string code, std::string message, std::string file);

const char* severityName(Severity s);
bool hasErrors(const std::vector<Diagnostic>& diags);

} // namespace faultline::core
