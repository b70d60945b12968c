// SPDX-License-Identifier: Apache-2.0
#include "views/search/search_pane.h"

#include "core/time/civil_time.h"

#include <QApplication>
#include <QCollator>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace faultline::views {

namespace {

constexpr int kDebounceMs = 250;
constexpr int kPathRole = Qt::UserRole; // file filter items: the display path ("" for the kind items)
constexpr int kKindRole = Qt::UserRole + 1; // file filter items: the source kind (-1 for "every source")

QString kindLabel(core::SourceKind k)
{
    switch (k) {
    case core::SourceKind::Scheduler:
        return SearchPane::tr("All scheduler logs");
    case core::SourceKind::AppLog:
        return SearchPane::tr("All application logs");
    case core::SourceKind::Kernel:
        return SearchPane::tr("All kernel logs");
    case core::SourceKind::Metrics:
        return SearchPane::tr("All metrics");
    case core::SourceKind::FabricManager:
        return SearchPane::tr("All fabric manager logs");
    case core::SourceKind::Kubernetes:
        return SearchPane::tr("All Kubernetes sources");
    case core::SourceKind::Other:
        return SearchPane::tr("All other files");
    }
    return {};
}

QString humanBytes(std::uint64_t b)
{
    if (b >= (std::uint64_t(1) << 30))
        return SearchPane::tr("%1 GiB").arg(static_cast<double>(b) / double(1 << 30), 0, 'f', 2);
    if (b >= (std::uint64_t(1) << 20))
        return SearchPane::tr("%1 MiB").arg(static_cast<double>(b) / double(1 << 20), 0, 'f', 1);
    if (b >= 1024)
        return SearchPane::tr("%1 KiB").arg(static_cast<double>(b) / 1024.0, 0, 'f', 1);
    return SearchPane::tr("%1 B").arg(b);
}

QString humanCount(std::uint64_t n)
{
    if (n >= 10000000)
        return SearchPane::tr("%1 M").arg(static_cast<double>(n) / 1e6, 0, 'f', 1);
    if (n >= 100000)
        return SearchPane::tr("%1 k").arg(static_cast<double>(n) / 1e3, 0, 'f', 0);
    return QString::number(n);
}

QString humanDuration(std::int64_t us)
{
    if (us >= 1000000)
        return SearchPane::tr("%1 s").arg(static_cast<double>(us) / 1e6, 0, 'f', 2);
    if (us >= 1000)
        return SearchPane::tr("%1 ms").arg(us / 1000);
    return SearchPane::tr("%1 µs").arg(us);
}

/// Draws a hit's line with its match highlighted, and keeps the match in view when it lies far to the right.
class MatchDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        QString text = opt.text;
        opt.text.clear();
        const QWidget* widget = opt.widget;
        QStyle* style = widget ? widget->style() : QApplication::style();
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
        // Control characters (tabs, ANSI escapes) as spaces: one for one, so the match positions still hold.
        for (QChar& c : text)
            if (c.unicode() < 0x20)
                c = QLatin1Char(' ');
        int start = std::clamp(index.data(SearchResultsModel::MatchStartRole).toInt(), 0, int(text.size()));
        const int length =
            std::clamp(index.data(SearchResultsModel::MatchLengthRole).toInt(), 0, int(text.size()) - start);
        const QRect r = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget).adjusted(3, 0, -3, 0);
        const QFontMetrics fm(opt.font);
        // A match that would end past the cell's right edge is brought into view: the lead is cut to a third of the
        // cell and shown as "…".
        const QChar ellipsis(0x2026);
        if (fm.horizontalAdvance(text.left(start + length)) > r.width()) {
            const int budget = r.width() / 3 - fm.horizontalAdvance(ellipsis);
            int from = start;
            int width = 0;
            while (from > 0 && width + fm.horizontalAdvance(text.at(from - 1)) < budget) {
                width += fm.horizontalAdvance(text.at(from - 1));
                --from;
            }
            if (from > 0) {
                text = ellipsis + text.mid(from);
                start = start - from + 1;
            }
        }
        const bool selected = opt.state & QStyle::State_Selected;
        const QColor ink = opt.palette.color(opt.state & QStyle::State_Enabled ? QPalette::Normal : QPalette::Disabled,
            selected ? QPalette::HighlightedText : QPalette::Text);
        painter->save();
        painter->setClipRect(r);
        painter->setFont(opt.font);
        const int baseline = r.top() + (r.height() - fm.height()) / 2 + fm.ascent();
        int x = r.left();
        const QString before = text.left(start);
        const QString match = text.mid(start, length);
        const QString after = text.mid(start + length);
        painter->setPen(ink);
        painter->drawText(x, baseline, before);
        x += fm.horizontalAdvance(before);
        const int matchWidth = fm.horizontalAdvance(match);
        const QRect mark(x, r.top() + 2, std::max(2, matchWidth), r.height() - 4);
        painter->fillRect(mark, QColor(0xff, 0xd5, 0x4f));
        painter->setPen(QColor(0x20, 0x20, 0x20));
        painter->drawText(x, baseline, match);
        x += matchWidth;
        painter->setPen(ink);
        painter->drawText(x, baseline, fm.elidedText(after, Qt::ElideRight, std::max(0, r.right() - x)));
        painter->restore();
    }
};

} // namespace

