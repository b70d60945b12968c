// SPDX-License-Identifier: Apache-2.0
// Rules ▸ Rule Packs…: the directories layered on the bundled catalog. Whether the user's own directory is read, and
// more directories in order (each on top of the ones above it in the list). The caller stores them (QSettings) and
// reloads the catalog.
#pragma once

#include <QDialog>
#include <QStringList>

class QCheckBox;
class QListWidget;
class QPushButton;

namespace faultline::app {

class RulePacksDialog : public QDialog
{
    Q_OBJECT
public:
    RulePacksDialog(const QString& userDir, bool userPacks, const QStringList& dirs, QWidget* parent = nullptr);

    bool userPacks() const;
    QStringList directories() const;
    /// Adds a directory at the end (what Add… does once a directory is chosen); one already listed is not added twice.
    void addDirectory(const QString& dir);
    QListWidget* list() const { return m_list; }

private:
    void move(int step);
    void updateButtons();

    QCheckBox* m_user;
    QListWidget* m_list;
    QPushButton* m_remove;
    QPushButton* m_up;
    QPushButton* m_down;
};

} // namespace faultline::app
