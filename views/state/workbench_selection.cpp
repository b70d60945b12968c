// SPDX-License-Identifier: Apache-2.0
#include "views/state/workbench_selection.h"

namespace faultline::views {

WorkbenchSelection::WorkbenchSelection(QObject* parent)
    : QObject(parent)
{ }

void WorkbenchSelection::selectEvent(int eventIndex)
{
    if (eventIndex == m_event)
        return;
    m_event = eventIndex;
    Q_EMIT eventChanged(eventIndex);
}

void WorkbenchSelection::setCursor(qint64 ns)
{
    if (ns == m_cursor)
        return;
    m_cursor = ns;
    Q_EMIT cursorChanged(ns);
}

void WorkbenchSelection::setRange(qint64 fromNs, qint64 toNs)
{
    if (fromNs == m_from && toNs == m_to)
        return;
    m_from = fromNs;
    m_to = toNs;
    Q_EMIT rangeChanged(fromNs, toNs);
}

void WorkbenchSelection::clear()
{
    m_event = -1;
    m_cursor = INT64_MIN;
    m_from = INT64_MIN;
    m_to = INT64_MIN;
}

} // namespace faultline::views
