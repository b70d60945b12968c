// SPDX-License-Identifier: Apache-2.0
// The redaction engine: built-in rules per category, profile loading, and the matching that finds secrets, resolves
// overlapping matches (earliest, then the rule's priority, then longest) and replaces them with pseudonyms.
#include "core/redact/redaction.h"

#include "core/util/sha256.h"
#include "core/util/yaml_nodes.h"

#include <arpa/inet.h>
#include <re2/re2.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace faultline::core {

namespace {

bool isAlnum(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool allDigits(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool hasLetter(std::string_view s)
{
    return std::any_of(s.begin(), s.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; });
}

/// A JSON or C escape ("\n", "\t", ...) right before `pos`: its letter is not part of the word that follows.
bool escapeBefore(std::string_view text, std::size_t pos)
{
    if (pos < 2 || text[pos - 2] != '\\')
        return false;
    const char c = text[pos - 1];
    if (c != 'n' && c != 't' && c != 'r' && c != 'b' && c != 'f')
        return false;
    return pos < 3 || text[pos - 3] != '\\'; // "\\n" is a backslash and a letter
}

/// A word may start at `pos`: nothing alphanumeric right before it (an escape's letter does not count).
bool boundaryBefore(std::string_view text, std::size_t pos)
{
    return pos == 0 || !isAlnum(text[pos - 1]) || escapeBefore(text, pos);
}

bool boundaryAfter(std::string_view text, std::size_t pos)
{
    return pos >= text.size() || !isAlnum(text[pos]);
}

/// File extensions that end a name like node-02.log: not a domain.
bool fileExtension(std::string_view label)
{
    static const std::set<std::string, std::less<>> kExt { "txt", "log", "logs", "out", "err", "gz", "zst", "xz", "bz2",
        "tgz", "tar", "zip", "json", "jsonl", "yaml", "yml", "csv", "psv", "tsv", "dat", "bin", "conf", "cfg", "ini",
        "pid", "sock", "lock", "db", "faultline", "html", "md", "pdf", "png", "svg", "sh", "py" };
    return kExt.count(lower(label)) != 0;
}

/// Public domains whose names are software and API groups (nvidia.com/gpu, jobset.sigs.k8s.io), not hosts to hide.
bool publicDomain(std::string_view fqdn)
{
    static const char* const kPublic[] = { "kubernetes.io", "k8s.io", "nvidia.com", "github.com", "github.io",
        "githubusercontent.com", "pytorch.org", "python.org", "nvcr.io", "docker.io", "docker.com", "quay.io", "gcr.io",
        "ghcr.io", "x-k8s.io", "w3.org", "kernel.org", "ubuntu.com", "debian.org", "redhat.com", "schema.org",
        "opencontainers.org" };
    const std::string l = lower(fqdn);
    for (const char* d : kPublic) {
        const std::string_view dv(d);
        if (l == dv
            || (l.size() > dv.size() && l.compare(l.size() - dv.size(), dv.size(), dv) == 0
                && l[l.size() - dv.size() - 1] == '.'))
            return true;
    }
    return false;
}

bool systemUser(std::string_view name)
{
    static const std::set<std::string, std::less<>> kSystem { "root", "nobody", "daemon", "bin", "sys", "slurm",
        "munge", "syslog", "messagebus", "sshd", "polkitd", "www-data", "_apt", "nvidia-persistenced", "unknown",
        "none", "null", "(null)", "n/a", "na", "true", "false", "yes", "no", "all", "any", "default" };
    const std::string l = lower(name);
    return kSystem.count(l) != 0 || l.rfind("systemd-", 0) == 0;
}

bool placeholderHost(std::string_view name)
{
    static const std::set<std::string, std::less<>> kWords { "none", "null", "(null)", "n/a", "na", "unknown",
        "localhost", "true", "false", "yes", "no", "all", "any", "default", "nil", "unset" };
    return kWords.count(lower(name)) != 0;
}

bool placeholderToken(std::string_view v)
{
    if (v.size() < 4)
        return true;
    if (std::all_of(v.begin(), v.end(), [&](char c) { return c == v.front(); }))
        return true; // "******", "xxxxxx"
    static const std::set<std::string, std::less<>> kWords { "redacted", "<redacted>", "[redacted]", "changeme", "none",
        "null", "undefined", "placeholder", "secret", "password", "your_token", "<token>", "true", "false", "empty",
        "unset", "n/a", "****" };
    return kWords.count(lower(v)) != 0 || (v.front() == '[' && v.back() == ']') || (v.front() == '$' && v[1] == '{');
}

/// Expands a Slurm hostlist ("node-[01-04,07]", "gpu[1-2]-ib") into names, at most `cap` of them; empty when the text
/// is not one or expands to more.
std::vector<std::string> expandHostlist(std::string_view text, std::size_t cap = 4096)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    // Items separated by commas outside brackets.
    int depth = 0;
    std::vector<std::string_view> items;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i == text.size() || (text[i] == ',' && depth == 0)) {
            if (i > start)
                items.push_back(text.substr(start, i - start));
            start = i + 1;
        } else if (text[i] == '[') {
            ++depth;
        } else if (text[i] == ']') {
            --depth;
        }
    }
    for (const auto item : items) {
        const auto open = item.find('[');
        if (open == std::string_view::npos) {
            out.emplace_back(item);
            continue;
        }
        const auto close = item.find(']', open);
        if (close == std::string_view::npos || item.find('[', open + 1) < close)
            return {};
        const std::string_view prefix = item.substr(0, open);
        const std::string_view suffix = item.substr(close + 1);
        std::string_view ranges = item.substr(open + 1, close - open - 1);
        while (!ranges.empty()) {
            const auto comma = ranges.find(',');
            const std::string_view r = ranges.substr(0, comma);
            ranges = comma == std::string_view::npos ? std::string_view() : ranges.substr(comma + 1);
            const auto dash = r.find('-');
            const std::string_view a = r.substr(0, dash);
            const std::string_view b = dash == std::string_view::npos ? a : r.substr(dash + 1);
            if (!allDigits(a) || !allDigits(b) || a.size() > 9 || b.size() > 9)
                return {};
            const unsigned long lo = std::stoul(std::string(a));
            const unsigned long hi = std::stoul(std::string(b));
            if (hi < lo || hi - lo >= cap)
                return {};
            for (unsigned long n = lo; n <= hi; ++n) {
                std::string digits = std::to_string(n);
                if (digits.size() < a.size())
                    digits.insert(0, a.size() - digits.size(), '0');
                out.push_back(std::string(prefix) + digits + std::string(suffix));
                if (out.size() > cap)
                    return {};
            }
        }
    }
    return out;
}

