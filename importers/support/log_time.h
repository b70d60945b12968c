// SPDX-License-Identifier: Apache-2.0
// Stamps without a zone (and some without a year) that the logs of several source families write: the month-day
// stamps of syslog, dmesg -T and Fabric Manager, and glog/klog's "MMDD HH:MM:SS.frac".
#pragma once

#include "core/time/civil_time.h"

#include <cstddef>
#include <string_view>

namespace faultline::importers {

/// "Nov 02 2026 10:15:01" (`withYear`: Fabric Manager) or "Nov  2 10:15:01" (syslog, no year: `defaultYear` is
/// used), optionally with a fraction. Returns the bytes used, 0 when `s` does not start with one.
std::size_t parseMonthDayTime(std::string_view s, bool withYear, int defaultYear, core::CivilTime& t);

/// glog/klog header time "1102 10:15:06.211734912" (MMDD HH:MM:SS.frac) read in `year`. Returns the bytes used, 0
/// when `s` does not start with one.
std::size_t parseGlogTime(std::string_view s, int year, core::CivilTime& t);

} // namespace faultline::importers
