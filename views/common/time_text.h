// SPDX-License-Identifier: Apache-2.0
// Times as the workbench's panes write them (UTC, nanoseconds since the epoch), shared so that the timeline, the
// charts and the tables print a time the same way.
#pragma once

#include <QString>
#include <QtGlobal>

namespace faultline::views {

inline constexpr qint64 kNsPerSec = 1'000'000'000;
inline constexpr qint64 kNsPerMin = 60 * kNsPerSec;

/// Division rounding toward minus infinity (times before the epoch, negative offsets).
qint64 floorDiv(qint64 a, qint64 b);
/// "10:15:01" or, with `digits` (1 to 9) of fraction, "10:15:01.123" (UTC).
QString utcClock(qint64 ns, int digits);
/// "2026-11-02" (UTC).
QString utcDate(qint64 ns);
/// An axis tick's label for ticks `step` apart: a date, "HH:mm", or a clock with as many digits as the step needs.
QString tickLabel(qint64 ns, qint64 step);

} // namespace faultline::views
