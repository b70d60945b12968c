// SPDX-License-Identifier: Apache-2.0
// Byte-level scanning helpers the text readers share. Log envelopes are ASCII, so these look at bytes, not code
// points, and never allocate.
#pragma once

#include <string_view>

namespace faultline::importers {

inline bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

/// `s` without its leading and trailing spaces and tabs.
inline std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

inline bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

} // namespace faultline::importers
