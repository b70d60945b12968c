// SPDX-License-Identifier: Apache-2.0
// Kernel and driver message families in every envelope a collector writes (tests/data/kernel-families/README.md):
// each fixture file is imported on its own, as a bundle would be (format detection included), and the bundled
// catalog's extractors run over its records. Every must-match line must give its expected event (type and fields)
// and nothing of another type; every must-not-match line must give no event (facts about the node's software aside).
// The match rate and every failing line are printed.
#include "core/rules/extraction.h"
#include "core/time/civil_time.h"
#include "importers/bundle_loader.h"
#include "tests/common/test_helpers.h"

#include <QTest>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace faultline;
using namespace faultline::core;

namespace {

namespace fs = std::filesystem;

std::vector<std::string> readLines(const fs::path& p)
{
    std::ifstream in(p);
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);)
        lines.push_back(l);
    return lines;
}

struct Expectation
{
    std::string type;
    std::vector<std::pair<std::string, std::string>> fields;
};

/// "type key=value key=value"; a value runs to the next " key=" (values may hold spaces: "4.00 GiB").
Expectation parseExpectation(const std::string& line)
{
    Expectation e;
    const auto sp = line.find(' ');
    e.type = line.substr(0, sp);
    if (sp == std::string::npos)
        return e;
    std::string rest = line.substr(sp + 1);
    while (!rest.empty()) {
        const auto eq = rest.find('=');
        if (eq == std::string::npos)
            break;
        const std::string key = rest.substr(0, eq);
        std::size_t end = rest.size();
        for (std::size_t p = eq; (p = rest.find(' ', p + 1)) != std::string::npos;) {
            const auto nextEq = rest.find('=', p);
            const auto nextSp = rest.find(' ', p + 1);
            if (nextEq != std::string::npos && (nextSp == std::string::npos || nextEq < nextSp)) {
                end = p;
                break;
            }
        }
        e.fields.emplace_back(key, rest.substr(eq + 1, end - eq - 1));
        rest = end < rest.size() ? rest.substr(end + 1) : std::string();
    }
    return e;
}

std::string describe(const Event& e)
{
    std::string s = e.type + " (" + e.ruleId + ")";
    if (!e.gpu.empty())
        s += " gpu=" + e.gpu;
    for (const auto& [k, v] : e.fields)
        s += " " + k + "=" + v;
    return s;
}

/// Imports one fixture file as a bundle of its own and returns the evidence and the events per line.
struct Imported
{
    EvidenceSet ev;
    std::map<std::uint64_t, std::vector<Event>> byLine;
};

Imported importAlone(const fs::path& file, const QTemporaryDir& tmp)
{
    const fs::path target = fs::path(tmp.path().toStdString()) / file.filename();
    fs::copy_file(file, target, fs::copy_options::overwrite_existing);
    // A fixed modification time: year-less stamps take their year from it.
    fs::last_write_time(
        target, std::chrono::file_clock::from_sys(std::chrono::sys_seconds(std::chrono::seconds(1793620800))));
    Imported r;
    importers::LoadOptions options;
    options.threads = 1;
    r.ev = importers::loadBundle({ tmp.path().toStdString() }, options);
    Extraction extraction(*tests::bundledCatalog());
    // Facts about the node's software (env.* events: the driver version of the module's load line) say nothing
    // about a failure: they are neither a match nor a false match.
    for (auto& raw : extraction.runAll(r.ev.observations, 1))
        if (raw.event.type.rfind("env.", 0) != 0)
            r.byLine[r.ev.observations[raw.event.observation].where.line].push_back(std::move(raw.event));
    return r;
}

std::vector<fs::path> fixtureFiles(const std::string& dir)
{
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(tests::sourcePath("tests/data/kernel-families/" + dir)))
        if (e.is_regular_file() && e.path().extension() != ".expect")
            files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

