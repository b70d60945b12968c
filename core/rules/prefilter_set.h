// SPDX-License-Identifier: Apache-2.0
// Internal to core/rules: the RE2::Set behind RuleCatalog::prefilterFor (a nested class, so it cannot be
// forward-declared in the public header).
#pragma once

#include <re2/re2.h>
#include <re2/set.h>

namespace faultline::core {

struct PrefilterSet
{
    explicit PrefilterSet(const RE2::Options& options)
        : set(options, RE2::UNANCHORED)
    { }
    RE2::Set set;
};

} // namespace faultline::core
