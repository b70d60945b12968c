// SPDX-License-Identifier: Apache-2.0
// sacct --parsable2 / -P: header of field names, '|' separated rows, no quoting.
#include "importers/slurm/slurm_parsers.h"
#include "importers/support/text_scan.h"

#include <algorithm>

namespace faultline::importers {

using core::CivilTime;
using core::Observation;

void parseSacctParsable(FileParse& fp, const BundleContext& ctx)
{
    std::vector<std::string> header;
    std::string bestJob;
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (trim(line).empty())
            return true;
        std::vector<std::string_view> cols;
        std::size_t start = 0;
        while (true) {
            const auto bar = line.find('|', start);
            cols.push_back(line.substr(start, bar == std::string_view::npos ? std::string_view::npos : bar - start));
            if (bar == std::string_view::npos)
                break;
            start = bar + 1;
        }
        if (header.empty()) {
            if (std::find(cols.begin(), cols.end(), "JobID") == cols.end()) {
                fp.warn(no, off, "sacct-no-header", "first line is not a sacct header (no JobID column); file skipped");
                return false;
            }
            for (auto c : cols)
                header.emplace_back(c);
            if (!header.empty() && header.back().empty()) // sacct -p: trailing '|'
                header.pop_back();
            return true;
        }
        if (!cols.empty() && cols.back().empty() && cols.size() == header.size() + 1)
            cols.pop_back();
        if (cols.size() != header.size()) {
            fp.warn(no, off, "sacct-columns",
                "row has " + std::to_string(cols.size()) + " fields, header has " + std::to_string(header.size())
                    + " (a '|' inside a value?); row kept as text");
        }
        // The record reads "sacct JobID=... <the other fields in header order>" whatever the --format order, so
        // rules can anchor on the job id.
        std::map<std::string, std::string> row;
        for (std::size_t i = 0; i < cols.size() && i < header.size(); ++i)
            row[header[i]] = std::string(cols[i]);
        std::string text = "sacct JobID=" + row["JobID"];
        for (std::size_t i = 0; i < cols.size() && i < header.size(); ++i) {
            if (header[i] == "JobID")
                continue;
            text += ' ';
            text += header[i];
            text += '=';
            text += cols[i];
        }
        Observation& o = fp.add(fp.arena->store(text), no, off, line.size());
        const std::string& when = !row["End"].empty() && row["End"] != "Unknown" ? row["End"] : row["Start"];
        CivilTime t;
        if (!when.empty() && core::parseIsoTime(when, t) == when.size())
            fp.resolve(t, o);
        // The job (allocation) row: JobID without a step suffix.
        const std::string& id = row["JobID"];
        if (!id.empty() && id.find('.') == std::string::npos
            && (ctx.jobId.empty() || id == ctx.jobId || bestJob.empty())) {
            bestJob = id;
            fp.facts.scheduler = "slurm";
            fp.facts.jobId = id;
            fp.facts.jobName = row["JobName"];
            fp.facts.state = row["State"];
            fp.facts.nodes = row["NodeList"];
            fp.facts.origin = fp.source.path + ":" + std::to_string(no);
            CivilTime s;
            Observation tmp;
            if (core::parseIsoTime(row["Start"], s) == row["Start"].size() && !row["Start"].empty()) {
                fp.resolve(s, tmp);
                fp.facts.startNs = tmp.timeNs;
            }
            CivilTime e;
            if (core::parseIsoTime(row["End"], e) == row["End"].size() && !row["End"].empty()) {
                fp.resolve(e, tmp);
                fp.facts.endNs = tmp.timeNs + tmp.precisionNs;
            }
        }
        return true;
    });
}

} // namespace faultline::importers
