// SPDX-License-Identifier: Apache-2.0
// Catalog loading in phases: every problem becomes a located Diagnostic; one bad rule
// does not hide the errors of the others.
#include "core/rules/rule_catalog.h"

#include "core/rules/prefilter_set.h"
#include "core/time/civil_time.h"
#include "core/util/sha256.h"

#include <re2/re2.h>
#include <re2/set.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace faultline::core {

bool globMatch(std::string_view pattern, std::string_view text)
{
    // '*' matches any run of characters; everything else is literal.
    std::size_t p = 0;
    std::size_t t = 0;
    std::size_t star = std::string_view::npos;
    std::size_t mark = 0;
    while (t < text.size()) {
        if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            mark = t;
        } else if (p < pattern.size() && pattern[p] == text[t]) {
            ++p;
            ++t;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            t = ++mark;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*')
        ++p;
    return p == pattern.size();
}

bool EventSelector::matches(const Event& e) const
{
    if (!types.empty()
        && std::none_of(types.begin(), types.end(), [&](const std::string& g) { return globMatch(g, e.type); }))
        return false;
    if (!roles.empty() && std::find(roles.begin(), roles.end(), e.role) == roles.end())
        return false;
    if (!domains.empty() && std::find(domains.begin(), domains.end(), e.domain) == domains.end())
        return false;
    if (!subdomains.empty() && std::find(subdomains.begin(), subdomains.end(), e.subdomain) == subdomains.end())
        return false;
    if (!severities.empty() && std::find(severities.begin(), severities.end(), e.severity) == severities.end())
        return false;
    for (const auto& [key, values] : fields) {
        const std::string* v = e.field(key);
        if (std::find(values.begin(), values.end(), v ? *v : std::string()) == values.end())
            return false;
    }
    return true;
}

RuleCatalog::~RuleCatalog() = default;

const LookupTable* RuleCatalog::table(std::string_view name) const
{
    for (const auto& t : m_tables)
        if (t.name == name)
            return &t;
    return nullptr;
}

std::size_t RuleCatalog::ruleCount() const
{
    return m_extractors.size() + m_filters.size() + m_correlators.size() + m_metricRules.size() + m_aggregates.size();
}

std::string RuleCatalog::loadedFrom() const
{
    std::string out;
    for (std::size_t i = 0; i < m_layers.size(); ++i) {
        const CatalogLayer& l = m_layers[i];
        if (i > 0 && l.files == 0)
            continue;
        std::error_code ec;
        const fs::path abs = fs::absolute(l.dir, ec);
        if (!out.empty())
            out += " + ";
        out += ec ? l.dir : abs.lexically_normal().string();
        if (!l.unsaved.empty()) {
            out += " (unsaved:";
            for (const auto& f : l.unsaved)
                out += " " + f;
            out += ")";
        }
    }
    return out;
}

std::size_t RuleCatalog::packLayerCount() const
{
    return static_cast<std::size_t>(std::count_if(m_layers.begin() + (m_layers.empty() ? 0 : 1), m_layers.end(),
        [](const CatalogLayer& l) { return l.files > 0; }));
}

const std::vector<std::size_t>& RuleCatalog::extractorsFor(SourceKind kind) const
{
    static const std::vector<std::size_t> kNone;
    auto it = m_byKind.find(kind);
    return it == m_byKind.end() ? kNone : it->second;
}

const PrefilterSet* RuleCatalog::prefilterFor(SourceKind kind) const
{
    auto it = m_sets.find(kind);
    return it == m_sets.end() ? nullptr : it->second.get();
}

std::string CatalogLoadResult::asText() const
{
    std::string out;
    for (const auto& d : diagnostics) {
        out += d.format();
        out += '\n';
    }
    return out;
}

namespace {

/// Thrown inside a phase, caught at the rule boundary and turned into a Diagnostic.
struct LoadError
{
    std::string code;
    std::string message;
    YAML::Mark mark;
    std::vector<Diagnostic> notes = {}; ///< further places the error involves (the other definition of an id)
};

[[noreturn]] void fail(const YAML::Node& at, std::string code, std::string message)
{
    throw LoadError { std::move(code), std::move(message), at.IsDefined() ? at.Mark() : YAML::Mark::null_mark() };
}

std::string scalar(const YAML::Node& n, const char* what)
{
    if (!n.IsScalar())
        fail(n, "not-a-scalar", std::string("key '") + what + "' must be a scalar");
    return n.Scalar();
}

std::string optScalar(const YAML::Node& map, const char* key, std::string def = {})
{
    const YAML::Node n = map[key];
    if (!n.IsDefined() || n.IsNull())
        return def;
    return scalar(n, key);
}

std::string reqScalar(const YAML::Node& map, const char* key)
{
    const YAML::Node n = map[key];
    if (!n.IsDefined() || n.IsNull())
        fail(map, "missing-key", std::string("required key '") + key + "' is missing");
    return scalar(n, key);
}

std::vector<std::string> scalarList(const YAML::Node& map, const char* key)
{
    std::vector<std::string> out;
    const YAML::Node n = map[key];
    if (!n.IsDefined() || n.IsNull())
        return out;
    if (n.IsScalar()) {
        out.push_back(n.Scalar());
        return out;
    }
    if (!n.IsSequence())
        fail(n, "not-a-list", std::string("key '") + key + "' must be a scalar or a list of scalars");
    for (const auto& item : n)
        out.push_back(scalar(item, key));
    return out;
}

/// A number-valued key: the whole scalar must parse (std::stoi / std::stod), else a located bad-number error.
template <class T, class Parse>
T numberValue(const YAML::Node& map, const char* key, T def, Parse parse, const char* kind)
{
    const std::string s = optScalar(map, key);
    if (s.empty())
        return def;
    try {
        std::size_t used = 0;
        const T v = parse(s, &used);
        if (used != s.size())
            throw std::invalid_argument(s);
        return v;
    } catch (const std::exception&) {
        fail(map[key], "bad-number", std::string("key '") + key + "' must be " + kind + ", got '" + s + "'");
    }
}

int intValue(const YAML::Node& map, const char* key, int def)
{
    return numberValue<int>(
        map, key, def, [](const std::string& s, std::size_t* used) { return std::stoi(s, used); }, "an integer");
}

/// A rule's own version (key `version`): a positive integer, 0 when not given. The workbench bumps it on each save.
int versionValue(const YAML::Node& map)
{
    const int v = intValue(map, "version", 0);
    if (v < 0 || (v == 0 && !optScalar(map, "version").empty()))
        fail(map["version"], "bad-version", "a rule's 'version' is a positive integer");
    return v;
}

bool boolValue(const YAML::Node& map, const char* key, bool def)
{
    const std::string s = optScalar(map, key);
    if (s.empty())
        return def;
    if (s == "true")
        return true;
    if (s == "false")
        return false;
    fail(map[key], "bad-bool", std::string("'") + key + "' must be true or false, not '" + s + "'");
}

double doubleValue(const YAML::Node& map, const char* key, double def)
{
    return numberValue<double>(
        map, key, def, [](const std::string& s, std::size_t* used) { return std::stod(s, used); }, "a number");
}

std::int64_t durationValue(const YAML::Node& map, const char* key, std::int64_t def)
{
    const std::string s = optScalar(map, key);
    if (s.empty())
        return def;
    auto d = parseDurationNs(s);
    if (!d)
        fail(map[key], "bad-duration",
            std::string("key '") + key + "' must be a duration like 600s or 10m, got '" + s + "'");
    return *d;
}

Role roleValue(const YAML::Node& map, const char* key, Role def)
{
    const std::string s = optScalar(map, key);
    if (s.empty())
        return def;
    Role r {};
    if (!roleFromName(s, r))
        fail(map[key], "bad-role",
            "unknown role '" + s + "' (expected root, cascade, teardown, companion, precursor or context)");
    return r;
}

void checkKeys(const YAML::Node& map, std::initializer_list<const char*> allowed)
{
    for (const auto& kv : map) {
        const std::string k = kv.first.Scalar();
        if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return k == a; }))
            fail(kv.first, "unknown-key", "unknown key '" + k + "'");
    }
}