SearchPane::SearchPane(QWidget* parent)
    : QWidget(parent)
    , m_box(new QLineEdit(this))
    , m_case(new QToolButton(this))
    , m_regex(new QToolButton(this))
    , m_range(new QToolButton(this))
    , m_nodes(new QComboBox(this))
    , m_files(new QComboBox(this))
    , m_severity(new QComboBox(this))
    , m_stop(new QToolButton(this))
    , m_view(new QTableView(this))
    , m_status(new QLabel(this))
    , m_debounce(new QTimer(this))
    , m_model(new SearchResultsModel(this))
{
    qRegisterMetaType<SearchOptions>();
    m_box->setPlaceholderText(tr("Search evidence (RE2)…"));
    m_box->setClearButtonEnabled(true);
    m_box->setToolTip(tr("An RE2 regular expression matched against every line of every evidence file.\n"
                         "Enter searches at once; Down moves to the hits; Escape stops a running search."));
    m_box->installEventFilter(this);
    auto toggle = [](QToolButton* b, const QString& text, const QString& tip, bool on) {
        b->setText(text);
        b->setToolTip(tip);
        b->setCheckable(true);
        b->setChecked(on);
        b->setAutoRaise(true);
    };
    toggle(m_case, QStringLiteral("Aa"), tr("Match case"), false);
    toggle(m_regex, QStringLiteral(".*"), tr("Regular expression (RE2); off: the text as typed"), true);
    toggle(m_range, tr("In range"), tr("Only lines whose record lies in the timeline's visible range"), false);
    m_range->setEnabled(false);
    m_box->setObjectName(QStringLiteral("searchBox"));
    m_case->setObjectName(QStringLiteral("matchCase"));
    m_regex->setObjectName(QStringLiteral("regularExpression"));
    m_range->setObjectName(QStringLiteral("inRange"));
    m_nodes->setObjectName(QStringLiteral("nodeFilter"));
    m_files->setObjectName(QStringLiteral("sourceFilter"));
    m_nodes->setToolTip(tr("Only lines of this node (a per-node file's lines, and records that name the node)"));
    m_nodes->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_files->setToolTip(tr("Only these evidence files"));
    m_files->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_files->setMaximumWidth(320);
    m_severity->setObjectName(QStringLiteral("severityFilter"));
    m_severity->addItem(tr("Any line"), QString());
    m_severity->addItem(tr("Events: info and worse"), QStringLiteral("info"));
    m_severity->addItem(tr("Events: warning and worse"), QStringLiteral("warning"));
    m_severity->addItem(tr("Events: error and worse"), QStringLiteral("error"));
    m_severity->addItem(tr("Events: fatal"), QStringLiteral("fatal"));
    m_severity->setToolTip(tr("Only lines that the rules extracted an event of this severity (or worse) from.\n"
                              "A line no event came from has no severity: it shows only with \"Any line\"."));
    m_severity->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    setEvidence(nullptr);
    m_stop->setText(tr("Stop"));
    m_stop->setToolTip(tr("Stop the running search (Escape)"));
    m_stop->setVisible(false);
    m_stop->setObjectName(QStringLiteral("stop"));

    m_view->setModel(m_model);
    m_view->setItemDelegateForColumn(SearchResultsModel::TextColumn, new MatchDelegate(m_view));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setWordWrap(false);
    m_view->setShowGrid(false);
    m_view->setAlternatingRowColors(true);
    m_view->setTextElideMode(Qt::ElideLeft);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_view->setColumnWidth(SearchResultsModel::FileColumn, 230);
    m_view->setColumnWidth(SearchResultsModel::LineColumn, 56);
    m_view->setColumnWidth(SearchResultsModel::NodeColumn, 76);
    // Wide enough for a nanosecond time; the file column elides on the left, so a path keeps its file name.
    const QFontMetrics fm(m_view->font());
    m_view->setColumnWidth(
        SearchResultsModel::TimeColumn, fm.horizontalAdvance(QStringLiteral("2026-11-02T10:15:06.211734912Z")) + 16);

    m_status->setTextFormat(Qt::RichText);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    setStatus(tr("Type a pattern to search every line of the evidence"));

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->setSpacing(4);
    bar->addWidget(m_box, 1);
    bar->addWidget(m_case);
    bar->addWidget(m_regex);
    bar->addWidget(m_range);
    bar->addWidget(m_nodes);
    bar->addWidget(m_files);
    bar->addWidget(m_severity);
    bar->addWidget(m_stop);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);
    setFocusProxy(m_box);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kDebounceMs);
    connect(m_debounce, &QTimer::timeout, this, &SearchPane::requestSearch);
    connect(m_box, &QLineEdit::textChanged, this, &SearchPane::scheduleSearch);
    connect(m_box, &QLineEdit::returnPressed, this, &SearchPane::requestSearch);
    for (QToolButton* b : { m_case, m_regex, m_range })
        connect(b, &QToolButton::toggled, this, &SearchPane::requestSearch);
    for (QComboBox* c : { m_nodes, m_files, m_severity })
        connect(c, &QComboBox::activated, this, &SearchPane::requestSearch);
    connect(m_stop, &QToolButton::clicked, this, &SearchPane::cancelRequested);
    connect(m_view, &QAbstractItemView::activated, this, &SearchPane::activate);
}

