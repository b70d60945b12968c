// SPDX-License-Identifier: Apache-2.0
#include "core/time/civil_time.h"

#include <date/tz.h>

#include <array>
#include <charconv>
#include <map>
#include <mutex>

namespace faultline::core {
namespace {

bool digits(std::string_view s, std::size_t pos, std::size_t n, int& out)
{
    if (pos + n > s.size())
        return false;
    int v = 0;
    for (std::size_t i = pos; i < pos + n; ++i) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
    }
    out = v;
    return true;
}

std::optional<int> parseNumericOffset(std::string_view z)
{
    // "+01:00", "-0500", "+01"
    if (z.empty() || (z[0] != '+' && z[0] != '-'))
        return std::nullopt;
    int h = 0;
    int m = 0;
    if (!digits(z, 1, 2, h))
        return std::nullopt;
    std::size_t p = 3;
    if (p < z.size() && z[p] == ':')
        ++p;
    if (p < z.size() && !digits(z, p, 2, m))
        return std::nullopt;
    const int sign = z[0] == '-' ? -1 : 1;
    return sign * (h * 3600 + m * 60);
}

} // namespace

std::int64_t CivilTime::precisionNs() const
{
    std::int64_t p = kNsPerSec;
    for (int i = 0; i < fractionDigits && i < 9; ++i)
        p /= 10;
    return p;
}

std::int64_t daysFromCivil(int y, int m, int d)
{
    // Howard Hinnant's days_from_civil.
    y -= m <= 2;
    const int era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const auto mp = static_cast<unsigned>(m + (m > 2 ? -3 : 9));
    const unsigned doy = (153 * mp + 2) / 5 + static_cast<unsigned>(d) - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return static_cast<std::int64_t>(era) * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

std::int64_t civilAsUtcNs(const CivilTime& t)
{
    const std::int64_t days = daysFromCivil(t.year, t.month, t.day);
    const std::int64_t secs = days * 86400 + t.hour * 3600 + t.minute * 60 + t.second;
    return secs * kNsPerSec + t.nanos;
}

int monthFromAbbrev(std::string_view s)
{
    static constexpr std::array<std::string_view, 12> kMonths = { "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul",
        "Aug", "Sep", "Oct", "Nov", "Dec" };
    for (std::size_t i = 0; i < kMonths.size(); ++i)
        if (s.substr(0, 3) == kMonths[i])
            return static_cast<int>(i) + 1;
    return 0;
}

std::size_t parseIsoTime(std::string_view s, CivilTime& out)
{
    CivilTime t;
    if (!digits(s, 0, 4, t.year) || s.size() < 19 || s[4] != '-' || !digits(s, 5, 2, t.month) || s[7] != '-'
        || !digits(s, 8, 2, t.day) || (s[10] != 'T' && s[10] != ' ' && s[10] != '_') || !digits(s, 11, 2, t.hour)
        || s[13] != ':' || !digits(s, 14, 2, t.minute) || s[16] != ':' || !digits(s, 17, 2, t.second))
        return 0;
    if (t.month < 1 || t.month > 12 || t.day < 1 || t.day > 31 || t.hour > 23 || t.minute > 59 || t.second > 60)
        return 0;
    std::size_t p = 19;
    if (p < s.size() && (s[p] == '.' || s[p] == ',')) {
        ++p;
        std::int64_t frac = 0;
        int n = 0;
        while (p < s.size() && s[p] >= '0' && s[p] <= '9') {
            if (n < 9) {
                frac = frac * 10 + (s[p] - '0');
                ++n;
            }
            ++p;
        }
        if (n == 0)
            return 0;
        t.fractionDigits = n;
        for (int i = n; i < 9; ++i)
            frac *= 10;
        t.nanos = frac;
    }
    if (p < s.size() && s[p] == 'Z') {
        t.hasOffset = true;
        ++p;
    } else if (p < s.size() && (s[p] == '+' || s[p] == '-')) {
        std::size_t e = p + 1;
        while (e < s.size() && ((s[e] >= '0' && s[e] <= '9') || s[e] == ':') && e - p < 6)
            ++e;
        if (auto off = parseNumericOffset(s.substr(p, e - p))) {
            t.hasOffset = true;
            t.offsetSeconds = *off;
            p = e;
        }
    }
    out = t;
    return p;
}

std::optional<std::int64_t> parseDurationNs(std::string_view s)
{
    if (s.empty())
        return std::nullopt;
    double v = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || v < 0)
        return std::nullopt;
    const std::string_view unit(ptr, static_cast<std::size_t>(s.data() + s.size() - ptr));
    double scale = 0;
    if (unit == "ns")
        scale = 1;
    else if (unit == "us")
        scale = 1e3;
    else if (unit == "ms")
        scale = 1e6;
    else if (unit == "s")
        scale = 1e9;
    else if (unit == "m")
        scale = 60e9;
    else if (unit == "h")
        scale = 3600e9;
    else if (unit == "d")
        scale = 86400e9;
    else
        return std::nullopt;
    return static_cast<std::int64_t>(v * scale);
}

