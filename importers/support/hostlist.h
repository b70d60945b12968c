// SPDX-License-Identifier: Apache-2.0
// Slurm hostlist expressions: "node[01-04,07],gpu-a[1-2]" → node01 node02 node03 node04 node07 gpu-a1 gpu-a2.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace faultline::importers {

/// Expands a hostlist; nullopt when the expression is malformed (unbalanced brackets, bad range) or would
/// expand to more than `limit` names.
std::optional<std::vector<std::string>> expandHostlist(std::string_view expr, std::size_t limit = 100000);

} // namespace faultline::importers
