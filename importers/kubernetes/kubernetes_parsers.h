// SPDX-License-Identifier: Apache-2.0
// Kubernetes and Kueue: container logs (kubectl logs --timestamps, CRI, docker json-file), objects (events and pods
// as JSON, Kueue Workloads as YAML or JSON), kubectl's text output (events tables, describe) and the logs of the
// cluster's GPU components (device plugin, GPU operator). Each parser fills `fp` from fp.data.
#pragma once

#include "importers/file_parse.h"

#include <map>
#include <string>
#include <string_view>

namespace faultline::importers {

void parseKubectlLogs(FileParse& fp, const BundleContext& ctx);
void parseCriLog(FileParse& fp, const BundleContext& ctx);
void parseDockerJson(FileParse& fp, const BundleContext& ctx);
void parseK8sEvents(FileParse& fp, const BundleContext& ctx);
void parseK8sPods(FileParse& fp, const BundleContext& ctx);
void parseKueueWorkload(FileParse& fp, const BundleContext& ctx);
void parseKubectlEventsTable(FileParse& fp, const BundleContext& ctx);
void parseKubectlDescribe(FileParse& fp, const BundleContext& ctx);
void parseComponentLog(FileParse& fp, const BundleContext& ctx);

/// Quotes a free-text value for the "key=value" text of a Kubernetes record (the JSON and the kubectl text readers
/// write the same text, so one rule matches both): '"' becomes '\"' and a newline the two characters "\n".
std::string quoteRecordValue(std::string_view s);

/// kubectl's text output by its first lines: "kubectl-events-table", "kubectl-describe", or "" (sets `reason`).
std::string_view kubectlTextFormat(std::string_view head, std::string& reason);
/// True when `line` has the envelope of a Kubernetes component's log: klog ("I1102 10:15:01.123456 1 file.go:12] "),
/// Go's log package ("2026/11/02 10:15:01 ") or logrus/slog text ('time="..." level=').
bool componentLogLine(std::string_view line);

/// Pod name → node name from a pods JSON file (a v1 List or a single Pod); empty when the text is not one.
std::map<std::string, std::string> podNodesFromJson(std::string_view bytes);

} // namespace faultline::importers
