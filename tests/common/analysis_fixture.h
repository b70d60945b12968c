// SPDX-License-Identifier: Apache-2.0
// A bundle imported and analysed with the bundled catalog, as the views receive it (tests of views and models).
#pragma once

#include "core/analysis/analyzer.h"
#include "importers/bundle_loader.h"
#include "tests/common/test_helpers.h"
#include "views/models/analysis_result.h"

#include <memory>
#include <string>

namespace faultline::tests {

/// `rel` is a bundle path relative to the source tree, e.g. "resources/samples/bundle-48213".
inline views::AnalysisResult analysedBundle(const std::string& rel)
{
    views::AnalysisResult r;
    auto evidence = std::make_shared<core::EvidenceSet>(importers::loadBundle({ sourcePath(rel) }));
    r.verdict = std::make_shared<core::Verdict>(core::analyze(*evidence, *bundledCatalog()));
    r.evidence = std::move(evidence);
    r.catalog = bundledCatalog();
    return r;
}

} // namespace faultline::tests
