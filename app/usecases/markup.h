// SPDX-License-Identifier: Apache-2.0
// Text escaped for XML and HTML (the regression's JUnit report, the postmortem report's HTML): the five markup
// characters become entities and control characters other than tab and newlines (which XML 1.0 cannot carry)
// become spaces. Internal to the use cases.
#pragma once

#include <string>
#include <string_view>

namespace faultline::usecases {

inline std::string markupEscaped(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (const char c : s) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r' ? ' ' : c;
        }
    }
    return out;
}

} // namespace faultline::usecases
