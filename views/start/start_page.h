// SPDX-License-Identifier: Apache-2.0
// The first-contact page the workbench shows with nothing open: the bundled sample, Open a bundle / an archive or
// file / a case, the recent cases, and how to collect a bundle. It only asks; the window decides what to open.
#pragma once

#include <QStringList>
#include <QWidget>

class QListWidget;
class QLabel;

namespace faultline::views {

class StartPage : public QWidget
{
    Q_OBJECT
public:
    explicit StartPage(QWidget* parent = nullptr);

    /// The recent cases, newest first; a path that no longer exists is shown greyed out with "(missing)".
    void setRecentCases(const QStringList& paths);
    /// Enables "Open the sample incident" only when the sample is installed (`sampleFound`).
    void setSampleAvailable(bool sampleFound, const QString& sampleDescription);
    QListWidget* recentList() const { return m_recent; }

Q_SIGNALS:
    void openSampleRequested();
    void openBundleRequested();
    void openFileRequested();
    void openCaseRequested();
    void openRecentRequested(const QString& path);
    void howToCollectRequested();

private:
    QListWidget* m_recent;
    QLabel* m_recentEmpty;
    QWidget* m_sample = nullptr;
};

} // namespace faultline::views