std::shared_ptr<const re2::RE2> compileRegex(
    const YAML::Node& at, const std::string& text, bool anchorFull = false, bool multiLine = false)
{
    RE2::Options opts;
    opts.set_log_errors(false);
    opts.set_max_mem(8 << 20);
    opts.set_encoding(RE2::Options::EncodingUTF8);
    const std::string compiled = (multiLine ? "(?m)" : "") + (anchorFull ? "^(?:" + text + ")$" : text);
    auto re = std::make_shared<const re2::RE2>(compiled, opts);
    if (!re->ok())
        fail(at, "bad-regex", "regex does not compile: " + re->error() + " (in '" + text + "')");
    return re;
}

EventSelector selectorValue(const YAML::Node& n, const char* what)
{
    EventSelector s;
    if (!n.IsDefined() || n.IsNull())
        return s;
    if (!n.IsMap())
        fail(n, "not-a-map", std::string("'") + what + "' must be a map of event, role, domain, subdomain, fields");
    checkKeys(n, { "event", "role", "domain", "subdomain", "severity", "fields" });
    s.types = scalarList(n, "event");
    for (const auto& r : scalarList(n, "role")) {
        Role role {};
        if (!roleFromName(r, role))
            fail(n["role"], "bad-role", "unknown role '" + r + "'");
        s.roles.push_back(role);
    }
    s.domains = scalarList(n, "domain");
    s.subdomains = scalarList(n, "subdomain");
    s.severities = scalarList(n, "severity");
    if (const YAML::Node f = n["fields"]; f.IsDefined()) {
        if (!f.IsMap())
            fail(f, "not-a-map", "'fields' must be a map of field name to value or list of values");
        for (const auto& kv : f)
            s.fields.emplace_back(kv.first.Scalar(), scalarList(f, kv.first.Scalar().c_str()));
    }
    return s;
}

/// A rule test's `expect`: "none", or {event, role (when `role` is given), fields}.
void readExpect(const YAML::Node& test, const std::string& defaultType, bool& none, std::string& type,
    std::string* role, std::vector<std::pair<std::string, std::string>>& fields)
{
    const YAML::Node ex = test["expect"];
    if (!ex.IsDefined())
        fail(test, "missing-key", "required key 'expect' is missing");
    if (ex.IsScalar()) {
        if (ex.Scalar() != "none")
            fail(ex, "bad-expect", "'expect' must be 'none' or a map");
        none = true;
        return;
    }
    if (role)
        checkKeys(ex, { "event", "role", "fields" });
    else
        checkKeys(ex, { "event", "fields" });
    type = optScalar(ex, "event", defaultType);
    if (role)
        *role = optScalar(ex, "role");
    if (const YAML::Node f = ex["fields"]; f.IsDefined())
        for (const auto& kv : f)
            fields.emplace_back(kv.first.Scalar(), scalar(kv.second, kv.first.Scalar().c_str()));
}

/// The kinds of rule a pack defines, in the order of its sections.
enum class RuleKind { Extractor, Filter, Correlator, Metric, Hypothesis, Aggregate };

const char* kindName(RuleKind k)
{
    switch (k) {
    case RuleKind::Extractor:
        return "extractor";
    case RuleKind::Filter:
        return "filter";
    case RuleKind::Correlator:
        return "correlator";
    case RuleKind::Metric:
        return "metric rule";
    case RuleKind::Hypothesis:
        return "hypothesis";
    case RuleKind::Aggregate:
        return "aggregate";
    }
    return "rule";
}

/// "file:line:col" of a rule's definition.
std::string place(const RuleOrigin& o)
{
    std::string s = o.file;
    if (o.line > 0)
        s += ':' + std::to_string(o.line) + ':' + std::to_string(o.column);
    return s;
}

/// A directory or file as an absolute, normal path without a trailing separator, for comparing places.
fs::path normalPath(const std::string& p)
{
    std::error_code ec;
    fs::path out = fs::absolute(p, ec);
    if (ec)
        out = p;
    out = out.lexically_normal();
    if (!out.has_filename() && out.has_parent_path())
        out = out.parent_path();
    return out;
}

/// The file of a layer that `text` stands for, relative to the layer directory `dir` ("catalog.yaml",
/// "tables/NAME.yaml", "packs/NAME.yaml"); empty when it is none of them.
std::string relativeIn(const fs::path& dir, const fs::path& text)
{
    if (text.parent_path() == dir && text.filename() == "catalog.yaml")
        return "catalog.yaml";
    const fs::path sub = text.parent_path();
    if (sub.parent_path() == dir && (sub.filename() == "tables" || sub.filename() == "packs")
        && text.extension() == ".yaml")
        return sub.filename().string() + "/" + text.filename().string();
    return {};
}

} // namespace

/// Reads and compiles a catalog directory. Internal to this file (declared a friend of RuleCatalog).
class CatalogReader
{
public:
    explicit CatalogReader(CatalogSources sources)
        : m_catalog(new RuleCatalog())
        , m_sources(std::move(sources))
    {
        m_catalog->m_root = m_sources.root;
    }

    CatalogLoadResult run();

private:
    /// One file a layer reads: from disk, or from an in-memory text.
    struct Document
    {
        std::string rel; ///< relative to the layer's directory
        fs::path disk;
        const CatalogText* text = nullptr;
    };

    /// Where a rule id is defined now, and what kind of rule it is.
    struct Placed
    {
        RuleKind kind;
        RuleOrigin origin;
    };

    /// A `disable` of the layer being read, checked once the whole layer is read.
    struct Disable
    {
        RuleOrigin at;
        std::optional<RuleKind> kind; ///< an entry's disable names its section's kind; a pack-level one any
    };

    void addDiag(Severity sev, const std::string& file, const LoadError& e, const std::string& ruleId)
    {
        Diagnostic d;
        d.severity = sev;
        d.code = e.code;
        d.message = e.message;
        d.where.file = file;
        d.ruleId = ruleId;
        if (e.mark.line >= 0) {
            d.where.line = static_cast<std::uint64_t>(e.mark.line) + 1;
            d.where.column = static_cast<std::uint32_t>(e.mark.column) + 1;
            d.snippet = lineOf(file, e.mark.line);
        }
        m_diags.push_back(std::move(d));
        m_diags.insert(m_diags.end(), e.notes.begin(), e.notes.end());
    }

    /// "file:line:col" of a definition, as a message names it; seen from a pack layer, a bundled file is named with
    /// the bundled catalog's directory.
    std::string placeOf(const RuleOrigin& o) const
    {
        if (o.layer == 0 && m_layer > 0)
            return (fs::path(m_sources.root) / place(o)).string();
        return place(o);
    }

    /// A diagnostic at a rule's (or a disable's) place.
    Diagnostic at(Severity sev, std::string code, std::string message, const RuleOrigin& o, std::string ruleId) const
    {
        Diagnostic d;
        d.severity = sev;
        d.code = std::move(code);
        d.message = std::move(message);
        d.where.file = o.file;
        d.where.line = o.line;
        d.where.column = o.column;
        d.ruleId = std::move(ruleId);
        if (o.line > 0)
            d.snippet = lineOf(o.file, static_cast<int>(o.line) - 1);
        return d;
    }

