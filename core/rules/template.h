// SPDX-License-Identifier: Apache-2.0
// Field templates used by rules: "Xid {code} {meaning}", "{pci|pci}", "{intrinfo|bits:20:25}", "{host|lower}".
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace faultline::core {

/// Returns the value of a named field, or nullptr when it is unknown.
using FieldLookup = std::function<const std::string*(std::string_view)>;

/// Expands `{name}` and `{name|filter[:arg...]}`; unknown names expand to "". Filters: lower, upper, pci, int,
/// bits:LO:HI (decimal value of bits LO..HI of a hex or decimal number), default:TEXT.
std::string expandTemplate(std::string_view tpl, const FieldLookup& lookup);

/// Normalises any PCI spelling to "dddd:bb:dd.f" lower case: "PCI:0000:c3:00", "00000000:C3:00.0", NCCL busId
/// "c3000". Returns "" when the text is not a PCI address.
std::string normalisePci(std::string_view s);

} // namespace faultline::core
