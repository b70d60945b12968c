// SPDX-License-Identifier: Apache-2.0
// A small deterministic JSON writer: keys are written in the order the caller gives, numbers without locale,
// strings escaped. Invalid UTF-8 bytes are written as the visible text "\xNN" so output stays valid JSON and
// the raw byte stays recognisable.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace faultline::core {

class JsonWriter
{
public:
    explicit JsonWriter(bool pretty = true)
        : m_pretty(pretty)
    { }

    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    JsonWriter& key(std::string_view k);
    JsonWriter& value(std::string_view s);
    JsonWriter& value(const char* s) { return value(std::string_view(s)); }
    JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
    JsonWriter& value(std::int64_t v);
    JsonWriter& value(std::uint64_t v);
    JsonWriter& value(int v) { return value(static_cast<std::int64_t>(v)); }
    JsonWriter& value(unsigned v) { return value(static_cast<std::uint64_t>(v)); }
    JsonWriter& value(double v);
    JsonWriter& value(bool v);
    JsonWriter& null();

    template <class T> JsonWriter& field(std::string_view k, const T& v)
    {
        key(k);
        return value(v);
    }

    const std::string& str() const { return m_out; }

    /// Appends `s` escaped as JSON string content (without quotes).
    static void escapeInto(std::string& out, std::string_view s);

private:
    void beforeValue();
    JsonWriter& closeContainer(char bracket);
    void newline();

    std::string m_out;
    std::vector<bool> m_first; // per open container: no element written yet
    bool m_pretty;
    bool m_afterKey = false;
};

/// Escapes bytes that are not valid UTF-8 (and control characters) as "\xNN" for display.
std::string escapeForDisplay(std::string_view s);

} // namespace faultline::core