    /// Throws `code` at `node`, with a note at the other place involved.
    [[noreturn]] void failWithOther(const YAML::Node& node, const std::string& code, const std::string& message,
        const RuleOrigin& other, const std::string& id, const std::string& otherWhat) const
    {
        LoadError e { code, message, node.IsDefined() ? node.Mark() : YAML::Mark::null_mark() };
        e.notes.push_back(at(Severity::Info, code, otherWhat, other, id));
        throw e;
    }

    std::string lineOf(const std::string& file, int line) const
    {
        auto it = m_texts.find(file);
        if (it == m_texts.end())
            return {};
        std::istringstream in(it->second);
        std::string l;
        for (int i = 0; i <= line && std::getline(in, l); ++i) { }
        return l;
    }

    RuleOrigin origin(const std::string& file, const YAML::Node& n) const
    {
        RuleOrigin o;
        o.file = file;
        o.layer = m_layer;
        if (n.IsDefined() && n.Mark().line >= 0) {
            o.line = static_cast<std::uint64_t>(n.Mark().line) + 1;
            o.column = static_cast<std::uint32_t>(n.Mark().column) + 1;
        }
        return o;
    }

    /// The files of layer `layer` (directory `dir`) in load order, in-memory texts in place of (or beside) disk files.
    std::vector<Document> documentsOf(std::size_t layer, const fs::path& dir);
    void readLayer(std::size_t layer);
    bool readDocument(const Document& doc, const std::string& file, const std::string& stored, YAML::Node& out);
    void claim(const std::string& id, RuleKind kind, bool override, const YAML::Node& entry, const std::string& file);
    void finishLayer();
    void removeRule(const std::string& id, RuleKind kind);
    void readCatalogFile(const std::string& rel, const YAML::Node& doc);
    void readTable(const std::string& rel, const YAML::Node& doc);
    void readPack(const std::string& rel, const YAML::Node& doc);
    ExtractorRule readExtractor(const std::string& rel, const YAML::Node& n);
    FilterRule readFilter(const std::string& rel, const YAML::Node& n);
    Correlator readCorrelator(const std::string& rel, const YAML::Node& n);
    MetricRule readMetricRule(const std::string& rel, const YAML::Node& n);
    HypothesisRule readHypothesis(const std::string& rel, const YAML::Node& n);
    AggregateRule readAggregate(const std::string& rel, const YAML::Node& n);
    void checkReferences();
    void buildPrefilters();

    /// Reads every entry of a pack's section: a new rule, an override of a lower layer's (`override: true`, which
    /// replaces it in place), or a disable (`{id, disable: true}`, applied when the layer is read).
    template <class Rule, class Read>
    void eachRule(const std::string& rel, const YAML::Node& list, const char* section, RuleKind kind,
        std::vector<Rule>& into, Read&& read)
    {
        if (!list.IsDefined() || list.IsNull())
            return;
        if (!list.IsSequence()) {
            addDiag(Severity::Error, rel,
                LoadError { "not-a-list", std::string("'") + section + "' must be a list", list.Mark() }, {});
            return;
        }
        for (const auto& n : list) {
            std::string id;
            try {
                if (!n.IsMap())
                    fail(n, "not-a-map", std::string("each entry of '") + section + "' must be a map");
                id = optScalar(n, "id");
                if (id.empty())
                    fail(n, "missing-key", "required key 'id' is missing");
                const bool override = boolValue(n, "override", false);
                if (boolValue(n, "disable", false)) {
                    checkKeys(n, { "id", "disable" });
                    m_disables.try_emplace(id, Disable { origin(rel, n["id"]), kind });
                    continue;
                }
                if (n["disable"].IsDefined())
                    fail(n["disable"], "bad-disable", "an entry's 'disable' is 'true' (alone with its 'id')");
                claim(id, kind, override, n, rel);
                Rule r = read(n);
                if (override) {
                    auto it = std::find_if(into.begin(), into.end(), [&](const Rule& x) { return x.id == id; });
                    if (it != into.end())
                        *it = std::move(r);
                    ++m_catalog->m_layers[m_layer].overridden;
                } else {
                    into.push_back(std::move(r));
                    ++m_catalog->m_layers[m_layer].added;
                }
            } catch (const LoadError& e) {
                addDiag(Severity::Error, rel, e, id);
            } catch (const YAML::Exception& e) {
                addDiag(Severity::Error, rel, LoadError { "yaml-error", e.msg, e.mark }, id);
            }
        }
    }

    std::unique_ptr<RuleCatalog> m_catalog;
    CatalogSources m_sources;
    std::vector<Diagnostic> m_diags;
    std::map<std::string, std::string> m_texts; ///< file as diagnostics name it → its text (for snippets)
    std::map<std::string, Placed> m_placed; ///< the rule ids in the catalog now
    std::set<std::string> m_everDefined; ///< every id any layer defined, disabled ones included
    std::map<std::string, Disable> m_disables; ///< the current layer's
    std::vector<fs::path> m_dirs; ///< each layer's directory, normal (empty for a skipped one)
    std::vector<std::map<std::string, const CatalogText*>> m_layerTexts; ///< each layer's texts by relative path
    std::size_t m_layer = 0;
    std::size_t m_storedLayers = 0; ///< pack layers that gave files so far
    Sha256 m_hash;
    bool m_sawCatalogFile = false;
};

bool CatalogReader::readDocument(
    const Document& doc, const std::string& file, const std::string& stored, YAML::Node& out)
{
    std::string text;
    if (doc.text) {
        text = doc.text->text;
    } else {
        std::ifstream in(doc.disk, std::ios::binary);
        if (!in) {
            addDiag(Severity::Error, file, LoadError { "unreadable", "cannot read file", YAML::Mark::null_mark() }, {});
            return false;
        }
        std::ostringstream ss;
        ss << in.rdbuf();
        text = ss.str();
    }
    m_hash.update(stored);
    m_hash.update(std::string_view("\0", 1));
    m_hash.update(text);
    m_texts[file] = text;
    CatalogLayer& layer = m_catalog->m_layers[m_layer];
    ++layer.files;
    if (doc.text)
        layer.unsaved.push_back(doc.rel);
    m_catalog->m_files.push_back({ m_layer, doc.rel, stored, text, doc.text != nullptr });
    try {
        out = YAML::Load(text);
    } catch (const YAML::ParserException& e) {
        addDiag(Severity::Error, file, LoadError { "yaml-syntax", e.msg, e.mark }, {});
        return false;
    }
    if (!out.IsMap()) {
        addDiag(Severity::Error, file, LoadError { "not-a-map", "top level must be a map", out.Mark() }, {});
        return false;
    }
    return true;
}

void CatalogReader::claim(
    const std::string& id, RuleKind kind, bool override, const YAML::Node& entry, const std::string& file)
{
    const YAML::Node idNode = entry["id"];
    auto it = m_placed.find(id);
    if (it != m_placed.end() && it->second.origin.layer == m_layer)
        failWithOther(idNode, "duplicate-id",
            "rule id '" + id + "' is defined twice (also at " + placeOf(it->second.origin) + ")", it->second.origin, id,
            "the other definition of '" + id + "'");
    if (override) {
        if (it == m_placed.end())
            fail(idNode, "unknown-override",
                "'override: true' replaces a rule of a lower layer, and none defines '" + id + "'");
        if (it->second.kind != kind)
            failWithOther(idNode, "override-kind",
                "'" + id + "' is " + (it->second.kind == RuleKind::Extractor ? "an " : "a ") + kindName(it->second.kind)
                    + " (at " + placeOf(it->second.origin) + "): an override replaces it with one of the same kind",
                it->second.origin, id,
                "the " + std::string(kindName(it->second.kind)) + " '" + id + "' it would replace");
    } else if (it != m_placed.end()) {
        failWithOther(idNode, "id-conflict",
            "rule id '" + id + "' is already defined at " + placeOf(it->second.origin)
                + ": add 'override: true' to replace that rule, or disable it",
            it->second.origin, id, "the definition of '" + id + "' in a lower layer");
    }
    m_placed[id] = Placed { kind, origin(file, entry) };
    m_everDefined.insert(id);
}

