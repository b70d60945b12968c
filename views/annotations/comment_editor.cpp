// SPDX-License-Identifier: Apache-2.0
#include "views/annotations/comment_editor.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace faultline::views {

CommentEditor::CommentEditor(const QString& target, const QString& text, const QStringList& tags, QWidget* parent)
    : QDialog(parent)
    , m_text(new QPlainTextEdit(text, this))
    , m_tags(new QLineEdit(tags.join(QStringLiteral(", ")), this))
{
    setObjectName(QStringLiteral("commentEditor"));
    setWindowTitle(text.isEmpty() && tags.isEmpty() ? tr("Comment") : tr("Edit Comment"));
    auto* on = new QLabel(tr("On %1").arg(target.toHtmlEscaped()), this);
    on->setWordWrap(true);
    on->setTextFormat(Qt::RichText);
    m_text->setObjectName(QStringLiteral("commentText"));
    m_text->setPlaceholderText(tr("What you found, what to check next…"));
    m_text->setTabChangesFocus(true);
    m_tags->setObjectName(QStringLiteral("commentTags"));
    m_tags->setPlaceholderText(tr("nvlink, to-review"));
    auto* form = new QFormLayout;
    form->addRow(tr("&Comment:"), m_text);
    form->addRow(tr("&Tags:"), m_tags);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Save"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(on);
    layout->addLayout(form);
    layout->addWidget(buttons);
    resize(460, 260);
    m_text->setFocus();
}

QString CommentEditor::text() const
{
    return m_text->toPlainText().trimmed();
}

QStringList CommentEditor::tags() const
{
    QStringList out;
    for (const QString& t : m_tags->text().split(QLatin1Char(',')))
        if (const QString tag = t.trimmed(); !tag.isEmpty() && !out.contains(tag))
            out << tag;
    return out;
}

void CommentEditor::accept()
{
    // Nothing to store: the editor stays open.
    if (text().isEmpty() && tags().isEmpty())
        return;
    QDialog::accept();
}

} // namespace faultline::views
