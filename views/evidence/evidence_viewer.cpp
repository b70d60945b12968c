// SPDX-License-Identifier: Apache-2.0
#include "views/evidence/evidence_viewer.h"

#include "views/common/annotation_paint.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QStringList>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>

namespace faultline::views {

namespace {

constexpr int kMargin = 6;
/// How much of a long focus text finds it when the whole does not match.
constexpr int kFocusPrefix = 48;
/// The most lines a shift+click highlights.
constexpr std::uint64_t kMaxExtraLines = 2000;
constexpr std::size_t kMaxLineBytes = 4096;

/// Tabs and control characters drawn visibly, so that a line never draws as something it is not.
QString printable(const std::string& raw)
{
    QString s = QString::fromUtf8(raw.data(), static_cast<qsizetype>(raw.size()));
    for (QChar& c : s)
        if (c == QLatin1Char('\t'))
            c = QLatin1Char(' ');
        else if (c.category() == QChar::Other_Control)
            c = QChar(0x2400 + (c.unicode() < 0x20 ? c.unicode() : 0x21)); // control pictures
    return s;
}

} // namespace

EvidenceViewer::EvidenceViewer(QWidget* parent)
    : QAbstractScrollArea(parent)
{
    setObjectName(QStringLiteral("evidenceViewer"));
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setFocusPolicy(Qt::StrongFocus);
    verticalScrollBar()->setSingleStep(1);
    connect(verticalScrollBar(), &QScrollBar::valueChanged, this, [this](int value) {
        viewport()->update();
        Q_EMIT positionChanged(static_cast<std::uint64_t>(value) + 1, m_lines);
    });
    connect(horizontalScrollBar(), &QScrollBar::valueChanged, viewport(), qOverload<>(&QWidget::update));
}

void EvidenceViewer::setText(std::shared_ptr<core::EvidenceText> text)
{
    m_text = std::move(text);
    m_file = 0;
    m_lines = m_text && m_text->fileCount() > 0 ? m_text->lineCount(0) : 0;
    m_highlight = 0;
    m_extra.clear();
    m_cache.clear();
    m_longest = 0;
    m_marks.clear();
    m_marksAt.clear();
    updateScrollBars();
    verticalScrollBar()->setValue(0);
    viewport()->update();
}

void EvidenceViewer::setLineMarks(std::vector<EvidenceLineMark> marks)
{
    m_marks = std::move(marks);
    m_marksAt.clear();
    if (m_text)
        for (std::size_t i = 0; i < m_marks.size(); ++i)
            if (const auto file = m_text->find(m_marks[i].path))
                m_marksAt[{ *file, m_marks[i].line }].push_back(i);
    viewport()->update();
}

std::vector<const EvidenceLineMark*> EvidenceViewer::marksOn(std::uint64_t line) const
{
    std::vector<const EvidenceLineMark*> out;
    if (const auto it = m_marksAt.find({ m_file, line }); it != m_marksAt.end())
        for (const std::size_t i : it->second)
            out.push_back(&m_marks[i]);
    return out;
}

std::optional<QPoint> EvidenceViewer::linePosition(std::uint64_t line) const
{
    const auto [first, last] = visibleLines();
    if (line == 0 || line < first || line > last)
        return std::nullopt;
    const int h = lineHeight();
    return QPoint(gutterWidth() / 2, static_cast<int>(line - first) * h + h / 2);
}

void EvidenceViewer::setExtraHighlights(std::vector<std::uint64_t> lines)
{
    std::sort(lines.begin(), lines.end());
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    m_extra = std::move(lines);
    viewport()->update();
}

void EvidenceViewer::showLine(std::size_t file, std::uint64_t line, const QString& focus)
{
    if (!m_text || file >= m_text->fileCount())
        return;
    if (file != m_file || m_lines == 0) {
        m_file = file;
        m_extra.clear();
        m_lines = m_text->lineCount(file);
        m_cache.clear();
        m_longest = 0;
        updateScrollBars();
    }
    m_highlight = line <= m_lines ? line : 0;
    const int visible = std::max(1, viewport()->height() / lineHeight());
    const auto target = line > 0 ? static_cast<qint64>(line) - 1 - visible / 2 : 0;
    verticalScrollBar()->setValue(static_cast<int>(std::clamp<qint64>(target, 0, verticalScrollBar()->maximum())));
    m_focusStart = -1;
    m_focusLength = 0;
    m_scrollToFocus = false;
    int scrollX = 0;
    if (m_highlight > 0 && !focus.isEmpty()) {
        const QString text = lineText(m_highlight);
        // The record's message as it stands in the line: as is, or JSON-escaped inside a JSON record.
        // A long message whose tail the line holds in another form (escaped otherwise, cut) is found by its
        // beginning.
        auto escape = [](QString t) {
            return t.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
                .replace(QLatin1Char('"'), QStringLiteral("\\\""));
        };
        QStringList candidates { focus, escape(focus) };
        if (focus.size() > kFocusPrefix)
            candidates << focus.left(kFocusPrefix) << escape(focus.left(kFocusPrefix));
        for (const QString& candidate : std::as_const(candidates)) {
            const auto at = text.indexOf(candidate);
            if (at >= 0) {
                m_focusStart = static_cast<int>(at);
                m_focusLength = static_cast<int>(candidate.size());
                break;
            }
        }
        if (m_focusStart >= 0) {
            m_longest = std::max(m_longest, fontMetrics().horizontalAdvance(text) + 2 * kMargin);
            updateScrollBars();
            scrollX = focusScroll();
            m_scrollToFocus = true; // again at the next paint: a dock shown just now has not its final width yet
        }
    }
    horizontalScrollBar()->setValue(scrollX);
    viewport()->update();
    Q_EMIT positionChanged(static_cast<std::uint64_t>(verticalScrollBar()->value()) + 1, m_lines);
}

std::pair<std::uint64_t, std::uint64_t> EvidenceViewer::visibleLines() const
{
    if (m_lines == 0)
        return { 0, 0 };
    const auto first = static_cast<std::uint64_t>(verticalScrollBar()->value()) + 1;
    const auto count = static_cast<std::uint64_t>(std::max(1, viewport()->height() / lineHeight()));
    return { first, std::min(m_lines, first + count - 1) };
}

int EvidenceViewer::lineHeight() const
{
    return fontMetrics().height();
}

int EvidenceViewer::gutterWidth() const
{
    const int digits = static_cast<int>(QString::number(std::max<std::uint64_t>(m_lines, 1)).size());
    return fontMetrics().horizontalAdvance(QLatin1Char('9')) * (digits + 1) + 2 * kMargin;
}

void EvidenceViewer::updateScrollBars()
{
    const int visible = std::max(1, viewport()->height() / lineHeight());
    // A scroll bar counts in int: files of more than 2^31 lines scroll over their first 2^31.
    const auto maxLine = std::min<std::uint64_t>(m_lines, static_cast<std::uint64_t>(INT32_MAX));
    verticalScrollBar()->setRange(0, std::max(0, static_cast<int>(maxLine) - visible));
    verticalScrollBar()->setPageStep(visible);
    horizontalScrollBar()->setRange(0, std::max(0, m_longest - (viewport()->width() - gutterWidth())));
    horizontalScrollBar()->setPageStep(viewport()->width());
}

QString EvidenceViewer::lineText(std::uint64_t line)
{
    if (auto it = m_cache.constFind(line); it != m_cache.constEnd())
        return *it;
    const auto raw = m_text->line(m_file, line, kMaxLineBytes);
    QString s = raw ? printable(*raw) : QString();
    if (raw && raw->size() >= kMaxLineBytes)
        s += QStringLiteral(" …");
    m_cache.insert(line, s);
    return s;
}

int EvidenceViewer::focusScroll()
{
    if (m_highlight == 0 || m_focusStart < 0)
        return 0;
    const QString text = lineText(m_highlight);
    const QFontMetrics fm = fontMetrics();
    const int x = fm.horizontalAdvance(text.left(m_focusStart));
    const int room = viewport()->width() - gutterWidth() - 2 * kMargin;
    // Scrolled only when the focus would not fit; a little of what comes before stays visible, so the reader sees
    // which field holds it.
    if (x + std::min(fm.horizontalAdvance(text.mid(m_focusStart, m_focusLength)), room) <= room)
        return 0;
    return std::max(0, x - fm.horizontalAdvance(QLatin1Char('x')) * 12);
}

void EvidenceViewer::paintEvent(QPaintEvent*)
{
    if (m_scrollToFocus) {
        m_scrollToFocus = false;
        horizontalScrollBar()->setValue(focusScroll()); // this paint already uses the new value
    }
    QPainter p(viewport());
    const QPalette& pal = palette();
    p.fillRect(viewport()->rect(), pal.base());
    if (!m_text || m_lines == 0)
        return;
    const auto [first, last] = visibleLines();
    // Keep only this screen's lines in the cache, so that scrolling a huge file holds a screenful, not the file.
    if (m_cache.size() > 4 * static_cast<int>(last - first + 1))
        m_cache.clear();
    const int h = lineHeight();
    const int gutter = gutterWidth();
    const int ascent = fontMetrics().ascent();
    p.fillRect(QRect(0, 0, gutter, viewport()->height()), pal.alternateBase());
    int widest = m_longest;
    for (std::uint64_t line = first; line <= last + 1 && line <= m_lines; ++line) {
        const int y = static_cast<int>(line - first) * h;
        if (line != m_highlight && std::binary_search(m_extra.begin(), m_extra.end(), line)) {
            QColor hl = pal.highlight().color();
            hl.setAlpha(35);
            p.fillRect(QRect(0, y, viewport()->width(), h), hl);
        }
        if (line == m_highlight) {
            QColor hl = pal.highlight().color();
            hl.setAlpha(70);
            p.fillRect(QRect(0, y, viewport()->width(), h), hl);
            p.fillRect(QRect(0, y, 3, h), pal.highlight());
        }
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(QRect(0, y, gutter - kMargin, h), Qt::AlignRight | Qt::AlignVCenter, QString::number(line));
        if (const auto marks = marksOn(line); !marks.empty()) {
            // One ribbon for the line: filled when any of its annotations is a bookmark.
            const bool bookmark = std::any_of(marks.begin(), marks.end(), [](const auto* m) { return m->bookmark; });
            const bool matched = std::any_of(marks.begin(), marks.end(), [](const auto* m) { return m->matched; });
            drawAnnotationRibbon(p, QPointF(4, y + std::max(0, (h - 11) / 2)), bookmark, matched, pal);
        }
        const QString text = lineText(line);
        p.setPen(pal.color(QPalette::Text));
        p.setClipRect(QRect(gutter, y, viewport()->width() - gutter, h));
        if (line == m_highlight && m_focusStart >= 0) {
            // The record's message inside the line: underlined in the highlight colour.
            const QFontMetrics fm = fontMetrics();
            const int x0 =
                gutter + kMargin - horizontalScrollBar()->value() + fm.horizontalAdvance(text.left(m_focusStart));
            const int w = fm.horizontalAdvance(text.mid(m_focusStart, m_focusLength));
            QColor hl = pal.highlight().color();
            hl.setAlpha(90);
            p.fillRect(QRect(x0, y, w, h), hl);
            p.fillRect(QRect(x0, y + h - 2, w, 2), pal.highlight());
        }
        p.drawText(gutter + kMargin - horizontalScrollBar()->value(), y + ascent, text);
        p.setClipping(false);
        widest = std::max(widest, fontMetrics().horizontalAdvance(text) + 2 * kMargin);
    }
    if (widest != m_longest) {
        m_longest = widest;
        updateScrollBars();
    }
}

void EvidenceViewer::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBars();
}