void CatalogReader::removeRule(const std::string& id, RuleKind kind)
{
    auto drop = [&id](auto& list) {
        list.erase(std::remove_if(list.begin(), list.end(), [&id](const auto& r) { return r.id == id; }), list.end());
    };
    switch (kind) {
    case RuleKind::Extractor:
        drop(m_catalog->m_extractors);
        break;
    case RuleKind::Filter:
        drop(m_catalog->m_filters);
        break;
    case RuleKind::Correlator:
        drop(m_catalog->m_correlators);
        break;
    case RuleKind::Metric:
        drop(m_catalog->m_metricRules);
        break;
    case RuleKind::Hypothesis:
        drop(m_catalog->m_hypotheses);
        break;
    case RuleKind::Aggregate:
        drop(m_catalog->m_aggregates);
        break;
    }
}

void CatalogReader::finishLayer()
{
    // Disables name rules of lower layers; they are applied once the whole layer is read, so the order of its files
    // does not matter.
    for (const auto& [id, d] : m_disables) {
        auto it = m_placed.find(id);
        if (it == m_placed.end()) {
            m_diags.push_back(at(Severity::Error, "unknown-disable",
                "'disable' removes a rule of a lower layer, and none defines '" + id + "'", d.at, id));
            continue;
        }
        if (it->second.origin.layer == m_layer) {
            m_diags.push_back(at(Severity::Error, "disable-conflict",
                "'" + id + "' is disabled and defined in the same layer (at " + placeOf(it->second.origin) + ")", d.at,
                id));
            m_diags.push_back(at(Severity::Info, "disable-conflict", "the definition of '" + id + "' in this layer",
                it->second.origin, id));
            continue;
        }
        if (d.kind && *d.kind != it->second.kind) {
            m_diags.push_back(at(Severity::Error, "disable-kind",
                "'" + id + "' is " + (it->second.kind == RuleKind::Extractor ? "an " : "a ") + kindName(it->second.kind)
                    + " (at " + placeOf(it->second.origin) + "), not " + (*d.kind == RuleKind::Extractor ? "an " : "a ")
                    + kindName(*d.kind) + ": disable it in its own section or in the pack's 'disable' list",
                d.at, id));
            continue;
        }
        removeRule(id, it->second.kind);
        m_placed.erase(it);
        ++m_catalog->m_layers[m_layer].disabled;
    }
    m_disables.clear();
}

void CatalogReader::readCatalogFile(const std::string& rel, const YAML::Node& doc)
{
    try {
        checkKeys(doc, { "catalog", "version", "settings", "outcomes" });
        m_catalog->m_name = reqScalar(doc, "catalog");
        m_catalog->m_version = reqScalar(doc, "version");
        CatalogSettings& s = m_catalog->m_settings;
        if (const YAML::Node st = doc["settings"]; st.IsDefined()) {
            checkKeys(
                st, { "scope_margin", "collective_timeout", "expected_sources", "per_node_sources", "hypothesis" });
            s.scopeMarginNs = durationValue(st, "scope_margin", 15 * 60 * kNsPerSec);
            s.collectiveTimeoutNs = durationValue(st, "collective_timeout", 600 * kNsPerSec);
            s.expectedSources = scalarList(st, "expected_sources");
            s.perNodeSources = scalarList(st, "per_node_sources");
            for (const auto& k : s.expectedSources) {
                SourceKind kind {};
                if (!sourceKindFromName(k, kind))
                    fail(st["expected_sources"], "bad-source-kind", "unknown source kind '" + k + "'");
            }
            if (const YAML::Node h = st["hypothesis"]; h.IsDefined()) {
                checkKeys(h, { "min_support", "min_lead", "max_confidence" });
                s.hypothesis.minSupport = doubleValue(h, "min_support", s.hypothesis.minSupport);
                s.hypothesis.minLead = doubleValue(h, "min_lead", s.hypothesis.minLead);
                s.hypothesis.maxConfidence = doubleValue(h, "max_confidence", s.hypothesis.maxConfidence);
                // A hypothesis is never a confident verdict: "low" ends below 0.5.
                if (s.hypothesis.maxConfidence < 0 || s.hypothesis.maxConfidence >= 0.5)
                    fail(h["max_confidence"], "bad-number", "'max_confidence' must be at least 0 and below 0.5");
            }
        }
        if (const YAML::Node oc = doc["outcomes"]; oc.IsDefined()) {
            if (!oc.IsSequence())
                fail(oc, "not-a-list", "'outcomes' must be a list");
            for (const auto& o : oc) {
                checkKeys(o, { "domain", "outcome", "action" });
                const std::string outcome = reqScalar(o, "outcome");
                for (const auto& d : scalarList(o, "domain"))
                    s.outcomeByDomain[d] = outcome;
                if (auto a = optScalar(o, "action"); !a.empty())
                    s.defaultActionByOutcome[outcome] = a;
            }
        }
    } catch (const LoadError& e) {
        addDiag(Severity::Error, rel, e, {});
    }
}

void CatalogReader::readTable(const std::string& rel, const YAML::Node& doc)
{
    try {
        checkKeys(doc, { "table", "override", "key", "rows" });
        const bool override = boolValue(doc, "override", false);
        LookupTable t;
        t.name = reqScalar(doc, "table");
        t.key = reqScalar(doc, "key");
        t.origin = origin(rel, doc);
        const YAML::Node rows = doc["rows"];
        if (!rows.IsMap())
            fail(rows, "not-a-map", "'rows' must be a map of key to row");
        for (const auto& kv : rows) {
            if (!kv.second.IsMap())
                fail(kv.second, "not-a-map", "row '" + kv.first.Scalar() + "' must be a map");
            auto& row = t.rows[kv.first.Scalar()];
            for (const auto& col : kv.second)
                row[col.first.Scalar()] =
                    col.second.IsNull() ? std::string() : scalar(col.second, col.first.Scalar().c_str());
            if (auto it = row.find("role"); it != row.end()) {
                Role r {};
                if (!roleFromName(it->second, r))
                    fail(kv.second["role"], "bad-role", "unknown role '" + it->second + "'");
            }
        }
        auto& tables = m_catalog->m_tables;
        auto it = std::find_if(tables.begin(), tables.end(), [&](const LookupTable& x) { return x.name == t.name; });
        if (it != tables.end() && it->origin.layer == m_layer)
            failWithOther(doc["table"], "duplicate-table",
                "table '" + t.name + "' is defined twice (also at " + placeOf(it->origin) + ")", it->origin, {},
                "the other definition of table '" + t.name + "'");
        if (override && it == tables.end())
            fail(doc["override"], "unknown-override",
                "'override: true' replaces a table of a lower layer, and none defines '" + t.name + "'");
        if (!override && it != tables.end())
            failWithOther(doc["table"], "id-conflict",
                "table '" + t.name + "' is already defined at " + placeOf(it->origin)
                    + ": add 'override: true' to replace it",
                it->origin, {}, "the definition of table '" + t.name + "' in a lower layer");
        if (override) {
            *it = std::move(t);
            ++m_catalog->m_layers[m_layer].overridden;
        } else {
            tables.push_back(std::move(t));
            ++m_catalog->m_layers[m_layer].added;
        }
    } catch (const LoadError& e) {
        addDiag(Severity::Error, rel, e, {});
    }
}

