// SPDX-License-Identifier: Apache-2.0
// syslog / journal text: "2026-11-02T10:15:01.123456+00:00 host ident[pid]: msg" or "Nov  2 10:15:01 host ident: msg",
// and RFC 5424 "<PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID STRUCTURED-DATA MSG".
#include "importers/kernel/kernel_parsers.h"
#include "importers/support/log_time.h"
#include "importers/support/text_scan.h"

#include <algorithm>

namespace faultline::importers {

using core::CivilTime;
using core::Observation;
using core::SourceKind;

SourceKind kindForIdentifier(std::string_view ident)
{
    if (ident == "nv-fabricmanager")
        return SourceKind::FabricManager;
    if (ident == "slurmd" || ident == "slurmctld" || ident == "slurmstepd")
        return SourceKind::Scheduler;
    return SourceKind::Kernel; // kernel, and the host daemons a kernel log export carries along
}

bool splitSyslogRest(std::string_view rest, std::string_view& host, std::string_view& ident, std::string_view& message)
{
    while (!rest.empty() && rest.front() == ' ')
        rest.remove_prefix(1);
    const auto sp = rest.find(' ');
    if (sp == std::string_view::npos || sp == 0 || rest[sp - 1] == ':')
        return false;
    const std::string_view after = rest.substr(sp + 1);
    const auto colon = after.find(": ");
    if (colon == std::string_view::npos || colon == 0 || colon > after.find(' '))
        return false;
    host = rest.substr(0, sp);
    ident = after.substr(0, colon);
    if (const auto br = ident.find('['); br != std::string_view::npos)
        ident = ident.substr(0, br);
    message = after.substr(colon + 2);
    return true;
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

} // namespace faultline::importers
