// SPDX-License-Identifier: Apache-2.0
// Asks the kernel to back a large, freshly reserved buffer with transparent huge pages. Faulting in 2 MiB pages
// instead of 4 KiB ones matters when millions of records are written once (THP is "madvise" on Debian).
#pragma once

#include <cstddef>

namespace faultline::core {

/// Advises huge pages for the 2 MiB-aligned interior of [data, data + bytes). A no-op for small buffers or where
/// the kernel does not support it.
void adviseHugePages(const void* data, std::size_t bytes) noexcept;

} // namespace faultline::core
