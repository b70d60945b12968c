// SPDX-License-Identifier: Apache-2.0
#include "app/gui/export_report_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace faultline::app {

namespace {

QString suffixOf(render::ExportFormat f)
{
    switch (f) {
    case render::ExportFormat::Markdown:
        return QStringLiteral("md");
    case render::ExportFormat::Html:
        return QStringLiteral("html");
    case render::ExportFormat::Pdf:
        break;
    }
    return QStringLiteral("pdf");
}

} // namespace

ExportReportDialog::ExportReportDialog(const QString& casePath, QWidget* parent)
    : QDialog(parent)
    , m_casePath(casePath)
    , m_format(new QComboBox(this))
    , m_redaction(new QComboBox(this))
    , m_profile(new QLineEdit(this))
    , m_chooseProfile(new QPushButton(tr("Choose…"), this))
    , m_path(new QLineEdit(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Export Report"));
    setObjectName(QStringLiteral("exportReportDialog"));
    m_format->setObjectName(QStringLiteral("reportFormat"));
    m_format->addItem(tr("PDF (A4, with the timeline picture)"), static_cast<int>(render::ExportFormat::Pdf));
    m_format->addItem(tr("HTML (one file, pictures inline)"), static_cast<int>(render::ExportFormat::Html));
    m_format->addItem(
        tr("Markdown (pictures in a NAME.assets folder beside it)"), static_cast<int>(render::ExportFormat::Markdown));
    m_redaction->setObjectName(QStringLiteral("reportRedaction"));
    m_redaction->addItem(tr("None"), QString());
    m_redaction->addItem(tr("Built-in profile (default)"), QStringLiteral("default"));
    m_redaction->addItem(tr("Profile file…"), QStringLiteral("file"));
    m_profile->setObjectName(QStringLiteral("reportProfile"));
    m_profile->setPlaceholderText(tr("redaction profile (YAML)"));
    m_path->setObjectName(QStringLiteral("reportPath"));

    auto* profileRow = new QHBoxLayout;
    profileRow->addWidget(m_profile, 1);
    profileRow->addWidget(m_chooseProfile);
    auto* choosePath = new QPushButton(tr("Choose…"), this);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(choosePath);
    auto* form = new QFormLayout(this);
    form->addRow(new QLabel(tr("Report on %1").arg(QFileInfo(casePath).fileName()), this));
    form->addRow(tr("&Format:"), m_format);
    form->addRow(tr("&Redaction:"), m_redaction);
    form->addRow(QString(), profileRow);
    form->addRow(tr("Save to:"), pathRow);
    form->addRow(m_buttons);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    setMinimumWidth(640); // room for a path

    const QFileInfo info(casePath);
    m_path->setText(info.dir().filePath(info.completeBaseName() + QStringLiteral("-report.pdf")));
    connect(m_format, &QComboBox::currentIndexChanged, this, &ExportReportDialog::formatChanged);
    connect(m_redaction, &QComboBox::currentIndexChanged, this, &ExportReportDialog::update);
    connect(m_profile, &QLineEdit::textChanged, this, &ExportReportDialog::update);
    connect(m_path, &QLineEdit::textChanged, this, &ExportReportDialog::update);
    connect(m_chooseProfile, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(
            this, tr("Redaction Profile"), m_profile->text(), tr("Redaction profiles (*.yaml *.yml);;All files (*)"));
        if (!file.isEmpty())
            m_profile->setText(file);
    });
    connect(choosePath, &QPushButton::clicked, this, [this] {
        const QString suffix = suffixOf(request().format);
        const QString file = QFileDialog::getSaveFileName(
            this, tr("Export Report"), m_path->text(), tr("%1 files (*.%2)").arg(suffix.toUpper(), suffix));
        if (!file.isEmpty())
            m_path->setText(file);
    });
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    update();
}

render::ExportRequest ExportReportDialog::request() const
{
    render::ExportRequest r;
    r.casePath = m_casePath;
    r.format = static_cast<render::ExportFormat>(m_format->currentData().toInt());
    r.outPath = m_path->text().trimmed();
    const QString redaction = m_redaction->currentData().toString();
    r.redaction = redaction == QLatin1String("file") ? m_profile->text().trimmed() : redaction;
    return r;
}

void ExportReportDialog::setFormat(render::ExportFormat format)
{
    m_format->setCurrentIndex(m_format->findData(static_cast<int>(format)));
}

void ExportReportDialog::setRedaction(const QString& redaction)
{
    if (redaction.isEmpty() || redaction == QLatin1String("default")) {
        m_redaction->setCurrentIndex(m_redaction->findData(redaction));
        return;
    }
    m_redaction->setCurrentIndex(m_redaction->findData(QStringLiteral("file")));
    m_profile->setText(redaction);
}

void ExportReportDialog::setOutPath(const QString& path)
{
    m_path->setText(path);
}

void ExportReportDialog::formatChanged()
{
    // The file follows the format: its suffix is the format's.
    QString path = m_path->text().trimmed();
    const QFileInfo info(path);
    if (!path.isEmpty())
        m_path->setText(info.dir().filePath(info.completeBaseName() + QLatin1Char('.') + suffixOf(request().format)));
    update();
}

QString ExportReportDialog::problem() const
{
    const render::ExportRequest r = request();
    if (r.outPath.isEmpty())
        return tr("Choose the report's file.");
    if (m_redaction->currentData().toString() == QLatin1String("file")) {
        if (r.redaction.isEmpty())
            return tr("Choose the redaction profile file.");
        if (!QFileInfo(r.redaction).isFile())
            return tr("The redaction profile %1 does not exist.").arg(r.redaction);
    }
    return {};
}

void ExportReportDialog::update()
{
    const bool file = m_redaction->currentData().toString() == QLatin1String("file");
    m_profile->setEnabled(file);
    m_chooseProfile->setEnabled(file);
    const QString why = problem();
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(why.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setToolTip(why);
}

} // namespace faultline::app
