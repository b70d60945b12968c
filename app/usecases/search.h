// SPDX-License-Identifier: Apache-2.0
// Search over an analysis's evidence in memory: an RE2 pattern matched line by line against the raw bytes of every
// evidence file, with the node, time and source kind of the record that holds each line. Qt-free; the GUI's search
// pane and any front end call it off their UI thread.
//
// How it runs: the files that pass the file filters are cut into newline-aligned chunks (about
// SearchRequest::chunkBytes each) and searched on `threads` std::threads. Each chunk is scanned whole, never line by
// line: when every match must contain one of a few literals (RE2's prefilter atoms), an SSE2 search for them finds
// the candidate lines; otherwise RE2 runs over the whole chunk in multi-line mode (one DFA pass). Only the lines
// where the scan lands are matched on their own. Hits are delivered in (file, line) order whatever the thread count,
// so the same request gives the same result with 1 or N threads.
//
// Thread contract: searchEvidence may be called from any thread; it blocks until the search ends. `onHit` and
// `task.progress` are called on the calling thread only, hits in (file, line) order. `task.cancel` is polled between
// chunks (at least every chunkBytes of evidence per thread). The input and the evidence are only read.
#pragma once

#include "app/usecases/use_cases.h"
#include "core/model/bundle_input.h"
#include "core/model/evidence.h"
#include "core/model/search_hit.h"
#include "core/model/verdict.h"

#include <climits>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace faultline::usecases {

/// Lines longer than this are returned cut (SearchHit::textCut).
inline constexpr std::size_t kSearchLineCap = 4096;

struct SearchRequest
{
    std::shared_ptr<const core::BundleInput> input; ///< the bytes searched (required)
    /// Gives each line its record's node and time, and each file its source kind and host. Without it no line has a
    /// node, a time or a kind other than Other, so node, time and kind filters keep nothing.
    std::shared_ptr<const core::EvidenceSet> evidence;

    std::string pattern; ///< RE2 syntax, matched against each line without its "\n" or "\r\n"
    bool ignoreCase = false;
    bool literal = false; ///< the pattern is plain text, not a regular expression

    // Filters. Every filter set must hold for a line to be a hit.
    std::vector<std::string> nodes; ///< the line's node is one of these (names as NodeTable normalises them)
    std::vector<core::SourceKind> kinds; ///< the file's source kind is one of these (files not imported: Other)
    std::vector<std::string> paths; ///< the file's display path is one of these, exactly
    std::string pathContains; ///< the file's display path contains this text
    /// Time window, inclusive. A line's time is the time of the record that holds it ([timeNs, timeNs + precision)
    /// must overlap the window). A line that no timed record holds (between records, in a file with no times, or in
    /// a record whose time could not be established) passes only when no window is set; such lines are counted in
    /// SearchCounts::untimedExcluded.
    std::int64_t fromNs = INT64_MIN;
    std::int64_t toNs = INT64_MAX;
    /// Keeps only lines of records that an event of `verdict` was extracted from, where that event's severity is at
    /// least this one (info < warning < error < fatal; "" keeps every line). A line no event came from has no
    /// severity, so it passes only without this filter. Needs `verdict` and `evidence`.
    std::string minSeverity;
    std::shared_ptr<const core::Verdict> verdict; ///< the events that give lines a severity
    std::size_t maxHits = 0; ///< stop after this many hits (0: no limit)

    unsigned threads = 0; ///< 0: hardware concurrency
    std::size_t chunkBytes = std::size_t(8) << 20; ///< large files are split near this size, at a newline
    bool keepHits = true; ///< false: hits go only to onHit (SearchResult::hits stays empty)
    /// Look for the pattern's required literals (RE2's prefilter atoms) with SIMD before running RE2 on a line. The
    /// hits are the same either way; false is for tests and benchmarks.
    bool literalPrefilter = true;

    /// A request over the analysis's input and evidence.
    static SearchRequest over(const Analysis& analysis, std::string pattern);
};

/// One matching line: a line matching several times gives one hit, at its first match; its text is at most
/// kSearchLineCap bytes.
using SearchHit = core::SearchHit;

/// What was searched. When the search stopped at maxHits, the counts stop at the last hit's line, so they too are
/// the same whatever the thread count.
struct SearchCounts
{
    std::uint64_t files = 0; ///< files searched: those the path and kind filters keep
    std::uint64_t bytes = 0;
    std::uint64_t lines = 0;
    std::uint64_t hits = 0;
    /// Matching lines of the wanted nodes dropped by the time filter because no timed record holds them.
    std::uint64_t untimedExcluded = 0;
    bool truncated = false; ///< stopped at maxHits before the end of the evidence: later lines were not searched
};

struct SearchResult
{
    std::vector<SearchHit> hits; ///< in (file, line) order; empty when SearchRequest::keepHits is false
    SearchCounts counts;
    unsigned threads = 0; ///< worker threads used
    std::int64_t elapsedUs = 0;
};

/// Searches the evidence. Fails with Usage for a pattern RE2 does not compile (RE2's message, with the column of
/// the offending fragment in the diagnostic), a window whose start is after its end, or a severity filter that names
/// no severity or has no verdict and evidence to take severities from, NoEvidence without an input,
/// and Cancelled when `task.cancel` was set (hits already passed to onHit stay delivered).
Result<SearchResult> searchEvidence(
    const SearchRequest& request, const Task& task = {}, std::function<void(const SearchHit&)> onHit = {});

} // namespace faultline::usecases
