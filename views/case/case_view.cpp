// SPDX-License-Identifier: Apache-2.0
#include "views/case/case_view.h"

#include "core/model/annotations.h"
#include "core/model/event.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QStackedWidget>
#include <QTextBrowser>
#include <QTextDocumentFragment>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace faultline::views {

namespace {

constexpr int kMessagePage = 0;
constexpr int kHistoryPage = 1;

QString esc(const std::string& s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

QString multiline(const std::string& s)
{
    return esc(s).replace(QLatin1Char('\n'), QStringLiteral("<br>"));
}

QColor blend(const QColor& a, const QColor& b, double t)
{
    const auto mix = [t](int x, int y) { return static_cast<int>(x + (y - x) * t + 0.5); };
    return QColor(mix(a.red(), b.red()), mix(a.green(), b.green()), mix(a.blue(), b.blue()));
}

/// The colours of the history, picked for the palette's background so that a dark palette stays readable.
struct Ink
{
    QString muted; ///< secondary text (who, when, catalog)
    QString good; ///< the latest run meets the expectation, same verdict as the run before
    QString bad; ///< it does not meet it, errors
    QString warn; ///< a changed verdict, warnings
    QString goodBack;
    QString badBack;
    QString link; ///< set on each anchor: the HTML importer would otherwise fix the application palette's link colour
};

Ink inkFor(const QPalette& pal)
{
    const QColor base = pal.color(QPalette::Base);
    const QColor text = pal.color(QPalette::Text);
    const bool dark = base.lightness() < 128;
    const QColor good = dark ? QColor(0x81, 0xc7, 0x84) : QColor(0x1b, 0x5e, 0x20);
    const QColor bad = dark ? QColor(0xef, 0x9a, 0x9a) : QColor(0xb7, 0x1c, 0x1c);
    const QColor warn = dark ? QColor(0xff, 0xcc, 0x80) : QColor(0x8a, 0x5a, 0x00);
    return { blend(text, base, 0.42).name(), good.name(), bad.name(), warn.name(), blend(base, good, 0.16).name(),
        blend(base, bad, 0.16).name(), pal.color(QPalette::Link).name() };
}

QString span(const QString& colour, const QString& html)
{
    return QStringLiteral("<span style=\"color:%1\">%2</span>").arg(colour, html);
}

QString fileName(const QString& path)
{
    return path.section(QLatin1Char('/'), -1);
}

QString plural(qsizetype n, const QString& one, const QString& many)
{
    return QString::number(n) + QLatin1Char(' ') + (n == 1 ? one : many);
}

} // namespace

CaseView::CaseView(QWidget* parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_subtitle(new QLabel(this))
    , m_pages(new QStackedWidget(this))
    , m_message(new QLabel)
    , m_busy(new QProgressBar)
    , m_browser(new QTextBrowser)
    , m_note(new QPushButton(tr("Add Note…"), this))
    , m_narrative(new QPushButton(tr("Narrative…"), this))
    , m_expect(new QPushButton(tr("Mark Latest Run Expected"), this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);
    QFont big = m_title->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.15);
    m_title->setFont(big);
    m_title->setTextFormat(Qt::PlainText);
    m_subtitle->setTextFormat(Qt::PlainText);
    m_subtitle->setWordWrap(true);
    m_subtitle->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_title);
    layout->addWidget(m_subtitle);

    // The empty, loading and error states: a message (scrollable, for long located errors) with a busy bar.
    auto* messagePage = new QWidget;
    auto* messageLayout = new QVBoxLayout(messagePage);
    messageLayout->setContentsMargins(8, 16, 8, 8);
    m_message->setWordWrap(true);
    m_message->setTextFormat(Qt::RichText);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_busy->setRange(0, 0);
    m_busy->setTextVisible(false);
    m_busy->setMaximumHeight(6);
    messageLayout->addWidget(m_busy);
    messageLayout->addWidget(m_message);
    messageLayout->addStretch(1);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(messagePage);
    m_pages->insertWidget(kMessagePage, scroll);

    m_browser->setOpenLinks(false);
    m_browser->setToolTip(tr("Click a run to read its stored verdict"));
    m_pages->insertWidget(kHistoryPage, m_browser);
    layout->addWidget(m_pages, 1);

