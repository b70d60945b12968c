// SPDX-License-Identifier: Apache-2.0
// Comparing verdicts through their JSON report: what a run diff and a regression over saved cases compare. SQLite's
// JSON functions read the fields, in the case's own connection or in a private in-memory one.
#include "core/casefile/case_internal.h"

#include <map>
#include <set>

namespace faultline::core {

using casefile::guarded;
using casefile::Stmt;

namespace {

/// The fields of one verdict that a diff compares, and its symptoms ("type" → "count on nodes").
struct VerdictSide
{
    std::map<std::string, std::string> fields;
    std::map<std::string, std::string> symptoms;
};

constexpr const char* kVerdictFields[] = { "outcome", "evidence status", "domain", "subdomain", "cause type", "cause",
    "cause node", "cause time", "cause evidence", "blamed nodes", "symptom nodes", "confidence",
    "inconclusive reasons" };
constexpr const char* kInputFields[] = { "catalog version", "catalog hash", "engine version" };

VerdictSide readSide(sqlite3* db, const std::string& json)
{
    VerdictSide s;
    Stmt st(db,
        "SELECT json_extract(?1, '$.outcome'), json_extract(?1, '$.evidence_status'), json_extract(?1, '$.domain'), "
        "json_extract(?1, '$.subdomain'), "
        "json_extract(?1, '$.cause.type'), json_extract(?1, '$.cause.label'), json_extract(?1, '$.cause.node'), "
        "json_extract(?1, '$.cause.time'), "
        "json_extract(?1, '$.cause.provenance[0].file') || ':' || json_extract(?1, '$.cause.provenance[0].line'), "
        "json_extract(?1, '$.blamed_nodes'), json_extract(?1, '$.symptom_nodes'), "
        "json_extract(?1, '$.confidence.level'), json_extract(?1, '$.inconclusive_reasons'), "
        "json_extract(?1, '$.catalog.version'), json_extract(?1, '$.catalog.hash'), "
        "json_extract(?1, '$.engine.version'), json_extract(?1, '$.stats.events')");
    st.bind(1, json);
    if (!st.step())
        throw std::runtime_error("the verdict JSON gives no row");
    int c = 0;
    auto next = [&](const char* name) {
        s.fields[name] = st.isNull(c) ? std::string("(none)") : st.text(c);
        ++c;
    };
    for (const char* f : kVerdictFields)
        next(f);
    for (const char* f : kInputFields)
        next(f);
    next("events");
    Stmt sy(db,
        "SELECT json_extract(value, '$.type'), json_extract(value, '$.count'), json_extract(value, '$.nodes') "
        "FROM json_each(?1, '$.symptoms')");
    sy.bind(1, json);
    while (sy.step())
        s.symptoms[sy.text(0)] = sy.text(1) + " on " + sy.text(2);
    return s;
}

} // namespace

RunDiff casefile::diffVerdictJson(sqlite3* db, const std::string& from, const std::string& to)
{
    const VerdictSide a = readSide(db, from);
    const VerdictSide b = readSide(db, to);
    RunDiff d;
    for (const char* f : kVerdictFields) {
        // Verdicts written before schema 2 have no evidence status; the other fields say the same for them.
        if (std::string_view(f) == "evidence status" && (a.fields.at(f) == "(none)" || b.fields.at(f) == "(none)"))
            continue;
        if (a.fields.at(f) != b.fields.at(f)) {
            d.same = false;
            d.changes.push_back(std::string(f) + ": " + a.fields.at(f) + " → " + b.fields.at(f));
        }
    }
    std::set<std::string> types;
    for (const auto& [t, _] : a.symptoms)
        types.insert(t);
    for (const auto& [t, _] : b.symptoms)
        types.insert(t);
    for (const auto& t : types) {
        const auto ia = a.symptoms.find(t);
        const auto ib = b.symptoms.find(t);
        const std::string va = ia == a.symptoms.end() ? "(none)" : ia->second;
        const std::string vb = ib == b.symptoms.end() ? "(none)" : ib->second;
        if (va != vb) {
            d.same = false;
            d.changes.push_back("symptom " + t + ": " + va + " → " + vb);
        }
    }
    if (a.fields.at("events") != b.fields.at("events")) {
        d.same = false;
        d.changes.push_back("events: " + a.fields.at("events") + " → " + b.fields.at("events"));
    }
    // Inputs that changed are listed too, but alone they do not make the verdicts differ. Hashes are shown by their
    // first 12 digits, as git shows commits.
    for (const char* f : kInputFields)
        if (a.fields.at(f) != b.fields.at(f)) {
            const bool hash = std::string_view(f) == "catalog hash";
            const auto shown = [&](const std::string& v) { return hash ? v.substr(0, 12) : v; };
            d.changes.push_back(
                std::string("input ") + f + ": " + shown(a.fields.at(f)) + " → " + shown(b.fields.at(f)));
        }
    return d;
}

std::vector<std::string> casefile::expectationMisses(sqlite3* db, const Expectation& e, const std::string& verdictJson)
{
    Stmt st(db,
        "SELECT coalesce(json_extract(?1, '$.outcome'), ''), coalesce(json_extract(?1, '$.domain'), ''), "
        "coalesce(json_extract(?1, '$.subdomain'), ''), coalesce(json_extract(?1, '$.cause.type'), ''), "
        "coalesce(json_extract(?1, '$.cause.node'), '')");
    st.bind(1, verdictJson);
    std::vector<std::string> out;
    if (!st.step())
        return out;
    const std::pair<const char*, const std::string*> expected[] = { { "outcome", &e.outcome }, { "domain", &e.domain },
        { "subdomain", &e.subdomain }, { "cause type", &e.causeType }, { "cause node", &e.causeNode } };
    for (int i = 0; i < 5; ++i)
        if (st.text(i) != *expected[i].second)
            out.push_back(
                std::string(expected[i].first) + ": expected '" + *expected[i].second + "', got '" + st.text(i) + "'");
    return out;
}

namespace {

/// A private in-memory connection for comparing verdicts outside any case.
struct MemoryDb
{
    sqlite3* db = nullptr;
    MemoryDb()
    {
        if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK)
            throw std::runtime_error("cannot open an in-memory SQLite database");
    }
    ~MemoryDb() { sqlite3_close(db); }
    MemoryDb(const MemoryDb&) = delete;
    MemoryDb& operator=(const MemoryDb&) = delete;
};

} // namespace

std::optional<RunDiff> diffVerdicts(
    const std::string& fromJson, const std::string& toJson, std::vector<Diagnostic>& errors)
{
    std::optional<RunDiff> out;
    guarded("verdict", errors, [&] {
        MemoryDb m;
        out = casefile::diffVerdictJson(m.db, fromJson, toJson);
    });
    return out;
}

std::optional<std::vector<std::string>> verdictMisses(
    const Expectation& e, const std::string& verdictJson, std::vector<Diagnostic>& errors)
{
    std::optional<std::vector<std::string>> out;
    guarded("verdict", errors, [&] {
        MemoryDb m;
        out = casefile::expectationMisses(m.db, e, verdictJson);
    });
    return out;
}

} // namespace faultline::core
