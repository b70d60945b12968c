// SPDX-License-Identifier: Apache-2.0
// A workbench window on the flagship sample saved as a case, as the GUI tests of the case's annotations and story
// start from: analysed, saved, its history read, shown at 1500×980 and active.
#pragma once

#include "app/gui/case_controller.h"
#include "app/gui/main_window.h"
#include "tests/common/gui_helpers.h"

#include <QSignalSpy>
#include <QTest>

#include <memory>

namespace faultline::tests {

/// The window, or null when a step did not finish within a minute.
inline std::unique_ptr<app::MainWindow> sampleSavedAsCase(const QString& path)
{
    auto window = std::make_unique<app::MainWindow>(rulesDir(), sampleDir());
    QSignalSpy shown(window.get(), &app::MainWindow::resultShown);
    window->openBundle(sampleDir());
    if (!QTest::qWaitFor([&] { return shown.count() == 1; }, 60000) || !window->result().verdict)
        return nullptr;
    window->saveCase(path);
    if (!QTest::qWaitFor(
            [&] { return !window->caseController()->isBusy() && window->caseController()->history().has_value(); },
            60000))
        return nullptr;
    window->resize(1500, 980);
    window->show();
    window->activateWindow();
    if (!QTest::qWaitForWindowActive(window.get()))
        return nullptr;
    return window;
}

} // namespace faultline::tests
