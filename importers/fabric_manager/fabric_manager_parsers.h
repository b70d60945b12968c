// SPDX-License-Identifier: Apache-2.0
// NVIDIA Fabric Manager's log (fabricmanager.log). The parser fills `fp` from fp.data.
#pragma once

#include "importers/file_parse.h"

namespace faultline::importers {

void parseFabricManager(FileParse& fp, const BundleContext& ctx);

} // namespace faultline::importers
