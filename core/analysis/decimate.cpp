// SPDX-License-Identifier: Apache-2.0
#include "core/analysis/decimate.h"

#include <algorithm>
#include <cmath>

namespace faultline::core {

namespace {

// Buckets beyond this many are not pixel columns; the cap keeps the bucket arithmetic within 64 bits.
constexpr std::size_t kMaxBuckets = std::size_t(1) << 24;

using Index = std::ptrdiff_t;

/// A sample that may be emitted, with the last break at or before it (see decimateMinMax).
struct Candidate
{
    Index idx = -1;
    Index breakUpTo = -1;
};

} // namespace

std::int64_t decimationBucketStart(std::int64_t fromNs, std::int64_t toNs, std::size_t buckets, std::size_t b)
{
    buckets = std::min(std::max<std::size_t>(buckets, 1), kMaxBuckets);
    b = std::min(b, buckets);
    const std::uint64_t span = static_cast<std::uint64_t>(toNs) - static_cast<std::uint64_t>(fromNs);
    const std::uint64_t n = buckets;
    const std::uint64_t q = span / n;
    const std::uint64_t r = span % n;
    const std::uint64_t off = b * q + (b * r) / n; // b * r < 2^48
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(fromNs) + off);
}

std::size_t decimationBucketOf(std::int64_t fromNs, std::int64_t toNs, std::size_t buckets, std::int64_t timeNs)
{
    buckets = std::min(std::max<std::size_t>(buckets, 1), kMaxBuckets);
    const std::uint64_t span = static_cast<std::uint64_t>(toNs) - static_cast<std::uint64_t>(fromNs);
    const std::uint64_t d = static_cast<std::uint64_t>(timeNs) - static_cast<std::uint64_t>(fromNs);
    // An estimate, then the exact boundaries decide.
    std::size_t b = span == 0 ? 0
                              : static_cast<std::size_t>(static_cast<long double>(d) / static_cast<long double>(span)
                                  * static_cast<long double>(buckets));
    b = std::min(b, buckets - 1);
    while (b > 0 && decimationBucketStart(fromNs, toNs, buckets, b) > timeNs)
        --b;
    while (b + 1 < buckets && decimationBucketStart(fromNs, toNs, buckets, b + 1) <= timeNs)
        ++b;
    return b;
}

std::vector<DecimatedPoint> decimateMinMax(std::span<const std::pair<std::int64_t, double>> samples,
    std::int64_t fromNs, std::int64_t toNs, std::size_t buckets, const DecimateOptions& options)
{
    std::vector<DecimatedPoint> out;
    if (buckets == 0 || toNs < fromNs || samples.empty())
        return out;
    buckets = std::min(buckets, kMaxBuckets);

    const auto byTime = [](const std::pair<std::int64_t, double>& s, std::int64_t t) { return s.first < t; };
    const auto lo =
        static_cast<Index>(std::lower_bound(samples.begin(), samples.end(), fromNs, byTime) - samples.begin());
    const auto hi =
        static_cast<Index>(std::upper_bound(samples.begin(), samples.end(), toNs,
                               [](std::int64_t t, const std::pair<std::int64_t, double>& s) { return t < s.first; })
            - samples.begin());
    const auto at = [&](Index i) -> const std::pair<std::int64_t, double>& {
        return samples[static_cast<std::size_t>(i)];
    };
    const auto finite = [&](Index i) { return std::isfinite(at(i).second); };
    // A break lies "at" sample i when i is not finite, or when it comes more than breakAfterNs after sample i - 1.
    // Two emitted samples a < b are joined by a line unless a break lies at some j in (a, b].
    const auto breakAt = [&](Index i) {
        if (!finite(i))
            return true;
        return options.breakAfterNs > 0 && i > 0
            && static_cast<std::uint64_t>(at(i).first) - static_cast<std::uint64_t>(at(i - 1).first)
            > static_cast<std::uint64_t>(options.breakAfterNs);
    };

    Index lastEmitted = -1;
    const auto emit = [&](const Candidate& c) {
        if (c.idx < 0 || c.idx <= lastEmitted)
            return;
        DecimatedPoint p;
        p.timeNs = at(c.idx).first;
        p.value = at(c.idx).second;
        p.gapBefore = !out.empty() && c.breakUpTo > lastEmitted;
        out.push_back(p);
        lastEmitted = c.idx;
    };

    Index lastBreak = -1;
    Candidate first;
    Candidate last;
    Candidate bucketMin;
    Candidate bucketMax;
    std::size_t bucket = 0;
    std::int64_t nextStart = decimationBucketStart(fromNs, toNs, buckets, 1);
    bool beforeEmitted = false;

    const auto flush = [&] {
        if (bucketMin.idx < 0)
            return;
        if (!beforeEmitted) {
            beforeEmitted = true;
            if (options.keepNeighbours && lo > 0 && finite(lo - 1))
                emit({ lo - 1, -1 });
            emit(first);
        }
        if (bucketMin.idx <= bucketMax.idx) {
            emit(bucketMin);
            emit(bucketMax);
        } else {
            emit(bucketMax);
            emit(bucketMin);
        }
        bucketMin = {};
        bucketMax = {};
    };

    out.reserve(std::min<std::size_t>(static_cast<std::size_t>(hi - lo), 2 * buckets) + 4);
    for (Index i = lo; i < hi; ++i) {
        const std::int64_t t = at(i).first;
        while (bucket + 1 < buckets && t >= nextStart) {
            flush();
            ++bucket;
            nextStart = decimationBucketStart(fromNs, toNs, buckets, bucket + 1);
        }
        if (breakAt(i))
            lastBreak = i;
        if (!finite(i))
            continue;
        const double v = at(i).second;
        const Candidate c { i, lastBreak };
        if (first.idx < 0)
            first = c;
        last = c;
        if (bucketMin.idx < 0 || v < at(bucketMin.idx).second)
            bucketMin = c;
        if (bucketMax.idx < 0 || v > at(bucketMax.idx).second)
            bucketMax = c;
    }
    flush();
    if (first.idx < 0)
        return {}; // nothing finite inside: neighbours alone would draw a line through an empty range
    emit(last);
    if (options.keepNeighbours && hi < static_cast<Index>(samples.size()) && finite(hi))
        emit({ hi, breakAt(hi) ? hi : lastBreak });
    return out;
}

} // namespace faultline::core
