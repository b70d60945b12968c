// SPDX-License-Identifier: Apache-2.0
#include "importers/support/hostlist.h"

#include <charconv>

namespace faultline::importers {
namespace {

bool expandRanges(std::string_view body, std::vector<std::string>& out, std::size_t limit)
{
    // body: "01-04,07"
    while (!body.empty()) {
        const auto comma = body.find(',');
        std::string_view part = body.substr(0, comma);
        body = comma == std::string_view::npos ? std::string_view() : body.substr(comma + 1);
        const auto dash = part.find('-');
        std::string_view a = part.substr(0, dash);
        std::string_view b = dash == std::string_view::npos ? a : part.substr(dash + 1);
        unsigned long lo = 0;
        unsigned long hi = 0;
        if (a.empty() || b.empty() || std::from_chars(a.data(), a.data() + a.size(), lo).ptr != a.data() + a.size()
            || std::from_chars(b.data(), b.data() + b.size(), hi).ptr != b.data() + b.size() || hi < lo
            || hi - lo > limit)
            return false;
        const std::size_t width = a.size();
        for (unsigned long v = lo; v <= hi; ++v) {
            std::string s = std::to_string(v);
            if (s.size() < width)
                s.insert(0, width - s.size(), '0');
            out.push_back(std::move(s));
            if (out.size() > limit)
                return false;
        }
    }
    return true;
}

} // namespace

std::optional<std::vector<std::string>> expandHostlist(std::string_view expr, std::size_t limit)
{
    std::vector<std::string> result;
    std::size_t i = 0;
    while (i < expr.size()) {
        // One item: prefix[ranges]suffix... up to a top-level comma.
        std::vector<std::string> partial { "" };
        while (i < expr.size() && expr[i] != ',') {
            if (expr[i] == '[') {
                const auto close = expr.find(']', i);
                if (close == std::string_view::npos)
                    return std::nullopt;
                std::vector<std::string> nums;
                if (!expandRanges(expr.substr(i + 1, close - i - 1), nums, limit))
                    return std::nullopt;
                std::vector<std::string> next;
                for (const auto& p : partial)
                    for (const auto& n : nums)
                        next.push_back(p + n);
                if (next.size() > limit)
                    return std::nullopt;
                partial = std::move(next);
                i = close + 1;
            } else if (expr[i] == ']') {
                return std::nullopt;
            } else {
                for (auto& p : partial)
                    p += expr[i];
                ++i;
            }
        }
        for (auto& p : partial)
            if (!p.empty())
                result.push_back(std::move(p));
        if (result.size() > limit)
            return std::nullopt;
        ++i; // skip ','
    }
    return result;
}

} // namespace faultline::importers
