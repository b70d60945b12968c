// SPDX-License-Identifier: Apache-2.0
// Internal to the kubectl text readers (events tables, describe): what kubectl's human-readable output shares. Ages
// relative to when kubectl ran, Go text/tabwriter tables, and event rows written as the JSON importers write them.
#pragma once

#include "importers/file_parse.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace faultline::importers::kubectl {

/// Splits on runs of spaces; returns the tokens with their byte offsets.
std::vector<std::pair<std::string_view, std::size_t>> tokens(std::string_view s);

/// An age as kubectl prints it (apimachinery duration.HumanDuration and ShortHumanDuration): "45s", "2m30s", "10m",
/// "3h20m", "2d5h", "400d", "1y30d". The text is rounded down to its smallest unit, which `unitNs` gives.
bool parseAge(std::string_view s, std::int64_t& ageNs, std::int64_t& unitNs);

/// An age cell: "76s", "<unknown>", or describe's / kubectl events' "76s (x4 over 10m)".
struct Age
{
    std::string_view last; ///< the last-seen age as printed
    std::string_view first; ///< the first-seen age, when the cell says "over ..."
    std::uint64_t count = 0;
};

/// Splits an age cell into its last-seen age, its first-seen age and its count.
Age splitAge(std::string_view cell);

/// Notes once per file how relative ages were treated.
void noteRelativeAges(FileParse& fp, std::uint64_t line, std::uint64_t off, std::int64_t referenceNs, bool& noted);

/// A column of a table Go's text/tabwriter printed: it pads every cell of a column to the column's width (counted
/// in code points), so each column starts where its header word starts.
struct Column
{
    std::string name; ///< upper case, single spaces ("LAST SEEN")
    std::size_t start = 0; ///< code point index
};

/// Header cells separated by two spaces or more ("LAST SEEN   TYPE   REASON").
std::vector<Column> headerColumns(std::string_view line);

/// Index of the column named `name`, or -1.
int columnIndex(const std::vector<Column>& cols, std::string_view name);

/// Cells of `line` under `cols`; false when the row does not line up (a cell boundary falls inside a word).
bool alignedCells(std::string_view line, const std::vector<Column>& cols, std::vector<std::string_view>& cells);

/// A row of an events table or of describe's Events section.
struct EventRow
{
    std::string_view ns;
    std::string_view lastSeen;
    std::string_view firstSeen;
    std::string_view type;
    std::string_view reason;
    std::string_view object; ///< "pod/x" (get events), "Pod/x" (kubectl events), "node" (no name)
    std::string_view source; ///< "kubelet, node-02" (wide), "kubelet" (describe)
    std::string_view message;
    std::uint64_t count = 0;
};

/// Writes one event record. `objKind`/`objName` name the object; `node` is what the caller knows of its node.
void addEventRecord(FileParse& fp, const BundleContext& ctx, const EventRow& r, const std::string& objKind,
    std::string_view objName, std::string_view node, std::uint64_t line, std::uint64_t off, std::size_t len,
    std::int64_t referenceNs);

/// The manifest's collected_at: the moment kubectl's relative ages count back from (INT64_MIN when unknown).
std::int64_t referenceTime(const BundleContext& ctx);

} // namespace faultline::importers::kubectl
