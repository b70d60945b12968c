// SPDX-License-Identifier: Apache-2.0
// Syntax highlighting for a rule document (YAML): comments, keys, quoted strings, numbers, booleans and list dashes;
// inside the values of the keys that hold regular expressions (pattern, preceded_by, text, metric) the RE2 syntax
// too: named captures with their names, groups and alternation, character classes, escapes and quantifiers. Line by
// line (a rule's values fit on one line), so it keeps up with typing in any document size. Colours follow the
// palette (lighter inks on a dark base).
//
// Thread affinity: UI thread.
#pragma once

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace faultline::views {

class RuleHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    explicit RuleHighlighter(QTextDocument* document);
    /// Inks for a dark base (set from the editor's palette) or a light one.
    void setDarkBase(bool dark);

    /// The formats it uses, by name ("key", "comment", "string", "number", "capture", "escape", "class",
    /// "quantifier", "group"), for tests.
    QTextCharFormat format(const QString& name) const;

protected:
    void highlightBlock(const QString& text) override;

private:
    void highlightRegex(const QString& text, int from, int to);
    void updateFormats();

    bool m_dark = false;

    QTextCharFormat m_key;
    QTextCharFormat m_comment;
    QTextCharFormat m_string;
    QTextCharFormat m_number;
    QTextCharFormat m_dash;
    QTextCharFormat m_capture;
    QTextCharFormat m_captureName;
    QTextCharFormat m_group;
    QTextCharFormat m_escape;
    QTextCharFormat m_class;
    QTextCharFormat m_quantifier;
};

} // namespace faultline::views
