internal import CSQLite
internal import Foundation

/// One SQLite connection and its prepared statements. Not `Sendable`: ``Store`` confines
/// it to one serial queue.
final class Database {
  let handle: OpaquePointer
  private var cache: [String: Statement] = [:]
  /// Off while ``Store`` runs a read: a statement that would write is refused.
  private(set) var allowsWrites = true

  /// How long a statement waits for another connection's lock by default, in milliseconds.
  static let busyTimeout: Int32 = 5_000

  /// Opens (or creates) the database at `path`, waiting at most `busyTimeout` milliseconds
  /// for a lock another connection holds.
  init(path: String, readOnly: Bool = false, busyTimeout: Int32 = Database.busyTimeout) throws {
    var db: OpaquePointer?
    let flags =
      (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
      | SQLITE_OPEN_NOMUTEX
    let code = ResultCode(rawValue: sqlite3_open_v2(path, &db, flags, nil))
    guard let db else {
      throw DatabaseError(code, message: "cannot open the database")
    }
    guard code == .ok else {
      let message = String(cString: sqlite3_errmsg(db))
      sqlite3_close_v2(db)
      throw DatabaseError(code, message: message)
    }
    handle = db
    sqlite3_extended_result_codes(db, 1)
    sqlite3_busy_timeout(db, busyTimeout)
  }

  /// Waits at most `milliseconds` for another connection's lock from now on.
  func setBusyTimeout(_ milliseconds: Int32) { sqlite3_busy_timeout(handle, milliseconds) }

  deinit {
    cache.removeAll()
    sqlite3_close_v2(handle)
  }

  /// The error for a result code SQLite just returned, with its message.
  func error(_ code: Int32, _ sql: String?) -> DatabaseError {
    DatabaseError(ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
  }

  /// Runs `body` with writes refused (``Store``'s reads).
  func readOnly<T>(_ body: () throws -> T) rethrows -> T {
    let outer = allowsWrites
    allowsWrites = false
    defer { allowsWrites = outer }
    return try body()
  }

  /// Runs one or more statements with no results.
  func execute(_ sql: String) throws {
    guard allowsWrites else {
      throw DatabaseError(.readOnly, message: "a read ran statements that may write", sql: sql)
    }
    let code = sqlite3_exec(handle, sql, nil, nil, nil)
    guard code == SQLITE_OK else { throw error(code, sql) }
  }

  /// A prepared statement, cached by its SQL text and reset before it is returned.
  func statement(_ sql: String) throws -> Statement {
    let statement: Statement
    if let cached = cache[sql] {
      cached.reset()
      statement = cached
    } else {
      statement = try Statement(database: self, sql: sql)
      cache[sql] = statement
    }
    guard allowsWrites || statement.isReadOnly else {
      throw DatabaseError(.readOnly, message: "a read ran a statement that writes", sql: sql)
    }
    return statement
  }

  /// Runs `body` in an immediate transaction; rolls back if it throws.
  func transaction<T>(_ body: () throws -> T) throws -> T {
    try execute("BEGIN IMMEDIATE")
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }

  /// The value of a single-value query, or `nil` when it returns no row.
  func scalar(_ sql: String) throws -> Int64? {
    let statement = try statement(sql)
    // A statement left on a row keeps its read transaction open: reset it.
    defer { statement.reset() }
    return try statement.step() ? statement.int(0) : nil
  }
}

extension Int64: DatabaseValue {
  func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { sqlite3_bind_int64(statement, index, self) }
}

extension Int: DatabaseValue {
  func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { Int64(self).bind(to: statement, at: index) }
}

extension Int32: DatabaseValue {
  func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { Int64(self).bind(to: statement, at: index) }
}

extension Bool: DatabaseValue {
  func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
    Int64(self ? 1 : 0).bind(to: statement, at: index)
  }
}

extension Double: DatabaseValue {
  func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { sqlite3_bind_double(statement, index, self) }
}

extension String: DatabaseValue {
  /// Binds every byte, a NUL included (SQLite copies them).
  func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
    guard let length = Int32(exactly: utf8.count) else { return SQLITE_TOOBIG }
    return dwell_sqlite3_bind_text(statement, index, self, length)
  }
}

extension Optional: DatabaseValue where Wrapped: DatabaseValue {
  /// `nil` binds `NULL`.
  func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
    self?.bind(to: statement, at: index) ?? sqlite3_bind_null(statement, index)
  }
}
