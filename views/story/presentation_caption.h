// SPDX-License-Identifier: Apache-2.0
// The caption under the views while a story is presented: the step's number, title and text in large type, and
// the keys that move on. When the presenter has moved away from the step (opened the raw evidence, zoomed, picked
// another event), it says so and names the key that returns to the step. Thread affinity: UI thread.
#pragma once

#include <QFrame>

class QLabel;

namespace faultline::views {

class PresentationCaption : public QFrame
{
    Q_OBJECT
public:
    explicit PresentationCaption(QWidget* parent = nullptr);

    /// Shows step `step` (0-based) of `count`; `source` names what is stepped through ("story", "evidence trail").
    void setStep(int step, int count, const QString& title, const QString& text, const QString& source);
    /// The presenter moved away from the step (true) or is back on it (false).
    void setDetached(bool detached);
    bool isDetached() const { return m_detached; }
    QString titleText() const;
    QString positionText() const;
    QString bodyText() const;

private:
    void updateHint();

    QLabel* m_position;
    QLabel* m_title;
    QLabel* m_text;
    QLabel* m_hint;
    bool m_detached = false;
    int m_step = -1;
};

} // namespace faultline::views