void EvidenceViewer::keyPressEvent(QKeyEvent* event)
{
    auto* v = verticalScrollBar();
    switch (event->key()) {
    case Qt::Key_Home:
        v->setValue(0);
        return;
    case Qt::Key_End:
        v->setValue(v->maximum());
        return;
    default:
        QAbstractScrollArea::keyPressEvent(event);
    }
}

void EvidenceViewer::mousePressEvent(QMouseEvent* event)
{
    setFocus(Qt::MouseFocusReason);
    // A right click selects the line too, so the context menu's actions act on the line under the pointer.
    if (!m_text || m_lines == 0 || (event->button() != Qt::LeftButton && event->button() != Qt::RightButton)) {
        QAbstractScrollArea::mousePressEvent(event);
        return;
    }
    const auto [first, last] = visibleLines();
    const auto line = first + static_cast<std::uint64_t>(std::max(0, event->position().toPoint().y()) / lineHeight());
    if (line > m_lines)
        return;
    const bool inRange = line == m_highlight || std::binary_search(m_extra.begin(), m_extra.end(), line);
    if (event->button() == Qt::RightButton && inRange)
        return; // the context menu acts on the highlighted lines as they are
    if (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier) && m_highlight > 0) {
        // Shift+click highlights the lines from the selected one to this one (a story step keeps them).
        const std::uint64_t from = std::min(m_highlight, line);
        const std::uint64_t to = std::min(std::max(m_highlight, line), from + kMaxExtraLines - 1);
        std::vector<std::uint64_t> lines;
        for (std::uint64_t l = from; l <= to; ++l)
            if (l != m_highlight)
                lines.push_back(l);
        setExtraHighlights(std::move(lines));
        Q_EMIT highlightsChanged();
        return;
    }
    if (!m_extra.empty()) {
        m_extra.clear();
        Q_EMIT highlightsChanged();
    }
    m_highlight = line;
    m_focusStart = -1;
    m_focusLength = 0;
    viewport()->update();
    Q_EMIT lineSelected(m_file, line);
    Q_EMIT positionChanged(static_cast<std::uint64_t>(verticalScrollBar()->value()) + 1, m_lines);
}