bool validIpv4(std::string_view v)
{
    in_addr a {};
    const std::string s(v);
    if (inet_pton(AF_INET, s.c_str(), &a) != 1)
        return false;
    return v.rfind("127.", 0) != 0 && v != "0.0.0.0" && v != "255.255.255.255";
}

bool validIpv6(std::string_view v)
{
    in6_addr a {};
    const std::string s(v);
    if (inet_pton(AF_INET6, s.c_str(), &a) != 1)
        return false;
    const auto colons = static_cast<std::size_t>(std::count(v.begin(), v.end(), ':'));
    if (colons < 7 && v.find("::") == std::string_view::npos)
        return false;
    // "std::", "a::b" and the loopback are not addresses worth hiding: at least 6 characters, two groups.
    std::size_t groups = 0;
    for (std::size_t i = 0; i < v.size();) {
        const auto colon = v.find(':', i);
        if (colon != i)
            ++groups;
        if (colon == std::string_view::npos)
            break;
        i = colon + 1;
    }
    return v.size() >= 6 && groups >= 2 && v != "::1";
}

std::string letters(std::size_t index, std::size_t width)
{
    std::string out;
    std::size_t n = index;
    do {
        out.insert(out.begin(), static_cast<char>('a' + n % 26));
        n /= 26;
    } while (n > 0);
    while (out.size() < width)
        out.insert(out.begin(), 'a');
    return out;
}

RE2::Options ruleOptions(bool caseSensitive, bool longest)
{
    RE2::Options o;
    o.set_log_errors(false);
    o.set_max_mem(64 << 20);
    o.set_never_nl(true);
    o.set_case_sensitive(caseSensitive);
    o.set_longest_match(longest);
    o.set_encoding(RE2::Options::EncodingUTF8);
    return o;
}

} // namespace

const char* redactionCategoryName(RedactionCategory c)
{
    switch (c) {
    case RedactionCategory::Host:
        return "host";
    case RedactionCategory::Ip:
        return "ip";
    case RedactionCategory::User:
        return "user";
    case RedactionCategory::Uid:
        return "uid";
    case RedactionCategory::Email:
        return "email";
    case RedactionCategory::Path:
        return "path";
    case RedactionCategory::Token:
        return "token";
    case RedactionCategory::Custom:
        return "custom";
    }
    return "custom";
}

std::optional<RedactionCategory> redactionCategoryFrom(std::string_view name)
{
    for (std::size_t i = 0; i < kRedactionCategories; ++i) {
        const auto c = static_cast<RedactionCategory>(i);
        const std::string_view n = redactionCategoryName(c);
        if (name == n || (name.size() == n.size() + 1 && name.substr(0, n.size()) == n && name.back() == 's'))
            return c;
    }
    return std::nullopt;
}

// ---- rules -------------------------------------------------------------------------------------------------------

enum class RuleKind {
    Value, ///< the first group (or the match) is a value of the rule's category
    HostValue, ///< a host context: a name or a hostlist
    KnownHost, ///< a known host name, extended over its domain labels
    HostStem, ///< a name of a known host's naming scheme (node-07 beside node-01)
    KnownUser,
    Hostlist, ///< prefix[ranges]suffix: replaced when it names a known host
    HomePath, ///< group 1 the home prefix, group 2 the user
    Ipv4,
    Ipv6,
    Fqdn,
};

struct Redactor::Rule
{
    std::unique_ptr<RE2> re;
    RuleKind kind = RuleKind::Value;
    RedactionCategory category = RedactionCategory::Custom;
    int priority = 0; ///< lower wins between matches of the same span
    bool left = false; ///< the value must start a word
    bool right = false; ///< and end one
    std::string stem; ///< a custom pattern's pseudonym stem
};

struct Redactor::Secret
{
    RedactionCategory category = RedactionCategory::Custom;
    std::string original;
    std::string pseudonym;
    std::uint64_t count = 0;
};

struct Redactor::Candidate
{
    std::size_t start = 0; ///< the replaced span
    std::size_t end = 0;
    std::size_t valueStart = 0; ///< the secret inside it
    std::size_t valueEnd = 0;
    std::size_t rule = 0;
    int priority = 0;
};

