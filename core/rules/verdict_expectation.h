// SPDX-License-Identifier: Apache-2.0
// The expected verdict of a multi-source rule case (`expected.yaml` beside a case bundle), and the check of an
// actual verdict against it. Used by `faultline-cli rules test` and the sample tests.
#pragma once

#include "core/model/verdict.h"
#include "core/util/diagnostic.h"

#include <optional>
#include <string>
#include <vector>

namespace faultline::core {

struct VerdictExpectation
{
    std::string outcome;
    std::string causeType;
    std::string causeNode;
    std::vector<std::pair<std::string, std::string>> causeFields;
    std::optional<std::vector<std::string>> blamedNodes;
    std::optional<std::vector<std::string>> symptomNodes;
    std::vector<std::string> missing; ///< "kind:node" or "kind" that coverage must report missing
};

/// Reads an expected.yaml; on error returns nullopt and appends a located diagnostic.
std::optional<VerdictExpectation> readExpectation(const std::string& path, std::vector<Diagnostic>& diags);

/// Empty when the verdict meets the expectation; otherwise one line per mismatch.
std::vector<std::string> checkExpectation(const VerdictExpectation& expected, const Verdict& actual);

} // namespace faultline::core
