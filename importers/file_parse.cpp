// SPDX-License-Identifier: Apache-2.0
// Line-oriented formats: Slurm (sacct -P, daemon logs), kernel (dmesg, syslog/journal text), Fabric Manager,
// application job logs and plain text.
#include "importers/file_parse.h"

#include "core/rules/template.h"
#include "importers/support/hostlist.h"

#include <algorithm>
#include <charconv>
#include <cstring>

namespace faultline::importers {

using core::CivilTime;
using core::kNsPerSec;
using core::Observation;
using core::SourceKind;
using core::TimeQuality;

namespace {

constexpr std::size_t kMaxRecordBytes = 1 << 20; // longer records are cut for analysis (the bytes stay in the file)

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

/// "Nov 02 2026 10:15:01" (Fabric Manager) or "Nov  2 10:15:01" (syslog, no year). Returns bytes consumed.
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

} // namespace

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

void FileParse::resolve(const CivilTime& t, Observation& o)
{
    resolve(t, o, zone);
}

void FileParse::resolve(const CivilTime& t, Observation& o, const std::string& zoneName)
{
    if (t.hasOffset) {
        o.timeNs = core::civilAsUtcNs(t) - static_cast<std::int64_t>(t.offsetSeconds) * kNsPerSec;
        o.quality = TimeQuality::Exact;
    } else {
        const auto r = core::ZoneResolver::toUtc(t, zoneName);
        o.timeNs = r.utcNs;
        o.quality = TimeQuality::AssumedZone;
        if (r.status == core::ZoneResolver::Status::Nonexistent || r.status == core::ZoneResolver::Status::Ambiguous)
            warn(o.where.line, o.where.byteOffset, "dst-ambiguous",
                "local time falls in a daylight-saving "
                    + std::string(r.status == core::ZoneResolver::Status::Nonexistent ? "gap" : "overlap") + " of "
                    + zoneName + "; the earlier instant is used");
    }
    o.precisionNs = t.precisionNs();
}

void FileParse::warn(std::uint64_t line, std::uint64_t offset, std::string code, std::string message)
{
    // Cap the list: a file of garbage must not produce millions of diagnostics.
    ++source.skipped;
    if (source.warnings.size() >= 200) {
        if (source.warnings.size() == 200) {
            source.warnings.push_back(core::makeDiagnostic(core::Severity::Warning, "too-many-warnings",
                "further warnings for this file are counted but not listed", source.path));
        }
        return;
    }
    core::Diagnostic d =
        core::makeDiagnostic(core::Severity::Warning, std::move(code), std::move(message), source.path);
    d.where.line = line;
    d.where.byteOffset = offset + baseOffset;
    source.warnings.push_back(std::move(d));
}

void FileParse::note(
    std::uint64_t line, std::uint64_t offset, core::Severity severity, std::string code, std::string message)
{
    if (source.warnings.size() >= 200)
        return;
    core::Diagnostic d = core::makeDiagnostic(severity, std::move(code), std::move(message), source.path);
    d.where.line = line;
    d.where.byteOffset = offset + baseOffset;
    source.warnings.push_back(std::move(d));
}

core::NodeId FileParse::internHost(std::string_view name)
{
    if (m_lastHostId == core::kNoNode || name != m_lastHost) {
        m_lastHost.assign(name);
        m_lastHostId = nodes.intern(name);
    }
    return m_lastHostId;
}

Observation& FileParse::add(std::string_view text, std::uint64_t line, std::uint64_t offset, std::size_t length)
{
    if (text.size() > kMaxRecordBytes) {
        warn(line, offset, "long-record",
            "record of " + std::to_string(text.size()) + " bytes: only the first 1 MiB is analysed");
        text = text.substr(0, kMaxRecordBytes);
    }
    Observation o;
    o.text = text;
    o.kind = source.kind;
    o.where.line = line;
    o.where.byteOffset = offset + baseOffset;
    o.where.length = static_cast<std::uint32_t>(std::min<std::size_t>(length, UINT32_MAX));
    if (!hostName.empty()) {
        if (m_fileHostId == core::kNoNode)
            m_fileHostId = nodes.intern(hostName);
        o.node = m_fileHostId;
    }
    observations.push_back(o);
    return observations.back();
}

// ---------------------------------------------------------------------------------------------------------------
// sacct --parsable2 / -P (§1.1): header of field names, '|' separated rows, no quoting.

void parseSacctParsable(FileParse& fp, const BundleContext& ctx)
{
    std::vector<std::string> header;
    std::string bestJob;
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (trim(line).empty())
            return true;
        std::vector<std::string_view> cols;
        std::size_t start = 0;
        while (true) {
            const auto bar = line.find('|', start);
            cols.push_back(line.substr(start, bar == std::string_view::npos ? std::string_view::npos : bar - start));
            if (bar == std::string_view::npos)
                break;
            start = bar + 1;
        }
        if (header.empty()) {
            if (std::find(cols.begin(), cols.end(), "JobID") == cols.end()) {
                fp.warn(no, off, "sacct-no-header", "first line is not a sacct header (no JobID column); file skipped");
                return false;
            }
            for (auto c : cols)
                header.emplace_back(c);
            if (!header.empty() && header.back().empty()) // sacct -p: trailing '|'
                header.pop_back();
            return true;
        }
        if (!cols.empty() && cols.back().empty() && cols.size() == header.size() + 1)
            cols.pop_back();
        if (cols.size() != header.size()) {
            fp.warn(no, off, "sacct-columns",
                "row has " + std::to_string(cols.size()) + " fields, header has " + std::to_string(header.size())
                    + " (a '|' inside a value?); row kept as text");
        }
        // The record reads "sacct JobID=... <the other fields in header order>" whatever the --format order, so
        // rules can anchor on the job id.
        std::map<std::string, std::string> row;
        for (std::size_t i = 0; i < cols.size() && i < header.size(); ++i)
            row[header[i]] = std::string(cols[i]);
        std::string text = "sacct JobID=" + row["JobID"];
        for (std::size_t i = 0; i < cols.size() && i < header.size(); ++i) {
            if (header[i] == "JobID")
                continue;
            text += ' ';
            text += header[i];
            text += '=';
            text += cols[i];
        }
        Observation& o = fp.add(fp.arena->store(text), no, off, line.size());
        const std::string& when = !row["End"].empty() && row["End"] != "Unknown" ? row["End"] : row["Start"];
        CivilTime t;
        if (!when.empty() && core::parseIsoTime(when, t) == when.size())
            fp.resolve(t, o);
        // The job (allocation) row: JobID without a step suffix.
        const std::string& id = row["JobID"];
        if (!id.empty() && id.find('.') == std::string::npos
            && (ctx.jobId.empty() || id == ctx.jobId || bestJob.empty())) {
            bestJob = id;
            fp.facts.scheduler = "slurm";
            fp.facts.jobId = id;
            fp.facts.jobName = row["JobName"];
            fp.facts.state = row["State"];
            fp.facts.nodes = row["NodeList"];
            fp.facts.origin = fp.source.path + ":" + std::to_string(no);
            CivilTime s;
            Observation tmp;
            if (core::parseIsoTime(row["Start"], s) == row["Start"].size() && !row["Start"].empty()) {
                fp.resolve(s, tmp);
                fp.facts.startNs = tmp.timeNs;
            }
            CivilTime e;
            if (core::parseIsoTime(row["End"], e) == row["End"].size() && !row["End"].empty()) {
                fp.resolve(e, tmp);
                fp.facts.endNs = tmp.timeNs + tmp.precisionNs;
            }
        }
        return true;
    });
}

