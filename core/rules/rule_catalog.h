// SPDX-License-Identifier: Apache-2.0
// The rule catalog: YAML packs of extractors, filters, correlators, metric rules and hypotheses, plus lookup tables
// (XID catalog, NVLink5 sub-units, SXids, NCCL results), compiled once with RE2.
//
// Loading follows Falco's phases: read YAML keeping locations → decode with located diagnostics → compile
// regexes and the per-source-kind RE2::Set prefilters. A loaded catalog is immutable and safe to share between
// threads (RE2 objects are thread-safe for const use).
//
// A catalog is built in layers: the bundled catalog first, then rule pack directories in order (tables/*.yaml and
// packs/*.yaml, no catalog.yaml). A pack layer adds rules and tables, replaces a rule of a layer below by id
// (`override: true`) and removes one (`disable`); bundled files are never edited. In-memory texts (an editor's
// buffers) stand for files of any layer and are read instead of the disk.
#pragma once

#include "core/model/event.h"
#include "core/util/diagnostic.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace re2 {
class RE2;
} // namespace re2

namespace faultline::core {

struct PrefilterSet;

/// Chooses events by type glob ("nccl.*"), role, domain, subdomain, severity and field values. Empty lists match all.
struct EventSelector
{
    std::vector<std::string> types;
    std::vector<Role> roles;
    std::vector<std::string> domains;
    std::vector<std::string> subdomains;
    std::vector<std::string> severities;
    /// Field values; an empty value also matches an event without that field (an optional capture that did not
    /// take part).
    std::vector<std::pair<std::string, std::vector<std::string>>> fields;

