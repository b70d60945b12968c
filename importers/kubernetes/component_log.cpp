// SPDX-License-Identifier: Apache-2.0
// Logs of the cluster's GPU components as `kubectl logs` prints them without --timestamps: the device plugin and
// GPU feature discovery write klog ("I1102 10:15:01.123456       1 health.go:123] message": no year, no zone,
// the container's local time), older device plugins Go's log package ("2026/11/02 10:15:01 message", local time),
// the GPU operator's validator logrus or slog ('time="2026-11-02T10:15:01Z" level=warning msg="..."'). Year-less
// and zone-less stamps are read like every other glog line: the workload's year, the file's zone.
#include "importers/kubernetes/kubernetes_parsers.h"
#include "importers/support/log_time.h"
#include "importers/support/text_scan.h"

#include <algorithm>

namespace faultline::importers {

using core::CivilTime;
using core::Observation;

namespace {

/// klog header "Lmmdd hh:mm:ss.uuuuuu threadid file:line] ": the offset of the message, or 0.
std::size_t klogHeader(std::string_view l, int year, CivilTime* t)
{
    if (l.size() < 22 || (l[0] != 'I' && l[0] != 'W' && l[0] != 'E' && l[0] != 'F') || !isDigit(l[1]))
        return 0;
    CivilTime tmp;
    const std::size_t used = parseGlogTime(l.substr(1), year, tmp);
    if (used == 0)
        return 0;
    std::size_t p = 1 + used;
    while (p < l.size() && l[p] == ' ')
        ++p;
    const std::size_t tid = p;
    while (p < l.size() && isDigit(l[p]))
        ++p;
    if (p == tid || p >= l.size() || l[p] != ' ')
        return 0;
    std::size_t c = l.find("] ", p);
    if (c == std::string_view::npos && l.back() == ']')
        c = l.size() - 1; // an empty message
    if (c == std::string_view::npos || l.substr(p + 1, c - p - 1).find(':') == std::string_view::npos)
        return 0;
    if (t)
        *t = tmp;
    return std::min(l.size(), c + 2);
}

/// Go log.LstdFlags "2026/11/02 10:15:01 " (optionally ".123456"): the offset of the message, or 0.
std::size_t goLogHeader(std::string_view l, CivilTime* t)
{
    if (l.size() < 20 || l[4] != '/' || l[7] != '/' || l[10] != ' ' || l[13] != ':')
        return 0;
    std::string iso(l.substr(0, 19));
    iso[4] = '-';
    iso[7] = '-';
    iso[10] = 'T';
    std::size_t end = 19;
    if (end < l.size() && l[end] == '.') {
        ++end;
        while (end < l.size() && isDigit(l[end]))
            ++end;
        iso.append(l.substr(19, end - 19));
    }
    CivilTime tmp;
    if (core::parseIsoTime(iso, tmp) != iso.size() || end >= l.size() || l[end] != ' ')
        return 0;
    if (t)
        *t = tmp;
    return end + 1;
}

/// logrus / slog text 'time="..." level=...' or 'time=... level=...': the offset after the time, or 0.
std::size_t keyValueLogHeader(std::string_view l, CivilTime* t)
{
    if (!startsWith(l, "time="))
        return 0;
    const bool q = l.size() > 5 && l[5] == '"';
    const std::size_t b = q ? 6 : 5;
    CivilTime tmp;
    const std::size_t used = core::parseIsoTime(l.substr(b), tmp);
    if (used == 0)
        return 0;
    std::size_t p = b + used + (q ? 1 : 0);
    if (q && (b + used >= l.size() || l[b + used] != '"'))
        return 0;
    if (p >= l.size() || l[p] != ' ' || l.substr(p + 1, 6) != "level=")
        return 0;
    if (t)
        *t = tmp;
    return p + 1;
}

} // namespace

bool componentLogLine(std::string_view line)
{
    return klogHeader(line, 2000, nullptr) > 0 || goLogHeader(line, nullptr) > 0
        || keyValueLogHeader(line, nullptr) > 0;
}

void parseComponentLog(FileParse& fp, const BundleContext& ctx)
{
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (trim(line).empty())
            return true;
        CivilTime t;
        std::size_t msg = klogHeader(line, ctx.referenceYear, &t);
        if (msg == 0)
            msg = goLogHeader(line, &t);
        if (msg == 0)
            msg = keyValueLogHeader(line, &t);
        // A line without an envelope (a multi-line message, a script's own output) keeps its place between its
        // stamped neighbours.
        Observation& o = fp.add(msg ? line.substr(msg) : line, no, off, line.size());
        if (msg)
            fp.resolve(t, o);
        return true;
    });
}

} // namespace faultline::importers