// ---------------------------------------------------------------------------------------------------------------
// slurmctld.log / slurmd.log (§1.4): "[TS] [prefix] message".

void parseSlurmDaemonLog(FileParse& fp, const BundleContext&)
{
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (trim(line).empty())
            return true;
        CivilTime t;
        std::size_t used = 0;
        if (line.size() > 2 && line[0] == '[')
            used = core::parseIsoTime(line.substr(1), t);
        if (used == 0 || 1 + used >= line.size() || line[1 + used] != ']') {
            Observation& o = fp.add(line, no, off, line.size());
            (void)o;
            fp.warn(no, off, "slurm-no-time", "line does not start with a [timestamp]; time is inferred");
            return true;
        }
        std::string_view msg = line.substr(2 + used);
        if (!msg.empty() && msg.front() == ' ')
            msg.remove_prefix(1);
        Observation& o = fp.add(msg, no, off, line.size());
        fp.resolve(t, o);
        return true;
    });
}

// ---------------------------------------------------------------------------------------------------------------
// Kernel: dmesg raw "[ 1234.567890] msg", "<4>[...]", "dmesg -T" "[Mon Nov  2 10:15:01 2026] msg",
// "--time-format=iso" "2026-11-02T10:15:01,123456+00:00 msg", each optionally after a --decode "kern  :err   : "
// prefix, and "dmesg -t" lines with no stamp at all (kept in file order, without a time).

