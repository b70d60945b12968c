// SPDX-License-Identifier: Apache-2.0
// The annotations pane over hand-made annotations and resolutions: the model passes QAbstractItemModelTester, leaves
// narratives out, says where each annotation stands (matched with its event, or the reason) and marks the unmatched
// ones; the kind filter keeps only the annotations no longer matched; Delete asks before it removes; and what the
// timeline and the evidence viewer are given: pins on events (an unmatched one at its stored time), badges, bands,
// gutter ribbons on lines and on events' records.
#include "core/model/case_records.h"
#include "views/annotations/annotation_marks.h"
#include "views/annotations/annotations_pane.h"
#include "views/models/annotations_model.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace faultline;
using views::AnnotationsModel;
using views::TimelineAnnotation;

namespace {

core::Annotation make(std::int64_t id, const char* kind, const char* target, const char* text)
{
    core::Annotation a;
    a.id = id;
    a.kind = kind;
    a.target = target;
    a.text = text;
    a.author = "ana";
    a.createdAt = "2026-12-01T16:00:31Z";
    return a;
}

core::AnnotationResolution resolved(std::int64_t id, std::int64_t event, std::int64_t timeNs = INT64_MIN)
{
    core::AnnotationResolution r;
    r.annotation = id;
    r.eventIndex = event;
    r.timeNs = timeNs;
    return r;
}

} // namespace

class TstAnnotationsPane : public QObject
{
    Q_OBJECT
private:
    std::vector<core::Annotation> m_notes;
    std::vector<core::AnnotationResolution> m_res;

private Q_SLOTS:
    void initTestCase()
    {
        auto event = make(1, "bookmark", "event", "the cause");
        event.ruleId = "gpu.xid.nvlink5";
        event.path = "nodes/node-02/dmesg.txt";
        event.line = 70;
        event.byteOffset = 9000;
        auto gone = make(2, "note", "event", "first NCCL error");
        gone.ruleId = "nccl.remote-error";
        gone.path = "joblogs/slurm-1.out";
        gone.line = 233;
        gone.byteOffset = 21529;
        gone.fromNs = 5000;
        gone.node = "node-01";
        auto line = make(3, "note", "line", "sacct says FAILED");
        line.path = "slurm/sacct.psv";
        line.line = 2;
        line.tags = { "sacct" };
        auto lane = make(4, "tag", "lane", "suspect");
        lane.node = "node-02";
        auto range = make(5, "note", "range", "the minute");
        range.fromNs = 1000;
        range.toNs = 61000;
        auto narrative = make(6, "narrative", "case", "It failed.");
        auto onCase = make(7, "note", "case", "checked");
        m_notes = { event, gone, line, lane, range, narrative, onCase };
        auto unmatched = resolved(2, -1, 5000);
        unmatched.matched = false;
        unmatched.node = "node-01";
        unmatched.reason = "no longer matched in run 2: rule 'nccl.remote-error' made no event";
        auto lineAt = resolved(3, -1, 7000);
        lineAt.node = "node-03";
        m_res = { resolved(1, 37), unmatched, lineAt, resolved(4, -1), resolved(5, -1, 1000), resolved(6, -1),
            resolved(7, -1) };
    }

    void theModelListsAndExplains()
    {
        AnnotationsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setAnnotations(m_notes, m_res);
        QCOMPARE(model.rowCount(), 6); // the narrative is the story, not a list entry
        QCOMPARE(model.rowOf(6), -1);
        auto cell = [&](std::int64_t id, int column, int role = Qt::DisplayRole) {
            return model.index(model.rowOf(id), column).data(role);
        };
        QCOMPARE(cell(1, AnnotationsModel::StatusColumn).toString(), QStringLiteral("matched (event 37)"));
        QCOMPARE(cell(1, AnnotationsModel::TargetColumn).toString(),
            QStringLiteral("event gpu.xid.nvlink5 at nodes/node-02/dmesg.txt:70"));
        QCOMPARE(cell(2, AnnotationsModel::StatusColumn).toString(),
            QStringLiteral("no longer matched in run 2: rule 'nccl.remote-error' made no event"));
        QVERIFY(!cell(2, 0, AnnotationsModel::MatchedRole).toBool());
        QVERIFY(cell(2, AnnotationsModel::TextColumn, Qt::ForegroundRole).isValid());
        QVERIFY(!cell(1, AnnotationsModel::TextColumn, Qt::ForegroundRole).isValid());
        QCOMPARE(cell(3, AnnotationsModel::TagsColumn).toString(), QStringLiteral("sacct"));
        QCOMPARE(cell(4, AnnotationsModel::TagsColumn).toString(), QStringLiteral("suspect"));
        QCOMPARE(cell(4, AnnotationsModel::TextColumn).toString(), QString());
        QCOMPARE(cell(5, AnnotationsModel::StatusColumn).toString(), QStringLiteral("matched"));
        QCOMPARE(cell(7, AnnotationsModel::TargetColumn).toString(), QStringLiteral("the case"));
        QCOMPARE(cell(1, AnnotationsModel::TimeColumn).toString(), QStringLiteral("2026-12-01 16:00 UTC"));
        // Without resolutions nothing claims to be matched or not.
        model.setAnnotations(m_notes, {});
        QCOMPARE(cell(1, AnnotationsModel::StatusColumn).toString(), QString());
    }

