// SPDX-License-Identifier: Apache-2.0
#include "core/casefile/case_text.h"

#include "core/casefile/case_file.h"

#include <mutex>

namespace faultline::core {

namespace {

class CaseText final : public EvidenceText
{
public:
    CaseText(std::unique_ptr<CaseFile> c, std::vector<StoredFile> files)
        : m_case(std::move(c))
        , m_files(std::move(files))
    { }

    std::size_t fileCount() const override { return m_files.size(); }
    std::string path(std::size_t file) const override { return file < m_files.size() ? m_files[file].path : ""; }

    std::optional<std::size_t> find(std::string_view path) const override
    {
        for (std::size_t i = 0; i < m_files.size(); ++i)
            if (m_files[i].path == path)
                return i;
        return std::nullopt;
    }

    std::uint64_t lineCount(std::size_t file) override { return file < m_files.size() ? m_files[file].lines : 0; }

    std::optional<std::string> line(std::size_t file, std::uint64_t line, std::size_t maxBytes) override
    {
        if (file >= m_files.size() || line == 0 || line > m_files[file].lines)
            return std::nullopt;
        // One SQLite connection: one caller at a time (the case file's thread contract).
        std::lock_guard lock(m_mutex);
        std::vector<Diagnostic> errors;
        return m_case->line(m_files[file].id, line, errors, maxBytes);
    }

private:
    std::unique_ptr<CaseFile> m_case;
    std::vector<StoredFile> m_files;
    std::mutex m_mutex;
};

} // namespace

std::shared_ptr<EvidenceText> caseText(const std::string& casePath, std::vector<Diagnostic>& errors)
{
    CaseOpenOptions options;
    options.readOnly = true;
    auto c = CaseFile::open(casePath, options, errors);
    if (!c)
        return nullptr;
    auto files = c->files(errors);
    if (!errors.empty())
        return nullptr;
    return std::make_shared<CaseText>(std::move(c), std::move(files));
}

} // namespace faultline::core
