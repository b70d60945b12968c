// SPDX-License-Identifier: Apache-2.0
// Streaming SHA-256 (FIPS 180-4). Used for the rule catalog's content hash and, later, evidence hashes.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace faultline::core {

class Sha256
{
public:
    Sha256();
    void update(std::string_view data);
    /// Finishes the hash and returns it as 64 lower-case hex digits. The object must not be updated afterwards.
    std::string hexDigest();

    static std::string hex(std::string_view data);

private:
    void compress(const std::uint8_t* block);

    std::array<std::uint32_t, 8> m_state {};
    std::array<std::uint8_t, 64> m_buffer {};
    std::uint64_t m_length = 0;
    std::size_t m_fill = 0;
};

} // namespace faultline::core
