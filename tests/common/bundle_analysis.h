// SPDX-License-Identifier: Apache-2.0
// A bundle collected, imported and analysed with the bundled catalog, keeping the raw input (what saving it as a case
// needs): the starting point of the core tests of the case file, annotations and the story.
#pragma once

#include "core/analysis/analyzer.h"
#include "core/model/bundle_input.h"
#include "core/model/evidence.h"
#include "core/model/verdict.h"
#include "importers/bundle_loader.h"
#include "tests/common/test_helpers.h"

#include <string>
#include <vector>

namespace faultline::tests {

struct AnalysedBundle
{
    core::BundleInput input;
    core::EvidenceSet evidence;
    core::Verdict verdict;
};

inline AnalysedBundle analyseBundle(const std::vector<std::string>& paths)
{
    AnalysedBundle a;
    a.input = importers::collectBundle(paths);
    a.evidence = importers::importBundle(a.input);
    a.verdict = core::analyze(a.evidence, *bundledCatalog());
    return a;
}

} // namespace faultline::tests