namespace {

// Built-in rules, by category. Each runs over a whole text with never_nl, so no match crosses a newline. Context
// rules consume the character before their key to check it is not inside a word (RE2 has no look-behind).
struct BuiltinRule
{
    RedactionCategory category;
    RuleKind kind;
    const char* regex;
    int priority;
    bool left;
    bool right;
    bool caseSensitive;
};

const BuiltinRule kBuiltins[] = {
    // Tokens and secrets: well-known token formats, bearer credentials, and NAME=value where NAME ends in a secret
    // word (HF_TOKEN, AWS_SECRET_ACCESS_KEY, password, api_key).
    { RedactionCategory::Token, RuleKind::Value,
        R"(\b((?:hf_[A-Za-z0-9]{20,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,})"
        R"(|xox[abposr]-[A-Za-z0-9-]{10,}|(?:AKIA|ASIA)[0-9A-Z]{16}|sk-(?:proj-)?[A-Za-z0-9_-]{20,})"
        R"(|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}))\b)",
        1, false, false, true },
    { RedactionCategory::Token, RuleKind::Value, R"((?i)\bbearer[ \t]+([A-Za-z0-9._~+/=-]{12,}))", 1, false, false,
        false },
    { RedactionCategory::Token, RuleKind::Value,
        R"((?i)\b[A-Za-z0-9_.-]*(?:password|passwd|secret|token|api_?key|access_?key|secret_?key|private_?key)"
        R"(|credentials?)["']?[ \t]*[=:][ \t]*["']?([^ \t\r"',;&<>]{4,}))",
        1, false, false, false },
    // E-mail addresses.
    { RedactionCategory::Email, RuleKind::Value,
        R"(([A-Za-z0-9._%+-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)"
        R"((?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}))",
        2, true, true, true },
    // Home directories: /home/alice, /Users/alice, C:\Users\alice.
    { RedactionCategory::Path, RuleKind::HomePath,
        R"((/(?:home[0-9]*|Users|export/home|usr/home)/)([A-Za-z_][A-Za-z0-9._-]{0,63}))", 3, false, false, true },
    { RedactionCategory::Path, RuleKind::HomePath, R"(([A-Za-z]:\\Users\\)([A-Za-z_][A-Za-z0-9._ -]{0,63}))", 3, false,
        false, true },
    // Hostlists anywhere (replaced when they name a known host).
    { RedactionCategory::Host, RuleKind::Hostlist,
        R"(([A-Za-z][A-Za-z0-9._-]*\[[0-9]+(?:-[0-9]+)?(?:,[0-9]+(?:-[0-9]+)?)*\][A-Za-z0-9._-]*))", 5, true, true,
        true },
    // Host contexts: key=value and "key": "value" forms, syslog headers, Slurm's AllocNode:Sid=host:sid.
    { RedactionCategory::Host, RuleKind::HostValue,
        R"((?i)(?m)(?:^|[^A-Za-z0-9])_?(?:host|hostname|host_name|nodename|node_name|node|nodes|nodelist|node_list)"
        R"(|nodeaddr|nodehostname|batchhost|batch_host|master_addr|exc_?nodes|req_?nodes|sched_nodes)["']?[ \t]*[=:])"
        R"([ \t]*["']?([A-Za-z][A-Za-z0-9._-]*(?:\[[0-9,-]+\][A-Za-z0-9._-]*)?)"
        R"((?:,[A-Za-z][A-Za-z0-9._-]*(?:\[[0-9,-]+\][A-Za-z0-9._-]*)?)*))",
        8, false, true, false },
    { RedactionCategory::Host, RuleKind::HostValue, R"(\bAllocNode:Sid=([A-Za-z][A-Za-z0-9._-]*))", 8, false, true,
        true },
    { RedactionCategory::Host, RuleKind::HostValue,
        R"((?m)^(?:[A-Z][a-z]{2} [ 0-9][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?)"
        R"(|[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+(?:Z|[+-][0-9:]+)?) ([A-Za-z][A-Za-z0-9._-]*) [A-Za-z0-9_./()-]+)"
        R"((?:\[[0-9]+\])?:)",
        8, false, true, true },
    { RedactionCategory::Host, RuleKind::HostValue, R"((?m)^<[0-9]{1,3}>1 [^ ]+ ([A-Za-z][A-Za-z0-9._-]*) )", 8, false,
        true, true },
    // User contexts.
    { RedactionCategory::User, RuleKind::Value,
        R"((?i)(?m)(?:^|[^A-Za-z0-9])_?(?:user|username|user_name|logname)["']?[ \t]*[=:][ \t]*["']?([A-Za-z_][A-Za-z0-9._-]{1,31}))",
        8, false, true, false },
    { RedactionCategory::User, RuleKind::Value, R"(\b(?:UserId|GroupId|User_Id)=([A-Za-z_][A-Za-z0-9._-]*)\()", 8,
        false, false, true },
    { RedactionCategory::User, RuleKind::Value, R"(\b[ug]id=[0-9]+\(([A-Za-z_][A-Za-z0-9._-]*)\))", 8, false, false,
        true },
    { RedactionCategory::User, RuleKind::Value,
        R"(\b(?:session (?:opened|closed) for user|(?:Accepted|Failed) [a-z-]+ for(?: invalid user)?) ([A-Za-z_][A-Za-z0-9._-]*))",
        8, false, true, true },
    // Uid contexts: only here are numbers uids.
    { RedactionCategory::Uid, RuleKind::Value,
        R"((?i)(?m)(?:^|[^A-Za-z0-9])_?(?:uid|gid|euid|egid|ruid|rgid|suid|fsuid|auid|ouid|ogid|loginuid)"
        R"(|audit_loginuid|systemd_owner_uid|userid|user_id|groupid|group_id)["']?[ \t]*[=:][ \t]*["']?([0-9]{1,10}))",
        8, false, true, false },
    { RedactionCategory::Uid, RuleKind::Value, R"(\b(?:UserId|GroupId)=[A-Za-z0-9._-]*\(([0-9]+)\))", 8, false, false,
        true },
    { RedactionCategory::Uid, RuleKind::Value, R"((?i)\b[ug]id[ \t]+([0-9]{1,10}))", 8, false, true, false },
    // Addresses.
    { RedactionCategory::Ip, RuleKind::Ipv4, R"(([0-9]{1,3}(?:\.[0-9]{1,3}){3}))", 9, false, false, true },
    // IPv6: eight groups, or a "::" (so that times such as 10:15:06 are never candidates).
    { RedactionCategory::Ip, RuleKind::Ipv6,
        R"(((?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}|(?:[0-9A-Fa-f]{1,4}:){1,6}(?::[0-9A-Fa-f]{1,4}){1,6})"
        R"(|(?:[0-9A-Fa-f]{1,4}:){1,7}:|::(?:[0-9A-Fa-f]{1,4}:){0,5}(?:[0-9]{1,3}(?:\.[0-9]{1,3}){3}|[0-9A-Fa-f]{1,4})))",
        9, false, false, true },
    // Host names under a common domain suffix.
    { RedactionCategory::Host, RuleKind::Fqdn,
        R"((?i)([a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)*)"
        R"(\.(?:com|net|org|io|ai|dev|cloud|local|localdomain|internal|intra|intranet|lan|corp|home|cluster|svc|edu)"
        R"(|gov|mil)))",
        10, true, true, false },
};

} // namespace

Redactor::Redactor(RedactionProfile profile)
    : m_profile(std::move(profile))
{
    auto add = [&](RedactionCategory cat, RuleKind kind, const std::string& regex, int priority, bool left, bool right,
                   bool caseSensitive, const std::string& stem) {
        Rule r;
        r.re = std::make_unique<RE2>(regex, ruleOptions(caseSensitive, false));
        r.kind = kind;
        r.category = cat;
        r.priority = priority;
        r.left = left;
        r.right = right;
        r.stem = stem;
        if (!r.re->ok()) {
            m_errors.push_back(makeDiagnostic(Severity::Error, "redact-profile-regex",
                "pattern '" + stem + "' does not compile: " + r.re->error(), m_profile.origin));
            return;
        }
        m_rules.push_back(std::move(r));
    };
    // The profile's own patterns first: between matches of the same span they win.
    for (const auto& p : m_profile.patterns)
        add(p.category, RuleKind::Value, p.regex, 0, false, false, true, p.name);
    for (const auto& b : kBuiltins)
        if (m_profile.covers(b.category))
            add(b.category, b.kind, b.regex, b.priority, b.left, b.right, b.caseSensitive, {});
    for (const auto& h : m_profile.hosts)
        addKnownHost(h);
    for (const auto& u : m_profile.users)
        addKnownUser(u);
}

Redactor::~Redactor() = default;

