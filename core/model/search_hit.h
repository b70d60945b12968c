// SPDX-License-Identifier: Apache-2.0
// One line of evidence that matched a search: what the search use case returns and the search pane lists.
#pragma once

#include "core/model/evidence.h"

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>

namespace faultline::core {

struct SearchHit
{
    std::size_t file = 0; ///< index into BundleInput::files
    std::string path; ///< the file's display path
    std::uint64_t line = 0; ///< 1-based
    std::uint64_t byteOffset = 0; ///< of the line's first byte in the file
    std::uint32_t matchStart = 0; ///< bytes from the line's start (may lie past a cut `text`)
    std::uint32_t matchLength = 0; ///< bytes (0 for an empty match)
    std::string node; ///< the record's node, else the file's host; "" when neither is known
    std::int64_t timeNs = INT64_MIN; ///< the record's time; INT64_MIN when no timed record holds the line
    std::int64_t observation = -1; ///< index into EvidenceSet::observations of that record, or -1
    SourceKind kind = SourceKind::Other; ///< the file's source kind
    std::string text; ///< the line without its newline, capped (cut at a UTF-8 boundary)
    bool textCut = false;
};

} // namespace faultline::core
