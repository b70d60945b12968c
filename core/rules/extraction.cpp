// SPDX-License-Identifier: Apache-2.0
#include "core/rules/extraction.h"

#include "core/rules/prefilter_set.h"
#include "core/rules/template.h"
#include "core/time/civil_time.h"

#include <re2/re2.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <thread>

namespace faultline::core {
namespace {

constexpr std::size_t kExcerptMax = 400;
constexpr int kMaxGroups = 16;

struct Captures
{
    std::vector<std::pair<std::string, std::string>> values;

    const std::string* get(std::string_view k) const
    {
        for (const auto& [key, v] : values)
            if (key == k)
                return &v;
        return nullptr;
    }
    void set(std::string k, std::string v)
    {
        for (auto& [key, old] : values)
            if (key == k) {
                old = std::move(v);
                return;
            }
        values.emplace_back(std::move(k), std::move(v));
    }
};

bool capture(const re2::RE2& re, std::string_view text, Captures& into)
{
    const int n = std::min(re.NumberOfCapturingGroups(), kMaxGroups);
    re2::StringPiece groups[kMaxGroups + 1];
    if (!re.Match(re2::StringPiece(text.data(), text.size()), 0, text.size(), RE2::UNANCHORED, groups, n + 1))
        return false;
    for (const auto& [name, index] : re.NamedCapturingGroups())
        if (index <= n && groups[index].data() != nullptr)
            into.set(name, std::string(groups[index].data(), groups[index].size()));
    return true;
}

/// The record's text for reports: whole when short; for a long multi-line record (a traceback) its first line and
/// its last lines, where the exception is.
std::string excerptOf(std::string_view text)
{
    if (text.size() <= kExcerptMax)
        return std::string(text);
    const auto firstNl = text.find('\n');
    if (firstNl == std::string_view::npos || firstNl > kExcerptMax / 2)
        return std::string(text.substr(0, kExcerptMax));
    std::string_view tail = text.substr(text.size() - kExcerptMax / 2);
    if (const auto nl = tail.find('\n'); nl != std::string_view::npos)
        tail.remove_prefix(nl + 1);
    return std::string(text.substr(0, firstNl)) + "\n...\n" + std::string(tail);
}

/// What every event takes from the rule that made it (extractor or metric rule).
template <class Rule> void initFromRule(Event& e, const Rule& rule)
{
    e.type = rule.eventType;
    e.ruleId = rule.id;
    e.role = rule.role;
    e.domain = rule.domain;
    e.subdomain = rule.subdomain;
    e.severity = rule.severity;
    e.action = rule.action;
    e.priority = rule.priority;
}

bool setsField(const std::string& column)
{
    return column == "role" || column == "domain" || column == "subdomain" || column == "severity" || column == "action"
        || column == "priority";
}

} // namespace

void Extraction::emit(
    std::span<const Observation> records, std::size_t i, const ExtractorRule& rule, std::vector<RawEvent>& out) const
{
    const Observation& obs = records[i];
    Captures caps;
    if (!capture(*rule.pattern, obs.text, caps))
        return;
    if (rule.precededBy) {
        // Multi-line messages: the context line is in this record (journald keeps them together) or in one of the
        // previous `lookback` records of the same source (dmesg, syslog split them).
        bool found = capture(*rule.precededBy, obs.text, caps);
        for (int back = 1; !found && back <= rule.lookback && static_cast<std::size_t>(back) <= i; ++back) {
            const Observation& prev = records[i - static_cast<std::size_t>(back)];
            if (prev.where.source != obs.where.source)
                break;
            found = capture(*rule.precededBy, prev.text, caps);
        }
        if (!found)
            return;
    }

    RawEvent raw;
    Event& e = raw.event;
    initFromRule(e, rule);
    e.node = obs.node;
    e.rank = obs.rank;
    e.timeNs = obs.timeNs;
    e.precisionNs = obs.precisionNs;
    e.quality = obs.quality;
    e.provenance.push_back(obs.where);
    e.observation = static_cast<std::uint32_t>(i);
    e.excerpt = excerptOf(obs.text);

    const FieldLookup lookup = [&](std::string_view k) { return caps.get(k); };
    for (const auto& l : rule.lookups) {
        const LookupTable* table = m_catalog.table(l.table);
        const std::string key = expandTemplate(l.keyTemplate, lookup);
        auto row = table ? table->rows.find(key) : decltype(table->rows)::const_iterator {};
        if (!table || row == table->rows.end()) {
            caps.set(l.table + "_entry", "unknown");
            continue;
        }
        for (const auto& [column, value] : row->second) {
            if (column == "role")
                roleFromName(value, e.role);
            else if (column == "domain")
                e.domain = value;
            else if (column == "subdomain")
                e.subdomain = value;
            else if (column == "severity")
                e.severity = value;
            else if (column == "action")
                e.action = value;
            else if (column == "priority")
                std::from_chars(value.data(), value.data() + value.size(), e.priority);
            if (!setsField(column))
                caps.set(column, value);
        }
    }
    for (const auto& [name, tpl] : rule.derived)
        caps.set(name, expandTemplate(tpl, lookup));
    e.label = expandTemplate(rule.labelTemplate, lookup);
    e.action = expandTemplate(e.action, lookup); // an action may name the device ("mlxlink -d {hca}")
    if (!rule.nodeTemplate.empty())
        raw.nodeHint = expandTemplate(rule.nodeTemplate, lookup);
    // A job's own record (its accounting row) is about the job, not about the host whose file holds it.
    if (rule.jobLevel && raw.nodeHint.empty())
        e.node = kNoNode;
    if (!rule.rankTemplate.empty()) {
        const std::string r = expandTemplate(rule.rankTemplate, lookup);
        int v = -1;
        if (!r.empty() && std::from_chars(r.data(), r.data() + r.size(), v).ec == std::errc())
            e.rank = v;
    }
    if (!rule.gpuTemplate.empty())
        e.gpu = normalisePci(expandTemplate(rule.gpuTemplate, lookup));
    for (auto& [k, v] : caps.values)
        if (!v.empty())
            e.fields.emplace_back(std::move(k), std::move(v));
    std::sort(e.fields.begin(), e.fields.end());
    out.push_back(std::move(raw));
}

void Extraction::runOne(
    std::span<const Observation> records, std::size_t i, ExtractionScratch& scratch, std::vector<RawEvent>& out) const
{
    const auto& rules = m_catalog.extractors();
    const Observation& obs = records[i];
    const PrefilterSet* set = m_catalog.prefilterFor(obs.kind);
    if (!set || obs.text.empty())
        return;
    scratch.hits.clear();
    RE2::Set::ErrorInfo info {};
    const bool any = set->set.Match(re2::StringPiece(obs.text.data(), obs.text.size()), &scratch.hits, &info);
    const auto& idx = m_catalog.extractorsFor(obs.kind);
    if (!any) {
        if (info.kind != RE2::Set::kOutOfMemory)
            return;
        // The set's DFA ran out of memory on this record: fall back to trying every rule.
        scratch.hits.resize(idx.size());
        for (std::size_t k = 0; k < idx.size(); ++k)
            scratch.hits[k] = static_cast<int>(k);
    }
    std::sort(scratch.hits.begin(), scratch.hits.end());
    const std::size_t first = out.size();
    for (int h : scratch.hits)
        emit(records, i, rules[idx[static_cast<std::size_t>(h)]], out);
    if (out.size() - first > 1) {
        // A more specific rule replaces the generic one on the same record (nvlink5 over generic Xid).
        std::vector<std::string> superseded;
        for (std::size_t k = first; k < out.size(); ++k)
            for (const auto& r : rules)
                if (r.id == out[k].event.ruleId)
                    superseded.insert(superseded.end(), r.supersedes.begin(), r.supersedes.end());
        if (!superseded.empty())
            out.erase(std::remove_if(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
                          [&](const RawEvent& r) {
                              return std::find(superseded.begin(), superseded.end(), r.event.ruleId)
                                  != superseded.end();
                          }),
                out.end());
    }
}

void Extraction::run(std::span<const Observation> records, std::size_t begin, std::size_t end,
    ExtractionScratch& scratch, std::vector<RawEvent>& out) const
{
    constexpr std::size_t kBatch = 64;
    for (std::size_t i = begin; i < end;) {
        // Gather a run of single-line records of one kind; multi-line records are matched on their own.
        const SourceKind kind = records[i].kind;
        const PrefilterSet* set = m_catalog.prefilterFor(kind);
        std::size_t j = i;
        if (m_batching && set) {
            scratch.batch.clear();
            while (j < end && j - i < kBatch && records[j].kind == kind
                && records[j].text.find('\n') == std::string_view::npos) {
                scratch.batch.append(records[j].text);
                scratch.batch.push_back('\n');
                ++j;
            }
        }
        if (j - i >= 2) {
            scratch.hits.clear();
            RE2::Set::ErrorInfo info {};
            if (!set->batch.Match(scratch.batch, &scratch.hits, &info) && info.kind != RE2::Set::kOutOfMemory) {
                i = j; // nothing in the whole run can match
                continue;
            }
            for (; i < j; ++i)
                runOne(records, i, scratch, out);
            continue;
        }
        runOne(records, i, scratch, out);
        ++i;
    }
}

std::vector<RawEvent> Extraction::runAll(std::span<const Observation> records, unsigned threads) const
{
    threads = std::max(1u, threads);
    std::vector<RawEvent> result;
    if (threads == 1 || records.size() < 4096) {
        ExtractionScratch scratch;
        run(records, 0, records.size(), scratch, result);
        return result;
    }
    // Equal shares; `preceded_by` still sees records before a share's start, since every share reads the whole
    // span. Results are concatenated in record order, so the thread count does not change them.
    std::vector<std::size_t> cuts;
    for (unsigned t = 0; t <= threads; ++t)
        cuts.push_back(records.size() * t / threads);
    std::vector<std::vector<RawEvent>> parts(threads);
    std::vector<std::thread> workers;
    for (unsigned t = 0; t < threads; ++t)
        workers.emplace_back([&, t] {
            ExtractionScratch scratch;
            run(records, cuts[t], cuts[t + 1], scratch, parts[t]);
        });
    for (auto& w : workers)
        w.join();
    for (auto& p : parts)
        std::move(p.begin(), p.end(), std::back_inserter(result));
    return result;
}

std::vector<RawEvent> Extraction::runMetrics(std::span<const MetricSeries> series) const
{
    std::vector<RawEvent> out;
    for (std::size_t si = 0; si < series.size(); ++si) {
        const MetricSeries& s = series[si];
        for (const MetricRule& rule : m_catalog.metricRules()) {
            if (!RE2::FullMatch(s.name, *rule.metric) || s.samples.empty())
                continue;
            std::int64_t hitTime = INT64_MIN;
            double hitValue = 0;
            double baseValue = 0;
            const auto& v = s.samples;
            for (std::size_t i = 0; i < v.size() && hitTime == INT64_MIN; ++i) {
                if (!std::isfinite(v[i].second))
                    continue;
                switch (rule.kind) {
                case MetricRule::Kind::Above:
                    if (v[i].second > rule.threshold) {
                        hitTime = v[i].first;
                        hitValue = v[i].second;
                    }
                    break;
                case MetricRule::Kind::ChangeTo:
                    if (i > 0 && std::isfinite(v[i - 1].second) && v[i - 1].second != v[i].second && v[i].second != 0) {
                        hitTime = v[i].first;
                        hitValue = v[i].second;
                        baseValue = v[i - 1].second;
                    }
                    break;
                case MetricRule::Kind::Increase:
                    // Earliest sample at which the counter has risen by ≥ threshold within the window.
                    for (std::size_t j = i + 1; j < v.size() && v[j].first - v[i].first <= rule.withinNs; ++j)
                        if (std::isfinite(v[j].second) && v[j].second - v[i].second >= rule.threshold) {
                            hitTime = v[i].first;
                            for (std::size_t k = i + 1; k <= j; ++k)
                                if (v[k].second > v[i].second) {
                                    hitTime = v[k].first;
                                    break;
                                }
                            hitValue = v[j].second;
                            baseValue = v[i].second;
                            break;
                        }
                    break;
                case MetricRule::Kind::DropBelow:
                    if (i > 0 && v[i].second < rule.threshold && v[i - 1].second >= rule.from) {
                        hitTime = v[i].first;
                        hitValue = v[i].second;
                        baseValue = v[i - 1].second;
                    }
                    break;
                }
            }
            if (hitTime == INT64_MIN)
                continue;
            RawEvent raw;
            Event& e = raw.event;
            initFromRule(e, rule);
            e.node = s.node;
            e.timeNs = hitTime;
            e.precisionNs = 15 * kNsPerSec; // a scrape interval: the change happened since the previous sample
            e.timeNs -= e.precisionNs;
            e.quality = TimeQuality::Exact;
            e.provenance.push_back(s.where);
            e.observation = static_cast<std::uint32_t>(si);
            auto num = [](double d) {
                char buf[32];
                std::snprintf(buf, sizeof buf, "%.15g", d);
                return std::string(buf);
            };
            e.fields.emplace_back("metric", s.name);
            e.fields.emplace_back("value", num(hitValue));
            e.fields.emplace_back("from", num(baseValue));
            if (s.gpu >= 0)
                e.fields.emplace_back("gpu_index", std::to_string(s.gpu));
            if (!s.device.empty())
                e.fields.emplace_back("device", s.device);
            for (const auto& [k, val] : s.labels)
                if (k == "pci_bus_id")
                    e.gpu = normalisePci(val);
            std::sort(e.fields.begin(), e.fields.end());
            e.label = expandTemplate(rule.labelTemplate, [&](std::string_view k) { return e.field(k); });
            e.excerpt = s.name + " " + num(baseValue) + " -> " + num(hitValue);
            out.push_back(std::move(raw));
        }
    }
    return out;
}

} // namespace faultline::core
