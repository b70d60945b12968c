// SPDX-License-Identifier: Apache-2.0
#include "importers/support/json_support.h"

#include <algorithm>
#include <charconv>

namespace faultline::importers {

core::CoverageStatus failedJsonStatus(std::string_view bytes)
{
    const auto first = bytes.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || (bytes[first] != '{' && bytes[first] != '['))
        return core::CoverageStatus::Error;
    // Cut short: a string or a container is still open at the end.
    long depth = 0;
    bool inString = false;
    for (std::size_t i = first; i < bytes.size(); ++i) {
        const char c = bytes[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            --depth;
        }
    }
    return inString || depth > 0 ? core::CoverageStatus::Truncated : core::CoverageStatus::Error;
}

namespace json {

using simdjson::SUCCESS;

bool getString(dom::element obj, std::string_view key, std::string_view& out)
{
    return obj[key].get(out) == SUCCESS;
}

bool getString(simdjson::simdjson_result<dom::element> obj, std::string_view key, std::string_view& out)
{
    return obj.error() == SUCCESS && obj[key].get(out) == SUCCESS;
}

std::string_view stringAt(dom::element obj, std::string_view key)
{
    std::string_view out;
    return getString(obj, key, out) ? out : std::string_view();
}

std::string_view stringAt(simdjson::simdjson_result<dom::element> obj, std::string_view key)
{
    std::string_view out;
    return getString(obj, key, out) ? out : std::string_view();
}

std::string errorText(simdjson::error_code e)
{
    return simdjson::error_message(e);
}

std::int64_t parseInt64(std::string_view s, bool& ok)
{
    std::int64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    ok = ec == std::errc() && p == s.data() + s.size();
    return v;
}

bool parseDocument(FileParse& fp, dom::parser& parser, dom::element& doc, const char* what)
{
    const std::string_view buf = fp.data;
    fp.source.lines = static_cast<std::uint64_t>(std::count(buf.begin(), buf.end(), '\n')) + 1;
    if (auto err = parser.parse(buf.data(), buf.size()).get(doc); err != SUCCESS) {
        fp.source.status = failedJsonStatus(buf);
        fp.warn(1, 0, "json-malformed", std::string(what) + " is not valid JSON (" + errorText(err) + ")");
        return false;
    }
    return true;
}

std::uint64_t LineCounter::lineAt(std::size_t offset)
{
    if (offset < m_pos) {
        m_pos = 0;
        m_line = 1;
    }
    for (; m_pos < offset && m_pos < m_buf.size(); ++m_pos)
        if (m_buf[m_pos] == '\n')
            ++m_line;
    return m_line;
}

} // namespace json
} // namespace faultline::importers
