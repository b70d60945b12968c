// SPDX-License-Identifier: Apache-2.0
#include "core/util/json_spans.h"

#include <algorithm>
#include <cstdint>

namespace faultline::core {

namespace {

class Reader
{
public:
    explicit Reader(std::string_view s)
        : m_s(s)
    { }

    std::optional<JsonSpan> document()
    {
        JsonSpan v;
        skipSpace();
        if (!value(v, 0))
            return std::nullopt;
        skipSpace();
        if (m_p != m_s.size())
            return std::nullopt;
        return v;
    }

    /// Where reading stopped: after a failed document(), the byte the text stops being JSON at.
    std::size_t position() const { return std::min(m_p, m_s.size()); }

private:
    void skipSpace()
    {
        while (m_p < m_s.size() && (m_s[m_p] == ' ' || m_s[m_p] == '\t' || m_s[m_p] == '\n' || m_s[m_p] == '\r'))
            ++m_p;
    }

    bool value(JsonSpan& v, int depth)
    {
        if (depth > 256 || m_p >= m_s.size())
            return false;
        v.begin = m_p;
        const char c = m_s[m_p];
        bool ok = false;
        if (c == '{')
            ok = object(v, depth);
        else if (c == '[')
            ok = array(v, depth);
        else if (c == '"')
            ok = string(v);
        else if (c == '-' || (c >= '0' && c <= '9'))
            ok = number(v);
        else
            ok = literal(v);
        v.end = m_p;
        return ok;
    }

    bool object(JsonSpan& v, int depth)
    {
        v.type = JsonSpan::Type::Object;
        ++m_p;
        skipSpace();
        if (m_p < m_s.size() && m_s[m_p] == '}') {
            ++m_p;
            return true;
        }
        for (;;) {
            skipSpace();
            JsonSpan key;
            key.begin = m_p;
            if (m_p >= m_s.size() || m_s[m_p] != '"' || !string(key))
                return false;
            key.end = m_p;
            skipSpace();
            if (m_p >= m_s.size() || m_s[m_p] != ':')
                return false;
            ++m_p;
            skipSpace();
            JsonSpan val;
            if (!value(val, depth + 1))
                return false;
            v.members.emplace_back(std::move(key), std::move(val));
            skipSpace();
            if (m_p >= m_s.size())
                return false;
            if (m_s[m_p] == ',') {
                ++m_p;
                continue;
            }
            if (m_s[m_p] == '}') {
                ++m_p;
                return true;
            }
            return false;
        }
    }

    bool array(JsonSpan& v, int depth)
    {
        v.type = JsonSpan::Type::Array;
        ++m_p;
        skipSpace();
        if (m_p < m_s.size() && m_s[m_p] == ']') {
            ++m_p;
            return true;
        }
        for (;;) {
            skipSpace();
            JsonSpan item;
            if (!value(item, depth + 1))
                return false;
            v.items.push_back(std::move(item));
            skipSpace();
            if (m_p >= m_s.size())
                return false;
            if (m_s[m_p] == ',') {
                ++m_p;
                continue;
            }
            if (m_s[m_p] == ']') {
                ++m_p;
                return true;
            }
            return false;
        }
    }

    static void appendUtf8(std::string& out, std::uint32_t cp)
    {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    bool hex4(std::uint32_t& out)
    {
        if (m_p + 4 > m_s.size())
            return false;
        out = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = m_s[m_p++];
            out <<= 4;
            if (c >= '0' && c <= '9')
                out |= static_cast<std::uint32_t>(c - '0');
            else if (c >= 'a' && c <= 'f')
                out |= static_cast<std::uint32_t>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                out |= static_cast<std::uint32_t>(c - 'A' + 10);
            else
                return false;
        }
        return true;
    }

    bool string(JsonSpan& v)
    {
        v.type = JsonSpan::Type::String;
        ++m_p; // the opening quote
        std::string& out = v.text;
        while (m_p < m_s.size()) {
            const char c = m_s[m_p++];
            if (c == '"')
                return true;
            if (static_cast<unsigned char>(c) < 0x20)
                return false;
            if (c != '\\') {
                out += c;
                continue;
            }
            if (m_p >= m_s.size())
                return false;
            const char e = m_s[m_p++];
            switch (e) {
            case '"':
            case '\\':
            case '/':
                out += e;
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'u': {
                std::uint32_t cp = 0;
                if (!hex4(cp))
                    return false;
                if (cp >= 0xD800 && cp <= 0xDBFF && m_p + 6 <= m_s.size() && m_s[m_p] == '\\' && m_s[m_p + 1] == 'u') {
                    const std::size_t save = m_p;
                    m_p += 2;
                    std::uint32_t low = 0;
                    if (hex4(low) && low >= 0xDC00 && low <= 0xDFFF)
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                    else
                        m_p = save;
                }
                appendUtf8(out, cp);
                break;
            }
            default:
                return false;
            }
        }
        return false;
    }

    bool number(JsonSpan& v)
    {
        v.type = JsonSpan::Type::Number;
        const std::size_t start = m_p;
        if (m_s[m_p] == '-')
            ++m_p;
        auto digits = [&] {
            const std::size_t from = m_p;
            while (m_p < m_s.size() && m_s[m_p] >= '0' && m_s[m_p] <= '9')
                ++m_p;
            return m_p > from;
        };
        if (!digits())
            return false;
        if (m_p < m_s.size() && m_s[m_p] == '.') {
            ++m_p;
            if (!digits())
                return false;
        }
        if (m_p < m_s.size() && (m_s[m_p] == 'e' || m_s[m_p] == 'E')) {
            ++m_p;
            if (m_p < m_s.size() && (m_s[m_p] == '+' || m_s[m_p] == '-'))
                ++m_p;
            if (!digits())
                return false;
        }
        v.text = std::string(m_s.substr(start, m_p - start));
        return true;
    }

    bool literal(JsonSpan& v)
    {
        v.type = JsonSpan::Type::Literal;
        for (const std::string_view lit : { "true", "false", "null" })
            if (m_s.substr(m_p, lit.size()) == lit) {
                m_p += lit.size();
                v.text = std::string(lit);
                return true;
            }
        return false;
    }

    std::string_view m_s;
    std::size_t m_p = 0;
};

} // namespace

const JsonSpan* JsonSpan::member(std::string_view key) const
{
    for (const auto& [k, v] : members)
        if (k.text == key)
            return &v;
    return nullptr;
}

std::optional<JsonSpan> parseJsonSpans(std::string_view json)
{
    return Reader(json).document();
}

std::optional<JsonSpan> parseJsonSpans(std::string_view json, std::size_t& errorAt)
{
    Reader r(json);
    auto tree = r.document();
    errorAt = tree ? 0 : r.position();
    return tree;
}

std::string applySpanEdits(std::string_view text, std::vector<SpanEdit> edits)
{
    std::sort(edits.begin(), edits.end(), [](const SpanEdit& a, const SpanEdit& b) { return a.begin < b.begin; });
    std::string out;
    out.reserve(text.size());
    std::size_t at = 0;
    for (const auto& e : edits) {
        if (e.begin < at || e.end > text.size())
            continue; // overlapping or out of range: the caller's mistake, never a crash
        out.append(text.substr(at, e.begin - at));
        out += e.text;
        at = e.end;
    }
    out.append(text.substr(at));
    return out;
}

} // namespace faultline::core
