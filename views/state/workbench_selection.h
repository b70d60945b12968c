// SPDX-License-Identifier: Apache-2.0
// The one selection every pane of the workbench shows: the selected event, the time cursor and the visible time
// range. Panes set it and follow its signals; a setter that does not change the value emits nothing, so panes that
// both set and follow it never loop.
#pragma once

#include <QObject>

#include <climits>

namespace faultline::views {

class WorkbenchSelection : public QObject
{
    Q_OBJECT
public:
    explicit WorkbenchSelection(QObject* parent = nullptr);

    int event() const { return m_event; } ///< index into Verdict::events; -1: none
    qint64 cursor() const { return m_cursor; } ///< INT64_MIN: none
    qint64 rangeFrom() const { return m_from; }
    qint64 rangeTo() const { return m_to; }

public Q_SLOTS:
    void selectEvent(int eventIndex);
    void setCursor(qint64 ns);
    void setRange(qint64 fromNs, qint64 toNs);
    /// Forgets everything (a new analysis).
    void clear();

Q_SIGNALS:
    void eventChanged(int eventIndex);
    void cursorChanged(qint64 ns);
    void rangeChanged(qint64 fromNs, qint64 toNs);

private:
    int m_event = -1;
    qint64 m_cursor = INT64_MIN;
    qint64 m_from = INT64_MIN;
    qint64 m_to = INT64_MIN;
};

} // namespace faultline::views
