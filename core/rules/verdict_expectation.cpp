// SPDX-License-Identifier: Apache-2.0
#include "core/rules/verdict_expectation.h"

#include "core/util/yaml_nodes.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>

namespace faultline::core {
namespace {
using yaml::isMap;
using yaml::isScalar;
using yaml::isSequence;

std::vector<std::string> list(const YAML::Node& n)
{
    std::vector<std::string> out;
    if (isSequence(n))
        for (const auto& x : n)
            out.push_back(x.Scalar());
    else if (isScalar(n))
        out.push_back(n.Scalar());
    return out;
}

std::string join(std::vector<std::string> v)
{
    std::sort(v.begin(), v.end());
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + v[i];
    return s + "]";
}

} // namespace

std::optional<VerdictExpectation> readExpectation(const std::string& path, std::vector<Diagnostic>& diags)
{
    auto fail = [&](const YAML::Mark& mark, const std::string& code, const std::string& message) {
        Diagnostic d;
        d.code = code;
        d.message = message;
        d.where.file = path;
        if (mark.line >= 0) {
            d.where.line = static_cast<std::uint64_t>(mark.line) + 1;
            d.where.column = static_cast<std::uint32_t>(mark.column) + 1;
        }
        diags.push_back(d);
        return std::nullopt;
    };
    YAML::Node doc;
    try {
        doc = YAML::LoadFile(path);
    } catch (const YAML::ParserException& e) {
        return fail(e.mark, "yaml-syntax", e.msg);
    } catch (const YAML::Exception& e) {
        return fail(YAML::Mark::null_mark(), "unreadable", e.msg);
    }
    if (!isMap(doc) || !isScalar(doc["outcome"]))
        return fail(doc.Mark(), "missing-key", "expected.yaml needs at least 'outcome'");
    VerdictExpectation x;
    try {
        x.outcome = doc["outcome"].Scalar();
        if (const YAML::Node c = doc["cause"]; isMap(c)) {
            x.causeType = isScalar(c["event"]) ? c["event"].Scalar() : "";
            x.causeNode = isScalar(c["node"]) ? c["node"].Scalar() : "";
            if (const YAML::Node f = c["fields"]; isMap(f))
                for (const auto& kv : f)
                    x.causeFields.emplace_back(kv.first.Scalar(), kv.second.Scalar());
        }
        if (doc["blamed_nodes"].IsDefined())
            x.blamedNodes = list(doc["blamed_nodes"]);
        if (doc["symptom_nodes"].IsDefined())
            x.symptomNodes = list(doc["symptom_nodes"]);
        x.missing = list(doc["missing"]);
    } catch (const YAML::Exception& e) {
        return fail(e.mark, "bad-shape", e.msg);
    }
    return x;
}

std::vector<std::string> checkExpectation(const VerdictExpectation& x, const Verdict& v)
{
    std::vector<std::string> out;
    if (v.outcome != x.outcome)
        out.push_back("outcome is " + v.outcome + ", expected " + x.outcome);
    if (!x.causeType.empty()) {
        if (!v.hasCause) {
            out.push_back("no cause, expected " + x.causeType + " on " + x.causeNode);
        } else {
            const Event& c = v.events[v.cause];
            if (c.type != x.causeType)
                out.push_back("cause is " + c.type + " ('" + c.label + "'), expected " + x.causeType);
            const std::string node = c.node == kNoNode ? std::string() : v.nodes.name(c.node);
            if (!x.causeNode.empty() && node != x.causeNode)
                out.push_back("cause node is '" + node + "', expected " + x.causeNode);
            for (const auto& [k, want] : x.causeFields) {
                std::string got;
                if (k == "rank")
                    got = c.rank < 0 ? "" : std::to_string(c.rank);
                else if (k == "gpu")
                    got = c.gpu;
                else if (const std::string* f = c.field(k))
                    got = *f;
                if (got != want)
                    out.push_back("cause field " + k + " is '" + got + "', expected '" + want + "'");
            }
        }
    }
    auto sameSet = [](std::vector<std::string> a, std::vector<std::string> b) {
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        return a == b;
    };
    if (x.blamedNodes && !sameSet(*x.blamedNodes, v.blamedNodes))
        out.push_back("blamed nodes are " + join(v.blamedNodes) + ", expected " + join(*x.blamedNodes));
    if (x.symptomNodes && !sameSet(*x.symptomNodes, v.symptomNodes))
        out.push_back("symptom nodes are " + join(v.symptomNodes) + ", expected " + join(*x.symptomNodes));
    for (const auto& m : x.missing) {
        const auto colon = m.find(':');
        const std::string kind = m.substr(0, colon);
        const std::string node = colon == std::string::npos ? "" : m.substr(colon + 1);
        const bool found = std::any_of(v.coverage.begin(), v.coverage.end(), [&](const CoverageEntry& c) {
            return c.kind == kind && c.node == node && c.status == CoverageStatus::Missing;
        });
        if (!found)
            out.push_back("coverage does not report " + m + " as missing");
    }
    return out;
}

} // namespace faultline::core
