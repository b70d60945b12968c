// SPDX-License-Identifier: Apache-2.0
#include "views/rules/rule_editor.h"

#include "core/time/civil_time.h"
#include "views/rules/rule_highlighter.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTabWidget>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTimer>
#include <QToolTip>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace faultline::views {

namespace {

constexpr int kPathRole = Qt::UserRole;
constexpr int kLineRole = Qt::UserRole + 1;
constexpr int kTimeRole = Qt::UserRole + 2;
constexpr int kColumnRole = Qt::UserRole + 3;

QColor errorInk(const QPalette& pal)
{
    return pal.color(QPalette::Base).lightness() < 128 ? QColor(0xff, 0x6b, 0x6b) : QColor(0xc6, 0x28, 0x28);
}

QColor warningInk(const QPalette& pal)
{
    return pal.color(QPalette::Base).lightness() < 128 ? QColor(0xff, 0xc1, 0x4d) : QColor(0xb2, 0x6a, 0x00);
}

QColor okInk(const QPalette& pal)
{
    return pal.color(QPalette::Base).lightness() < 128 ? QColor(0x7c, 0xd9, 0x7c) : QColor(0x2e, 0x7d, 0x32);
}

class Gutter : public QWidget
{
public:
    explicit Gutter(RuleTextEdit* edit)
        : QWidget(edit)
        , m_edit(edit)
    {
        setMouseTracking(true);
    }
    QSize sizeHint() const override { return { m_edit->gutterWidth(), 0 }; }

protected:
    void paintEvent(QPaintEvent* event) override { m_edit->paintGutter(event); }
    bool event(QEvent* event) override
    {
        if (event->type() == QEvent::ToolTip) {
            auto* help = static_cast<QHelpEvent*>(event);
            const QTextCursor c = m_edit->cursorForPosition(QPoint(0, help->pos().y()));
            QStringList lines;
            for (const auto& d : m_edit->diagnostics())
                if (d.line == c.blockNumber() + 1)
                    lines << QStringLiteral("%1: %2").arg(d.error ? tr("error") : tr("warning"), d.message);
            if (lines.isEmpty())
                QToolTip::hideText();
            else
                QToolTip::showText(help->globalPos(), lines.join(QLatin1Char('\n')), this);
            return true;
        }
        return QWidget::event(event);
    }

private:
    RuleTextEdit* m_edit;
};

QString escaped(const std::string& s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

QTreeWidgetItem* recordItem(const core::TracedRecord& r, const QStringList& columns)
{
    auto* item = new QTreeWidgetItem(columns);
    item->setData(0, kPathRole, QString::fromStdString(r.path));
    item->setData(0, kLineRole, static_cast<qulonglong>(r.line));
    item->setData(0, kTimeRole, static_cast<qlonglong>(r.timeNs));
    item->setToolTip(0, QString::fromStdString(r.text.substr(0, 2000)));
    for (int c = 1; c < columns.size(); ++c)
        item->setToolTip(c, columns[c]); // the whole of what a narrow column cuts
    return item;
}

QString where(const core::TracedRecord& r)
{
    return r.path.empty() ? QStringLiteral("-")
                          : QStringLiteral("%1:%2").arg(QString::fromStdString(r.path)).arg(r.line);
}

QString fateText(const core::TracedEvent& e)
{
    switch (e.fate) {
    case core::EventFate::Kept:
        return QObject::tr("kept as #%1: %2").arg(e.verdictIndex).arg(QString::fromStdString(e.inVerdict));
    case core::EventFate::Merged:
        return QObject::tr("merged into %1 (#%2)").arg(QString::fromStdString(e.by)).arg(e.verdictIndex);
    default:
        return QStringLiteral("%1: %2").arg(
            QString::fromLatin1(core::eventFateName(e.fate)), QString::fromStdString(e.detail));
    }
}

/// A results tab: a line that sums it up over a tree.
QWidget* treeTab(QTreeWidget* tree, QLabel* summary, QWidget* parent)
{
    auto* w = new QWidget(parent);
    auto* l = new QVBoxLayout(w);
    l->setContentsMargins(2, 2, 2, 2);
    l->setSpacing(2);
    summary->setWordWrap(true);
    summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->addWidget(summary);
    l->addWidget(tree, 1);
    tree->setRootIsDecorated(false);
    tree->setUniformRowHeights(true);
    tree->setAlternatingRowColors(true);
    tree->header()->setStretchLastSection(true);
    tree->setSelectionMode(QAbstractItemView::SingleSelection);
    return w;
}

} // namespace

// --- the text -----------------------------------------------------------------------------------------------------

RuleTextEdit::RuleTextEdit(QWidget* parent)
    : QPlainTextEdit(parent)
    , m_gutter(new Gutter(this))
    , m_highlighter(new RuleHighlighter(document()))
{
    setObjectName(QStringLiteral("ruleText"));
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTabChangesFocus(false);
    setTabStopDistance(fontMetrics().horizontalAdvance(QLatin1Char(' ')) * 2);
    m_highlighter->setDarkBase(palette().color(QPalette::Base).lightness() < 128);
    connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { setViewportMargins(gutterWidth(), 0, 0, 0); });
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& rect, int dy) {
        if (dy != 0)
            m_gutter->scroll(0, dy);
        else
            m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
    });
    setViewportMargins(gutterWidth(), 0, 0, 0);
}

