// SPDX-License-Identifier: Apache-2.0
// Runs the own tests of every extractor, metric rule and aggregate (rules/packs/*.yaml, key `tests`) against the
// whole catalog, so a test also catches a rule that another rule shadows or supersedes.
#pragma once

#include "core/rules/rule_catalog.h"

#include <string>
#include <vector>

namespace faultline::core {

struct RuleTestResult
{
    std::string ruleId;
    RuleOrigin origin;
    bool passed = false;
    std::string message; ///< what differed, for a failure
};

/// Every rule's tests, or only those of the rule `onlyRule` (still run against the whole catalog).
std::vector<RuleTestResult> runRuleTests(const RuleCatalog& catalog, const std::string& onlyRule = {});

} // namespace faultline::core
