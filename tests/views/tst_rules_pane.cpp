// SPDX-License-Identifier: Apache-2.0
// The rules pane over the flagship sample: the model is consistent (QAbstractItemModelTester) and lists every rule
// of the catalog with what it did in the case; the Xid rule made the cause; stepping through a rule's events emits
// them in turn; selecting an event selects its rule; the filter narrows the list. Saves a screenshot,
// tests/screenshots/rules-bundle-48213.png in the build tree.
#include "tests/common/analysis_fixture.h"
#include "views/models/rules_model.h"
#include "views/rules/rules_pane.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

using namespace faultline;

class TstRulesPane : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void modelListsEveryRuleWithWhatItDid()
    {
        views::RulesModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        const auto result = tests::analysedBundle("resources/samples/bundle-48213");
        model.setResult(result);
        const auto& c = *result.catalog;
        const int expected = static_cast<int>(c.extractors().size() + c.metricRules().size() + c.correlators().size()
            + c.filters().size() + c.hypotheses().size() + c.aggregates().size());
        QCOMPARE(model.rowCount(), expected);
        // The Xid rule made the cause, and its row counts every gpu.xid event of the verdict.
        const auto& v = *result.verdict;
        const int row = model.rowOfEvent(static_cast<int>(v.cause));
        QVERIFY(row >= 0);
        const std::string& rule = v.events[v.cause].ruleId;
        QVERIFY2(rule.rfind("gpu.xid", 0) == 0, rule.c_str());
        QCOMPARE(model.index(row, views::RulesModel::IdColumn).data().toString(), QString::fromStdString(rule));
        int xids = 0;
        for (const auto& e : v.events)
            xids += e.ruleId == rule ? 1 : 0;
        QCOMPARE(model.index(row, views::RulesModel::UsedColumn).data().toInt(), xids);
        const auto events = model.index(row, 0).data(views::RulesModel::EventsRole).value<QList<int>>();
        QVERIFY(events.contains(static_cast<int>(v.cause)));
        QVERIFY(model.index(row, views::RulesModel::TestsColumn).data().toInt() > 0);
        // Bundled rules state no version of their own until the workbench saves one.
        QCOMPARE(model.index(row, views::RulesModel::VersionColumn).data().toString(), QStringLiteral("–"));
        QVERIFY(model.index(row, views::RulesModel::OriginColumn)
                    .data()
                    .toString()
                    .startsWith(QLatin1String("packs/gpu.yaml:")));
        // A correlator counts the links it drew.
        int links = 0;
        std::string correlator;
        for (std::size_t i = 0; i < v.events.size() && i < v.linkVia.size(); ++i)
            if (!v.linkVia[i].empty() && (correlator.empty() || v.linkVia[i] == correlator)) {
                correlator = v.linkVia[i];
                ++links;
            }
        QVERIFY(!correlator.empty());
        const int crow = model.rowOfRule(QString::fromStdString(correlator));
        QVERIFY(crow >= 0);
        QCOMPARE(model.index(crow, views::RulesModel::KindColumn).data().toString(), QStringLiteral("correlator"));
        QCOMPARE(model.index(crow, views::RulesModel::UsedColumn).data().toInt(), links);
        model.setResult({});
        QCOMPARE(model.rowCount(), 0);
    }

    void stepsThroughARulesEventsAndFollowsTheSelection()
    {
        views::RulesPane pane;
        pane.resize(900, 500);
        const auto result = tests::analysedBundle("resources/samples/bundle-48213");
        pane.setResult(result);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        const auto& v = *result.verdict;
        QSignalSpy requested(&pane, &views::RulesPane::eventRequested);
        const QString rule = QString::fromStdString(v.events[v.cause].ruleId);
        // Selecting the cause elsewhere selects its rule, without a request.
        pane.selectRuleOfEvent(static_cast<int>(v.cause));
        QCOMPARE(pane.currentRule(), rule);
        QCOMPARE(requested.count(), 0);
        QVERIFY2(pane.details().contains(QLatin1String("NVRM: Xid")), qPrintable(pane.details()));
        // Enter steps through a rule's events in turn and wraps (the rule that made the most events here).
        int busiest = 0;
        auto eventsOf = [&](int r) {
            return pane.model()->index(r, 0).data(views::RulesModel::EventsRole).value<QList<int>>();
        };
        for (int r = 1; r < pane.model()->rowCount(); ++r)
            if (pane.model()->index(r, views::RulesModel::KindColumn).data().toString() == QLatin1String("extractor")
                && eventsOf(r).size() > eventsOf(busiest).size())
                busiest = r;
        const auto events = eventsOf(busiest);
        QVERIFY(events.size() >= 2);
        pane.selectRuleOfEvent(events.front());
        QCOMPARE(pane.currentRule(), pane.model()->index(busiest, 0).data(views::RulesModel::RuleIdRole).toString());
        for (int k = 1; k <= static_cast<int>(events.size()); ++k) {
            QTest::keyClick(pane.view(), Qt::Key_Return);
            QCOMPARE(requested.count(), k);
            QCOMPARE(requested.last().at(0).toInt(), events[k % static_cast<int>(events.size())]);
        }
        // The filter narrows the list; selecting a hidden rule brings it back.
        QTest::keyClicks(pane.filterBox(), QStringLiteral("fabric."));
        const auto* proxy = static_cast<QSortFilterProxyModel*>(pane.view()->model());
        QVERIFY(proxy->rowCount() > 0 && proxy->rowCount() < pane.model()->rowCount());
        for (int r = 0; r < proxy->rowCount(); ++r)
            QVERIFY(proxy->index(r, 0).data().toString().contains(QLatin1String("fabric.")));
        pane.selectRule(rule);
        QCOMPARE(pane.currentRule(), rule);
        QVERIFY(pane.filterBox()->text().isEmpty());
        QDir().mkpath(QStringLiteral("screenshots"));
        QVERIFY(pane.grab().save(QStringLiteral("screenshots/rules-bundle-48213.png")));
    }
};

QTEST_MAIN(TstRulesPane)
#include "tst_rules_pane.moc"
