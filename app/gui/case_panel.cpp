// SPDX-License-Identifier: Apache-2.0
#include "app/gui/case_panel.h"

#include "core/casefile/case_file.h"

#include <QDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace faultline::app {

namespace {

QString html(const std::string& s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

QString errorsText(const std::vector<core::Diagnostic>& errors)
{
    QStringList lines;
    for (const auto& d : errors)
        lines << QString::fromStdString(d.format());
    return lines.join(QLatin1Char('\n'));
}

} // namespace

CasePanel::CasePanel(QWidget* parent)
    : QWidget(parent)
    , m_view(new QTextBrowser(this))
    , m_note(new QPushButton(tr("Add Note…"), this))
    , m_narrative(new QPushButton(tr("Narrative…"), this))
    , m_expect(new QPushButton(tr("Mark Latest Run Expected"), this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_view, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_note);
    buttons->addWidget(m_narrative);
    buttons->addWidget(m_expect);
    layout->addLayout(buttons);
    setMinimumWidth(380);
    m_view->setOpenLinks(false);
    m_view->setToolTip(tr("Click a run to read its stored verdict"));
    connect(m_view, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QLatin1String("run"))
            showStoredRun(url.path().toLongLong());
    });
    connect(m_note, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const QString text = QInputDialog::getMultiLineText(this, tr("Add Note"), tr("Note on the case:"), {}, &ok);
        if (ok && !text.trimmed().isEmpty())
            addNote(text);
    });
    connect(m_narrative, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const QString text =
            QInputDialog::getMultiLineText(this, tr("Case Narrative"), tr("What happened (Markdown):"), {}, &ok);
        if (ok && !text.trimmed().isEmpty())
            setNarrative(text);
    });
    connect(m_expect, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const QString note = QInputDialog::getText(
            this, tr("Mark Expected"), tr("Why this verdict is the expected one:"), QLineEdit::Normal, {}, &ok);
        if (ok)
            markLatestExpected(note);
    });
    showCase({});
}

QString CasePanel::text() const
{
    return m_view->toPlainText();
}

void CasePanel::showCase(const QString& casePath)
{
    m_path = casePath;
    refresh();
}

void CasePanel::refresh()
{
    const bool haveCase = !m_path.isEmpty();
    m_note->setEnabled(haveCase);
    m_narrative->setEnabled(haveCase);
    m_expect->setEnabled(haveCase);
    if (!haveCase) {
        m_view->setHtml(tr("<p>No case open. Save the analysis as a case (File ▸ Save as Case…) to keep its runs, "
                           "notes and expected verdict.</p>"));
        return;
    }
    std::vector<core::Diagnostic> errors;
    auto c = core::CaseFile::open(m_path.toStdString(), { true, true }, errors);
    if (!c) {
        m_view->setHtml(tr("<p><b>Cannot read the case</b></p><pre>%1</pre>").arg(errorsText(errors).toHtmlEscaped()));
        return;
    }
    QString out = tr("<h3>Runs</h3>");
    const auto runs = c->runs(errors);
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const auto& r = runs[i];
        out += tr("<p><a href=\"run:%1\"><b>Run %1</b></a> · %2 by %3 · %4<br>catalog %5 %6 (%7) · engine %8<br>"
                  "<b>%9</b>")
                   .arg(r.id)
                   .arg(html(r.kind), html(r.author), html(r.createdAt), html(r.catalogName), html(r.catalogVersion),
                       html(r.catalogHash.substr(0, 12)), html(r.engineVersion), html(r.outcome));
        if (i > 0)
            if (const auto d = c->diff(runs[i - 1].id, r.id, errors)) {
                if (d->same) {
                    out += tr("<br><i>same verdict as run %1</i>").arg(runs[i - 1].id);
                } else {
                    out += tr("<br><i>changed from run %1:</i>").arg(runs[i - 1].id);
                    for (const auto& line : d->changes)
                        out += QStringLiteral("<br>&nbsp;&nbsp;") + html(line);
                }
            }
        out += QStringLiteral("</p>");
    }
    if (const auto e = c->expectation(errors)) {
        const auto misses = runs.empty() ? std::vector<std::string> {} : c->checkExpectation(runs.back().id, errors);
        out +=
            tr("<p><b>Expected verdict</b>: run %1 (%2, cause %3 on %4), marked by %5 at %6%7. The latest run %8.</p>")
                .arg(e->runId)
                .arg(html(e->outcome), html(e->causeType.empty() ? "none" : e->causeType),
                    html(e->causeNode.empty() ? "-" : e->causeNode), html(e->author), html(e->createdAt),
                    e->note.empty() ? QString() : QStringLiteral(": ") + html(e->note),
                    misses.empty() ? tr("meets it") : tr("<b>does not meet it</b>"));
    }
    const auto notes = c->annotations(errors);
    for (const auto& a : notes)
        if (a.kind == "narrative")
            out += tr("<h3>Narrative</h3><p>%1</p><p><i>%2, %3</i></p>")
                       .arg(html(a.text).replace(QLatin1Char('\n'), QStringLiteral("<br>")), html(a.author),
                           html(a.createdAt));
    QString list;
    for (const auto& a : notes) {
        if (a.kind == "narrative")
            continue;
        QString target = tr("the case");
        if (a.target == "line")
            target = html(a.path) + QLatin1Char(':') + QString::number(a.line);
        else if (a.target == "event")
            target = tr("event %1:%2 (%3:%4)").arg(a.runId).arg(a.eventIdx).arg(html(a.path)).arg(a.line);
        list += tr("<li><b>%1</b> on %2 — %3 <i>(%4, %5)</i></li>")
                    .arg(html(a.kind), target, html(a.text), html(a.author), html(a.createdAt));
    }
    if (!list.isEmpty())
        out += tr("<h3>Annotations</h3><ul>%1</ul>").arg(list);
    if (!errors.empty())
        out += tr("<pre>%1</pre>").arg(errorsText(errors).toHtmlEscaped());
    m_view->setHtml(out);
}