int RuleTextEdit::gutterWidth() const
{
    const int digits = static_cast<int>(QString::number(std::max(1, blockCount())).size());
    return 18 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(2, digits) + 6;
}

void RuleTextEdit::resizeEvent(QResizeEvent* event)
{
    QPlainTextEdit::resizeEvent(event);
    const QRect r = contentsRect();
    m_gutter->setGeometry(QRect(r.left(), r.top(), gutterWidth(), r.height()));
}

void RuleTextEdit::changeEvent(QEvent* event)
{
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        m_highlighter->setDarkBase(palette().color(QPalette::Base).lightness() < 128);
}

void RuleTextEdit::paintGutter(QPaintEvent* event)
{
    QPainter p(m_gutter);
    const QPalette& pal = palette();
    p.fillRect(event->rect(), pal.color(QPalette::AlternateBase));
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    const int h = fontMetrics().height();
    while (block.isValid() && top <= event->rect().bottom()) {
        const int line = block.blockNumber() + 1;
        if (block.isVisible()) {
            p.setPen(pal.color(QPalette::PlaceholderText));
            p.drawText(
                QRect(0, top, m_gutter->width() - 6, h), Qt::AlignRight | Qt::AlignVCenter, QString::number(line));
            bool error = false;
            bool warning = false;
            for (const auto& d : m_diagnostics)
                if (d.line == line)
                    (d.error ? error : warning) = true;
            if (error || warning) {
                // An error is a filled circle, a warning a triangle, in the gutter's left margin.
                p.setRenderHint(QPainter::Antialiasing);
                const QRectF mark(3, top + (h - 10) / 2.0, 10, 10);
                p.setPen(Qt::NoPen);
                p.setBrush(error ? errorInk(pal) : warningInk(pal));
                if (error) {
                    p.drawEllipse(mark);
                } else {
                    QPainterPath tri;
                    tri.moveTo(mark.center().x(), mark.top());
                    tri.lineTo(mark.right(), mark.bottom());
                    tri.lineTo(mark.left(), mark.bottom());
                    tri.closeSubpath();
                    p.drawPath(tri);
                }
                p.setRenderHint(QPainter::Antialiasing, false);
            }
        }
        block = block.next();
        top += qRound(blockBoundingRect(block.previous()).height());
    }
}

void RuleTextEdit::setDiagnostics(const QVector<RuleEditorDiagnostic>& diagnostics)
{
    m_diagnostics = diagnostics;
    updateMarks();
    m_gutter->update();
}

