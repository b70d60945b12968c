// SPDX-License-Identifier: Apache-2.0
// Kernel and host logs: the kernel ring buffer (dmesg in its stamp formats), syslog text (RFC 3164, RFC 5424,
// journalctl's short formats) and journalctl -o json. Each parser fills `fp` from fp.data.
#pragma once

#include "importers/file_parse.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace faultline::importers {

void parseDmesg(FileParse& fp, const BundleContext& ctx);
void parseSyslog(FileParse& fp, const BundleContext& ctx);
void parseJournalJson(FileParse& fp, const BundleContext& ctx);

/// Length of the "facility:level: " prefix that `dmesg --decode` (-x) writes before each record ("kern  :err   : ",
/// names padded to six columns), or 0 when `line` does not start with one.
std::size_t dmesgDecodePrefix(std::string_view line);

/// Length of the "node: " that talosctl dmesg writes before a facility:level prefix and a bracketed RFC 3339 time
/// ("10.1.1.2: kern: warning: [2026-11-02T10:15:01.123456789Z]: msg"), with `host` set to the node; 0 otherwise.
std::size_t talosDmesgPrefix(std::string_view line, std::string_view& host);

/// Source kind of a syslog/journald record by its identifier (kernel, nv-fabricmanager, slurmd, ...).
core::SourceKind kindForIdentifier(std::string_view ident);

/// What follows a syslog stamp, when it reads " host ident: message" (ident optionally with "[pid]"): a host
/// token that is not itself a "Word:" label, then one ident token ending in ": ". False for anything else, such as
/// an application line its collector stamped ("... RuntimeError: CUDA out of memory"), which names no host.
bool splitSyslogRest(std::string_view rest, std::string_view& host, std::string_view& ident, std::string_view& message);

/// Boot time of the host that wrote a journalctl -o json file, from a record's __REALTIME_TIMESTAMP minus its
/// __MONOTONIC_TIMESTAMP: the anchor that places raw dmesg stamps of the same boot when no manifest gives one.
/// Returns false when the first records hold no such pair.
bool journalBootAnchor(std::string_view bytes, std::string& host, std::int64_t& bootNs);

} // namespace faultline::importers