bool EvidenceViewer::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        QString text;
        if (m_lines > 0 && help->pos().x() < gutterWidth()) {
            const auto line = static_cast<std::uint64_t>(verticalScrollBar()->value()) + 1
                + static_cast<std::uint64_t>(std::max(0, help->pos().y()) / lineHeight());
            QStringList parts;
            for (const auto* m : marksOn(line))
                parts << m->tooltip;
            if (!parts.isEmpty())
                text = QStringLiteral("<qt>") + parts.join(QStringLiteral("<hr>")) + QStringLiteral("</qt>");
        }
        if (text.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), text, viewport());
        }
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

EvidencePane::EvidencePane(QWidget* parent)
    : QWidget(parent)
    , m_files(new QComboBox(this))
    , m_position(new QLabel(this))
    , m_viewer(new EvidenceViewer(this))
    , m_empty(new QLabel(tr("Select an event (in the evidence trail) to see its raw evidence line here."), this))
{
    setObjectName(QStringLiteral("evidencePane"));
    m_files->setObjectName(QStringLiteral("evidenceFiles"));
    m_files->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_files->setMinimumContentsLength(30);
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    auto* top = new QHBoxLayout;
    top->setContentsMargins(4, 2, 8, 0);
    top->addWidget(m_files, 1);
    top->addWidget(m_position);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_viewer, 1);
    layout->addWidget(m_empty, 1);
    m_viewer->setVisible(false);
    connect(m_files, &QComboBox::activated, this, [this](int index) {
        if (index < 0)
            return;
        m_viewer->setVisible(true);
        m_empty->setVisible(false);
        m_viewer->showLine(static_cast<std::size_t>(index), 0);
        updatePosition();
    });
    connect(m_viewer, &EvidenceViewer::positionChanged, this, &EvidencePane::updatePosition);
}