std::size_t dmesgDecodePrefix(std::string_view line)
{
    static constexpr std::string_view kFacilities[] = { "kern", "user", "mail", "daemon", "auth", "syslog", "lpr",
        "news", "uucp", "cron", "authpriv", "ftp", "res0", "res1", "res2", "res3", "local0", "local1", "local2",
        "local3", "local4", "local5", "local6", "local7" };
    static constexpr std::string_view kLevels[] = { "emerg", "alert", "crit", "err", "warn", "notice", "info",
        "debug" };
    // One padded name and its colon; returns the position after the colon, or npos.
    auto field = [&line](std::size_t at, auto const& names) -> std::size_t {
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

void parseDmesg(FileParse& fp, const BundleContext&)
{
    bool warnedBoot = false;
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (trim(line).empty())
            return true;
        std::string_view rest = line;
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
        if (!msg.empty() && msg.front() == ' ')
            msg.remove_prefix(1);
        CivilTime ct;
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

// syslog / journal text: "2026-11-02T10:15:01.123456+00:00 host ident[pid]: msg" or "Nov  2 10:15:01 host ident: msg"
SourceKind kindForIdentifier(std::string_view ident)
{
    if (ident == "nv-fabricmanager")
        return SourceKind::FabricManager;
    if (ident == "slurmd" || ident == "slurmctld" || ident == "slurmstepd")
        return SourceKind::Scheduler;
    return SourceKind::Kernel; // kernel, and the host daemons a kernel log export carries along
}

void parseSyslog(FileParse& fp, const BundleContext& ctx)
{
    // A file without a manifest zone (no hint for it or its host) takes, line by line, the manifest zone of the
    // host the line names; when every zone-less line found one, the file's zone is no longer an assumption.
    const bool fileZoned = fp.zoneFromManifest;
    bool everyLineZoned = true;
    bool anyZoneless = false;
    std::string lineZoneSeen;
    auto hostZone = [&ctx](std::string_view host) -> const std::string* {
        if (!ctx.manifest || host.empty())
            return nullptr;
        for (std::string_view name : { host, host.substr(0, host.find('.')) })
            if (auto it = ctx.manifest->hosts.find(name); it != ctx.manifest->hosts.end() && !it->second.zone.empty())
                return &it->second.zone;
        return nullptr;
    };
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (trim(line).empty())
            return true;
        // RFC 5424: "<PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID STRUCTURED-DATA MSG"
        std::string_view body = line;
        bool rfc5424 = false;
        if (body.size() > 4 && body[0] == '<') {
            const auto gt = body.find('>');
            if (gt != std::string_view::npos && gt <= 4 && body.substr(gt + 1, 2) == "1 ") {
                body = body.substr(gt + 3);
                rfc5424 = true;
            }
        }
        CivilTime t;
        std::size_t used = core::parseIsoTime(body, t);
        if (used == 0 && !rfc5424)
            used = parseMonthDayTime(body, false, ctx.referenceYear, t);
        if (used == 0) {
            fp.add(line, no, off, line.size());
            return true;
        }
        std::string_view rest = trim(body.substr(used));
        auto token = [&rest]() {
            const auto sp = rest.find(' ');
            const std::string_view tok = rest.substr(0, sp);
            rest = sp == std::string_view::npos ? std::string_view() : rest.substr(sp + 1);
            return tok;
        };
        const std::string_view host = token();
        std::string_view ident;
        std::string_view msg;
        if (rfc5424) {
            ident = token();
            token(); // PROCID
            token(); // MSGID
            // STRUCTURED-DATA: "-" or one or more [id k="v" ...] elements (']' may be escaped as "\]").
            if (!rest.empty() && rest.front() == '-') {
                rest.remove_prefix(std::min<std::size_t>(2, rest.size()));
            } else {
                while (!rest.empty() && rest.front() == '[') {
                    std::size_t k = 1;
                    while (k < rest.size() && !(rest[k] == ']' && rest[k - 1] != '\\'))
                        ++k;
                    rest = k + 1 < rest.size() ? rest.substr(k + 1) : std::string_view();
                }
                if (!rest.empty() && rest.front() == ' ')
                    rest.remove_prefix(1);
            }
            if (rest.substr(0, 3) == "\xEF\xBB\xBF")
                rest.remove_prefix(3); // UTF-8 BOM before MSG
            msg = rest;
            if (ident == "-")
                ident = {};
        } else {
            const auto colon = rest.find(": ");
            ident = colon == std::string_view::npos ? std::string_view() : rest.substr(0, colon);
            msg = colon == std::string_view::npos ? rest : rest.substr(colon + 2);
            if (auto br = ident.find('['); br != std::string_view::npos)
                ident = ident.substr(0, br);
        }
        Observation& o = fp.add(msg, no, off, line.size());
        if (!host.empty() && host != "-")
            o.node = fp.internHost(host);
        o.kind = kindForIdentifier(ident);
        const std::string* zoneName = fileZoned || t.hasOffset ? nullptr : hostZone(host);
        if (!fileZoned && !t.hasOffset) {
            anyZoneless = true;
            everyLineZoned = everyLineZoned && zoneName;
            if (zoneName && lineZoneSeen != *zoneName)
                lineZoneSeen = lineZoneSeen.empty() ? *zoneName : std::string(kZonePerHost);
        }
        fp.resolve(t, o, zoneName ? *zoneName : fp.zone);
        return true;
    });
    // A part with no zone-less line assumed nothing either.
    if (!fileZoned && (!anyZoneless || everyLineZoned)) {
        if (anyZoneless)
            fp.zone = lineZoneSeen;
        fp.zoneFromManifest = true;
    }
}

// Fabric Manager (§6.4): "[Nov 02 2026 10:15:01] [ERROR] [tid 2231] message", local time, 1 s.
void parseFabricManager(FileParse& fp, const BundleContext&)
{
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (trim(line).empty())
            return true;
        CivilTime t;
        std::size_t used = 0;
        if (line.size() > 2 && line[0] == '[')
            used = parseMonthDayTime(line.substr(1), true, 0, t);
        if (used == 0 || line[1 + used] != ']') {
            fp.add(line, no, off, line.size());
            return true;
        }
        std::string_view rest = trim(line.substr(2 + used));
        // Keep "[LEVEL]" in the text, drop "[tid N]".
        std::string text;
        if (!rest.empty() && rest[0] == '[') {
            const auto close = rest.find(']');
            text = std::string(rest.substr(0, close + 1));
            rest = trim(rest.substr(close + 1));
            if (rest.substr(0, 5) == "[tid ") {
                const auto c2 = rest.find(']');
                rest = trim(rest.substr(c2 + 1));
            }
            text += ' ';
        }
        text += rest;
        Observation& o = fp.add(fp.arena->store(text), no, off, line.size());
        fp.resolve(t, o);
        return true;
    });
}

