// SPDX-License-Identifier: Apache-2.0
// Container logs as kubectl, the CRI runtime and docker write them: each record's collector stamp is exact, and its
// application line goes through AppLogLineReader. A container log's host is the manifest's or the path's, else the
// node of the pod its path names.
#include "importers/application/app_log_line_reader.h"
#include "importers/kubernetes/kubernetes_parsers.h"
#include "importers/support/json_support.h"

#include <simdjson.h>

namespace faultline::importers {

using core::CivilTime;
using core::kNsPerSec;
using simdjson::SUCCESS;
namespace dom = simdjson::dom;
using json::stringAt;

namespace {

/// Host of a container log: the manifest/path host, else the pod named in the path (pod JSON gives its node).
void containerHost(FileParse& fp, const BundleContext& ctx)
{
    if (!fp.hostName.empty())
        return;
    for (const auto& [pod, node] : ctx.podToNode)
        if (fp.source.path.find(pod) != std::string::npos) {
            fp.hostName = node;
            return;
        }
}

} // namespace

// kubectl logs --timestamps: "<RFC3339Nano> <line>"; the stamp is the runtime's capture time.
void parseKubectlLogs(FileParse& fp, const BundleContext& ctx)
{
    containerHost(fp, ctx);
    AppLogLineReader app(fp, ctx);
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        CivilTime t;
        const std::size_t used = core::parseIsoTime(line, t);
        if (used == 0 || !t.hasOffset || used >= line.size() || line[used] != ' ') {
            if (!line.empty())
                fp.warn(no, off, "kubectl-no-time", "line does not start with an RFC 3339 timestamp; time is inferred");
            if (!line.empty())
                app.read(line, no, off, line.size());
            return true;
        }
        const std::int64_t ns = core::civilAsUtcNs(t) - static_cast<std::int64_t>(t.offsetSeconds) * kNsPerSec;
        app.read(line.substr(used + 1), no, off, line.size(), ns);
        return true;
    });
    app.flush();
}

// CRI (kubelet) files: "<RFC3339Nano> <stdout|stderr> <P|F>[:tags] <content>"; P partials join the next F.
void parseCriLog(FileParse& fp, const BundleContext& ctx)
{
    containerHost(fp, ctx);
    AppLogLineReader app(fp, ctx);
    std::string pending[2];
    std::uint64_t pendingLine[2] = { 0, 0 };
    std::uint64_t pendingOff[2] = { 0, 0 };
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (line.empty())
            return true;
        CivilTime t;
        const std::size_t used = core::parseIsoTime(line, t);
        std::string_view rest = used ? line.substr(used) : std::string_view();
        const bool ok = used > 0 && t.hasOffset && (rest.substr(0, 8) == " stdout " || rest.substr(0, 8) == " stderr ");
        if (!ok || rest.size() < 10 || (rest[8] != 'P' && rest[8] != 'F')) {
            fp.warn(no, off, "cri-malformed", "not a CRI log line (<time> <stream> <P|F> <content>); kept as text");
            app.read(line, no, off, line.size());
            return true;
        }
        const int stream = rest[1] == 's' && rest[4] == 'e' ? 1 : 0; // stderr : stdout
        const bool partial = rest[8] == 'P';
        std::size_t content = 9;
        while (content < rest.size() && rest[content] != ' ')
            ++content; // optional ":tags"
        const std::string_view text = content < rest.size() ? rest.substr(content + 1) : std::string_view();
        if (pending[stream].empty()) {
            pendingLine[stream] = no;
            pendingOff[stream] = off;
        }
        pending[stream].append(text);
        if (partial)
            return true;
        const std::int64_t ns = core::civilAsUtcNs(t) - static_cast<std::int64_t>(t.offsetSeconds) * kNsPerSec;
        const std::string_view joined = fp.arena->store(pending[stream]);
        app.read(joined, pendingLine[stream], pendingOff[stream], off + line.size() - pendingOff[stream], ns);
        pending[stream].clear();
        return true;
    });
    for (int s = 0; s < 2; ++s)
        if (!pending[s].empty()) {
            fp.warn(pendingLine[s], pendingOff[s], "cri-partial", "a partial (P) record has no final (F) record; kept");
            app.read(fp.arena->store(pending[s]), pendingLine[s], pendingOff[s], pending[s].size());
        }
    app.flush();
}

// docker json-file: {"log":"...\n","stream":"stderr","time":"..."}; a "log" without "\n" continues on the next.
void parseDockerJson(FileParse& fp, const BundleContext& ctx)
{
    containerHost(fp, ctx);
    AppLogLineReader app(fp, ctx);
    dom::parser parser;
    std::string pending;
    std::uint64_t pendingLine = 0;
    std::uint64_t pendingOff = 0;
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (line.empty())
            return true;
        dom::element doc;
        if (auto err = parser.parse(line.data(), line.size()).get(doc); err != SUCCESS) {
            fp.warn(no, off, "json-malformed",
                std::string("docker log record is not valid JSON (") + simdjson::error_message(err) + "); skipped");
            return true;
        }
        const std::string_view log = stringAt(doc, "log");
        if (pending.empty()) {
            pendingLine = no;
            pendingOff = off;
        }
        pending.append(log);
        if (pending.empty() || pending.back() != '\n')
            return true;
        pending.pop_back();
        std::int64_t ns = INT64_MIN;
        CivilTime t;
        const std::string_view time = stringAt(doc, "time");
        if (core::parseIsoTime(time, t) > 0 && t.hasOffset)
            ns = core::civilAsUtcNs(t) - static_cast<std::int64_t>(t.offsetSeconds) * kNsPerSec;
        app.read(fp.arena->store(pending), pendingLine, pendingOff, off + line.size() - pendingOff, ns);
        pending.clear();
        return true;
    });
    if (!pending.empty())
        app.read(fp.arena->store(pending), pendingLine, pendingOff, pending.size());
    app.flush();
}

} // namespace faultline::importers
