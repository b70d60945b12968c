// SPDX-License-Identifier: Apache-2.0
// kubectl describe pod|node (several objects in one file are separated by their "Name:" lines). Facts kept: the
// pod's node (Node: name/IP), its status reason, each container's State / Last State (Terminated with reason and
// exit code, Waiting with reason), abnormal conditions, a node's taints, unschedulable flag, nvidia.com/gpu
// capacity against allocatable, and the Events section.
#include "importers/kubernetes/kubectl_text.h"
#include "importers/kubernetes/kubernetes_parsers.h"
#include "importers/support/text_scan.h"

#include <charconv>

namespace faultline::importers {

using core::CivilTime;
using core::Observation;
using namespace kubectl; // the table and age readers both kubectl printers share

namespace {

std::size_t indentOf(std::string_view s)
{
    std::size_t n = 0;
    while (n < s.size() && s[n] == ' ')
        ++n;
    return n;
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
    if (parseRfc1123z(trim(text), t) == 0 || t.year <= 1)
        return false;
    fp.resolve(t, o);
    return true;
}

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
    value = trim(s.substr(colon + 1));
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
        if (trim(line).empty())
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
        const std::string_view t = trim(line);
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
                const std::string v(trim(t.substr(15)));
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
                    message = toks.size() > 15 ? trim(line.substr(toks[15].second)) : std::string_view();
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
                r.message = k + 1 < toks.size() ? trim(line.substr(toks[k + 1].second)) : std::string_view();
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

} // namespace faultline::importers