void parseGenericText(FileParse& fp, const BundleContext& ctx)
{
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (trim(line).empty())
            return true;
        CivilTime t;
        std::size_t used = core::parseIsoTime(line, t);
        if (used == 0)
            used = parseMonthDayTime(line, false, ctx.referenceYear, t);
        Observation& o = fp.add(used ? trim(line.substr(used)) : line, no, off, line.size());
        if (used)
            fp.resolve(t, o);
        return true;
    });
}

// ---------------------------------------------------------------------------------------------------------------
// Application logs (§7): srun --label "12: ", torchrun "[rank3]:" / "[default3]:", NCCL "host:pid:tid [dev]",
// c10 "[E1102 10:15:06.211734912 file:line]", glog "E1102 10:15:08.412000 pid file:line]", Python logging.

void AppLogLineReader::read(std::string_view line, std::uint64_t lineNo, std::uint64_t offset, std::size_t length,
    std::int64_t fallbackNs, const StreamIdentity& stream)
{
    std::string_view s = line;
    int task = -1;
    // srun --label: optional padding, task id, ": "
    {
        std::size_t p = 0;
        while (p < s.size() && s[p] == ' ')
            ++p;
        std::size_t d = p;
        while (d < s.size() && isDigit(s[d]))
            ++d;
        if (d > p && d - p <= 6 && d < s.size() && s[d] == ':' && (d + 1 == s.size() || s[d + 1] == ' ')) {
            std::from_chars(s.data() + p, s.data() + d, task);
            s = s.substr(std::min(s.size(), d + 2));
        }
    }
    // Ray: "(RayTrainWorker pid=4242, ip=10.10.0.2) message": the worker's IP names its node.
    std::string_view rayIp;
    if (s.size() > 8 && s[0] == '(') {
        const auto close = s.find(") ");
        const auto pid = s.find(" pid=");
        if (close != std::string_view::npos && pid != std::string_view::npos && pid < close && close < 160) {
            if (const auto ip = s.find("ip=", pid); ip != std::string_view::npos && ip < close)
                rayIp = s.substr(ip + 3, close - ip - 3);
            s = s.substr(close + 2);
        }
    }
    int rank = -1;
    // Stacked launcher prefixes: [rankN]:, [defaultN]: (local rank), Open MPI [job,rank]<stdout>:
    for (bool again = true; again;) {
        again = false;
        if (s.substr(0, 5) == "[rank" || s.substr(0, 8) == "[default") {
            const auto close = s.find("]:");
            if (close != std::string_view::npos && close < 20) {
                const std::size_t numStart = s[1] == 'r' ? 5 : 8;
                int v = -1;
                if (std::from_chars(s.data() + numStart, s.data() + close, v).ptr == s.data() + close && s[1] == 'r')
                    rank = v;
                s = s.substr(close + 2);
                // PyTorch ≥ 2.3 writes "[rank3]: message"; older writers glue prefixes ("[rank12]:[E1102 ...").
                if (!s.empty() && s.front() == ' ')
                    s.remove_prefix(1);
                again = true;
            }
        } else if (s.size() > 4 && s[0] == '[' && isDigit(s[1])) {
            const auto comma = s.find(',');
            const auto close = s.find(']');
            if (comma != std::string_view::npos && close != std::string_view::npos && comma < close && close < 24
                && s.substr(close + 1, 1) == "<") {
                const auto colon = s.find(">:", close);
                int v = -1;
                if (colon != std::string_view::npos
                    && std::from_chars(s.data() + comma + 1, s.data() + close, v).ptr == s.data() + close) {
                    rank = v;
                    s = s.substr(colon + 2);
                    again = true;
                }
            }
        }
    }
    // tqdm and friends redraw a line with '\r': the last state counts (the launcher prefix came before it).
    if (s.find('\r') != std::string_view::npos) // memchr first: almost no line has one
        s = s.substr(s.rfind('\r') + 1);
    // Python tracebacks are grouped per stream (srun task, rank) into one record, from "Traceback (most recent
    // call last):" through its indented frames to the exception line that ends it.
    const auto streamKey = std::make_pair(task, rank);
    if (auto open = m_tracebacks.find(streamKey); open != m_tracebacks.end()) {
        PendingTraceback& tb = open->second;
        tb.text += '\n';
        tb.text.append(s);
        tb.end = offset + length;
        const bool frame = s.empty() || s.front() == ' ' || s.front() == '\t';
        if (!frame || ++tb.lines >= kMaxTracebackLines) {
            PendingTraceback done = std::move(tb);
            m_tracebacks.erase(open);
            addRecord(m_fp.arena->store(done.text), done.task, done.rank, done.rayIp, done.line, done.offset,
                static_cast<std::size_t>(done.end - done.offset), done.fallbackNs,
                { done.streamNode, done.streamAgentHost, done.streamRank });
        }
        return;
    }
    if (s.rfind("Traceback (most recent call last):", 0) == 0) {
        PendingTraceback tb;
        tb.text.assign(s);
        tb.task = task;
        tb.rank = rank;
        tb.rayIp = std::string(rayIp);
        tb.line = lineNo;
        tb.offset = offset;
        tb.end = offset + length;
        tb.fallbackNs = fallbackNs;
        tb.streamNode = std::string(stream.node);
        tb.streamAgentHost = stream.agentHost;
        tb.streamRank = stream.rank;
        m_tracebacks.emplace(streamKey, std::move(tb));
        return;
    }
    noteSummaryIdentity(s, streamKey);
    addRecord(s, task, rank, rayIp, lineNo, offset, length, fallbackNs, stream);
}

