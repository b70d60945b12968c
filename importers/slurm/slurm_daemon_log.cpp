// SPDX-License-Identifier: Apache-2.0
// slurmctld.log / slurmd.log: "[TS] [prefix] message".
#include "importers/slurm/slurm_parsers.h"
#include "importers/support/text_scan.h"

namespace faultline::importers {

using core::CivilTime;
using core::Observation;

void parseSlurmDaemonLog(FileParse& fp, const BundleContext&)
{
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (trim(line).empty())
            return true;
        CivilTime t;
        std::size_t used = 0;
        if (line.size() > 2 && line[0] == '[')
            used = core::parseIsoTime(line.substr(1), t);
        if (used == 0 || 1 + used >= line.size() || line[1 + used] != ']') {
            Observation& o = fp.add(line, no, off, line.size());
            (void)o;
            fp.warn(no, off, "slurm-no-time", "line does not start with a [timestamp]; time is inferred");
            return true;
        }
        std::string_view msg = line.substr(2 + used);
        if (!msg.empty() && msg.front() == ' ')
            msg.remove_prefix(1);
        Observation& o = fp.add(msg, no, off, line.size());
        fp.resolve(t, o);
        return true;
    });
}

} // namespace faultline::importers
