// SPDX-License-Identifier: Apache-2.0
// Whose metric a series is: the same labels name the node and GPU whether the series came from the API or a scrape.
#include "importers/prometheus/prometheus_parsers.h"

#include <algorithm>
#include <charconv>

namespace faultline::importers {

void identifyMetric(core::MetricSeries& ms, FileParse& fp, const BundleContext& ctx)
{
    std::sort(ms.labels.begin(), ms.labels.end());
    std::string host;
    for (const auto& [k, v] : ms.labels) {
        if (k == "__name__")
            ms.name = v;
        else if (k == "Hostname" || k == "hostname" || k == "node" || k == "nodename" || k == "kubernetes_node")
            host = v;
        else if (k == "gpu")
            std::from_chars(v.data(), v.data() + v.size(), ms.gpu);
        else if (k == "device" && ms.device.empty())
            ms.device = v;
        else if (k == "port")
            ms.device += (ms.device.empty() ? "port " : " port ") + v;
    }
    // dcgm-exporter's Hostname can be the pod's name; the scrape target's address names the node.
    if (host.empty())
        for (const auto& [k, v] : ms.labels)
            if (k == "instance") {
                const std::string ip = v.substr(0, v.find(':'));
                auto it = ctx.ipToHost.find(ip);
                host = it != ctx.ipToHost.end() ? it->second : ip;
            }
    if (host.empty())
        host = fp.hostName; // a per-node scrape file
    if (!host.empty())
        ms.node = fp.internHost(host);
}

} // namespace faultline::importers
