// SPDX-License-Identifier: Apache-2.0
// Loki query_range API responses, read with simdjson: streams of [ns, line] values, optionally with Loki 3's
// structured metadata, and the error envelope of a failed query.
#include "importers/loki/loki_parsers.h"
#include "importers/support/json_support.h"

#include <simdjson.h>

#include <algorithm>

namespace faultline::importers {

using core::Observation;
using core::SourceKind;
using core::TimeQuality;
using simdjson::SUCCESS;
namespace dom = simdjson::dom;
using json::getString;
using json::LineCounter;

namespace {

/// Restores file order (byte offset) of the observations, keeping the indices that refer to them.
void sortByOffset(FileParse& fp)
{
    std::vector<std::size_t> order(fp.observations.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return fp.observations[a].where.byteOffset < fp.observations[b].where.byteOffset;
    });
    std::vector<std::size_t> newIndex(order.size());
    std::vector<Observation> sorted;
    sorted.reserve(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        newIndex[order[i]] = i;
        sorted.push_back(fp.observations[order[i]]);
    }
    fp.observations = std::move(sorted);
    for (auto& p : fp.pendingPidRank)
        p.first = newIndex[p.first];
    for (auto& p : fp.agentHostNodes)
        p.first = newIndex[p.first];
}

} // namespace

void parseLokiQueryRange(FileParse& fp, const BundleContext& ctx)
{
    const std::string_view buf = fp.data;
    dom::parser parser;
    dom::element doc;
    if (!json::parseDocument(fp, parser, doc, "Loki response"))
        return;
    // Loki's API answers a failed query with the Prometheus-style envelope (status "error", errorType, error).
    std::string_view status;
    if (getString(doc, "status", status) && status != "success") {
        const std::string_view errorType = json::stringAt(doc, "errorType");
        const std::string_view error = json::stringAt(doc, "error");
        fp.source.status = core::CoverageStatus::Error;
        fp.warn(1, 0, "loki-status",
            "the Loki query failed (status '" + std::string(status) + "'"
                + (errorType.empty() ? std::string() : ", errorType " + std::string(errorType)) + ")"
                + (error.empty() ? std::string() : ": " + std::string(error)));
    }
    dom::array result;
    if (doc["data"]["result"].get(result) != SUCCESS) {
        fp.source.status = core::CoverageStatus::Error;
        if (fp.source.warnings.empty() || fp.source.warnings.back().code != "loki-status")
            fp.warn(1, 0, "loki-shape", "no data.result array in the Loki response");
        return;
    }
    AppLogLineReader app(fp, ctx);
    LineCounter lines(buf);
    std::size_t searchFrom = 0;
    LokiLabels view;
    for (dom::element stream : result) {
        std::map<std::string, std::string> labels = fp.labels;
        dom::object lab;
        if (stream["stream"].get(lab) == SUCCESS)
            for (auto [k, v] : lab) {
                std::string_view val;
                if (v.get(val) == SUCCESS)
                    labels[std::string(k)] = std::string(val);
            }
        dom::array values;
        if (stream["values"].get(values) != SUCCESS)
            continue;
        LokiLabels streamView;
        for (const auto& [k, v] : labels)
            streamView.emplace_back(k, v);
        const bool streamKernel = lokiKernelStream(streamView);
        const StreamIdentity streamId = lokiStreamIdentity(streamView, ctx);
        for (dom::element val : values) {
            dom::array pair;
            std::string_view ts;
            std::string_view text;
            if (val.get(pair) != SUCCESS || pair.at(0).get(ts) != SUCCESS || pair.at(1).get(text) != SUCCESS) {
                fp.warn(lines.lineAt(searchFrom), searchFrom, "loki-value",
                    "stream value is not [\"ns\", \"line\"]; skipped");
                continue;
            }
            // Loki 3 with categorize-labels: a third element carries structured metadata and parsed labels,
            // which name the entry's host, pod or rank as stream labels otherwise would.
            bool kernel = streamKernel;
            StreamIdentity id = streamId;
            std::map<std::string, std::string> withMeta;
            dom::object meta;
            if (pair.at(2).get(meta) == SUCCESS) {
                withMeta = labels;
                for (const char* group : { "structuredMetadata", "parsed" }) {
                    dom::object m;
                    if (meta[group].get(m) == SUCCESS)
                        for (auto [k, v] : m) {
                            std::string_view mv;
                            if (v.get(mv) == SUCCESS)
                                withMeta[std::string(k)] = std::string(mv);
                        }
                }
                view.clear();
                for (const auto& [k, v] : withMeta)
                    view.emplace_back(k, v);
                kernel = lokiKernelStream(view);
                id = lokiStreamIdentity(view, ctx);
            }
            // Provenance: the value's timestamp string, searched forward in the raw text.
            const std::string needle = "\"" + std::string(ts) + "\"";
            std::size_t at = buf.find(needle, searchFrom);
            if (at == std::string_view::npos)
                at = searchFrom;
            else
                searchFrom = at + needle.size();
            bool ok = false;
            const std::int64_t ns = json::parseInt64(ts, ok);
            const std::string_view stored = fp.arena->store(text);
            if (kernel) {
                Observation& o = fp.add(stored, lines.lineAt(at), at, needle.size() + text.size());
                o.kind = SourceKind::Kernel;
                if (!id.node.empty())
                    o.node = fp.internHost(id.node);
                if (ok) {
                    o.timeNs = ns;
                    o.quality = TimeQuality::Exact;
                }
            } else {
                app.read(stored, lines.lineAt(at), at, needle.size() + text.size(), ok ? ns : INT64_MIN, id);
            }
        }
    }
    // Streams come newest-first by default: restore time order within the file.
    sortByOffset(fp);
    app.flush();
}

} // namespace faultline::importers
