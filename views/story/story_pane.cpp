// SPDX-License-Identifier: Apache-2.0
#include "views/story/story_pane.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QSignalBlocker>
#include <QToolButton>
#include <QVBoxLayout>

namespace faultline::views {

namespace {

QToolButton* makeButton(const QString& text, const QString& name, const QString& tip, QWidget* parent)
{
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setObjectName(name);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}

} // namespace

StoryPane::StoryPane(QWidget* parent)
    : QWidget(parent)
    , m_header(new QLabel(this))
    , m_list(new QListWidget(this))
    , m_message(new QLabel(this))
    , m_add(makeButton(tr("Add View"), QStringLiteral("storyAdd"),
          tr("Add the current view (time window, lanes, selection, evidence, panes) as a step after the current one "
             "(Ctrl+Alt+A)"),
          this))
    , m_edit(makeButton(tr("Edit…"), QStringLiteral("storyEdit"), tr("Edit the step's title and text"), this))
    , m_up(makeButton(tr("▲"), QStringLiteral("storyUp"), tr("Move the step up (Alt+Up)"), this))
    , m_down(makeButton(tr("▼"), QStringLiteral("storyDown"), tr("Move the step down (Alt+Down)"), this))
    , m_remove(makeButton(tr("Delete…"), QStringLiteral("storyRemove"),
          tr("Delete the step (the case keeps every earlier revision of the story)"), this))
    , m_propose(makeButton(tr("Propose"), QStringLiteral("storyPropose"),
          tr("Replace the story with one built from the verdict: the precursors, the cause, the first symptom on "
             "each other node, the teardown (the case keeps the current one as an earlier revision)"),
          this))
    , m_present(makeButton(tr("Present"), QStringLiteral("storyPresent"),
          tr("Present the story full screen (F11): → Space PgDn next, ← PgUp back, Backspace back to the step, Esc "
             "leaves"),
          this))
{
    setObjectName(QStringLiteral("storyPane"));
    m_header->setObjectName(QStringLiteral("storyHeader"));
    m_header->setWordWrap(true);
    m_list->setObjectName(QStringLiteral("storySteps"));
    m_list->setWordWrap(true);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setAlternatingRowColors(true);
    m_list->installEventFilter(this);
    m_message->setObjectName(QStringLiteral("storyMessage"));
    m_message->setWordWrap(true);
    m_message->setAlignment(Qt::AlignCenter);
    auto* buttons = new QHBoxLayout;
    buttons->setContentsMargins(4, 2, 4, 0);
    buttons->setSpacing(2);
    for (auto* b : { m_add, m_edit, m_up, m_down, m_remove })
        buttons->addWidget(b);
    buttons->addStretch(1);
    buttons->addWidget(m_propose);
    buttons->addWidget(m_present);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buttons);
    layout->addWidget(m_header);
    layout->addWidget(m_list, 1);
    layout->addWidget(m_message, 1);
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        updateButtons();
        if (row >= 0 && !m_quiet)
            Q_EMIT stepActivated(row);
    });
    // A click on the current step goes to it again (the views may have moved on since).
    connect(m_list, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        const int row = m_list->row(item);
        if (row >= 0 && row == m_list->currentRow())
            Q_EMIT stepActivated(row);
    });
    connect(m_list, &QListWidget::itemDoubleClicked, this, [this](QListWidgetItem* item) {
        if (m_editable)
            Q_EMIT editRequested(m_list->row(item));
    });
    connect(m_add, &QToolButton::clicked, this, &StoryPane::addRequested);
    connect(m_edit, &QToolButton::clicked, this, [this] {
        if (currentStep() >= 0)
            Q_EMIT editRequested(currentStep());
    });
    connect(m_up, &QToolButton::clicked, this, [this] {
        if (currentStep() > 0)
            Q_EMIT moveRequested(currentStep(), currentStep() - 1);
    });
    connect(m_down, &QToolButton::clicked, this, [this] {
        if (currentStep() >= 0 && currentStep() + 1 < stepCount())
            Q_EMIT moveRequested(currentStep(), currentStep() + 1);
    });
    connect(m_remove, &QToolButton::clicked, this, [this] { confirmRemove(currentStep()); });
    connect(m_propose, &QToolButton::clicked, this, &StoryPane::proposeRequested);
    connect(m_present, &QToolButton::clicked, this, &StoryPane::presentRequested);
    showMessage(tr("Open or save a case to tell its story: a new case starts with a story proposed from its verdict, "
                   "and Add View makes the current view a step."));
}

