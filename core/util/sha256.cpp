// SPDX-License-Identifier: Apache-2.0
#include "core/util/sha256.h"

#include <openssl/evp.h>

#include <stdexcept>

namespace faultline::core {

struct Sha256::Context
{
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    ~Context() { EVP_MD_CTX_free(ctx); }
};

Sha256::Sha256()
    : m_ctx(std::make_unique<Context>())
{
    if (!m_ctx->ctx || EVP_DigestInit_ex(m_ctx->ctx, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("libcrypto cannot start a SHA-256 digest");
}

Sha256::~Sha256() = default;

void Sha256::update(std::string_view data)
{
    if (!data.empty())
        EVP_DigestUpdate(m_ctx->ctx, data.data(), data.size());
}

std::string Sha256::hexDigest()
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_DigestFinal_ex(m_ctx->ctx, md, &len);
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(len * 2);
    for (unsigned int i = 0; i < len; ++i) {
        out.push_back(kHex[md[i] >> 4]);
        out.push_back(kHex[md[i] & 15]);
    }
    return out;
}

std::string Sha256::hex(std::string_view data)
{
    Sha256 h;
    h.update(data);
    return h.hexDigest();
}

} // namespace faultline::core
