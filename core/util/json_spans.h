// SPDX-License-Identifier: Apache-2.0
// A JSON text read as a tree of values that keep their byte spans in the text, so a caller can rewrite some values
// (a string, a number) and leave every other byte, whitespace and key order as it was.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace faultline::core {

struct JsonSpan
{
    enum class Type { Object, Array, String, Number, Literal };
    Type type = Type::Literal;
    std::size_t begin = 0; ///< the value's first byte in the text
    std::size_t end = 0; ///< one past its last byte (a string's span includes its quotes)
    std::string text; ///< a string's decoded content; a number's or literal's text
    std::vector<std::pair<JsonSpan, JsonSpan>> members; ///< an object's keys (strings) and values, in order
    std::vector<JsonSpan> items; ///< an array's values

    /// The value of the object's member `key`, or null.
    const JsonSpan* member(std::string_view key) const;
};

/// The tree of a JSON text (one value, whitespace around it allowed); nullopt when the text is not JSON. Nesting is
/// limited to 256 levels.
std::optional<JsonSpan> parseJsonSpans(std::string_view json);
/// The same, and when the text is not JSON, `errorAt` is the byte where it stops being JSON (the first byte that
/// cannot continue a value, or the end of a text cut short).
std::optional<JsonSpan> parseJsonSpans(std::string_view json, std::size_t& errorAt);

/// One replacement of a span of a text.
struct SpanEdit
{
    std::size_t begin = 0;
    std::size_t end = 0;
    std::string text;
};

/// The text with the edits applied; edits must not overlap (they are applied in order of `begin`).
std::string applySpanEdits(std::string_view text, std::vector<SpanEdit> edits);

} // namespace faultline::core