ExtractorRule CatalogReader::readExtractor(const std::string& rel, const YAML::Node& n)
{
    checkKeys(n,
        { "id", "override", "version", "description", "sources", "pattern", "preceded_by", "lookback", "event", "role",
            "domain", "subdomain", "severity", "action", "priority", "label", "node", "rank", "gpu", "job_level",
            "lookup", "fields", "supersedes", "tests" });
    ExtractorRule r;
    r.id = reqScalar(n, "id");
    r.origin = origin(rel, n);
    r.version = versionValue(n);
    r.description = optScalar(n, "description");
    for (const auto& s : scalarList(n, "sources")) {
        SourceKind k {};
        if (!sourceKindFromName(s, k))
            fail(n["sources"], "bad-source-kind", "unknown source kind '" + s + "'");
        r.sources.push_back(k);
    }
    r.patternText = reqScalar(n, "pattern");
    // Multi-line mode: a record can span lines (an indented continuation, a journald entry); ^ and $ then anchor
    // at each line, as they do for a one-line record.
    r.pattern = compileRegex(n["pattern"], r.patternText, false, true);
    if (auto pb = optScalar(n, "preceded_by"); !pb.empty()) {
        r.precededBy = compileRegex(n["preceded_by"], pb, false, true);
        r.lookback = intValue(n, "lookback", 3);
    }
    r.eventType = reqScalar(n, "event");
    r.role = roleValue(n, "role", Role::Context);
    r.domain = optScalar(n, "domain", "unknown");
    r.subdomain = optScalar(n, "subdomain");
    r.severity = optScalar(n, "severity", "info");
    r.action = optScalar(n, "action");
    r.priority = intValue(n, "priority", 0);
    r.labelTemplate = optScalar(n, "label", r.eventType);
    r.nodeTemplate = optScalar(n, "node");
    r.rankTemplate = optScalar(n, "rank");
    r.gpuTemplate = optScalar(n, "gpu");
    r.jobLevel = boolValue(n, "job_level", false);
    if (const YAML::Node lk = n["lookup"]; lk.IsDefined()) {
        if (!lk.IsSequence())
            fail(lk, "not-a-list", "'lookup' must be a list of {table, key}");
        for (const auto& l : lk) {
            checkKeys(l, { "table", "key" });
            r.lookups.push_back({ reqScalar(l, "table"), reqScalar(l, "key") });
        }
    }
    if (const YAML::Node f = n["fields"]; f.IsDefined()) {
        if (!f.IsMap())
            fail(f, "not-a-map", "'fields' must be a map of field name to template");
        for (const auto& kv : f)
            r.derived.emplace_back(kv.first.Scalar(), scalar(kv.second, kv.first.Scalar().c_str()));
    }
    r.supersedes = scalarList(n, "supersedes");
    if (const YAML::Node tests = n["tests"]; tests.IsDefined()) {
        if (!tests.IsSequence())
            fail(tests, "not-a-list", "'tests' must be a list");
        for (const auto& t : tests) {
            checkKeys(t, { "line", "source", "expect" });
            RuleTest rt;
            rt.origin = origin(rel, t);
            rt.line = reqScalar(t, "line");
            rt.source = r.sources.empty() ? SourceKind::Other : r.sources.front();
            if (auto s = optScalar(t, "source"); !s.empty() && !sourceKindFromName(s, rt.source))
                fail(t["source"], "bad-source-kind", "unknown source kind '" + s + "'");
            readExpect(t, r.eventType, rt.expectNone, rt.expectType, &rt.expectRole, rt.expectFields);
            r.tests.push_back(std::move(rt));
        }
    }
    if (r.tests.empty())
        fail(n, "no-tests", "every extractor needs at least one test (key 'tests')");
    return r;
}

FilterRule CatalogReader::readFilter(const std::string& rel, const YAML::Node& n)
{
    checkKeys(n, { "id", "override", "version", "description", "when", "text", "action", "role", "reason" });
    FilterRule f;
    f.id = reqScalar(n, "id");
    f.origin = origin(rel, n);
    f.version = versionValue(n);
    f.description = optScalar(n, "description");
    f.when = selectorValue(n["when"], "when");
    if (auto t = optScalar(n, "text"); !t.empty())
        f.text = compileRegex(n["text"], t);
    const std::string action = reqScalar(n, "action");
    if (action == "drop")
        f.action = FilterRule::Action::Drop;
    else if (action == "suppress")
        f.action = FilterRule::Action::Suppress;
    else if (action == "set-role") {
        f.action = FilterRule::Action::SetRole;
        f.role = roleValue(n, "role", Role::Context);
        if (!n["role"].IsDefined())
            fail(n, "missing-key", "action 'set-role' needs key 'role'");
    } else
        fail(n["action"], "bad-action", "unknown filter action '" + action + "' (expected drop, suppress or set-role)");
    f.reason = optScalar(n, "reason", f.description);
    return f;
}

Correlator CatalogReader::readCorrelator(const std::string& rel, const YAML::Node& n)
{
    checkKeys(
        n, { "id", "override", "version", "description", "cause", "symptom", "before", "after", "nodes", "relation" });
    Correlator c;
    c.id = reqScalar(n, "id");
    c.origin = origin(rel, n);
    c.version = versionValue(n);
    c.description = optScalar(n, "description");
    if (!n["cause"].IsDefined() || !n["symptom"].IsDefined())
        fail(n, "missing-key", "a correlator needs 'cause' and 'symptom' selectors");
    c.cause = selectorValue(n["cause"], "cause");
    c.symptom = selectorValue(n["symptom"], "symptom");
    c.beforeNs = durationValue(n, "before", 2 * kNsPerSec);
    c.afterNs = durationValue(n, "after", 0);
    const std::string nodes = optScalar(n, "nodes", "any");
    if (nodes == "any")
        c.nodes = Correlator::Nodes::Any;
    else if (nodes == "same")
        c.nodes = Correlator::Nodes::Same;
    else if (nodes == "same-gpu")
        c.nodes = Correlator::Nodes::SameGpu;
    else if (nodes == "other")
        c.nodes = Correlator::Nodes::Other;
    else if (nodes == "unnamed")
        c.nodes = Correlator::Nodes::Unnamed;
    else
        fail(n["nodes"], "bad-nodes",
            "unknown node relation '" + nodes + "' (expected any, same, same-gpu, other or unnamed)");
    c.relation = optScalar(n, "relation", "symptom");
    static const std::set<std::string> kRelations = { "symptom", "companion", "precursor", "confirmation" };
    if (!kRelations.count(c.relation))
        fail(n["relation"], "bad-relation",
            "unknown relation '" + c.relation + "' (expected symptom, companion, precursor or confirmation)");
    return c;
}