void StoryPane::setSteps(std::vector<StoryStepRow> steps, qint64 revision, bool editable, const QString& why)
{
    const int current = currentStep();
    m_steps = std::move(steps);
    m_revision = revision;
    m_editable = editable;
    {
        const QSignalBlocker block(m_list);
        m_list->clear();
        for (std::size_t i = 0; i < m_steps.size(); ++i) {
            const auto& s = m_steps[i];
            QString text = tr("%1. %2").arg(i + 1).arg(s.title.isEmpty() ? tr("(untitled)") : s.title);
            QStringList details;
            if (!s.window.isEmpty())
                details << s.window;
            if (!s.selects.isEmpty())
                details << s.selects;
            if (!details.isEmpty())
                text += QLatin1Char('\n') + details.join(QStringLiteral(" · "));
            if (!s.matched)
                text += QLatin1Char('\n') + tr("⚠ %1").arg(s.reason);
            auto* item = new QListWidgetItem(text, m_list);
            QString tip = s.text.toHtmlEscaped();
            tip.replace(QLatin1Char('\n'), QStringLiteral("<br>"));
            if (s.proposed)
                tip += QStringLiteral("<p><i>") + tr("Proposed from the verdict").toHtmlEscaped()
                    + QStringLiteral("</i></p>");
            item->setToolTip(tip);
            if (!s.matched)
                item->setForeground(QColor(0xc6, 0x28, 0x28));
        }
    }
    m_list->setVisible(true);
    m_message->setVisible(m_steps.empty());
    m_message->setText(m_steps.empty() ? tr("The story has no steps: Add View makes the current view a step, Propose "
                                            "builds one from the verdict.")
                                       : QString());
    QString header = m_steps.empty() ? tr("No steps") : tr("%n step(s)", nullptr, stepCount());
    if (revision > 0)
        header += tr(" · revision %1").arg(revision);
    if (!editable && !why.isEmpty())
        header += QStringLiteral(" · ") + why;
    m_header->setText(header);
    m_header->setVisible(true);
    if (current >= 0 && current < stepCount())
        setCurrentStep(current);
    updateButtons();
}

void StoryPane::showMessage(const QString& message)
{
    m_steps.clear();
    m_revision = 0;
    m_editable = false;
    {
        const QSignalBlocker block(m_list);
        m_list->clear();
    }
    m_list->setVisible(false);
    m_header->setVisible(false);
    m_message->setText(message);
    m_message->setVisible(true);
    updateButtons();
}

int StoryPane::currentStep() const
{
    return m_list->currentRow();
}

void StoryPane::setCurrentStep(int step)
{
    m_quiet = true;
    if (step >= 0 && step < m_list->count()) {
        m_list->setCurrentRow(step);
        m_list->scrollToItem(m_list->item(step));
    } else {
        m_list->setCurrentRow(-1);
    }
    m_quiet = false;
    updateButtons();
}

void StoryPane::updateButtons()
{
    const int step = currentStep();
    const bool hasCase = m_header->isVisible();
    m_add->setEnabled(hasCase && m_editable);
    m_edit->setEnabled(m_editable && step >= 0);
    m_up->setEnabled(m_editable && step > 0);
    m_down->setEnabled(m_editable && step >= 0 && step + 1 < stepCount());
    m_remove->setEnabled(m_editable && step >= 0);
    m_propose->setEnabled(hasCase && m_editable);
    m_present->setEnabled(hasCase);
}

bool StoryPane::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_list && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        const int step = currentStep();
        if (key->key() == Qt::Key_Delete && step >= 0) {
            confirmRemove(step);
            return true;
        }
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) && step >= 0) {
            Q_EMIT stepActivated(step);
            return true;
        }
        if (key->modifiers() & Qt::AltModifier) {
            if (key->key() == Qt::Key_Up && m_up->isEnabled()) {
                Q_EMIT moveRequested(step, step - 1);
                return true;
            }
            if (key->key() == Qt::Key_Down && m_down->isEnabled()) {
                Q_EMIT moveRequested(step, step + 1);
                return true;
            }
        }
    }
    return QWidget::eventFilter(watched, event);
}

void StoryPane::confirmRemove(int step)
{
    if (!m_editable || step < 0 || step >= stepCount())
        return;
    auto* box = new QMessageBox(QMessageBox::Question, tr("Delete Step"),
        tr("Delete step %1, “%2”?\n\nThe case keeps the story as it was as an earlier revision.")
            .arg(step + 1)
            .arg(m_steps[static_cast<std::size_t>(step)].title),
        QMessageBox::Yes | QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("removeStepConfirm"));
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, step](int result) {
        if (result == QMessageBox::Yes)
            Q_EMIT removeRequested(step);
    });
    box->open();
}

} // namespace faultline::views
