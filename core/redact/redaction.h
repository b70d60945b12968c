// SPDX-License-Identifier: Apache-2.0
// Redaction for sharing a case: a profile says what to hide (host names, IP addresses, user names, uids, e-mail
// addresses, home directories, tokens, and custom patterns) and a Redactor replaces each secret with a pseudonym that
// stays the same everywhere it appears (node-02 is host-b in every text of an export).
//
// How secrets are found. Known values (the case's node names, its authors, names a profile lists, and every value
// found in a context such as "user=alice", "uid 1004", "NodeList=node-[01-04]" or "/home/alice") are replaced
// wherever they appear as a whole word, including a host's FQDN forms (node-02.cluster.local) and Slurm hostlists
// (node-[01-04]). Self-identifying values (IP addresses, e-mail addresses, tokens such as hf_... or ghp_..., host
// names under a common domain suffix) are found by pattern. Uids are replaced only in a context that names them a
// uid, never as bare numbers. Matching is line by line: no secret and no pseudonym spans a newline, so a redacted
// text keeps its line count and every line number.
//
// Pseudonyms: host-a, host-b, ... (lower case, as the engine normalises node names: a copy re-analysed reads the
// same names its stored runs give), 10.255.0.1 (fd00:ff::1 for IPv6), user-1, 90001 for uids, email-1@example.invalid,
// /home/user-1, [token-1], and NAME-1 for a profile's pattern NAME.
//
// Determinism. Pseudonyms are numbered in the order values are met: first the known hosts registered before
// anything is read, in name order (so a sorted list of nodes stays sorted), then every value in the order
// discover() or redact() meets it. Two runs over the same texts in the same order give the same pseudonyms, so a
// report and a redacted copy of one case agree when both first discover the case in the same order.
//
// Thread contract: a Redactor is one mutable object (it assigns pseudonyms and counts); use it from one thread at a
// time. Pure C++ (RE2, yaml-cpp): no case file, no Qt.
#pragma once

#include "core/util/diagnostic.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace faultline::core {

enum class RedactionCategory : std::uint8_t { Host, Ip, User, Uid, Email, Path, Token, Custom };
inline constexpr std::size_t kRedactionCategories = 8;

/// "host", "ip", "user", "uid", "email", "path", "token", "custom".
const char* redactionCategoryName(RedactionCategory c);
/// The category a profile names ("hosts" or "host", ...); nullopt when it names none.
std::optional<RedactionCategory> redactionCategoryFrom(std::string_view name);

/// A pattern a profile adds. Its first capture group is the secret (the whole match when it has none).
struct RedactionPattern
{
    std::string name; ///< the pseudonym's stem: name "ticket" gives ticket-1, ticket-2, ...
    std::string regex; ///< RE2
    RedactionCategory category = RedactionCategory::Custom; ///< another category shares that one's pseudonyms
    SourceLocation where; ///< where the profile defines it
};

struct RedactionProfile
{
    std::string name = "default";
    std::string origin = "built-in"; ///< the profile file's path, or "built-in"
    std::string sha256; ///< of the profile file's bytes; of the built-in profile's definition for "default"
    std::array<bool, kRedactionCategories> enabled { true, true, true, true, true, true, true, true };
    /// Values never replaced (case-insensitive; an entry "example.com" also keeps every name under that domain).
    std::vector<std::string> keep;
    std::vector<std::string> hosts; ///< host names to replace wherever they appear, beside the case's nodes
    std::vector<std::string> users; ///< user names to replace wherever they appear
    std::vector<RedactionPattern> patterns;

    bool covers(RedactionCategory c) const { return enabled[static_cast<std::size_t>(c)]; }
};

/// The built-in profile "default": every category on, no custom pattern.
RedactionProfile defaultRedactionProfile();

struct RedactionProfileLoad
{
    std::optional<RedactionProfile> profile;
    std::vector<Diagnostic> diagnostics; ///< located: file:line:col, with a stable code
    bool ok() const { return profile.has_value(); }
};

/// Reads a profile file (YAML):
///
///     name: share-with-vendor        # default: the file's name
///     extends: default               # or none: start with every category off
///     categories: {emails: false}    # hosts, ips, users, uids, emails, paths, tokens: true or false
///     keep: [login-01, nvidia.com]   # values never replaced
///     hosts: [spare-node-9]          # more names to replace
///     users: [carol]
///     patterns:
///       - {name: ticket, regex: 'INC[0-9]{7}'}          # ticket-1, ticket-2, ...
///       - {name: rack, regex: 'rack-([a-z][0-9]+)', category: hosts}
///
/// Every problem is a located error (redact-profile-yaml, -key, -value, -regex); any error fails the load.
RedactionProfileLoad loadRedactionProfile(const std::string& path);
/// The same from text (`file` names it in diagnostics).
RedactionProfileLoad parseRedactionProfile(std::string_view yaml, const std::string& file);
/// "default" (or "") is the built-in profile; anything else is a profile file.
RedactionProfileLoad redactionProfile(const std::string& nameOrPath);