    m_note->setObjectName(QStringLiteral("addNote"));
    m_narrative->setObjectName(QStringLiteral("narrative"));
    m_expect->setObjectName(QStringLiteral("markExpected"));
    m_note->setToolTip(tr("Add a note about the whole case"));
    m_narrative->setToolTip(tr("Write what happened; it replaces the current narrative, which stays in the history"));
    m_expect->setToolTip(tr("Record the latest run's verdict as the expected one: later runs are checked against it"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_note);
    buttons->addWidget(m_narrative);
    buttons->addStretch(1);
    buttons->addWidget(m_expect);
    layout->addLayout(buttons);
    setMinimumWidth(380);

    connect(m_browser, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QLatin1String("run"))
            Q_EMIT runRequested(url.path().toLongLong());
    });
    connect(m_note, &QPushButton::clicked, this, [this] {
        prompt(tr("Add Note"), tr("Note on the case:"), true, {}, [this](const QString& text) {
            if (!text.trimmed().isEmpty())
                Q_EMIT noteRequested(text);
        });
    });
    connect(m_narrative, &QPushButton::clicked, this, [this] {
        const core::Annotation* current = m_history ? m_history->narrative() : nullptr;
        prompt(tr("Case Narrative"), tr("What happened (Markdown):"), true,
            current ? QString::fromStdString(current->text) : QString(), [this](const QString& text) {
                if (!text.trimmed().isEmpty())
                    Q_EMIT narrativeRequested(text);
            });
    });
    connect(m_expect, &QPushButton::clicked, this, [this] {
        prompt(tr("Mark Expected"), tr("Why this verdict is the expected one:"), false, {},
            [this](const QString& note) { Q_EMIT expectRequested(note); });
    });
    showEmpty();
}

