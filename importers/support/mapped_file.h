// SPDX-License-Identifier: Apache-2.0
// Read-only memory mapping of an evidence file (falls back to reading it when mapping is impossible).
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace faultline::importers {

class MappedFile
{
public:
    /// Maps `path`; on failure returns null and sets `error`.
    static std::shared_ptr<const MappedFile> open(const std::string& path, std::string& error);
    /// Wraps bytes already in memory (an archive member).
    static std::shared_ptr<const MappedFile> fromBuffer(std::shared_ptr<const std::string> bytes);
    /// Wraps bytes kept alive by `owner` (a mapped file, an archive member, a case file's decompressed copy).
    static std::shared_ptr<const MappedFile> fromView(std::shared_ptr<const void> owner, std::string_view bytes);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    std::string_view bytes() const { return { m_data, m_size }; }

private:
    MappedFile() = default;
    const char* m_data = nullptr;
    std::size_t m_size = 0;
    bool m_mapped = false;
    std::string m_copy;
    std::shared_ptr<const void> m_owner;
};

} // namespace faultline::importers
