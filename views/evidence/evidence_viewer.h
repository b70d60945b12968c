// SPDX-License-Identifier: Apache-2.0
// The raw evidence at the exact line: a scroll area over one evidence file that asks the EvidenceText only for the
// lines on screen (never a whole file in a widget), with line numbers and the selected record's line highlighted. A
// click selects a line (which the app's M and C annotate), shift+click highlights the lines from it to another one
// (which a story step keeps); annotated lines carry a ribbon in the gutter whose tooltip
// says what, by whom and when. EvidencePane adds the file chooser and the position ("line 70 of 142").
#pragma once

#include "core/model/evidence_text.h"

#include <QAbstractScrollArea>
#include <QHash>
#include <QWidget>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QComboBox;
class QLabel;

namespace faultline::views {

/// An annotation on a line of the evidence, as the gutter shows it.
struct EvidenceLineMark
{
    std::int64_t id = 0;
    std::string path; ///< the file's display path
    std::uint64_t line = 0; ///< 1-based
    bool bookmark = false; ///< drawn filled (a note or tag hollow)
    bool matched = true; ///< false: the event it was made on is no longer found
    QString tooltip; ///< rich text: what, by whom, when
};

class EvidenceViewer : public QAbstractScrollArea
{
    Q_OBJECT
public:
    explicit EvidenceViewer(QWidget* parent = nullptr);

    void setText(std::shared_ptr<core::EvidenceText> text);
    core::EvidenceText* text() const { return m_text.get(); }
    /// Shows `file` (an index of the EvidenceText) with `line` (1-based) centred and highlighted; 0: no highlight.
    /// `focus`, when the line holds it, is marked and scrolled into view: the message inside a long JSON record
    /// (also found JSON-escaped).
    void showLine(std::size_t file, std::uint64_t line, const QString& focus = {});
    /// Where the focus text lies on the highlighted line, in characters (-1: nowhere).
    int focusColumn() const { return m_focusStart; }
    /// How many characters of the highlighted line are marked as the focus (0: none).
    int focusLength() const { return m_focusLength; }
    std::size_t file() const { return m_file; }
    std::uint64_t highlightedLine() const { return m_highlight; }
    /// The first and last line on screen (1-based; 0 when the file is empty).
    std::pair<std::uint64_t, std::uint64_t> visibleLines() const;
    /// Lines of the file shown that are highlighted besides the selected one (a story step's lines), shaded lighter
    /// than it; showing another file or a new text clears them.
    void setExtraHighlights(std::vector<std::uint64_t> lines);
    const std::vector<std::uint64_t>& extraHighlights() const { return m_extra; }
    /// The gutter's annotation marks (replaces the previous ones; a new text clears them).
    void setLineMarks(std::vector<EvidenceLineMark> marks);
    /// The marks on line `line` of the file shown.
    std::vector<const EvidenceLineMark*> marksOn(std::uint64_t line) const;
    /// Where line `line` of the file shown is drawn (its gutter's centre, viewport coordinates); nullopt off screen.
    std::optional<QPoint> linePosition(std::uint64_t line) const;

Q_SIGNALS:
    void positionChanged(std::uint64_t firstVisible, std::uint64_t lines);
    /// The user clicked line `line` of file `file` (it is highlighted now).
    void lineSelected(std::size_t file, std::uint64_t line);
    /// The user changed the extra highlighted lines (shift+click highlights from the selected line to the clicked
    /// one; a plain click clears them).
    void highlightsChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool viewportEvent(QEvent* event) override;

private:
    int lineHeight() const;
    int gutterWidth() const;
    void updateScrollBars();
    QString lineText(std::uint64_t line);
    /// The horizontal scroll that shows the focus on the highlighted line (0 when it fits unscrolled).
    int focusScroll();

    std::shared_ptr<core::EvidenceText> m_text;
    std::size_t m_file = 0;
    std::uint64_t m_lines = 0;
    std::uint64_t m_highlight = 0;
    std::vector<std::uint64_t> m_extra; ///< sorted
    int m_focusStart = -1; ///< the focus text on the highlighted line, in characters
    int m_focusLength = 0;
    bool m_scrollToFocus = false; ///< bring the focus into view at the next paint, when the viewport has its size
    QHash<quint64, QString> m_cache; ///< the lines fetched for the current screen (cleared when it moves far)
    int m_longest = 0; ///< widest line seen, in pixels, for the horizontal scroll bar
    std::vector<EvidenceLineMark> m_marks;
    std::map<std::pair<std::size_t, std::uint64_t>, std::vector<std::size_t>> m_marksAt; ///< (file, line) → marks
};

class EvidencePane : public QWidget
{
    Q_OBJECT
public:
    explicit EvidencePane(QWidget* parent = nullptr);

    void setText(std::shared_ptr<core::EvidenceText> text);
    /// Shows the line of the file with this display path (see EvidenceViewer::showLine); false when the evidence
    /// has no such file.
    bool showLine(const QString& path, std::uint64_t line, const QString& focus = {});
    EvidenceViewer* viewer() const { return m_viewer; }
    /// The file shown's display path ("" when none).
    QString currentPath() const;
    QString position() const;

private:
    void updatePosition();

    QComboBox* m_files;
    QLabel* m_position;
    EvidenceViewer* m_viewer;
    QLabel* m_empty;
};

} // namespace faultline::views
