// SPDX-License-Identifier: Apache-2.0
// Timestamp parsing and formatting. Every time in Faultline is int64 nanoseconds since the Unix epoch, UTC.
// Parsers never go through double for sub-second digits.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace faultline::core {

inline constexpr std::int64_t kNsPerUs = 1000;
inline constexpr std::int64_t kNsPerMs = 1000 * 1000;
inline constexpr std::int64_t kNsPerSec = 1000 * 1000 * 1000;
inline constexpr std::int64_t kNoTime = INT64_MIN;

/// A calendar time as written in a log, before any zone is applied.
struct CivilTime
{
    int year = 0;
    int month = 0; // 1..12
    int day = 0;
    int hour = 0;
    int minute = 0;
    int second = 0;
    std::int64_t nanos = 0;
    int fractionDigits = 0; // how many sub-second digits the text had (precision)
    bool hasOffset = false; // an explicit "Z" or numeric offset was present
    int offsetSeconds = 0;

    /// Precision of the written value in ns (1 s with no fraction, 1 ms with 3 digits, ...).
    std::int64_t precisionNs() const;
};

std::int64_t daysFromCivil(int y, int m, int d);
/// Seconds since epoch of the civil time read as UTC (ignores any offset).
std::int64_t civilAsUtcNs(const CivilTime& t);

/// "Jan".."Dec" → 1..12; 0 when not a month abbreviation (case-sensitive, as every tool writes it).
int monthFromAbbrev(std::string_view s);

/// Parses "YYYY-MM-DD[T| ]HH:MM:SS[.,frac][Z|±HH:MM|±HHMM]" at the start of `s`. Returns the number of bytes
/// consumed, 0 when `s` does not start with such a time.
std::size_t parseIsoTime(std::string_view s, CivilTime& out);

/// Parses a "600s" / "10m" / "1.5h" / "250ms" / "3d" duration. Returns nullopt when malformed.
std::optional<std::int64_t> parseDurationNs(std::string_view s);

/// Calendar year of a UTC time.
int yearOfUtcNs(std::int64_t ns);

/// 2026-11-02T10:15:01.123456789Z with trailing zero groups of the fraction trimmed to ms/us/ns.
std::string formatUtc(std::int64_t ns);
/// "+600.2s", "-31s", "+2m03s": a short human delta.
std::string formatDelta(std::int64_t ns);

/// Resolves civil times in IANA zones (via the system tz database). Thread-safe.
class ZoneResolver
{
public:
    enum class Status { Ok, UnknownZone, Nonexistent, Ambiguous };
    struct Result
    {
        std::int64_t utcNs = kNoTime;
        Status status = Status::Ok;
    };
    /// Converts a local civil time in `zone` ("UTC", "Europe/Berlin", "+01:00") to UTC ns. Nonexistent and
    /// ambiguous local times (DST) resolve to the earlier instant and say so in `status`.
    static Result toUtc(const CivilTime& local, std::string_view zone);
    static bool isKnownZone(std::string_view zone);
};

} // namespace faultline::core
