// SPDX-License-Identifier: Apache-2.0
// Fabric Manager: "[Nov 02 2026 10:15:01] [ERROR] [tid 2231] message", local time, 1 s.
#include "importers/fabric_manager/fabric_manager_parsers.h"
#include "importers/support/log_time.h"
#include "importers/support/text_scan.h"

namespace faultline::importers {

using core::CivilTime;
using core::Observation;

void parseFabricManager(FileParse& fp, const BundleContext&)
{
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (trim(line).empty())
            return true;
        CivilTime t;
        std::size_t used = 0;
        if (line.size() > 2 && line[0] == '[')
            used = parseMonthDayTime(line.substr(1), true, 0, t);
        if (used == 0 || line[1 + used] != ']') {
            fp.add(line, no, off, line.size());
            return true;
        }
        std::string_view rest = trim(line.substr(2 + used));
        // Keep "[LEVEL]" in the text, drop "[tid N]".
        std::string text;
        if (!rest.empty() && rest[0] == '[') {
            const auto close = rest.find(']');
            text = std::string(rest.substr(0, close + 1));
            rest = trim(rest.substr(close + 1));
            if (rest.substr(0, 5) == "[tid ") {
                const auto c2 = rest.find(']');
                rest = trim(rest.substr(c2 + 1));
            }
            text += ' ';
        }
        text += rest;
        Observation& o = fp.add(fp.arena->store(text), no, off, line.size());
        fp.resolve(t, o);
        return true;
    });
}

} // namespace faultline::importers
