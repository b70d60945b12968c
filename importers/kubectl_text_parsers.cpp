// SPDX-License-Identifier: Apache-2.0
// What people paste after an incident: kubectl's human-readable output and the logs of the cluster's GPU
// components. `kubectl get events` / `kubectl events` tables (default, -o wide, -A), `kubectl describe pod|node`
// text, and the klog / Go log / logrus envelopes of the NVIDIA device plugin and GPU operator pods.
//
// kubectl prints event ages relative to the moment it ran ("5m", "2m30s", "76s (x4 over 10m)", "<unknown>"). That
// moment is not in the text: without a reference (the manifest's collected_at) such records keep file order and
// have no time; with one they get an estimate whose precision window covers the age's rounding and the collection.
// Records are written as the JSON importers write them ("event Pod ml/x type=Warning reason=BackOff message=...",
// "pod ml/x container trainer terminated reason=OOMKilled exitCode=137") so the same rules match both.
#include "importers/file_parse.h"

#include <algorithm>
#include <charconv>

namespace faultline::importers {

using core::CivilTime;
using core::kNsPerSec;
using core::Observation;
using core::TimeQuality;

namespace {

constexpr std::int64_t kNsPerMin = 60 * kNsPerSec;
/// How long after the manifest's collected_at a kubectl command may have run (the collector runs its commands
/// one after another from that moment): the upper side of an estimated time's window.
constexpr std::int64_t kCollectionSlackNs = 10 * kNsPerMin;

bool isDigitChar(char c)
{
    return c >= '0' && c <= '9';
}

std::string_view trimSpaces(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

std::size_t indentOf(std::string_view s)
{
    std::size_t n = 0;
    while (n < s.size() && s[n] == ' ')
        ++n;
    return n;
}

bool startsWith(std::string_view s, std::string_view p)
{
    return s.substr(0, p.size()) == p;
}

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

/// A line or a pasted shell command ("$ kubectl get events") before the output proper.
bool preambleLine(std::string_view l)
{
    const std::string_view t = trimSpaces(l);
    return t.empty() || startsWith(t, "$ ") || startsWith(t, "# ") || startsWith(t, "kubectl ") || startsWith(t, "% ");
}

// ---------------------------------------------------------------------------------------------------------------
// Ages as kubectl prints them (apimachinery duration.HumanDuration and ShortHumanDuration): "45s", "2m30s",
// "10m", "3h20m", "2d5h", "400d", "1y30d". The text is rounded down to its smallest unit.

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

/// An age cell: "76s", "<unknown>", or describe's / kubectl events' "76s (x4 over 10m)".
struct Age
{
    std::string_view last; ///< the last-seen age as printed
    std::string_view first; ///< the first-seen age, when the cell says "over ..."
    std::uint64_t count = 0;
};

Age splitAge(std::string_view cell)
{
    Age a;
    cell = trimSpaces(cell);
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

/// "Mon, 02 Nov 2026 10:15:41 +0000" (Go's time.RFC1123Z, which kubectl describe writes). Returns bytes used.
std::size_t parseRfc1123z(std::string_view s, CivilTime& t)
{
    const auto toks = tokens(s.substr(0, 40));
    if (toks.size() < 6 || toks[0].first.size() != 4 || toks[0].first.back() != ',')
        return 0;
    auto num = [](std::string_view v, int& out) {
        return !v.empty() && std::from_chars(v.data(), v.data() + v.size(), out).ptr == v.data() + v.size();
    };
    CivilTime c;
    c.month = core::monthFromAbbrev(toks[2].first);
    const std::string_view clock = toks[4].first;
    const std::string_view zone = toks[5].first;
    if (!num(toks[1].first, c.day) || c.month == 0 || !num(toks[3].first, c.year) || clock.size() != 8
        || clock[2] != ':' || clock[5] != ':' || !num(clock.substr(0, 2), c.hour) || !num(clock.substr(3, 2), c.minute)
        || !num(clock.substr(6, 2), c.second) || zone.size() != 5 || (zone[0] != '+' && zone[0] != '-'))
        return 0;
    int hh = 0;
    int mm = 0;
    if (!num(zone.substr(1, 2), hh) || !num(zone.substr(3, 2), mm))
        return 0;
    c.hasOffset = true;
    c.offsetSeconds = (zone[0] == '-' ? -1 : 1) * (hh * 3600 + mm * 60);
    t = c;
    return toks[5].second + 5;
}

/// Applies a describe time; the zero time ("Mon, 01 Jan 0001 00:00:00 +0000") and "<unknown>" give none.
bool setDescribeTime(FileParse& fp, Observation& o, std::string_view text)
{
    CivilTime t;
    if (parseRfc1123z(trimSpaces(text), t) == 0 || t.year <= 1)
        return false;
    fp.resolve(t, o);
    return true;
}

// ---------------------------------------------------------------------------------------------------------------
// Tables: Go's text/tabwriter pads every cell of a column to the column's width (counted in code points), so each
// column starts where its header word starts.

struct Column
{
    std::string name; ///< upper case, single spaces ("LAST SEEN")
    std::size_t start = 0; ///< code point index
};

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
        cells[i] = trimSpaces(line.substr(cp[b], cp[e] - cp[b]));
    }
    return true;
}

/// A row of an events table or of describe's Events section.
struct EventRow
{
    std::string_view ns;
    std::string_view lastSeen;
    std::string_view firstSeen;
    std::string_view type;
    std::string_view reason;
    std::string_view object; ///< "pod/x" (get events), "Pod/x" (kubectl events), "node" (no name)
    std::string_view source; ///< "kubelet, node-02" (wide), "kubelet" (describe)
    std::string_view message;
    std::uint64_t count = 0;
};

/// The API kind for the lower-case kind kubectl get events prints ("jobset" → "JobSet").
std::string apiKind(std::string_view kind)
{
    static constexpr std::pair<std::string_view, std::string_view> kKinds[] = { { "jobset", "JobSet" },
        { "replicaset", "ReplicaSet" }, { "daemonset", "DaemonSet" }, { "statefulset", "StatefulSet" },
        { "persistentvolumeclaim", "PersistentVolumeClaim" }, { "persistentvolume", "PersistentVolume" },
        { "pytorchjob", "PyTorchJob" }, { "mpijob", "MPIJob" }, { "clusterqueue", "ClusterQueue" },
        { "localqueue", "LocalQueue" }, { "poddisruptionbudget", "PodDisruptionBudget" } };
    for (const auto& [lower, api] : kKinds)
        if (kind == lower)
            return std::string(api);
    std::string out(kind);
    if (!out.empty() && out[0] >= 'a' && out[0] <= 'z')
        out[0] = static_cast<char>(out[0] - 'a' + 'A');
    return out;
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
            host = trimSpaces(r.source.substr(comma + 2));
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

/// Object of a table row: "pod/x" → ("Pod", "x"); "node" → ("Node", "").
std::pair<std::string, std::string_view> splitObject(std::string_view object)
{
    const auto slash = object.find('/');
    if (slash == std::string_view::npos)
        return { apiKind(object), std::string_view() };
    return { apiKind(object.substr(0, slash)), object.substr(slash + 1) };
}

} // namespace

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

// ---------------------------------------------------------------------------------------------------------------
// kubectl get events [-A] [-o wide], kubectl events [-A]; also kubectl < 1.14's LASTSEEN FIRSTSEEN COUNT NAME KIND
// ... layout. Columns come from the header, so every layout kubectl printed reads the same way.

void parseKubectlEventsTable(FileParse& fp, const BundleContext& ctx)
{
    const std::int64_t ref = referenceTime(ctx);
    std::vector<Column> cols;
    std::vector<std::string_view> cells;
    bool noted = false;
    int iNs = -1, iLast = -1, iFirst = -1, iType = -1, iReason = -1, iObject = -1, iKind = -1, iName = -1, iSource = -1,
        iMessage = -1, iCount = -1, iSub = -1;
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (trimSpaces(line).empty())
            return true;
        const std::string_view t = trimSpaces(line);
        if (startsWith(t, "LAST SEEN") || startsWith(t, "LASTSEEN") || startsWith(t, "NAMESPACE ")) {
            cols = headerColumns(line);
            iNs = columnIndex(cols, "NAMESPACE");
            iLast = std::max(columnIndex(cols, "LAST SEEN"), columnIndex(cols, "LASTSEEN"));
            iFirst = std::max(columnIndex(cols, "FIRST SEEN"), columnIndex(cols, "FIRSTSEEN"));
            iType = columnIndex(cols, "TYPE");
            iReason = columnIndex(cols, "REASON");
            iObject = columnIndex(cols, "OBJECT");
            iKind = columnIndex(cols, "KIND");
            iName = columnIndex(cols, "NAME");
            iSource = columnIndex(cols, "SOURCE");
            iMessage = columnIndex(cols, "MESSAGE");
            iCount = columnIndex(cols, "COUNT");
            iSub = columnIndex(cols, "SUBOBJECT");
            if (iLast < 0 || iReason < 0 || iMessage < 0) {
                fp.warn(no, off, "kubectl-table-header",
                    "table header without LAST SEEN, REASON and MESSAGE columns; rows until the next header are "
                    "kept as text");
                cols.clear();
            }
            return true;
        }
        if (cols.empty()) {
            if (!preambleLine(line)) {
                fp.warn(no, off, "kubectl-table-no-header", "line before any events table header; kept as text");
                fp.add(line, no, off, line.size());
            }
            return true;
        }
        if (startsWith(t, "No resources found")) // kubectl's answer for an empty namespace
            return true;
        EventRow r;
        if (alignedCells(line, cols, cells)) {
            auto cell = [&](int i) { return i >= 0 ? cells[static_cast<std::size_t>(i)] : std::string_view(); };
            r.ns = cell(iNs);
            const Age age = splitAge(cell(iLast));
            r.lastSeen = age.last;
            r.firstSeen = iFirst >= 0 ? cell(iFirst) : age.first;
            r.count = age.count;
            r.type = cell(iType);
            r.reason = cell(iReason);
            r.object = cell(iObject);
            r.source = cell(iSource);
            r.message = cell(iMessage);
            if (iCount >= 0)
                std::from_chars(cell(iCount).data(), cell(iCount).data() + cell(iCount).size(), r.count);
            (void)iSub;
        } else {
            // A row whose spacing was lost (pasted through a chat or a ticket): the default layout can still be
            // read word by word; the wide one cannot (its empty SUBOBJECT and "kubelet, node" cells are ambiguous).
            const bool defaultLayout = iObject >= 0 && iMessage == static_cast<int>(cols.size()) - 1
                && static_cast<int>(cols.size()) == (iNs >= 0 ? 6 : 5);
            auto toks = tokens(line);
            std::size_t k = 0;
            if (defaultLayout && iNs >= 0 && k < toks.size())
                r.ns = toks[k++].first;
            if (defaultLayout && k < toks.size()) {
                const std::size_t ageStart = toks[k].second;
                std::size_t ageEnd = toks[k].second + toks[k].first.size();
                ++k;
                if (k + 2 < toks.size() && startsWith(toks[k].first, "(x") && toks[k + 1].first == "over") {
                    ageEnd = toks[k + 2].second + toks[k + 2].first.size();
                    k += 3;
                }
                const Age age = splitAge(line.substr(ageStart, ageEnd - ageStart));
                r.lastSeen = age.last;
                r.firstSeen = age.first;
                r.count = age.count;
            }
            std::int64_t a = 0;
            std::int64_t u = 0;
            const bool ageOk = r.lastSeen == "<unknown>" || parseAge(r.lastSeen, a, u);
            if (!defaultLayout || !ageOk || k + 3 > toks.size()) {
                fp.warn(no, off, "kubectl-table-row",
                    "row does not line up with the table header and cannot be read word by word; kept as text");
                fp.add(line, no, off, line.size());
                return true;
            }
            r.type = toks[k].first;
            r.reason = toks[k + 1].first;
            r.object = toks[k + 2].first;
            r.message = k + 3 < toks.size() ? trimSpaces(line.substr(toks[k + 3].second)) : std::string_view();
            fp.note(no, off, core::Severity::Warning, "kubectl-table-misaligned",
                "row does not line up with the table header; read word by word (LAST SEEN TYPE REASON OBJECT "
                "MESSAGE)");
        }
        std::string kind;
        std::string_view name;
        if (!r.object.empty()) {
            auto split = splitObject(r.object);
            kind = std::move(split.first);
            name = split.second;
        } else {
            kind = apiKind(iKind >= 0 ? cells[static_cast<std::size_t>(iKind)] : std::string_view());
            name = iName >= 0 ? cells[static_cast<std::size_t>(iName)] : std::string_view();
        }
        addEventRecord(fp, ctx, r, kind, name, {}, no, off, line.size(), ref);
        noteRelativeAges(fp, no, off, ref, noted);
        return true;
    });
}