const Redactor::Rule* Redactor::ruleAt(std::size_t index) const
{
    if (index < m_rules.size())
        return &m_rules[index];
    switch (index - m_rules.size()) {
    case 0:
        return m_knownHosts.get();
    case 1:
        return m_hostStems.get();
    case 2:
        return m_knownUsers.get();
    default:
        return nullptr;
    }
}

bool Redactor::kept(std::string_view value) const
{
    const std::string l = lower(value);
    for (const auto& k : m_profile.keep) {
        const std::string kl = lower(k);
        if (l == kl)
            return true;
        if (!kl.empty() && l.size() > kl.size() && l.compare(l.size() - kl.size(), kl.size(), kl) == 0) {
            const char before = l[l.size() - kl.size() - 1];
            if (before == '.' || before == '@')
                return true;
        }
    }
    return false;
}

void Redactor::addKnownHost(std::string_view name)
{
    if (!m_profile.covers(RedactionCategory::Host) || name.empty() || kept(name) || placeholderHost(name))
        return;
    // A node named by its FQDN is known by its short name: domain labels are matched after a known name.
    std::string_view shortName = name;
    if (const auto dot = name.find('.'); dot != std::string_view::npos && !validIpv4(name)) {
        const std::string_view first = name.substr(0, dot);
        if (first.size() >= 2 && hasLetter(first))
            shortName = first;
    }
    if (shortName.size() < 2 || validIpv4(shortName) || !hasLetter(shortName) || kept(shortName))
        return;
    if (!m_prepared)
        m_pendingHosts.emplace_back(shortName);
    else
        hostSecret(shortName);
}

void Redactor::addKnownUser(std::string_view name)
{
    if (!m_profile.covers(RedactionCategory::User) || name.size() < 2 || kept(name) || systemUser(name)
        || allDigits(name))
        return;
    // Known at once, numbered when first met: an author's pseudonym follows the order of the texts like any user's.
    if (m_knownUserNames.insert(std::string(name)).second)
        m_knownDirty = true;
}

std::string Redactor::pseudonymFor(RedactionCategory c, std::size_t n, const std::string& stem) const
{
    switch (c) {
    case RedactionCategory::Host:
        return "host-" + letters(n - 1, m_hostWidth);
    case RedactionCategory::Ip:
        return "10.255." + std::to_string(n / 256) + "." + std::to_string(n % 256);
    case RedactionCategory::User:
        return "user-" + std::to_string(n);
    case RedactionCategory::Uid:
        return std::to_string(90000 + n);
    case RedactionCategory::Email:
        return "email-" + std::to_string(n) + "@example.invalid";
    case RedactionCategory::Path:
        return "path-" + std::to_string(n);
    case RedactionCategory::Token:
        return "[token-" + std::to_string(n) + "]";
    case RedactionCategory::Custom:
        return (stem.empty() ? std::string("custom") : stem) + "-" + std::to_string(n);
    }
    return "redacted";
}

std::size_t Redactor::secret(RedactionCategory c, std::string_view value, const std::string& stem)
{
    const bool folded = c == RedactionCategory::Host || c == RedactionCategory::Email;
    std::string key = folded ? lower(value) : std::string(value);
    if (const auto it = m_index.find({ c, key }); it != m_index.end())
        return it->second;
    Secret s;
    s.category = c;
    s.original = std::string(value);
    if (c == RedactionCategory::Ip && value.find(':') != std::string_view::npos) {
        char hex[24];
        std::snprintf(hex, sizeof hex, "%zx", ++m_numbers["ip6"]);
        s.pseudonym = std::string("fd00:ff::") + hex;
    } else {
        const std::string counter =
            std::string(redactionCategoryName(c)) + (c == RedactionCategory::Custom ? ":" + stem : std::string());
        s.pseudonym = pseudonymFor(c, ++m_numbers[counter], stem);
    }
    m_secrets.push_back(std::move(s));
    const std::size_t index = m_secrets.size() - 1;
    if (c == RedactionCategory::Host && m_knownHostNames.insert(key).second)
        m_knownDirty = true;
    if (c == RedactionCategory::User && m_profile.covers(RedactionCategory::User)
        && m_knownUserNames.insert(key).second)
        m_knownDirty = true;
    m_index.emplace(std::make_pair(c, std::move(key)), index);
    return index;
}

std::size_t Redactor::alias(RedactionCategory c, std::string_view value, const std::string& pseudonym)
{
    const bool folded = c == RedactionCategory::Host || c == RedactionCategory::Email;
    std::string key = folded ? lower(value) : std::string(value);
    if (const auto it = m_index.find({ c, key }); it != m_index.end())
        return it->second;
    m_secrets.push_back(Secret { c, std::string(value), pseudonym, 0 });
    m_index.emplace(std::make_pair(c, std::move(key)), m_secrets.size() - 1);
    return m_secrets.size() - 1;
}

std::size_t Redactor::hostSecret(std::string_view name)
{
    return secret(RedactionCategory::Host, name);
}

void Redactor::prepare()
{
    if (!m_prepared) {
        m_prepared = true;
        std::vector<std::string> names;
        for (const auto& h : m_pendingHosts)
            names.push_back(lower(h));
        std::sort(names.begin(), names.end());
        names.erase(std::unique(names.begin(), names.end()), names.end());
        // Wide enough that every known host's pseudonym has the same length, so they sort as the names do.
        for (std::size_t cap = 26; cap < names.size(); cap *= 26)
            ++m_hostWidth;
        for (const auto& n : names)
            hostSecret(n);
        m_pendingHosts.clear();
    }
    if (m_knownDirty)
        rebuildKnownMatchers();
}

