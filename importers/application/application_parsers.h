// SPDX-License-Identifier: Apache-2.0
// Application output: a job's log (the ranks' stdout and stderr as srun, torchrun or mpirun wrote them) and text of
// no known format. Each parser fills `fp` from fp.data.
#pragma once

#include "importers/file_parse.h"

namespace faultline::importers {

void parseJobLog(FileParse& fp, const BundleContext& ctx);
void parseGenericText(FileParse& fp, const BundleContext& ctx);

} // namespace faultline::importers
