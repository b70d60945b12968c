// SPDX-License-Identifier: Apache-2.0
// Verdicts on partial evidence (tests/data/partial/<case>/: one rank's stderr, a pasted excerpt, an irrelevant
// file): each case's attribution (outcome, evidence status, domain, confidence, the ranked hypotheses and what would
// confirm the leading one) is written as canonical text and compared with <case>/expected.txt; on a mismatch the
// actual text is written next to it and `diff -u` is printed; FAULTLINE_UPDATE_GOLDEN=1 rewrites the expected files.
// Then the invariant over every bundle the repository holds: never high confidence without an initiating event.
#include "core/analysis/analyzer.h"
#include "core/report/verdict_report.h"
#include "importers/bundle_loader.h"
#include "tests/common/test_helpers.h"

#include <QTest>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace faultline;
using namespace faultline::core;

namespace {

std::string number(double x)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.2f", x);
    return buf;
}

std::string joined(const std::vector<std::string>& l)
{
    std::string s;
    for (const auto& x : l)
        s += (s.empty() ? "" : ", ") + x;
    return "[" + s + "]";
}

/// The attribution of a verdict, one fact a line; the evidence trail and coverage have their own tests.
std::string canonical(const Verdict& v)
{
    std::string out;
    auto line = [&](const std::string& s) { out += s + "\n"; };
    line("outcome: " + v.outcome);
    line("evidence_status: " + v.evidenceStatus);
    line("domain: " + v.domain + (v.subdomain.empty() ? "" : "/" + v.subdomain));
    line("confidence: " + v.confidenceLevel + " " + number(v.confidence));
    line("cause: " + (v.hasCause ? v.events[v.cause].type + " " + v.events[v.cause].label : std::string("-")));
    line("blamed_nodes: " + joined(v.blamedNodes));
    line("summary: " + v.summary);
    if (v.hasCause)
        return out;
    line("hypotheses: " + std::string(v.hypotheses.leading ? "leading" : "none leads") + " (" + v.hypotheses.basis
        + ")");
    for (const auto& c : v.hypotheses.candidates) {
        std::vector<std::string> ranks;
        for (auto r : c.ranks)
            ranks.push_back(std::to_string(r));
        line("  " + number(c.support) + " " + c.id + " " + c.domain + "/" + c.subdomain + " nodes " + joined(c.nodes)
            + " ranks " + joined(ranks));
        for (const auto& e : c.evidence)
            line("    " + std::to_string(e.count) + "x " + e.type + " weight " + number(e.weight));
    }
    for (const auto& c : v.hypotheses.confirm)
        line("would confirm: " + c.status + ": " + c.what);
    return out;
}

/// A copy of the case's inputs (the expected files are not evidence) with a fixed modification time: year-less
/// stamps take their year from it.
std::string copyInputs(const std::filesystem::path& root, const QTemporaryDir& tmp)
{
    for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
        const std::string name = e.path().filename().string();
        if (!e.is_regular_file() || name == "expected.txt" || name == "actual.txt")
            continue;
        const auto target = std::filesystem::path(tmp.path().toStdString()) / std::filesystem::relative(e.path(), root);
        std::filesystem::create_directories(target.parent_path());
        std::filesystem::copy_file(e.path(), target);
        std::filesystem::last_write_time(
            target, std::chrono::file_clock::from_sys(std::chrono::sys_seconds(std::chrono::seconds(1793620800))));
    }
    return tmp.path().toStdString();
}

std::size_t addCases(const std::string& rel, bool needsExpected)
{
    const std::filesystem::path dir = tests::sourcePath(rel);
    if (!std::filesystem::is_directory(dir))
        return 0;
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.is_directory() && (!needsExpected || std::filesystem::exists(e.path() / "expected.yaml")))
            names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    for (const auto& n : names)
        QTest::addRow("%s/%s", rel.c_str(), n.c_str()) << QString::fromStdString(rel + "/" + n);
    return names.size();
}

} // namespace

class TstPartialEvidence : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void golden_data()
    {
        QTest::addColumn<QString>("dir");
        QVERIFY(addCases("tests/data/partial", false) >= 6);
    }

    void golden()
    {
        QFETCH(QString, dir);
        const std::filesystem::path root = tests::sourcePath(dir.toStdString());
        QTemporaryDir tmp;
        const EvidenceSet ev = importers::loadBundle({ copyInputs(root, tmp) });
        const std::string actual = canonical(analyze(ev, *tests::bundledCatalog()));
        FAULTLINE_VERIFY_GOLDEN(actual, root / "expected.txt", root / "actual.txt", "verdict");
    }

    void neverConfidentWithoutTheInitiatingEvent_data()
    {
        QTest::addColumn<QString>("dir");
        addCases("resources/samples", true);
        addCases("rules/cases", true);
        addCases("tests/data/golden", false);
        addCases("tests/data/partial", false);
        addCases("tests/data/incidents", false);
    }

    void neverConfidentWithoutTheInitiatingEvent()
    {
        QFETCH(QString, dir);
        QTemporaryDir tmp;
        const EvidenceSet ev = importers::loadBundle({ copyInputs(tests::sourcePath(dir.toStdString()), tmp) });
        const Verdict v = analyze(ev, *tests::bundledCatalog());
        const std::string text = verdictToText(v, ev);
        // High confidence only with an initiating event as the cause.
        if (v.confidenceLevel == "high") {
            QVERIFY2(v.hasCause, text.c_str());
            QVERIFY2(v.events[v.cause].role == Role::Root, text.c_str());
        }
        if (!v.hasCause) {
            QVERIFY2(v.confidenceLevel == "low", text.c_str());
            QCOMPARE(v.outcome, std::string("inconclusive"));
            QVERIFY(v.blamedNodes.empty());
        }
        // The evidence status says which of the three a verdict is.
        if (v.evidenceStatus == "established") {
            QVERIFY(v.hasCause);
            QVERIFY(v.hypotheses.candidates.empty());
        } else if (v.evidenceStatus == "hypothesis") {
            QVERIFY(!v.hasCause && v.hypotheses.leading);
            QCOMPARE(v.domain, v.hypotheses.candidates.front().domain);
            // Rivals of the leader's domain that are too close to it leave the subdomain open.
            const bool open = v.hypotheses.basis.find("its subdomain is open") != std::string::npos;
            QCOMPARE(v.subdomain, open ? std::string() : v.hypotheses.candidates.front().subdomain);
            QVERIFY(v.summary.find("leading hypothesis, not confirmed") == 0);
        } else {
            QCOMPARE(v.evidenceStatus, std::string("none"));
            QVERIFY(!v.hasCause && !v.hypotheses.leading);
            QCOMPARE(v.domain, std::string("unknown"));
        }
    }
};

QTEST_GUILESS_MAIN(TstPartialEvidence)
#include "tst_partial_evidence.moc"
