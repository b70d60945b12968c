// SPDX-License-Identifier: Apache-2.0
// File ▸ Export Report…: the report's format (Markdown, HTML, PDF), its redaction (none, the built-in profile, or a
// profile file) and its file. It only asks: the MainWindow runs the export (render::ReportExport) off the UI thread.
#pragma once

#include "app/render/report_export.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLineEdit;
class QPushButton;

namespace faultline::app {

class ExportReportDialog : public QDialog
{
    Q_OBJECT
public:
    /// `casePath` is the case to report on; the file offered is beside it (NAME-report.md, .html or .pdf).
    explicit ExportReportDialog(const QString& casePath, QWidget* parent = nullptr);

    /// What the dialog asks for (ExportRequest::rulesDir is left to the caller).
    render::ExportRequest request() const;
    void setFormat(render::ExportFormat format);
    /// "" (none), "default" or a profile file.
    void setRedaction(const QString& redaction);
    void setOutPath(const QString& path);
    /// Why OK is disabled ("" when it is enabled).
    QString problem() const;

private:
    void formatChanged();
    void update();

    QString m_casePath;
    QComboBox* m_format;
    QComboBox* m_redaction;
    QLineEdit* m_profile;
    QPushButton* m_chooseProfile;
    QLineEdit* m_path;
    QDialogButtonBox* m_buttons;
};

} // namespace faultline::app
