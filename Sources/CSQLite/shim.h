#ifndef DWELL_CSQLITE_SHIM_H
#define DWELL_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro Swift cannot import: it tells SQLite to copy the bytes.
static inline int dwell_sqlite3_bind_text(sqlite3_stmt *stmt, int index, const char *text, int length) {
  return sqlite3_bind_text(stmt, index, text, length, SQLITE_TRANSIENT);
}
#endif
