// SPDX-License-Identifier: Apache-2.0
#include "views/widgets/verdict_view.h"

#include "core/report/verdict_report.h"
#include "views/help/help_dialogs.h"
#include "views/models/evidence_trail_model.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QResizeEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace faultline::views {
namespace {

QString qs(const std::string& s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QString joinNodes(const std::vector<std::string>& nodes)
{
    QStringList l;
    for (const auto& n : nodes)
        l << qs(n);
    return l.isEmpty() ? QObject::tr("none") : l.join(QStringLiteral(", "));
}

/// Holds the verdict's wrapped cause and action text. It asks for the height the text needs at its present width,
/// and when the splitter gives it less it scrolls instead of cutting off the last lines.
class WrappedTextArea : public QScrollArea
{
public:
    WrappedTextArea(QLabel* label, QWidget* parent)
        : QScrollArea(parent)
        , m_label(label)
    {
        setWidget(label);
        setWidgetResizable(true);
        setFrameShape(QFrame::NoFrame);
        setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
        viewport()->setAutoFillBackground(false);
        label->setAutoFillBackground(false);
        label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    }

    QSize sizeHint() const override { return { QScrollArea::sizeHint().width(), textHeight() }; }
    /// Two lines (the cause and the start of the action) however hard it is squeezed.
    QSize minimumSizeHint() const override
    {
        return { QScrollArea::minimumSizeHint().width(),
            std::min(textHeight(), 2 * m_label->fontMetrics().lineSpacing() + 2 * m_label->margin()) };
    }

protected:
    void resizeEvent(QResizeEvent* event) override
    {
        QScrollArea::resizeEvent(event);
        if (event->size().width() != event->oldSize().width())
            updateGeometry(); // the wrapped text's height follows the width
    }

private:
    int textHeight() const
    {
        if (m_label->text().isEmpty())
            return 0;
        const int w = viewport()->width() > 0 ? viewport()->width() : m_label->sizeHint().width();
        return m_label->heightForWidth(w);
    }

    QLabel* m_label;
};

} // namespace

VerdictView::VerdictView(QWidget* parent)
    : QWidget(parent)
    , m_banner(new QLabel(this))
    , m_details(new QLabel(this))
    , m_coverage(new QLabel(this))
    , m_alternatives(new QToolButton(this))
    , m_reportButton(new QToolButton(this))
    , m_trail(new QTableView(this))
    , m_report(new QPlainTextEdit(this))
    , m_model(new EvidenceTrailModel(this))
{
    auto* layout = new QVBoxLayout(this);
    m_banner->setTextFormat(Qt::RichText);
    m_banner->setWordWrap(true);
    m_banner->setMargin(8);
    m_details->setTextFormat(Qt::RichText);
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detailsArea = new WrappedTextArea(m_details, this);
    m_detailsArea->setObjectName(QStringLiteral("verdictDetails"));
    m_trail->setModel(m_model);
    m_trail->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_trail->horizontalHeader()->setStretchLastSection(true);
    m_trail->verticalHeader()->hide();
    m_trail->setAlternatingRowColors(true);
    m_trail->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_trail, &QTableView::customContextMenuRequested, this, [this](const QPoint& at) {
        const QModelIndex index = m_trail->indexAt(at);
        if (!index.isValid() || !m_notesEnabled)
            return;
        const int event = index.data(EvidenceTrailModel::EventIndexRole).toInt();
        QMenu menu(this);
        menu.addAction(tr("Add Note on This Evidence Line…"), this, [this, event] { Q_EMIT noteRequested(event); });
        menu.exec(m_trail->viewport()->mapToGlobal(at));
    });
    connect(
        m_trail->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
            if (current.isValid() && !m_selecting)
                Q_EMIT eventSelected(current.data(EvidenceTrailModel::EventIndexRole).toInt());
        });
    m_report->setReadOnly(true);
    m_report->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_trail);
    split->addWidget(m_report);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    m_coverage->setObjectName(QStringLiteral("coverage"));
    m_coverage->setTextFormat(Qt::RichText);
    m_alternatives->setObjectName(QStringLiteral("alternatives"));
    m_alternatives->setPopupMode(QToolButton::InstantPopup);
    m_alternatives->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_alternatives->setVisible(false);
    m_reportButton->setObjectName(QStringLiteral("textReport"));
    m_reportButton->setText(tr("Text Report…"));
    m_reportButton->setToolTip(tr("The verdict as faultline-cli prints it, to copy into a ticket or a postmortem"));
    m_reportButton->setEnabled(false);
    connect(m_reportButton, &QToolButton::clicked, this, &VerdictView::showReport);
    m_report->setVisible(false);
    auto* strip = new QHBoxLayout;
    strip->addWidget(m_coverage, 1);
    strip->addWidget(m_alternatives);
    strip->addWidget(m_reportButton);
    layout->addWidget(m_banner);
    layout->addWidget(m_detailsArea);
    layout->addLayout(strip);
    layout->addWidget(split, 1);
}

