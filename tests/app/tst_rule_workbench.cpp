// SPDX-License-Identifier: Apache-2.0
// The rule editor in the workbench, offscreen, over the flagship sample: editing a rule and running it on the case
// shows the verdict diff; breaking its regex shows the located error at its line (underlined, in the gutter, in the
// problems list); a rule made from a line of the evidence viewer runs at once and fires on that line; saving writes
// the user's pack with its version and reloads the catalog; the regression over a case library of twelve lists exactly
// the flipped cases, one opening in one click; the must-not-fire sweep lists every case and line where the rule fires,
// a line opening its case at that line. Screenshots under screenshots/ in the build tree.
#include "app/gui/catalog_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/rule_edit_controller.h"
#include "app/gui/rule_workbench.h"
#include "app/usecases/use_cases.h"
#include "tests/common/gui_helpers.h"
#include "tests/common/test_helpers.h"
#include "views/evidence/evidence_viewer.h"
#include "views/rules/library_results.h"
#include "views/rules/rule_editor.h"
#include "views/rules/rules_pane.h"

#include <QCheckBox>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTreeWidget>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace faultline;

namespace {

using tests::screenshot;

QString source(const std::string& rel)
{
    return QString::fromStdString(tests::sourcePath(rel));
}

QString replaced(QString s, const QString& from, const QString& to)
{
    const auto at = s.indexOf(from);
    if (at >= 0)
        s.replace(at, from.size(), to);
    return s;
}

/// The NVLink5 rule made to call its Xids link noise (context, another type, without the XID tables).
QString asNoise(const QString& doc)
{
    QString s = replaced(doc, QStringLiteral("    event: gpu.xid\n    role: root\n"),
        QStringLiteral("    event: site.nvlink-noise\n    role: context\n"));
    return replaced(s,
        QStringLiteral(
            "    lookup:\n      - {table: xid, key: '{code}'}\n      - {table: nvlink5, key: '{code}/{unit}'}\n"),
        QString());
}

int lineOf(const QString& text, const QString& prefix)
{
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i)
        if (lines[i].startsWith(prefix))
            return i + 1;
    return 0;
}

QStringList texts(const QTreeWidget* tree, int column)
{
    QStringList out;
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        out << tree->topLevelItem(i)->text(column);
    return out;
}

