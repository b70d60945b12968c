// SPDX-License-Identifier: Apache-2.0
#include "views/rules/rule_highlighter.h"

#include <QColor>
#include <QGuiApplication>
#include <QPalette>
#include <QRegularExpression>

namespace faultline::views {

namespace {

/// Where the line's comment starts (a '#' at the start or after white space, outside quotes), or -1.
int commentStart(const QString& text)
{
    QChar quote;
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (!quote.isNull()) {
            if (quote == QLatin1Char('\'') && c == QLatin1Char('\'')) {
                if (i + 1 < text.size() && text[i + 1] == QLatin1Char('\''))
                    ++i; // '' is a quote inside single quotes
                else
                    quote = QChar();
            } else if (quote == QLatin1Char('"') && c == QLatin1Char('\\')) {
                ++i;
            } else if (quote == QLatin1Char('"') && c == QLatin1Char('"')) {
                quote = QChar();
            }
            continue;
        }
        if ((c == QLatin1Char('\'') || c == QLatin1Char('"'))
            && (i == 0 || text[i - 1].isSpace() || QStringLiteral(":[{,").contains(text[i - 1])))
            quote = c;
        else if (c == QLatin1Char('#') && (i == 0 || text[i - 1].isSpace()))
            return i;
    }
    return -1;
}

/// The end of a quoted scalar starting at `at` (one past its closing quote), or `to` when it does not close.
int quotedEnd(const QString& text, int at, int to)
{
    const QChar q = text[at];
    for (int i = at + 1; i < to; ++i) {
        if (q == QLatin1Char('\'') && text[i] == QLatin1Char('\'')) {
            if (i + 1 < to && text[i + 1] == QLatin1Char('\''))
                ++i;
            else
                return i + 1;
        } else if (q == QLatin1Char('"') && text[i] == QLatin1Char('\\')) {
            ++i;
        } else if (q == QLatin1Char('"') && text[i] == QLatin1Char('"')) {
            return i + 1;
        }
    }
    return to;
}

bool isRegexKey(const QString& key)
{
    return key == QLatin1String("pattern") || key == QLatin1String("preceded_by") || key == QLatin1String("text")
        || key == QLatin1String("metric");
}

QTextCharFormat ink(const QColor& c, bool bold = false, bool italic = false)
{
    QTextCharFormat f;
    f.setForeground(c);
    if (bold)
        f.setFontWeight(QFont::Bold);
    f.setFontItalic(italic);
    return f;
}

} // namespace

RuleHighlighter::RuleHighlighter(QTextDocument* document)
    : QSyntaxHighlighter(document)
    , m_dark(QGuiApplication::palette().color(QPalette::Base).lightness() < 128)
{
    updateFormats();
}

void RuleHighlighter::setDarkBase(bool dark)
{
    if (dark == m_dark)
        return;
    m_dark = dark;
    updateFormats();
    rehighlight();
}

void RuleHighlighter::updateFormats()
{
    // Light base: deep inks; dark base: the same hues, lighter.
    const bool d = m_dark;
    m_key = ink(d ? QColor(0x7a, 0xb8, 0xf5) : QColor(0x1c, 0x4e, 0x9a), true);
    m_comment = ink(d ? QColor(0x8c, 0x95, 0x9f) : QColor(0x6a, 0x73, 0x7d), false, true);
    m_string = ink(d ? QColor(0x9c, 0xd6, 0x8a) : QColor(0x2f, 0x6f, 0x1f));
    m_number = ink(d ? QColor(0xe5, 0xb5, 0x67) : QColor(0x9a, 0x5b, 0x00));
    m_dash = ink(d ? QColor(0xc0, 0xc0, 0xc0) : QColor(0x55, 0x55, 0x55), true);
    m_capture = ink(d ? QColor(0xd6, 0x9c, 0xf0) : QColor(0x7b, 0x2c, 0x9a));
    m_captureName = ink(d ? QColor(0xe8, 0xc0, 0xff) : QColor(0x7b, 0x2c, 0x9a), true);
    m_group = ink(d ? QColor(0xd6, 0x9c, 0xf0) : QColor(0x7b, 0x2c, 0x9a));
    m_escape = ink(d ? QColor(0xf0, 0x8a, 0x6c) : QColor(0xb0, 0x36, 0x0c));
    m_class = ink(d ? QColor(0x6c, 0xd0, 0xd0) : QColor(0x00, 0x6d, 0x77));
    m_quantifier = ink(d ? QColor(0xf0, 0x8a, 0x6c) : QColor(0xb0, 0x36, 0x0c), true);
}