void EvidencePane::setText(std::shared_ptr<core::EvidenceText> text)
{
    m_files->clear();
    if (text)
        for (std::size_t i = 0; i < text->fileCount(); ++i)
            m_files->addItem(QString::fromStdString(text->path(i)));
    m_viewer->setText(std::move(text));
    m_viewer->setVisible(false);
    m_empty->setVisible(true);
    updatePosition();
}

bool EvidencePane::showLine(const QString& path, std::uint64_t line, const QString& focus)
{
    auto* text = m_viewer->text();
    const auto file = text ? text->find(path.toStdString()) : std::nullopt;
    if (!file)
        return false;
    m_files->setCurrentIndex(static_cast<int>(*file));
    m_viewer->setVisible(true);
    m_empty->setVisible(false);
    m_viewer->showLine(*file, line, focus);
    updatePosition();
    return true;
}

QString EvidencePane::currentPath() const
{
    auto* text = m_viewer->text();
    if (!text || m_viewer->isHidden() || m_viewer->file() >= text->fileCount())
        return {};
    return QString::fromStdString(text->path(m_viewer->file()));
}

QString EvidencePane::position() const
{
    return m_position->text();
}

void EvidencePane::updatePosition()
{
    auto* text = m_viewer->text();
    if (!text || text->fileCount() == 0 || m_viewer->isHidden()) {
        m_position->clear();
        return;
    }
    const auto lines = text->lineCount(m_viewer->file());
    m_position->setText(m_viewer->highlightedLine() > 0
            ? tr("line %1 of %2").arg(m_viewer->highlightedLine()).arg(lines)
            : tr("%1 lines").arg(lines));
}

} // namespace faultline::views
