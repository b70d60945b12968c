// SPDX-License-Identifier: Apache-2.0
// Internal to importers: simdjson helpers shared by the JSON formats. Lookups on a missing object answer "absent"
// and never throw; whole-document parses fail with a located warning and a truncated-or-error status.
#pragma once

#include "importers/file_parse.h"

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace faultline::importers {

/// Status of a JSON document that failed to parse: a document that starts like JSON but does not end like it was
/// cut short (truncated); anything else (an HTML error page, a plain-text 429 body) is an error.
core::CoverageStatus failedJsonStatus(std::string_view bytes);

namespace json {

namespace dom = simdjson::dom;

bool getString(dom::element obj, std::string_view key, std::string_view& out);
bool getString(simdjson::simdjson_result<dom::element> obj, std::string_view key, std::string_view& out);
/// The string at `key`, or "" when it (or its parent) is absent.
std::string_view stringAt(dom::element obj, std::string_view key);
std::string_view stringAt(simdjson::simdjson_result<dom::element> obj, std::string_view key);

std::string errorText(simdjson::error_code e);

/// An integer written as a JSON string (journald's microseconds, Loki's nanoseconds); `ok` says whether all of `s`
/// was one.
std::int64_t parseInt64(std::string_view s, bool& ok);

/// Parses `fp.data` as one JSON document (an API response, an object list). On failure: status truncated (the
/// document starts like JSON and is cut short) or error, and a json-malformed warning naming `what`.
bool parseDocument(FileParse& fp, dom::parser& parser, dom::element& doc, const char* what);

/// Counts newlines incrementally so provenance lines are cheap to compute for increasing offsets.
class LineCounter
{
public:
    explicit LineCounter(std::string_view buf)
        : m_buf(buf)
    { }
    std::uint64_t lineAt(std::size_t offset);

private:
    std::string_view m_buf;
    std::size_t m_pos = 0;
    std::uint64_t m_line = 1;
};

} // namespace json
} // namespace faultline::importers