MetricRule CatalogReader::readMetricRule(const std::string& rel, const YAML::Node& n)
{
    checkKeys(n,
        { "id", "override", "version", "description", "metric", "condition", "threshold", "from", "within", "event",
            "role", "domain", "subdomain", "severity", "action", "label", "priority", "tests" });
    MetricRule m;
    m.id = reqScalar(n, "id");
    m.origin = origin(rel, n);
    m.version = versionValue(n);
    m.description = optScalar(n, "description");
    m.metricText = reqScalar(n, "metric");
    m.metric = compileRegex(n["metric"], m.metricText, true);
    const std::string cond = reqScalar(n, "condition");
    if (cond == "increase")
        m.kind = MetricRule::Kind::Increase;
    else if (cond == "above")
        m.kind = MetricRule::Kind::Above;
    else if (cond == "drop-below")
        m.kind = MetricRule::Kind::DropBelow;
    else if (cond == "change-to")
        m.kind = MetricRule::Kind::ChangeTo;
    else
        fail(n["condition"], "bad-condition",
            "unknown condition '" + cond + "' (expected increase, above, drop-below or change-to)");
    m.threshold = doubleValue(n, "threshold", 0);
    m.from = doubleValue(n, "from", 0);
    m.withinNs = durationValue(n, "within", 5 * 60 * kNsPerSec);
    m.eventType = reqScalar(n, "event");
    m.role = roleValue(n, "role", Role::Context);
    m.domain = optScalar(n, "domain", "unknown");
    m.subdomain = optScalar(n, "subdomain");
    m.severity = optScalar(n, "severity", "warning");
    m.action = optScalar(n, "action");
    m.labelTemplate = optScalar(n, "label", m.eventType);
    m.priority = intValue(n, "priority", 0);
    if (const YAML::Node tests = n["tests"]; tests.IsDefined()) {
        if (!tests.IsSequence())
            fail(tests, "not-a-list", "'tests' must be a list");
        for (const auto& t : tests) {
            checkKeys(t, { "samples", "expect" });
            MetricTest mt;
            mt.origin = origin(rel, t);
            const std::string samples = reqScalar(t, "samples");
            std::size_t pos = 0;
            while (pos < samples.size()) {
                const auto sp = samples.find(' ', pos);
                const std::string item = samples.substr(pos, sp == std::string::npos ? std::string::npos : sp - pos);
                pos = sp == std::string::npos ? samples.size() : sp + 1;
                if (item.empty())
                    continue;
                const auto at = item.find('@');
                const auto when = at == std::string::npos ? std::nullopt : parseDurationNs(item.substr(at + 1));
                double value = 0;
                const std::string number = item.substr(0, at);
                const auto parsed = std::from_chars(number.data(), number.data() + number.size(), value);
                if (!when || parsed.ec != std::errc() || parsed.ptr != number.data() + number.size())
                    fail(t["samples"], "bad-samples", "sample '" + item + "' is not VALUE@OFFSET (e.g. 640@30s)");
                mt.samples.emplace_back(when.value_or(0), value);
            }
            readExpect(t, m.eventType, mt.expectNone, mt.expectType, nullptr, mt.expectFields);
            m.tests.push_back(std::move(mt));
        }
    }
    if (m.tests.empty())
        fail(n, "no-tests", "every metric rule needs at least one test (key 'tests')");
    return m;
}

HypothesisRule CatalogReader::readHypothesis(const std::string& rel, const YAML::Node& n)
{
    checkKeys(n,
        { "id", "override", "version", "description", "domain", "subdomain", "label", "action", "support", "confirm",
            "fault_at" });
    HypothesisRule h;
    h.id = reqScalar(n, "id");
    h.origin = origin(rel, n);
    h.version = versionValue(n);
    h.description = optScalar(n, "description");
    h.domain = reqScalar(n, "domain");
    h.subdomain = optScalar(n, "subdomain");
    h.label = optScalar(n, "label", domainPath(h.domain, h.subdomain));
    h.action = optScalar(n, "action");
    if (const std::string at = optScalar(n, "fault_at", "unknown"); at == "reporter")
        h.faultAtReporter = true;
    else if (at != "unknown")
        fail(n["fault_at"], "bad-fault-at", "unknown 'fault_at' '" + at + "' (expected reporter or unknown)");
    auto weight = [](const YAML::Node& map, const char* key) {
        const double w = doubleValue(map, key, 0);
        if (w < 0 || w > 1)
            fail(map[key], "bad-number", std::string("'") + key + "' must be between 0 and 1");
        return w;
    };
    const YAML::Node support = n["support"];
    if (!support.IsDefined())
        fail(n, "not-a-list", "'support' must be a non-empty list of {when, weight, why}");
    if (!support.IsSequence() || support.size() == 0)
        fail(support, "not-a-list", "'support' must be a non-empty list of {when, weight, why}");
    for (const auto& s : support) {
        checkKeys(s, { "when", "weight", "why", "fault_at" });
        if (!s["when"].IsDefined())
            fail(s, "missing-key", "required key 'when' is missing");
        HypothesisSupport hs;
        hs.when = selectorValue(s["when"], "when");
        hs.weight = weight(s, "weight");
        hs.why = optScalar(s, "why");
        if (const std::string at = optScalar(s, "fault_at", "unknown"); at == "reporter")
            hs.faultAtReporter = true;
        else if (at != "unknown")
            fail(s["fault_at"], "bad-fault-at", "unknown 'fault_at' '" + at + "' (expected reporter or unknown)");
        h.support.push_back(std::move(hs));
    }
    if (const YAML::Node confirm = n["confirm"]; confirm.IsDefined()) {
        if (!confirm.IsSequence())
            fail(confirm, "not-a-list", "'confirm' must be a list of {source, of, name, what}");
        for (const auto& c : confirm) {
            checkKeys(c, { "source", "of", "name", "peer", "what", "silence" });
            HypothesisConfirm hc;
            const std::string kind = reqScalar(c, "source");
            if (!sourceKindFromName(kind, hc.kind))
                fail(c["source"], "bad-source-kind", "unknown source kind '" + kind + "'");
            const std::string of = optScalar(c, "of", "job");
            if (of == "reporter")
                hc.of = HypothesisConfirm::Of::Reporter;
            else if (of == "peer")
                hc.of = HypothesisConfirm::Of::Peer;
            else if (of == "job")
                hc.of = HypothesisConfirm::Of::Job;
            else
                fail(c["of"], "bad-of", "unknown 'of' '" + of + "' (expected reporter, peer or job)");
            hc.name = reqScalar(c, "name");
            hc.peerTemplate = optScalar(c, "peer");
            if (hc.of == HypothesisConfirm::Of::Peer && hc.peerTemplate.empty())
                fail(c, "missing-key", "'of: peer' needs 'peer', a template naming the peer (e.g. '{peer}')");
            hc.what = reqScalar(c, "what");
            hc.silenceWeight = weight(c, "silence");
            h.confirm.push_back(std::move(hc));
        }
    }
    return h;
}

void CatalogReader::readPack(const std::string& rel, const YAML::Node& doc)
{
    try {
        checkKeys(doc,
            { "pack", "description", "disable", "extractors", "filters", "correlators", "metrics", "hypotheses",
                "aggregates" });
        (void)reqScalar(doc, "pack");
        // A pack-level disable: ids of lower layers' rules of any kind.
        if (const YAML::Node off = doc["disable"]; off.IsDefined() && !off.IsNull()) {
            if (!off.IsSequence())
                fail(off, "not-a-list", "'disable' must be a list of rule ids");
            for (const auto& item : off)
                m_disables.try_emplace(scalar(item, "disable"), Disable { origin(rel, item), std::nullopt });
        }
    } catch (const LoadError& e) {
        addDiag(Severity::Error, rel, e, {});
        return;
    }
    eachRule(rel, doc["extractors"], "extractors", RuleKind::Extractor, m_catalog->m_extractors,
        [&](const YAML::Node& n) { return readExtractor(rel, n); });
    eachRule(rel, doc["filters"], "filters", RuleKind::Filter, m_catalog->m_filters,
        [&](const YAML::Node& n) { return readFilter(rel, n); });
    eachRule(rel, doc["correlators"], "correlators", RuleKind::Correlator, m_catalog->m_correlators,
        [&](const YAML::Node& n) { return readCorrelator(rel, n); });
    eachRule(rel, doc["metrics"], "metrics", RuleKind::Metric, m_catalog->m_metricRules,
        [&](const YAML::Node& n) { return readMetricRule(rel, n); });
    eachRule(rel, doc["hypotheses"], "hypotheses", RuleKind::Hypothesis, m_catalog->m_hypotheses,
        [&](const YAML::Node& n) { return readHypothesis(rel, n); });
    eachRule(rel, doc["aggregates"], "aggregates", RuleKind::Aggregate, m_catalog->m_aggregates,
        [&](const YAML::Node& n) { return readAggregate(rel, n); });
}

