// SPDX-License-Identifier: Apache-2.0
// Application output read line by line: a job's log (its ranks' stdout and stderr, through AppLogLineReader), and
// text of no known format (each line a record, timed when it starts with an ISO or syslog-style stamp).
#include "importers/application/app_log_line_reader.h"
#include "importers/application/application_parsers.h"
#include "importers/support/log_time.h"
#include "importers/support/text_scan.h"

namespace faultline::importers {

using core::CivilTime;
using core::Observation;

void parseJobLog(FileParse& fp, const BundleContext& ctx)
{
    AppLogLineReader reader(fp, ctx);
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (trim(line).empty())
            return true;
        reader.read(line, no, off, line.size());
        return true;
    });
    reader.flush();
}

void parseGenericText(FileParse& fp, const BundleContext& ctx)
{
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (trim(line).empty())
            return true;
        CivilTime t;
        std::size_t used = core::parseIsoTime(line, t);
        if (used == 0)
            used = parseMonthDayTime(line, false, ctx.referenceYear, t);
        Observation& o = fp.add(used ? trim(line.substr(used)) : line, no, off, line.size());
        if (used)
            fp.resolve(t, o);
        return true;
    });
}

} // namespace faultline::importers
