// SPDX-License-Identifier: Apache-2.0
#include "views/story/step_editor.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace faultline::views {

StepEditor::StepEditor(const QString& what, const QString& title, const QString& text, QWidget* parent)
    : QDialog(parent)
    , m_title(new QLineEdit(title, this))
    , m_text(new QPlainTextEdit(text, this))
{
    setObjectName(QStringLiteral("stepEditor"));
    setWindowTitle(tr("Story Step"));
    auto* about = new QLabel(what, this);
    about->setWordWrap(true);
    m_title->setObjectName(QStringLiteral("stepTitle"));
    m_title->setPlaceholderText(tr("What this step shows, e.g. “The Xid 149 on node-02 comes first”"));
    m_text->setObjectName(QStringLiteral("stepText"));
    m_text->setPlaceholderText(tr("What to say at this step (shown under the views while presenting)"));
    m_text->setTabChangesFocus(true);
    auto* form = new QFormLayout;
    form->addRow(tr("&Title:"), m_title);
    form->addRow(tr("&Text:"), m_text);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto update = [this] { m_ok->setEnabled(!m_title->text().trimmed().isEmpty()); };
    connect(m_title, &QLineEdit::textChanged, this, update);
    update();
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(about);
    layout->addLayout(form);
    layout->addWidget(buttons);
    resize(520, 300);
}

QString StepEditor::title() const
{
    return m_title->text().trimmed();
}

QString StepEditor::text() const
{
    return m_text->toPlainText().trimmed();
}

} // namespace faultline::views
