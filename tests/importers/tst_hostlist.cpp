// SPDX-License-Identifier: Apache-2.0
#include "importers/support/hostlist.h"

#include <QTest>

using namespace faultline::importers;

class TstHostlist : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void expands_data()
    {
        QTest::addColumn<QString>("expr");
        QTest::addColumn<QStringList>("hosts");
        QTest::addRow("single") << "node-02" << QStringList { "node-02" };
        QTest::addRow("range") << "node-[01-04]" << QStringList { "node-01", "node-02", "node-03", "node-04" };
        QTest::addRow("mixed") << "node[01-02,07],gpu-a[1-2]"
                               << QStringList { "node01", "node02", "node07", "gpu-a1", "gpu-a2" };
        QTest::addRow("width") << "n[8-11]" << QStringList { "n8", "n9", "n10", "n11" };
        QTest::addRow("two-brackets") << "r[1-2]n[1-2]" << QStringList { "r1n1", "r1n2", "r2n1", "r2n2" };
    }
    void expands()
    {
        QFETCH(QString, expr);
        QFETCH(QStringList, hosts);
        auto out = expandHostlist(expr.toStdString());
        QVERIFY(out);
        QStringList got;
        for (const auto& h : *out)
            got << QString::fromStdString(h);
        QCOMPARE(got, hosts);
    }
    void rejects()
    {
        QVERIFY(!expandHostlist("node[01-04"));
        QVERIFY(!expandHostlist("node]1["));
        QVERIFY(!expandHostlist("node[4-1]"));
        QVERIFY(!expandHostlist("node[1-99999999]", 1000));
    }
};

QTEST_GUILESS_MAIN(TstHostlist)
#include "tst_hostlist.moc"