// ---------------------------------------------------------------------------------------------------------------
// kubectl describe pod|node (several objects in one file are separated by their "Name:" lines). Facts kept: the
// pod's node (Node: name/IP), its status reason, each container's State / Last State (Terminated with reason and
// exit code, Waiting with reason), abnormal conditions, a node's taints, unschedulable flag, nvidia.com/gpu
// capacity against allocatable, and the Events section.

namespace {

struct DescribeState
{
    enum class Kind { Unknown, Pod, Node } kind = Kind::Unknown;
    std::string apiKind; ///< a "Kind:" line (custom resources)
    std::string name;
    std::string ns;
    std::string node; ///< a pod's node
    std::string phase;
    std::string statusReason; ///< the pod's Reason:/Message: lines, written once both are read
    std::string statusMessage;
    std::uint64_t statusLine = 0;
    std::uint64_t statusOff = 0;
    std::uint64_t statusEnd = 0;
    std::uint64_t line = 0;
    std::uint64_t off = 0;
    bool sawEvents = false;
    std::string gpuCapacity;
    std::string gpuAllocatable;
    std::uint64_t gpuLine = 0;
    std::uint64_t gpuOff = 0;
    std::size_t gpuLen = 0;
};

struct ContainerState
{
    bool open = false;
    bool previous = false; ///< Last State
    std::string state; ///< Terminated, Waiting, Running
    std::string container;
    std::string reason;
    std::string message;
    std::string exitCode;
    std::string signal;
    std::string finished;
    std::uint64_t line = 0;
    std::uint64_t off = 0;
    std::uint64_t endOff = 0;
};

/// "Key:   value" at `indent` spaces: the key and its value; false when the line is not one.
bool keyValue(std::string_view line, std::size_t indent, std::string_view& key, std::string_view& value)
{
    if (indentOf(line) != indent)
        return false;
    const std::string_view s = line.substr(indent);
    const auto colon = s.find(':');
    if (colon == std::string_view::npos || colon == 0)
        return false;
    for (std::size_t i = 0; i < colon; ++i) {
        const char c = s[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == ' ' || c == '-'))
            return false;
    }
    if (colon + 1 < s.size() && s[colon + 1] != ' ' && s[colon + 1] != '\t')
        return false;
    key = s.substr(0, colon);
    value = trimSpaces(s.substr(colon + 1));
    return true;
}

} // namespace