bool VerdictView::selectEvent(int eventIndex)
{
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const QModelIndex index = m_model->index(row, 0);
        if (index.data(EvidenceTrailModel::EventIndexRole).toInt() == eventIndex) {
            m_selecting = true;
            m_trail->setCurrentIndex(index);
            m_trail->scrollTo(index);
            m_selecting = false;
            return true;
        }
    }
    return false;
}

void VerdictView::showCoverage(const core::Verdict& v)
{
    // Per source kind: how many of its entries (bundle-wide, or one per node) are ok, with the reasons.
    struct Kind
    {
        int ok = 0;
        int total = 0;
        QStringList problems;
    };
    std::vector<std::pair<std::string, Kind>> kinds;
    for (const auto& c : v.coverage) {
        auto it = std::find_if(kinds.begin(), kinds.end(), [&](const auto& k) { return k.first == c.kind; });
        if (it == kinds.end())
            it = kinds.insert(kinds.end(), { c.kind, {} });
        ++it->second.total;
        if (c.status == core::CoverageStatus::Ok)
            ++it->second.ok;
        else
            it->second.problems << QStringLiteral("%1%2: %3 — %4")
                                       .arg(qs(c.kind), c.node.empty() ? QString() : QStringLiteral(" ") + qs(c.node),
                                           QString::fromLatin1(core::coverageStatusName(c.status)), qs(c.reason));
    }
    QStringList parts;
    QStringList tips;
    for (const auto& [kind, k] : kinds) {
        const bool all = k.ok == k.total;
        const QString mark = all ? QStringLiteral("✓") : k.ok == 0 ? QStringLiteral("✗") : QStringLiteral("⚠");
        const QString count = k.total > 1 ? QStringLiteral(" %1/%2").arg(k.ok).arg(k.total) : QString();
        const QString text = QStringLiteral("%1%2 %3").arg(qs(kind).toHtmlEscaped(), count, mark);
        parts << (all ? text : QStringLiteral("<span style=\"color:#b35c00\"><b>%1</b></span>").arg(text));
        tips << k.problems;
    }
    m_coverage->setText(parts.isEmpty() ? tr("<b>Coverage:</b> no collector expected")
                                        : tr("<b>Coverage:</b> %1").arg(parts.join(QStringLiteral(" &nbsp;·&nbsp; "))));
    m_coverage->setToolTip(
        tips.isEmpty() ? tr("Every expected source is present and was read.") : tips.join(QLatin1Char('\n')));
}

void VerdictView::showAlternatives(const core::Verdict& v)
{
    auto* menu = new QMenu(m_alternatives);
    for (const auto& alt : v.alternatives) {
        if (alt.event >= v.events.size())
            continue;
        const auto& e = v.events[alt.event];
        const QString node = e.node != core::kNoNode && e.node < v.nodes.size()
            ? QStringLiteral(" on %1").arg(qs(v.nodes.name(e.node)))
            : QString();
        auto* a = menu->addAction(QStringLiteral("%1%2 — %3").arg(qs(e.label), node, qs(alt.reason)));
        const int index = static_cast<int>(alt.event);
        connect(a, &QAction::triggered, this, [this, index] { Q_EMIT eventSelected(index); });
    }
    delete m_alternatives->menu();
    m_alternatives->setMenu(menu);
    m_alternatives->setText(tr("Alternatives (%1) ▾").arg(menu->actions().size()));
    m_alternatives->setToolTip(tr("Other candidate causes, ranked, each with why it lost"));
    m_alternatives->setVisible(!menu->actions().isEmpty());
}