void RuleTextEdit::updateMarks()
{
    QList<QTextEdit::ExtraSelection> marks;
    for (const auto& d : m_diagnostics) {
        if (d.line <= 0 || d.line > blockCount())
            continue;
        const QTextBlock block = document()->findBlockByNumber(d.line - 1);
        const int length = std::max(0, block.length() - 1);
        int from = std::clamp(d.column - 1, 0, length);
        int to = d.length > 0 ? std::min(from + d.length, length) : length;
        if (from >= to) {
            // At the end of the line (or an empty one): the last character, or the line's start.
            from = std::max(0, length - 1);
            to = length;
        }
        // The whole line tinted, then the part the diagnostic names underlined.
        QTextEdit::ExtraSelection tinted;
        tinted.cursor = QTextCursor(block);
        QColor tint = d.error ? errorInk(palette()) : warningInk(palette());
        tint.setAlpha(28);
        tinted.format.setBackground(tint);
        tinted.format.setProperty(QTextFormat::FullWidthSelection, true);
        marks << tinted;
        QTextEdit::ExtraSelection mark;
        mark.cursor = QTextCursor(block);
        mark.cursor.setPosition(block.position() + from);
        mark.cursor.setPosition(block.position() + to, QTextCursor::KeepAnchor);
        mark.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        mark.format.setUnderlineColor(d.error ? errorInk(palette()) : warningInk(palette()));
        marks << mark;
    }
    setExtraSelections(marks);
}

QVector<RuleEditorDiagnostic> RuleTextEdit::diagnosticsAt(int line, int column) const
{
    QVector<RuleEditorDiagnostic> out;
    for (const auto& d : m_diagnostics)
        if (d.line == line && column >= d.column && (d.length == 0 || column < d.column + d.length))
            out << d;
    return out;
}

bool RuleTextEdit::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QPoint at = viewport()->mapFrom(this, help->pos());
        const QTextCursor c = cursorForPosition(at);
        QStringList lines;
        for (const auto& d : diagnosticsAt(c.blockNumber() + 1, c.positionInBlock() + 1))
            lines << QStringLiteral("%1 [%2]").arg(d.message, d.code);
        if (lines.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), lines.join(QLatin1Char('\n')), this);
        return true;
    }
    if (event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        // YAML indents with spaces: Tab inserts two; Enter keeps the line's indentation.
        if (key->key() == Qt::Key_Tab && key->modifiers() == Qt::NoModifier) {
            insertPlainText(QStringLiteral("  "));
            return true;
        }
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) && key->modifiers() == Qt::NoModifier) {
            const QString line = textCursor().block().text();
            qsizetype n = 0;
            while (n < line.size() && line[n] == QLatin1Char(' '))
                ++n;
            insertPlainText(QLatin1Char('\n') + QString(n, QLatin1Char(' ')));
            ensureCursorVisible();
            return true;
        }
    }
    return QPlainTextEdit::event(event);
}

void RuleTextEdit::goTo(int line, int column)
{
    const QTextBlock block = document()->findBlockByNumber(std::max(0, line - 1));
    if (!block.isValid())
        return;
    QTextCursor c(block);
    c.setPosition(block.position() + std::clamp(column - 1, 0, std::max(0, block.length() - 1)));
    setTextCursor(c);
    centerCursor();
    setFocus(Qt::OtherFocusReason);
}

// --- the editor ---------------------------------------------------------------------------------------------------