/// One secret and its pseudonym, with how often redact() replaced it.
struct Replacement
{
    RedactionCategory category = RedactionCategory::Custom;
    std::string original;
    std::string pseudonym;
    std::uint64_t count = 0;
};

/// One replaced span of a redacted text, in the input's bytes: [offset, offset + oldLength) became newLength bytes.
struct TextEdit
{
    std::size_t offset = 0;
    std::size_t oldLength = 0;
    std::size_t newLength = 0;
};

class Redactor
{
public:
    /// Compiles the profile's rules. A profile pattern that does not compile is reported in errors() and skipped
    /// (loadRedactionProfile already refuses such a profile, with its location).
    explicit Redactor(RedactionProfile profile);
    ~Redactor();
    Redactor(const Redactor&) = delete;
    Redactor& operator=(const Redactor&) = delete;

    const RedactionProfile& profile() const { return m_profile; }
    const std::vector<Diagnostic>& errors() const { return m_errors; }

    /// Registers a host name (a node of the case). Known hosts get their pseudonyms in name order when the first
    /// text is read; their short and FQDN forms are replaced wherever they appear.
    void addKnownHost(std::string_view name);
    /// Registers a user name (an author of the case), replaced wherever it appears as a word.
    void addKnownUser(std::string_view name);

    /// Reads a text for secrets without changing it: values in a context become known, every secret gets its
    /// pseudonym in the order met. Nothing is counted.
    void discover(std::string_view text);
    /// The text with every secret replaced; `edits` (when given) receives the replaced spans in order. `count` false
    /// leaves the counts alone (for a text that repeats one counted elsewhere).
    std::string redact(std::string_view text, std::vector<TextEdit>* edits = nullptr, bool count = true);
    /// The pseudonym of a text that is, as a whole, a known secret of any category (a uid "1004" in a JSON
    /// field, where no context names it); nullopt otherwise. Counted as a replacement.
    std::optional<std::string> redactExact(std::string_view text);

    /// The text with only the secrets already known replaced: nothing new is learnt or numbered. For texts that are
    /// not evidence (a rule catalog) and whose own names and numbers are not secrets.
    std::string redactKnown(std::string_view text);

    /// Every secret met so far with its pseudonym and count, by category, then in the order met.
    std::vector<Replacement> replacements() const;
    /// Sets every count back to zero (a preview's discovery pass is not counted).
    void resetCounts();

private:
    struct Rule;
    struct Secret;
    struct Candidate;
    enum class Mode { Discover, Redact, Known };
    struct HostNames
    {
        std::vector<std::string> names;
        char separator = ','; ///< how the replacement joins their pseudonyms ('|' for a regex's set)
        bool single = false; ///< one number in brackets
    };

    std::string process(std::string_view text, Mode mode, std::vector<TextEdit>* edits, bool count = true);
    const Rule* ruleAt(std::size_t index) const;
    void collect(std::string_view text, const Rule& rule, std::size_t ruleIndex, std::vector<Candidate>& out) const;
    /// The hosts a host value or hostlist names.
    HostNames hostNames(std::string_view value) const;
    bool acceptable(std::string_view text, const Candidate& c) const;
    /// The candidate resolves to secrets that exist already (Mode::Known).
    bool known(std::string_view text, const Candidate& c) const;
    /// The candidate's replacement; the secrets it uses are appended to `used` (counted once the text is done).
    std::string resolve(std::string_view text, const Candidate& c, std::vector<std::size_t>& used);
    void prepare();
    /// The index of the secret (category, value), created with the next pseudonym when new.
    std::size_t secret(RedactionCategory c, std::string_view value, const std::string& stem = {});
    /// Another spelling of a secret (an FQDN, a home path): listed on its own with the given pseudonym.
    std::size_t alias(RedactionCategory c, std::string_view value, const std::string& pseudonym);
    std::size_t hostSecret(std::string_view name);
    std::string pseudonymFor(RedactionCategory c, std::size_t number, const std::string& stem) const;
    bool kept(std::string_view value) const;
    void rebuildKnownMatchers();

    RedactionProfile m_profile;
    std::vector<Diagnostic> m_errors;
    std::vector<Rule> m_rules;
    std::vector<std::string> m_pendingHosts; ///< registered before the first text: numbered in name order
    std::vector<Secret> m_secrets;
    std::map<std::pair<RedactionCategory, std::string>, std::size_t> m_index; ///< (category, key) → m_secrets
    std::map<std::string, std::size_t> m_numbers; ///< the last number given per category or custom stem
    std::set<std::string> m_knownHostNames; ///< lower case
    std::set<std::string> m_knownUserNames;
    std::size_t m_hostWidth = 1; ///< letters in a host pseudonym
    bool m_prepared = false;
    bool m_knownDirty = true;
    std::unique_ptr<Rule> m_knownHosts;
    std::unique_ptr<Rule> m_hostStems;
    std::unique_ptr<Rule> m_knownUsers;
};

} // namespace faultline::core
