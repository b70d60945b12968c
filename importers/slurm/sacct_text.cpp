// SPDX-License-Identifier: Apache-2.0
// sacct as people save it: --parsable2 / -P (a header of field names, '|' separated rows, no quoting) and the default
// table (a header, a rule line of dashes that gives the columns' widths, fixed-width rows).
#include "importers/slurm/slurm_parsers.h"
#include "importers/support/text_scan.h"

#include <algorithm>

namespace faultline::importers {

using core::CivilTime;
using core::Observation;

namespace {

/// One sacct row as a record "sacct JobID=... <the other fields in header order>", whatever the --format order, so
/// rules can anchor on the job id; the job (allocation) row also states the workload's scope. Returns whether this
/// row did.
bool addSacctRow(FileParse& fp, const BundleContext& ctx, const std::vector<std::string>& header,
    const std::vector<std::string_view>& cols, std::uint64_t no, std::uint64_t off, std::size_t length,
    std::string& bestJob)
{
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
    Observation& o = fp.add(fp.arena->store(text), no, off, length);
    const std::string& when = !row["End"].empty() && row["End"] != "Unknown" ? row["End"] : row["Start"];
    CivilTime t;
    if (!when.empty() && core::parseIsoTime(when, t) == when.size())
        fp.resolve(t, o);
    // The job (allocation) row: JobID without a step suffix.
    const std::string& id = row["JobID"];
    if (id.empty() || id.find('.') != std::string::npos || !(ctx.jobId.empty() || id == ctx.jobId || bestJob.empty()))
        return false;
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
    return true;
}

/// The column spans [begin, end) of sacct's rule line under its header ("------------ ---------- ..."); empty when
/// `line` is not one (anything but dashes and spaces, or fewer than two columns).
std::vector<std::pair<std::size_t, std::size_t>> ruleSpans(std::string_view line)
{
    std::vector<std::pair<std::size_t, std::size_t>> spans;
    std::size_t i = 0;
    while (i < line.size()) {
        if (line[i] == ' ') {
            ++i;
            continue;
        }
        if (line[i] != '-')
            return {};
        const std::size_t b = i;
        while (i < line.size() && line[i] == '-')
            ++i;
        spans.emplace_back(b, i);
    }
    if (spans.size() < 2)
        return {};
    return spans;
}

} // namespace

bool sacctTableHeader(std::string_view header, std::string_view rule)
{
    if (ruleSpans(rule).empty())
        return false;
    std::size_t p = 0;
    while (p < header.size()) {
        while (p < header.size() && header[p] == ' ')
            ++p;
        const std::size_t b = p;
        while (p < header.size() && header[p] != ' ')
            ++p;
        if (header.substr(b, p - b) == "JobID")
            return true;
    }
    return false;
}

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
        addSacctRow(fp, ctx, header, cols, no, off, line.size(), bestJob);
        return true;
    });
}

void parseSacctTable(FileParse& fp, const BundleContext& ctx)
{
    // sacct's default output: a header of column names, a rule line of dashes whose runs are the columns' widths,
    // then one row per job and step with each value inside its column (sacct cuts a longer value and ends it with
    // '+'). A pasted command line or blank lines may come first.
    std::string_view headerLine;
    std::vector<std::string> header;
    std::vector<std::pair<std::size_t, std::size_t>> spans;
    std::string bestJob;
    std::vector<std::string_view> cols;
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (trim(line).empty())
            return true;
        if (spans.empty()) {
            if (!headerLine.empty()) {
                spans = ruleSpans(line);
                if (!spans.empty()) {
                    for (std::size_t i = 0; i < spans.size(); ++i) {
                        const std::size_t b = std::min(spans[i].first, headerLine.size());
                        const std::size_t e = i + 1 < spans.size() ? spans[i + 1].first : headerLine.size();
                        header.emplace_back(trim(headerLine.substr(b, std::max(e, b) - b)));
                    }
                    if (std::find(header.begin(), header.end(), "JobID") != header.end())
                        return true;
                    spans.clear();
                    header.clear();
                }
            }
            headerLine = line; // the header is the line right above the rule line
            return true;
        }
        if (line.size() > spans.back().second && line[spans.back().second] != ' ') {
            fp.warn(no, off, "sacct-table-misaligned",
                "row runs past the last column of the header's rule line (another sacct --format?); its last value "
                "is read to the end of the line");
        }
        cols.clear();
        for (std::size_t i = 0; i < spans.size(); ++i) {
            const std::size_t b = std::min(spans[i].first, line.size());
            const std::size_t e = i + 1 < spans.size() ? std::min(spans[i + 1].first, line.size()) : line.size();
            cols.push_back(trim(line.substr(b, e - b)));
        }
        // sacct cuts a value wider than its column and ends it with '+': a cut NodeList names no hosts.
        if (addSacctRow(fp, ctx, header, cols, no, off, line.size(), bestJob) && !fp.facts.nodes.empty()
            && fp.facts.nodes.back() == '+') {
            fp.warn(no, off, "sacct-value-cut",
                "sacct cut the job's NodeList to its column width ('" + fp.facts.nodes
                    + "'): its nodes are not known from this file (sacct --format=NodeList%60 prints it whole)");
            fp.facts.nodes.clear();
        }
        return true;
    });
    if (spans.empty())
        fp.warn(
            1, 0, "sacct-no-header", "no sacct header with a JobID column over a rule line of dashes; file skipped");
}

} // namespace faultline::importers
