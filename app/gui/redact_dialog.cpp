// SPDX-License-Identifier: Apache-2.0
#include "app/gui/redact_dialog.h"

#include "app/usecases/redact.h"
#include "core/util/json_writer.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPromise>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <optional>

namespace faultline::app {

namespace {

/// What a job brings back to the UI thread.
template <class T> struct Outcome
{
    std::optional<T> value;
    QString error;
    bool cancelled = false;
};

template <class T> Outcome<T> outcomeOf(usecases::Result<T>&& r)
{
    Outcome<T> out;
    if (r.ok())
        out.value = std::move(*r.value);
    else if (r.failure.code == usecases::Exit::Cancelled)
        out.cancelled = true;
    else
        out.error = QString::fromStdString(r.failure.text());
    return out;
}

/// Runs `work` on `pool` with a Task whose progress goes to the watcher; `done` gets the outcome on the UI thread.
template <class T, class Work, class Done>
void runJob(QObject* context, QThreadPool& pool, QProgressBar* bar, QLabel* status,
    const std::shared_ptr<std::atomic_bool>& cancel, Work work, Done done)
{
    auto* watcher = new QFutureWatcher<Outcome<T>>(context);
    QObject::connect(
        watcher, &QFutureWatcher<Outcome<T>>::progressValueChanged, context, [watcher, bar, status](int value) {
            bar->setValue(value);
            status->setText(watcher->progressText());
        });
    QObject::connect(watcher, &QFutureWatcher<Outcome<T>>::finished, context, [watcher, done] {
        watcher->deleteLater();
        done(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(&pool, [work, cancel](QPromise<Outcome<T>>& promise) {
        promise.setProgressRange(0, 100);
        usecases::Task task;
        task.cancel = cancel.get();
        task.progress = [&promise](int percent, const std::string& step) {
            promise.setProgressValueAndText(percent, QString::fromStdString(step));
        };
        promise.addResult(outcomeOf(work(task)));
    }));
}

} // namespace

RedactDialog::RedactDialog(const QString& casePath, const QString& rulesDir, QWidget* parent)
    : QDialog(parent)
    , m_casePath(casePath)
    , m_rulesDir(rulesDir)
    , m_profileKind(new QComboBox(this))
    , m_profileFile(new QLineEdit(this))
    , m_chooseProfile(new QPushButton(tr("Choose…"), this))
    , m_preview(new QPushButton(tr("&Preview"), this))
    , m_summary(new QLabel(this))
    , m_table(new QTableWidget(0, 4, this))
    , m_copyPath(new QLineEdit(this))
    , m_progress(new QProgressBar(this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_status(new QLabel(this))
    , m_write(new QPushButton(tr("&Write Copy"), this))
{
    setObjectName(QStringLiteral("redactDialog"));
    setWindowTitle(tr("Export Redacted Copy — %1").arg(QFileInfo(casePath).fileName()));
    m_pool.setMaxThreadCount(1);
    m_profileKind->addItem(tr("Built-in profile (default)"), QStringLiteral("default"));
    m_profileKind->addItem(tr("Profile file…"), QStringLiteral("file"));
    m_profileFile->setPlaceholderText(tr("redaction profile (YAML)"));
    m_table->setObjectName(QStringLiteral("replacements"));
    m_table->setHorizontalHeaderLabels({ tr("Category"), tr("Original"), tr("Pseudonym"), tr("Count") });
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_summary->setWordWrap(true);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_copyPath->setObjectName(QStringLiteral("copyPath"));
    const QFileInfo info(casePath);
    m_copyPath->setText(info.dir().filePath(info.completeBaseName() + QStringLiteral("-redacted.faultline")));
    m_progress->setRange(0, 100);
    m_progress->setVisible(false);
    m_cancel->setVisible(false);

    auto* profileRow = new QHBoxLayout;
    profileRow->addWidget(m_profileKind);
    profileRow->addWidget(m_profileFile, 1);
    profileRow->addWidget(m_chooseProfile);
    profileRow->addWidget(m_preview);
    auto* choosePath = new QPushButton(tr("Choose…"), this);
    auto* copyRow = new QHBoxLayout;
    copyRow->addWidget(m_copyPath, 1);
    copyRow->addWidget(choosePath);
    auto* progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_cancel);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_write, QDialogButtonBox::ActionRole);
    auto* form = new QFormLayout;
    form->addRow(tr("Profile:"), profileRow);
    form->addRow(tr("Copy:"), copyRow);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("Every value the copy replaces, everywhere in the case (nothing is written "
                                    "until Write Copy):"),
        this));
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    layout->addLayout(progressRow);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(820, 560);

