// SPDX-License-Identifier: Apache-2.0
// What people paste after an incident: kubectl's human-readable output, `kubectl get events` / `kubectl events`
// tables (default, -o wide, -A) and `kubectl describe pod|node` text. This file recognises it and holds what its two
// readers (kubectl_events_table.cpp, kubectl_describe.cpp) share: relative ages, tabwriter columns, event records.
//
// kubectl prints event ages relative to the moment it ran ("5m", "2m30s", "76s (x4 over 10m)", "<unknown>"). That
// moment is not in the text: without a reference (the manifest's collected_at) such records keep file order and
// have no time; with one they get an estimate whose precision window covers the age's rounding and the collection.
// Records are written as the JSON importers write them ("event Pod ml/x type=Warning reason=BackOff message=...",
// "pod ml/x container trainer terminated reason=OOMKilled exitCode=137") so the same rules match both.
#include "importers/kubernetes/kubectl_text.h"

#include "importers/kubernetes/kubernetes_parsers.h"
#include "importers/support/text_scan.h"

#include <algorithm>
#include <charconv>

namespace faultline::importers {

using core::kNsPerSec;
using core::Observation;
using core::TimeQuality;

namespace kubectl {

namespace {

constexpr std::int64_t kNsPerMin = 60 * kNsPerSec;
/// How long after the manifest's collected_at a kubectl command may have run (the collector runs its commands
/// one after another from that moment): the upper side of an estimated time's window.
constexpr std::int64_t kCollectionSlackNs = 10 * kNsPerMin;

/// Places a record printed with a relative age: an estimate against the bundle's reference time, else no time
/// (the record keeps its place in the file).
void applyAge(Observation& o, std::string_view age, std::int64_t referenceNs)
{
    std::int64_t ageNs = 0;
    std::int64_t unitNs = 0;
    if (referenceNs == INT64_MIN || !parseAge(age, ageNs, unitNs))
        return;
    // The age is rounded down to its unit and counts from when kubectl ran, which is at or after collected_at.
    o.timeNs = referenceNs - ageNs - unitNs;
    o.precisionNs = unitNs + kCollectionSlackNs;
    o.quality = TimeQuality::Inferred;
}

/// Byte offset of each code point of `s`, plus s.size() at the end.
std::vector<std::size_t> codePoints(std::string_view s)
{
    std::vector<std::size_t> at;
    at.reserve(s.size() + 1);
    for (std::size_t i = 0; i < s.size(); ++i)
        if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80)
            at.push_back(i);
    at.push_back(s.size());
    return at;
}

} // namespace

/// Splits on runs of spaces; returns the tokens with their byte offsets.
std::vector<std::pair<std::string_view, std::size_t>> tokens(std::string_view s)
{
    std::vector<std::pair<std::string_view, std::size_t>> out;
    std::size_t p = 0;
    while (p < s.size()) {
        while (p < s.size() && (s[p] == ' ' || s[p] == '\t'))
            ++p;
        const std::size_t b = p;
        while (p < s.size() && s[p] != ' ' && s[p] != '\t')
            ++p;
        if (p > b)
            out.emplace_back(s.substr(b, p - b), b);
    }
    return out;
}

bool parseAge(std::string_view s, std::int64_t& ageNs, std::int64_t& unitNs)
{
    if (s.empty())
        return false;
    ageNs = 0;
    unitNs = 0;
    std::size_t p = 0;
    while (p < s.size()) {
        std::int64_t v = 0;
        const auto [ptr, ec] = std::from_chars(s.data() + p, s.data() + s.size(), v);
        if (ec != std::errc() || ptr == s.data() + s.size())
            return false;
        p = static_cast<std::size_t>(ptr - s.data());
        std::int64_t unit = 0;
        switch (s[p]) {
        case 's':
            unit = kNsPerSec;
            break;
        case 'm':
            unit = kNsPerMin;
            break;
        case 'h':
            unit = 60 * kNsPerMin;
            break;
        case 'd':
            unit = 24 * 60 * kNsPerMin;
            break;
        case 'y':
            unit = 365 * 24 * 60 * kNsPerMin;
            break;
        default:
            return false;
        }
        ++p;
        ageNs += v * unit;
        unitNs = unit;
    }
    return true;
}

Age splitAge(std::string_view cell)
{
    Age a;
    cell = trim(cell);
    const auto open = cell.find(" (x");
    if (open == std::string_view::npos) {
        a.last = cell;
        return a;
    }
    a.last = cell.substr(0, open);
    std::string_view rest = cell.substr(open + 3);
    const auto over = rest.find(" over ");
    std::from_chars(rest.data(), rest.data() + (over == std::string_view::npos ? rest.size() : over), a.count);
    if (over != std::string_view::npos) {
        rest = rest.substr(over + 6);
        if (!rest.empty() && rest.back() == ')')
            rest.remove_suffix(1);
        a.first = rest;
    }
    return a;
}

/// Notes once per file how relative ages were treated.
void noteRelativeAges(FileParse& fp, std::uint64_t line, std::uint64_t off, std::int64_t referenceNs, bool& noted)
{
    if (noted)
        return;
    noted = true;
    if (referenceNs == INT64_MIN)
        fp.note(line, off, core::Severity::Info, "relative-time",
            "kubectl printed ages relative to when it ran, which the bundle does not say (no collected_at in the "
            "manifest): these records keep file order and have no time");
    else
        fp.note(line, off, core::Severity::Info, "relative-time-estimated",
            "kubectl printed ages relative to when it ran: times are estimates from the manifest's collected_at "
            "(" + core::formatUtc(referenceNs)
                + "), each with a window of its age's rounding plus " + std::to_string(kCollectionSlackNs / kNsPerMin)
                + " minutes");
}

/// Header cells separated by two spaces or more ("LAST SEEN   TYPE   REASON").
std::vector<Column> headerColumns(std::string_view line)
{
    std::vector<Column> cols;
    const auto cp = codePoints(line);
    std::size_t i = 0;
    const std::size_t n = cp.size() - 1;
    auto ch = [&](std::size_t k) { return line[cp[k]]; };
    while (i < n) {
        while (i < n && ch(i) == ' ')
            ++i;
        if (i >= n)
            break;
        Column c;
        c.start = i;
        while (i < n && !(ch(i) == ' ' && (i + 1 >= n || ch(i + 1) == ' '))) {
            c.name += ch(i);
            ++i;
        }
        cols.push_back(std::move(c));
    }
    return cols;
}

int columnIndex(const std::vector<Column>& cols, std::string_view name)
{
    for (std::size_t i = 0; i < cols.size(); ++i)
        if (cols[i].name == name)
            return static_cast<int>(i);
    return -1;
}

/// Cells of `line` under `cols`; false when the row does not line up (a cell boundary falls inside a word).
bool alignedCells(std::string_view line, const std::vector<Column>& cols, std::vector<std::string_view>& cells)
{
    const auto cp = codePoints(line);
    const std::size_t n = cp.size() - 1;
    cells.assign(cols.size(), std::string_view());
    for (std::size_t i = 0; i < cols.size(); ++i) {
        const std::size_t b = cols[i].start;
        if (b > 0 && b - 1 < n && line[cp[b - 1]] != ' ')
            return false;
        if (b >= n) {
            if (i + 1 == cols.size())
                return false; // the last cell (the message) is missing: not a row of this table
            continue;
        }
        const std::size_t e = i + 1 < cols.size() ? std::min(cols[i + 1].start, n) : n;
        cells[i] = trim(line.substr(cp[b], cp[e] - cp[b]));
    }
    return true;
}

/// Writes one event record. `objKind`/`objName` name the object; `node` is what the caller knows of its node.
void addEventRecord(FileParse& fp, const BundleContext& ctx, const EventRow& r, const std::string& objKind,
    std::string_view objName, std::string_view node, std::uint64_t line, std::uint64_t off, std::size_t len,
    std::int64_t referenceNs)
{
    std::string text = "event " + objKind + " " + (r.ns.empty() ? "" : std::string(r.ns) + "/") + std::string(objName)
        + " type=" + std::string(r.type) + " reason=" + std::string(r.reason)
        + " message=" + quoteRecordValue(r.message);
    if (r.count > 1)
        text += " count=" + std::to_string(r.count);
    Observation& o = fp.add(fp.arena->store(text), line, off, len);
    // Node: the object itself when it is a Node, a pod's node (describe's Node: line, pods.json), else the host
    // of the kubelet that reported it ("kubelet, node-02").
    std::string_view host = node;
    if (host.empty() && objKind == "Pod")
        if (auto it = ctx.podToNode.find(std::string(objName)); it != ctx.podToNode.end())
            host = it->second;
    if (host.empty())
        if (const auto comma = r.source.find(", "); comma != std::string_view::npos)
            host = trim(r.source.substr(comma + 2));
    if (objKind == "Node")
        host = objName;
    if (!host.empty())
        o.node = fp.internHost(host);
    applyAge(o, r.lastSeen, referenceNs);
}

std::int64_t referenceTime(const BundleContext& ctx)
{
    return ctx.manifest ? ctx.manifest->collectedAtNs : INT64_MIN;
}

} // namespace kubectl

