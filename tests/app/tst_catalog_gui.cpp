// SPDX-License-Identifier: Apache-2.0
// The workbench's rule catalog: loaded off the UI thread at start and on Rules ▸ Reload Catalog only; the Rule Packs
// setting's directories are layered on it and named in the status bar; a verdict is made with the catalog in use; a
// reload that fails shows its located errors and leaves the catalog in use as it was; the Rule Packs dialog edits the
// list in order.
#include "app/gui/catalog_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/rule_packs_dialog.h"
#include "tests/common/test_helpers.h"
#include "views/help/help_dialogs.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTest>
#include <QTextBrowser>

using namespace faultline;

namespace {

QString source(const char* rel)
{
    return QString::fromStdString(tests::sourcePath(rel));
}

QString statusText(const app::MainWindow& window)
{
    QString status;
    for (auto* l : window.statusBar()->findChildren<QLabel*>())
        status += l->text() + QLatin1Char('\n');
    return status;
}

QString causeLabel(const views::AnalysisResult& r)
{
    if (!r.verdict || !r.verdict->hasCause)
        return QStringLiteral("(no cause)");
    return QString::fromStdString(r.verdict->events[r.verdict->cause].label);
}

} // namespace

class TstCatalogGui : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationDomain(QStringLiteral("faultline.dev"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_catalog_gui"));
    }

    void init() { QSettings().clear(); }

    void theCatalogLoadsOffTheUiThreadAtStart()
    {
        app::MainWindow window(source("rules"), source("resources/samples/bundle-48213"));
        QSignalSpy loaded(&window, &app::MainWindow::catalogLoaded);
        // The constructor returned with the load still running: the status says so until it is done.
        QVERIFY(window.catalogController()->isLoading());
        VERIFY_CONTAINS(window.catalogStatus()->text(), QStringLiteral("Loading rules"));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 30000);
        QCOMPARE(loaded.takeFirst().at(0).toBool(), true);
        VERIFY_CONTAINS(window.catalogStatus()->text(),
            QString::fromStdString(tests::bundledCatalog()->contentHash().substr(0, 12)));
        VERIFY_LACKS(window.catalogStatus()->text(), QStringLiteral("packs:"));
    }

    void rulePacksAreLayeredAndNamed()
    {
        QSettings().setValue(
            QStringLiteral("rules/packDirs"), QStringList { source("tests/data/rule-packs/nvlink-noise") });
        app::MainWindow window(source("rules"), source("resources/samples/bundle-48213"));
        QSignalSpy shown(&window, &app::MainWindow::resultShown);
        // Opened before the catalog has loaded: the analysis waits for it in its worker.
        window.openBundle(source("resources/samples/bundle-48213"));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        VERIFY_CONTAINS(statusText(window), QStringLiteral("+ packs: nvlink-noise"));
        VERIFY_CONTAINS(window.catalogStatus()->text(), QStringLiteral("+ packs: nvlink-noise"));
        QTRY_VERIFY_WITH_TIMEOUT(
            window.catalogStatus()->toolTip().contains(QStringLiteral("0 added, 1 overridden, 0 disabled")), 30000);
        // The pack turns the Xid 149 into context: another cause leads.
        VERIFY_LACKS(causeLabel(window.result()), QStringLiteral("Xid 149"));
    }

    void aReloadIsExplicitAndAFailedOneKeepsTheCatalogInUse()
    {
        app::MainWindow window(source("rules"), source("resources/samples/bundle-48213"));
        QSignalSpy loaded(&window, &app::MainWindow::catalogLoaded);
        QSignalSpy shown(&window, &app::MainWindow::resultShown);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 30000);
        const QString before = window.catalogStatus()->text();
        // A pack that conflicts with the bundled catalog, then Reload: the errors show at once, located, and the
        // catalog in use stays the bundled one.
        window.catalogController()->setPackDirs({ source("tests/data/rule-packs/conflict") });
        window.reloadCatalog();
        QVERIFY(window.catalogController()->isLoading());
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 30000);
        QCOMPARE(loaded.at(1).at(0).toBool(), false);
        auto* dialog = window.findChild<views::TextDialog*>(QStringLiteral("catalogDiagnosticsDialog"));
        QVERIFY(dialog);
        const QString errors = dialog->browser()->toPlainText();
        VERIFY_CONTAINS(errors, QStringLiteral("conflict/packs/site.yaml:4:9: error: rule 'gpu.xid.nvlink5'"));
        VERIFY_CONTAINS(errors, QStringLiteral("[id-conflict]"));
        VERIFY_CONTAINS(window.catalogStatus()->text(), QStringLiteral("reload failed: 1 error(s)"));
        VERIFY_CONTAINS(window.catalogStatus()->text(), before.left(before.indexOf(QLatin1Char(')')) + 1));
        window.openBundle(source("resources/samples/bundle-48213"));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        VERIFY_CONTAINS(causeLabel(window.result()), QStringLiteral("Xid 149"));
        // The pack fixed (the overriding one), reloaded: later analyses use it.
        window.catalogController()->setPackDirs({ source("tests/data/rule-packs/nvlink-noise") });
        window.reloadCatalog();
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 3, 30000);
        QCOMPARE(loaded.at(2).at(0).toBool(), true);
        window.openBundle(source("resources/samples/bundle-48213"));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 2, 30000);
        VERIFY_LACKS(causeLabel(window.result()), QStringLiteral("Xid 149"));
        VERIFY_CONTAINS(statusText(window), QStringLiteral("+ packs: nvlink-noise"));
    }

    void aBrokenCatalogAtStartFailsAnalysesWithItsErrors()
    {
        QTemporaryDir dir;
        tests::writeFiles(dir, { { "catalog.yaml", "catalog: t\nversion: 1\n" }, { "packs/p.yaml", "pack: [x\n" } });
        app::MainWindow window(dir.path(), source("resources/samples/bundle-48213"));
        QSignalSpy shown(&window, &app::MainWindow::resultShown);
        window.openBundle(source("resources/samples/bundle-48213"));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        QVERIFY(!window.result().verdict);
        VERIFY_CONTAINS(statusText(window), QStringLiteral("has errors"));
        VERIFY_CONTAINS(window.catalogStatus()->text(), QStringLiteral("Rule catalog has 1 error(s)"));
    }

    void theRulePacksDialogKeepsTheOrder()
    {
        app::RulePacksDialog dialog(QStringLiteral("/nonexistent/faultline/rules"), true, { QStringLiteral("/a") });
        dialog.addDirectory(QStringLiteral("/b/"));
        dialog.addDirectory(QStringLiteral("/a"));
        QCOMPARE(dialog.directories(), QStringList({ QStringLiteral("/a"), QStringLiteral("/b") }));
        dialog.list()->setCurrentRow(1);
        QPushButton* up = nullptr;
        for (auto* b : dialog.findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("Move &Up"))
                up = b;
        QVERIFY(up && up->isEnabled());
        up->click();
        QCOMPARE(dialog.directories(), QStringList({ QStringLiteral("/b"), QStringLiteral("/a") }));
        auto* user = dialog.findChild<QCheckBox*>(QStringLiteral("userPacks"));
        VERIFY_CONTAINS(user->text(), QStringLiteral("does not exist yet"));
        QVERIFY(dialog.userPacks());
        user->setChecked(false);
        QVERIFY(!dialog.userPacks());
    }
};

QTEST_MAIN(TstCatalogGui)
#include "tst_catalog_gui.moc"
