// SPDX-License-Identifier: Apache-2.0
// Imports an evidence bundle (a directory, a single file, or several paths) into an EvidenceSet: reads the
// optional manifest, detects each file's format (and says why), scopes the workload from scheduler data, parses
// the files in parallel and merges them deterministically (the phases are declared in bundle/phases.h).
//
// Thread contract: loadBundle may be called from any thread; it polls `cancel` between files and every 64 Ki
// lines, and reports progress through `progress` from the calling thread only.
#pragma once

#include "core/model/bundle_input.h"
#include "core/model/evidence.h"
#include "importers/support/archive_reader.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace faultline::importers {

struct LoadOptions
{
    std::string jobId; ///< pick this job when the scheduler data holds several
    unsigned threads = 0; ///< 0: hardware concurrency
    const std::atomic_bool* cancel = nullptr;
    ArchiveLimits archiveLimits;
    /// Parts parsed of all; the file of the part just parsed and its format id ("" for both at the end).
    std::function<void(std::size_t done, std::size_t total, const std::string& file, const std::string& format)>
        progress;
};

/// Detects a file's format from its first bytes and name. Returns the format id and fills `reason`.
std::string detectFormat(std::string_view head, const std::string& fileName, std::string& reason);

/// Lists the bundle path(s) and reads (maps) every file: the raw input of an import, which a case file can store.
core::BundleInput collectBundle(const std::vector<std::string>& paths, const LoadOptions& options = {});

/// Imports collected input. The same input gives the same evidence set, whether it came from the bundle or from a
/// case file. The input's bytes must outlive the evidence set only through their owners (kept alive by it).
core::EvidenceSet importBundle(const core::BundleInput& input, const LoadOptions& options = {});

/// collectBundle then importBundle.
core::EvidenceSet loadBundle(const std::vector<std::string>& paths, const LoadOptions& options = {});

} // namespace faultline::importers