std::string readFile(const QString& path)
{
    std::ifstream in(path.toStdString(), std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// A window on the flagship sample with its verdict shown and the catalog loaded.
struct Workbench
{
    app::MainWindow window { source("rules"), source("resources/samples/bundle-48213") };
    app::RuleWorkbench* rules = window.ruleWorkbench();
    views::RuleEditor* editor = rules->editor();

    bool open()
    {
        QSignalSpy shown(&window, &app::MainWindow::resultShown);
        window.resize(1500, 950);
        window.show();
        window.openBundle(source("resources/samples/bundle-48213"));
        if (!QTest::qWaitFor([&] { return shown.count() > 0 && !window.catalogController()->isLoading(); }, 60000))
            return false;
        return window.result().verdict != nullptr;
    }
    /// Waits for the check of the editor's current text.
    bool checked()
    {
        return QTest::qWaitFor(
            [&] {
                return editor->lastCheck().generation == editor->generation() && !rules->controller()->isChecking();
            },
            30000);
    }
    bool idle()
    {
        return QTest::qWaitFor([&] { return !rules->controller()->isBusy(); }, 60000);
    }
};

/// A case library of three samples, saved once for the whole test run.
const QString& library()
{
    static QTemporaryDir dir;
    static bool made = false;
    if (!made) {
        made = true;
        for (const char* s : { "bundle-48213", "python-exception", "cuda-oom" }) {
            usecases::BundleRequest b;
            b.paths = { tests::sourcePath(std::string("resources/samples/") + s) };
            b.rulesDir = tests::sourcePath("rules");
            b.saveAs = dir.path().toStdString() + "/" + s + ".faultline";
            const auto r = usecases::analyseBundle(b);
            if (!r.ok())
                qFatal("cannot save the sample %s as a case: %s", s, r.failure.text().c_str());
        }
    }
    static const QString path = dir.path();
    return path;
}

/// A case library of twelve cases, saved once: every sample, and copies of five of them (one of the flagship).
/// The Xid 149 rule made the cause of exactly three: both flagship samples and the flagship's copy.
const QString& twelveCaseLibrary()
{
    static QTemporaryDir dir;
    static bool made = false;
    if (!made) {
        made = true;
        const std::string root = dir.path().toStdString();
        for (const char* s : { "bundle-48213", "bundle-48213-k8s", "cuda-oom", "ib-link-flap", "inconclusive-no-infra",
                 "python-exception", "xid79-node-fail" }) {
            usecases::BundleRequest b;
            b.paths = { tests::sourcePath(std::string("resources/samples/") + s) };
            b.rulesDir = tests::sourcePath("rules");
            b.saveAs = root + "/" + s + ".faultline";
            const auto r = usecases::analyseBundle(b);
            if (!r.ok())
                qFatal("cannot save the sample %s as a case: %s", s, r.failure.text().c_str());
        }
        std::filesystem::create_directories(root + "/copies");
        for (const char* s : { "bundle-48213", "cuda-oom", "ib-link-flap", "python-exception", "xid79-node-fail" })
            std::filesystem::copy_file(root + "/" + s + ".faultline", root + "/copies/" + s + ".faultline");
    }
    static const QString path = dir.path();
    return path;
}

} // namespace

class TstRuleWorkbench : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationDomain(QStringLiteral("faultline.dev"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_rule_workbench"));
        QVERIFY(m_config.isValid());
        // The user's pack directory is a temporary one (no test reads or writes the real one).
        qputenv("XDG_CONFIG_HOME", m_config.path().toUtf8());
    }

    void init()
    {
        QSettings().clear();
        QDir(m_config.path() + QStringLiteral("/faultline")).removeRecursively();
    }

    void editingARuleShowsTheVerdictDiff()
    {
        Workbench w;
        QVERIFY(w.open());
        // The rule selected in the Rules pane, through Rules ▸ Edit Rule.
        w.window.rulesPane()->selectRule(QStringLiteral("gpu.xid.nvlink5"));
        QVERIFY(w.rules->editRule());
        QVERIFY(w.rules->editorDock()->isVisible());
        QVERIFY(w.checked());
        VERIFY_CONTAINS(w.editor->status()->text(), QStringLiteral("valid"));
        VERIFY_CONTAINS(w.editor->title()->text(), QStringLiteral("gpu.xid.nvlink5"));
        VERIFY_CONTAINS(
            w.editor->title()->toolTip(), m_config.path() + QStringLiteral("/faultline/rules/packs/gpu.yaml"));
        QVERIFY(
            w.editor->text().startsWith(QStringLiteral("extractors:\n  - id: gpu.xid.nvlink5\n    override: true\n")));
        // The edit: its Xids become link noise. Typed into the editor, checked after the pause.
        w.editor->textEdit()->setPlainText(asNoise(w.editor->text()));
        QVERIFY(w.checked());
        QVERIFY(w.editor->lastCheck().ok);
        QVERIFY(w.editor->runButton()->isEnabled());
        QSignalSpy ran(w.rules, &app::RuleWorkbench::ran);
        QTest::mouseClick(w.editor->runButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(ran.count(), 1, 60000);
        const QString diff = w.editor->diffView()->toPlainText();
        VERIFY_CONTAINS(diff, QStringLiteral("The verdict changes from the shown verdict"));
        VERIFY_CONTAINS(diff, QStringLiteral("cause"));
        VERIFY_CONTAINS(diff, QStringLiteral("Xid 149"));
        QCOMPARE(w.editor->results()->currentIndex(), 1);
        VERIFY_CONTAINS(w.editor->results()->tabText(1), QStringLiteral("Verdict Diff ("));
        // The trace of the edited rule: the Xid 149 line, now a context event.
        const QStringList records = texts(w.editor->traceView(), 0);
        QVERIFY2(
            records.contains(QStringLiteral("nodes/node-02/dmesg.txt:70")), qPrintable(records.join(QLatin1Char(' '))));
        VERIFY_CONTAINS(
            texts(w.editor->traceView(), 2).join(QLatin1Char(' ')), QStringLiteral("{site.nvlink-noise} [context]"));
        // The workbench's own verdict is left as it was (the run is a preview).
        VERIFY_CONTAINS(
            QString::fromStdString(w.window.result().verdict->events[w.window.result().verdict->cause].label),
            QStringLiteral("Xid 149"));
        QApplication::processEvents();
        screenshot(&w.window, QStringLiteral("rule-editor-diff.png"));
        screenshot(w.editor, QStringLiteral("rule-editor-diff-pane.png"));
    }

    void aBrokenRegexIsLocatedAtItsLine()
    {
        Workbench w;
        QVERIFY(w.open());
        QVERIFY(w.rules->editRule(QStringLiteral("gpu.xid.nvlink5")));
        QVERIFY(w.checked());
        const QString broken =
            replaced(w.editor->text(), QStringLiteral("(?P<code>14[4-9]|150)"), QStringLiteral("(?P<code>14[4-9]|150"));
        const int patternLine = lineOf(broken, QStringLiteral("    pattern: "));
        QVERIFY(patternLine > 0);
        w.editor->textEdit()->setPlainText(broken);
        QVERIFY(w.checked());
        QVERIFY(!w.editor->lastCheck().ok);
        VERIFY_CONTAINS(w.editor->status()->text(), QStringLiteral("1 error"));
        QVERIFY(!w.editor->runButton()->isEnabled());
        QVERIFY(!w.editor->saveButton()->isEnabled());
        // In the problems list: at line:col, naming the rule and the code.
        QCOMPARE(w.editor->problems()->topLevelItemCount(), 1);
        const QTreeWidgetItem* problem = w.editor->problems()->topLevelItem(0);
        // At the group that is never closed.
        const int column =
            static_cast<int>(broken.split(QLatin1Char('\n')).at(patternLine - 1).indexOf(QStringLiteral("(?P<code>")))
            + 1;
        QCOMPARE(problem->text(0), QStringLiteral("line %1:%2").arg(patternLine).arg(column));
        VERIFY_CONTAINS(problem->text(1), QStringLiteral("rule 'gpu.xid.nvlink5'"));
        VERIFY_CONTAINS(problem->text(1), QStringLiteral("missing ): the group opened here is never closed"));
        VERIFY_CONTAINS(problem->text(1), QStringLiteral("[bad-regex]"));
        // In the text: the line tinted and the '(' underlined.
        const auto marks = w.editor->textEdit()->extraSelections();
        QCOMPARE(marks.size(), 2);
        QCOMPARE(marks.front().cursor.blockNumber() + 1, patternLine);
        QVERIFY(marks.front().format.property(QTextFormat::FullWidthSelection).toBool());
        const auto& underline = marks.back();
        QCOMPARE(underline.cursor.blockNumber() + 1, patternLine);
        QCOMPARE(underline.cursor.selectionStart() - underline.cursor.block().position(), column - 1);
        QCOMPARE(underline.cursor.selectionEnd() - underline.cursor.selectionStart(), 1);
        QCOMPARE(underline.format.underlineStyle(), QTextCharFormat::WaveUnderline);
        QCOMPARE(w.editor->textEdit()->diagnosticsAt(patternLine, column).size(), 1);
        QApplication::processEvents();
        screenshot(w.editor, QStringLiteral("rule-editor-bad-regex.png"));
        // Clicking the problem puts the cursor there (the text scrolls to it).
        w.editor->textEdit()->moveCursor(QTextCursor::End);
        QTest::mouseClick(w.editor->problems()->viewport(), Qt::LeftButton, {},
            w.editor->problems()->visualItemRect(problem).center());
        QCOMPARE(w.editor->textEdit()->textCursor().blockNumber() + 1, patternLine);
        QCOMPARE(w.editor->textEdit()->textCursor().positionInBlock(), column - 1);
        QApplication::processEvents();
        screenshot(w.editor, QStringLiteral("rule-editor-bad-regex-at-error.png"));
        // Fixed: valid again.
        w.editor->textEdit()->setPlainText(replaced(broken, QStringLiteral("|150"), QStringLiteral("|150)")));
        QVERIFY(w.checked());
        QVERIFY(w.editor->lastCheck().ok);
        QCOMPARE(w.editor->textEdit()->extraSelections().size(), 0);
    }

    void aRuleFromALineFiresOnThatLine()
    {
        Workbench w;
        QVERIFY(w.open());
        // The line selected in the evidence viewer.
        QVERIFY(w.window.evidencePane()->showLine(QStringLiteral("nodes/node-02/dmesg.txt"), 70));
        QCOMPARE(w.window.evidencePane()->viewer()->highlightedLine(), std::uint64_t(70));
        // It is offered in the viewer's context menu.
        bool offered = false;
        for (QAction* a : w.window.evidencePane()->viewer()->actions())
            offered = offered || a->text().contains(QStringLiteral("New Rule from Selected Line"));
        QVERIFY(offered);
        QSignalSpy ran(w.rules, &app::RuleWorkbench::ran);
        QVERIFY(w.rules->newRuleFromLine());
        QVERIFY(w.checked());
        const QString doc = w.editor->text();
        VERIFY_CONTAINS(doc, QStringLiteral("  - id: local.nvrm-xid-pci\n"));
        VERIFY_CONTAINS(doc, QStringLiteral("    pattern: 'NVRM: Xid \\(PCI:(?P<pci>"));
        VERIFY_CONTAINS(doc, QStringLiteral("      - line: 'NVRM: Xid (PCI:0000:c3:00): 149, NETIR_LINK_EVT"));
        VERIFY_CONTAINS(w.editor->status()->text(), QStringLiteral("1 test(s) pass"));
        // It runs on the case at once and fires on that line (and on the same message in the node's journal).
        QTRY_COMPARE_WITH_TIMEOUT(ran.count(), 1, 60000);
        const QStringList records = texts(w.editor->traceView(), 0);
        QCOMPARE(records.size(), 2);
        QVERIFY2(
            records.contains(QStringLiteral("nodes/node-02/dmesg.txt:70")), qPrintable(records.join(QLatin1Char(' '))));
        VERIFY_CONTAINS(texts(w.editor->traceView(), 1).join(QLatin1Char(' ')), QStringLiteral("kept as #"));
        // The verdict keeps its cause and gains the rule's event: the trace shows first, the diff says so.
        QCOMPARE(w.editor->results()->currentIndex(), 2);
        // One event more than before, whatever the catalog's count.
        const QString diff = w.editor->diffView()->toPlainText();
        const QRegularExpressionMatch events =
            QRegularExpression(QStringLiteral("events: (\\d+) → (\\d+)")).match(diff);
        QVERIFY2(events.hasMatch(), qPrintable(QStringLiteral("no 'events: N → N+1' line in: ") + diff));
        QCOMPARE(events.captured(2).toInt(), events.captured(1).toInt() + 1);
        QApplication::processEvents();
        screenshot(&w.window, QStringLiteral("rule-editor-from-line.png"));
        // Double-clicking a record of the trace shows it in the evidence viewer.
        w.window.evidencePane()->showLine(QStringLiteral("nodes/node-01/dmesg.txt"), 1);
        QTreeWidgetItem* item = w.editor->traceView()->topLevelItem(
            static_cast<int>(records.indexOf(QStringLiteral("nodes/node-02/dmesg.txt:70"))));
        Q_EMIT w.editor->traceView()->itemActivated(item, 0);
        QCOMPARE(w.window.evidencePane()->viewer()->highlightedLine(), std::uint64_t(70));
        // A line without a record: said so, nothing opened.
        QVERIFY(!w.rules->newRuleFromLine(QStringLiteral("nodes/node-02/dmesg.txt"), 100000));
        VERIFY_CONTAINS(w.rules->lastMessage(), QStringLiteral("holds no record"));
    }

    void saveWritesTheUserPackAndReloads()
    {
        Workbench w;
        QVERIFY(w.open());
        QVERIFY(w.rules->newRuleFromLine(QStringLiteral("nodes/node-02/dmesg.txt"), 70));
        QVERIFY(w.checked());
        QVERIFY(w.idle());
        QSignalSpy saved(w.rules, &app::RuleWorkbench::saved);
        QSignalSpy loaded(&w.window, &app::MainWindow::catalogLoaded);
        QVERIFY(w.editor->saveButton()->isEnabled());
        QTest::mouseClick(w.editor->saveButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(saved.count(), 1, 30000);
        const QString pack = m_config.path() + QStringLiteral("/faultline/rules/packs/local.yaml");
        const std::string written = readFile(pack);
        QVERIFY2(written.rfind("pack: local\nextractors:\n  - id: local.nvrm-xid-pci\n    version: 1\n", 0) == 0,
            written.c_str());
        VERIFY_CONTAINS(w.editor->text(), QStringLiteral("    version: 1\n"));
        VERIFY_CONTAINS(w.rules->lastMessage(), QStringLiteral("(version 1)"));
        // The catalog reloads with the user's pack.
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 30000);
        QCOMPARE(loaded.front().at(0).toBool(), true);
        VERIFY_CONTAINS(w.window.catalogStatus()->text(), QStringLiteral("+ packs: user packs"));
        // Saved again: version 2, the same file.
        QVERIFY(w.checked());
        QVERIFY(w.idle());
        w.rules->save();
        QTRY_COMPARE_WITH_TIMEOUT(saved.count(), 2, 30000);
        VERIFY_CONTAINS(QString::fromStdString(readFile(pack)), QStringLiteral("    version: 2\n"));
        QVERIFY(QFileInfo::exists(pack + QStringLiteral(".bak")));
    }

    void theRegressionListsTheExactFlippedCases()
    {
        const QString lib = twelveCaseLibrary();
        Workbench w;
        QVERIFY(w.open());
        QVERIFY(w.rules->editRule(QStringLiteral("gpu.xid.nvlink5")));
        QVERIFY(w.checked());
        w.editor->textEdit()->setPlainText(asNoise(w.editor->text()));
        QVERIFY(w.checked());
        QSignalSpy done(w.rules, &app::RuleWorkbench::libraryFinished);
        w.rules->regress(lib);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 120000);
        auto* pane = w.rules->library();
        QVERIFY(w.rules->libraryDock()->isVisible());
        QStringList flipped = pane->shownCases();
        flipped.sort();
        QCOMPARE(flipped,
            (QStringList { lib + QStringLiteral("/bundle-48213-k8s.faultline"),
                lib + QStringLiteral("/bundle-48213.faultline"),
                lib + QStringLiteral("/copies/bundle-48213.faultline") }));
        VERIFY_CONTAINS(pane->summary()->text(), QStringLiteral("12 case(s): 3 would flip"));
        VERIFY_CONTAINS(pane->summary()->text(), QStringLiteral(", edited"));
        // Each flipped case's diff below it.
        QTreeWidgetItem* row = pane->tree()->topLevelItem(0);
        QVERIFY(row->childCount() > 0);
        QStringList changes;
        for (int i = 0; i < row->childCount(); ++i)
            changes << row->child(i)->text(0);
        VERIFY_CONTAINS(changes.join(QLatin1Char('\n')), QStringLiteral("cause"));
        // Every case with the filter off, the flipped one first.
        pane->onlyFlagged()->setChecked(false);
        QCOMPARE(pane->shownCases().size(), 12);
        QStringList firstThree = pane->shownCases().mid(0, 3);
        firstThree.sort();
        QCOMPARE(firstThree, flipped);
        pane->onlyFlagged()->setChecked(true);
        w.rules->libraryDock()->raise();
        QApplication::processEvents();
        screenshot(&w.window, QStringLiteral("rule-regression.png"));
        screenshot(pane, QStringLiteral("rule-regression-pane.png"));
        // One click opens it.
        QSignalSpy shown(&w.window, &app::MainWindow::resultShown);
        QPushButton* open = pane->openButton(lib + QStringLiteral("/bundle-48213.faultline"));
        QVERIFY(open);
        QTest::mouseClick(open, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1 && !w.window.result().casePath.empty(), 60000);
        QCOMPARE(QString::fromStdString(w.window.result().casePath), lib + QStringLiteral("/bundle-48213.faultline"));
    }

    void theSweepListsEveryCaseAndLineWhereTheRuleFires()
    {
        const QString lib = library();
        Workbench w;
        QVERIFY(w.open());
        QVERIFY(w.rules->newRuleFromLine(QStringLiteral("nodes/node-02/dmesg.txt"), 70));
        QVERIFY(w.checked());
        QVERIFY(w.idle());
        QSignalSpy done(w.rules, &app::RuleWorkbench::libraryFinished);
        w.rules->sweep(lib);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 120000);
        auto* pane = w.rules->library();
        QCOMPARE(pane->shownCases(), QStringList { lib + QStringLiteral("/bundle-48213.faultline") });
        VERIFY_CONTAINS(pane->summary()->text(), QStringLiteral("fires on 2 line(s) in 1 of 3 case(s)"));
        QTreeWidgetItem* row = pane->tree()->topLevelItem(0);
        QCOMPARE(row->text(2), QStringLiteral("fires 2×"));
        QStringList lines;
        for (int i = 0; i < row->childCount(); ++i)
            lines << row->child(i)->text(0);
        lines.sort();
        QCOMPARE(lines,
            (QStringList { QStringLiteral("nodes/node-02/dmesg.txt:70"),
                QStringLiteral("nodes/node-02/journal-kernel.jsonl:70") }));
        QApplication::processEvents();
        screenshot(pane, QStringLiteral("rule-sweep-pane.png"));
        // A line of the list opens its case at that line.
        QSignalSpy shown(&w.window, &app::MainWindow::resultShown);
        QTreeWidgetItem* dmesg =
            row->child(0)->text(0).contains(QStringLiteral("dmesg")) ? row->child(0) : row->child(1);
        Q_EMIT pane->tree()->itemActivated(dmesg, 0);
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1 && !w.window.result().casePath.empty(), 60000);
        QCOMPARE(w.window.evidencePane()->viewer()->highlightedLine(), std::uint64_t(70));
        VERIFY_CONTAINS(w.window.evidencePane()->position(), QStringLiteral("line 70"));
    }

private:
    QTemporaryDir m_config;
};

QTEST_MAIN(TstRuleWorkbench)
#include "tst_rule_workbench.moc"
