// SPDX-License-Identifier: Apache-2.0
// faultline-case-dump CASE: every value of every table of an SQLite file ("table.column: value"), with zstd-compressed
// blobs (evidence chunks, observation blocks, metric samples) decompressed and bytes other than printable ASCII,
// newline and tab written as \xNN, so a test can search everything a file holds for text that must not be there. A
// test tool: it reads the file with SQLite and zstd alone, not through the case code it checks.
#include <sqlite3.h>
#include <zstd.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

std::string sqlName(const std::string& name)
{
    std::string out = "\"";
    for (const char c : name)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

/// A blob's bytes, decompressed when it is one zstd frame of a known size (up to 256 MiB).
std::string blobText(const void* data, int size)
{
    const auto* p = static_cast<const char*>(data);
    const auto n = static_cast<std::size_t>(size);
    if (n >= 4 && static_cast<unsigned char>(p[0]) == 0x28 && static_cast<unsigned char>(p[1]) == 0xb5
        && static_cast<unsigned char>(p[2]) == 0x2f && static_cast<unsigned char>(p[3]) == 0xfd) {
        const unsigned long long raw = ZSTD_getFrameContentSize(p, n);
        if (raw != ZSTD_CONTENTSIZE_ERROR && raw != ZSTD_CONTENTSIZE_UNKNOWN && raw <= (256ull << 20)) {
            std::string out(static_cast<std::size_t>(raw), '\0');
            const std::size_t got = ZSTD_decompress(out.data(), out.size(), p, n);
            if (!ZSTD_isError(got) && got == out.size())
                return out;
        }
    }
    return std::string(p, n);
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: faultline-case-dump CASE\n");
        return 2;
    }
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        std::fprintf(stderr, "faultline-case-dump: cannot open %s: %s\n", argv[1], db ? sqlite3_errmsg(db) : "");
        sqlite3_close(db);
        return 1;
    }
    std::vector<std::string> tables;
    {
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", -1, &st, nullptr);
        while (st && sqlite3_step(st) == SQLITE_ROW)
            tables.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
        sqlite3_finalize(st);
    }
    if (tables.empty()) {
        std::fprintf(stderr, "faultline-case-dump: %s holds no table\n", argv[1]);
        sqlite3_close(db);
        return 1;
    }
    for (const auto& table : tables) {
        sqlite3_stmt* st = nullptr;
        const std::string sql = "SELECT * FROM " + sqlName(table);
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
            std::fprintf(stderr, "faultline-case-dump: cannot read %s: %s\n", table.c_str(), sqlite3_errmsg(db));
            sqlite3_close(db);
            return 1;
        }
        std::printf("== %s\n", table.c_str());
        while (sqlite3_step(st) == SQLITE_ROW) {
            for (int c = 0; c < sqlite3_column_count(st); ++c) {
                std::string value;
                switch (sqlite3_column_type(st, c)) {
                case SQLITE_NULL:
                    value = "NULL";
                    break;
                case SQLITE_BLOB:
                    value = blobText(sqlite3_column_blob(st, c), sqlite3_column_bytes(st, c));
                    break;
                default:
                    value.assign(reinterpret_cast<const char*>(sqlite3_column_text(st, c)),
                        static_cast<std::size_t>(sqlite3_column_bytes(st, c)));
                }
                std::printf("%s.%s: ", table.c_str(), sqlite3_column_name(st, c));
                for (const char ch : value) {
                    const auto b = static_cast<unsigned char>(ch);
                    if ((b >= 0x20 && b < 0x7f) || b == '\n' || b == '\t')
                        std::putchar(b);
                    else
                        std::printf("\\x%02x", b);
                }
                std::printf("\n");
            }
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return 0;
}