RuleEditor::RuleEditor(QWidget* parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_status(new QLabel(this))
    , m_note(new QLabel(this))
    , m_edit(new RuleTextEdit(this))
    , m_tabs(new QTabWidget(this))
    , m_problems(new QTreeWidget(this))
    , m_diff(new QTextBrowser(this))
    , m_trace(new QTreeWidget(this))
    , m_misses(new QTreeWidget(this))
    , m_run(new QPushButton(tr("Run on This Case"), this))
    , m_save(new QPushButton(tr("Save to User Pack"), this))
    , m_sweep(new QPushButton(tr("Must-Not-Fire Sweep…"), this))
    , m_regress(new QPushButton(tr("Regression…"), this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_progress(new QLabel(this))
    , m_debounce(new QTimer(this))
{
    setObjectName(QStringLiteral("ruleEditor"));
    m_title->setObjectName(QStringLiteral("ruleEditorTitle"));
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setObjectName(QStringLiteral("ruleEditorStatus"));
    m_note->setObjectName(QStringLiteral("ruleEditorNote"));
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_note->setVisible(false);
    m_run->setObjectName(QStringLiteral("ruleRun"));
    m_run->setToolTip(tr("Re-run the engine on the open case's evidence with this rule (Rules ▸ Run on This Case)"));
    m_save->setObjectName(QStringLiteral("ruleSave"));
    m_save->setToolTip(tr("Write the rule into its pack file, its version bumped, and reload the catalog"));
    m_sweep->setObjectName(QStringLiteral("ruleSweep"));
    m_sweep->setToolTip(tr("Run this rule over every case of a case library and list where it fires"));
    m_regress->setObjectName(QStringLiteral("ruleRegress"));
    m_regress->setToolTip(tr("Run the edited catalog over a case library and list the cases whose verdicts flip"));
    m_cancel->setObjectName(QStringLiteral("ruleCancel"));
    m_problems->setObjectName(QStringLiteral("ruleProblems"));
    m_problems->setHeaderLabels({ tr("Where"), tr("Problem") });
    m_diff->setObjectName(QStringLiteral("ruleDiff"));
    m_diff->setOpenLinks(false);
    m_trace->setObjectName(QStringLiteral("ruleTrace"));
    m_trace->setHeaderLabels({ tr("Record"), tr("What became of it"), tr("Event") });
    m_misses->setObjectName(QStringLiteral("ruleMisses"));
    m_misses->setHeaderLabels({ tr("Record"), tr("Why it did not match"), tr("Text") });

    auto* traceSummary = new QLabel(this);
    traceSummary->setObjectName(QStringLiteral("ruleTraceSummary"));
    auto* missesSummary = new QLabel(this);
    missesSummary->setObjectName(QStringLiteral("ruleMissesSummary"));
    auto* problemsTab = new QWidget(this);
    {
        auto* l = new QVBoxLayout(problemsTab);
        l->setContentsMargins(2, 2, 2, 2);
        l->addWidget(m_problems);
        m_problems->setRootIsDecorated(false);
        m_problems->setAlternatingRowColors(true);
        m_problems->header()->setStretchLastSection(true);
    }
    m_tabs->addTab(problemsTab, tr("Problems"));
    m_tabs->addTab(m_diff, tr("Verdict Diff"));
    m_tabs->addTab(treeTab(m_trace, traceSummary, this), tr("Rule Trace"));
    m_tabs->addTab(treeTab(m_misses, missesSummary, this), tr("Near Misses"));
    m_tabs->setDocumentMode(true);

    auto* actions = new QHBoxLayout;
    actions->setContentsMargins(0, 0, 0, 0);
    actions->addWidget(m_status, 1);
    actions->addWidget(m_run);
    actions->addWidget(m_save);
    actions->addWidget(m_sweep);
    actions->addWidget(m_regress);
    auto* busy = new QHBoxLayout;
    busy->setContentsMargins(0, 0, 0, 0);
    busy->addWidget(m_progress, 1);
    busy->addWidget(m_cancel);
    m_progress->setVisible(false);
    m_cancel->setVisible(false);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("ruleEditorSplit"));
    split->addWidget(m_edit);
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addWidget(m_title);
    layout->addLayout(actions);
    layout->addWidget(m_note);
    layout->addWidget(split, 1);
    layout->addLayout(busy);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(300);
    connect(m_debounce, &QTimer::timeout, this, &RuleEditor::emitEdited);
    connect(m_edit, &QPlainTextEdit::textChanged, this, [this] {
        if (!m_hasDocument)
            return;
        ++m_generation;
        m_checking = true;
        m_status->setText(tr("checking…"));
        m_debounce->start();
        updateActions();
    });
    connect(m_run, &QPushButton::clicked, this, &RuleEditor::runRequested);
    connect(m_save, &QPushButton::clicked, this, &RuleEditor::saveRequested);
    connect(m_sweep, &QPushButton::clicked, this, &RuleEditor::sweepRequested);
    connect(m_regress, &QPushButton::clicked, this, &RuleEditor::regressionRequested);
    connect(m_cancel, &QPushButton::clicked, this, &RuleEditor::cancelRequested);
    connect(m_problems, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) { showProblem(item); });
    connect(m_problems, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) { showProblem(item); });
    for (QTreeWidget* tree : { m_trace, m_misses })
        connect(tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
            const QString path = item->data(0, kPathRole).toString();
            if (!path.isEmpty())
                Q_EMIT recordActivated(
                    path, item->data(0, kLineRole).toULongLong(), item->data(0, kTimeRole).toLongLong());
        });

    m_title->setText(tr("<b>No rule open.</b> Rules ▸ Edit Rule opens the rule selected in the Rules pane; "
                        "Rules ▸ New Rule from Selected Line drafts one from a line of the evidence."));
    m_edit->setPlaceholderText(tr("extractors:\n  - id: local.my-rule\n    sources: [kernel]\n    pattern: '...'"));
    m_edit->setEnabled(false);
    updateActions();
}