int yearOfUtcNs(std::int64_t ns)
{
    const auto floorDiv = [](std::int64_t a, std::int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); };
    std::int64_t days = floorDiv(floorDiv(ns, kNsPerSec), 86400);
    days += 719468;
    const std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    const auto doe = static_cast<unsigned>(days - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    return static_cast<int>(static_cast<std::int64_t>(yoe) + era * 400 + (mp >= 10 ? 1 : 0));
}

std::string formatUtc(std::int64_t ns)
{
    if (ns == kNoTime)
        return "-";
    std::int64_t secs = ns / kNsPerSec;
    std::int64_t frac = ns % kNsPerSec;
    if (frac < 0) {
        frac += kNsPerSec;
        --secs;
    }
    std::int64_t days = secs / 86400;
    std::int64_t rem = secs % 86400;
    if (rem < 0) {
        rem += 86400;
        --days;
    }
    // civil_from_days
    days += 719468;
    const std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    const auto doe = static_cast<unsigned>(days - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const std::int64_t y0 = static_cast<std::int64_t>(yoe) + era * 400;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned d = doy - (153 * mp + 2) / 5 + 1;
    const unsigned m = mp < 10 ? mp + 3 : mp - 9;
    const std::int64_t y = y0 + (m <= 2);
    char buf[48];
    int n = std::snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02lld:%02lld:%02lld", static_cast<long long>(y), m, d,
        static_cast<long long>(rem / 3600), static_cast<long long>(rem / 60 % 60), static_cast<long long>(rem % 60));
    std::string out(buf, static_cast<std::size_t>(n));
    if (frac != 0) {
        if (frac % kNsPerMs == 0)
            n = std::snprintf(buf, sizeof buf, ".%03lld", static_cast<long long>(frac / kNsPerMs));
        else if (frac % kNsPerUs == 0)
            n = std::snprintf(buf, sizeof buf, ".%06lld", static_cast<long long>(frac / kNsPerUs));
        else
            n = std::snprintf(buf, sizeof buf, ".%09lld", static_cast<long long>(frac));
        out.append(buf, static_cast<std::size_t>(n));
    }
    out += 'Z';
    return out;
}

std::string formatDelta(std::int64_t ns)
{
    const char sign = ns < 0 ? '-' : '+';
    const std::int64_t a = ns < 0 ? -ns : ns;
    char buf[64];
    if (a < kNsPerSec)
        std::snprintf(buf, sizeof buf, "%c%lldms", sign, static_cast<long long>(a / kNsPerMs));
    else if (a < 120 * kNsPerSec)
        std::snprintf(buf, sizeof buf, "%c%.1fs", sign, static_cast<double>(a) / 1e9);
    else
        std::snprintf(buf, sizeof buf, "%c%lldm%02llds", sign, static_cast<long long>(a / kNsPerSec / 60),
            static_cast<long long>(a / kNsPerSec % 60));
    return buf;
}

namespace {

std::mutex s_zoneMutex;

const date::time_zone* lookupZone(std::string_view name)
{
    static std::map<std::string, const date::time_zone*, std::less<>> cache;
    std::lock_guard lock(s_zoneMutex);
    if (auto it = cache.find(name); it != cache.end())
        return it->second;
    const date::time_zone* z = nullptr;
    try {
        z = date::locate_zone(std::string(name));
    } catch (const std::exception&) {
        z = nullptr;
    }
    cache.emplace(std::string(name), z);
    return z;
}

} // namespace

bool ZoneResolver::isKnownZone(std::string_view zone)
{
    return zone == "UTC" || zone == "Z" || parseNumericOffset(zone).has_value() || lookupZone(zone) != nullptr;
}

ZoneResolver::Result ZoneResolver::toUtc(const CivilTime& local, std::string_view zone)
{
    Result r;
    const std::int64_t asUtc = civilAsUtcNs(local);
    if (zone.empty() || zone == "UTC" || zone == "Z" || zone == "Etc/UTC") {
        r.utcNs = asUtc;
        return r;
    }
    if (auto off = parseNumericOffset(zone)) {
        r.utcNs = asUtc - static_cast<std::int64_t>(*off) * kNsPerSec;
        return r;
    }
    const date::time_zone* z = lookupZone(zone);
    if (!z) {
        r.utcNs = asUtc;
        r.status = Status::UnknownZone;
        return r;
    }
    using namespace std::chrono;
    const date::local_seconds ls { seconds { asUtc / kNsPerSec } };
    const date::local_info info = z->get_info(ls);
    std::int64_t offset = 0;
    switch (info.result) {
    case date::local_info::unique:
        offset = duration_cast<seconds>(info.first.offset).count();
        break;
    case date::local_info::nonexistent:
        r.status = Status::Nonexistent;
        offset = duration_cast<seconds>(info.first.offset).count();
        break;
    case date::local_info::ambiguous:
        r.status = Status::Ambiguous;
        offset = duration_cast<seconds>(info.first.offset).count();
        break;
    }
    r.utcNs = asUtc - offset * kNsPerSec;
    return r;
}

} // namespace faultline::core
