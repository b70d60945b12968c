// SPDX-License-Identifier: Apache-2.0
#include "core/time/civil_time.h"

#include <QTest>

using namespace faultline::core;

class TstCivilTime : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parseIso_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("utc");
        QTest::addColumn<qlonglong>("precision");
        QTest::addRow("zulu-ns") << "2026-11-02T10:15:01.123456789Z"
                                 << "2026-11-02T10:15:01.123456789Z" << 1LL;
        QTest::addRow("offset") << "2026-11-02T11:15:44.206+01:00"
                                << "2026-11-02T10:15:44.206Z" << 1000000LL;
        QTest::addRow("offset-nocolon") << "2026-11-02T10:15:01+0000"
                                        << "2026-11-02T10:15:01Z" << 1000000000LL;
        QTest::addRow("dmesg-iso-comma") << "2026-11-02T10:15:01,123456+00:00"
                                         << "2026-11-02T10:15:01.123456Z" << 1000LL;
        QTest::addRow("trimmed-go") << "2026-11-02T10:15:06.2298Z"
                                    << "2026-11-02T10:15:06.229800Z" << 100000LL;
    }
    void parseIso()
    {
        QFETCH(QString, text);
        QFETCH(QString, utc);
        QFETCH(qlonglong, precision);
        CivilTime t;
        const std::string s = text.toStdString();
        QCOMPARE(parseIsoTime(s, t), s.size());
        QVERIFY(t.hasOffset);
        const auto ns = civilAsUtcNs(t) - static_cast<std::int64_t>(t.offsetSeconds) * kNsPerSec;
        QCOMPARE(QString::fromStdString(formatUtc(ns)), utc);
        QCOMPARE(static_cast<qlonglong>(t.precisionNs()), precision);
    }
    void rejectsGarbage()
    {
        CivilTime t;
        QCOMPARE(parseIsoTime("2026-13-02T10:15:01Z", t), std::size_t(0));
        QCOMPARE(parseIsoTime("Nov 02 10:15:01", t), std::size_t(0));
        QCOMPARE(parseIsoTime("2026-11-02", t), std::size_t(0));
    }
    void zones()
    {
        CivilTime t;
        QVERIFY(parseIsoTime("2026-11-02T11:15:44.206", t) > 0);
        QVERIFY(!t.hasOffset);
        const auto berlin = ZoneResolver::toUtc(t, "Europe/Berlin");
        QCOMPARE(berlin.status, ZoneResolver::Status::Ok);
        QCOMPARE(formatUtc(berlin.utcNs), std::string("2026-11-02T10:15:44.206Z"));
        // Summer time: UTC+2.
        QVERIFY(parseIsoTime("2026-07-01T12:00:00", t) > 0);
        QCOMPARE(formatUtc(ZoneResolver::toUtc(t, "Europe/Berlin").utcNs), std::string("2026-07-01T10:00:00Z"));
        // DST gap (02:30 on 2026-03-29 does not exist in Berlin) and overlap are reported.
        QVERIFY(parseIsoTime("2026-03-29T02:30:00", t) > 0);
        QCOMPARE(ZoneResolver::toUtc(t, "Europe/Berlin").status, ZoneResolver::Status::Nonexistent);
        QVERIFY(parseIsoTime("2026-10-25T02:30:00", t) > 0);
        QCOMPARE(ZoneResolver::toUtc(t, "Europe/Berlin").status, ZoneResolver::Status::Ambiguous);
        QCOMPARE(ZoneResolver::toUtc(t, "Mars/Olympus").status, ZoneResolver::Status::UnknownZone);
        QCOMPARE(formatUtc(ZoneResolver::toUtc(t, "-05:00").utcNs), std::string("2026-10-25T07:30:00Z"));
    }
    void durations()
    {
        QCOMPARE(parseDurationNs("600s").value(), 600 * kNsPerSec);
        QCOMPARE(parseDurationNs("15m").value(), 900 * kNsPerSec);
        QCOMPARE(parseDurationNs("250ms").value(), 250 * kNsPerMs);
        QVERIFY(!parseDurationNs("10 minutes"));
        QVERIFY(!parseDurationNs("-5s"));
    }
    void years()
    {
        QCOMPARE(yearOfUtcNs(0), 1970);
        QCOMPARE(yearOfUtcNs(1793614501123456000), 2026);
        QCOMPARE(yearOfUtcNs(1767225599 * kNsPerSec), 2025); // 2025-12-31T23:59:59Z
        QCOMPARE(yearOfUtcNs(1767225600 * kNsPerSec), 2026); // 2026-01-01T00:00:00Z
        QCOMPARE(yearOfUtcNs(-1), 1969);
    }
    void deltas()
    {
        QCOMPARE(formatDelta(600418 * kNsPerMs), std::string("+10m00s"));
        QCOMPARE(formatDelta(-31 * kNsPerSec), std::string("-31.0s"));
        QCOMPARE(formatDelta(8 * kNsPerMs), std::string("+8ms"));
    }
};

QTEST_GUILESS_MAIN(TstCivilTime)
#include "tst_civil_time.moc"
