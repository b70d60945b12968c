// SPDX-License-Identifier: Apache-2.0
#include "importers/bundle/formats.h"

#include "importers/application/application_parsers.h"
#include "importers/fabric_manager/fabric_manager_parsers.h"
#include "importers/kernel/kernel_parsers.h"
#include "importers/kubernetes/kubernetes_parsers.h"
#include "importers/loki/loki_parsers.h"
#include "importers/prometheus/prometheus_parsers.h"
#include "importers/slurm/slurm_parsers.h"

#include <exception>
#include <string>

namespace faultline::importers {

using core::SourceKind;

namespace {

constexpr FormatInfo kFormats[] = {
    { "sacct-parsable2", SourceKind::Scheduler, parseSacctParsable, false, true },
    { "sacct-table", SourceKind::Scheduler, parseSacctTable, false, true },
    { "sacct-json", SourceKind::Scheduler, parseSacctJson, false, true },
    { "kueue-workload", SourceKind::Scheduler, parseKueueWorkload, false, true },
    { "k8s-pods-json", SourceKind::Kubernetes, parseK8sPods, false },
    { "k8s-events-json", SourceKind::Kubernetes, parseK8sEvents, false },
    { "kubectl-events-table", SourceKind::Kubernetes, parseKubectlEventsTable, false, false, false },
    { "kubectl-describe", SourceKind::Kubernetes, parseKubectlDescribe, false, false, false },
    { "k8s-component-log", SourceKind::Kubernetes, parseComponentLog, true },
    { "kubectl-logs", SourceKind::AppLog, parseKubectlLogs, true },
    { "cri-log", SourceKind::AppLog, parseCriLog, false },
    { "docker-json", SourceKind::AppLog, parseDockerJson, false },
    { "slurmctld-log", SourceKind::Scheduler, parseSlurmDaemonLog, true },
    { "slurmd-log", SourceKind::Scheduler, parseSlurmDaemonLog, true },
    { "slurm-joblog", SourceKind::AppLog, parseJobLog, true },
    { "journal-json", SourceKind::Kernel, parseJournalJson, true },
    { "dmesg-raw", SourceKind::Kernel, parseDmesg, true },
    { "syslog", SourceKind::Kernel, parseSyslog, true },
    { "fabricmanager-log", SourceKind::FabricManager, parseFabricManager, true },
    { "logcli-jsonl", SourceKind::AppLog, parseLogcliJsonl, true },
    { "loki-query-range", SourceKind::AppLog, parseLokiQueryRange, false },
    { "promql-snapshot", SourceKind::Metrics, parsePromql, false },
    { "prometheus-query-range", SourceKind::Metrics, parsePromql, false },
    { "scontrol", SourceKind::Scheduler, parseScontrol, false, true },
    { "prometheus-text", SourceKind::Metrics, parsePromText, false },
    { "logcli-text", SourceKind::AppLog, parseLogcliText, true },
    { "logcli-raw", SourceKind::AppLog, parseLogcliText, true },
    { "text", SourceKind::Other, parseGenericText, true },
};

} // namespace

const FormatInfo* formatInfo(std::string_view id)
{
    for (const auto& f : kFormats)
        if (id == f.id)
            return &f;
    return nullptr;
}

void runParser(const FormatInfo& format, FileParse& fp, const BundleContext& ctx)
{
    try {
        format.parse(fp, ctx);
    } catch (const std::exception& e) {
        fp.source.status = core::CoverageStatus::Error;
        fp.warn(0, 0, "parser-exception", std::string("import failed: ") + e.what());
    }
}

} // namespace faultline::importers
