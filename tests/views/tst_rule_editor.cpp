// SPDX-License-Identifier: Apache-2.0
// The rule editor's widgets on their own: YAML and RE2 highlighting (keys, comments, strings, a pattern's named
// captures, escapes, classes and quantifiers; never inside a comment), Tab and Enter indenting with spaces, a check
// of an older generation dropped, diagnostics drawn where they lie (and in the problems list), a run's diff and
// trace shown in their tabs; the case library pane flagged-first with its filter, and Open asking for the case.
// Screenshots (light and dark palettes) under screenshots/ in the build tree.
#include "tests/common/gui_helpers.h"
#include "tests/common/test_helpers.h"
#include "views/rules/library_results.h"
#include "views/rules/rule_editor.h"
#include "views/rules/rule_highlighter.h"

#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QLabel>
#include <QPalette>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextLayout>
#include <QTreeWidget>

using namespace faultline;

namespace {

using tests::screenshot;

const QString kDoc = QStringLiteral("extractors:\n"
                                    "  - id: site.fan  # the fans\n"
                                    "    sources: [kernel]\n"
                                    "    pattern: 'fan (?P<fan>\\d+) stopped [a-z]+ ''x'''\n"
                                    "    event: site.fan_stopped\n"
                                    "    priority: 10\n"
                                    "    tests:\n"
                                    "      - line: 'fan 3 stopped ok ''x'''\n"
                                    "        expect: {event: site.fan_stopped, fields: {fan: '3'}}\n");

/// The format the highlighter gave the character at `column` (0-based) of line `line` (1-based).
QTextCharFormat formatAt(QTextDocument* doc, int line, int column)
{
    const QTextBlock block = doc->findBlockByNumber(line - 1);
    for (const auto& r : block.layout()->formats())
        if (column >= r.start && column < r.start + r.length)
            return r.format;
    return {};
}

bool sameInk(const QTextCharFormat& a, const QTextCharFormat& b)
{
    return a.foreground().color() == b.foreground().color() && a.fontWeight() == b.fontWeight();
}

views::RuleEditorCheck checkOf(quint64 generation, bool ok, QVector<views::RuleEditorDiagnostic> diags = {})
{
    views::RuleEditorCheck c;
    c.generation = generation;
    c.ok = ok;
    c.ruleId = QStringLiteral("site.fan");
    c.diagnostics = std::move(diags);
    c.testsRun = 1;
    return c;
}

QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    p.setColor(QPalette::WindowText, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
    p.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    p.setColor(QPalette::ButtonText, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x6f, 0xb0));
    return p;
}

} // namespace

