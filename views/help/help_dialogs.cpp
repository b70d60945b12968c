// SPDX-License-Identifier: Apache-2.0
#include "views/help/help_dialogs.h"

#include <QDialogButtonBox>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace faultline::views {

QString aboutHtml(const AboutInfo& info)
{
    QString html = QStringLiteral("<h2>Faultline %1</h2>").arg(info.version.toHtmlEscaped());
    html += QStringLiteral("<p>%1</p>")
                .arg(QObject::tr("Forensic workbench for failed distributed AI jobs. The engine, the importers and "
                                 "faultline-cli share one version."));
    html += QStringLiteral("<h3>%1</h3>").arg(QObject::tr("Rule catalog"));
    if (info.catalogLoading) {
        html += QStringLiteral("<p>%1</p>")
                    .arg(QObject::tr("The catalog in %1 is loading…").arg(info.catalogDir.toHtmlEscaped()));
    } else if (info.catalogName.isEmpty()) {
        html += QStringLiteral("<p>%1<br><code>%2</code></p>")
                    .arg(QObject::tr("The catalog in %1 could not be loaded:").arg(info.catalogDir.toHtmlEscaped()),
                        info.catalogProblem.toHtmlEscaped());
    } else {
        html += QStringLiteral("<table><tr><td>%1&nbsp;</td><td><b>%2</b> %3</td></tr>"
                               "<tr><td>%4&nbsp;</td><td><code>%5</code></td></tr>"
                               "<tr><td>%6&nbsp;</td><td>%7</td></tr></table>")
                    .arg(QObject::tr("Name and version:"), info.catalogName.toHtmlEscaped(),
                        info.catalogVersion.toHtmlEscaped(), QObject::tr("Content hash:"),
                        info.catalogHash.toHtmlEscaped(), QObject::tr("Directory:"), info.catalogDir.toHtmlEscaped());
        if (!info.catalogLayers.isEmpty())
            html += QStringLiteral("<p>%1</p><pre>%2</pre>")
                        .arg(QObject::tr("Rule packs layered on it:"), info.catalogLayers.toHtmlEscaped());
        if (!info.catalogProblem.isEmpty())
            html += QStringLiteral("<p>%1</p><pre>%2</pre>")
                        .arg(QObject::tr("The last reload failed, so this catalog stays in use:"),
                            info.catalogProblem.toHtmlEscaped());
    }
    html += QStringLiteral("<h3>%1</h3>").arg(QObject::tr("Licences"));
    html += QStringLiteral("<pre style=\"white-space: pre-wrap\">%1</pre>").arg(info.licences.toHtmlEscaped());
    return html;
}

TextDialog::TextDialog(const QString& title, const QString& text, Format format, QWidget* parent)
    : QDialog(parent)
    , m_browser(new QTextBrowser(this))
{
    setWindowTitle(title);
    m_browser->setOpenExternalLinks(true);
    if (format == Format::Markdown)
        m_browser->setMarkdown(text);
    else
        m_browser->setHtml(text);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_browser);
    layout->addWidget(buttons);
    resize(820, 640);
}

} // namespace faultline::views
