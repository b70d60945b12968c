// SPDX-License-Identifier: Apache-2.0
// What the workbench's GUI tests share: the flagship sample and the bundled rules as paths, and a screenshot of a
// widget saved under screenshots/ in the test's working directory (the build tree), for people to look at.
#pragma once

#include "tests/common/test_helpers.h"

#include <QDir>
#include <QString>
#include <QTest>
#include <QWidget>

namespace faultline::tests {

inline QString sampleDir()
{
    return QString::fromStdString(sourcePath("resources/samples/bundle-48213"));
}

inline QString rulesDir()
{
    return QString::fromStdString(sourcePath("rules"));
}

/// Saves `w` as screenshots/NAME; a failed save fails the test.
inline void screenshot(QWidget* w, const QString& name)
{
    QDir().mkpath(QStringLiteral("screenshots"));
    QVERIFY2(w->grab().save(QStringLiteral("screenshots/") + name), qPrintable(name));
}

} // namespace faultline::tests
