// SPDX-License-Identifier: Apache-2.0
// logcli --output=jsonl, read with simdjson: one {"labels", "line", "timestamp"} object per line.
#include "importers/loki/loki_parsers.h"
#include "importers/support/json_support.h"

#include <simdjson.h>

namespace faultline::importers {

using core::kNsPerSec;
using core::Observation;
using core::SourceKind;
using core::TimeQuality;
using simdjson::SUCCESS;
namespace dom = simdjson::dom;
using json::getString;

namespace {

/// A Loki stream's or record's labels as views into `labels` (valid while its document is), then the manifest's
/// common labels (logcli drops the labels shared by every stream), which the record's own override.
void collectLabels(dom::object labels, bool present, const std::map<std::string, std::string>& common, LokiLabels& out)
{
    out.clear();
    if (present)
        for (auto [k, v] : labels) {
            std::string_view val;
            if (v.get(val) == SUCCESS)
                out.emplace_back(k, val);
        }
    for (const auto& [k, v] : common)
        out.emplace_back(k, v);
}

} // namespace

void parseLogcliJsonl(FileParse& fp, const BundleContext& ctx)
{
    dom::parser parser;
    AppLogLineReader app(fp, ctx);
    LokiLabels labels;
    // Loki streams of kernel logs vs job logs: decided by labels (per-line labels, then manifest common labels).
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (line.empty())
            return true;
        if (line.find("Common labels:") != std::string_view::npos && line.front() != '{')
            return true; // logcli's stderr note, captured into the same file
        dom::element doc;
        if (auto err = parser.parse(line.data(), line.size()).get(doc); err != SUCCESS) {
            fp.warn(
                no, off, "json-malformed", "logcli record is not valid JSON (" + json::errorText(err) + "); skipped");
            return true;
        }
        std::string_view text;
        std::string_view ts;
        if (!getString(doc, "line", text)) {
            fp.warn(no, off, "logcli-no-line", "logcli record has no \"line\"; skipped");
            return true;
        }
        dom::object lab;
        const bool present = doc["labels"].get(lab) == SUCCESS || doc["stream"].get(lab) == SUCCESS;
        collectLabels(lab, present, fp.labels, labels);
        std::int64_t fallback = INT64_MIN;
        core::CivilTime t;
        if (getString(doc, "timestamp", ts) && core::parseIsoTime(ts, t) > 0 && t.hasOffset)
            fallback = core::civilAsUtcNs(t) - static_cast<std::int64_t>(t.offsetSeconds) * kNsPerSec;
        const std::string_view stored = fp.arena->store(text);
        const StreamIdentity id = lokiStreamIdentity(labels, ctx);
        if (lokiKernelStream(labels)) {
            Observation& o = fp.add(stored, no, off, line.size());
            o.kind = SourceKind::Kernel;
            if (!id.node.empty())
                o.node = fp.internHost(id.node);
            o.timeNs = fallback;
            o.quality = fallback == INT64_MIN ? TimeQuality::Missing : TimeQuality::Exact;
        } else {
            app.read(stored, no, off, line.size(), fallback, id);
        }
        return true;
    });
    app.flush();
}

} // namespace faultline::importers