void SearchPane::setEvidence(const core::EvidenceSet* evidence)
{
    const QString node = m_nodes->currentData().toString();
    const QString path = m_files->currentData(kPathRole).toString();
    const int kind = m_files->count() ? m_files->currentData(kKindRole).toInt() : -1;
    const QSignalBlocker b1(m_nodes);
    const QSignalBlocker b2(m_files);
    m_nodes->clear();
    m_files->clear();
    m_nodes->addItem(tr("All nodes"), QString());
    m_files->addItem(tr("All sources"));
    m_files->setItemData(0, QString(), kPathRole);
    m_files->setItemData(0, -1, kKindRole);
    if (evidence) {
        QStringList names;
        for (core::NodeId id = 0; id < evidence->nodes.size(); ++id)
            names << QString::fromStdString(evidence->nodes.name(id));
        QCollator numeric;
        numeric.setNumericMode(true);
        std::sort(names.begin(), names.end(), numeric);
        for (const QString& n : names)
            m_nodes->addItem(n, n);
        std::set<int> kinds;
        for (const auto& s : evidence->sources)
            kinds.insert(static_cast<int>(s.kind));
        for (int k : kinds) {
            m_files->addItem(kindLabel(static_cast<core::SourceKind>(k)));
            m_files->setItemData(m_files->count() - 1, QString(), kPathRole);
            m_files->setItemData(m_files->count() - 1, k, kKindRole);
        }
        for (const auto& s : evidence->sources) {
            const QString p = QString::fromStdString(s.path);
            if (p.isEmpty() || m_files->findData(p, kPathRole) >= 0)
                continue;
            m_files->addItem(p);
            m_files->setItemData(m_files->count() - 1, p, kPathRole);
            m_files->setItemData(m_files->count() - 1, -1, kKindRole);
            m_files->setItemData(m_files->count() - 1, p, Qt::ToolTipRole);
        }
    }
    m_nodes->setCurrentIndex(std::max(0, m_nodes->findData(node)));
    int fileIndex = 0;
    for (int i = 1; i < m_files->count(); ++i)
        if (m_files->itemData(i, kPathRole).toString() == path && m_files->itemData(i, kKindRole).toInt() == kind)
            fileIndex = i;
    m_files->setCurrentIndex(fileIndex);
}

