// SPDX-License-Identifier: Apache-2.0
#include "views/start/start_page.h"

#include <QCommandLinkButton>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QVBoxLayout>

namespace faultline::views {

namespace {

QCommandLinkButton* action(QWidget* parent, const QString& title, const QString& description, const QString& name)
{
    auto* b = new QCommandLinkButton(title, description, parent);
    b->setObjectName(name);
    return b;
}

} // namespace

StartPage::StartPage(QWidget* parent)
    : QWidget(parent)
    , m_recent(new QListWidget(this))
    , m_recentEmpty(new QLabel(this))
{
    setObjectName(QStringLiteral("startPage"));
    auto* title = new QLabel(tr("Faultline"), this);
    QFont big = title->font();
    big.setPointSizeF(big.pointSizeF() * 2.0);
    big.setBold(true);
    title->setFont(big);
    auto* subtitle = new QLabel(tr("Find out why a distributed GPU job failed: the first plausible cause, the "
                                   "symptoms it caused on other nodes, and the evidence for every fact."),
        this);
    subtitle->setWordWrap(true);

    auto* sample = action(this, tr("Open the sample incident"),
        tr("Slurm job 48213 on four nodes: see how a verdict reads before you bring your own evidence."),
        QStringLiteral("openSample"));
    m_sample = sample;
    auto* bundle = action(this, tr("Open a bundle…"),
        tr("A directory of evidence: Slurm and Kubernetes records, kernel and driver logs, job output, Loki and "
           "Prometheus exports."),
        QStringLiteral("openBundle"));
    auto* file = action(this, tr("Open an archive or a log file…"),
        tr("A .tar, .tar.gz, .tar.zst or .zip bundle, or one file such as a rank's stderr or a dmesg excerpt."),
        QStringLiteral("openFile"));
    auto* kase = action(this, tr("Open a case…"),
        tr("A .faultline case file saved earlier, with its evidence, runs and notes."), QStringLiteral("openCase"));
    auto* collect = action(this, tr("How to collect a bundle"),
        tr("The commands that gather one job's evidence with faultline-collect, or by hand."),
        QStringLiteral("howToCollect"));

    auto* left = new QVBoxLayout;
    left->addWidget(title);
    left->addWidget(subtitle);
    left->addSpacing(12);
    for (QWidget* w : { static_cast<QWidget*>(sample), static_cast<QWidget*>(bundle), static_cast<QWidget*>(file),
             static_cast<QWidget*>(kase), static_cast<QWidget*>(collect) })
        left->addWidget(w);
    left->addStretch(1);

    auto* recentTitle = new QLabel(tr("Recent cases"), this);
    QFont bold = recentTitle->font();
    bold.setBold(true);
    recentTitle->setFont(bold);
    m_recent->setObjectName(QStringLiteral("recentCases"));
    m_recent->setToolTip(tr("Double-click or press Enter to open a case"));
    m_recentEmpty->setWordWrap(true);
    m_recentEmpty->setText(tr("No recent cases yet. A case is saved with File ▸ Save as Case… after an analysis, "
                              "or with faultline-cli analyze BUNDLE -o CASE."));
    auto* right = new QVBoxLayout;
    right->addWidget(recentTitle);
    right->addWidget(m_recent, 1);
    // Hidden while the list shows; otherwise it takes the list's place at the top.
    right->addWidget(m_recentEmpty, 1, Qt::AlignTop);

    auto* columns = new QHBoxLayout;
    columns->addLayout(left, 3);
    columns->addSpacing(24);
    columns->addLayout(right, 2);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(48, 36, 48, 36);
    outer->addLayout(columns);

    connect(sample, &QCommandLinkButton::clicked, this, &StartPage::openSampleRequested);
    connect(bundle, &QCommandLinkButton::clicked, this, &StartPage::openBundleRequested);
    connect(file, &QCommandLinkButton::clicked, this, &StartPage::openFileRequested);
    connect(kase, &QCommandLinkButton::clicked, this, &StartPage::openCaseRequested);
    connect(collect, &QCommandLinkButton::clicked, this, &StartPage::howToCollectRequested);
    connect(m_recent, &QListWidget::itemActivated, this,
        [this](QListWidgetItem* item) { Q_EMIT openRecentRequested(item->data(Qt::UserRole).toString()); });
    setRecentCases({});
}

void StartPage::setRecentCases(const QStringList& paths)
{
    m_recent->clear();
    for (const QString& path : paths) {
        const QFileInfo info(path);
        auto* item = new QListWidgetItem(m_recent);
        item->setData(Qt::UserRole, path);
        item->setToolTip(path);
        if (info.exists()) {
            item->setText(tr("%1\n%2").arg(info.fileName(), QDir::toNativeSeparators(info.absolutePath())));
        } else {
            item->setText(tr("%1 (missing)\n%2").arg(info.fileName(), QDir::toNativeSeparators(info.absolutePath())));
            item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
        }
    }
    m_recent->setVisible(!paths.isEmpty());
    m_recentEmpty->setVisible(paths.isEmpty());
}

void StartPage::setSampleAvailable(bool sampleFound, const QString& sampleDescription)
{
    m_sample->setEnabled(sampleFound);
    if (auto* b = qobject_cast<QCommandLinkButton*>(m_sample); b && !sampleDescription.isEmpty())
        b->setDescription(sampleDescription);
}

} // namespace faultline::views
