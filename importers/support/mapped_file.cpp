// SPDX-License-Identifier: Apache-2.0
#include "importers/support/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace faultline::importers {

std::shared_ptr<const MappedFile> MappedFile::open(const std::string& path, std::string& error)
{
    std::shared_ptr<MappedFile> f(new MappedFile());
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        error = std::strerror(errno);
        return nullptr;
    }
    struct stat st
    { };
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        error = "not a regular file";
        ::close(fd);
        return nullptr;
    }
    f->m_size = static_cast<std::size_t>(st.st_size);
    if (f->m_size > 0) {
        // MAP_POPULATE maps the whole (usually page-cached) file at once instead of one fault per page.
        void* p = ::mmap(nullptr, f->m_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
        if (p != MAP_FAILED) {
            f->m_data = static_cast<const char*>(p);
            f->m_mapped = true;
            ::madvise(p, f->m_size, MADV_SEQUENTIAL);
        } else {
            std::ifstream in(path, std::ios::binary);
            std::ostringstream ss;
            ss << in.rdbuf();
            f->m_copy = ss.str();
            f->m_data = f->m_copy.data();
            f->m_size = f->m_copy.size();
        }
    }
    ::close(fd);
    return f;
}

std::shared_ptr<const MappedFile> MappedFile::fromBuffer(std::shared_ptr<const std::string> bytes)
{
    std::shared_ptr<MappedFile> f(new MappedFile());
    f->m_data = bytes->data();
    f->m_size = bytes->size();
    f->m_owner = std::move(bytes);
    return f;
}

std::shared_ptr<const MappedFile> MappedFile::fromView(std::shared_ptr<const void> owner, std::string_view bytes)
{
    std::shared_ptr<MappedFile> f(new MappedFile());
    f->m_data = bytes.data();
    f->m_size = bytes.size();
    f->m_owner = std::move(owner);
    return f;
}

MappedFile::~MappedFile()
{
    if (m_mapped)
        ::munmap(const_cast<char*>(m_data), m_size);
}

} // namespace faultline::importers
