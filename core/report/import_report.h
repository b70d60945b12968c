// SPDX-License-Identifier: Apache-2.0
// The import report: for each source its format and why it was chosen, host, zone, time range, counts, warnings
// and status, plus the workload scope and the coverage per expected source kind.
#pragma once

#include "core/model/verdict.h"

#include <string>
#include <vector>

namespace faultline::core {

std::string importReportToText(const EvidenceSet& evidence, const std::vector<CoverageEntry>& coverage);
std::string importReportToJson(const EvidenceSet& evidence, const std::vector<CoverageEntry>& coverage);

class JsonWriter;
/// Writes a source's identity and counts (path, format and why, kind, host, zone, status, bytes, lines, records,
/// skipped) as fields of the JSON object being written; the import report and the verdict report share it.
void writeSourceFields(JsonWriter& w, const EvidenceSet& evidence, const Source& source);
/// Writes a coverage entry's kind, node, status, reason and records as fields of the current JSON object.
void writeCoverageFields(JsonWriter& w, const CoverageEntry& entry);

} // namespace faultline::core
