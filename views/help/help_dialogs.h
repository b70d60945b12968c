// SPDX-License-Identifier: Apache-2.0
// Help ▸ About and the documents the workbench shows (how to collect a bundle): a text dialog over a QTextBrowser.
#pragma once

#include <QDialog>
#include <QString>

class QTextBrowser;

namespace faultline::views {

struct AboutInfo
{
    QString version; ///< the application and engine version
    QString catalogName; ///< empty when the catalog could not be loaded
    QString catalogVersion;
    QString catalogHash; ///< content hash, hex
    QString catalogDir;
    QString catalogProblem; ///< why the catalog could not be loaded (with a name: why the last reload failed)
    QString catalogLayers; ///< the rule pack layers on the catalog, one line each
    bool catalogLoading = false; ///< the catalog is still loading
    QString licences; ///< the text of the package's copyright file
};

/// The About text as HTML: version, rule catalog (name, version, hash, directory) and the licences.
QString aboutHtml(const AboutInfo& info);

class TextDialog : public QDialog
{
    Q_OBJECT
public:
    enum class Format { Markdown, Html };
    TextDialog(const QString& title, const QString& text, Format format, QWidget* parent = nullptr);
    QTextBrowser* browser() const { return m_browser; }

private:
    QTextBrowser* m_browser;
};

} // namespace faultline::views
