// SPDX-License-Identifier: Apache-2.0
// Saved cases for tests of the use cases: a run added with a rule pack layered on the bundled catalog.
#pragma once

#include "app/usecases/use_cases.h"
#include "tests/common/test_helpers.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

namespace faultline::tests {

/// A run added to a case: the analysis it stores and its id.
struct RunWithPack
{
    usecases::Analysis analysis;
    std::int64_t run = 0;
};

/// Re-runs the case at `casePath` with the bundled catalog and a pack that disables `disabledRule`, and adds that
/// run to the case. Fails the calling test (and returns nothing) when a step fails.
inline std::optional<RunWithPack> addRunWithRuleDisabled(const std::string& casePath, const std::string& disabledRule)
{
    QTemporaryDir pack;
    std::filesystem::create_directories(pack.path().toStdString() + "/packs");
    std::ofstream(pack.path().toStdString() + "/packs/quiet.yaml")
        << "pack: quiet\ndescription: Without " << disabledRule << ".\ndisable: [" << disabledRule << "]\n";
    usecases::ReproduceRequest rerun;
    rerun.casePath = casePath;
    rerun.rules = usecases::Rules::Current;
    rerun.currentRulesDir = sourcePath("rules");
    rerun.currentPackDirs = { pack.path().toStdString() };
    auto again = usecases::reproduceCase(rerun);
    if (!again.ok()) {
        QTest::qFail(again.failure.text().c_str(), __FILE__, __LINE__);
        return std::nullopt;
    }
    const auto added = usecases::addRun(*again.value);
    if (!added.ok()) {
        QTest::qFail(added.failure.text().c_str(), __FILE__, __LINE__);
        return std::nullopt;
    }
    return RunWithPack { std::move(*again.value), added.value->id };
}

} // namespace faultline::tests