    bool matches(const Event& e) const;
};

bool globMatch(std::string_view pattern, std::string_view text);

struct RuleOrigin
{
    /// The bundled layer's files relative to its root ("packs/gpu.yaml"); a pack layer's as its directory joined with
    /// the relative path ("/home/u/.config/faultline/rules/packs/site.yaml").
    std::string file;
    std::uint64_t line = 0;
    std::uint32_t column = 0;
    std::size_t layer = 0; ///< 0: the bundled catalog; 1..: the pack layers in load order
};

/// A rule's own test: one input line and what it must (or must not) produce.
struct RuleTest
{
    RuleOrigin origin;
    std::string line;
    SourceKind source = SourceKind::Other;
    bool expectNone = false;
    std::string expectType;
    std::string expectRole;
    std::vector<std::pair<std::string, std::string>> expectFields;
};

struct Lookup
{
    std::string table;
    std::string keyTemplate;
};

struct ExtractorRule
{
    std::string id;
    int version = 0; ///< the rule's own version (key `version`, bumped by the workbench on each save); 0: none
    std::string description;
    RuleOrigin origin;
    std::vector<SourceKind> sources; ///< empty: every kind
    std::string patternText;
    std::shared_ptr<const re2::RE2> pattern;
    std::shared_ptr<const re2::RE2> precededBy; ///< optional multi-line context, searched in earlier records
    int lookback = 0;
    std::string eventType;
    Role role = Role::Context;
    std::string domain = "unknown";
    std::string subdomain;
    std::string severity = "info";
    std::string action;
    int priority = 0;
    std::string labelTemplate;
    std::string nodeTemplate;
    std::string rankTemplate;
    std::string gpuTemplate;
    /// The record describes the job as a whole (sacct, scontrol show job): its event has no node unless the node
    /// template names one; the host whose file holds the record (the controller) is not where it happened.
    bool jobLevel = false;
    std::vector<Lookup> lookups;
    std::vector<std::pair<std::string, std::string>> derived; ///< field name → template
    std::vector<std::string> supersedes; ///< rule ids this one replaces on the same record
    std::vector<RuleTest> tests;
};

struct FilterRule
{
    enum class Action { Drop, Suppress, SetRole };
    std::string id;
    int version = 0; ///< the rule's own version (key `version`, bumped by the workbench on each save); 0: none
    std::string description;
    RuleOrigin origin;
    EventSelector when;
    std::shared_ptr<const re2::RE2> text; ///< optional: also require the record text to match
    Action action = Action::Suppress;
    Role role = Role::Context;
    std::string reason;
};

struct Correlator
{
    /// Unnamed: the cause names a node and the symptom names none (a job-level report of what happened there).
    enum class Nodes { Any, Same, SameGpu, Other, Unnamed };
    std::string id;
    int version = 0; ///< the rule's own version (key `version`, bumped by the workbench on each save); 0: none
    std::string description;
    RuleOrigin origin;
    EventSelector cause;
    EventSelector symptom;
    std::int64_t beforeNs = 0; ///< symptom may precede the cause by this much (precision slack, precursors)
    std::int64_t afterNs = 0; ///< symptom may follow the cause by this much
    Nodes nodes = Nodes::Any;
    std::string relation; ///< symptom | companion | precursor | confirmation
};

/// An aggregate rule's own test: records in file order (each through every extractor) and what the aggregate must
/// (or must not) make of the events they give.
struct AggregateTest
{
    RuleOrigin origin;
    std::vector<std::string> lines;
    std::vector<std::string> nodes; ///< per line: the node its file belongs to ("" for none)
    SourceKind source = SourceKind::Other;
    bool expectNone = false;
    std::string expectType;
    std::vector<std::pair<std::string, std::string>> expectFields;
};

/// A fact no single record states, read from many events: those `over` selects, grouped by `groupBy` (the event's
/// node, gpu or rank, or a field), take at least `atLeast` different values of field `distinct` within a group
/// (one GPU faulting under many processes; nodes of one job on different NCCL versions). Each such group makes one
/// event, placed at the record that made the count (the first of its at_least-th value), and the grouped events
/// become its `members`.
struct AggregateRule
{
    std::string id;
    int version = 0; ///< the rule's own version (key `version`, bumped by the workbench on each save); 0: none
    std::string description;
    RuleOrigin origin;
    EventSelector over;
    std::vector<std::string> groupBy; ///< "node", "gpu", "rank" or a field name; empty: the whole evidence
    std::string distinct; ///< the field whose values are counted
    std::size_t atLeast = 2;
    std::string eventType;
    Role role = Role::Context;
    std::string domain = "unknown";
    std::string subdomain;
    std::string severity = "warning";
    std::string action;
    std::string labelTemplate;
    int priority = 0;
    std::string members = "companion"; ///< the grouped events' relation to the new event
    /// Where the new event sits (key `locate`). Record: on the record whose value made the count. Minority: on the
    /// value that the fewest nodes report, the odd one out; when two values tie for fewest, on no node at all (two
    /// nodes that disagree do not say which of them is wrong).
    enum class Locate { Record, Minority };
    Locate locate = Locate::Record;
    std::vector<AggregateTest> tests;
};

/// A metric rule's own test: a series written "value@offset ..." (e.g. "0@0s 12@15s 640@30s").
struct MetricTest
{
    RuleOrigin origin;
    std::vector<std::pair<std::int64_t, double>> samples;
    bool expectNone = false;
    std::string expectType;
    std::vector<std::pair<std::string, std::string>> expectFields;
};

struct MetricRule
{
    enum class Kind { Increase, Above, DropBelow, ChangeTo };
    std::string id;
    int version = 0; ///< the rule's own version (key `version`, bumped by the workbench on each save); 0: none
    std::string description;
    RuleOrigin origin;
    std::shared_ptr<const re2::RE2> metric; ///< full match on the metric name
    std::string metricText;
    Kind kind = Kind::Increase;
    double threshold = 0;
    double from = 0; ///< DropBelow: the series must have been at or above this first
    std::int64_t withinNs = 0;
    std::string eventType;
    Role role = Role::Context;
    std::string domain = "unknown";
    std::string subdomain;
    std::string severity = "warning";
    std::string action;
    std::string labelTemplate;
    int priority = 0;
    std::vector<MetricTest> tests;
};

struct LookupTable
{
    std::string name;
    std::string key;
    RuleOrigin origin;
    std::map<std::string, std::map<std::string, std::string>> rows;
};

/// One kind of symptom that supports a hypothesis, and how strongly one such symptom implies it (0..1).
struct HypothesisSupport
{
    EventSelector when;
    double weight = 0;
    std::string why; ///< why this symptom points at the hypothesis
    /// This symptom locates the fault on the node that reports it (an HCA's own port event), although the
    /// hypothesis as a whole does not (`fault_at: reporter` on the support item).
    bool faultAtReporter = false;
};

/// Evidence that would confirm a hypothesis, were it collected: a source kind, whose (the node that reported the
/// symptom, its peer, or the job), and what to look for in it.
struct HypothesisConfirm
{
    enum class Of { Reporter, Peer, Job };
    SourceKind kind = SourceKind::Kernel;
    Of of = Of::Job;
    std::string name; ///< "kernel log", "IB port counters"
    std::string peerTemplate; ///< Of::Peer: names the peer from the symptom's fields, e.g. "{peer}"
    std::string what; ///< what in that source would confirm it
    /// How much that source counts against the hypothesis when it is present and shows nothing (0..1).
    double silenceWeight = 0;
};

/// A domain/subdomain that the symptoms can point at when the evidence holds no initiating event.
struct HypothesisRule
{
    std::string id;
    int version = 0; ///< the rule's own version (key `version`, bumped by the workbench on each save); 0: none
    std::string description;
    RuleOrigin origin;
    std::string domain;
    std::string subdomain;
    std::string label;
    std::string action;
    std::vector<HypothesisSupport> support; ///< most specific first: a symptom counts for its first match only
    std::vector<HypothesisConfirm> confirm;
    /// The fault this hypothesis names sits on the node that reports it (its own GPU, memory or links), so a
    /// leading hypothesis names those nodes as where it happened (never as blamed). Not so for a network fault,
    /// whose reporter may only be the peer of the failed end.
    bool faultAtReporter = false;
};

/// When a leading hypothesis is named (rules/catalog.yaml settings.hypothesis).
struct HypothesisSettings
{
    double minSupport = 0.5; ///< the leader's support must reach this
    double minLead = 0.2; ///< and exceed the runner-up's by this much
    double maxConfidence = 0.45; ///< a hypothesis's confidence never exceeds this (always "low")
};

struct CatalogSettings
{
    std::int64_t scopeMarginNs = 0;
    std::int64_t collectiveTimeoutNs = 0;
    std::vector<std::string> expectedSources; ///< kinds expected for every analysis
    std::vector<std::string> perNodeSources; ///< kinds expected once per allocated node
    std::map<std::string, std::string> outcomeByDomain;
    std::map<std::string, std::string> defaultActionByOutcome;
    HypothesisSettings hypothesis;
};

/// A file's text held in memory (an editor's unsaved buffer), read instead of the file on disk, or as a file that is
/// not on disk yet.
struct CatalogText
{
    /// The file it stands for: DIR/catalog.yaml (the bundled layer only), DIR/tables/NAME.yaml or DIR/packs/NAME.yaml,
    /// where DIR is one of the layers' directories (compared after making both absolute and normal).
    std::string path;
    std::string text;
};

/// Where a catalog is loaded from, in order.
struct CatalogSources
{
    std::string root; ///< the bundled catalog: catalog.yaml, tables/, packs/
    /// Rule pack directories layered on it, lowest first: each holds tables/*.yaml and packs/*.yaml. One that does not
    /// exist is an error, unless `texts` give its files.
    std::vector<std::string> packDirs;
    std::vector<CatalogText> texts;
};

/// Reads back a catalog that a case stored (CaseFile::extractCatalog into `dir`): the bundled layer at the top, pack
/// layer N under layers/N/.
CatalogSources storedCatalogSources(const std::string& dir);

/// One layer of a loaded catalog and what it did.
struct CatalogLayer
{
    std::string dir; ///< as the sources gave it
    std::size_t files = 0; ///< files read (tables and packs; catalog.yaml for the bundled layer)
    std::vector<std::string> unsaved; ///< files taken from in-memory text, relative to `dir`
    std::size_t added = 0; ///< rules and tables it defines
    std::size_t overridden = 0; ///< rules and tables of lower layers it replaces
    std::size_t disabled = 0; ///< rules of lower layers it removes
};

/// One file of a loaded catalog, with the text that was read.
struct CatalogFile
{
    std::size_t layer = 0;
    std::string path; ///< relative to its layer's directory ("packs/site.yaml")
    /// Where a case stores it and the content hash names it: `path` for the bundled layer, "layers/N/" + `path` for
    /// the N-th pack layer that holds files.
    std::string storedPath;
    std::string text;
    bool unsaved = false; ///< from in-memory text
};

struct CatalogLoadResult;

class RuleCatalog
{
public:
    /// Loads `root/catalog.yaml`, every `root/tables/*.yaml` and every `root/packs/*.yaml` (sorted by name).
    static CatalogLoadResult load(const std::string& root);
    /// Loads the bundled layer as load(root) does, then each pack directory's tables/*.yaml and packs/*.yaml (sorted
    /// by name), with in-memory texts read instead of the files they stand for. Diagnostics name the file, line and
    /// column of every layer's problems; one bad layer does not hide another's errors.
    static CatalogLoadResult load(const CatalogSources& sources);