void RuleEditor::setDocument(const QString& text, const QString& ruleId, const QString& from, const QString& savedTo)
{
    m_hasDocument = true;
    m_ruleId = ruleId;
    m_check = {};
    m_title->setText(tr("<b>%1</b> — %2<br><span style=\"color:gray\">saved to %3</span>")
                         .arg(ruleId.toHtmlEscaped(), from.toHtmlEscaped(), savedTo.toHtmlEscaped()));
    m_title->setToolTip(savedTo);
    m_edit->setEnabled(true);
    m_edit->setDiagnostics({});
    m_problems->clear();
    m_diff->clear();
    m_trace->clear();
    m_misses->clear();
    m_tabs->setTabText(0, tr("Problems"));
    m_note->setVisible(false);
    m_edit->setPlainText(text); // textChanged: a new generation
    m_edit->moveCursor(QTextCursor::Start);
    m_debounce->stop();
    emitEdited();
}

void RuleEditor::replaceText(const QString& text, const QString& from)
{
    const int line = m_edit->textCursor().blockNumber() + 1;
    const int column = m_edit->textCursor().positionInBlock() + 1;
    // One edit, so that Undo can take the saved version back.
    QTextCursor all(m_edit->document());
    all.select(QTextCursor::Document);
    all.insertText(text);
    m_edit->goTo(line, column);
    Q_UNUSED(from);
    m_debounce->stop();
    emitEdited();
}

QString RuleEditor::text() const
{
    return m_edit->toPlainText();
}

void RuleEditor::emitEdited()
{
    m_checking = true;
    m_status->setText(tr("checking…"));
    updateActions();
    Q_EMIT textEdited(m_generation, m_edit->toPlainText());
}

bool RuleEditor::setCheck(const RuleEditorCheck& check)
{
    if (check.generation != m_generation)
        return false;
    m_checking = false;
    m_check = check;
    if (!check.ruleId.isEmpty())
        m_ruleId = check.ruleId;
    m_edit->setDiagnostics(check.diagnostics);
    m_problems->clear();
    int errors = 0;
    int warnings = 0;
    for (const auto& d : check.diagnostics) {
        (d.error ? errors : warnings) += 1;
        const QString at = d.line > 0 ? tr("line %1:%2").arg(d.line).arg(d.column) : d.where;
        QString what = QStringLiteral("%1: %2").arg(d.error ? tr("error") : tr("warning"), d.message);
        if (!d.ruleId.isEmpty())
            what = tr("rule '%1': %2").arg(d.ruleId, what);
        auto* item = new QTreeWidgetItem({ at, what + QStringLiteral(" [%1]").arg(d.code) });
        item->setForeground(0, d.error ? errorInk(palette()) : warningInk(palette()));
        item->setToolTip(0, d.where);
        item->setToolTip(1, what);
        item->setData(0, kLineRole, d.line);
        item->setData(0, kColumnRole, d.column);
        m_problems->addTopLevelItem(item);
    }
    m_problems->resizeColumnToContents(0);
    m_tabs->setTabText(
        0, check.diagnostics.isEmpty() ? tr("Problems") : tr("Problems (%1)").arg(check.diagnostics.size()));
    QPalette pal = m_status->palette();
    if (errors > 0) {
        m_status->setText(tr("✗ %n error(s)", nullptr, errors)
            + (warnings > 0 ? tr(", %n warning(s)", nullptr, warnings) : QString()));
        pal.setColor(QPalette::WindowText, errorInk(palette()));
        m_tabs->setCurrentIndex(0);
    } else {
        m_status->setText(tr("✓ valid · %n test(s) pass", nullptr, check.testsRun)
            + (warnings > 0 ? tr(" · %n warning(s)", nullptr, warnings) : QString()));
        pal.setColor(QPalette::WindowText, okInk(palette()));
    }
    m_status->setPalette(pal);
    m_status->setToolTip(tr("checked in %1 ms").arg(check.ms));
    updateActions();
    return true;
}