void AppLogLineReader::noteSummaryIdentity(std::string_view text, std::pair<int, int> streamKey)
{
    // ChildFailedError blocks (§7.8): keys padded to 10 characters, then ": ". The host is socket.getfqdn() of the
    // agent, which may be a pod name or nonsense: it only counts when it names an allocated or manifest node, or a
    // pod whose node pods.json gives.
    const std::string_view t = trim(text);
    auto value = [&](std::string_view key) -> std::string_view {
        if (t.substr(0, key.size()) != key)
            return {};
        std::size_t p = key.size();
        while (p < t.size() && t[p] == ' ')
            ++p;
        return t.substr(p, 2) == ": " ? trim(t.substr(p + 2)) : std::string_view();
    };
    if (const std::string_view host = value("host"); !host.empty()) {
        const std::string name = core::NodeTable::normalise(host);
        std::string node;
        if (std::find(m_ctx.scopeNodes.begin(), m_ctx.scopeNodes.end(), name) != m_ctx.scopeNodes.end()
            || (m_ctx.manifest && m_ctx.manifest->hosts.count(name)))
            node = name;
        else if (auto pod = m_ctx.podToNode.find(std::string(host)); pod != m_ctx.podToNode.end())
            node = pod->second;
        m_summaryHost[streamKey] = node;
        return;
    }
    const std::string_view rank = value("rank");
    const auto host = m_summaryHost.find(streamKey);
    if (rank.empty() || host == m_summaryHost.end())
        return;
    int r = -1;
    if (std::from_chars(rank.data(), rank.data() + rank.size(), r).ec == std::errc() && r >= 0 && !host->second.empty())
        m_fp.rankNodes.emplace_back(r, m_fp.nodes.intern(host->second));
    m_summaryHost.erase(host);
}

