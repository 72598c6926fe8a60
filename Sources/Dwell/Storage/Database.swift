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

/// A prepared statement. Finalized when released.
final class Statement {
  let pointer: OpaquePointer
  let sql: String
  private unowned let database: Database

  init(database: Database, sql: String) throws {
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v3(database.handle, sql, -1, 0, &statement, nil)
    guard code == SQLITE_OK, let statement else { throw database.error(code, sql) }
    self.pointer = statement
    self.sql = sql
    self.database = database
  }

  deinit { sqlite3_finalize(pointer) }

  /// Whether the statement leaves the database unchanged.
  var isReadOnly: Bool { sqlite3_stmt_readonly(pointer) != 0 }

  /// Ends the last run (a result code from it was already reported by ``step()``) and
  /// clears the bound values.
  func reset() {
    sqlite3_reset(pointer)
    sqlite3_clear_bindings(pointer)
  }

  /// Binds one value to each parameter, in order.
  ///
  /// - Throws: ``DatabaseError`` when the number of values is not the number of
  ///   parameters (`.misuse`), or SQLite refuses a value (`.range`, `.tooBig`, `.noMemory`).
  @discardableResult
  func bind(_ values: any DatabaseValue...) throws -> Statement {
    let parameters = Int(sqlite3_bind_parameter_count(pointer))
    guard values.count == parameters else {
      throw DatabaseError(.misuse, message: "\(values.count) values for \(parameters) parameters", sql: sql)
    }
    for (offset, value) in values.enumerated() {
      let code = value.bind(to: pointer, at: Int32(offset + 1))
      guard code == SQLITE_OK else { throw database.error(code, sql) }
    }
    return self
  }

  /// Steps once; `true` when a row is available.
  func step() throws -> Bool {
    let code = sqlite3_step(pointer)
    switch code {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw database.error(code, sql)
    }
  }

  /// Steps until done.
  func run() throws {
    while try step() {}
  }

  func int(_ column: Int32) -> Int64 { sqlite3_column_int64(pointer, column) }
  func isInteger(_ column: Int32) -> Bool { sqlite3_column_type(pointer, column) == SQLITE_INTEGER }
  /// A text column, every byte of it (`""` for `NULL`).
  func text(_ column: Int32) -> String {
    guard let bytes = sqlite3_column_text(pointer, column) else { return "" }
    return String(
      decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(pointer, column))), as: UTF8.self)
  }

  /// A `YYYY-MM-DD` column read in place, without making a string (loading a year of
  /// rollups parses tens of thousands of them).
  func day(_ column: Int32) -> Day? {
    guard let bytes = sqlite3_column_text(pointer, column), sqlite3_column_bytes(pointer, column) == 10 else {
      return nil
    }
    return Day(utf8: UnsafeBufferPointer(start: bytes, count: 10))
  }
}

/// A Swift value that binds to a statement parameter. Only these types conform, so a value
/// SQLite cannot store is a compile error, not a silent `NULL`.
protocol DatabaseValue {
  /// Binds the value at the 1-based `index`; returns SQLite's result code.
  func bind(to statement: OpaquePointer, at index: Int32) -> Int32
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
