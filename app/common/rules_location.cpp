// SPDX-License-Identifier: Apache-2.0
#include "app/common/rules_location.h"

#include <cstdlib>
#include <filesystem>

namespace fs = std::filesystem;

namespace faultline::app {

std::string defaultRulesDir(const char* argv0)
{
    if (const char* env = std::getenv("FAULTLINE_RULES"); env && *env)
        return env;
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec && argv0)
        exe = fs::absolute(argv0, ec);
    const fs::path installed = exe.parent_path().parent_path() / "share" / "faultline" / "rules";
    if (fs::exists(installed / "catalog.yaml", ec))
        return installed.string();
    return FAULTLINE_SOURCE_RULES_DIR;
}

} // namespace faultline::app
