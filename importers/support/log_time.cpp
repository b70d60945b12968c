// SPDX-License-Identifier: Apache-2.0
#include "importers/support/log_time.h"

#include "importers/support/text_scan.h"

#include <cstring>

namespace faultline::importers {

using core::CivilTime;

std::size_t parseMonthDayTime(std::string_view s, bool withYear, int defaultYear, CivilTime& t)
{
    if (s.size() < 15)
        return 0;
    t = CivilTime {};
    t.month = core::monthFromAbbrev(s.substr(0, 3));
    if (t.month == 0 || s[3] != ' ')
        return 0;
    std::size_t p = 4;
    if (s[p] == ' ')
        ++p;
    int day = 0;
    while (p < s.size() && isDigit(s[p]))
        day = day * 10 + (s[p++] - '0');
    if (day < 1 || day > 31 || p >= s.size() || s[p] != ' ')
        return 0;
    t.day = day;
    ++p;
    if (withYear) {
        int y = 0;
        const std::size_t start = p;
        while (p < s.size() && isDigit(s[p]))
            y = y * 10 + (s[p++] - '0');
        if (p - start != 4 || p >= s.size() || s[p] != ' ')
            return 0;
        t.year = y;
        ++p;
    } else {
        t.year = defaultYear;
    }
    if (p + 8 > s.size() || s[p + 2] != ':' || s[p + 5] != ':')
        return 0;
    auto two = [&](std::size_t at) { return (s[at] - '0') * 10 + (s[at + 1] - '0'); };
    if (!isDigit(s[p]) || !isDigit(s[p + 1]) || !isDigit(s[p + 3]) || !isDigit(s[p + 4]) || !isDigit(s[p + 6])
        || !isDigit(s[p + 7]))
        return 0;
    t.hour = two(p);
    t.minute = two(p + 3);
    t.second = two(p + 6);
    p += 8;
    if (p < s.size() && s[p] == '.') {
        ++p;
        std::int64_t frac = 0;
        int n = 0;
        while (p < s.size() && isDigit(s[p])) {
            if (n < 9) {
                frac = frac * 10 + (s[p] - '0');
                ++n;
            }
            ++p;
        }
        for (int i = n; i < 9; ++i)
            frac *= 10;
        t.nanos = frac;
        t.fractionDigits = n;
    }
    return p;
}

std::size_t parseGlogTime(std::string_view s, int year, CivilTime& t)
{
    // "MMDD HH:MM:SS.frac" in a fixed-size buffer: no allocation on this per-line path.
    if (s.size() < 13 || !isDigit(s[0]) || !isDigit(s[1]) || !isDigit(s[2]) || !isDigit(s[3]) || s[4] != ' ')
        return 0;
    std::size_t e = 5;
    while (e < s.size() && (isDigit(s[e]) || s[e] == ':' || s[e] == '.'))
        ++e;
    char iso[48];
    const std::size_t clock = e - 5;
    if (clock + 11 > sizeof iso || year < 0 || year > 9999)
        return 0;
    iso[0] = static_cast<char>('0' + year / 1000);
    iso[1] = static_cast<char>('0' + year / 100 % 10);
    iso[2] = static_cast<char>('0' + year / 10 % 10);
    iso[3] = static_cast<char>('0' + year % 10);
    iso[4] = '-';
    iso[5] = s[0];
    iso[6] = s[1];
    iso[7] = '-';
    iso[8] = s[2];
    iso[9] = s[3];
    iso[10] = 'T';
    std::memcpy(iso + 11, s.data() + 5, clock);
    const std::string_view text(iso, 11 + clock);
    CivilTime tmp;
    if (core::parseIsoTime(text, tmp) != text.size())
        return 0;
    t = tmp;
    return e;
}

} // namespace faultline::importers
