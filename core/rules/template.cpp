// SPDX-License-Identifier: Apache-2.0
#include "core/rules/template.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>

namespace faultline::core {
namespace {

bool isHex(std::string_view s)
{
    return !s.empty()
        && std::all_of(s.begin(), s.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(),
        [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); });
    return s;
}

std::string applyFilter(std::string value, std::string_view filter)
{
    const auto colon = filter.find(':');
    const std::string_view name = filter.substr(0, colon);
    const std::string_view args = colon == std::string_view::npos ? std::string_view() : filter.substr(colon + 1);
    if (name == "lower")
        return lower(std::move(value));
    if (name == "upper") {
        std::transform(value.begin(), value.end(), value.begin(),
            [](char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); });
        return value;
    }
    if (name == "pci")
        return normalisePci(value);
    if (name == "int") {
        std::size_t i = 0;
        while (i < value.size() && value[i] == '0' && i + 1 < value.size())
            ++i;
        return value.substr(i);
    }
    if (name == "default")
        return value.empty() ? std::string(args) : value;
    if (name == "bits") {
        const auto c2 = args.find(':');
        if (c2 == std::string_view::npos)
            return {};
        int lo = 0;
        int hi = 0;
        std::from_chars(args.data(), args.data() + c2, lo);
        std::from_chars(args.data() + c2 + 1, args.data() + args.size(), hi);
        std::uint64_t v = 0;
        std::string_view digits = value;
        int base = 10;
        if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
            digits.remove_prefix(2);
            base = 16;
        }
        if (std::from_chars(digits.data(), digits.data() + digits.size(), v, base).ec != std::errc() || lo < 0
            || hi < lo || hi > 63)
            return {};
        const int width = hi - lo + 1;
        const std::uint64_t mask = width >= 64 ? ~0ull : ((1ull << width) - 1);
        return std::to_string((v >> lo) & mask);
    }
    return value;
}

} // namespace

std::string normalisePci(std::string_view s)
{
    std::string_view t = s;
    if (t.substr(0, 4) == "PCI:" || t.substr(0, 4) == "pci:")
        t.remove_prefix(4);
    if (!t.empty() && t[0] == '+')
        t.remove_prefix(1);
    if (t.substr(0, 4) == "pci:")
        t.remove_prefix(4);
    // NCCL busId: hex int of "dddd:bb:dd.f" with separators removed, e.g. "c3000" → 0000:c3:00.0
    if (t.find(':') == std::string_view::npos) {
        if (!isHex(t) || t.size() > 13 || t.size() < 4)
            return {};
        std::string padded(t);
        if (padded.size() < 9)
            padded.insert(0, 9 - padded.size(), '0');
        const std::size_t n = padded.size();
        std::string dom = padded.substr(0, n - 5);
        dom = dom.size() > 4 ? dom.substr(dom.size() - 4) : std::string(4 - dom.size(), '0') + dom;
        return lower(
            dom + ":" + padded.substr(n - 5, 2) + ":" + padded.substr(n - 3, 2) + "." + padded.substr(n - 1, 1));
    }
    std::string domain;
    std::string bus;
    std::string dev;
    std::string fn = "0";
    const auto c1 = t.find(':');
    const auto c2 = t.find(':', c1 + 1);
    if (c2 == std::string_view::npos) {
        domain = "0000";
        bus = std::string(t.substr(0, c1));
        dev = std::string(t.substr(c1 + 1));
    } else {
        domain = std::string(t.substr(0, c1));
        bus = std::string(t.substr(c1 + 1, c2 - c1 - 1));
        dev = std::string(t.substr(c2 + 1));
    }
    if (auto dot = dev.find('.'); dot != std::string::npos) {
        fn = dev.substr(dot + 1);
        dev = dev.substr(0, dot);
    }
    if (!isHex(domain) || !isHex(bus) || !isHex(dev) || !isHex(fn) || bus.size() > 2 || dev.size() > 2)
        return {};
    if (domain.size() > 4)
        domain = domain.substr(domain.size() - 4);
    while (domain.size() < 4)
        domain.insert(0, "0");
    if (bus.size() < 2)
        bus.insert(0, "0");
    if (dev.size() < 2)
        dev.insert(0, "0");
    return lower(domain + ":" + bus + ":" + dev + "." + fn);
}

std::string expandTemplate(std::string_view tpl, const FieldLookup& lookup)
{
    std::string out;
    out.reserve(tpl.size() + 16);
    for (std::size_t i = 0; i < tpl.size(); ++i) {
        if (tpl[i] != '{') {
            out += tpl[i];
            continue;
        }
        const auto close = tpl.find('}', i);
        if (close == std::string_view::npos) {
            out.append(tpl.substr(i));
            break;
        }
        std::string_view expr = tpl.substr(i + 1, close - i - 1);
        std::string_view name = expr;
        std::string_view filters;
        if (auto bar = expr.find('|'); bar != std::string_view::npos) {
            name = expr.substr(0, bar);
            filters = expr.substr(bar + 1);
        }
        const std::string* v = lookup(name);
        std::string value = v ? *v : std::string();
        while (!filters.empty()) {
            const auto bar = filters.find('|');
            value = applyFilter(std::move(value), filters.substr(0, bar));
            filters = bar == std::string_view::npos ? std::string_view() : filters.substr(bar + 1);
        }
        out += value;
        i = close;
    }
    return out;
}

} // namespace faultline::core
