// SPDX-License-Identifier: Apache-2.0
// logcli's default ("<time> {labels} <line>", or "<time> <line>" with --no-labels) and raw ("<line>") output.
#include "importers/loki/loki_parsers.h"
#include "importers/support/text_scan.h"

#include <algorithm>

namespace faultline::importers {

using core::CivilTime;
using core::kNsPerSec;
using core::Observation;
using core::SourceKind;

namespace {

/// The pairs of a logcli label set body `k="v", k2="v2"` (Go-quoted values, kept with their escapes).
void goLabels(std::string_view body, LokiLabels& out)
{
    std::size_t p = 0;
    while (p < body.size()) {
        while (p < body.size() && (body[p] == ' ' || body[p] == ','))
            ++p;
        const auto eq = body.find('=', p);
        if (eq == std::string_view::npos || eq + 1 >= body.size() || body[eq + 1] != '"')
            return;
        std::size_t e = eq + 2;
        while (e < body.size() && body[e] != '"')
            e += body[e] == '\\' ? std::size_t(2) : std::size_t(1);
        out.emplace_back(trim(body.substr(p, eq - p)), body.substr(eq + 2, std::min(e, body.size()) - eq - 2));
        p = e + 1;
    }
}

} // namespace

void parseLogcliText(FileParse& fp, const BundleContext& ctx)
{
    AppLogLineReader app(fp, ctx);
    LokiLabels labels;
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (trim(line).empty())
            return true;
        CivilTime t;
        const std::size_t used = core::parseIsoTime(line, t);
        std::int64_t ns = INT64_MIN;
        std::string_view text = line;
        labels.clear();
        if (used > 0 && t.hasOffset && used < line.size() && line[used] == ' ') {
            ns = core::civilAsUtcNs(t) - static_cast<std::int64_t>(t.offsetSeconds) * kNsPerSec;
            text = line.substr(used + 1);
            if (!text.empty() && text.front() == '{') {
                // Balanced {...} with Go-quoted values.
                std::size_t k = 1;
                bool inQuote = false;
                for (; k < text.size(); ++k) {
                    if (text[k] == '\\' && inQuote)
                        ++k;
                    else if (text[k] == '"')
                        inQuote = !inQuote;
                    else if (text[k] == '}' && !inQuote)
                        break;
                }
                goLabels(text.substr(1, k == 0 ? 0 : k - 1), labels);
                text = trim(text.substr(std::min(k + 1, text.size())));
            }
        }
        for (const auto& [key, value] : fp.labels) // the manifest's common labels, which logcli left out
            labels.emplace_back(key, value);
        const StreamIdentity id = lokiStreamIdentity(labels, ctx);
        if (lokiKernelStream(labels)) {
            Observation& o = fp.add(text, no, off, line.size());
            o.kind = SourceKind::Kernel;
            if (!id.node.empty())
                o.node = fp.internHost(id.node);
            o.timeNs = ns;
            o.precisionNs = ns == INT64_MIN ? 0 : t.precisionNs();
            o.quality = ns == INT64_MIN ? core::TimeQuality::Missing : core::TimeQuality::Exact;
        } else {
            app.read(text, no, off, line.size(), ns, id);
        }
        return true;
    });
    app.flush();
}

} // namespace faultline::importers
