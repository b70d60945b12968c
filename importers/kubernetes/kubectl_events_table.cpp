// SPDX-License-Identifier: Apache-2.0
// kubectl get events [-A] [-o wide], kubectl events [-A]; also kubectl < 1.14's LASTSEEN FIRSTSEEN COUNT NAME KIND
// ... layout. Columns come from the header, so every layout kubectl printed reads the same way.
#include "importers/kubernetes/kubectl_text.h"
#include "importers/kubernetes/kubernetes_parsers.h"
#include "importers/support/text_scan.h"

#include <algorithm>
#include <charconv>

namespace faultline::importers {

using namespace kubectl; // the table and age readers both kubectl printers share

namespace {

/// A line or a pasted shell command ("$ kubectl get events") before the output proper.
bool preambleLine(std::string_view l)
{
    const std::string_view t = trim(l);
    return t.empty() || startsWith(t, "$ ") || startsWith(t, "# ") || startsWith(t, "kubectl ") || startsWith(t, "% ");
}

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

/// Object of a table row: "pod/x" → ("Pod", "x"); "node" → ("Node", "").
std::pair<std::string, std::string_view> splitObject(std::string_view object)
{
    const auto slash = object.find('/');
    if (slash == std::string_view::npos)
        return { apiKind(object), std::string_view() };
    return { apiKind(object.substr(0, slash)), object.substr(slash + 1) };
}

} // namespace

void parseKubectlEventsTable(FileParse& fp, const BundleContext& ctx)
{
    const std::int64_t ref = referenceTime(ctx);
    std::vector<Column> cols;
    std::vector<std::string_view> cells;
    bool noted = false;
    int iNs = -1, iLast = -1, iFirst = -1, iType = -1, iReason = -1, iObject = -1, iKind = -1, iName = -1, iSource = -1,
        iMessage = -1, iCount = -1, iSub = -1;
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (trim(line).empty())
            return true;
        const std::string_view t = trim(line);
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
            r.message = k + 3 < toks.size() ? trim(line.substr(toks[k + 3].second)) : std::string_view();
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

} // namespace faultline::importers
