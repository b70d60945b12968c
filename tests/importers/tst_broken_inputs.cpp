// SPDX-License-Identifier: Apache-2.0
// The broken-input corpus (tests/data/broken/<case>/, indexed by cases.yaml): every defective file gives its
// located diagnostic, nothing crashes, and the good companion file of each case is still imported.
#include "importers/bundle_loader.h"
#include "tests/common/test_helpers.h"

#include <QTest>

#include <yaml-cpp/yaml.h>

using namespace faultline;
using namespace faultline::core;

class TstBrokenInputs : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void corpus_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("code");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("status");
        QTest::addColumn<int>("recordsAtLeast");
        YAML::Node index;
        try {
            index = YAML::LoadFile(tests::sourcePath("tests/data/broken/cases.yaml"));
        } catch (const YAML::Exception& e) {
            QFAIL(("tests/data/broken/cases.yaml: " + e.msg).c_str());
        }
        QVERIFY(index["cases"].IsSequence());
        QVERIFY2(index["cases"].size() >= 40, "the corpus must hold at least 40 cases");
        for (const auto& c : index["cases"]) {
            const auto name = c["name"].as<std::string>();
            QTest::addRow("%s", name.c_str())
                << QString::fromStdString(name) << QString::fromStdString(c["file"].as<std::string>())
                << QString::fromStdString(c["code"].as<std::string>()) << (c["line"] ? c["line"].as<int>() : 0)
                << QString::fromStdString(c["status"] ? c["status"].as<std::string>() : "")
                << (c["records_at_least"] ? c["records_at_least"].as<int>() : 0);
        }
    }

    void corpus()
    {
        QFETCH(QString, name);
        QFETCH(QString, file);
        QFETCH(QString, code);
        QFETCH(int, line);
        QFETCH(QString, status);
        QFETCH(int, recordsAtLeast);
        const std::string dir = tests::sourcePath("tests/data/broken/" + name.toStdString());
        const EvidenceSet ev = importers::loadBundle({ dir });

        // The good companion is always imported in full.
        const Source* good = nullptr;
        for (const auto& s : ev.sources)
            if (s.path == "good.log")
                good = &s;
        QVERIFY2(good, "good.log was not imported");
        QCOMPARE(good->records, std::uint64_t(3));

        // The diagnostic, located.
        std::vector<Diagnostic> diags = ev.diagnostics;
        const Source* broken = nullptr;
        for (const auto& s : ev.sources)
            if (s.path == file.toStdString()) {
                broken = &s;
                diags.insert(diags.end(), s.warnings.begin(), s.warnings.end());
            }
        std::string seen;
        for (const auto& d : diags)
            seen += d.format() + "\n";
        if (code != QLatin1String("none")) {
            bool found = false;
            for (const auto& d : diags)
                found = found || (d.code == code.toStdString() && (line == 0 || d.where.line == std::uint64_t(line)));
            QVERIFY2(found,
                ("expected " + code.toStdString() + (line ? " at line " + std::to_string(line) : "") + "; got:\n"
                    + seen)
                    .c_str());
        }
        if (file == QLatin1String("faultline.yaml"))
            return;
        QVERIFY2(broken, "the broken file is not listed as a source");
        if (!status.isEmpty())
            QCOMPARE(QString::fromLatin1(coverageStatusName(broken->status)), status);
        QVERIFY2(broken->records >= std::uint64_t(recordsAtLeast), seen.c_str());
    }
};

QTEST_GUILESS_MAIN(TstBrokenInputs)
#include "tst_broken_inputs.moc"