// kubectl's text output: an events table ("LAST SEEN  TYPE  REASON ...", also with NAMESPACE first and kubectl
// < 1.14's "LASTSEEN  FIRSTSEEN ...") or a describe text ("Name:" then Namespace:/Roles:/...), after blank lines
// or a pasted "$ kubectl ..." line. Returns the format id, "" when neither.
std::string_view kubectlTextFormat(std::string_view head, std::string& reason)
{
    std::size_t p = 0;
    std::string_view line;
    for (int skipped = 0; p < head.size() && skipped < 4; ++skipped) {
        const auto nl = head.find('\n', p);
        line = head.substr(p, nl == std::string_view::npos ? std::string_view::npos : nl - p);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        const auto first = line.find_first_not_of(' ');
        const std::string_view t = first == std::string_view::npos ? std::string_view() : line.substr(first);
        if (!t.empty() && !startsWith(t, "$ ") && !startsWith(t, "% ") && !startsWith(t, "kubectl "))
            break;
        line = {};
        if (nl == std::string_view::npos)
            break;
        p = nl + 1;
    }
    const bool events = (startsWith(line, "LAST SEEN ") || startsWith(line, "LASTSEEN ")
                            || (startsWith(line, "NAMESPACE ") && line.find(" LAST SEEN ") != std::string_view::npos))
        && line.find(" REASON ") != std::string_view::npos && line.find("MESSAGE") != std::string_view::npos;
    if (events) {
        reason = "content: LAST SEEN ... REASON ... MESSAGE header (kubectl get events table)";
        return "kubectl-events-table";
    }
    const std::string_view rest = head.substr(p);
    if (startsWith(line, "Name:") && line.size() > 6 && (line[5] == ' ' || line[5] == '\t')
        && (rest.find("\nNamespace:") != std::string_view::npos || rest.find("\nRoles:") != std::string_view::npos
            || rest.find("\nEvents:") != std::string_view::npos)) {
        reason = "content: Name:/Namespace:/Roles: fields (kubectl describe)";
        return "kubectl-describe";
    }
    return {};
}

} // namespace faultline::importers