AggregateRule CatalogReader::readAggregate(const std::string& rel, const YAML::Node& n)
{
    checkKeys(n,
        { "id", "override", "version", "description", "over", "group_by", "distinct", "at_least", "event", "role",
            "domain", "subdomain", "severity", "action", "label", "priority", "members", "locate", "tests" });
    AggregateRule a;
    a.id = reqScalar(n, "id");
    a.origin = origin(rel, n);
    a.version = versionValue(n);
    a.description = optScalar(n, "description");
    if (!n["over"].IsDefined())
        fail(n, "missing-key", "an aggregate needs 'over', the selector of the events it reads");
    a.over = selectorValue(n["over"], "over");
    a.groupBy = scalarList(n, "group_by");
    a.distinct = reqScalar(n, "distinct");
    const int atLeast = intValue(n, "at_least", 2);
    if (atLeast < 2)
        fail(n["at_least"], "bad-number", "'at_least' must be 2 or more (one value is no difference)");
    a.atLeast = static_cast<std::size_t>(atLeast);
    a.eventType = reqScalar(n, "event");
    a.role = roleValue(n, "role", Role::Context);
    a.domain = optScalar(n, "domain", "unknown");
    a.subdomain = optScalar(n, "subdomain");
    a.severity = optScalar(n, "severity", "warning");
    a.action = optScalar(n, "action");
    a.labelTemplate = optScalar(n, "label", a.eventType);
    a.priority = intValue(n, "priority", 0);
    a.members = optScalar(n, "members", "companion");
    static const std::set<std::string> kRelations = { "symptom", "companion", "precursor", "confirmation" };
    if (!kRelations.count(a.members))
        fail(n["members"], "bad-relation",
            "unknown relation '" + a.members + "' (expected symptom, companion, precursor or confirmation)");
    if (const std::string locate = optScalar(n, "locate", "record"); locate == "minority")
        a.locate = AggregateRule::Locate::Minority;
    else if (locate != "record")
        fail(n["locate"], "bad-value", "unknown 'locate' '" + locate + "' (expected record or minority)");
    if (const YAML::Node tests = n["tests"]; tests.IsDefined()) {
        if (!tests.IsSequence())
            fail(tests, "not-a-list", "'tests' must be a list");
        for (const auto& t : tests) {
            checkKeys(t, { "lines", "source", "expect" });
            AggregateTest at;
            at.origin = origin(rel, t);
            // Each line is a record, or {node, line} for a record of that node's file.
            const YAML::Node lines = t["lines"];
            if (!lines.IsDefined() || !lines.IsSequence() || lines.size() == 0)
                fail(lines.IsDefined() ? lines : t, "missing-key",
                    "an aggregate test needs 'lines', the records in file order");
            for (const auto& l : lines) {
                if (l.IsMap()) {
                    checkKeys(l, { "node", "line" });
                    at.nodes.push_back(reqScalar(l, "node"));
                    at.lines.push_back(reqScalar(l, "line"));
                } else {
                    at.nodes.emplace_back();
                    at.lines.push_back(scalar(l, "lines"));
                }
            }
            if (auto src = optScalar(t, "source"); !src.empty() && !sourceKindFromName(src, at.source))
                fail(t["source"], "bad-source-kind", "unknown source kind '" + src + "'");
            readExpect(t, a.eventType, at.expectNone, at.expectType, nullptr, at.expectFields);
            a.tests.push_back(std::move(at));
        }
    }
    if (a.tests.empty())
        fail(n, "no-tests", "every aggregate needs at least one test (key 'tests')");
    return a;
}

void CatalogReader::checkReferences()
{
    for (const auto& r : m_catalog->m_extractors) {
        for (const auto& l : r.lookups)
            if (!m_catalog->table(l.table)) {
                Diagnostic d;
                d.code = "unknown-table";
                d.message = "lookup names table '" + l.table + "', which no file in tables/ defines";
                d.where = { r.origin.file, r.origin.line, r.origin.column, 0 };
                d.ruleId = r.id;
                d.snippet = lineOf(r.origin.file, static_cast<int>(r.origin.line) - 1);
                m_diags.push_back(std::move(d));
            }
        // A rule a pack layer disabled may still be superseded by name: it gives nothing to replace.
        for (const auto& s : r.supersedes)
            if (!m_everDefined.count(s)) {
                Diagnostic d;
                d.code = "unknown-rule";
                d.message = "supersedes unknown rule '" + s + "'";
                d.where = { r.origin.file, r.origin.line, r.origin.column, 0 };
                d.ruleId = r.id;
                m_diags.push_back(std::move(d));
            }
    }
}

void CatalogReader::buildPrefilters()
{
    const SourceKind kinds[] = { SourceKind::Scheduler, SourceKind::AppLog, SourceKind::Kernel, SourceKind::Metrics,
        SourceKind::FabricManager, SourceKind::Kubernetes, SourceKind::Other };
    for (SourceKind kind : kinds) {
        std::vector<std::size_t> idx;
        for (std::size_t i = 0; i < m_catalog->m_extractors.size(); ++i) {
            const auto& src = m_catalog->m_extractors[i].sources;
            // Text of no known format (a pasted excerpt, one rank's stderr saved under any name) runs through every
            // extractor: what it is shows in what matches, not in its name.
            if (src.empty() || kind == SourceKind::Other || std::find(src.begin(), src.end(), kind) != src.end())
                idx.push_back(i);
        }
        if (idx.empty())
            continue;
        RE2::Options opts;
        opts.set_log_errors(false);
        opts.set_max_mem(64 << 20);
        RE2::Options batchOpts = opts;
        batchOpts.set_never_nl(true);
        auto set = std::make_unique<PrefilterSet>(opts, batchOpts);
        for (std::size_t i : idx) {
            std::string err;
            if (set->batch.Add("(?m)" + m_catalog->m_extractors[i].patternText, &err) < 0
                || set->set.Add("(?m)" + m_catalog->m_extractors[i].patternText, &err) < 0) {
                const auto& r = m_catalog->m_extractors[i];
                Diagnostic d;
                d.code = "bad-regex";
                d.message = "pattern cannot join the prefilter set: " + err;
                d.where = { r.origin.file, r.origin.line, r.origin.column, 0 };
                d.ruleId = r.id;
                m_diags.push_back(std::move(d));
            }
        }
        if (!set->set.Compile() || !set->batch.Compile()) {
            Diagnostic d;
            d.code = "prefilter-compile";
            d.message = std::string("the RE2::Set prefilter for source kind '") + sourceKindName(kind)
                + "' does not compile (out of memory?)";
            m_diags.push_back(std::move(d));
            continue;
        }
        m_catalog->m_byKind[kind] = std::move(idx);
        m_catalog->m_sets[kind] = std::move(set);
    }
}

