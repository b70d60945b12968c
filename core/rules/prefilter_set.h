// SPDX-License-Identifier: Apache-2.0
// Internal to core/rules: the RE2::Set behind RuleCatalog::prefilterFor (a nested class, so it cannot be
// forward-declared in the public header).
#pragma once

#include <re2/re2.h>
#include <re2/set.h>

namespace faultline::core {

struct PrefilterSet
{
    PrefilterSet(const RE2::Options& options, const RE2::Options& batchOptions)
        : set(options, RE2::UNANCHORED)
        , batch(batchOptions, RE2::UNANCHORED)
    { }
    /// The catalog's patterns as written, matched against one record.
    RE2::Set set;
    /// The same patterns in multi-line mode, never matching across '\n', matched against many records joined by
    /// '\n': when it finds nothing, none of those records can match any pattern, so they are skipped with one
    /// call. `^` and `$` then anchor at record boundaries, as they do per record.
    RE2::Set batch;
};

} // namespace faultline::core