void parseKubectlDescribe(FileParse& fp, const BundleContext& ctx)
{
    const std::int64_t ref = referenceTime(ctx);
    bool noted = false;
    DescribeState obj;
    ContainerState cs;
    enum class Section { None, Containers, Conditions, Events, Taints, Capacity, Allocatable, Other };
    Section section = Section::None;
    std::vector<Column> eventCols;
    std::vector<std::string_view> cells;
    std::string container;
    std::uint64_t lastLine = 0;
    std::uint64_t lastOff = 0;

    auto who = [&]() {
        if (obj.kind == DescribeState::Kind::Node)
            return "node " + obj.name;
        return "pod " + (obj.ns.empty() ? std::string() : obj.ns + "/") + obj.name;
    };
    auto nodeOf = [&]() -> std::string_view {
        if (obj.kind == DescribeState::Kind::Node)
            return obj.name;
        if (!obj.node.empty())
            return obj.node;
        if (auto it = ctx.podToNode.find(obj.name); it != ctx.podToNode.end())
            return it->second;
        return {};
    };
    auto record = [&](const std::string& text, std::uint64_t line, std::uint64_t off, std::size_t len) -> Observation& {
        Observation& o = fp.add(fp.arena->store(text), line, off, len);
        if (const std::string_view n = nodeOf(); !n.empty())
            o.node = fp.internHost(n);
        return o;
    };
    auto flushState = [&]() {
        if (!cs.open)
            return;
        cs.open = false;
        if (cs.state == "Terminated") {
            if (cs.exitCode.empty())
                fp.note(cs.line, cs.off, core::Severity::Warning, "describe-cut",
                    "container " + cs.container + "'s " + (cs.previous ? "Last State" : "State")
                        + " is Terminated but has no Exit Code line: the description was cut here");
            std::string text = who() + " container " + cs.container + " terminated reason=" + cs.reason
                + " exitCode=" + (cs.exitCode.empty() ? "-1" : cs.exitCode);
            if (!cs.signal.empty())
                text += " signal=" + cs.signal;
            if (!cs.message.empty())
                text += " message=" + quoteRecordValue(cs.message);
            if (cs.previous)
                text += " (previous restart)";
            Observation& o = record(text, cs.line, cs.off, static_cast<std::size_t>(cs.endOff - cs.off));
            setDescribeTime(fp, o, cs.finished);
        } else if (cs.state == "Waiting" && !cs.reason.empty()) {
            record(who() + " container " + cs.container + " waiting reason=" + cs.reason
                    + (cs.message.empty() ? "" : " message=" + quoteRecordValue(cs.message)),
                cs.line, cs.off, static_cast<std::size_t>(cs.endOff - cs.off));
        }
    };
    auto flushStatus = [&]() {
        if (obj.statusReason.empty())
            return;
        record(who() + " phase=" + obj.phase + " reason=" + obj.statusReason
                + " message=" + quoteRecordValue(obj.statusMessage),
            obj.statusLine, obj.statusOff, static_cast<std::size_t>(obj.statusEnd - obj.statusOff));
        obj.statusReason.clear();
    };
    auto flushGpu = [&]() {
        if (obj.gpuCapacity.empty() || obj.gpuAllocatable.empty())
            return;
        std::int64_t cap = 0;
        std::int64_t alloc = 0;
        std::from_chars(obj.gpuCapacity.data(), obj.gpuCapacity.data() + obj.gpuCapacity.size(), cap);
        std::from_chars(obj.gpuAllocatable.data(), obj.gpuAllocatable.data() + obj.gpuAllocatable.size(), alloc);
        std::string text = who() + " nvidia.com/gpu capacity=" + obj.gpuCapacity + " allocatable=" + obj.gpuAllocatable;
        if (cap > alloc)
            text += " unavailable=" + std::to_string(cap - alloc);
        record(text, obj.gpuLine, obj.gpuOff, obj.gpuLen);
        obj.gpuCapacity.clear();
    };
    auto finishObject = [&]() {
        flushState();
        flushStatus();
        flushGpu();
        if (!obj.name.empty() && !obj.sawEvents) {
            fp.note(lastLine, lastOff, core::Severity::Warning, "describe-cut",
                "the description of " + who() + " (line " + std::to_string(obj.line)
                    + ") ends before its Events section: the text was cut");
            if (fp.source.status == core::CoverageStatus::Ok)
                fp.source.status = core::CoverageStatus::Truncated;
        }
        obj = DescribeState();
        section = Section::None;
        container.clear();
    };

    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (trimSpaces(line).empty())
            return true;
        lastLine = no;
        lastOff = off;
        std::string_view key;
        std::string_view value;
        if (keyValue(line, 0, key, value)) {
            flushState();
            if (key != "Message")
                flushStatus();
            if (section == Section::Allocatable)
                flushGpu();
            section = Section::Other;
            if (key == "Name") {
                if (!obj.name.empty())
                    finishObject();
                obj.name = std::string(value);
                obj.line = no;
                obj.off = off;
                section = Section::None;
            } else if (key == "Namespace") {
                obj.ns = std::string(value);
            } else if (key == "Kind") {
                obj.apiKind = std::string(value);
            } else if (key == "Node") {
                obj.kind = DescribeState::Kind::Pod;
                if (value != "<none>")
                    obj.node = std::string(value.substr(0, value.find('/')));
            } else if (key == "Status") {
                if (obj.kind == DescribeState::Kind::Unknown)
                    obj.kind = DescribeState::Kind::Pod;
                obj.phase = std::string(value);
            } else if (key == "Reason" && obj.kind == DescribeState::Kind::Pod) {
                obj.statusReason = std::string(value);
                obj.statusLine = no;
                obj.statusOff = off;
                obj.statusEnd = off + line.size();
            } else if (key == "Message" && !obj.statusReason.empty()) {
                obj.statusMessage = std::string(value);
                obj.statusEnd = off + line.size();
            } else if (key == "Roles" || key == "Unschedulable" || key == "Taints") {
                obj.kind = DescribeState::Kind::Node;
                if (key == "Unschedulable" && value == "true")
                    record(who() + " unschedulable=true", no, off, line.size());
                if (key == "Taints") {
                    section = Section::Taints;
                    if (value != "<none>" && !value.empty())
                        record(who() + " taint " + std::string(value), no, off, line.size());
                }
            } else if (key == "Containers" || key == "Init Containers" || key == "Ephemeral Containers") {
                obj.kind = DescribeState::Kind::Pod;
                section = Section::Containers;
            } else if (key == "Conditions") {
                section = Section::Conditions;
            } else if (key == "Capacity") {
                section = Section::Capacity;
            } else if (key == "Allocatable") {
                section = Section::Allocatable;
            } else if (key == "Events") {
                obj.sawEvents = true;
                section = value.empty() ? Section::Events : Section::Other; // "Events:  <none>"
                eventCols.clear();
            }
            return true;
        }
        const std::size_t indent = indentOf(line);
        const std::string_view t = trimSpaces(line);
        switch (section) {
        case Section::Taints:
            if (indent > 0 && t.find(": ") == std::string_view::npos)
                record(who() + " taint " + std::string(t), no, off, line.size());
            break;
        case Section::Capacity:
        case Section::Allocatable:
            if (keyValue(line, 1, key, value) || keyValue(line, 2, key, value))
                break;
            if (startsWith(t, "nvidia.com/gpu:")) {
                const std::string v(trimSpaces(t.substr(15)));
                if (section == Section::Capacity) {
                    obj.gpuCapacity = v;
                } else {
                    obj.gpuAllocatable = v;
                    obj.gpuLine = no;
                    obj.gpuOff = off;
                    obj.gpuLen = line.size();
                }
            }
            break;
        case Section::Conditions: {
            const auto toks = tokens(line);
            if (toks.empty() || toks[0].first == "Type" || startsWith(toks[0].first, "----") || toks.size() < 2)
                break;
            const std::string_view type = toks[0].first;
            const std::string_view status = toks[1].first;
            if (obj.kind == DescribeState::Kind::Node) {
                // Type Status LastHeartbeatTime LastTransitionTime Reason Message (two RFC 1123 times, 6 words each)
                const bool normal = type == "Ready" ? status == "True" : status == "False";
                if (normal)
                    break;
                std::string_view reason;
                std::string_view message;
                std::string_view transition;
                if (toks.size() >= 15) {
                    transition = line.substr(toks[8].second);
                    reason = toks[14].first;
                    message = toks.size() > 15 ? trimSpaces(line.substr(toks[15].second)) : std::string_view();
                } else {
                    fp.note(no, off, core::Severity::Warning, "describe-condition",
                        "node condition row without both times; kept partly");
                }
                Observation& o = record(who() + " condition " + std::string(type) + "=" + std::string(status)
                        + " reason=" + std::string(reason) + " message=" + quoteRecordValue(message),
                    no, off, line.size());
                setDescribeTime(fp, o, transition);
            } else {
                const bool notable = type == "DisruptionTarget" ? status == "True" : status == "False";
                if (notable)
                    record(who() + " condition " + std::string(type) + "=" + std::string(status), no, off, line.size());
            }
            break;
        }
        case Section::Containers:
            if (indent == 2 && t.size() > 1 && t.back() == ':' && t.find(' ') == std::string_view::npos) {
                flushState();
                container = std::string(t.substr(0, t.size() - 1));
            } else if (keyValue(line, 4, key, value)) {
                if (key == "State" || key == "Last State") {
                    flushState();
                    cs = ContainerState();
                    cs.open = true;
                    cs.previous = key == "Last State";
                    cs.state = std::string(value);
                    cs.container = container;
                    cs.line = no;
                    cs.off = off;
                    cs.endOff = off + line.size();
                } else {
                    flushState();
                }
            } else if (cs.open && keyValue(line, 6, key, value)) {
                cs.endOff = off + line.size();
                if (key == "Reason")
                    cs.reason = std::string(value);
                else if (key == "Message")
                    cs.message = std::string(value);
                else if (key == "Exit Code")
                    cs.exitCode = std::string(value);
                else if (key == "Signal")
                    cs.signal = std::string(value);
                else if (key == "Finished")
                    cs.finished = std::string(value);
            }
            break;
        case Section::Events: {
            if (startsWith(t, "Type") && t.find("Reason") != std::string_view::npos) {
                eventCols = headerColumns(line);
                break;
            }
            if (startsWith(t, "----"))
                break;
            EventRow r;
            const int iType = columnIndex(eventCols, "Type");
            const int iReason = columnIndex(eventCols, "Reason");
            const int iAge = columnIndex(eventCols, "Age");
            const int iFrom = columnIndex(eventCols, "From");
            const int iMessage = columnIndex(eventCols, "Message");
            const bool header = iType >= 0 && iReason >= 0 && iAge >= 0 && iFrom >= 0 && iMessage >= 0;
            if (header && alignedCells(line, eventCols, cells)) {
                r.type = cells[static_cast<std::size_t>(iType)];
                r.reason = cells[static_cast<std::size_t>(iReason)];
                const Age age = splitAge(cells[static_cast<std::size_t>(iAge)]);
                r.lastSeen = age.last;
                r.firstSeen = age.first;
                r.count = age.count;
                r.source = cells[static_cast<std::size_t>(iFrom)];
                r.message = cells[static_cast<std::size_t>(iMessage)];
            } else {
                // Type Reason Age [(xN over Age)] From Message, word by word.
                const auto toks = tokens(line);
                std::size_t k = 2;
                bool ok = toks.size() >= 4;
                if (ok) {
                    r.type = toks[0].first;
                    r.reason = toks[1].first;
                    std::size_t ageEnd = toks[2].second + toks[2].first.size();
                    k = 3;
                    if (toks.size() >= 7 && startsWith(toks[3].first, "(x") && toks[4].first == "over") {
                        ageEnd = toks[5].second + toks[5].first.size();
                        k = 6;
                    }
                    const Age age = splitAge(line.substr(toks[2].second, ageEnd - toks[2].second));
                    r.lastSeen = age.last;
                    r.firstSeen = age.first;
                    r.count = age.count;
                    std::int64_t a = 0;
                    std::int64_t u = 0;
                    ok = k < toks.size() && (r.lastSeen == "<unknown>" || parseAge(r.lastSeen, a, u))
                        && (r.type == "Normal" || r.type == "Warning");
                }
                if (!ok) {
                    fp.warn(no, off, "describe-event-row",
                        "line in the Events section is not an event row (Type Reason Age From Message); kept as text");
                    record(std::string(t), no, off, line.size());
                    break;
                }
                r.source = toks[k].first;
                r.message = k + 1 < toks.size() ? trimSpaces(line.substr(toks[k + 1].second)) : std::string_view();
                fp.note(no, off, core::Severity::Warning, "describe-event-misaligned",
                    "event row does not line up with the Events header; read word by word");
            }
            std::string kind = obj.kind == DescribeState::Kind::Node ? "Node"
                : obj.kind == DescribeState::Kind::Pod               ? "Pod"
                : !obj.apiKind.empty()                               ? obj.apiKind
                                                                     : "Object";
            r.ns = obj.ns;
            addEventRecord(fp, ctx, r, kind, obj.name, nodeOf(), no, off, line.size(), ref);
            noteRelativeAges(fp, no, off, ref, noted);
            break;
        }
        default:
            break;
        }
        return true;
    });
    if (!obj.name.empty())
        finishObject();
}

