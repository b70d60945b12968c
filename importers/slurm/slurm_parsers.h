// SPDX-License-Identifier: Apache-2.0
// Slurm: accounting (sacct -P, sacct's default table, sacct --json), scontrol show job/node, and the slurmctld/slurmd
// logs. The accounting and scontrol readers also state the workload's scope (SchedulerFacts). Each parser fills `fp`
// from fp.data.
#pragma once

#include "importers/file_parse.h"

namespace faultline::importers {

void parseSacctParsable(FileParse& fp, const BundleContext& ctx);
void parseSacctTable(FileParse& fp, const BundleContext& ctx);
/// Whether `header` and `rule` are sacct's default table heading: column names (JobID among them) over a line of
/// dash runs.
bool sacctTableHeader(std::string_view header, std::string_view rule);
void parseSacctJson(FileParse& fp, const BundleContext& ctx);
void parseScontrol(FileParse& fp, const BundleContext& ctx);
void parseSlurmDaemonLog(FileParse& fp, const BundleContext& ctx);

} // namespace faultline::importers