void Redactor::rebuildKnownMatchers()
{
    m_knownDirty = false;
    auto alternation = [](const std::set<std::string>& names) {
        std::vector<std::string> sorted(names.begin(), names.end());
        std::sort(sorted.begin(), sorted.end(), [](const std::string& a, const std::string& b) {
            return a.size() != b.size() ? a.size() > b.size() : a < b;
        });
        std::string re;
        for (const auto& n : sorted)
            re += (re.empty() ? "" : "|") + RE2::QuoteMeta(n);
        return re;
    };
    auto build = [](std::unique_ptr<Rule>& slot, const std::string& alt, const std::string& suffix, RuleKind kind,
                     RedactionCategory cat, int priority, bool caseSensitive) {
        slot.reset();
        if (alt.empty())
            return;
        auto r = std::make_unique<Rule>();
        // Leftmost-longest: node-02 is never matched as node-0.
        r->re = std::make_unique<RE2>("((?:" + alt + ")" + suffix + ")", ruleOptions(caseSensitive, true));
        if (!r->re->ok())
            return;
        r->kind = kind;
        r->category = cat;
        r->priority = priority;
        r->left = true;
        r->right = true;
        slot = std::move(r);
    };
    build(m_knownHosts, alternation(m_knownHostNames), "", RuleKind::KnownHost, RedactionCategory::Host, 4, false);
    // Naming schemes of the known hosts: node-07 beside node-01. A stem is what is left after the trailing digits;
    // it must be long enough not to be a word ("gpu" is not a stem, "gpu-" and "login" are).
    std::set<std::string> stems;
    for (const auto& h : m_knownHostNames) {
        std::size_t end = h.size();
        while (end > 0 && std::isdigit(static_cast<unsigned char>(h[end - 1])))
            --end;
        if (end == h.size() || end < 3 || h.find('.') != std::string::npos)
            continue;
        const std::string stem = h.substr(0, end);
        const char last = stem.back();
        if (hasLetter(stem) && (last == '-' || last == '_' || stem.size() >= 5))
            stems.insert(stem);
    }
    build(m_hostStems, alternation(stems), "[0-9]+", RuleKind::HostStem, RedactionCategory::Host, 6, false);
    build(m_knownUsers, alternation(m_knownUserNames), "", RuleKind::KnownUser, RedactionCategory::User, 7, true);
}

namespace {

/// Extends a host name that ends at `end` over the domain labels after it (node-02.cluster.local), stopping before a
/// file extension (node-02.log, node-02.cluster.local.txt).
std::size_t domainEnd(std::string_view text, std::size_t end)
{
    std::vector<std::size_t> labelEnds;
    std::size_t p = end;
    while (p + 1 < text.size() && text[p] == '.' && std::isalpha(static_cast<unsigned char>(text[p + 1]))) {
        std::size_t q = p + 1;
        while (q < text.size() && (isAlnum(text[q]) || text[q] == '-'))
            ++q;
        labelEnds.push_back(q);
        p = q;
    }
    while (!labelEnds.empty()) {
        const std::size_t last = labelEnds.back();
        const std::size_t begin = labelEnds.size() >= 2 ? labelEnds[labelEnds.size() - 2] + 1 : end + 1;
        if (!fileExtension(text.substr(begin, last - begin)))
            break;
        labelEnds.pop_back();
    }
    return labelEnds.empty() ? end : labelEnds.back();
}

/// A host context's value looks like a host name: node-02, gpu17, login.example.org, a hostlist; not a word.
bool hostLike(std::string_view v)
{
    return v.size() >= 2 && hasLetter(v) && !placeholderHost(v) && std::any_of(v.begin(), v.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '[';
    });
}

} // namespace

void Redactor::collect(
    std::string_view text, const Rule& rule, std::size_t ruleIndex, std::vector<Candidate>& out) const
{
    const int groups = rule.re->NumberOfCapturingGroups();
    const int n = std::min(groups, 2) + 1;
    re2::StringPiece m[3];
    const re2::StringPiece input(text.data(), text.size());
    std::size_t pos = 0;
    const auto at = [&](const re2::StringPiece& p) { return static_cast<std::size_t>(p.data() - text.data()); };
    while (pos <= text.size() && rule.re->Match(input, pos, text.size(), RE2::UNANCHORED, m, n)) {
        const std::size_t mStart = at(m[0]);
        const std::size_t mEnd = mStart + m[0].size();
        const std::size_t retry = mStart + 1;
        Candidate c;
        c.rule = ruleIndex;
        c.priority = rule.priority;
        if (rule.kind == RuleKind::HomePath) {
            if (m[1].data() == nullptr || m[2].data() == nullptr) {
                pos = retry;
                continue;
            }
            c.start = at(m[1]);
            c.valueStart = at(m[2]);
            c.valueEnd = c.valueStart + m[2].size();
        } else {
            const re2::StringPiece& v = groups >= 1 && m[1].data() != nullptr ? m[1] : m[0];
            c.valueStart = at(v);
            c.valueEnd = c.valueStart + v.size();
            // A value right after an escape ("\nalice@example.com" in JSON text) starts after the escape's letter.
            if ((rule.kind == RuleKind::Value || rule.kind == RuleKind::Fqdn) && c.valueEnd > c.valueStart + 1
                && escapeBefore(text, c.valueStart + 1))
                ++c.valueStart;
            c.start = c.valueStart;
        }
        c.end = c.valueEnd;
        bool ok = c.valueEnd > c.valueStart && (!rule.left || boundaryBefore(text, c.valueStart))
            && (!rule.right || boundaryAfter(text, c.valueEnd));
        const auto digitAt = [&](std::size_t i) {
            return i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0;
        };
        if (ok && rule.kind == RuleKind::Ipv4)
            ok = !(c.valueStart > 0 && (digitAt(c.valueStart - 1) || text[c.valueStart - 1] == '.'))
                && !digitAt(c.valueEnd)
                && !(c.valueEnd < text.size() && text[c.valueEnd] == '.' && digitAt(c.valueEnd + 1));
        if (ok && rule.kind == RuleKind::Ipv6)
            ok = !(c.valueStart > 0 && (isAlnum(text[c.valueStart - 1]) || text[c.valueStart - 1] == ':'))
                && !(c.valueEnd < text.size() && (isAlnum(text[c.valueEnd]) || text[c.valueEnd] == ':'));
        if (ok && rule.category == RedactionCategory::Uid && c.valueEnd < text.size())
            ok = text[c.valueEnd] != '-' && text[c.valueEnd] != '.'; // a UUID or a version, not a uid
        if (!ok) {
            pos = retry;
            continue;
        }
        if (rule.kind == RuleKind::KnownHost || rule.kind == RuleKind::HostStem) {
            // The FQDN form is one span with the short name, so it wins over the FQDN pattern.
            const std::size_t fqdn = domainEnd(text, c.valueEnd);
            if (boundaryAfter(text, fqdn))
                c.end = fqdn;
        }
        out.push_back(c);
        pos = mEnd > mStart ? mEnd : retry;
    }
}

