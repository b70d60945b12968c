// SPDX-License-Identifier: Apache-2.0
#include "core/model/evidence_text.h"

#include <cstring>
#include <mutex>
#include <vector>

namespace faultline::core {

namespace {

class InputText final : public EvidenceText
{
public:
    explicit InputText(std::shared_ptr<const BundleInput> input)
        : m_input(std::move(input))
        , m_starts(m_input->files.size())
        , m_indexed(m_input->files.size(), false)
    { }

    std::size_t fileCount() const override { return m_input->files.size(); }

    std::string path(std::size_t file) const override
    {
        return file < m_input->files.size() ? m_input->files[file].path : std::string();
    }

    std::optional<std::size_t> find(std::string_view path) const override
    {
        for (std::size_t i = 0; i < m_input->files.size(); ++i)
            if (m_input->files[i].path == path)
                return i;
        return std::nullopt;
    }

    std::uint64_t lineCount(std::size_t file) override
    {
        if (file >= m_input->files.size())
            return 0;
        return starts(file).size();
    }

    std::optional<std::string> line(std::size_t file, std::uint64_t line, std::size_t maxBytes) override
    {
        if (file >= m_input->files.size() || line == 0)
            return std::nullopt;
        const auto& s = starts(file);
        if (line > s.size())
            return std::nullopt;
        const std::string_view bytes = m_input->files[file].bytes;
        const std::size_t begin = static_cast<std::size_t>(s[line - 1]);
        std::size_t end = line < s.size() ? static_cast<std::size_t>(s[line]) : bytes.size();
        if (end > begin && bytes[end - 1] == '\n')
            --end;
        if (end > begin && bytes[end - 1] == '\r')
            --end;
        return std::string(bytes.substr(begin, std::min(end - begin, maxBytes)));
    }

private:
    /// The offsets where each line starts, indexed once per file.
    const std::vector<std::uint64_t>& starts(std::size_t file)
    {
        std::lock_guard lock(m_mutex);
        if (!m_indexed[file]) {
            const std::string_view bytes = m_input->files[file].bytes;
            auto& s = m_starts[file];
            if (!bytes.empty())
                s.push_back(0);
            const char* base = bytes.data();
            std::size_t at = 0;
            while (at < bytes.size()) {
                const void* nl = std::memchr(base + at, '\n', bytes.size() - at);
                if (!nl)
                    break;
                at = static_cast<std::size_t>(static_cast<const char*>(nl) - base) + 1;
                if (at < bytes.size())
                    s.push_back(at);
            }
            m_indexed[file] = true;
        }
        return m_starts[file];
    }

    std::shared_ptr<const BundleInput> m_input;
    std::mutex m_mutex;
    std::vector<std::vector<std::uint64_t>> m_starts;
    std::vector<bool> m_indexed;
};

} // namespace

std::shared_ptr<EvidenceText> inputText(std::shared_ptr<const BundleInput> input)
{
    if (!input)
        input = std::make_shared<const BundleInput>();
    return std::make_shared<InputText>(std::move(input));
}

} // namespace faultline::core