QTextCharFormat RuleHighlighter::format(const QString& name) const
{
    if (name == QLatin1String("key"))
        return m_key;
    if (name == QLatin1String("comment"))
        return m_comment;
    if (name == QLatin1String("string"))
        return m_string;
    if (name == QLatin1String("number"))
        return m_number;
    if (name == QLatin1String("capture"))
        return m_captureName;
    if (name == QLatin1String("escape"))
        return m_escape;
    if (name == QLatin1String("class"))
        return m_class;
    if (name == QLatin1String("quantifier"))
        return m_quantifier;
    if (name == QLatin1String("group"))
        return m_group;
    return {};
}

void RuleHighlighter::highlightBlock(const QString& text)
{
    const int comment = commentStart(text);
    const int end = comment < 0 ? static_cast<int>(text.size()) : comment;
    if (comment >= 0)
        setFormat(comment, static_cast<int>(text.size()) - comment, m_comment);

    // "  - key: value" (block) and "{key: value, key: value}" (flow).
    static const QRegularExpression kBlockKey(QStringLiteral("^(\\s*)(-\\s+)?([A-Za-z_][A-Za-z0-9_-]*)\\s*:(?=\\s|$)"));
    static const QRegularExpression kFlowKey(QStringLiteral("[{,]\\s*([A-Za-z_][A-Za-z0-9_-]*)\\s*:(?=\\s)"));
    static const QRegularExpression kDash(QStringLiteral("^\\s*(-)(?=\\s|$)"));
    static const QRegularExpression kNumber(
        QStringLiteral("(?<![\\w.'\"-])-?\\d+(?:\\.\\d+)?(?![\\w.])|\\b(?:true|false|null)\\b"));
    QString key;
    int valueFrom = -1;
    if (const auto m = kBlockKey.match(text); m.hasMatch() && m.capturedStart(3) < end) {
        if (m.capturedLength(2) > 0)
            setFormat(static_cast<int>(m.capturedStart(2)), 1, m_dash);
        setFormat(static_cast<int>(m.capturedStart(3)), static_cast<int>(m.capturedLength(3)), m_key);
        key = m.captured(3);
        valueFrom = static_cast<int>(m.capturedEnd(0));
    } else if (const auto dash = kDash.match(text); dash.hasMatch()) {
        setFormat(static_cast<int>(dash.capturedStart(1)), 1, m_dash);
        valueFrom = static_cast<int>(dash.capturedEnd(1));
    } else {
        valueFrom = 0; // a continuation line
    }
    for (auto it = kFlowKey.globalMatch(text, valueFrom); it.hasNext();) {
        const auto m = it.next();
        if (m.capturedStart(1) >= end)
            break;
        setFormat(static_cast<int>(m.capturedStart(1)), static_cast<int>(m.capturedLength(1)), m_key);
    }
    // Quoted strings (a regex key's value highlighted inside), then numbers and booleans outside them.
    int i = valueFrom;
    int plainFrom = valueFrom;
    bool firstQuoted = true; ///< the value's own quoted scalar (a regex key's pattern), not a later one
    auto plain = [&](int from, int to) {
        for (auto it = kNumber.globalMatch(text.left(to), from); it.hasNext();) {
            const auto m = it.next();
            setFormat(static_cast<int>(m.capturedStart()), static_cast<int>(m.capturedLength()), m_number);
        }
    };
    while (i < end) {
        const QChar c = text[i];
        if ((c == QLatin1Char('\'') || c == QLatin1Char('"'))
            && (i == 0 || text[i - 1].isSpace() || QStringLiteral(":[{,").contains(text[i - 1]))) {
            plain(plainFrom, i);
            const int close = quotedEnd(text, i, end);
            setFormat(i, close - i, m_string);
            if (isRegexKey(key) && firstQuoted)
                highlightRegex(text, i + 1, close > i + 1 && text[close - 1] == c ? close - 1 : close);
            firstQuoted = false;
            i = close;
            plainFrom = i;
            continue;
        }
        ++i;
    }
    if (isRegexKey(key) && valueFrom < end && plainFrom == valueFrom) {
        // An unquoted regex value.
        int from = valueFrom;
        while (from < end && text[from].isSpace())
            ++from;
        if (from < end)
            highlightRegex(text, from, end);
    } else {
        plain(plainFrom, end);
    }
}

