// SPDX-License-Identifier: Apache-2.0
// The small editor C opens: a comment's text and its tags (comma-separated) for one target, named at the top. It
// opens non-modal (open()); accepted() means the user confirmed a text or tags. Thread affinity: UI thread.
#pragma once

#include <QDialog>
#include <QStringList>

class QLineEdit;
class QPlainTextEdit;

namespace faultline::views {

class CommentEditor : public QDialog
{
    Q_OBJECT
public:
    /// `target` names what the comment is on; `text` and `tags` are the comment's when it is an edit.
    CommentEditor(
        const QString& target, const QString& text = {}, const QStringList& tags = {}, QWidget* parent = nullptr);

    QString text() const;
    /// The tags typed, trimmed, empty ones dropped.
    QStringList tags() const;
    QPlainTextEdit* textEdit() const { return m_text; }
    QLineEdit* tagsEdit() const { return m_tags; }

    void accept() override;

private:
    QPlainTextEdit* m_text;
    QLineEdit* m_tags;
};

} // namespace faultline::views
