// SPDX-License-Identifier: Apache-2.0
// Renders a verdict as JSON (schema: resources/schema/verdict.schema.json) or as readable text in the style of
// a compiler diagnostic. Both are deterministic: no wall-clock time, stable ordering.
#pragma once

#include "core/model/verdict.h"

#include <string>

namespace faultline::core {

std::string verdictToJson(const Verdict& verdict, const EvidenceSet& evidence);

struct TextOptions
{
    bool color = false;
    std::size_t maxTrail = 40;
};
std::string verdictToText(const Verdict& verdict, const EvidenceSet& evidence, const TextOptions& options = {});

/// "file:line" of a provenance record.
std::string locationOf(const Provenance& p, const EvidenceSet& evidence);
/// "3,5,8-15"
std::string formatRankList(const std::vector<std::int32_t>& ranks);

} // namespace faultline::core