std::vector<CatalogReader::Document> CatalogReader::documentsOf(std::size_t layer, const fs::path& dir)
{
    // catalog.yaml first, then tables/ and packs/, each sorted by name; a text replaces the disk file it stands for
    // or joins them in name order.
    std::vector<Document> docs;
    const auto& texts = m_layerTexts[layer];
    auto text = [&](const std::string& rel) -> const CatalogText* {
        auto it = texts.find(rel);
        return it == texts.end() ? nullptr : it->second;
    };
    std::error_code ec;
    if (const CatalogText* t = text("catalog.yaml"))
        docs.push_back({ "catalog.yaml", {}, t });
    else if (fs::exists(dir / "catalog.yaml", ec))
        docs.push_back({ "catalog.yaml", dir / "catalog.yaml", nullptr });
    for (const char* sub : { "tables", "packs" }) {
        std::map<std::string, Document> files;
        for (fs::directory_iterator it(dir / sub, ec), end; !ec && it != end; it.increment(ec))
            if (it->path().extension() == ".yaml") {
                const std::string rel = std::string(sub) + "/" + it->path().filename().string();
                files[rel] = { rel, it->path(), nullptr };
            }
        ec.clear();
        const std::string prefix = std::string(sub) + "/";
        for (const auto& [rel, t] : texts)
            if (rel.compare(0, prefix.size(), prefix) == 0)
                files[rel] = { rel, {}, t };
        for (auto& [rel, d] : files)
            docs.push_back(std::move(d));
    }
    return docs;
}

void CatalogReader::readLayer(std::size_t layer)
{
    m_layer = layer;
    const std::string& given = layer == 0 ? m_sources.root : m_sources.packDirs[layer - 1];
    const fs::path dir(given);
    std::error_code ec;
    // The bundled layer's files are named relative to its root, as they always were; a pack layer's by its
    // directory, so that a diagnostic points at the file to open.
    auto fileName = [&](const std::string& rel) { return layer == 0 ? rel : (dir / rel).string(); };
    if (layer > 0 && !fs::is_directory(dir, ec) && m_layerTexts[layer].empty()) {
        m_diags.push_back(makeDiagnostic(Severity::Error, "no-pack-dir", "rule pack directory does not exist", given));
        return;
    }
    std::vector<Document> docs = documentsOf(layer, dir);
    if (layer > 0) {
        // Misplaced files are read by nobody: said so, not silently skipped.
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
            if (it->path().extension() == ".yaml" && it->path().filename() != "catalog.yaml")
                m_diags.push_back(makeDiagnostic(Severity::Warning, "misplaced-pack",
                    "not read: a rule pack directory reads packs/*.yaml and tables/*.yaml", it->path().string()));
        const auto cat =
            std::find_if(docs.begin(), docs.end(), [](const Document& d) { return d.rel == "catalog.yaml"; });
        if (cat != docs.end()) {
            m_diags.push_back(makeDiagnostic(Severity::Error, "catalog-in-pack-dir",
                "a rule pack directory holds tables/ and packs/ only: the catalog's name, version and settings come "
                "from the bundled catalog (a whole catalog replaces it instead of being layered on it)",
                fileName("catalog.yaml")));
            docs.erase(cat);
        }
        if (!docs.empty())
            ++m_storedLayers;
    }
    const std::string storedPrefix = layer == 0 ? std::string() : "layers/" + std::to_string(m_storedLayers) + "/";
    YAML::Node doc;
    for (const auto& d : docs) {
        const std::string file = fileName(d.rel);
        if (!readDocument(d, file, storedPrefix + d.rel, doc))
            continue;
        if (d.rel == "catalog.yaml") {
            m_sawCatalogFile = true;
            readCatalogFile(file, doc);
        } else if (d.rel.compare(0, 7, "tables/") == 0) {
            readTable(file, doc);
        } else {
            readPack(file, doc);
        }
    }
    finishLayer();
}

CatalogLoadResult CatalogReader::run()
{
    const fs::path root(m_sources.root);
    std::error_code ec;
    if (!fs::is_directory(root, ec)) {
        Diagnostic d;
        d.code = "no-catalog";
        d.message = "rule catalog directory does not exist";
        d.where.file = m_sources.root;
        return { nullptr, { d } };
    }
    // The layers: the bundled catalog, then each pack directory once (a repeated one is skipped).
    m_dirs.push_back(normalPath(m_sources.root));
    m_catalog->m_layers.push_back({ m_sources.root });
    for (const auto& dir : m_sources.packDirs) {
        m_catalog->m_layers.push_back({ dir });
        if (dir.empty()) {
            // An empty path would name the current directory without saying so.
            m_diags.push_back(makeDiagnostic(
                Severity::Error, "no-pack-dir", "an empty path is not a rule pack directory", "<empty path>"));
            m_dirs.emplace_back();
            continue;
        }
        const fs::path normal = normalPath(dir);
        if (std::find(m_dirs.begin(), m_dirs.end(), normal) != m_dirs.end()) {
            m_diags.push_back(makeDiagnostic(Severity::Warning, "duplicate-layer",
                "this directory is already a layer of the catalog: skipped", dir));
            m_dirs.emplace_back();
        } else {
            m_dirs.push_back(normal);
        }
    }
    // Each in-memory text goes to the layer whose file it stands for.
    m_layerTexts.resize(m_dirs.size());
    for (const auto& t : m_sources.texts) {
        const fs::path p = normalPath(t.path);
        bool placed = false;
        for (std::size_t i = 0; i < m_dirs.size() && !placed; ++i) {
            if (m_dirs[i].empty())
                continue;
            if (const std::string rel = relativeIn(m_dirs[i], p); !rel.empty()) {
                m_layerTexts[i][rel] = &t;
                placed = true;
            }
        }
        if (!placed)
            m_diags.push_back(makeDiagnostic(Severity::Error, "text-outside-layers",
                "this text stands for no file of the catalog's layers (DIR/catalog.yaml, DIR/tables/NAME.yaml or "
                "DIR/packs/NAME.yaml)",
                t.path));
    }
    for (std::size_t layer = 0; layer < m_dirs.size(); ++layer) {
        if (m_dirs[layer].empty())
            continue;
        readLayer(layer);
        if (layer == 0 && !m_sawCatalogFile) {
            Diagnostic d;
            d.code = "no-catalog";
            d.message = "catalog.yaml (name, version, settings) is missing or unreadable";
            d.where.file = (root / "catalog.yaml").string();
            m_diags.push_back(d);
        }
    }
    checkReferences();
    buildPrefilters();
    m_catalog->m_hash = m_hash.hexDigest();
    CatalogLoadResult res;
    res.diagnostics = std::move(m_diags);
    if (!hasErrors(res.diagnostics))
        res.catalog = std::shared_ptr<const RuleCatalog>(m_catalog.release());
    return res;
}

CatalogLoadResult RuleCatalog::load(const std::string& root)
{
    return load(CatalogSources { root, {}, {} });
}

CatalogLoadResult RuleCatalog::load(const CatalogSources& sources)
{
    return CatalogReader(sources).run();
}

CatalogSources storedCatalogSources(const std::string& dir)
{
    CatalogSources s;
    s.root = dir;
    std::vector<std::pair<unsigned long, fs::path>> layers;
    std::error_code ec;
    for (fs::directory_iterator it(fs::path(dir) / "layers", ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        unsigned long n = 0;
        const auto [ptr, err] = std::from_chars(name.data(), name.data() + name.size(), n);
        if (err == std::errc() && ptr == name.data() + name.size() && it->is_directory(ec))
            layers.emplace_back(n, it->path());
    }
    std::sort(layers.begin(), layers.end());
    for (const auto& [n, p] : layers)
        s.packDirs.push_back(p.string());
    return s;
}

} // namespace faultline::core
