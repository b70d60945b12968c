// SPDX-License-Identifier: Apache-2.0
// Thin RAII over SQLite's C API for the case file: a prepared statement that binds and reads typed values and throws
// SqlFailure on any error. Exceptions stay inside core/casefile: CaseFile's public functions catch them and return
// located diagnostics.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace faultline::core::casefile {

struct SqlFailure : std::runtime_error
{
    SqlFailure(int rc, const std::string& what)
        : std::runtime_error(what)
        , code(rc)
    { }
    int code;
};

[[noreturn]] inline void throwSql(sqlite3* db, int rc, std::string_view context)
{
    std::string msg(context);
    msg += ": ";
    msg += db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    throw SqlFailure(rc, msg);
}

inline void exec(sqlite3* db, const char* sql)
{
    char* err = nullptr;
    const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &err);
    if (rc != SQLITE_OK) {
        std::string msg = err ? err : sqlite3_errstr(rc);
        sqlite3_free(err);
        throw SqlFailure(rc, msg);
    }
}

/// A write transaction (BEGIN IMMEDIATE) that rolls back unless commit() was reached, so a failure anywhere inside
/// leaves the case as it was.
class Transaction
{
public:
    explicit Transaction(sqlite3* db)
        : m_db(db)
    {
        exec(db, "BEGIN IMMEDIATE");
    }
    ~Transaction()
    {
        if (m_open)
            sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
    }
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit()
    {
        exec(m_db, "COMMIT");
        m_open = false;
    }

private:
    sqlite3* m_db;
    bool m_open = true;
};

class Stmt
{
public:
    Stmt(sqlite3* db, const char* sql)
        : m_db(db)
    {
        const int rc = sqlite3_prepare_v2(db, sql, -1, &m_stmt, nullptr);
        if (rc != SQLITE_OK)
            throwSql(db, rc, "prepare");
    }
    ~Stmt() { sqlite3_finalize(m_stmt); }
    Stmt(const Stmt&) = delete;
    Stmt& operator=(const Stmt&) = delete;

    Stmt& bind(int i, std::int64_t v) { return check(sqlite3_bind_int64(m_stmt, i, v)); }
    Stmt& bind(int i, std::uint64_t v) { return bind(i, static_cast<std::int64_t>(v)); }
    Stmt& bind(int i, int v) { return bind(i, static_cast<std::int64_t>(v)); }
    Stmt& bind(int i, unsigned v) { return bind(i, static_cast<std::int64_t>(v)); }
    Stmt& bind(int i, bool v) { return bind(i, static_cast<std::int64_t>(v ? 1 : 0)); }
    Stmt& bind(int i, double v) { return check(sqlite3_bind_double(m_stmt, i, v)); }
    Stmt& bind(int i, std::string_view s)
    {
        return check(sqlite3_bind_text64(m_stmt, i, s.data(), s.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
    }
    Stmt& bind(int i, const std::string& s) { return bind(i, std::string_view(s)); }
    Stmt& bind(int i, const char* s) { return bind(i, std::string_view(s)); }
    Stmt& bindBlob(int i, std::string_view s)
    {
        return check(sqlite3_bind_blob64(m_stmt, i, s.data(), s.size(), SQLITE_STATIC));
    }
    Stmt& bindNull(int i) { return check(sqlite3_bind_null(m_stmt, i)); }
    /// NULL for "unknown" (INT64_MIN) times.
    Stmt& bindTime(int i, std::int64_t ns) { return ns == INT64_MIN ? bindNull(i) : bind(i, ns); }
    /// NULL for an empty text (a node that is not known).
    Stmt& bindOptText(int i, std::string_view s) { return s.empty() ? bindNull(i) : bind(i, s); }

    /// True when a row is available; false when done.
    bool step()
    {
        const int rc = sqlite3_step(m_stmt);
        if (rc == SQLITE_ROW)
            return true;
        if (rc == SQLITE_DONE)
            return false;
        throwSql(m_db, rc, "step");
    }
    void run()
    {
        step();
        reset();
    }
    void reset()
    {
        sqlite3_reset(m_stmt);
        sqlite3_clear_bindings(m_stmt);
    }

    bool isNull(int c) const { return sqlite3_column_type(m_stmt, c) == SQLITE_NULL; }
    /// SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB or SQLITE_NULL.
    int type(int c) const { return sqlite3_column_type(m_stmt, c); }
    int columns() const { return sqlite3_column_count(m_stmt); }
    std::string columnName(int c) const
    {
        const char* n = sqlite3_column_name(m_stmt, c);
        return n ? std::string(n) : std::string();
    }
    std::int64_t i64(int c) const { return sqlite3_column_int64(m_stmt, c); }
    std::uint64_t u64(int c) const { return static_cast<std::uint64_t>(sqlite3_column_int64(m_stmt, c)); }
    std::int64_t time(int c) const { return isNull(c) ? INT64_MIN : i64(c); }
    double f64(int c) const { return sqlite3_column_double(m_stmt, c); }
    std::string text(int c) const
    {
        const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, c));
        return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, c))) : std::string();
    }
    std::string_view blob(int c) const
    {
        const void* p = sqlite3_column_blob(m_stmt, c);
        return p
            ? std::string_view(static_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, c)))
            : std::string_view();
    }

private:
    Stmt& check(int rc)
    {
        if (rc != SQLITE_OK)
            throwSql(m_db, rc, "bind");
        return *this;
    }
    sqlite3* m_db;
    sqlite3_stmt* m_stmt = nullptr;
};

} // namespace faultline::core::casefile
