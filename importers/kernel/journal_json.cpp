// SPDX-License-Identifier: Apache-2.0
// journalctl -o json, read with simdjson: one record per line, the kernel's and the host daemons'.
#include "importers/kernel/kernel_parsers.h"
#include "importers/support/json_support.h"

#include <simdjson.h>

namespace faultline::importers {

using core::Observation;
using core::SourceKind;
using core::TimeQuality;
using simdjson::SUCCESS;
namespace dom = simdjson::dom;
using json::getString;

void parseJournalJson(FileParse& fp, const BundleContext&)
{
    dom::parser parser;
    fp.eachLine([&](std::string_view line, std::uint64_t no, std::uint64_t off) {
        if (line.empty())
            return true;
        dom::element doc;
        if (auto err = parser.parse(line.data(), line.size()).get(doc); err != SUCCESS) {
            fp.warn(
                no, off, "json-malformed", "journal record is not valid JSON (" + json::errorText(err) + "); skipped");
            return true;
        }
        // A valid UTF-8 MESSAGE is stored straight into the arena; only the byte-array form needs a buffer.
        std::string_view sv;
        std::string_view stored;
        dom::array bytes;
        if (getString(doc, "MESSAGE", sv)) {
            stored = fp.arena->store(sv);
        } else if (doc["MESSAGE"].get(bytes) == SUCCESS) {
            // journald stores non-UTF-8 messages as an array of byte values.
            std::string message;
            for (auto b : bytes) {
                std::uint64_t v = 0;
                if (b.get(v) == SUCCESS)
                    message += static_cast<char>(static_cast<unsigned char>(v));
            }
            stored = fp.arena->store(message);
        } else {
            fp.warn(no, off, "journal-no-message", "journal record has no MESSAGE; skipped");
            return true;
        }
        Observation& o = fp.add(stored, no, off, line.size());
        if (getString(doc, "_HOSTNAME", sv) && !sv.empty())
            o.node = fp.internHost(sv);
        std::string_view ident;
        getString(doc, "SYSLOG_IDENTIFIER", ident);
        std::string_view transport;
        getString(doc, "_TRANSPORT", transport);
        o.kind = transport == "kernel" ? SourceKind::Kernel : kindForIdentifier(ident);
        bool ok = false;
        if (getString(doc, "__REALTIME_TIMESTAMP", sv)) {
            const std::int64_t us = json::parseInt64(sv, ok);
            if (ok) {
                o.timeNs = us * 1000;
                o.precisionNs = 1000;
                o.quality = TimeQuality::Exact;
            }
        }
        if (!ok)
            fp.warn(no, off, "journal-no-time", "journal record has no valid __REALTIME_TIMESTAMP; time is inferred");
        return true;
    });
}

bool journalBootAnchor(std::string_view bytes, std::string& host, std::int64_t& bootNs)
{
    dom::parser parser;
    bool truncated = false;
    bool found = false;
    forEachLine(bytes.substr(0, 1 << 20), truncated, [&](std::string_view line, std::uint64_t no, std::uint64_t) {
        dom::element doc;
        std::string_view rt;
        std::string_view mono;
        std::string_view h;
        bool okRt = false;
        bool okMono = false;
        if (parser.parse(line.data(), line.size()).get(doc) == SUCCESS && getString(doc, "__REALTIME_TIMESTAMP", rt)
            && getString(doc, "__MONOTONIC_TIMESTAMP", mono)) {
            const std::int64_t realUs = json::parseInt64(rt, okRt);
            const std::int64_t monoUs = json::parseInt64(mono, okMono);
            if (okRt && okMono && realUs > monoUs) {
                bootNs = (realUs - monoUs) * 1000;
                if (getString(doc, "_HOSTNAME", h))
                    host.assign(h);
                found = true;
                return false;
            }
        }
        return no < 64;
    });
    return found;
}

} // namespace faultline::importers
