// SPDX-License-Identifier: Apache-2.0
// faultline-gui-bench CASE|BUNDLE: the workbench's opening times, in process and offscreen (run by run_bench.sh).
//   case    open a case: its stored verdict shown (storedVerdictShown), then the re-run shown (resultShown)
//   bundle  open a bundle: the verdict shown and the window painted once (first paint after the analysis)
// Prints milliseconds since the open call and the peak RSS.
#include "app/gui/main_window.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <sys/resource.h>

#include <cstdio>

namespace {

long peakRssMiB()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss / 1024;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: faultline-gui-bench RULES_DIR CASE|BUNDLE\n");
        return 2;
    }
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("faultline-gui-bench"));
    const QString rules = QString::fromLocal8Bit(argv[1]);
    const QString path = QString::fromLocal8Bit(argv[2]);
    faultline::app::MainWindow window(rules);
    window.resize(1280, 820);
    window.show();
    QElapsedTimer clock;
    int code = 0;
    QObject::connect(&window, &faultline::app::MainWindow::storedVerdictShown, &window, [&] {
        window.grab(); // painted
        std::printf("stored verdict shown: %.1f ms\n", static_cast<double>(clock.nsecsElapsed()) / 1e6);
    });
    QObject::connect(&window, &faultline::app::MainWindow::resultShown, &window, [&] {
        const double shown = static_cast<double>(clock.nsecsElapsed()) / 1e6;
        window.grab();
        const double painted = static_cast<double>(clock.nsecsElapsed()) / 1e6;
        std::printf(
            "analysis shown: %.1f ms, first paint after it: %.1f ms, peak RSS %ld MiB\n", shown, painted, peakRssMiB());
        QApplication::quit();
    });
    QTimer::singleShot(0, &window, [&] {
        clock.start();
        if (path.endsWith(QLatin1String(".faultline")))
            window.openCase(path);
        else
            window.openBundle(path);
    });
    QTimer::singleShot(600000, &window, [&] {
        std::fprintf(stderr, "faultline-gui-bench: no result after 10 minutes\n");
        code = 1;
        QApplication::quit();
    });
    const int rc = QApplication::exec();
    return code ? code : rc;
}
