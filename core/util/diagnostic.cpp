// SPDX-License-Identifier: Apache-2.0
#include "core/util/diagnostic.h"

#include <algorithm>

namespace faultline::core {

Diagnostic makeDiagnostic(Severity severity, std::string code, std::string message, std::string file)
{
    Diagnostic d;
    d.severity = severity;
    d.code = std::move(code);
    d.message = std::move(message);
    d.where.file = std::move(file);
    return d;
}

const char* severityName(Severity s)
{
    switch (s) {
    case Severity::Info:
        return "note";
    case Severity::Warning:
        return "warning";
    case Severity::Error:
        return "error";
    }
    return "error";
}

std::string Diagnostic::format() const
{
    std::string out = where.file.empty() ? std::string("<input>") : where.file;
    if (where.line > 0) {
        out += ':' + std::to_string(where.line);
        if (where.column > 0)
            out += ':' + std::to_string(where.column);
    }
    out += ": ";
    out += severityName(severity);
    out += ": ";
    if (!ruleId.empty())
        out += "rule '" + ruleId + "': ";
    out += message;
    out += " [" + code + "]";
    if (!snippet.empty()) {
        out += "\n    ";
        out += snippet;
    }
    return out;
}

bool hasErrors(const std::vector<Diagnostic>& diags)
{
    return std::any_of(diags.begin(), diags.end(), [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

} // namespace faultline::core