    const std::string& name() const { return m_name; }
    const std::string& version() const { return m_version; }
    /// SHA-256 over every loaded file's stored path (CatalogFile::storedPath), a NUL and its bytes, in load order: the
    /// bundled files, then each pack layer's, in-memory texts as read. A one-layer catalog hashes as it always has.
    const std::string& contentHash() const { return m_hash; }
    /// The bundled layer's directory.
    const std::string& root() const { return m_root; }
    /// Every layer, the bundled one first (pack layers that gave no file included).
    const std::vector<CatalogLayer>& layers() const { return m_layers; }
    /// Every file read, in load order (what a case stores to reproduce a run with its own rules).
    const std::vector<CatalogFile>& files() const { return m_files; }
    /// Where the catalog came from, for a run's record: the root's absolute path, then " + " and the absolute path of
    /// each pack layer that gave files; a layer with in-memory text says which files ("(unsaved: packs/x.yaml)").
    std::string loadedFrom() const;
    /// The pack layers that gave files (the bundled one excluded).
    std::size_t packLayerCount() const;
    const CatalogSettings& settings() const { return m_settings; }
    const std::vector<ExtractorRule>& extractors() const { return m_extractors; }
    const std::vector<FilterRule>& filters() const { return m_filters; }
    const std::vector<Correlator>& correlators() const { return m_correlators; }
    const std::vector<MetricRule>& metricRules() const { return m_metricRules; }
    const std::vector<HypothesisRule>& hypotheses() const { return m_hypotheses; }
    const std::vector<AggregateRule>& aggregates() const { return m_aggregates; }
    const LookupTable* table(std::string_view name) const;
    std::size_t ruleCount() const;

