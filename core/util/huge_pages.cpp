// SPDX-License-Identifier: Apache-2.0
#include "core/util/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>

namespace faultline::core {

void adviseHugePages(const void* data, std::size_t bytes) noexcept
{
    constexpr std::uintptr_t kHuge = std::uintptr_t(2) << 20;
    if (!data || bytes < 2 * kHuge)
        return;
    const auto begin = (reinterpret_cast<std::uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(kHuge - 1);
    if (end > begin)
        ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

} // namespace faultline::core