Redactor::HostNames Redactor::hostNames(std::string_view value) const
{
    HostNames out;
    if (value.find('[') == std::string_view::npos && value.find(',') == std::string_view::npos) {
        out.names.emplace_back(value);
        return out;
    }
    out.names = expandHostlist(value);
    // One number in brackets ("node-0[134]") is a Slurm hostlist of one host, or a regex's set of characters (a
    // PromQL selector for node-01, node-03 and node-04): whichever names known hosts.
    const auto open = value.find('[');
    const auto close = value.find(']');
    if (out.names.size() == 1 && close != std::string_view::npos && close > open + 2
        && value.find('[', open + 1) == std::string_view::npos && allDigits(value.substr(open + 1, close - open - 1))) {
        out.single = true;
        if (m_knownHostNames.count(lower(out.names.front())))
            return out;
        std::vector<std::string> set;
        for (const char d : value.substr(open + 1, close - open - 1))
            set.push_back(std::string(value.substr(0, open)) + d + std::string(value.substr(close + 1)));
        if (std::any_of(
                set.begin(), set.end(), [&](const std::string& n) { return m_knownHostNames.count(lower(n)) != 0; })) {
            out.names = std::move(set);
            out.separator = '|';
        }
    }
    return out;
}

bool Redactor::acceptable(std::string_view text, const Candidate& c) const
{
    const Rule& rule = *ruleAt(c.rule);
    const std::string_view value = text.substr(c.valueStart, c.valueEnd - c.valueStart);
    if (kept(value) || (c.end > c.valueEnd && kept(text.substr(c.start, c.end - c.start))))
        return false;
    switch (rule.kind) {
    case RuleKind::KnownHost:
    case RuleKind::HostStem:
    case RuleKind::KnownUser:
        return true;
    case RuleKind::Hostlist: {
        // Only a hostlist that names a host of the case (or of its naming scheme) is one.
        const HostNames h = hostNames(value);
        for (const auto& n : h.names) {
            if (m_knownHostNames.count(lower(n)))
                return true;
            if (m_hostStems && !(h.single && h.separator == ',')) {
                const re2::StringPiece in(n);
                if (RE2::FullMatch(in, *m_hostStems->re))
                    return true;
            }
        }
        return false;
    }
    case RuleKind::HostValue: {
        if (value.find('[') != std::string_view::npos || value.find(',') != std::string_view::npos) {
            const auto names = hostNames(value).names;
            return !names.empty() && std::all_of(names.begin(), names.end(), [&](const std::string& h) {
                return hostLike(h) && !kept(h);
            });
        }
        return hostLike(value) && !validIpv4(value);
    }
    case RuleKind::HomePath:
        return !systemUser(value);
    case RuleKind::Ipv4:
        return validIpv4(value);
    case RuleKind::Ipv6:
        return validIpv6(value);
    case RuleKind::Fqdn:
        // The domain of an e-mail address is the address's, kept when e-mail addresses are.
        if (c.valueStart > 0 && text[c.valueStart - 1] == '@' && !m_profile.covers(RedactionCategory::Email))
            return false;
        return !publicDomain(value);
    case RuleKind::Value:
        switch (rule.category) {
        case RedactionCategory::User:
            return value.size() >= 2 && !systemUser(value) && !allDigits(value);
        case RedactionCategory::Uid:
            return allDigits(value) && value != "0" && value != "65534" && value != "4294967295";
        case RedactionCategory::Token:
            return !placeholderToken(value);
        case RedactionCategory::Host:
            return value.size() >= 2 && !placeholderHost(value);
        default:
            return true;
        }
    }
    return true;
}

bool Redactor::known(std::string_view text, const Candidate& c) const
{
    const Rule& rule = *ruleAt(c.rule);
    const std::string_view value = text.substr(c.valueStart, c.valueEnd - c.valueStart);
    auto has = [&](RedactionCategory cat, std::string_view v) {
        const bool folded = cat == RedactionCategory::Host || cat == RedactionCategory::Email;
        return m_index.count({ cat, folded ? lower(v) : std::string(v) }) != 0;
    };
    switch (rule.kind) {
    case RuleKind::KnownHost:
    case RuleKind::KnownUser:
        return true;
    case RuleKind::Hostlist:
    case RuleKind::HostValue: {
        const auto names = hostNames(value).names;
        return !names.empty() && std::all_of(names.begin(), names.end(), [&](const std::string& n) {
            return has(RedactionCategory::Host, n);
        });
    }
    case RuleKind::HomePath:
        return has(RedactionCategory::User, value);
    case RuleKind::HostStem:
    case RuleKind::Fqdn:
        return has(RedactionCategory::Host, value);
    default:
        return has(rule.category, value);
    }
}

std::string Redactor::resolve(std::string_view text, const Candidate& c, std::vector<std::size_t>& used)
{
    const Rule& rule = *ruleAt(c.rule);
    const std::string_view value = text.substr(c.valueStart, c.valueEnd - c.valueStart);
    auto use = [&](std::size_t s) {
        used.push_back(s);
        return m_secrets[s].pseudonym;
    };
    switch (rule.kind) {
    case RuleKind::KnownHost:
    case RuleKind::HostStem: {
        const std::string pseudonym = m_secrets[hostSecret(value)].pseudonym;
        if (c.end > c.valueEnd) // the FQDN form, listed on its own with the short name's pseudonym
            return use(alias(RedactionCategory::Host, text.substr(c.start, c.end - c.start), pseudonym));
        return use(hostSecret(value));
    }
    case RuleKind::KnownUser:
        return use(secret(RedactionCategory::User, value));
    case RuleKind::Hostlist:
    case RuleKind::HostValue: {
        const HostNames h = hostNames(value);
        std::string out;
        for (const auto& n : h.names) {
            if (!out.empty())
                out += h.separator;
            // A host given by its FQDN is known by its short name too, when that looks like a node's (gpu17).
            const auto dot = n.find('.');
            const std::string shortName = n.substr(0, dot);
            if (dot != std::string::npos && rule.kind == RuleKind::HostValue && hostLike(shortName)
                && shortName.find('.') == std::string::npos && !validIpv4(n))
                out += use(alias(RedactionCategory::Host, n, m_secrets[hostSecret(shortName)].pseudonym));
            else
                out += use(hostSecret(n));
        }
        return out;
    }
    case RuleKind::HomePath: {
        const std::string prefix(text.substr(c.start, c.valueStart - c.start));
        const std::string user = m_secrets[secret(RedactionCategory::User, value)].pseudonym;
        return use(alias(RedactionCategory::Path, prefix + std::string(value), prefix + user));
    }
    default:
        return use(secret(rule.category, value, rule.stem));
    }
}

