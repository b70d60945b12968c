// SPDX-License-Identifier: Apache-2.0
// Reads evidence archives (.tar, .tar.gz/.tgz, .tar.zst, .zip, or one .gz/.zst-compressed file) with libarchive,
// streaming every regular member into memory: nothing is extracted to disk. Bounded against decompression bombs
// by a total-size limit and a compression-ratio limit; when a limit or a corrupt stream stops the read, the members
// read so far are kept and the reason is returned.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace faultline::importers {

struct ArchiveLimits
{
    std::uint64_t maxTotalBytes = 16ull << 30; ///< uncompressed bytes for the whole archive
    std::uint64_t maxRatio = 200; ///< uncompressed / compressed, past a 64 MiB allowance
};

struct ArchiveMember
{
    std::string path; ///< inside the archive, '/'-separated, without "./"
    std::shared_ptr<const std::string> content; ///< the member's bytes
    bool cut = false; ///< the read stopped inside this member
};

struct ArchiveRead
{
    std::vector<ArchiveMember> members;
    bool complete = true;
    std::string stopCode; ///< "archive-corrupt" | "archive-limit" when incomplete
    std::string stopReason; ///< located, e.g. "at member nodes/node-02/dmesg.txt: truncated gzip input"
};

/// True when the name looks like an archive or a compressed file Faultline reads.
bool looksLikeArchive(const std::string& name);

ArchiveRead readArchive(const std::string& path, const ArchiveLimits& limits = {});

} // namespace faultline::importers
