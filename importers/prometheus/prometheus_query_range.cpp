// SPDX-License-Identifier: Apache-2.0
// Prometheus query_range / query API responses and the promql-snapshot envelope around one, read
// with simdjson: matrix and vector results become metric series; a failed query's envelope, its warnings and infos
// become located diagnostics.
#include "importers/prometheus/prometheus_parsers.h"
#include "importers/support/json_support.h"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <tuple>

namespace faultline::importers {

using simdjson::SUCCESS;
namespace dom = simdjson::dom;
using json::getString;
using json::LineCounter;

void parsePromql(FileParse& fp, const BundleContext& ctx)
{
    const std::string_view buf = fp.data;
    dom::parser parser;
    dom::element doc;
    if (!json::parseDocument(fp, parser, doc, "Prometheus response"))
        return;
    dom::element response = doc;
    dom::element inner;
    if (doc["response"].get(inner) == SUCCESS)
        response = inner; // promql-snapshot envelope
    LineCounter lines(buf);
    // The API envelope: "status" "error" is a failed query (HTTP 400/422/503) with "errorType" and "error";
    // its "data" may still hold what was collected. "warnings" (and Prometheus 3 "infos") accompany an answer,
    // even a successful one: each is kept as a located diagnostic.
    std::string_view status;
    const bool failed = getString(response, "status", status) && status != "success";
    if (failed) {
        const std::string_view errorType = json::stringAt(response, "errorType");
        const std::string_view error = json::stringAt(response, "error");
        fp.source.status = core::CoverageStatus::Error;
        fp.warn(1, 0, "prom-status",
            "the Prometheus query failed (status '" + std::string(status) + "'"
                + (errorType.empty() ? std::string() : ", errorType " + std::string(errorType)) + ")"
                + (error.empty() ? std::string() : ": " + std::string(error)));
    }
    for (const auto& [key, code, severity] : { std::tuple { "warnings", "prom-warning", core::Severity::Warning },
             std::tuple { "infos", "prom-info", core::Severity::Info } }) {
        dom::array notes;
        if (response[key].get(notes) != SUCCESS)
            continue;
        const std::string quotedKey = "\"" + std::string(key) + "\"";
        std::size_t from = buf.rfind(quotedKey);
        from = from == std::string_view::npos ? 0 : from;
        for (dom::element n : notes) {
            std::string_view text;
            if (n.get(text) != SUCCESS)
                continue;
            // Located at the warning's own text (its first characters, before any JSON escape).
            const std::string_view head = text.substr(0, std::min(text.find_first_of("\"\\/<>&"), std::size_t(32)));
            std::size_t at = head.empty() ? std::string_view::npos : buf.find(head, from);
            if (at == std::string_view::npos)
                at = from;
            else
                from = at + head.size();
            fp.note(lines.lineAt(at), at, severity, code,
                std::string(severity == core::Severity::Info ? "Prometheus info" : "Prometheus warning") + ": "
                    + std::string(text));
        }
    }
    dom::array result;
    std::string_view type;
    dom::element data;
    if (response["data"].get(data) == SUCCESS)
        getString(data, "resultType", type);
    if (response["data"]["result"].get(result) != SUCCESS) {
        fp.source.status = core::CoverageStatus::Error;
        if (!failed) // a failed query's answer need not carry data: prom-status said why there is none
            fp.warn(1, 0, "prom-shape", "no data.result array in the Prometheus response");
        return;
    }
    std::size_t searchFrom = 0;
    for (dom::element series : result) {
        if (!series.is_object())
            continue; // a scalar or string result: no series to attribute (prom-type says so below)
        core::MetricSeries ms;
        dom::object metric;
        if (series["metric"].get(metric) == SUCCESS)
            for (auto [k, v] : metric) {
                std::string_view val;
                if (v.get(val) == SUCCESS)
                    ms.labels.emplace_back(std::string(k), std::string(val));
            }
        identifyMetric(ms, fp, ctx);
        const std::size_t at = buf.find("\"metric\"", searchFrom);
        if (at != std::string_view::npos)
            searchFrom = at + 8;
        ms.where.line = lines.lineAt(at == std::string_view::npos ? 0 : at);
        ms.where.byteOffset = at == std::string_view::npos ? 0 : at;
        auto addSample = [&](dom::element pairEl) {
            dom::array pair;
            if (pairEl.get(pair) != SUCCESS)
                return;
            double t = 0;
            std::string_view vs;
            if (pair.at(0).get(t) != SUCCESS) {
                std::int64_t ti = 0;
                if (pair.at(0).get(ti) != SUCCESS)
                    return;
                t = static_cast<double>(ti);
            }
            if (pair.at(1).get(vs) != SUCCESS)
                return;
            double v = 0;
            if (vs == "NaN")
                v = std::nan("");
            else if (vs == "+Inf")
                v = HUGE_VAL;
            else if (vs == "-Inf")
                v = -HUGE_VAL;
            else if (std::from_chars(vs.data(), vs.data() + vs.size(), v).ec != std::errc())
                return;
            // Seconds with ms fraction → ns, rounded to ms to avoid double noise.
            const auto ms_ = static_cast<std::int64_t>(std::llround(t * 1000.0));
            ms.samples.emplace_back(ms_ * 1000000, v);
        };
        dom::array values;
        if (series["values"].get(values) == SUCCESS)
            for (dom::element p : values)
                addSample(p);
        else if (dom::element value; series["value"].get(value) == SUCCESS)
            addSample(value);
        fp.source.records += ms.samples.size();
        if (!ms.samples.empty()) {
            fp.source.firstTimeNs = fp.source.firstTimeNs == INT64_MIN
                ? ms.samples.front().first
                : std::min(fp.source.firstTimeNs, ms.samples.front().first);
            fp.source.lastTimeNs = std::max(fp.source.lastTimeNs, ms.samples.back().first);
        }
        fp.metrics.push_back(std::move(ms));
    }
    if (type != "matrix" && type != "vector")
        fp.warn(1, 0, "prom-type", "resultType '" + std::string(type) + "' is not matrix or vector");
}

} // namespace faultline::importers