std::string Redactor::process(std::string_view text, Mode mode, std::vector<TextEdit>* edits, bool count)
{
    struct Chosen
    {
        Candidate span;
        std::string replacement;
    };
    std::vector<Chosen> chosen;
    std::vector<std::size_t> used;
    for (int round = 0; round < 2; ++round) {
        prepare();
        std::vector<Candidate> found;
        for (std::size_t r = 0; r < m_rules.size() + 3; ++r)
            if (const Rule* rule = ruleAt(r))
                collect(text, *rule, r, found);
        // Earliest first, then the rule's priority (a token inside a URL's credentials is a token, not the local
        // part of an e-mail address), then the longest; a match that starts inside an accepted one is dropped.
        std::sort(found.begin(), found.end(), [](const Candidate& a, const Candidate& b) {
            if (a.start != b.start)
                return a.start < b.start;
            if (a.priority != b.priority)
                return a.priority < b.priority;
            return a.end > b.end;
        });
        chosen.clear();
        used.clear();
        std::size_t reached = 0;
        for (const auto& c : found) {
            if (c.start < reached || !acceptable(text, c) || (mode == Mode::Known && !known(text, c)))
                continue;
            std::string replacement = resolve(text, c, used);
            reached = c.end;
            chosen.push_back({ c, std::move(replacement) });
        }
        // A value that became known in this text (user=alice) is replaced everywhere in it: read it once more.
        if (!(mode == Mode::Redact && round == 0 && m_knownDirty))
            break;
    }
    if (mode == Mode::Discover)
        return {};
    if (count)
        for (const std::size_t s : used)
            ++m_secrets[s].count;
    std::string out;
    out.reserve(text.size());
    std::size_t at = 0;
    for (const auto& [c, rep] : chosen) {
        out.append(text.substr(at, c.start - at));
        out += rep;
        if (edits)
            edits->push_back({ c.start, c.end - c.start, rep.size() });
        at = c.end;
    }
    out.append(text.substr(at));
    return out;
}

void Redactor::discover(std::string_view text)
{
    process(text, Mode::Discover, nullptr);
}

std::string Redactor::redact(std::string_view text, std::vector<TextEdit>* edits, bool count)
{
    return process(text, Mode::Redact, edits, count);
}

std::optional<std::string> Redactor::redactExact(std::string_view text)
{
    for (std::size_t c = 0; c < kRedactionCategories; ++c) {
        const auto cat = static_cast<RedactionCategory>(c);
        if (cat == RedactionCategory::Path)
            continue;
        const bool folded = cat == RedactionCategory::Host || cat == RedactionCategory::Email;
        const auto it = m_index.find({ cat, folded ? lower(text) : std::string(text) });
        if (it != m_index.end()) {
            ++m_secrets[it->second].count;
            return m_secrets[it->second].pseudonym;
        }
    }
    return std::nullopt;
}

std::string Redactor::redactKnown(std::string_view text)
{
    return process(text, Mode::Known, nullptr);
}

std::vector<Replacement> Redactor::replacements() const
{
    std::vector<Replacement> out;
    for (std::size_t c = 0; c < kRedactionCategories; ++c)
        for (const auto& s : m_secrets)
            if (static_cast<std::size_t>(s.category) == c)
                out.push_back({ s.category, s.original, s.pseudonym, s.count });
    return out;
}

void Redactor::resetCounts()
{
    for (auto& s : m_secrets)
        s.count = 0;
}

// ---- profiles ----------------------------------------------------------------------------------------------------

RedactionProfile defaultRedactionProfile()
{
    RedactionProfile p;
    // The built-in profile is identified by its rules: a change to them is another profile.
    Sha256 h;
    h.update("faultline redaction profile 'default'");
    for (const auto& b : kBuiltins) {
        h.update(std::string_view("\0", 1));
        h.update(redactionCategoryName(b.category));
        h.update(b.regex);
    }
    p.sha256 = h.hexDigest();
    return p;
}

namespace {

/// A problem in a profile file, at a YAML node.
struct ProfileError
{
    std::string code;
    std::string message;
    YAML::Mark mark;
};

class ProfileReader
{
public:
    ProfileReader(std::string_view text, std::string file)
        : m_text(text)
        , m_file(std::move(file))
    { }

    RedactionProfileLoad run()
    {
        RedactionProfileLoad out;
        YAML::Node root;
        try {
            root = YAML::Load(std::string(m_text));
        } catch (const YAML::ParserException& e) {
            add({ "redact-profile-yaml", "not valid YAML: " + e.msg, e.mark });
            out.diagnostics = std::move(m_diags);
            return out;
        } catch (const std::exception& e) {
            add({ "redact-profile-yaml", std::string("not valid YAML: ") + e.what(), YAML::Mark::null_mark() });
            out.diagnostics = std::move(m_diags);
            return out;
        }
        if (!yaml::isMap(root)) {
            add({ "redact-profile-value",
                "a redaction profile is a map of keys (name, extends, categories, keep, "
                "hosts, users, patterns)",
                root.IsDefined() ? root.Mark() : YAML::Mark::null_mark() });
            out.diagnostics = std::move(m_diags);
            return out;
        }
        RedactionProfile p = defaultRedactionProfile();
        p.origin = m_file;
        p.name = std::filesystem::path(m_file).stem().string();
        p.sha256 = Sha256::hex(m_text);
        try {
            read(root, p);
        } catch (const YAML::Exception& e) {
            add({ "redact-profile-yaml", "cannot read the profile: " + e.msg, e.mark });
        }
        out.diagnostics = std::move(m_diags);
        if (!hasErrors(out.diagnostics))
            out.profile = std::move(p);
        return out;
    }

private:
    void add(const ProfileError& e)
    {
        Diagnostic d = makeDiagnostic(Severity::Error, e.code, e.message, m_file);
        if (e.mark.line >= 0) {
            d.where.line = static_cast<std::uint64_t>(e.mark.line) + 1;
            d.where.column = static_cast<std::uint32_t>(e.mark.column) + 1;
            std::istringstream in { std::string(m_text) };
            std::string line;
            for (int i = 0; i <= e.mark.line && std::getline(in, line); ++i) { }
            d.snippet = line;
        }
        m_diags.push_back(std::move(d));
    }

    std::optional<std::string> scalar(const YAML::Node& n, const std::string& what)
    {
        if (!yaml::isScalar(n)) {
            add({ "redact-profile-value", what + " must be a single value", n.Mark() });
            return std::nullopt;
        }
        return n.Scalar();
    }

    std::optional<bool> boolean(const YAML::Node& n, const std::string& what)
    {
        const auto s = scalar(n, what);
        if (!s)
            return std::nullopt;
        if (*s == "true" || *s == "yes" || *s == "on")
            return true;
        if (*s == "false" || *s == "no" || *s == "off")
            return false;
        add({ "redact-profile-value", what + " must be true or false, not '" + *s + "'", n.Mark() });
        return std::nullopt;
    }