    connect(m_profileKind, &QComboBox::currentIndexChanged, this, &RedactDialog::updateButtons);
    connect(m_profileFile, &QLineEdit::textChanged, this, &RedactDialog::updateButtons);
    connect(m_copyPath, &QLineEdit::textChanged, this, &RedactDialog::updateButtons);
    connect(m_chooseProfile, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Redaction Profile"), m_profileFile->text(),
            tr("Redaction profiles (*.yaml *.yml);;All files (*)"));
        if (!file.isEmpty())
            setProfile(file);
    });
    connect(choosePath, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getSaveFileName(this, tr("Redacted Copy"), m_copyPath->text(),
            tr("Faultline cases (*.faultline)"), nullptr, QFileDialog::DontConfirmOverwrite);
        if (!file.isEmpty())
            m_copyPath->setText(
                file.endsWith(QLatin1String(".faultline")) ? file : file + QStringLiteral(".faultline"));
    });
    connect(m_preview, &QPushButton::clicked, this, &RedactDialog::preview);
    connect(m_write, &QPushButton::clicked, this, &RedactDialog::writeCopy);
    connect(m_cancel, &QPushButton::clicked, this, &RedactDialog::cancel);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    updateButtons();
}

RedactDialog::~RedactDialog()
{
    cancel();
    m_pool.waitForDone();
}

void RedactDialog::setProfile(const QString& nameOrPath)
{
    if (nameOrPath.isEmpty() || nameOrPath == QLatin1String("default")) {
        m_profileKind->setCurrentIndex(0);
    } else {
        m_profileKind->setCurrentIndex(1);
        m_profileFile->setText(nameOrPath);
    }
    updateButtons();
}

QString RedactDialog::profile() const
{
    return m_profileKind->currentData().toString() == QLatin1String("file") ? m_profileFile->text().trimmed()
                                                                            : QStringLiteral("default");
}

void RedactDialog::setCopyPath(const QString& path)
{
    m_copyPath->setText(path);
}

QString RedactDialog::statusText() const
{
    return m_status->text();
}

void RedactDialog::cancel()
{
    if (m_cancelFlag)
        m_cancelFlag->store(true);
}

void RedactDialog::setBusy(bool busy, const QString& what)
{
    m_busy = busy;
    m_progress->setVisible(busy);
    m_cancel->setVisible(busy);
    m_progress->setValue(0);
    if (busy) {
        m_status->setStyleSheet(QString());
        m_status->setText(what);
    }
    updateButtons();
}

void RedactDialog::showError(const QString& message)
{
    m_status->setStyleSheet(QStringLiteral("color: #b00020"));
    m_status->setText(message);
    Q_EMIT failed(message);
}

void RedactDialog::updateButtons()
{
    const bool file = m_profileKind->currentData().toString() == QLatin1String("file");
    m_profileFile->setEnabled(file && !m_busy);
    m_chooseProfile->setEnabled(file && !m_busy);
    m_profileKind->setEnabled(!m_busy);
    const bool profileGiven = !profile().isEmpty();
    m_preview->setEnabled(!m_busy && profileGiven);
    const bool previewed = !m_previewedProfile.isEmpty() && m_previewedProfile == profile();
    m_write->setEnabled(!m_busy && previewed && !m_copyPath->text().trimmed().isEmpty());
    m_write->setToolTip(previewed ? QString() : tr("Preview the replacements with this profile first"));
}

