// SPDX-License-Identifier: Apache-2.0
#include "core/util/json_writer.h"

#include <charconv>
#include <cmath>

namespace faultline::core {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 when the bytes there are not valid UTF-8.
std::size_t utf8SequenceLength(std::string_view s, std::size_t i)
{
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4;
    else
        return 0;
    if (i + n > s.size())
        return 0;
    for (std::size_t k = 1; k < n; ++k)
        if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80)
            return 0;
    const auto c1 = static_cast<unsigned char>(s[i + 1]);
    if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 > 0x9F) || (c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 > 0x8F))
        return 0;
    return n;
}

void appendHexByte(std::string& out, unsigned char c, const char* prefix)
{
    static constexpr char kHex[] = "0123456789abcdef";
    out += prefix;
    out += kHex[c >> 4];
    out += kHex[c & 0xf];
}

} // namespace

void JsonWriter::escapeInto(std::string& out, std::string_view s)
{
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x80) {
            const std::size_t n = utf8SequenceLength(s, i);
            if (n == 0) {
                appendHexByte(out, c, "\\\\x");
                ++i;
            } else {
                out.append(s.substr(i, n));
                i += n;
            }
            continue;
        }
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (c < 0x20)
                appendHexByte(out, c, "\\u00");
            else
                out += static_cast<char>(c);
        }
        ++i;
    }
}

std::string escapeForDisplay(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const std::size_t n = c >= 0x80 ? utf8SequenceLength(s, i) : 1;
        if (n == 0 || (c < 0x20 && c != '\t')) {
            appendHexByte(out, c, "\\x");
            ++i;
        } else {
            out.append(s.substr(i, n));
            i += n;
        }
    }
    return out;
}

void JsonWriter::newline()
{
    if (!m_pretty)
        return;
    m_out += '\n';
    m_out.append(m_first.size() * 2, ' ');
}

void JsonWriter::beforeValue()
{
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (!m_first.empty()) {
        if (!m_first.back())
            m_out += ',';
        m_first.back() = false;
        newline();
    }
}

JsonWriter& JsonWriter::beginObject()
{
    beforeValue();
    m_out += '{';
    m_first.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::endObject()
{
    const bool empty = m_first.back();
    m_first.pop_back();
    if (!empty)
        newline();
    m_out += '}';
    return *this;
}

JsonWriter& JsonWriter::beginArray()
{
    beforeValue();
    m_out += '[';
    m_first.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::endArray()
{
    return endObject().m_out.back() = ']', *this;
}

JsonWriter& JsonWriter::key(std::string_view k)
{
    beforeValue();
    m_out += '"';
    escapeInto(m_out, k);
    m_out += m_pretty ? "\": " : "\":";
    m_afterKey = true;
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view s)
{
    beforeValue();
    m_out += '"';
    escapeInto(m_out, s);
    m_out += '"';
    return *this;
}

JsonWriter& JsonWriter::value(std::int64_t v)
{
    beforeValue();
    m_out += std::to_string(v);
    return *this;
}

JsonWriter& JsonWriter::value(std::uint64_t v)
{
    beforeValue();
    m_out += std::to_string(v);
    return *this;
}

JsonWriter& JsonWriter::value(double v)
{
    beforeValue();
    if (!std::isfinite(v)) {
        m_out += "null";
        return *this;
    }
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    m_out.append(buf, res.ptr);
    return *this;
}

JsonWriter& JsonWriter::value(bool v)
{
    beforeValue();
    m_out += v ? "true" : "false";
    return *this;
}

JsonWriter& JsonWriter::null()
{
    beforeValue();
    m_out += "null";
    return *this;
}

} // namespace faultline::core