    std::vector<std::string> list(const YAML::Node& n, const std::string& what)
    {
        std::vector<std::string> out;
        if (!yaml::isSequence(n)) {
            add({ "redact-profile-value", what + " must be a list", n.Mark() });
            return out;
        }
        for (const auto& item : n)
            if (auto s = scalar(item, "an entry of " + what); s && !s->empty())
                out.push_back(*s);
        return out;
    }

    void read(const YAML::Node& root, RedactionProfile& p)
    {
        static const std::set<std::string, std::less<>> kKeys { "name", "extends", "categories", "keep", "hosts",
            "users", "patterns" };
        for (const auto& kv : root) {
            const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string();
            if (!kKeys.count(key))
                add({ "redact-profile-key",
                    "unknown key '" + key + "' (name, extends, categories, keep, hosts, users, patterns)",
                    kv.first.Mark() });
        }
        if (const YAML::Node ext = root["extends"]; ext.IsDefined()) {
            if (const auto s = scalar(ext, "'extends'")) {
                if (*s == "none")
                    p.enabled.fill(false);
                else if (*s != "default")
                    add({ "redact-profile-value",
                        "'extends' names the built-in profile 'default' or 'none', not '" + *s + "'", ext.Mark() });
            }
        }
        if (const YAML::Node n = root["name"]; n.IsDefined())
            if (const auto s = scalar(n, "'name'"))
                p.name = *s;
        if (const YAML::Node cats = root["categories"]; cats.IsDefined()) {
            if (!yaml::isMap(cats)) {
                add({ "redact-profile-value", "'categories' must be a map (hosts: true, emails: false, ...)",
                    cats.Mark() });
            } else {
                for (const auto& kv : cats) {
                    const std::string name = kv.first.IsScalar() ? kv.first.Scalar() : std::string();
                    const auto c = redactionCategoryFrom(name);
                    if (!c || *c == RedactionCategory::Custom) {
                        add({ "redact-profile-key",
                            "unknown category '" + name + "' (hosts, ips, users, uids, emails, paths, tokens)",
                            kv.first.Mark() });
                        continue;
                    }
                    if (const auto on = boolean(kv.second, "category '" + name + "'"))
                        p.enabled[static_cast<std::size_t>(*c)] = *on;
                }
            }
        }
        for (const auto& [key, target] :
            { std::pair { "keep", &p.keep }, std::pair { "hosts", &p.hosts }, std::pair { "users", &p.users } })
            if (const YAML::Node n = root[key]; n.IsDefined())
                for (auto& v : list(n, std::string("'") + key + "'"))
                    target->push_back(std::move(v));
        if (const YAML::Node pats = root["patterns"]; pats.IsDefined()) {
            if (!yaml::isSequence(pats)) {
                add({ "redact-profile-value", "'patterns' must be a list of {name, regex, category}", pats.Mark() });
                return;
            }
            std::set<std::string> names;
            for (const auto& item : pats)
                readPattern(item, p, names);
        }
    }

    void readPattern(const YAML::Node& item, RedactionProfile& p, std::set<std::string>& names)
    {
        if (!yaml::isMap(item)) {
            add({ "redact-profile-value", "a pattern is a map {name, regex, category}", item.Mark() });
            return;
        }
        for (const auto& kv : item) {
            const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string();
            if (key != "name" && key != "regex" && key != "category")
                add({ "redact-profile-key", "unknown key '" + key + "' in a pattern (name, regex, category)",
                    kv.first.Mark() });
        }
        RedactionPattern rp;
        rp.where.file = m_file;
        rp.where.line = static_cast<std::uint64_t>(std::max(0, item.Mark().line)) + 1;
        rp.where.column = static_cast<std::uint32_t>(std::max(0, item.Mark().column)) + 1;
        const YAML::Node name = item["name"];
        const YAML::Node regex = item["regex"];
        if (!name.IsDefined() || !regex.IsDefined()) {
            add({ "redact-profile-value", "a pattern needs a name (its pseudonym's stem) and a regex", item.Mark() });
            return;
        }
        const auto n = scalar(name, "a pattern's name");
        const auto r = scalar(regex, "a pattern's regex");
        if (!n || !r)
            return;
        static const RE2 kStem("[A-Za-z][A-Za-z0-9_-]{0,31}");
        if (!RE2::FullMatch(*n, kStem)) {
            add({ "redact-profile-value",
                "a pattern's name is its pseudonym's stem: a letter, then letters, digits, '-' or '_' (not '" + *n
                    + "')",
                name.Mark() });
            return;
        }
        if (!names.insert(*n).second) {
            add({ "redact-profile-value", "two patterns are named '" + *n + "'", name.Mark() });
            return;
        }
        const RE2 compiled(*r, ruleOptions(true, false));
        if (!compiled.ok()) {
            add({ "redact-profile-regex", "pattern '" + *n + "': the regex does not compile: " + compiled.error(),
                regex.Mark() });
            return;
        }
        if (RE2::FullMatch("", compiled)) {
            add({ "redact-profile-regex", "pattern '" + *n + "': the regex matches the empty text", regex.Mark() });
            return;
        }
        if (const YAML::Node cat = item["category"]; cat.IsDefined()) {
            const auto c = scalar(cat, "a pattern's category");
            if (!c)
                return;
            const auto parsed = redactionCategoryFrom(*c);
            if (!parsed || *parsed == RedactionCategory::Path) {
                add({ "redact-profile-value",
                    "unknown pattern category '" + *c + "' (custom, hosts, ips, users, uids, emails, tokens)",
                    cat.Mark() });
                return;
            }
            rp.category = *parsed;
        }
        rp.name = *n;
        rp.regex = *r;
        p.patterns.push_back(std::move(rp));
    }

    std::string_view m_text;
    std::string m_file;
    std::vector<Diagnostic> m_diags;
};

} // namespace

RedactionProfileLoad parseRedactionProfile(std::string_view yaml, const std::string& file)
{
    return ProfileReader(yaml, file).run();
}

RedactionProfileLoad loadRedactionProfile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        RedactionProfileLoad out;
        out.diagnostics.push_back(makeDiagnostic(Severity::Error, "redact-profile-io",
            "cannot read the redaction profile (give 'default' or a profile file)", path));
        return out;
    }
    std::ostringstream text;
    text << in.rdbuf();
    return parseRedactionProfile(text.str(), path);
}

RedactionProfileLoad redactionProfile(const std::string& nameOrPath)
{
    if (nameOrPath.empty() || nameOrPath == "default") {
        RedactionProfileLoad out;
        out.profile = defaultRedactionProfile();
        return out;
    }
    return loadRedactionProfile(nameOrPath);
}

} // namespace faultline::core
