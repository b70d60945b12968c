// SPDX-License-Identifier: Apache-2.0
// Line-by-line access to the raw text of the evidence files, for viewers that show only the lines on screen. Two
// sources implement it: the bytes of a collected bundle in memory (inputText) and a case file's stored chunks
// (caseText, in core/casefile). Views read evidence through this interface, never through SQLite.
//
// Thread contract: every call may be made from any thread; implementations serialise what they share.
#pragma once

#include "core/model/bundle_input.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace faultline::core {

class EvidenceText
{
public:
    virtual ~EvidenceText() = default;

    virtual std::size_t fileCount() const = 0;
    /// The file's display path ("nodes/node-02/dmesg.txt").
    virtual std::string path(std::size_t file) const = 0;
    /// The file with this display path.
    virtual std::optional<std::size_t> find(std::string_view path) const = 0;
    /// Number of lines (a last line without a newline counts).
    virtual std::uint64_t lineCount(std::size_t file) = 0;
    /// Line `line` (1-based) without its newline, at most `maxBytes` of it; nullopt when there is no such line.
    virtual std::optional<std::string> line(std::size_t file, std::uint64_t line, std::size_t maxBytes = 4096) = 0;
};

/// The text of a collected bundle's files. The input's bytes stay alive with it. Line offsets are indexed per file
/// on first use (one pass over that file).
std::shared_ptr<EvidenceText> inputText(std::shared_ptr<const BundleInput> input);

} // namespace faultline::core