void RedactDialog::preview()
{
    if (m_busy)
        return;
    const QString chosen = profile();
    m_cancelFlag = std::make_shared<std::atomic_bool>(false);
    m_previewedProfile.clear();
    m_table->setRowCount(0);
    m_summary->clear();
    setBusy(true, tr("Reading the case for its secrets…"));
    const std::string casePath = m_casePath.toStdString();
    const std::string profileArg = chosen.toStdString();
    runJob<usecases::RedactionPreview>(
        this, m_pool, m_progress, m_status, m_cancelFlag,
        [casePath, profileArg](const usecases::Task& task) -> usecases::Result<usecases::RedactionPreview> {
            auto profile = usecases::loadRedactionProfile(profileArg);
            if (!profile.ok())
                return usecases::Result<usecases::RedactionPreview>::fail(
                    profile.failure.code, profile.failure.message, profile.failure.diagnostics);
            usecases::RedactRequest request;
            request.casePath = casePath;
            request.profile = std::move(*profile.value);
            return usecases::previewRedaction(request, task);
        },
        [this, chosen](const Outcome<usecases::RedactionPreview>& out) {
            setBusy(false);
            if (out.cancelled) {
                m_status->setText(tr("Preview cancelled"));
                return;
            }
            if (!out.value) {
                showError(out.error);
                return;
            }
            const auto& list = out.value->replacements;
            m_table->setSortingEnabled(false);
            m_table->setRowCount(static_cast<int>(list.size()));
            for (int row = 0; row < static_cast<int>(list.size()); ++row) {
                const core::Replacement& r = list[static_cast<std::size_t>(row)];
                m_table->setItem(
                    row, 0, new QTableWidgetItem(QString::fromLatin1(core::redactionCategoryName(r.category))));
                m_table->setItem(
                    row, 1, new QTableWidgetItem(QString::fromStdString(core::escapeForDisplay(r.original))));
                m_table->setItem(row, 2, new QTableWidgetItem(QString::fromStdString(r.pseudonym)));
                auto* count = new QTableWidgetItem;
                count->setData(Qt::DisplayRole, static_cast<qulonglong>(r.count));
                m_table->setItem(row, 3, count);
            }
            QString summary = tr("With the profile %1: %2.")
                                  .arg(QString::fromStdString(out.value->profile.name),
                                      QString::fromStdString(usecases::replacementSummary(list)));
            if (const auto& files = out.value->changedCatalogFiles; !files.empty()) {
                QStringList names;
                for (const auto& f : files)
                    names << QFileInfo(QString::fromStdString(f)).fileName();
                summary += QLatin1Char(' ')
                    + tr("%n stored rule file(s) (%1) name secrets of the case: they are redacted too, and the "
                         "copy's catalog gets a new hash.",
                        nullptr, static_cast<int>(files.size()))
                          .arg(names.join(QStringLiteral(", ")));
            }
            m_summary->setText(summary);
            m_status->setText(tr("Nothing has been written. Write Copy writes the redacted copy."));
            m_previewedProfile = chosen;
            updateButtons();
            Q_EMIT previewShown(m_table->rowCount());
        });
}

void RedactDialog::writeCopy()
{
    if (m_busy || m_previewedProfile != profile())
        return;
    const QString path = m_copyPath->text().trimmed();
    m_cancelFlag = std::make_shared<std::atomic_bool>(false);
    setBusy(true, tr("Writing the redacted copy…"));
    const std::string casePath = m_casePath.toStdString();
    const std::string profileArg = profile().toStdString();
    const std::string rulesDir = m_rulesDir.toStdString();
    runJob<usecases::RedactedCase>(
        this, m_pool, m_progress, m_status, m_cancelFlag,
        [casePath, profileArg, rulesDir, outPath = path.toStdString()](
            const usecases::Task& task) -> usecases::Result<usecases::RedactedCase> {
            auto profile = usecases::loadRedactionProfile(profileArg);
            if (!profile.ok())
                return usecases::Result<usecases::RedactedCase>::fail(
                    profile.failure.code, profile.failure.message, profile.failure.diagnostics);
            usecases::RedactRequest request;
            request.casePath = casePath;
            request.outPath = outPath;
            request.currentRulesDir = rulesDir;
            request.profile = std::move(*profile.value);
            return usecases::redactCase(request, task);
        },
        [this, path](const Outcome<usecases::RedactedCase>& out) {
            setBusy(false);
            if (out.cancelled) {
                m_status->setText(tr("Cancelled: no copy was written"));
                return;
            }
            if (!out.value) {
                showError(out.error);
                return;
            }
            const auto& r = *out.value;
            QString summary = tr("Redacted copy written: %1 (%2 KiB, %3 files); replaced %4.")
                                  .arg(QString::fromStdString(r.path))
                                  .arg((r.bytes + 1023) / 1024)
                                  .arg(r.files)
                                  .arg(QString::fromStdString(usecases::replacementSummary(r.replacements)));
            if (r.reproduces && *r.reproduces)
                summary += QLatin1Char(' ') + tr("The copy re-analyses to its stored verdict.");
            if (!r.checkNote.empty())
                summary += QLatin1Char(' ') + QString::fromStdString(r.checkNote);
            m_status->setStyleSheet(QString());
            m_status->setText(summary);
            Q_EMIT copyWritten(path, summary);
        });
}

} // namespace faultline::app
