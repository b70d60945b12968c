// SPDX-License-Identifier: Apache-2.0
// The phases of a bundle import after collectBundle, in the order importBundle runs them:
//   detect → scope → parse → merge
// The scope phase parses the scheduler files before the parse phase parses the rest, because the workload they
// state (job, allocated nodes, window) is what the other parsers read. Each phase runs on the calling thread; the
// parse phase alone starts worker threads, and joins them before it returns.
#pragma once

#include "core/model/bundle_input.h"
#include "importers/bundle/manifest.h"
#include "importers/bundle_loader.h"
#include "importers/file_parse.h"

#include <vector>

namespace faultline::importers {

struct FormatInfo;

/// The import's files as the detect phase leaves them: one FileParse per input file, in input order, and its format
/// (null when the file is not parsed: unreadable, or an archive inside the bundle).
struct DetectedFiles
{
    std::vector<FileParse> files;
    std::vector<const FormatInfo*> formats;
};

/// What a pasted excerpt starts with before the tool's own output: the command behind a shell prompt or a "# command"
/// note, systemctl status's unit header, blank lines.
struct PastedPreamble
{
    std::size_t bodyOffset = 0; ///< where the tool's output begins in the head
    std::string promptHost; ///< the host the first shell prompt names ("" when none)
    std::uint64_t promptLine = 0; ///< its 1-based line
};
PastedPreamble pastedPreamble(std::string_view head);

/// The host a PBS (or Torque) job mail names ("PBS Job Id: ...", then "Exec host:  gpu-2-17/5"): the job ran there, so
/// the mail is that node's. Empty when the text is no PBS mail, or when the job ran on several hosts.
struct PbsMailHost
{
    std::string host;
    std::uint64_t line = 0; ///< the Exec host line, 1-based
};
PbsMailHost pbsMailHost(std::string_view head);

/// Detect: each input file's format (the manifest's, else detectFormat's from its first 4 KiB and its name) and what
/// the manifest or the file's path says about it (host, zone, labels, boot time). Unreadable files, archives inside
/// the bundle, members an archive read cut short and formats the manifest names wrongly get their warning here.
DetectedFiles detectFiles(const std::vector<core::InputFile>& inputs, const Manifest& manifest);

/// Scope: parses the scoping (scheduler) files whole, then states the workload attempt in ev.scope, the manifest's
/// statements first, else the scheduler's facts (its nodes are interned first in ev.nodes, in allocation order).
/// Returns the context every other parser reads: the manifest, the allocation's nodes, the pods' nodes and the
/// reference year of year-less stamps. Files the allocation or a journald export places get their host and dmesg
/// boot time; a bad hostlist and an assumed year are diagnostics in ev.diagnostics.
BundleContext scopeWorkload(DetectedFiles& detected, const core::BundleInput& input, const Manifest& manifest,
    const LoadOptions& options, core::EvidenceSet& ev);

/// Each file's parts after the parse phase, in input order: the file whole, or its chunks in file order.
using ParsedFiles = std::vector<std::vector<FileParse>>;

/// Parse: every file the scope phase did not parse, on `options.threads` threads (the calling one included); a large
/// line-oriented file is cut into chunks at line boundaries, parsed in parallel. Cancellation stops new parts from
/// starting, and line parsers within 64 Ki lines; a part cut short by it says so (FileParse::parsed is false).
/// Progress goes to options.progress from the calling thread only, after each part it parsed and once at the end.
ParsedFiles parseFiles(std::vector<FileParse> files, const std::vector<const FormatInfo*>& formats,
    const BundleContext& ctx, const LoadOptions& options);

/// Merge: the parts into `ev`, in input order and each file's chunks in order, so the evidence does not depend on
/// the thread count. One source per file with its figures (records, times, zone, host, records outside the
/// workload window, a Loki answer cut at its limit, a file the import was cancelled before reading), then one per
/// archive whose read stopped early; one identity per rank; ranked records without a node placed on their rank's
/// node, else on their stream's agent host.
void mergeFiles(ParsedFiles& parsed, const std::vector<const FormatInfo*>& formats, const Manifest& manifest,
    const std::vector<core::ArchiveStop>& archiveStops, core::EvidenceSet& ev);

} // namespace faultline::importers