void RuleEditor::showProblem(QTreeWidgetItem* item)
{
    const int line = item->data(0, kLineRole).toInt();
    if (line > 0)
        m_edit->goTo(line, item->data(0, kColumnRole).toInt());
}

void RuleEditor::setRun(const RuleEditorRun& run)
{
    // The verdict diff.
    QString html;
    const bool material = changesVerdict(run.changes);
    if (run.same) {
        html = tr("<p><b>Same verdict as %1.</b></p>").arg(run.baseline.toHtmlEscaped());
    } else if (!material) {
        html = tr("<p><b>The same outcome and cause as %1</b>; %n difference(s):</p>", nullptr,
            static_cast<int>(run.changes.size()))
                   .arg(run.baseline.toHtmlEscaped());
        html += QStringLiteral("<ul>");
        for (const QString& c : run.changes)
            html += QStringLiteral("<li>%1</li>").arg(c.toHtmlEscaped());
        html += QStringLiteral("</ul>");
    } else {
        html = tr("<p><b>The verdict changes from %1: %n difference(s).</b></p>", nullptr,
            static_cast<int>(run.changes.size()))
                   .arg(run.baseline.toHtmlEscaped());
        html += QStringLiteral("<ul>");
        for (const QString& c : run.changes)
            html += QStringLiteral("<li>%1</li>").arg(c.toHtmlEscaped());
        html += QStringLiteral("</ul>");
    }
    if (!run.baselineNote.isEmpty())
        html += QStringLiteral("<p><i>%1</i></p>").arg(run.baselineNote.toHtmlEscaped());
    html += tr("<p>%1: %2<br>edited: %3</p>")
                .arg(run.baseline.toHtmlEscaped(), run.before.toHtmlEscaped(), run.after.toHtmlEscaped());
    html += tr("<p style=\"color:gray\">engine over %1 records in %2 ms (the case's import re-used)</p>")
                .arg(run.records)
                .arg(run.ms);
    m_diff->setHtml(html);
    m_tabs->setTabText(1, run.same ? tr("Verdict Diff") : tr("Verdict Diff (%1)").arg(run.changes.size()));

    // The trace and the near misses.
    auto* traceSummary = m_tabs->widget(2)->findChild<QLabel*>(QStringLiteral("ruleTraceSummary"));
    auto* missesSummary = m_tabs->widget(3)->findChild<QLabel*>(QStringLiteral("ruleMissesSummary"));
    m_trace->clear();
    m_misses->clear();
    if (!run.trace) {
        traceSummary->setText(run.traceNote);
        missesSummary->setText(run.traceNote);
        m_tabs->setTabText(2, tr("Rule Trace"));
        m_tabs->setTabText(3, tr("Near Misses"));
        m_tabs->setCurrentIndex(1);
        return;
    }
    const core::RuleTrace& t = *run.trace;
    QString summary = tr("<b>%1</b> (%2, %3)")
                          .arg(escaped(t.id), QString::fromLatin1(core::traceRuleKindName(t.kind)), escaped(t.origin));
    if (t.kind == core::TraceRuleKind::Extractor)
        summary += tr(": %1 records looked at, %2 of a kind it reads, <b>%3 matched</b>")
                       .arg(t.recordsScanned)
                       .arg(t.recordsRead)
                       .arg(t.recordsMatched);
    else if (t.kind == core::TraceRuleKind::Correlator)
        summary += tr(": %1 cause and %2 symptom candidate(s), %3 link(s)")
                       .arg(t.causeCandidates)
                       .arg(t.symptomCandidates)
                       .arg(t.links.size());
    for (const auto& n : t.notes)
        summary += QStringLiteral("<br>") + escaped(n);
    traceSummary->setText(summary);
    for (const auto& e : t.events) {
        auto* item = recordItem(e.record,
            { where(e.record), fateText(e),
                QStringLiteral("%1 {%2} [%3]")
                    .arg(QString::fromStdString(e.label), QString::fromStdString(e.type),
                        QString::fromStdString(e.role)) });
        m_trace->addTopLevelItem(item);
    }
    for (const auto& l : t.links) {
        auto* item = recordItem(l.symptomRecord,
            { where(l.symptomRecord),
                l.byOrder ? tr("linked by line order")
                          : tr("linked, %1 after %2")
                                .arg(QString::fromStdString(core::formatDelta(l.deltaNs)), where(l.causeRecord)),
                QStringLiteral("%1 → %2").arg(
                    QString::fromStdString(l.causeLabel), QString::fromStdString(l.symptomLabel)) });
        m_trace->addTopLevelItem(item);
    }
    for (const auto& e : t.filterMisses)
        m_trace->addTopLevelItem(recordItem(e.record,
            { where(e.record), tr("selected, but its text did not match"), QString::fromStdString(e.label) }));
    const int fired = static_cast<int>(t.events.size() + t.links.size());
    m_tabs->setTabText(2, tr("Rule Trace (%1)").arg(fired));
    std::size_t misses = 0;
    for (const auto& [k, n] : t.missCounts)
        misses += n;
    for (const auto& m : t.misses)
        m_misses->addTopLevelItem(recordItem(m.record,
            { where(m.record),
                QStringLiteral("[%1] %2").arg(
                    QString::fromLatin1(core::missClauseName(m.clause)), QString::fromStdString(m.detail)),
                QString::fromStdString(m.record.text.substr(0, 300)) }));
    for (const auto& m : t.linkMisses)
        m_misses->addTopLevelItem(recordItem(m.symptomRecord,
            { where(m.symptomRecord),
                QStringLiteral("[%1] %2").arg(
                    QString::fromLatin1(core::linkClauseName(m.clause)), QString::fromStdString(m.detail)),
                QString::fromStdString(m.symptomLabel) }));
    QStringList counts;
    for (const auto& [k, n] : t.missCounts)
        counts << QStringLiteral("%1 %2").arg(n).arg(QString::fromStdString(k));
    missesSummary->setText(misses == 0 ? tr("No near miss: no record came close to matching.")
                                       : tr("%1 near miss(es): %2; %3 listed, nearest first")
                                             .arg(misses)
                                             .arg(counts.join(QStringLiteral(", ")))
                                             .arg(m_misses->topLevelItemCount()));
    m_tabs->setTabText(3, tr("Near Misses (%1)").arg(misses));
    for (QTreeWidget* tree : { m_trace, m_misses }) {
        tree->resizeColumnToContents(0);
        tree->resizeColumnToContents(1);
        // The middle column never takes more than half of the width: the last one stays in view.
        tree->setColumnWidth(1, std::min(tree->columnWidth(1), std::max(160, tree->viewport()->width() / 2)));
    }
    // The diff comes first when the verdict itself changes; when only the count of events or the inputs differ (a new
    // context rule), the rule's trace does.
    m_tabs->setCurrentIndex(material ? 1 : 2);
}