void AppLogLineReader::flush()
{
    // A traceback cut off by the end of the input still counts.
    for (auto& [key, tb] : m_tracebacks)
        addRecord(m_fp.arena->store(tb.text), tb.task, tb.rank, tb.rayIp, tb.line, tb.offset,
            static_cast<std::size_t>(tb.end - tb.offset), tb.fallbackNs,
            { tb.streamNode, tb.streamAgentHost, tb.streamRank });
    m_tracebacks.clear();
}

void AppLogLineReader::addRecord(std::string_view s, int task, int rank, std::string_view rayIp, std::uint64_t lineNo,
    std::uint64_t offset, std::size_t length, std::int64_t fallbackNs, const StreamIdentity& stream)
{
    core::Observation& o = m_fp.add(s, lineNo, offset, length);
    const std::size_t index = m_fp.observations.size() - 1;
    if (!stream.node.empty() && o.node == core::kNoNode && !stream.agentHost)
        o.node = m_fp.internHost(stream.node);
    o.rank = rank;
    if (!rayIp.empty())
        if (auto it = m_ctx.ipToHost.find(std::string(rayIp)); it != m_ctx.ipToHost.end())
            o.node = m_fp.internHost(it->second);
    if (task >= 0 && static_cast<std::size_t>(task) < m_ctx.scopeNodes.size()
        && (m_ctx.ranksPerNode == 0 || m_ctx.scopeNodes.size() > 0))
        o.node = m_fp.internHost(m_ctx.scopeNodes[static_cast<std::size_t>(task)]);

    std::string_view r = s;
    CivilTime t;
    // Year-less stamps (glog, c10) take the year of the record's collector stamp when there is one (Loki, kubectl,
    // CRI), else the workload's.
    const int year = fallbackNs != INT64_MIN ? core::yearOfUtcNs(fallbackNs) : m_ctx.referenceYear;
    bool timed = false;
    // The application's own stamp has no zone. When a collector stamped the record exactly (kubectl, CRI, docker,
    // Loki), that stamp is the record's time and the zone of the container is never guessed; the application's
    // stamp stays in the text.
    auto take = [&](const CivilTime& ct) {
        if (!ct.hasOffset && fallbackNs != INT64_MIN)
            return false;
        m_fp.resolve(ct, o);
        return true;
    };
    // NCCL: "[2026-11-02 10:15:06] node-02:48815:48815 [4] ..." (NCCL_DEBUG_TIMESTAMP_FORMAT default)
    if (r.size() > 21 && r[0] == '[' && core::parseIsoTime(r.substr(1), t) == 19 && r[20] == ']') {
        timed = take(t);
        r = trim(r.substr(21));
    }
    // "host:pid:tid [dev] ..." (NCCL) — host is the record's own node.
    {
        const auto c1 = r.find(':');
        if (c1 != std::string_view::npos && c1 > 0 && c1 < 64 && r.find(' ') > c1) {
            std::size_t p = c1 + 1;
            std::size_t pidEnd = p;
            while (pidEnd < r.size() && isDigit(r[pidEnd]))
                ++pidEnd;
            if (pidEnd > p && pidEnd < r.size() && r[pidEnd] == ':') {
                std::size_t tidEnd = pidEnd + 1;
                while (tidEnd < r.size() && isDigit(r[tidEnd]))
                    ++tidEnd;
                if (tidEnd > pidEnd + 1 && tidEnd + 2 < r.size() && r[tidEnd] == ' ' && r[tidEnd + 1] == '[') {
                    const std::string_view host = r.substr(0, c1);
                    o.node = m_fp.internHost(host);
                    m_key = m_fp.nodes.name(o.node);
                    m_key += ':';
                    m_key.append(r.substr(p, pidEnd - p));
                    const auto devEnd = r.find(']', tidEnd);
                    if (devEnd != std::string_view::npos)
                        std::from_chars(r.data() + tidEnd + 2, r.data() + devEnd, o.gpu);
                    // NCCL init lines map pid → global rank: "... rank 13 nranks 32 cudaDev 5 ..."
                    if (const auto rk = r.find(" rank ");
                        rk != std::string_view::npos && r.find(" nranks ") != std::string_view::npos) {
                        int v = -1;
                        const char* b = r.data() + rk + 6;
                        if (std::from_chars(b, r.data() + r.size(), v).ec == std::errc()) {
                            m_fp.pidRank.emplace(m_key, v);
                            // "... cudaDev 5 nvmlDev 5 busId c3000": the rank's GPU.
                            core::RankIdentity id;
                            id.rank = v;
                            id.node = o.node;
                            id.cudaDevice = o.gpu;
                            std::from_chars(r.data() + c1 + 1, r.data() + pidEnd, id.pid);
                            if (const auto bus = r.find(" busId "); bus != std::string_view::npos) {
                                const std::string_view rest = r.substr(bus + 7);
                                id.gpu = core::normalisePci(rest.substr(0, rest.find(' ')));
                            }
                            id.where = o.where;
                            m_fp.ranks.push_back(std::move(id));
                        }
                    }
                    if (o.rank < 0) {
                        if (auto it = m_fp.pidRank.find(m_key); it != m_fp.pidRank.end())
                            o.rank = it->second;
                        else
                            m_fp.pendingPidRank.emplace_back(m_fp.observations.size() - 1, m_key);
                    }
                }
            }
        }
    }
    if (!timed && s.size() > 6 && s[0] == '[' && (s[1] == 'E' || s[1] == 'W' || s[1] == 'I' || s[1] == 'F')) {
        // c10: "[E1102 10:15:06.211734912 ProcessGroupNCCL.cpp:1910]"
        if (parseGlogTime(s.substr(2), year, t) > 0)
            timed = take(t);
    }
    if (!timed && s.size() > 6 && (s[0] == 'E' || s[0] == 'W' || s[0] == 'I' || s[0] == 'F') && isDigit(s[1])) {
        // glog (torchrun elastic agent): "E1102 10:15:08.412000 48790 file:line]"
        if (parseGlogTime(s.substr(1), year, t) > 0)
            timed = take(t);
    }
    if (!timed) {
        // Python logging "2026-11-02 10:15:06,123 ...", torchrun summary "  time      : 2026-11-02_10:15:08"
        std::string_view ts = trim(s);
        if (ts.substr(0, 4) == "time") {
            const auto colon = ts.find(": ");
            if (colon != std::string_view::npos)
                ts = ts.substr(colon + 2);
        }
        if (core::parseIsoTime(ts, t) > 0)
            timed = take(t);
    }
    if (!timed && fallbackNs != INT64_MIN) {
        o.timeNs = fallbackNs;
        o.precisionNs = 0;
        o.quality = TimeQuality::Exact;
    }
    // The stream's labels come last: what the record itself says (its host, srun task, [rankN]:, NCCL pid) wins.
    if (o.rank < 0 && stream.rank >= 0)
        o.rank = stream.rank;
    if (o.node == core::kNoNode && stream.agentHost && !stream.node.empty())
        m_fp.agentHostNodes.emplace_back(index, m_fp.internHost(stream.node));
}

void parseJobLog(FileParse& fp, const BundleContext& ctx)
{
    AppLogLineReader reader(fp, ctx);
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (trim(line).empty())
            return true;
        reader.read(line, no, off, line.size());
        return true;
    });
    reader.flush();
}

} // namespace faultline::importers