// ---------------------------------------------------------------------------------------------------------------
// Logs of the cluster's GPU components as `kubectl logs` prints them without --timestamps: the device plugin and
// GPU feature discovery write klog ("I1102 10:15:01.123456       1 health.go:123] message": no year, no zone,
// the container's local time), older device plugins Go's log package ("2026/11/02 10:15:01 message", local time),
// the GPU operator's validator logrus or slog ('time="2026-11-02T10:15:01Z" level=warning msg="..."'). Year-less
// and zone-less stamps are read like every other glog line: the workload's year, the file's zone.

namespace {

/// klog header "Lmmdd hh:mm:ss.uuuuuu threadid file:line] ": the offset of the message, or 0.
std::size_t klogHeader(std::string_view l, int year, CivilTime* t)
{
    if (l.size() < 22 || (l[0] != 'I' && l[0] != 'W' && l[0] != 'E' && l[0] != 'F') || !isDigitChar(l[1]))
        return 0;
    CivilTime tmp;
    const std::size_t used = parseGlogTime(l.substr(1), year, tmp);
    if (used == 0)
        return 0;
    std::size_t p = 1 + used;
    while (p < l.size() && l[p] == ' ')
        ++p;
    const std::size_t tid = p;
    while (p < l.size() && isDigitChar(l[p]))
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
        while (end < l.size() && isDigitChar(l[end]))
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
        if (trimSpaces(line).empty())
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