void SearchPane::setTimeRange(qint64 fromNs, qint64 toNs)
{
    const bool valid = fromNs != INT64_MIN && toNs != INT64_MIN && fromNs <= toNs;
    const bool changed = valid != (m_rangeFrom != INT64_MIN) || (valid && (fromNs != m_rangeFrom || toNs != m_rangeTo));
    m_rangeFrom = valid ? fromNs : INT64_MIN;
    m_rangeTo = valid ? toNs : INT64_MIN;
    m_range->setEnabled(valid);
    m_range->setToolTip(valid
            ? tr("Only lines whose record lies in the timeline's visible range, %1 – %2")
                  .arg(QString::fromStdString(core::formatUtc(fromNs)), QString::fromStdString(core::formatUtc(toNs)))
            : tr("Only lines whose record lies in the timeline's visible range (no range yet)"));
    if (!valid && m_range->isChecked()) {
        m_range->setChecked(false); // searches again, without the window
        return;
    }
    if (changed && m_range->isChecked())
        scheduleSearch();
}

QString SearchPane::pattern() const
{
    return m_box->text();
}

void SearchPane::setPattern(const QString& pattern)
{
    m_box->setText(pattern);
}

void SearchPane::focusSearch()
{
    m_box->setFocus(Qt::ShortcutFocusReason);
    m_box->selectAll();
}

SearchOptions SearchPane::options() const
{
    SearchOptions o;
    o.ignoreCase = !m_case->isChecked();
    o.literal = !m_regex->isChecked();
    o.node = m_nodes->currentData().toString();
    o.path = m_files->currentData(kPathRole).toString();
    o.kind = m_files->count() ? m_files->currentData(kKindRole).toInt() : -1;
    o.minSeverity = m_severity->currentData().toString();
    if (m_range->isChecked() && m_rangeFrom != INT64_MIN) {
        o.fromNs = m_rangeFrom;
        o.toNs = m_rangeTo;
    }
    o.generation = m_generation;
    return o;
}

void SearchPane::scheduleSearch()
{
    m_debounce->start();
}

void SearchPane::requestSearch()
{
    m_debounce->stop();
    ++m_generation; // whatever was asked before is stale now
    m_box->setPalette(QPalette());
    if (m_box->text().isEmpty()) {
        m_model->clear();
        m_shown = m_generation;
        setStatus(tr("Type a pattern to search every line of the evidence"));
        if (m_busy)
            Q_EMIT cancelRequested();
        return;
    }
    Q_EMIT searchRequested(m_box->text(), options());
}

