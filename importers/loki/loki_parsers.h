// SPDX-License-Identifier: Apache-2.0
// Loki exports: logcli --output=jsonl, logcli's default and raw text output, and query_range API responses. A
// stream's labels say whose records it carries (loki_labels.cpp); its application lines go through
// AppLogLineReader, its kernel lines become kernel records. Each parser fills `fp` from fp.data.
#pragma once

#include "importers/application/app_log_line_reader.h"
#include "importers/file_parse.h"

#include <string_view>
#include <utility>
#include <vector>

namespace faultline::importers {

void parseLogcliJsonl(FileParse& fp, const BundleContext& ctx);
void parseLogcliText(FileParse& fp, const BundleContext& ctx);
void parseLokiQueryRange(FileParse& fp, const BundleContext& ctx);

/// Labels of one Loki stream or record as (name, value); the first entry of a name wins, so a record's own labels
/// go before the manifest's common labels.
using LokiLabels = std::vector<std::pair<std::string_view, std::string_view>>;

/// The node, rank and pod-derived node a Loki stream's labels give its records (priority order documented in
/// loki_labels.cpp). A job log on a shared filesystem carries the collector's labels: there no
/// label names the record's node.
StreamIdentity lokiStreamIdentity(const LokiLabels& labels, const BundleContext& ctx);
/// A kernel stream (transport="kernel", or a journald job): its records are the labelled host's, whatever the file.
bool lokiKernelStream(const LokiLabels& labels);

} // namespace faultline::importers