class TstKernelFamilies : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void matchRate()
    {
        QVERIFY(tests::bundledCatalog());
        std::size_t mustMatch = 0;
        std::size_t matched = 0;
        std::size_t mustNot = 0;
        std::size_t falseMatches = 0;
        std::ostringstream failures;
        for (const auto& file : fixtureFiles("must-match")) {
            const auto lines = readLines(file);
            fs::path expectPath = file;
            expectPath.replace_extension(".expect");
            const auto expects = readLines(expectPath);
            QVERIFY2(expects.size() == lines.size(),
                (expectPath.string() + " must have one line per line of " + file.filename().string()).c_str());
            QTemporaryDir tmp;
            const Imported imp = importAlone(file, tmp);
            for (std::size_t i = 0; i < lines.size(); ++i) {
                ++mustMatch;
                const Expectation want = parseExpectation(expects[i]);
                const auto it = imp.byLine.find(i + 1);
                const std::vector<Event> none;
                const std::vector<Event>& got = it == imp.byLine.end() ? none : it->second;
                bool found = false;
                bool foreign = false;
                std::string why;
                for (const Event& e : got) {
                    if (e.type != want.type) {
                        foreign = true;
                        continue;
                    }
                    std::string missing;
                    for (const auto& [k, v] : want.fields) {
                        const std::string* have = k == "gpu" ? &e.gpu : e.field(k);
                        if (!have || *have != v)
                            missing += " " + k + "=" + v + " (has " + (have ? *have : std::string("nothing")) + ")";
                    }
                    if (missing.empty())
                        found = true;
                    else
                        why += " [" + describe(e) + ": wrong" + missing + "]";
                }
                if (found && !foreign) {
                    ++matched;
                    continue;
                }
                failures << "MISS " << file.filename().string() << ":" << i + 1 << ": " << lines[i] << "\n"
                         << "    expected: " << expects[i] << "\n    got:";
                if (got.empty())
                    failures << " no event";
                for (const Event& e : got)
                    failures << " {" << describe(e) << "}";
                failures << why << "\n";
            }
        }
        for (const auto& file : fixtureFiles("must-not-match")) {
            const auto lines = readLines(file);
            QTemporaryDir tmp;
            const Imported imp = importAlone(file, tmp);
            for (std::size_t i = 0; i < lines.size(); ++i) {
                ++mustNot;
                const auto it = imp.byLine.find(i + 1);
                if (it == imp.byLine.end())
                    continue;
                ++falseMatches;
                failures << "FALSE MATCH " << file.filename().string() << ":" << i + 1 << ": " << lines[i]
                         << "\n    expected: no event\n    got:";
                for (const Event& e : it->second)
                    failures << " {" << describe(e) << "}";
                failures << "\n";
            }
        }
        const std::string summary = "must-match: " + std::to_string(matched) + "/" + std::to_string(mustMatch)
            + " lines matched (" + std::to_string(mustMatch ? matched * 100 / mustMatch : 0)
            + "%); must-not-match: " + std::to_string(falseMatches) + "/" + std::to_string(mustNot) + " false matches";
        qInfo("%s", summary.c_str());
        if (!failures.str().empty())
            qInfo("%s", failures.str().c_str());
        QVERIFY(mustMatch > 50 && mustNot > 20);
        QVERIFY2(matched == mustMatch && falseMatches == 0, summary.c_str());
    }

    /// Each envelope's times: explicit offsets are exact, `dmesg -T` is the node's local time (assumed zone), and
    /// uptime stamps without a boot time or lines without a stamp have no time (never an invented one).
    void envelopeTimes_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("format");
        QTest::addColumn<int>("quality");
        QTest::addColumn<QString>("firstTime");
        const auto q = [](TimeQuality t) { return static_cast<int>(t); };
        QTest::addRow("dmesg -T") << "dmesg-T.txt"
                                  << "dmesg-raw" << q(TimeQuality::AssumedZone) << "2026-11-03T10:04:11Z";
        QTest::addRow("dmesg --decode --time-format iso")
            << "dmesg-iso-decode.txt"
            << "dmesg-raw" << q(TimeQuality::Exact) << "2026-11-03T10:04:11.123456Z";
        QTest::addRow("dmesg --time-format iso")
            << "dmesg-iso.txt"
            << "dmesg-raw" << q(TimeQuality::Exact) << "2026-11-03T10:04:11.123456Z";
        QTest::addRow("dmesg --decode, uptime, no boot time") << "dmesg-decode.txt"
                                                              << "dmesg-raw" << q(TimeQuality::Missing) << "-";
        QTest::addRow("uptime stamps, no boot time") << "dmesg-uptime.txt"
                                                     << "dmesg-raw" << q(TimeQuality::Missing) << "-";
        QTest::addRow("dmesg -t, no stamps") << "dmesg-plain.txt"
                                             << "dmesg-raw" << q(TimeQuality::Missing) << "-";
    }

    void envelopeTimes()
    {
        QFETCH(QString, file);
        QFETCH(QString, format);
        QFETCH(int, quality);
        QFETCH(QString, firstTime);
        QTemporaryDir tmp;
        const fs::path path = tests::sourcePath("tests/data/kernel-families/must-match/" + file.toStdString());
        const Imported imp = importAlone(path, tmp);
        QCOMPARE(imp.ev.sources.size(), std::size_t(1));
        QCOMPARE(imp.ev.sources[0].format, format.toStdString());
        QCOMPARE(imp.ev.sources[0].kind, SourceKind::Kernel);
        const auto lines = readLines(path);
        QCOMPARE(imp.ev.observations.size(), lines.size());
        for (std::size_t i = 0; i < lines.size(); ++i) {
            const Observation& o = imp.ev.observations[i];
            QCOMPARE(o.where.line, i + 1); // file order kept
            QCOMPARE(static_cast<int>(o.quality), quality);
            // The envelope is gone: the record is the message, which ends the line.
            QVERIFY2(lines[i].size() >= o.text.size()
                    && lines[i].compare(lines[i].size() - o.text.size(), o.text.size(), o.text) == 0,
                std::string(o.text).c_str());
            QVERIFY2(o.text.rfind("kern ", 0) != 0 && o.text.front() != '[' && o.text.find("2026-11-03T") != 0,
                std::string(o.text).c_str());
        }
        QCOMPARE(QString::fromStdString(formatUtc(imp.ev.observations.front().timeNs)), firstTime);
    }

    /// `dmesg -T` has no zone: it is the node's local time, read in the manifest's zone for that host.
    void ctimeTakesTheHostZone()
    {
        QTemporaryDir tmp;
        tests::writeFiles(tmp,
            { { "faultline.yaml", "hosts:\n  node-02: {tz: Europe/Berlin}\nfiles:\n  dmesg-T.txt: {host: node-02}\n" },
                { "dmesg-T.txt",
                    "[Tue Nov  3 10:04:11 2026] NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.\n" } });
        const EvidenceSet ev = importers::loadBundle({ tmp.path().toStdString() });
        QCOMPARE(ev.observations.size(), std::size_t(1));
        QCOMPARE(ev.sources[0].kind, SourceKind::Kernel);
        QCOMPARE(ev.sources[0].zone, std::string("Europe/Berlin"));
        QCOMPARE(ev.observations[0].quality, TimeQuality::AssumedZone);
        QCOMPARE(formatUtc(ev.observations[0].timeNs), std::string("2026-11-03T09:04:11Z"));
        QCOMPARE(ev.observations[0].precisionNs, kNsPerSec);
    }
};

QTEST_GUILESS_MAIN(TstKernelFamilies)
#include "tst_kernel_families.moc"
