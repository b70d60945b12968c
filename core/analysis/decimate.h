// SPDX-License-Identifier: Apache-2.0
// Min/max decimation of a metric series for drawing: a series is reduced to at most two
// points per pixel column before any chart sees it, so a 10M-sample counter costs a chart what a 2,000-sample one
// does, and no spike is lost (the minimum and the maximum of every column are kept, in time order).
//
// Qt-free; safe to call from any thread (a pure function of its arguments).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace faultline::core {

/// One point of a decimated series.
struct DecimatedPoint
{
    std::int64_t timeNs = 0;
    double value = 0; ///< always finite
    /// The line breaks before this point: a non-finite sample (NaN, ±Inf) lies between it and the previous point,
    /// or the samples are further apart than DecimateOptions::breakAfterNs. False on the first point.
    bool gapBefore = false;

    bool operator==(const DecimatedPoint&) const = default;
};

struct DecimateOptions
{
    /// Two consecutive samples further apart than this are drawn with a break between them (a scrape target that
    /// went away); 0 never breaks on time alone.
    std::int64_t breakAfterNs = 0;
    /// Keep the last finite sample before `fromNs` and the first after `toNs`, so the line reaches the plot's
    /// edges instead of starting at the first sample inside.
    bool keepNeighbours = true;
};

/// Reduces `samples` (time-sorted (ns, value) pairs, as MetricSeries::samples) over [fromNs, toNs] to `buckets`
/// equal time buckets (one per pixel column): per bucket, its minimum and its maximum finite samples in time order
/// (one point when they are the same sample); besides, the first and the last finite samples inside the range and,
/// with keepNeighbours, one neighbour on each side outside it. Hence at most 2 * buckets + 4 points, whatever the
/// number of samples. Non-finite values are never emitted: they become breaks (DecimatedPoint::gapBefore).
///
/// Bucket b covers [bucketStart(b), bucketStart(b + 1)), the last one closed at `toNs`. Empty when `buckets` is 0,
/// `toNs` < `fromNs` or no finite sample lies in the range (neighbours alone are not returned). Cost: two binary
/// searches plus one pass over the samples inside the range.
std::vector<DecimatedPoint> decimateMinMax(std::span<const std::pair<std::int64_t, double>> samples,
    std::int64_t fromNs, std::int64_t toNs, std::size_t buckets, const DecimateOptions& options = {});

/// The start of bucket `b` (0 <= b <= buckets) of decimateMinMax's partition of [fromNs, toNs]; exact integer
/// arithmetic, bucketStart(0) == fromNs.
std::int64_t decimationBucketStart(std::int64_t fromNs, std::int64_t toNs, std::size_t buckets, std::size_t b);

/// The bucket that holds `timeNs` (which must lie in [fromNs, toNs]).
std::size_t decimationBucketOf(std::int64_t fromNs, std::int64_t toNs, std::size_t buckets, std::int64_t timeNs);

} // namespace faultline::core
