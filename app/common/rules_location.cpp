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

std::string userRulesDir()
{
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg == '/')
        return (fs::path(xdg) / "faultline" / "rules").string();
    if (const char* home = std::getenv("HOME"); home && *home)
        return (fs::path(home) / ".config" / "faultline" / "rules").string();
    return {};
}

std::optional<core::CatalogSources> catalogSources(const RulesChoice& choice, const char* argv0, std::string& error)
{
    core::CatalogSources sources;
    sources.root = choice.catalogDir;
    std::vector<std::string> packs;
    std::error_code ec;
    for (const auto& dir : choice.ruleDirs) {
        if (!fs::exists(fs::path(dir) / "catalog.yaml", ec)) {
            packs.push_back(dir);
            continue;
        }
        if (!sources.root.empty()) {
            error = "two whole catalogs given (" + sources.root + " and " + dir
                + "): one catalog, with rule pack directories (no catalog.yaml) layered on it";
            return std::nullopt;
        }
        sources.root = dir;
    }
    if (sources.root.empty())
        sources.root = defaultRulesDir(argv0);
    if (choice.userRules)
        if (const std::string user = userRulesDir(); !user.empty() && fs::is_directory(user, ec))
            sources.packDirs.push_back(user);
    sources.packDirs.insert(sources.packDirs.end(), packs.begin(), packs.end());
    return sources;
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
