// SPDX-License-Identifier: Apache-2.0
// faultline: the desktop workbench. With no display (no DISPLAY/WAYLAND_DISPLAY and no QT_QPA_PLATFORM) it prints
// the verdict of the given bundle as text instead, so the README's first command works on a headless machine.
#include "app/common/rules_location.h"
#include "app/gui/main_window.h"
#include "app/render/report_export.h"
#include "app/usecases/use_cases.h"
#include "core/report/verdict_report.h"
#include "core/version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QTimer>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string_view>

namespace {

bool haveDisplay()
{
    auto set = [](const char* v) { return std::getenv(v) && *std::getenv(v); };
    return set("DISPLAY") || set("WAYLAND_DISPLAY") || set("QT_QPA_PLATFORM");
}

bool isCase(const std::string& path)
{
    return path.size() > 10 && path.compare(path.size() - 10, 10, ".faultline") == 0;
}

int exitCode(faultline::usecases::Exit e)
{
    return static_cast<int>(e);
}

int printVerdict(const std::vector<std::string>& paths, const std::string& rules)
{
    using faultline::usecases::Exit;
    const std::string& bundle = paths.front();
    if (isCase(bundle)) {
        // A case prints its latest stored run, as 'faultline-cli show' does (what the workbench shows first).
        const auto stored = faultline::usecases::storedVerdict(bundle);
        if (!stored.ok()) {
            std::cerr << stored.failure.text() << '\n';
            return exitCode(stored.failure.code);
        }
        std::cout << "faultline: no display; printing the case's latest verdict instead of opening the workbench\n\n"
                  << stored.value->text;
        return exitCode(Exit::Ok);
    }
    faultline::usecases::BundleRequest request;
    request.paths = paths;
    request.rulesDir = rules;
    // The user's own rule packs, as the workbench and faultline-cli layer them.
    std::error_code ec;
    if (const std::string user = faultline::app::userRulesDir();
        !user.empty() && std::filesystem::is_directory(user, ec))
        request.packDirs.push_back(user);
    const auto result = faultline::usecases::analyseBundle(request);
    if (!result.ok()) {
        std::cerr << result.failure.text() << '\n';
        return exitCode(result.failure.code);
    }
    const auto& a = result.value->analysis;
    std::cout << "faultline: no display; printing the verdict instead of opening the workbench\n\n"
              << faultline::core::verdictToText(*a.verdict, *a.evidence);
    return exitCode(Exit::Ok);
}

void describe(QCommandLineParser& parser)
{
    parser.setApplicationDescription(
        QStringLiteral("Forensic workbench for failed distributed AI jobs. With no argument it opens on a start page; "
                       "with no display (no DISPLAY, WAYLAND_DISPLAY or QT_QPA_PLATFORM) it prints the verdict of the "
                       "given bundle, or the latest stored verdict of the given case, instead."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("path"),
        QStringLiteral("Evidence to open: one or more bundle directories, archives or files (analysed together as one "
                       "bundle), or a case file (*.faultline)."),
        QStringLiteral("[path...]"));
    parser.addOption(QCommandLineOption(QStringLiteral("screenshot"),
        QStringLiteral("Write a PNG of the window once the verdict is shown (or of the start page when no path is "
                       "given), then quit."),
        QStringLiteral("png")));
    parser.addOption(QCommandLineOption(QStringLiteral("export-report"),
        QStringLiteral("Write the case's postmortem report with its pictures (the timeline of the cause and its "
                       "symptoms) to the file -o names, then quit; no window is shown, and with no display the "
                       "offscreen platform is used. Exit codes as faultline-cli's."),
        QStringLiteral("case")));
    parser.addOption(QCommandLineOption(QStringLiteral("format"),
        QStringLiteral("With --export-report: md, html or pdf (default: from the output file's extension)."),
        QStringLiteral("md|html|pdf")));
    parser.addOption(QCommandLineOption(QStringList { QStringLiteral("o"), QStringLiteral("output") },
        QStringLiteral("With --export-report: the report's file (Markdown's pictures go in NAME.assets/ beside it)."),
        QStringLiteral("file")));
    parser.addOption(QCommandLineOption(QStringLiteral("redact"),
        QStringLiteral("With --export-report: redact the report (its pictures too) with the built-in profile "
                       "'default' or a profile file, as faultline-cli report --redact does."),
        QStringLiteral("profile")));
    parser.addOption(QCommandLineOption(QStringLiteral("rules"),
        QStringLiteral("With --export-report: the rule catalog for a case that does not hold its run's rules."),
        QStringLiteral("dir")));
}

bool exportRequested(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i)
        if (std::string_view(argv[i]) == "--export-report"
            || std::string_view(argv[i]).rfind("--export-report=", 0) == 0)
            return true;
    return false;
}

/// faultline --export-report CASE -o FILE [--format F] [--redact P] [--rules DIR]: the report, headless.
int exportReport(QApplication& app, const std::string& defaultRules)
{
    using faultline::usecases::Exit;
    QCommandLineParser parser;
    describe(parser);
    if (!parser.parse(QCoreApplication::arguments())) {
        std::cerr << "faultline: " << parser.errorText().toStdString() << '\n';
        return exitCode(Exit::Usage);
    }
    faultline::render::ExportRequest request;
    request.casePath = parser.value(QStringLiteral("export-report"));
    request.outPath = parser.value(QStringLiteral("o"));
    request.redaction = parser.value(QStringLiteral("redact"));
    request.rulesDir = parser.isSet(QStringLiteral("rules")) ? parser.value(QStringLiteral("rules"))
                                                             : QString::fromStdString(defaultRules);
    if (!parser.positionalArguments().isEmpty()) {
        std::cerr << "faultline: --export-report takes one case; unexpected "
                  << parser.positionalArguments().join(QLatin1Char(' ')).toStdString() << '\n';
        return exitCode(Exit::Usage);
    }
    if (request.outPath.isEmpty()) {
        std::cerr << "faultline: --export-report needs -o FILE\n";
        return exitCode(Exit::Usage);
    }
    const QString format = parser.isSet(QStringLiteral("format")) ? parser.value(QStringLiteral("format"))
                                                                  : QFileInfo(request.outPath).suffix().toLower();
    const auto parsed = faultline::render::exportFormatFrom(format);
    if (!parsed) {
        std::cerr << "faultline: --format takes md, html or pdf"
                  << (parser.isSet(QStringLiteral("format")) ? std::string()
                                                             : " (the output file's extension names none of them)")
                  << '\n';
        return exitCode(Exit::Usage);
    }
    request.format = *parsed;
    faultline::render::ReportExport exporter;
    int code = exitCode(Exit::Ok);
    QObject::connect(&exporter, &faultline::render::ReportExport::finished, &app,
        [&code](const faultline::render::ExportOutcome& outcome) {
            code = exitCode(outcome.code);
            std::cerr << (outcome.code == Exit::Ok ? "" : "faultline: ") << outcome.message.toStdString() << '\n';
            QCoreApplication::exit(code);
        });
    exporter.start(request);
    QApplication::exec();
    return code;
}

void setApplicationNames()
{
    QCoreApplication::setApplicationName(QStringLiteral("Faultline"));
    QCoreApplication::setOrganizationDomain(QStringLiteral("faultline.dev"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(faultline::core::kVersion));
}

} // namespace

int main(int argc, char** argv)
{
    const std::string rules = faultline::app::defaultRulesDir(argv[0]);
    const bool exporting = exportRequested(argc, argv);
    if (exporting && !haveDisplay())
        qputenv("QT_QPA_PLATFORM", "offscreen"); // a report needs no screen
    if (!haveDisplay()) {
        std::vector<std::string> paths;
        for (int i = 1; i < argc; ++i) {
            const std::string a = argv[i];
            if (a == "--version" || a == "-v") {
                std::cout << "faultline " << faultline::core::kVersion << "\n";
                return exitCode(faultline::usecases::Exit::Ok);
            }
            if (a == "--help" || a == "-h" || a == "--help-all") {
                QCoreApplication core(argc, argv);
                setApplicationNames();
                QCommandLineParser parser;
                describe(parser);
                parser.process(core); // prints the help and exits
                return exitCode(faultline::usecases::Exit::Ok);
            }
            if (a == "--screenshot") {
                ++i; // its value is a PNG path, not a bundle
                continue;
            }
            if (!a.empty() && a[0] != '-')
                paths.push_back(a);
        }
        if (!paths.empty())
            return printVerdict(paths, rules);
        std::cerr << "faultline: no display available; give a bundle to print its verdict, or use faultline-cli\n";
        return exitCode(faultline::usecases::Exit::Usage);
    }
    QApplication app(argc, argv);
    setApplicationNames();
    if (exporting)
        return exportReport(app, rules);
    QCommandLineParser parser;
    describe(parser);
    parser.process(app);
    const QString screenshot = QStringLiteral("screenshot");

    faultline::app::MainWindow window(
        QString::fromStdString(rules), QString::fromStdString(faultline::app::defaultSampleDir(argv[0])));
    window.show();
    if (!parser.positionalArguments().isEmpty())
        window.openPaths(parser.positionalArguments());
    if (parser.isSet(screenshot)) {
        const QString png = parser.value(screenshot);
        auto taken = std::make_shared<bool>(false);
        auto grab = [&window, png, taken] {
            if (*taken)
                return;
            *taken = true;
            QTimer::singleShot(200, &window, [&window, png] {
                if (!window.grab().save(png)) {
                    std::cerr << "faultline: cannot write the screenshot " << png.toStdString() << '\n';
                    QApplication::exit(1);
                    return;
                }
                QApplication::quit();
            });
        };
        if (parser.positionalArguments().isEmpty()) {
            grab(); // the start page
        } else {
            // As soon as a verdict is shown: a case's stored one, or the analysis of a bundle.
            QObject::connect(&window, &faultline::app::MainWindow::resultShown, &window, grab);
            QObject::connect(&window, &faultline::app::MainWindow::storedVerdictShown, &window, grab);
        }
    }
    return QApplication::exec();
}
