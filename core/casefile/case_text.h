// SPDX-License-Identifier: Apache-2.0
// The stored evidence of a case file as EvidenceText: each line is one indexed lookup and one chunk away, so a
// viewer can show any line of a multi-gigabyte case without loading it.
#pragma once

#include "core/model/evidence_text.h"
#include "core/util/diagnostic.h"

#include <memory>
#include <string>
#include <vector>

namespace faultline::core {

/// Opens the case read-only on its own connection. Null (and `errors`) when it cannot be opened.
std::shared_ptr<EvidenceText> caseText(const std::string& casePath, std::vector<Diagnostic>& errors);

} // namespace faultline::core