QString CasePanel::storedVerdict(qint64 run)
{
    std::vector<core::Diagnostic> errors;
    auto c = core::CaseFile::open(m_path.toStdString(), { true, true }, errors);
    const auto text = c ? c->verdictText(run, errors) : std::nullopt;
    if (!text) {
        Q_EMIT failed(errorsText(errors));
        return {};
    }
    return QString::fromStdString(*text);
}

void CasePanel::showStoredRun(qint64 run)
{
    const QString text = storedVerdict(run);
    if (text.isEmpty())
        return;
    auto* dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Run %1 — stored verdict").arg(run));
    auto* view = new QPlainTextEdit(text, dialog);
    view->setReadOnly(true);
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(view);
    dialog->resize(900, 600);
    dialog->show();
}

bool CasePanel::write(const std::function<bool(core::CaseFile&, std::vector<core::Diagnostic>&)>& change)
{
    std::vector<core::Diagnostic> errors;
    auto c = core::CaseFile::open(m_path.toStdString(), {}, errors);
    if (!c || !change(*c, errors)) {
        Q_EMIT failed(errorsText(errors));
        return false;
    }
    refresh();
    Q_EMIT caseChanged();
    return true;
}

bool CasePanel::addNote(const QString& text)
{
    return write([&](core::CaseFile& c, std::vector<core::Diagnostic>& errors) {
        core::Annotation a;
        a.kind = "note";
        a.target = "case";
        a.text = text.toStdString();
        return c.annotate(a, errors) != 0;
    });
}

bool CasePanel::addLineNote(const QString& path, quint64 line, const QString& text)
{
    return write([&](core::CaseFile& c, std::vector<core::Diagnostic>& errors) {
        const auto file = c.fileId(path.toStdString(), errors);
        if (!file)
            return false;
        core::Annotation a;
        a.kind = "note";
        a.target = "line";
        a.fileId = *file;
        a.line = line;
        a.text = text.toStdString();
        return c.annotate(a, errors) != 0;
    });
}

bool CasePanel::setNarrative(const QString& text)
{
    return write([&](core::CaseFile& c, std::vector<core::Diagnostic>& errors) {
        core::Annotation a;
        a.kind = "narrative";
        a.text = text.toStdString();
        for (const auto& old : c.annotations(errors)) // a new narrative supersedes the current one (kept in history)
            if (old.kind == "narrative")
                a.supersedes = old.id;
        return c.annotate(a, errors) != 0;
    });
}

bool CasePanel::markLatestExpected(const QString& note)
{
    return write([&](core::CaseFile& c, std::vector<core::Diagnostic>& errors) {
        const auto runs = c.runs(errors);
        return !runs.empty() && c.expect(runs.back().id, {}, note.toStdString(), errors) != 0;
    });
}

} // namespace faultline::app