bool RuleEditor::changesVerdict(const QStringList& changes)
{
    return std::any_of(changes.begin(), changes.end(), [](const QString& c) {
        return !c.startsWith(QLatin1String("events: ")) && !c.startsWith(QLatin1String("input "));
    });
}

void RuleEditor::setRunFailed(const QString& message)
{
    m_diff->setHtml(QStringLiteral("<p><b>%1</b></p><pre>%2</pre>")
                        .arg(tr("The edited rules did not run."), message.toHtmlEscaped()));
    m_tabs->setCurrentIndex(1);
}

void RuleEditor::setBusy(bool busy, const QString& what)
{
    m_busy = busy;
    m_progress->setVisible(busy);
    m_cancel->setVisible(busy);
    m_progress->setText(what);
    updateActions();
}

void RuleEditor::setProgress(const QString& what)
{
    m_progress->setText(what);
}

void RuleEditor::setNote(const QString& note)
{
    m_note->setText(note);
    m_note->setVisible(!note.isEmpty());
}

void RuleEditor::setRunnable(bool canRun)
{
    m_canRun = canRun;
    updateActions();
}

void RuleEditor::updateActions()
{
    const bool valid = m_hasDocument && !m_checking && m_check.ok;
    int errors = 0;
    for (const auto& d : m_check.diagnostics)
        errors += d.error ? 1 : 0;
    m_run->setEnabled(valid && m_canRun && !m_busy);
    m_save->setEnabled(valid && errors == 0 && !m_busy);
    m_sweep->setEnabled(valid && !m_busy);
    m_regress->setEnabled(!m_busy && (!m_hasDocument || valid));
}

} // namespace faultline::views
