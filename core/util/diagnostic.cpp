// SPDX-License-Identifier: Apache-2.0
#include "core/util/diagnostic.h"

#include <algorithm>

namespace faultline::core {

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
