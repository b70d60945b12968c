// SPDX-License-Identifier: Apache-2.0
#include "app/common/rules_location.h"

#include <cstdlib>
#include <filesystem>

namespace fs = std::filesystem;

namespace faultline::app {

namespace {

/// ../share/faultline next to the running binary.
fs::path installedDataDir(const char* argv0)
{
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec && argv0)
        exe = fs::absolute(argv0, ec);
    return exe.parent_path().parent_path() / "share" / "faultline";
}

} // namespace

std::string defaultRulesDir(const char* argv0)
{
    if (const char* env = std::getenv("FAULTLINE_RULES"); env && *env)
        return env;
    std::error_code ec;
    const fs::path installed = installedDataDir(argv0) / "rules";
    if (fs::exists(installed / "catalog.yaml", ec))
        return installed.string();
    return FAULTLINE_SOURCE_RULES_DIR;
}

std::string defaultSampleDir(const char* argv0)
{
    std::error_code ec;
    for (const fs::path& dir : { installedDataDir(argv0) / "samples" / "bundle-48213",
             fs::path(FAULTLINE_SOURCE_SAMPLES_DIR) / "bundle-48213" })
        if (fs::exists(dir / "faultline.yaml", ec))
            return dir.string();
    return {};
}

} // namespace faultline::app
