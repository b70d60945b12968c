// SPDX-License-Identifier: Apache-2.0
#include "views/story/presentation_caption.h"

#include <QGridLayout>
#include <QLabel>

namespace faultline::views {

PresentationCaption::PresentationCaption(QWidget* parent)
    : QFrame(parent)
    , m_position(new QLabel(this))
    , m_title(new QLabel(this))
    , m_text(new QLabel(this))
    , m_hint(new QLabel(this))
{
    setObjectName(QStringLiteral("presentationCaption"));
    setFrameShape(QFrame::NoFrame);
    setAutoFillBackground(true);
    m_position->setObjectName(QStringLiteral("presentationPosition"));
    m_title->setObjectName(QStringLiteral("presentationTitle"));
    m_text->setObjectName(QStringLiteral("presentationText"));
    m_hint->setObjectName(QStringLiteral("presentationHint"));
    m_title->setWordWrap(true);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_title->setTextFormat(Qt::PlainText);
    m_hint->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    QFont big = font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.35);
    m_title->setFont(big);
    m_position->setFont(big);
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(18, 10, 18, 12);
    layout->setHorizontalSpacing(18);
    layout->addWidget(m_position, 0, 0, Qt::AlignTop);
    layout->addWidget(m_title, 0, 1);
    layout->addWidget(m_hint, 0, 2, Qt::AlignTop);
    layout->addWidget(m_text, 1, 1, 1, 2);
    layout->setColumnStretch(1, 1);
}

void PresentationCaption::setStep(int step, int count, const QString& title, const QString& text, const QString& source)
{
    m_step = step;
    m_position->setText(count > 0 ? tr("%1 / %2").arg(step + 1).arg(count) : QString());
    m_position->setToolTip(tr("Step %1 of %2 of the %3").arg(step + 1).arg(count).arg(source));
    m_title->setText(title);
    m_text->setText(text);
    m_text->setVisible(!text.isEmpty());
    m_detached = false;
    updateHint();
}

void PresentationCaption::setDetached(bool detached)
{
    if (detached == m_detached)
        return;
    m_detached = detached;
    updateHint();
}

void PresentationCaption::updateHint()
{
    if (m_detached)
        m_hint->setText(tr("<b>Exploring</b> · Backspace returns to step %1").arg(m_step + 1));
    else
        m_hint->setText(tr("→ Space next · ← back · Esc leaves"));
}

QString PresentationCaption::titleText() const
{
    return m_title->text();
}

QString PresentationCaption::positionText() const
{
    return m_position->text();
}

QString PresentationCaption::bodyText() const
{
    return m_text->text();
}

} // namespace faultline::views
