// SPDX-License-Identifier: Apache-2.0
// The phases of a bundle import after collectBundle, in the order importBundle runs them. Each phase runs on the
// calling thread.
#pragma once

#include "core/model/bundle_input.h"
#include "importers/bundle/manifest.h"
#include "importers/file_parse.h"

#include <vector>

namespace faultline::importers {

struct FormatInfo;

/// The import's files as the detect phase leaves them: one FileParse per input file, in input order, and its format
/// (null when the file is not parsed: unreadable, or an archive inside the bundle).
struct DetectedFiles
{
    std::vector<FileParse> files;
    std::vector<const FormatInfo*> formats;
};

/// Detect: each input file's format (the manifest's, else detectFormat's from its first 4 KiB and its name) and what
/// the manifest or the file's path says about it (host, zone, labels, boot time). Unreadable files, archives inside
/// the bundle, members an archive read cut short and formats the manifest names wrongly get their warning here.
DetectedFiles detectFiles(const std::vector<core::InputFile>& inputs, const Manifest& manifest);

} // namespace faultline::importers
