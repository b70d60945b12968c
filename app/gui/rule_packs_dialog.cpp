// SPDX-License-Identifier: Apache-2.0
#include "app/gui/rule_packs_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace faultline::app {

RulePacksDialog::RulePacksDialog(const QString& userDir, bool userPacks, const QStringList& dirs, QWidget* parent)
    : QDialog(parent)
    , m_user(new QCheckBox(this))
    , m_list(new QListWidget(this))
    , m_remove(new QPushButton(tr("&Remove"), this))
    , m_up(new QPushButton(tr("Move &Up"), this))
    , m_down(new QPushButton(tr("Move &Down"), this))
{
    setWindowTitle(tr("Rule Packs"));
    setObjectName(QStringLiteral("rulePacksDialog"));
    auto* intro = new QLabel(tr("Rule pack directories hold <tt>packs/*.yaml</tt> and <tt>tables/*.yaml</tt>. Each is "
                                "layered on the bundled catalog in this order: a pack adds rules, replaces one by id "
                                "(<tt>override: true</tt>) or removes one (<tt>disable</tt>). The catalog is reloaded "
                                "when you press OK."),
        this);
    intro->setWordWrap(true);
    const bool exists = !userDir.isEmpty() && QFileInfo(userDir).isDir();
    m_user->setText(tr("Load my own rule packs from %1%2")
                        .arg(QDir::toNativeSeparators(userDir), exists ? QString() : tr(" (does not exist yet)")));
    m_user->setChecked(userPacks);
    m_user->setObjectName(QStringLiteral("userPacks"));
    m_list->setObjectName(QStringLiteral("packDirs"));
    for (const QString& d : dirs)
        addDirectory(d);
    auto* add = new QPushButton(tr("&Add…"), this);
    connect(add, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Add a Rule Pack Directory"));
        if (!dir.isEmpty())
            addDirectory(dir);
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        delete m_list->takeItem(m_list->currentRow());
        updateButtons();
    });
    connect(m_up, &QPushButton::clicked, this, [this] { move(-1); });
    connect(m_down, &QPushButton::clicked, this, [this] { move(1); });
    connect(m_list, &QListWidget::currentRowChanged, this, &RulePacksDialog::updateButtons);
    auto* buttons = new QVBoxLayout;
    for (QPushButton* b : { add, m_remove, m_up, m_down })
        buttons->addWidget(b);
    buttons->addStretch();
    auto* row = new QHBoxLayout;
    row->addWidget(m_list, 1);
    row->addLayout(buttons);
    auto* box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(box, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(box, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_user);
    layout->addWidget(new QLabel(tr("More rule pack directories, lowest layer first:"), this));
    layout->addLayout(row, 1);
    layout->addWidget(box);
    resize(640, 360);
    updateButtons();
}

bool RulePacksDialog::userPacks() const
{
    return m_user->isChecked();
}

QStringList RulePacksDialog::directories() const
{
    QStringList out;
    for (int i = 0; i < m_list->count(); ++i)
        out << m_list->item(i)->text();
    return out;
}

void RulePacksDialog::addDirectory(const QString& dir)
{
    const QString clean = QDir::cleanPath(dir);
    if (!directories().contains(clean))
        m_list->addItem(clean);
    m_list->setCurrentRow(m_list->count() - 1);
    updateButtons();
}

void RulePacksDialog::move(int step)
{
    const int row = m_list->currentRow();
    const int to = row + step;
    if (row < 0 || to < 0 || to >= m_list->count())
        return;
    QListWidgetItem* item = m_list->takeItem(row);
    m_list->insertItem(to, item);
    m_list->setCurrentRow(to);
}

void RulePacksDialog::updateButtons()
{
    const int row = m_list->currentRow();
    m_remove->setEnabled(row >= 0);
    m_up->setEnabled(row > 0);
    m_down->setEnabled(row >= 0 && row + 1 < m_list->count());
}

} // namespace faultline::app
