// SPDX-License-Identifier: Apache-2.0
// Loki stream labels → the node and rank of the stream's records. The labels depend on
// the shipping agent's relabel configuration, so several spellings are accepted, most specific first.
#include "importers/loki/loki_parsers.h"

#include <charconv>

namespace faultline::importers {

namespace {

std::string_view labelValue(const LokiLabels& labels, std::string_view name)
{
    for (const auto& [k, v] : labels)
        if (k == name)
            return v;
    return {};
}

std::string_view firstLabel(const LokiLabels& labels, std::initializer_list<std::string_view> names)
{
    for (std::string_view n : names)
        if (const std::string_view v = labelValue(labels, n); !v.empty())
            return v;
    return {};
}

/// "node-03:9080" → "node-03", "10.0.0.3:9100" → "10.0.0.3", "[fd00::3]:9100" → "fd00::3".
std::string_view withoutPort(std::string_view instance)
{
    if (!instance.empty() && instance.front() == '[') {
        const auto close = instance.find(']');
        return close == std::string_view::npos ? instance.substr(1) : instance.substr(1, close - 1);
    }
    const auto colon = instance.find(':');
    if (colon != std::string_view::npos && instance.find(':', colon + 1) == std::string_view::npos)
        return instance.substr(0, colon);
    return instance; // a bare IPv6 address has no port to strip
}

} // namespace

bool lokiKernelStream(const LokiLabels& labels)
{
    return labelValue(labels, "transport") == "kernel"
        || labelValue(labels, "job").find("journal") != std::string_view::npos;
}

StreamIdentity lokiStreamIdentity(const LokiLabels& labels, const BundleContext& ctx)
{
    StreamIdentity id;
    // Node, most specific first:
    //  1. the pod's node from Kubernetes service discovery (__meta_kubernetes_pod_node_name): node_name (Promtail's
    //     Helm chart, Grafana Alloy's Kubernetes pipelines), kubernetes_node_name, k8s_node_name (OpenTelemetry
    //     k8sattributes), then nodename and node (other relabel configurations);
    //  2. the pod label through pods.json (spec.nodeName), when no label names the node;
    //  3. the shipping agent's own host: hostname (journald's _HOSTNAME, Alloy's constants.hostname), host (static
    //     labels), instance (a scrape-style "host:port" target, port stripped, an IP mapped through the manifest).
    // Kubernetes labels name the node the pod ran on; the agent's host is only the collector's name, so ranked
    // records first take their rank's node and the agent's host only fills what is left (applied when merging).
    id.node = firstLabel(labels, { "node_name", "kubernetes_node_name", "k8s_node_name", "nodename", "node" });
    const std::string_view pod = firstLabel(labels, { "pod", "pod_name", "k8s_pod_name", "kubernetes_pod_name" });
    if (id.node.empty() && !pod.empty())
        if (auto it = ctx.podToNode.find(std::string(pod)); it != ctx.podToNode.end())
            id.node = it->second;
    if (id.node.empty()) {
        id.node = firstLabel(labels, { "hostname", "host" });
        if (id.node.empty()) {
            id.node = withoutPort(labelValue(labels, "instance"));
            if (auto it = ctx.ipToHost.find(std::string(id.node)); it != ctx.ipToHost.end())
                id.node = it->second;
        }
        id.agentHost = !id.node.empty();
    }
    // A file on a shared filesystem (a Slurm job log) is tailed by one collector; whatever node label
    // the stream carries is that collector's, never the writer's. Only a pod's own log (pod identity, or a file under
    // /var/log/ of the node) and the kernel's are the labelled node's.
    const bool podLog = !pod.empty() || !labelValue(labels, "container").empty();
    const std::string_view file = labelValue(labels, "filename");
    const bool sharedFile =
        (!file.empty() && file.substr(0, 9) != "/var/log/") || !labelValue(labels, "slurm_job_id").empty();
    if (!podLog && sharedFile && !lokiKernelStream(labels)) {
        id.node = {};
        id.agentHost = false;
    }
    // Rank: a label some pipelines copy from the pod's RANK environment or index annotation.
    const std::string_view rank = firstLabel(labels, { "rank", "global_rank" });
    std::int32_t r = -1;
    if (!rank.empty() && std::from_chars(rank.data(), rank.data() + rank.size(), r).ptr == rank.data() + rank.size()
        && r >= 0)
        id.rank = r;
    return id;
}

} // namespace faultline::importers