void CaseView::prompt(const QString& title, const QString& label, bool multiLine, const QString& initial,
    std::function<void(const QString&)> accepted)
{
    // Opened, not exec()'d: no nested event loop while the worker may deliver a newer history.
    auto* dialog = new QInputDialog(this);
    dialog->setObjectName(QStringLiteral("casePrompt"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(title);
    dialog->setLabelText(label);
    if (multiLine)
        dialog->setOption(QInputDialog::UsePlainTextEditForTextInput);
    dialog->setTextValue(initial);
    const QString path = m_path;
    connect(dialog, &QInputDialog::textValueSelected, this, [this, path, accepted](const QString& text) {
        if (path == m_path) // the request is about the case the user was looking at
            accepted(text);
    });
    dialog->open();
}

QString CaseView::text() const
{
    QString body = m_pages->currentIndex() == kHistoryPage
        ? m_browser->toPlainText()
        : QTextDocumentFragment::fromHtml(m_message->text()).toPlainText();
    QString head = m_title->text();
    if (!m_subtitle->text().isEmpty())
        head += QLatin1Char('\n') + m_subtitle->text();
    return head.isEmpty() ? body : head + QLatin1Char('\n') + body;
}

void CaseView::showMessage(State state, const QString& title, const QString& html)
{
    m_state = state;
    m_updating = false;
    m_title->setText(title);
    m_title->setVisible(!title.isEmpty());
    m_subtitle->setText(state == State::Empty ? QString() : m_path);
    m_subtitle->setVisible(!m_subtitle->text().isEmpty());
    m_busy->setVisible(state == State::Loading);
    m_message->setText(html);
    m_pages->setCurrentIndex(kMessagePage);
    updateButtons();
}

void CaseView::showEmpty()
{
    m_path.clear();
    m_history.reset();
    showMessage(State::Empty, tr("No case open"),
        tr("<p>No case open. Save the analysis as a case (File ▸ Save as Case…) to keep its runs, notes and expected "
           "verdict, or open one (File ▸ Open Case…).</p>"
           "<p>A case is one file that holds the evidence, every verdict run with its rules, and your notes.</p>"));
}

void CaseView::showLoading(const QString& path)
{
    if (m_history && m_path == path && m_pages->currentIndex() == kHistoryPage) {
        m_state = State::Loading;
        m_updating = true;
        render();
        return;
    }
    m_path = path;
    m_history.reset();
    showMessage(State::Loading, fileName(path), tr("<p>Reading the case…</p>"));
}

void CaseView::showError(const QString& path, const QString& message)
{
    m_path = path;
    m_history.reset();
    const QString first = message.section(QLatin1Char('\n'), 0, 0);
    const QString details = message.section(QLatin1Char('\n'), 1);
    const Ink ink = inkFor(palette());
    QString html = QStringLiteral("<p><b>") + tr("Cannot read the case") + QStringLiteral("</b></p><p>")
        + span(ink.bad, first.toHtmlEscaped()) + QStringLiteral("</p>");
    if (!details.isEmpty())
        html += QStringLiteral("<pre>") + details.toHtmlEscaped() + QStringLiteral("</pre>");
    showMessage(State::Error, fileName(path), html);
}

void CaseView::setHistory(const core::CaseHistory& history)
{
    m_history = history;
    m_path = QString::fromStdString(history.path);
    m_state = State::Shown;
    m_updating = false;
    render();
}

void CaseView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    // The history's colours follow the palette (a switch to a dark theme re-renders it).
    if ((event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) && m_history
        && m_pages->currentIndex() == kHistoryPage)
        render();
}

void CaseView::updateButtons()
{
    const bool writable = m_state == State::Shown && m_history && !m_history->readOnly;
    m_note->setEnabled(writable);
    m_narrative->setEnabled(writable);
    m_expect->setEnabled(writable && !m_history->runs.empty());
}

void CaseView::render()
{
    const core::CaseHistory& h = *m_history;
    // The view's own palette: on a palette change it is already the new one, while the browser's may not be yet.
    const Ink ink = inkFor(palette());
    const core::Annotation* narrative = h.narrative();
    const auto notes = std::count_if(
        h.annotations.begin(), h.annotations.end(), [](const core::Annotation& a) { return a.kind != "narrative"; });

    m_title->setText(fileName(m_path));
    m_title->setVisible(true);
    QStringList facts { plural(static_cast<qsizetype>(h.runs.size()), tr("run"), tr("runs")),
        plural(notes, tr("annotation"), tr("annotations")) };
    if (h.readOnly)
        facts << tr("read-only");
    if (m_updating)
        facts << tr("updating…");
    m_subtitle->setText(facts.join(QStringLiteral(" · ")));
    m_subtitle->setToolTip(m_path);
    m_subtitle->setVisible(true);
    m_busy->setVisible(false);

    const std::int64_t latest = h.runs.empty() ? 0 : h.runs.back().info.id;
    QString out;

    // The expected verdict first: whether the latest run still meets it is what a reader checks.
    if (const auto& e = h.expectation) {
        const bool meets = h.expectationMisses.empty();
        out += QStringLiteral("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"6\" bgcolor=\"%1\"><tr><td>")
                   .arg(meets ? ink.goodBack : ink.badBack);
        out += tr("<b>Expected verdict</b>: run %1 (%2, cause %3 on %4), marked by %5 at %6%7.")
                   .arg(QString::number(e->runId), esc(e->outcome), esc(e->causeType.empty() ? "none" : e->causeType),
                       esc(e->causeNode.empty() ? "-" : e->causeNode), esc(e->author), esc(e->createdAt),
                       e->note.empty() ? QString() : QStringLiteral(": ") + esc(e->note));
        out += QStringLiteral("<br>");
        if (meets) {
            out += span(ink.good, tr("<b>The latest run (run %1) meets it.</b>").arg(latest));
        } else {
            out += span(ink.bad, tr("<b>The latest run (run %1) does not meet it:</b>").arg(latest));
            for (const auto& m : h.expectationMisses)
                out += QStringLiteral("<br>&nbsp;&nbsp;• ") + esc(m);
        }
        out += QStringLiteral("</td></tr></table>");
    } else if (!h.runs.empty()) {
        out += QStringLiteral("<p>")
            + span(ink.muted,
                tr("No expected verdict yet: <i>Mark Latest Run Expected</i> records the latest verdict as the one "
                   "later runs must meet."))
            + QStringLiteral("</p>");
    }

    // What happened, in the words of the people who worked the incident, before the machine's record of it.
    if (narrative)
        out += QStringLiteral("<h3>") + tr("Narrative") + QStringLiteral("</h3><p>") + multiline(narrative->text)
            + QStringLiteral("<br>")
            + span(ink.muted, QStringLiteral("<i>%1, %2</i>").arg(esc(narrative->author), esc(narrative->createdAt)))
            + QStringLiteral("</p>");

    out += QStringLiteral("<h3>") + tr("Runs") + QStringLiteral("</h3>");
    if (h.runs.empty())
        out += QStringLiteral("<p>") + span(ink.muted, tr("The case holds no run.")) + QStringLiteral("</p>");
    for (const auto& run : h.runs) {
        const auto& r = run.info;
        QString tags;
        if (r.id == latest)
            tags += QStringLiteral(" ") + span(ink.muted, tr("· latest"));
        if (h.expectation && h.expectation->runId == r.id)
            tags += QStringLiteral(" ") + span(ink.good, tr("· expected"));
        out += QStringLiteral("<p style=\"margin-bottom:10px\">");
        out += tr("<a href=\"run:%1\" style=\"color:%2\"><b>Run %1</b></a> · %3 by %4 · %5%6")
                   .arg(QString::number(r.id), ink.link, esc(r.kind), esc(r.author), esc(r.createdAt), tags);
        out += QStringLiteral("<br><b>") + esc(r.outcome) + QStringLiteral("</b>");
        if (!r.domain.empty())
            out += QStringLiteral(" ") + span(ink.muted, esc(core::domainPath(r.domain, r.subdomain)));
        if (!r.summary.empty())
            out += QStringLiteral("<br>") + esc(r.summary);
        out += QStringLiteral("<br>")
            + span(ink.muted,
                tr("catalog %1 %2 (%3) · engine %4")
                    .arg(esc(r.catalogName), esc(r.catalogVersion), esc(r.catalogHash.substr(0, 12)),
                        esc(r.engineVersion)));
        if (const auto& d = run.diff) {
            if (d->same) {
                out += QStringLiteral("<br>") + span(ink.good, tr("<i>same verdict as run %1</i>").arg(d->from));
            } else {
                out += QStringLiteral("<br>") + span(ink.warn, tr("<i>changed from run %1:</i>").arg(d->from));
                for (const auto& line : d->changes)
                    out += QStringLiteral("<br>&nbsp;&nbsp;• ") + esc(line);
            }
        }
        out += QStringLiteral("</p>");
    }

    QString list;
    for (const auto& a : h.annotations) {
        if (a.kind == "narrative")
            continue;
        QString target = tr("the case");
        if (a.target == "line")
            target = esc(a.path) + QLatin1Char(':') + QString::number(a.line);
        else if (a.target == "event" && a.runId > 0)
            target =
                tr("event %1:%2 (%3:%4)")
                    .arg(QString::number(a.runId), QString::number(a.eventIdx), esc(a.path), QString::number(a.line));
        else if (a.target != "case")
            target = esc(core::describeTarget(a)); // a symptom, a lane, a range, an event of an unsaved analysis
        list += QStringLiteral("<p style=\"margin-bottom:8px\">")
            + tr("<b>%1</b> on %2 — %3 %4")
                  .arg(esc(a.kind), target, multiline(a.text),
                      span(ink.muted, QStringLiteral("<i>(%1, %2)</i>").arg(esc(a.author), esc(a.createdAt))))
            + QStringLiteral("</p>");
    }
    if (!list.isEmpty())
        out += QStringLiteral("<h3>") + tr("Annotations") + QStringLiteral("</h3>") + list;

    if (!h.problems.empty() || !h.notes.empty()) {
        out += QStringLiteral("<h3>") + tr("Problems and notes") + QStringLiteral("</h3>");
        for (const auto* group : { &h.problems, &h.notes })
            for (const auto& d : *group) {
                const QString colour = d.severity == core::Severity::Error ? ink.bad
                    : d.severity == core::Severity::Warning                ? ink.warn
                                                                           : ink.muted;
                out += QStringLiteral("<p style=\"font-family:monospace\">") + span(colour, multiline(d.format()))
                    + QStringLiteral("</p>");
            }
    }

    // Keep the reader's place when the same case is re-rendered after a change.
    const int scroll = m_browser->verticalScrollBar()->value();
    m_browser->setHtml(out);
    m_browser->verticalScrollBar()->setValue(scroll);
    m_pages->setCurrentIndex(kHistoryPage);
    updateButtons();
}

} // namespace faultline::views
