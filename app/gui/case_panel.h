// SPDX-License-Identifier: Apache-2.0
// The case panel: a saved case's history beside its verdict. It lists the runs (catalog, engine, outcome, and how
// each differs from the one before), the expected verdict, the narrative and the annotations, and adds notes, the
// narrative and the expectation. The reads and writes are single short SQLite queries and transactions.
// Thread affinity: UI thread.
#pragma once

#include <QString>
#include <QWidget>

#include <functional>
#include <vector>

class QLabel;
class QPushButton;
class QTextBrowser;

namespace faultline::core {
class CaseFile;
struct Diagnostic;
} // namespace faultline::core

namespace faultline::app {

class CasePanel : public QWidget
{
    Q_OBJECT
public:
    explicit CasePanel(QWidget* parent = nullptr);

    /// Shows `casePath`'s history ("" clears the panel).
    void showCase(const QString& casePath);
    const QString& casePath() const { return m_path; }
    /// The panel's text as shown (for tests and copy/paste).
    QString text() const;

    /// A run's stored verdict, as the CLI's `show --run N` prints it ("" and `failed` when it cannot be read).
    QString storedVerdict(qint64 run);

    bool addNote(const QString& text);
    /// A note on line `line` of the stored evidence file `path` (as the import report names it).
    bool addLineNote(const QString& path, quint64 line, const QString& text);
    bool setNarrative(const QString& text);
    bool markLatestExpected(const QString& note);

Q_SIGNALS:
    void caseChanged();
    void failed(const QString& message);

private:
    void refresh();
    /// Opens the case for writing, runs `change`, then refreshes and announces it, or reports its errors.
    bool write(const std::function<bool(core::CaseFile&, std::vector<core::Diagnostic>&)>& change);
    void showStoredRun(qint64 run);

    QString m_path;
    QTextBrowser* m_view;
    QPushButton* m_note;
    QPushButton* m_narrative;
    QPushButton* m_expect;
};

} // namespace faultline::app
