// SPDX-License-Identifier: Apache-2.0
// Application output read line by line: a job's log (its ranks' stdout and stderr, through AppLogLineReader), and
// text of no known format (each line a record, timed when it starts with an ISO or syslog-style stamp, and placed on
// its host when a syslog line names one).
#include "importers/application/app_log_line_reader.h"
#include "importers/application/application_parsers.h"
#include "importers/kernel/kernel_parsers.h"
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
        // A syslog line pasted among other text ("Aug 26 14:08:07 gpu-07 kernel: NVRM: ...") names its host and
        // the program that wrote it, as in a syslog file.
        std::string_view host, ident, message;
        const bool syslogLine = used > 0 && splitSyslogRest(line.substr(used), host, ident, message);
        Observation& o = fp.add(syslogLine ? message : used ? trim(line.substr(used)) : line, no, off, line.size());
        if (syslogLine) {
            o.node = fp.internHost(host);
            // Only a program the syslog reader knows gives the record its kind; for any other ident
            // kindForIdentifier answers its default (kernel), and the record keeps the kind of the text it is in.
            if (const core::SourceKind kind = kindForIdentifier(ident);
                ident == "kernel" || kind != core::SourceKind::Kernel)
                o.kind = kind;
        }
        if (used)
            fp.resolve(t, o);
        return true;
    });
}

} // namespace faultline::importers
