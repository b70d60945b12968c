// SPDX-License-Identifier: Apache-2.0
// The dialog that names a story step: its title (one line) and its text (what the presenter says at that step).
// OK is enabled once the title is not blank. Thread affinity: UI thread.
#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace faultline::views {

class StepEditor : public QDialog
{
    Q_OBJECT
public:
    /// `what` says which step and what it shows ("New step after step 2 · 10:14–10:15 UTC, Xid 149 on node-02").
    StepEditor(const QString& what, const QString& title, const QString& text, QWidget* parent = nullptr);

    QString title() const;
    QString text() const;
    QLineEdit* titleEdit() const { return m_title; }
    QPlainTextEdit* textEdit() const { return m_text; }

private:
    QLineEdit* m_title;
    QPlainTextEdit* m_text;
    QPushButton* m_ok = nullptr;
};

} // namespace faultline::views
