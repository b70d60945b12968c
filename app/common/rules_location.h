// SPDX-License-Identifier: Apache-2.0
// Where the bundled rule catalog lives: --rules, then $FAULTLINE_RULES, then next to the installed binary
// (../share/faultline/rules), then the source tree the binary was built from.
#pragma once

#include <string>

namespace faultline::app {

std::string defaultRulesDir(const char* argv0);

} // namespace faultline::app
