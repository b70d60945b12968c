// SPDX-License-Identifier: Apache-2.0
// What an edited catalog does to a case library: the regression (every case re-analysed, the ones whose verdict would
// flip listed first, each with its diff) or the must-not-fire sweep of one rule (every case and line where it would
// fire). One row per case with an Open button; its details (the diff's lines, or the lines where the rule fires)
// below it; "only cases that flip / fire" narrows the list. Open (or a double-click) asks the app to open the case,
// at a line when a line was chosen.
//
// Thread affinity: UI thread. The pane shows what it is given; the app runs the regression and the sweep.
#pragma once

#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>

class QCheckBox;
class QLabel;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace faultline::views {

/// One case of the library, as the pane lists it.
struct LibraryCaseRow
{
    QString path; ///< the case file
    QString status; ///< "flips", "unchanged", "broken", "fires 2×", "failed", ...
    bool flagged = false; ///< its verdict flips, or the rule fires in it, or it failed
    bool failed = false;
    QString before; ///< regression: the latest run's verdict in one line
    QString after; ///< regression: the edited catalog's
    QStringList details; ///< regression: the diff's lines and the expectation's misses; a failure's error
    struct Line
    {
        QString file; ///< as the case names it
        quint64 line = 0;
        QString text;
        QString what; ///< the event it made and what became of it
    };
    QVector<Line> lines; ///< sweep: where the rule fires
    qint64 ms = 0;
};

struct LibraryResults
{
    enum class Kind { Regression, Sweep };
    Kind kind = Kind::Regression;
    QString library; ///< the folder
    QString subject; ///< the catalog ("faultline-core 1.6.0 (abc123), edited") or the rule swept
    QString summary; ///< one line: counts and time
    QVector<LibraryCaseRow> cases; ///< in path order
};

class LibraryResultsPane : public QWidget
{
    Q_OBJECT
public:
    explicit LibraryResultsPane(QWidget* parent = nullptr);

    void setResults(const LibraryResults& results);
    const LibraryResults& results() const { return m_results; }
    /// Work runs over the library: what it is doing, and Cancel.
    void setBusy(bool busy, const QString& what = {});
    void setFailed(const QString& message);
    /// The case paths the list shows now (flagged ones only while the filter is on), top to bottom.
    QStringList shownCases() const;
    QTreeWidget* tree() const { return m_tree; }
    QCheckBox* onlyFlagged() const { return m_onlyFlagged; }
    QLabel* summary() const { return m_summary; }
    /// The Open button of a case's row (nullptr when it is not shown).
    QPushButton* openButton(const QString& casePath) const;

Q_SIGNALS:
    /// Open the case; `file` and `line` name a line to show in it ("" and 0: none).
    void openRequested(const QString& casePath, const QString& file, quint64 line);
    void cancelRequested();

private:
    void rebuild();

    LibraryResults m_results;
    QLabel* m_summary;
    QCheckBox* m_onlyFlagged;
    QTreeWidget* m_tree;
    QLabel* m_progress;
    QPushButton* m_cancel;
};

} // namespace faultline::views