class TstRuleEditor : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void highlightsYamlAndThePatternsRegex()
    {
        views::RuleTextEdit edit;
        edit.setPlainText(kDoc);
        auto* doc = edit.document();
        const auto* h = edit.highlighter();
        QVERIFY(sameInk(formatAt(doc, 1, 0), h->format(QStringLiteral("key")))); // extractors
        QVERIFY(sameInk(formatAt(doc, 2, 4), h->format(QStringLiteral("key")))); // id
        QVERIFY(sameInk(formatAt(doc, 2, 19), h->format(QStringLiteral("comment")))); // # the fans
        const QString pattern = doc->findBlockByNumber(3).text();
        QVERIFY(sameInk(formatAt(doc, 4, static_cast<int>(pattern.indexOf(QStringLiteral("fan>")))),
            h->format(QStringLiteral("capture"))));
        QVERIFY(sameInk(formatAt(doc, 4, static_cast<int>(pattern.indexOf(QStringLiteral("\\d")))),
            h->format(QStringLiteral("escape"))));
        QVERIFY(sameInk(formatAt(doc, 4, static_cast<int>(pattern.indexOf(QStringLiteral("[a-z]")))),
            h->format(QStringLiteral("class"))));
        QVERIFY(sameInk(formatAt(doc, 4, static_cast<int>(pattern.indexOf(QStringLiteral("]+")) + 1)),
            h->format(QStringLiteral("quantifier"))));
        // A test line is a string, not a regex; a number is a number.
        const QString test = doc->findBlockByNumber(7).text();
        QVERIFY(sameInk(formatAt(doc, 8, static_cast<int>(test.indexOf(QStringLiteral("3 stopped")))),
            h->format(QStringLiteral("string"))));
        QVERIFY(sameInk(formatAt(doc, 6, 14), h->format(QStringLiteral("number"))));
        // A '#' inside quotes is no comment.
        edit.setPlainText(QStringLiteral("    pattern: 'a #b'  # real\n"));
        QVERIFY(!sameInk(formatAt(doc, 1, 17), h->format(QStringLiteral("comment"))));
        QVERIFY(sameInk(formatAt(doc, 1, 22), h->format(QStringLiteral("comment"))));
    }

    void tabAndEnterIndentWithSpaces()
    {
        views::RuleTextEdit edit;
        edit.setPlainText(QStringLiteral("    tests:"));
        edit.moveCursor(QTextCursor::End);
        QTest::keyClick(&edit, Qt::Key_Return);
        QTest::keyClick(&edit, Qt::Key_Tab);
        QTest::keyClicks(&edit, QStringLiteral("- line: x"));
        QCOMPARE(edit.toPlainText(), QStringLiteral("    tests:\n      - line: x"));
        QVERIFY(!edit.toPlainText().contains(QLatin1Char('\t')));
    }

    void aStaleCheckIsDroppedAndDiagnosticsShowWhereTheyLie()
    {
        views::RuleEditor editor;
        editor.resize(760, 620);
        QSignalSpy edited(&editor, &views::RuleEditor::textEdited);
        editor.setDocument(kDoc, QStringLiteral("site.fan"), QStringLiteral("drafted from nodes/node-02/dmesg.txt:70"),
            QStringLiteral("/home/u/.config/faultline/rules/packs/local.yaml"));
        QCOMPARE(edited.count(), 1); // a document is checked at once
        const quint64 first = editor.generation();
        QVERIFY(!editor.saveButton()->isEnabled()); // until the check says it is valid
        editor.textEdit()->insertPlainText(QStringLiteral("# more\n"));
        QVERIFY(editor.generation() > first);
        QTRY_COMPARE(edited.count(), 2); // after the pause in typing
        // The check of the first text comes late: dropped.
        QVERIFY(!editor.setCheck(checkOf(first, true)));
        VERIFY_CONTAINS(editor.status()->text(), QStringLiteral("checking"));
        views::RuleEditorDiagnostic bad;
        bad.line = 5;
        bad.column = 25;
        bad.length = 6;
        bad.code = QStringLiteral("bad-regex");
        bad.ruleId = QStringLiteral("site.fan");
        bad.message = QStringLiteral("regex does not compile: missing ]: '[a-z'");
        bad.where = QStringLiteral("/home/u/.config/faultline/rules/packs/local.yaml:6:25");
        views::RuleEditorDiagnostic elsewhere;
        elsewhere.error = false;
        elsewhere.code = QStringLiteral("misplaced-pack");
        elsewhere.message = QStringLiteral("not read: a rule pack directory reads packs/*.yaml and tables/*.yaml");
        elsewhere.where = QStringLiteral("/home/u/.config/faultline/rules/x.yaml");
        QVERIFY(editor.setCheck(checkOf(editor.generation(), false, { bad, elsewhere })));
        VERIFY_CONTAINS(editor.status()->text(), QStringLiteral("1 error"));
        VERIFY_CONTAINS(editor.status()->text(), QStringLiteral("1 warning"));
        QCOMPARE(editor.problems()->topLevelItemCount(), 2);
        QCOMPARE(editor.problems()->topLevelItem(0)->text(0), QStringLiteral("line 5:25"));
        QCOMPARE(editor.problems()->topLevelItem(1)->text(0), elsewhere.where); // not in the document: where it is
        QCOMPARE(editor.results()->tabText(0), QStringLiteral("Problems (2)"));
        // One mark for the document's diagnostic (its line tinted, its part underlined); none for the other.
        const auto marks = editor.textEdit()->extraSelections();
        QCOMPARE(marks.size(), 2);
        QCOMPARE(marks.back().cursor.selectedText().size(), 6);
        QCOMPARE(editor.textEdit()->diagnosticsAt(5, 27).size(), 1);
        QCOMPARE(editor.textEdit()->diagnosticsAt(5, 40).size(), 0);
        QVERIFY(!editor.saveButton()->isEnabled());
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        screenshot(&editor, QStringLiteral("rule-editor-problems.png"));
        // Valid: Save possible; Run once an analysis is open.
        QVERIFY(editor.setCheck(checkOf(editor.generation(), true)));
        VERIFY_CONTAINS(editor.status()->text(), QStringLiteral("valid · 1 test(s) pass"));
        QVERIFY(editor.saveButton()->isEnabled());
        QVERIFY(!editor.runButton()->isEnabled());
        editor.setRunnable(true);
        QVERIFY(editor.runButton()->isEnabled());
        QCOMPARE(editor.textEdit()->extraSelections().size(), 0);
    }

    void aRunShowsItsDiffAndTrace()
    {
        views::RuleEditor editor;
        editor.resize(760, 620);
        editor.setDocument(kDoc, QStringLiteral("site.fan"), QStringLiteral("packs/local.yaml:2"), QStringLiteral("x"));
        views::RuleEditorRun run;
        run.baseline = QStringLiteral("run 2");
        run.same = false;
        run.changes = { QStringLiteral("cause type: gpu.xid → site.fan_stopped"), QStringLiteral("events: 167 → 168") };
        run.before = QStringLiteral("infrastructure_failure, cause Xid 149");
        run.after = QStringLiteral("infrastructure_failure, cause fan 3 stopped");
        core::RuleTrace t;
        t.id = "site.fan";
        t.origin = "packs/local.yaml:2";
        t.recordsScanned = 1655;
        t.recordsRead = 369;
        t.recordsMatched = 1;
        core::TracedEvent e;
        e.record.path = "nodes/node-02/dmesg.txt";
        e.record.line = 70;
        e.label = "fan 3 stopped";
        e.type = "site.fan_stopped";
        e.role = "root";
        e.fate = core::EventFate::Kept;
        e.verdictIndex = 4;
        e.inVerdict = "the cause";
        t.events.push_back(e);
        core::ExtractorMiss m;
        m.record.path = "nodes/node-01/dmesg.txt";
        m.record.line = 12;
        m.record.text = "fan three stopped";
        m.clause = core::MissClause::Pattern;
        m.detail = "the capture `fan` (`\\d+`) did not match";
        t.misses.push_back(m);
        t.missCounts["pattern"] = 1;
        run.trace = t;
        editor.setRun(run);
        // The verdict changes: the diff first.
        QCOMPARE(editor.results()->currentIndex(), 1);
        const QString diff = editor.diffView()->toPlainText();
        VERIFY_CONTAINS(diff, QStringLiteral("The verdict changes from run 2: 2 difference(s)."));
        VERIFY_CONTAINS(diff, QStringLiteral("cause type: gpu.xid → site.fan_stopped"));
        QCOMPARE(editor.traceView()->topLevelItemCount(), 1);
        QCOMPARE(editor.traceView()->topLevelItem(0)->text(0), QStringLiteral("nodes/node-02/dmesg.txt:70"));
        QCOMPARE(editor.traceView()->topLevelItem(0)->text(1), QStringLiteral("kept as #4: the cause"));
        QCOMPARE(editor.results()->tabText(3), QStringLiteral("Near Misses (1)"));
        QCOMPARE(editor.missesView()->topLevelItem(0)->text(0), QStringLiteral("nodes/node-01/dmesg.txt:12"));
        // A record of the trace asks to be shown.
        QSignalSpy shown(&editor, &views::RuleEditor::recordActivated);
        Q_EMIT editor.traceView()->itemActivated(editor.traceView()->topLevelItem(0), 0);
        QCOMPARE(shown.count(), 1);
        QCOMPARE(shown.front().at(0).toString(), QStringLiteral("nodes/node-02/dmesg.txt"));
        QCOMPARE(shown.front().at(1).toULongLong(), 70ull);
        // Only the count of events changes (a new context rule): the trace first, the diff says the cause stays.
        run.changes = { QStringLiteral("events: 167 → 168") };
        editor.setRun(run);
        QCOMPARE(editor.results()->currentIndex(), 2);
        VERIFY_CONTAINS(editor.diffView()->toPlainText(), QStringLiteral("The same outcome and cause as run 2"));
        QVERIFY(!views::RuleEditor::changesVerdict(run.changes));
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        screenshot(&editor, QStringLiteral("rule-editor-trace.png"));
        // The same in the dark.
        editor.setPalette(darkPalette());
        editor.textEdit()->setPalette(darkPalette());
        QApplication::processEvents();
        screenshot(&editor, QStringLiteral("rule-editor-trace-dark.png"));
    }

    void theLibraryPaneListsFlaggedCasesFirstAndOpensThem()
    {
        views::LibraryResultsPane pane;
        pane.resize(700, 400);
        views::LibraryResults r;
        r.kind = views::LibraryResults::Kind::Regression;
        r.library = QStringLiteral("/cases");
        r.subject = QStringLiteral("faultline-core 1.6.0 (abc), edited");
        r.summary = QStringLiteral("3 case(s): 1 would flip");
        views::LibraryCaseRow a;
        a.path = QStringLiteral("/cases/a.faultline");
        a.status = QStringLiteral("unchanged");
        views::LibraryCaseRow b;
        b.path = QStringLiteral("/cases/b.faultline");
        b.status = QStringLiteral("flips (broken)");
        b.flagged = true;
        b.before = QStringLiteral("infrastructure_failure");
        b.after = QStringLiteral("inconclusive");
        b.details = { QStringLiteral("outcome: infrastructure_failure → inconclusive") };
        views::LibraryCaseRow c;
        c.path = QStringLiteral("/cases/c.faultline");
        c.status = QStringLiteral("failed");
        c.flagged = true;
        c.failed = true;
        c.details = { QStringLiteral("cannot open the case") };
        r.cases = { a, b, c };
        pane.setResults(r);
        QCOMPARE(pane.shownCases(), (QStringList { b.path, c.path }));
        pane.onlyFlagged()->setChecked(false);
        QCOMPARE(pane.shownCases(), (QStringList { b.path, c.path, a.path }));
        QSignalSpy open(&pane, &views::LibraryResultsPane::openRequested);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QVERIFY(pane.openButton(b.path));
        QTest::mouseClick(pane.openButton(b.path), Qt::LeftButton);
        QCOMPARE(open.count(), 1);
        QCOMPARE(open.front().at(0).toString(), b.path);
        QCOMPARE(open.front().at(2).toULongLong(), 0ull);
        screenshot(&pane, QStringLiteral("library-regression.png"));
        // A sweep: its lines below the case, a line opening the case at it.
        r.kind = views::LibraryResults::Kind::Sweep;
        b.lines = { { QStringLiteral("nodes/node-02/dmesg.txt"), 70, QStringLiteral("NVRM: Xid ..."),
            QStringLiteral("xid → kept: the cause") } };
        r.cases = { a, b };
        pane.setResults(r);
        VERIFY_CONTAINS(pane.onlyFlagged()->text(), QStringLiteral("fires"));
        QTreeWidgetItem* line = pane.tree()->topLevelItem(0)->child(0);
        QCOMPARE(line->text(0), QStringLiteral("nodes/node-02/dmesg.txt:70"));
        QCOMPARE(line->text(2), QStringLiteral("kept"));
        Q_EMIT pane.tree()->itemActivated(line, 0);
        QCOMPARE(open.count(), 2);
        QCOMPARE(open.back().at(1).toString(), QStringLiteral("nodes/node-02/dmesg.txt"));
        QCOMPARE(open.back().at(2).toULongLong(), 70ull);
    }
};

QTEST_MAIN(TstRuleEditor)
#include "tst_rule_editor.moc"
