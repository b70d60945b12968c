// SPDX-License-Identifier: Apache-2.0
// Where the bundled rule catalog lives: --rules, then $FAULTLINE_RULES, then next to the installed binary
// (../share/faultline/rules), then the source tree the binary was built from. The bundled sample is found the same
// way.
#pragma once

#include <string>

namespace faultline::app {

std::string defaultRulesDir(const char* argv0);
/// The bundled sample incident (bundle-48213): next to the installed binary (../share/faultline/samples), then the
/// source tree. Empty when neither exists.
std::string defaultSampleDir(const char* argv0);

} // namespace faultline::app
