// SPDX-License-Identifier: Apache-2.0
// Kernel: dmesg raw "[ 1234.567890] msg", "<4>[...]", "dmesg -T" "[Mon Nov  2 10:15:01 2026] msg",
// "--time-format=iso" "2026-11-02T10:15:01,123456+00:00 msg", each optionally after a --decode "kern  :err   : "
// prefix, "dmesg -t" lines with no stamp at all (kept in file order, without a time), and talosctl dmesg's
// "10.1.1.2: kern: warning: [2026-11-02T10:15:01.123456789Z]: msg" (the node, then facility, level and RFC 3339 time;
// without the node when talosctl read a single node).
#include "importers/kernel/kernel_parsers.h"
#include "importers/support/log_time.h"
#include "importers/support/text_scan.h"

#include <algorithm>
#include <charconv>

namespace faultline::importers {

using core::CivilTime;
using core::kNsPerSec;
using core::Observation;
using core::TimeQuality;

std::size_t dmesgDecodePrefix(std::string_view line)
{
    static constexpr std::string_view kFacilities[] = { "kern", "user", "mail", "daemon", "auth", "syslog", "lpr",
        "news", "uucp", "cron", "authpriv", "ftp", "res0", "res1", "res2", "res3", "local0", "local1", "local2",
        "local3", "local4", "local5", "local6", "local7" };
    // talosctl spells "warning" in full where dmesg --decode writes "warn".
    static constexpr std::string_view kLevels[] = { "emerg", "alert", "crit", "err", "warn", "warning", "notice",
        "info", "debug" };
    // One name padded on either side (dmesg pads after it, talosctl before it) and its colon; returns the position
    // after the colon, or npos.
    auto field = [&line](std::size_t at, auto const& names) -> std::size_t {
        while (at < line.size() && line[at] == ' ')
            ++at;
        std::size_t end = at;
        while (end < line.size() && line[end] >= 'a' && line[end] <= 'z')
            ++end;
        while (end < line.size() && isDigit(line[end]))
            ++end;
        const std::string_view name = line.substr(at, end - at);
        if (std::find(std::begin(names), std::end(names), name) == std::end(names))
            return std::string_view::npos;
        while (end < line.size() && line[end] == ' ')
            ++end;
        return end < line.size() && line[end] == ':' ? end + 1 : std::string_view::npos;
    };
    const std::size_t afterFacility = field(0, kFacilities);
    if (afterFacility == std::string_view::npos)
        return 0;
    const std::size_t afterLevel = field(afterFacility, kLevels);
    if (afterLevel == std::string_view::npos || afterLevel >= line.size() || line[afterLevel] != ' ')
        return 0;
    return afterLevel + 1;
}

std::size_t talosDmesgPrefix(std::string_view line, std::string_view& host)
{
    // The node as talosctl was given it (a name or an IPv4 address), ": ", then the facility:level prefix.
    const auto colon = line.find(": ");
    if (colon == std::string_view::npos || colon == 0 || colon > 253)
        return 0;
    const std::string_view name = line.substr(0, colon);
    for (const char c : name)
        if (!(isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '.' || c == '_'))
            return 0;
    const std::string_view after = line.substr(colon + 2);
    const std::size_t decode = dmesgDecodePrefix(after);
    if (decode == 0 || after.size() <= decode || after[decode] != '[')
        return 0;
    host = name;
    return colon + 2;
}

void parseDmesg(FileParse& fp, const BundleContext&)
{
    bool warnedBoot = false;
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (trim(line).empty())
            return true;
        std::string_view rest = line;
        std::string_view host;
        rest.remove_prefix(talosDmesgPrefix(rest, host));
        rest.remove_prefix(dmesgDecodePrefix(rest));
        if (rest.size() > 3 && rest[0] == '<' && isDigit(rest[1])) {
            const auto gt = rest.find('>');
            if (gt != std::string_view::npos && gt < 5)
                rest.remove_prefix(gt + 1);
        }
        CivilTime iso;
        if (std::size_t used = core::parseIsoTime(rest, iso); used > 0) {
            Observation& o = fp.add(trim(rest.substr(used)), no, off, line.size());
            fp.resolve(iso, o);
            return true;
        }
        if (rest.empty() || rest[0] != '[') {
            // A continuation line of a multi-line message (indented, no stamp) belongs to the record above it.
            Observation* prev = fp.observations.empty() ? nullptr : &fp.observations.back();
            const char* end = line.data() + line.size();
            if (prev && (line.front() == ' ' || line.front() == '\t') && prev->text.data() >= fp.data.data()
                && prev->text.data() < end) {
                prev->text = std::string_view(prev->text.data(), static_cast<std::size_t>(end - prev->text.data()));
                prev->where.length =
                    static_cast<std::uint32_t>(off + fp.baseOffset + line.size() - prev->where.byteOffset);
                return true;
            }
            fp.add(trim(rest), no, off, line.size());
            return true;
        }
        const auto close = rest.find(']');
        if (close == std::string_view::npos) {
            fp.add(rest, no, off, line.size());
            fp.warn(no, off, "dmesg-bad-stamp", "unterminated [timestamp]");
            return true;
        }
        const std::string_view stamp = trim(rest.substr(1, close - 1));
        std::string_view msg = rest.substr(close + 1);
        CivilTime ct;
        // talosctl dmesg: "[2026-04-22T21:25:20.458998481Z]:", the record's own time; with a node before the
        // facility when talosctl was given several nodes, without one when it was given a single node.
        const bool rfc3339 = core::parseIsoTime(stamp, ct) == stamp.size() && ct.hasOffset;
        if ((!host.empty() || rfc3339) && !msg.empty() && msg.front() == ':')
            msg.remove_prefix(1);
        if (!msg.empty() && msg.front() == ' ')
            msg.remove_prefix(1);
        if (rfc3339 && host.empty()) {
            Observation& o = fp.add(msg, no, off, line.size());
            fp.resolve(ct, o);
            return true;
        }
        if (!host.empty()) {
            Observation& o = fp.add(msg, no, off, line.size());
            o.node = fp.internHost(host);
            if (rfc3339)
                fp.resolve(ct, o);
            else
                fp.warn(no, off, "dmesg-bad-stamp", "unrecognised [timestamp] '" + std::string(stamp) + "'");
            return true;
        }
        if (!stamp.empty() && stamp[0] == '+') {
            // --time-format=delta / reltime continuation: seconds since the previous message.
            double delta = 0;
            Observation& o = fp.add(msg, no, off, line.size());
            const Observation* prev =
                fp.observations.size() > 1 ? &fp.observations[fp.observations.size() - 2] : nullptr;
            if (std::from_chars(stamp.data() + 1, stamp.data() + stamp.size(), delta).ec == std::errc() && prev
                && prev->timeNs != INT64_MIN) {
                o.timeNs = prev->timeNs + static_cast<std::int64_t>(delta * 1e9);
                o.precisionNs = std::max<std::int64_t>(prev->precisionNs, 1000);
                o.quality = prev->quality;
            } else if (!prev || prev->timeNs == INT64_MIN) {
                fp.warn(no, off, "dmesg-relative", "a relative [+seconds] stamp with no timed line before it");
            }
            return true;
        }
        if (stamp.size() > 4 && !isDigit(stamp[0])) {
            // dmesg -T: "Mon Nov  2 10:15:01 2026"
            std::string s(stamp.substr(4));
            // reorder "Nov  2 10:15:01 2026" → month day time, year last
            const auto lastSpace = s.rfind(' ');
            int year = 0;
            if (lastSpace != std::string::npos)
                std::from_chars(s.data() + lastSpace + 1, s.data() + s.size(), year);
            Observation& o = fp.add(msg, no, off, line.size());
            if (parseMonthDayTime(s, false, year, ct) > 0)
                fp.resolve(ct, o);
            else
                fp.warn(no, off, "dmesg-bad-stamp", "unrecognised [timestamp] '" + std::string(stamp) + "'");
            return true;
        }
        // Seconds since boot.
        const auto dot = stamp.find('.');
        std::int64_t secs = 0;
        std::int64_t frac = 0;
        int digits = 0;
        const char* intEnd = stamp.data() + (dot == std::string_view::npos ? stamp.size() : dot);
        const auto parsedInt = std::from_chars(stamp.data(), intEnd, secs);
        bool ok = parsedInt.ec == std::errc() && parsedInt.ptr == intEnd;
        if (ok && dot != std::string_view::npos) {
            for (std::size_t i = dot + 1; i < stamp.size() && digits < 9; ++i, ++digits) {
                if (!isDigit(stamp[i])) {
                    ok = false;
                    break;
                }
                frac = frac * 10 + (stamp[i] - '0');
            }
        }
        Observation& o = fp.add(msg, no, off, line.size());
        if (!ok) {
            fp.warn(no, off, "dmesg-bad-stamp", "unrecognised [timestamp] '" + std::string(stamp) + "'");
            return true;
        }
        std::int64_t fracNs = frac;
        for (int i = digits; i < 9; ++i)
            fracNs *= 10;
        if (fp.bootNs == INT64_MIN) {
            if (!warnedBoot)
                fp.warn(no, off, "dmesg-no-boot-time",
                    "seconds since boot cannot be placed in time: the manifest gives no boot_time for this host");
            warnedBoot = true;
            return true;
        }
        o.timeNs = fp.bootNs + secs * kNsPerSec + fracNs;
        o.precisionNs = 1000;
        o.quality = TimeQuality::Exact;
        return true;
    });
    if (fp.bootNs != INT64_MIN && fp.source.formatReason.find("boot time from") == std::string::npos
        && fp.baseOffset == 0)
        fp.source.formatReason += "; monotonic stamps placed with the manifest's boot_time";
}

} // namespace faultline::importers
