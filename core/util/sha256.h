// SPDX-License-Identifier: Apache-2.0
// Streaming SHA-256 through OpenSSL's libcrypto (which uses the CPU's SHA extensions when present). Used for the
// rule catalog's content hash and the case file's evidence hashes.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace faultline::core {

class Sha256
{
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    void update(std::string_view data);
    /// Finishes the hash and returns it as 64 lower-case hex digits. The object must not be updated afterwards.
    std::string hexDigest();

    static std::string hex(std::string_view data);

private:
    struct Context;
    std::unique_ptr<Context> m_ctx;
};

} // namespace faultline::core
