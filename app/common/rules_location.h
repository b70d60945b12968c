// SPDX-License-Identifier: Apache-2.0
// Where the rule catalog comes from. The bundled catalog: $FAULTLINE_RULES, then next to the installed binary
// (../share/faultline/rules), then the source tree the binary was built from. On top of it, rule pack layers: the
// user's own directory ($XDG_CONFIG_HOME/faultline/rules) when it exists, then the directories a front end was given
// (--rules DIR, the workbench's Rule Packs setting). The bundled sample is found like the bundled catalog.
#pragma once

#include "core/rules/rule_catalog.h"

#include <optional>
#include <string>
#include <vector>

namespace faultline::app {

std::string defaultRulesDir(const char* argv0);
/// The bundled sample incident (bundle-48213): next to the installed binary (../share/faultline/samples), then the
/// source tree. Empty when neither exists.
std::string defaultSampleDir(const char* argv0);

/// The user's own rule packs: $XDG_CONFIG_HOME/faultline/rules, or ~/.config/faultline/rules when XDG_CONFIG_HOME is
/// unset, empty or not absolute (as the XDG base directory specification says). Empty when HOME is not set either.
/// Whether it exists is not checked.
std::string userRulesDir();

/// What a front end was asked for.
struct RulesChoice
{
    std::string catalogDir; ///< --catalog: a whole catalog instead of the bundled one; empty: the bundled one
    std::vector<std::string> ruleDirs; ///< --rules, in the order given
    bool userRules = true; ///< false: --no-user-rules
};

/// The catalog's sources: `catalogDir` (or the bundled catalog), then the user's directory when `userRules` and it
/// exists, then each of `ruleDirs`. A `ruleDirs` entry holding catalog.yaml is a whole catalog, not a pack layer: it
/// replaces the bundled one as `catalogDir` does (what --rules DIR has always meant for such a directory). Nullopt,
/// with `error` set, when two whole catalogs are given.
std::optional<core::CatalogSources> catalogSources(const RulesChoice& choice, const char* argv0, std::string& error);

} // namespace faultline::app