    /// Indices of the extractors that apply to `kind`, and the prefilter set over their patterns (same order).
    const std::vector<std::size_t>& extractorsFor(SourceKind kind) const;
    const PrefilterSet* prefilterFor(SourceKind kind) const;

    ~RuleCatalog();
    RuleCatalog(const RuleCatalog&) = delete;
    RuleCatalog& operator=(const RuleCatalog&) = delete;

private:
    RuleCatalog() = default;
    friend class CatalogReader;

    std::string m_root;
    std::vector<CatalogLayer> m_layers;
    std::vector<CatalogFile> m_files;
    std::string m_name;
    std::string m_version;
    std::string m_hash;
    CatalogSettings m_settings;
    std::vector<ExtractorRule> m_extractors;
    std::vector<FilterRule> m_filters;
    std::vector<Correlator> m_correlators;
    std::vector<MetricRule> m_metricRules;
    std::vector<HypothesisRule> m_hypotheses;
    std::vector<AggregateRule> m_aggregates;
    std::vector<LookupTable> m_tables;
    std::map<SourceKind, std::vector<std::size_t>> m_byKind;
    std::map<SourceKind, std::unique_ptr<PrefilterSet>> m_sets;
};

struct CatalogLoadResult
{
    std::shared_ptr<const RuleCatalog> catalog; ///< null when there were errors
    std::vector<Diagnostic> diagnostics;
    bool ok() const { return catalog != nullptr; }
    std::string asText() const;
};

} // namespace faultline::core