    void thePaneFiltersAndAsksBeforeRemoving()
    {
        views::AnnotationsPane pane;
        pane.resize(700, 300);
        pane.setAnnotations(m_notes, m_res, QStringLiteral("run 2"));
        QCOMPARE(pane.shownRows(), 6);
        pane.kindFilter()->setCurrentIndex(pane.kindFilter()->findData(QStringLiteral("unmatched")));
        QCOMPARE(pane.shownRows(), 1);
        pane.kindFilter()->setCurrentIndex(0);
        QSignalSpy activated(&pane, &views::AnnotationsPane::annotationActivated);
        QSignalSpy removed(&pane, &views::AnnotationsPane::removeRequested);
        pane.view()->setCurrentIndex(pane.view()->model()->index(0, 0));
        QCOMPARE(activated.count(), 1);
        const auto id = pane.currentId();
        QVERIFY(id > 0);
        QTest::keyClick(pane.view(), Qt::Key_Delete);
        auto* box = pane.findChild<QMessageBox*>(QStringLiteral("removeAnnotationConfirm"));
        QVERIFY(box);
        QCOMPARE(removed.count(), 0);
        box->button(QMessageBox::Yes)->click();
        QCOMPARE(removed.count(), 1);
        QCOMPARE(removed.front().front().toLongLong(), id);
        // A programmatic selection does not ask the views to follow.
        pane.selectAnnotation(5);
        QCOMPARE(pane.currentId(), std::int64_t(5));
        QCOMPARE(activated.count(), 1);
    }

    void whatTheOtherViewsDraw()
    {
        const auto marks = views::timelineAnnotations(m_notes, m_res);
        QCOMPARE(marks.size(), std::size_t(5)); // not the narrative nor the case's own note
        QCOMPARE(marks[0].shape, TimelineAnnotation::Shape::Pin);
        QCOMPARE(marks[0].eventIndex, 37);
        QVERIFY(marks[0].bookmark && marks[0].matched);
        QCOMPARE(marks[1].eventIndex, -1); // no longer matched: at its stored time on its node
        QCOMPARE(marks[1].timeNs, qint64(5000));
        QCOMPARE(marks[1].node, std::string("node-01"));
        QVERIFY(!marks[1].matched);
        QVERIFY(marks[1].tooltip.contains(QLatin1String("made no event")));
        QCOMPARE(marks[2].timeNs, qint64(7000)); // a line at its record's time and node
        QCOMPARE(marks[2].node, std::string("node-03"));
        QCOMPARE(marks[3].shape, TimelineAnnotation::Shape::Lane);
        QCOMPARE(marks[4].shape, TimelineAnnotation::Shape::Band);
        QCOMPARE(marks[4].toNs, qint64(61000));
        for (const char* want : { "first NCCL error", "ana", "2026-12-01 16:00 UTC" })
            QVERIFY2(marks[1].tooltip.contains(QLatin1String(want)), qPrintable(marks[1].tooltip));
        const auto lines = views::evidenceLineMarks(m_notes, m_res);
        QCOMPARE(lines.size(), std::size_t(3)); // two events' records and one line
        QCOMPARE(lines[0].line, std::uint64_t(70));
        QVERIFY(lines[0].bookmark);
        QVERIFY(!lines[1].matched);
        QCOMPARE(lines[2].path, std::string("slurm/sacct.psv"));
        QVERIFY(lines[2].tooltip.contains(QLatin1String("tags: sacct")));
    }
};

QTEST_MAIN(TstAnnotationsPane)
#include "tst_annotations_pane.moc"