void VerdictView::clear(const QString& message)
{
    m_banner->setText(message);
    m_details->clear();
    m_detailsArea->updateGeometry();
    m_coverage->clear();
    m_alternatives->setVisible(false);
    m_model->setResult({});
    m_report->clear();
    m_report->setVisible(false);
    m_reportText.clear();
    m_reportButton->setEnabled(false);
}

QString VerdictView::reportText() const
{
    return m_reportText;
}

void VerdictView::showReport()
{
    if (m_reportText.isEmpty())
        return;
    auto* dialog = new TextDialog(tr("Verdict — text report"), QString(), TextDialog::Format::Html, this);
    dialog->setObjectName(QStringLiteral("textReportDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->browser()->setPlainText(m_reportText);
    dialog->browser()->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    dialog->browser()->setLineWrapMode(QTextEdit::NoWrap);
    dialog->resize(1000, 640);
    dialog->show();
}

void VerdictView::setBanner(const std::string& outcome, const QString& what, const QString& small, bool hypothesis)
{
    const bool inconclusive = outcome == "inconclusive";
    // Red: something failed (hardware or the program); violet: a setting to fix, nothing to drain; amber: not known.
    const QString colour = hypothesis        ? QStringLiteral("#b86e00")
        : inconclusive                       ? QStringLiteral("#8a6d00")
        : outcome == "configuration_failure" ? QStringLiteral("#5b3c99")
                                             : QStringLiteral("#a01818");
    m_banner->setStyleSheet(QStringLiteral("QLabel { background: %1; color: white; font-size: 15pt; }").arg(colour));
    if (hypothesis)
        m_banner->setText(tr("<b>leading hypothesis:</b> %1 &nbsp;— not confirmed &nbsp; <small>%2</small>")
                              .arg(what.toHtmlEscaped(), small.toHtmlEscaped()));
    else
        m_banner->setText(QStringLiteral("<b>%1</b> &nbsp; %2 &nbsp; <small>%3</small>")
                              .arg(qs(outcome).toHtmlEscaped(), what.toHtmlEscaped(), small.toHtmlEscaped()));
}

void VerdictView::showStored(const StoredVerdictSummary& stored)
{
    m_model->setResult({});
    // An inconclusive verdict that names a domain names its leading hypothesis.
    const bool hypothesis = stored.outcome == "inconclusive" && !stored.domain.empty() && stored.domain != "unknown";
    setBanner(stored.outcome,
        stored.domain.empty() ? tr("no initiating event in the evidence")
                              : qs(core::domainPath(stored.domain, stored.subdomain)),
        tr("stored run %1 of %2").arg(stored.run).arg(stored.runs), hypothesis);
    m_details->setText(tr("<b>Stored verdict</b> of run %1 (%2, catalog %3). Re-analysing the case's evidence to "
                          "show the evidence trail and check that it reproduces…")
                           .arg(QString::number(stored.run), qs(stored.createdAt).toHtmlEscaped(),
                               qs(stored.catalog).toHtmlEscaped()));
    m_detailsArea->updateGeometry();
    m_reportText = qs(stored.text);
    m_report->setPlainText(m_reportText);
    m_report->setVisible(true); // the trail comes with the re-analysis: until then, the stored text is the verdict
    m_reportButton->setEnabled(true);
}

void VerdictView::setResult(const AnalysisResult& result)
{
    m_model->setResult(result);
    if (!result.verdict || !result.evidence) {
        clear(tr("No verdict"));
        return;
    }
    const core::Verdict& v = *result.verdict;
    const bool hypothesis = !v.hasCause && v.hypotheses.leading;
    const QString what = v.hasCause || hypothesis ? qs(core::domainPath(v.domain, v.subdomain))
                                                  : tr("no initiating event in the evidence");
    setBanner(v.outcome, what,
        tr("confidence %1 (%2%)").arg(qs(v.confidenceLevel), QString::number(static_cast<int>(v.confidence * 100))),
        hypothesis);
    QString html;
    if (hypothesis) {
        const core::HypothesisCandidate& h = v.hypotheses.candidates.front();
        html +=
            tr("<b>Leading hypothesis, not confirmed:</b> %1 (support %2%; no initiating event in the evidence)<br>")
                .arg(qs(h.label).toHtmlEscaped(), QString::number(static_cast<int>(h.support * 100)));
        QStringList confirm;
        for (const auto& c : v.hypotheses.confirm)
            if (c.status == "missing")
                confirm << qs(c.what).toHtmlEscaped();
        if (!confirm.isEmpty())
            html += tr("<b>Would confirm it:</b> %1<br>").arg(confirm.join(QStringLiteral("; ")));
        QStringList rivals;
        for (std::size_t i = 1; i < v.hypotheses.candidates.size(); ++i) {
            const core::HypothesisCandidate& c = v.hypotheses.candidates[i];
            // The rival's own label says what it means; a domain alone ("infrastructure") does not.
            rivals << qs(core::domainPath(c.domain, c.subdomain)).toHtmlEscaped()
                    + QStringLiteral(" %1%").arg(static_cast<int>(c.support * 100))
                    + (c.label.empty() ? QString() : QStringLiteral(" (%1)").arg(qs(c.label).toHtmlEscaped()));
        }
        if (!rivals.isEmpty())
            html += tr("<b>Rivals:</b> %1<br>").arg(rivals.join(QStringLiteral(", ")));
    } else if (v.hasCause)
        html += tr("<b>Cause:</b> %1<br>").arg(qs(v.summary).toHtmlEscaped());
    else
        html += tr("<b>Cause:</b> none found — %1<br>")
                    .arg(v.inconclusiveReasons.empty() ? QString() : qs(v.inconclusiveReasons.front()).toHtmlEscaped());
    if (!v.action.empty())
        html += tr("<b>Action:</b> %1<br>").arg(qs(v.action).toHtmlEscaped());
    html += tr("<b>Blamed nodes:</b> %1 &nbsp; <b>Symptom nodes:</b> %2")
                .arg(joinNodes(v.blamedNodes).toHtmlEscaped(), joinNodes(v.symptomNodes).toHtmlEscaped());
    m_details->setText(html);
    m_detailsArea->updateGeometry();
    showCoverage(v);
    showAlternatives(v);
    m_trail->resizeColumnsToContents();
    m_reportText = qs(core::verdictToText(v, *result.evidence));
    m_report->clear();
    m_report->setVisible(false);
    m_reportButton->setEnabled(true);
}

int VerdictView::heightFor(int trailRows) const
{
    const QLayout* box = layout();
    const int spacing = box ? box->spacing() : 0;
    const QMargins margins = box ? box->contentsMargins() : QMargins();
    auto wrapped = [](const QLabel* label) {
        if (!label->isVisible() && !label->isVisibleTo(label->parentWidget()))
            return 0;
        const int w = label->width();
        return w > 0 && label->hasHeightForWidth() ? label->heightForWidth(w) : label->sizeHint().height();
    };
    int strip = std::max(
        { m_coverage->sizeHint().height(), m_alternatives->sizeHint().height(), m_reportButton->sizeHint().height() });
    if (m_coverage->hasHeightForWidth() && m_coverage->width() > 0)
        strip = std::max(strip, m_coverage->heightForWidth(m_coverage->width()));
    const int rowHeight = m_trail->verticalHeader()->defaultSectionSize();
    const int trail = m_trail->horizontalHeader()->height() + trailRows * rowHeight + 2 * m_trail->frameWidth()
        + m_trail->horizontalScrollBar()->sizeHint().height();
    return margins.top() + wrapped(m_banner) + spacing + wrapped(m_details) + spacing + strip + spacing + trail
        + margins.bottom();
}

} // namespace faultline::views
