// SPDX-License-Identifier: Apache-2.0
// The formats the import reads: for each format id, its source kind, its parser and how the import treats it
// (cut into chunks, read first for the scope, untimed records placed between their neighbours).
#pragma once

#include "core/model/evidence.h"
#include "importers/file_parse.h"

#include <string_view>

namespace faultline::importers {

struct FormatInfo
{
    const char* id;
    core::SourceKind kind;
    void (*parse)(FileParse&, const BundleContext&);
    bool lineOriented; ///< records never span lines: a large file can be parsed in chunks
    bool scoping = false; ///< read first (the scope phase): it names the workload, its nodes and window
    /// Records without a time are placed between their timed neighbours. Not for kubectl's text output: there a
    /// record without a time has a relative age, and its neighbours' times say nothing about it.
    bool placeUntimed = true;
};

/// The format named `id`, or null when there is none.
const FormatInfo* formatInfo(std::string_view id);

/// Runs the format's parser on `fp`. A parser that throws leaves what it read, status error and a parser-exception
/// warning.
void runParser(const FormatInfo& format, FileParse& fp, const BundleContext& ctx);

} // namespace faultline::importers
