// SPDX-License-Identifier: Apache-2.0
// Prometheus: query_range / query API responses (and the promql-snapshot envelope around one) and the text
// exposition format of a scrape. Both give metric series, not records. Each parser fills `fp` from fp.data.
#pragma once

#include "importers/file_parse.h"

namespace faultline::importers {

void parsePromql(FileParse& fp, const BundleContext& ctx);
void parsePromText(FileParse& fp, const BundleContext& ctx);

/// Fills a metric series' name, node (Hostname/node labels, else the scrape instance's IP via the manifest, else the
/// file's host), GPU index and device from its labels (sorted here).
void identifyMetric(core::MetricSeries& ms, FileParse& fp, const BundleContext& ctx);

} // namespace faultline::importers
