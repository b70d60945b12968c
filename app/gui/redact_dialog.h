// SPDX-License-Identifier: Apache-2.0
// File ▸ Export Redacted Copy…: choose a redaction profile (the built-in one or a file), see the preview of every
// replacement the copy would make (category, original, pseudonym, count; nothing is written), then write the copy.
// The copy can only be written once a preview with the chosen profile has been shown. The preview and the copy run
// off the UI thread (usecases::previewRedaction, usecases::redactCase) with progress and Cancel; errors are shown in
// the dialog, located details included. The original case is only read.
// Thread affinity: UI thread. The destructor cancels the job in progress and waits for it.
#pragma once

#include <QDialog>
#include <QString>
#include <QThreadPool>

#include <atomic>
#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace faultline::app {

class RedactDialog : public QDialog
{
    Q_OBJECT
public:
    /// `rulesDir`: the catalog the copy's check uses when the case does not hold its run's rules.
    RedactDialog(const QString& casePath, const QString& rulesDir, QWidget* parent = nullptr);
    ~RedactDialog() override;

    /// "default" or a profile file; a new profile needs a new preview before a copy can be written.
    void setProfile(const QString& nameOrPath);
    QString profile() const;
    void setCopyPath(const QString& path);
    /// Lists what the copy would replace with the chosen profile (previewShown or failed follows).
    void preview();
    /// Writes the redacted copy at the copy path (copyWritten or failed follows); needs a shown preview.
    void writeCopy();
    void cancel();
    bool isBusy() const { return m_busy; }
    QTableWidget* replacementsTable() const { return m_table; }
    QPushButton* writeButton() const { return m_write; }
    /// The last outcome or error, as the dialog shows it.
    QString statusText() const;

Q_SIGNALS:
    void previewShown(int replacements);
    void copyWritten(const QString& path, const QString& summary);
    void failed(const QString& message);

private:
    void setBusy(bool busy, const QString& what = {});
    void showError(const QString& message);
    void updateButtons();

    QString m_casePath;
    QString m_rulesDir;
    QString m_previewedProfile; ///< the profile of the preview shown ("": none)
    QComboBox* m_profileKind;
    QLineEdit* m_profileFile;
    QPushButton* m_chooseProfile;
    QPushButton* m_preview;
    QLabel* m_summary;
    QTableWidget* m_table;
    QLineEdit* m_copyPath;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QLabel* m_status;
    QPushButton* m_write;
    QThreadPool m_pool;
    std::shared_ptr<std::atomic_bool> m_cancelFlag;
    bool m_busy = false;
    quint64 m_generation = 0;
};

} // namespace faultline::app
