// SPDX-License-Identifier: Apache-2.0
#include "core/rules/rule_tester.h"

#include "core/rules/aggregation.h"
#include "core/rules/extraction.h"
#include "core/time/civil_time.h"

#include <algorithm>

namespace faultline::core {

std::vector<RuleTestResult> runRuleTests(const RuleCatalog& catalog, const std::string& onlyRule)
{
    std::vector<RuleTestResult> results;
    Extraction extraction(catalog);
    for (const ExtractorRule& rule : catalog.extractors()) {
        if (!onlyRule.empty() && rule.id != onlyRule)
            continue;
        for (const RuleTest& t : rule.tests) {
            RuleTestResult r;
            r.ruleId = rule.id;
            r.origin = t.origin;
            // A test line may hold several records separated by "\n" (multi-line messages); the last one is the
            // record under test and the earlier ones are its context.
            std::vector<std::string> lines;
            std::size_t start = 0;
            while (start <= t.line.size()) {
                const auto nl = t.line.find('\n', start);
                lines.push_back(t.line.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
                if (nl == std::string::npos)
                    break;
                start = nl + 1;
            }
            while (lines.size() > 1 && lines.back().empty())
                lines.pop_back();
            std::vector<Observation> records(lines.size());
            for (std::size_t i = 0; i < lines.size(); ++i) {
                records[i].text = lines[i];
                records[i].kind = t.source;
                records[i].timeNs = 0;
                records[i].quality = TimeQuality::Exact;
                records[i].where.line = i + 1;
            }
            ExtractionScratch scratch;
            std::vector<RawEvent> out;
            extraction.run(records, records.size() - 1, records.size(), scratch, out);
            const RawEvent* mine = nullptr;
            for (const auto& e : out)
                if (e.event.ruleId == rule.id)
                    mine = &e;
            if (t.expectNone) {
                r.passed = mine == nullptr;
                if (!r.passed)
                    r.message = "expected no event, got " + mine->event.type + " '" + mine->event.label + "'";
            } else if (!mine) {
                r.message = "expected event " + t.expectType + ", the rule produced none";
                if (!out.empty())
                    r.message += " (other rules produced: " + out.front().event.ruleId + ")";
            } else {
                r.passed = true;
                const Event& e = mine->event;
                if (e.type != t.expectType) {
                    r.passed = false;
                    r.message += "event type is " + e.type + ", expected " + t.expectType + "; ";
                }
                if (!t.expectRole.empty() && t.expectRole != roleName(e.role)) {
                    r.passed = false;
                    r.message += std::string("role is ") + roleName(e.role) + ", expected " + t.expectRole + "; ";
                }
                for (const auto& [k, want] : t.expectFields) {
                    const std::string* got = k == "gpu" ? &e.gpu : k == "node" ? &mine->nodeHint : e.field(k);
                    // Event attributes can be checked like fields.
                    std::string attr;
                    if (k == "rank" || k == "severity" || k == "domain" || k == "subdomain" || k == "action") {
                        attr = k == "rank"     ? (e.rank < 0 ? std::string() : std::to_string(e.rank))
                            : k == "severity"  ? e.severity
                            : k == "domain"    ? e.domain
                            : k == "subdomain" ? e.subdomain
                                               : e.action;
                        got = &attr;
                    }
                    if (!got || *got != want) {
                        r.passed = false;
                        r.message += "field " + k + " is '" + (got ? *got : std::string("<absent>")) + "', expected '"
                            + want + "'; ";
                    }
                }
            }
            results.push_back(std::move(r));
        }
    }
    for (const MetricRule& rule : catalog.metricRules()) {
        if (!onlyRule.empty() && rule.id != onlyRule)
            continue;
        for (const MetricTest& t : rule.tests) {
            RuleTestResult r;
            r.ruleId = rule.id;
            r.origin = t.origin;
            MetricSeries series;
            // The test series is named after the rule's first alternative, which must be a literal metric name;
            // if it is not, the rule does not match and the test fails visibly.
            series.name = rule.metricText.substr(0, rule.metricText.find('|'));
            series.gpu = 0;
            series.samples = t.samples;
            std::vector<RawEvent> out;
            for (auto& e : extraction.runMetrics(std::span<const MetricSeries>(&series, 1)))
                if (e.event.ruleId == rule.id)
                    out.push_back(std::move(e));
            if (t.expectNone) {
                r.passed = out.empty();
                if (!r.passed)
                    r.message = "expected no event, got '" + out.front().event.label + "'";
            } else if (out.empty()) {
                r.message = "expected event " + t.expectType + ", the rule produced none";
            } else {
                r.passed = out.front().event.type == t.expectType;
                if (!r.passed)
                    r.message = "event type is " + out.front().event.type + ", expected " + t.expectType + "; ";
                for (const auto& [k, want] : t.expectFields) {
                    const std::string* got = out.front().event.field(k);
                    if (!got || *got != want) {
                        r.passed = false;
                        r.message += "field " + k + " is '" + (got ? *got : std::string("<absent>")) + "', expected '"
                            + want + "'; ";
                    }
                }
            }
            results.push_back(std::move(r));
        }
    }
    for (std::size_t ri = 0; ri < catalog.aggregates().size(); ++ri) {
        const AggregateRule& rule = catalog.aggregates()[ri];
        if (!onlyRule.empty() && rule.id != onlyRule)
            continue;
        for (const AggregateTest& t : rule.tests) {
            RuleTestResult r;
            r.ruleId = rule.id;
            r.origin = t.origin;
            // The lines are one file's records, a second apart, read by every extractor; the aggregate then reads
            // the events they give, as the engine does after extraction.
            NodeTable nodes;
            std::vector<Observation> records(t.lines.size());
            for (std::size_t i = 0; i < t.lines.size(); ++i) {
                records[i].node = t.nodes[i].empty() ? kNoNode : nodes.intern(t.nodes[i]);
                records[i].text = t.lines[i];
                records[i].kind = t.source;
                records[i].timeNs = static_cast<std::int64_t>(i) * kNsPerSec;
                records[i].quality = TimeQuality::Exact;
                records[i].where.line = i + 1;
            }
            ExtractionScratch scratch;
            std::vector<RawEvent> raws;
            extraction.run(records, 0, records.size(), scratch, raws);
            std::vector<Event> events;
            for (auto& raw : raws) {
                if (!raw.nodeHint.empty())
                    raw.event.node = nodes.intern(raw.nodeHint);
                events.push_back(std::move(raw.event));
            }
            std::stable_sort(events.begin(), events.end(),
                [](const Event& a, const Event& b) { return a.provenance.front().line < b.provenance.front().line; });
            const Event* mine = nullptr;
            std::vector<AggregateResult> made = runAggregates(catalog, events, nodes);
            for (const auto& m : made)
                if (m.rule == ri) {
                    mine = &m.event;
                    break;
                }
            if (t.expectNone) {
                r.passed = mine == nullptr;
                if (!r.passed)
                    r.message = "expected no event, got '" + mine->label + "'";
            } else if (!mine) {
                r.message = "expected event " + t.expectType + ", the aggregate made none from "
                    + std::to_string(events.size()) + " event(s) of the lines";
            } else {
                r.passed = mine->type == t.expectType;
                if (!r.passed)
                    r.message = "event type is " + mine->type + ", expected " + t.expectType + "; ";
                for (const auto& [k, want] : t.expectFields) {
                    const std::string nodeName = mine->node == kNoNode ? std::string() : nodes.name(mine->node);
                    const std::string* got = k == "gpu" ? &mine->gpu : k == "node" ? &nodeName : mine->field(k);
                    if (!got || *got != want) {
                        r.passed = false;
                        r.message += "field " + k + " is '" + (got ? *got : std::string("<absent>")) + "', expected '"
                            + want + "'; ";
                    }
                }
            }
            results.push_back(std::move(r));
        }
    }
    return results;
}

} // namespace faultline::core
