// SPDX-License-Identifier: Apache-2.0
#include "views/common/time_text.h"

#include <QDateTime>

namespace faultline::views {

qint64 floorDiv(qint64 a, qint64 b)
{
    qint64 q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0)))
        --q;
    return q;
}

QString utcClock(qint64 ns, int digits)
{
    const qint64 sec = floorDiv(ns, kNsPerSec);
    QString s = QDateTime::fromSecsSinceEpoch(sec, Qt::UTC).toString(QStringLiteral("HH:mm:ss"));
    if (digits > 0)
        s += QLatin1Char('.') + QStringLiteral("%1").arg(ns - sec * kNsPerSec, 9, 10, QLatin1Char('0')).left(digits);
    return s;
}

QString utcDate(qint64 ns)
{
    return QDateTime::fromSecsSinceEpoch(floorDiv(ns, kNsPerSec), Qt::UTC).toString(QStringLiteral("yyyy-MM-dd"));
}

QString tickLabel(qint64 ns, qint64 step)
{
    const QDateTime dt = QDateTime::fromSecsSinceEpoch(floorDiv(ns, kNsPerSec), Qt::UTC);
    if (step >= 24 * 60 * kNsPerMin)
        return dt.toString(QStringLiteral("MM-dd"));
    if (step >= kNsPerMin)
        return dt.toString(QStringLiteral("HH:mm"));
    if (step >= kNsPerSec)
        return utcClock(ns, 0);
    return utcClock(ns, step >= 1'000'000 ? 3 : step >= 1000 ? 6 : 9);
}

} // namespace faultline::views
