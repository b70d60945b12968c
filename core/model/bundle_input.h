// SPDX-License-Identifier: Apache-2.0
// The raw input of one import: every file of the bundle with its bytes, the manifest's text and what the archive
// reader reported. The importers collect it from directories and archives; a case file stores it and gives it back,
// so a saved case re-imports without the original bundle and yields the same evidence.
#pragma once

#include "core/model/evidence.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace faultline::core {

struct InputFile
{
    std::string path; ///< display path, relative to the bundle root ("nodes/node-02/dmesg.txt")
    std::string origin; ///< where it was read: an absolute path, "bundle.tar.gz!/member", or "case:<file id>"
    std::string_view bytes; ///< the file's content (kept alive by `owner`)
    std::shared_ptr<const void> owner;
    bool readable = true; ///< false: the file could not be read; `readError` says why and `bytes` is empty
    std::string readError;
    bool cut = false; ///< the archive read stopped inside this member
    std::int64_t mtimeNs = INT64_MIN; ///< last write time (archive members: the archive's)
};

/// An archive whose read stopped early (truncated, corrupt, or past a decompression-bomb limit). The import reports
/// it as a source of its own, so coverage shows the gap.
struct ArchiveStop
{
    std::string path; ///< the archive's display path
    bool partial = false; ///< some members were read before the stop
    std::uint64_t bytes = 0; ///< the archive's size on disk
    std::string code; ///< "archive-corrupt" | "archive-limit"
    std::string message; ///< located, with how many members were read
};

struct BundleInput
{
    std::string root; ///< the first bundle path as given
    std::vector<InputFile> files; ///< sorted per bundle path by display path, manifest excluded
    bool hasManifest = false;
    bool manifestReadable = true;
    std::string manifestPath; ///< display path of faultline.yaml
    std::string manifestText;
    std::vector<ArchiveStop> archiveStops;
    std::vector<Diagnostic> diagnostics; ///< problems found while listing the bundle
};

} // namespace faultline::core