void SearchPane::setResults(quint64 generation, std::vector<SearchHitRow> hits, const SearchSummary& summary)
{
    if (generation != m_generation)
        return;
    m_model->setHits(std::move(hits));
    m_shown = generation;
    showSummary(summary);
}

void SearchPane::appendHits(quint64 generation, std::vector<SearchHitRow> hits)
{
    if (generation != m_generation)
        return;
    if (m_shown != generation) {
        m_model->setHits(std::move(hits));
        m_shown = generation;
    } else {
        m_model->appendHits(std::move(hits));
    }
    if (m_busy)
        setStatus(m_model->rowCount() == 1 ? tr("Searching… 1 hit so far")
                                           : tr("Searching… %1 hits so far").arg(m_model->rowCount()));
}

void SearchPane::finishResults(quint64 generation, const SearchSummary& summary)
{
    if (generation != m_generation)
        return;
    if (m_shown != generation) {
        m_model->clear();
        m_shown = generation;
    }
    showSummary(summary);
}

void SearchPane::setFailed(quint64 generation, const QString& message)
{
    if (generation != m_generation)
        return;
    m_model->clear();
    m_shown = generation;
    QPalette p = m_box->palette();
    p.setColor(QPalette::Base, QColor(0xff, 0xeb, 0xee));
    m_box->setPalette(p);
    setStatus(message, true);
}

void SearchPane::setBusy(bool busy)
{
    m_busy = busy;
    m_stop->setVisible(busy);
    if (busy)
        setStatus(tr("Searching…"));
}

QString SearchPane::status() const
{
    return m_statusText;
}

void SearchPane::showSummary(const SearchSummary& s)
{
    QString text = (s.hits == 1 ? tr("1 hit") : tr("%1 hits").arg(s.hits))
        + (s.files == 1 ? tr(" in 1 file") : tr(" in %1 files").arg(s.files)) + QStringLiteral(" · ")
        + humanBytes(s.bytes) + QStringLiteral(" · ") + tr("%1 lines").arg(humanCount(s.lines)) + QStringLiteral(" · ")
        + humanDuration(s.elapsedUs);
    QString rich = text.toHtmlEscaped();
    if (s.truncated) {
        const QString cut = tr("truncated at %1").arg(s.maxHits ? s.maxHits : s.hits);
        text += QStringLiteral(" · ") + cut;
        rich += QStringLiteral(" · <b style=\"color:#b26a00\">") + cut.toHtmlEscaped() + QStringLiteral("</b>");
    }
    if (s.untimedExcluded) {
        const QString untimed = s.untimedExcluded == 1
            ? tr("1 matching line without a time left out by the range")
            : tr("%1 matching lines without a time left out by the range").arg(s.untimedExcluded);
        text += QStringLiteral(" · ") + untimed;
        rich += QStringLiteral(" · ") + untimed.toHtmlEscaped();
    }
    m_statusText = text;
    m_status->setText(rich);
}

void SearchPane::setStatus(const QString& text, bool error)
{
    m_statusText = text;
    m_status->setText(error
            ? QStringLiteral("<span style=\"color:#c62828\">") + text.toHtmlEscaped() + QStringLiteral("</span>")
            : text.toHtmlEscaped());
}

void SearchPane::activate(const QModelIndex& index)
{
    if (!index.isValid())
        return;
    const SearchHitRow& h = m_model->hits()[static_cast<std::size_t>(index.row())];
    Q_EMIT hitActivated(QString::fromUtf8(h.path.data(), static_cast<qsizetype>(h.path.size())), h.line, h.timeNs);
}

bool SearchPane::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_box && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Down && m_model->rowCount() > 0) {
            m_view->setFocus(Qt::TabFocusReason);
            if (!m_view->currentIndex().isValid())
                m_view->setCurrentIndex(m_model->index(0, 0));
            return true;
        }
        if (key->key() == Qt::Key_Escape && m_busy) {
            Q_EMIT cancelRequested();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace faultline::views