void RuleHighlighter::highlightRegex(const QString& text, int from, int to)
{
    int i = from;
    while (i < to) {
        const QChar c = text[i];
        if (c == QLatin1Char('\\') && i + 1 < to) {
            int len = 2;
            const QChar n = text[i + 1];
            if ((n == QLatin1Char('x') || n == QLatin1Char('p') || n == QLatin1Char('P')) && i + 2 < to
                && text[i + 2] == QLatin1Char('{')) {
                const int close = static_cast<int>(text.indexOf(QLatin1Char('}'), i + 3));
                len = close < 0 || close >= to ? to - i : close - i + 1;
            }
            setFormat(i, len, m_escape);
            i += len;
            continue;
        }
        if (c == QLatin1Char('[')) {
            int j = i + 1;
            if (j < to && text[j] == QLatin1Char('^'))
                ++j;
            if (j < to && text[j] == QLatin1Char(']'))
                ++j;
            while (j < to && text[j] != QLatin1Char(']')) {
                if (text[j] == QLatin1Char('\\'))
                    ++j;
                ++j;
            }
            const int len = std::min(j + 1, to) - i;
            setFormat(i, len, m_class);
            i += len;
            continue;
        }
        if (c == QLatin1Char('(')) {
            if (text.mid(i, 4) == QLatin1String("(?P<")) {
                const int close = static_cast<int>(text.indexOf(QLatin1Char('>'), i + 4));
                if (close > 0 && close < to) {
                    setFormat(i, 4, m_capture);
                    setFormat(i + 4, close - i - 4, m_captureName);
                    setFormat(close, 1, m_capture);
                    i = close + 1;
                    continue;
                }
            }
            int len = 1;
            if (i + 1 < to && text[i + 1] == QLatin1Char('?')) {
                // (?:  (?i)  (?i:
                int j = i + 2;
                while (j < to && text[j].isLetter())
                    ++j;
                len = j < to && (text[j] == QLatin1Char(':') || text[j] == QLatin1Char(')')) ? j - i + 1 : 2;
            }
            setFormat(i, len, m_group);
            i += len;
            continue;
        }
        if (c == QLatin1Char(')') || c == QLatin1Char('|')) {
            setFormat(i, 1, m_group);
            ++i;
            continue;
        }
        if (c == QLatin1Char('*') || c == QLatin1Char('+') || c == QLatin1Char('?')) {
            setFormat(i, 1, m_quantifier);
            ++i;
            continue;
        }
        if (c == QLatin1Char('{')) {
            static const QRegularExpression kRepeat(QStringLiteral("\\{\\d+(?:,\\d*)?\\}"));
            const auto m =
                kRepeat.match(text, i, QRegularExpression::NormalMatch, QRegularExpression::AnchorAtOffsetMatchOption);
            if (m.hasMatch() && m.capturedEnd() <= to) {
                setFormat(i, static_cast<int>(m.capturedLength()), m_quantifier);
                i = static_cast<int>(m.capturedEnd());
                continue;
            }
        }
        if (c == QLatin1Char('^') || c == QLatin1Char('$') || c == QLatin1Char('.')) {
            setFormat(i, 1, m_quantifier);
            ++i;
            continue;
        }
        ++i;
    }
}

} // namespace faultline::views
