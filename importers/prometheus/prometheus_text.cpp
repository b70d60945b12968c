// SPDX-License-Identifier: Apache-2.0
// Prometheus text exposition: "name{labels} value [timestamp_ms]". A scrape file without timestamps takes its
// time from its name ("..._20261102T101515Z.prom") or is flagged.
#include "importers/prometheus/prometheus_parsers.h"
#include "importers/support/text_scan.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace faultline::importers {

using core::CivilTime;
using core::kNsPerMs;

void parsePromText(FileParse& fp, const BundleContext& ctx)
{
    std::int64_t fileTime = INT64_MIN;
    {
        const std::string& path = fp.source.path;
        for (std::size_t i = 0; i + 16 <= path.size(); ++i)
            if (path[i + 8] == 'T' && path[i + 15] == 'Z'
                && std::all_of(path.begin() + static_cast<std::ptrdiff_t>(i),
                    path.begin() + static_cast<std::ptrdiff_t>(i) + 8, [](char c) { return c >= '0' && c <= '9'; })) {
                const std::string iso = path.substr(i, 4) + "-" + path.substr(i + 4, 2) + "-" + path.substr(i + 6, 2)
                    + "T" + path.substr(i + 9, 2) + ":" + path.substr(i + 11, 2) + ":" + path.substr(i + 13, 2) + "Z";
                CivilTime t;
                if (core::parseIsoTime(iso, t) == iso.size()) {
                    fileTime = core::civilAsUtcNs(t);
                    break;
                }
            }
    }
    std::map<std::string, std::size_t> seriesIndex;
    bool warnedNoTime = false;
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        line = trim(line);
        if (line.empty() || line.front() == '#')
            return true;
        core::MetricSeries ms;
        std::size_t p = 0;
        while (p < line.size() && line[p] != '{' && line[p] != ' ' && line[p] != '\t')
            ++p;
        ms.labels.emplace_back("__name__", std::string(line.substr(0, p)));
        if (p < line.size() && line[p] == '{') {
            ++p;
            while (p < line.size() && line[p] != '}') {
                const auto eq = line.find('=', p);
                if (eq == std::string_view::npos || eq + 1 >= line.size() || line[eq + 1] != '"')
                    break;
                std::string key(trim(line.substr(p, eq - p)));
                std::string value;
                std::size_t q = eq + 2;
                for (; q < line.size() && line[q] != '"'; ++q) {
                    if (line[q] == '\\' && q + 1 < line.size()) {
                        ++q;
                        value += line[q] == 'n' ? '\n' : line[q];
                    } else {
                        value += line[q];
                    }
                }
                ms.labels.emplace_back(std::move(key), std::move(value));
                p = q + 1;
                while (p < line.size() && (line[p] == ',' || line[p] == ' '))
                    ++p;
            }
            if (p >= line.size()) {
                fp.warn(no, off, "prom-malformed", "unterminated label set; sample skipped");
                return true;
            }
            ++p;
        }
        std::string_view rest = trim(line.substr(p));
        const auto sp = rest.find_first_of(" \t");
        const std::string_view valueText = rest.substr(0, sp);
        double value = 0;
        if (valueText == "NaN")
            value = std::nan("");
        else if (valueText == "+Inf")
            value = HUGE_VAL;
        else if (valueText == "-Inf")
            value = -HUGE_VAL;
        else if (std::from_chars(valueText.data(), valueText.data() + valueText.size(), value).ec != std::errc()) {
            fp.warn(
                no, off, "prom-malformed", "value '" + std::string(valueText) + "' is not a number; sample skipped");
            return true;
        }
        std::int64_t when = fileTime;
        if (sp != std::string_view::npos) {
            const std::string_view ts = trim(rest.substr(sp));
            std::int64_t millis = 0;
            if (std::from_chars(ts.data(), ts.data() + ts.size(), millis).ec == std::errc())
                when = millis * kNsPerMs;
        }
        if (when == INT64_MIN) {
            if (!warnedNoTime)
                fp.warn(no, off, "prom-no-time",
                    "samples carry no timestamp and the file name holds no time (…_YYYYMMDDTHHMMSSZ.prom): skipped");
            warnedNoTime = true;
            return true;
        }
        identifyMetric(ms, fp, ctx);
        std::string key = ms.name;
        for (const auto& [k, v] : ms.labels)
            key += "|" + k + "=" + v;
        auto [it, inserted] = seriesIndex.emplace(key, fp.metrics.size());
        if (inserted) {
            ms.where.line = no;
            ms.where.byteOffset = off + fp.baseOffset;
            fp.metrics.push_back(std::move(ms));
        }
        fp.metrics[it->second].samples.emplace_back(when, value);
        ++fp.source.records;
        return true;
    });
    for (auto& m : fp.metrics)
        std::sort(m.samples.begin(), m.samples.end());
}

} // namespace faultline::importers
