internal import CSQLite
internal import Foundation

/// One SQLite connection. Not `Sendable`: ``Store`` confines it to one serial queue.
final class Database {
  let handle: OpaquePointer
  private var cache: [String: Statement] = [:]

  /// Opens (or creates) the database at `path`.
  init(path: String, readOnly: Bool = false) throws {
    var db: OpaquePointer?
    let flags =
      (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
      | SQLITE_OPEN_NOMUTEX
    let code = sqlite3_open_v2(path, &db, flags, nil)
    guard let db else {
      throw DatabaseError(code: code, message: "cannot open the database", sql: nil)
    }
    guard code == SQLITE_OK else {
      let message = String(cString: sqlite3_errmsg(db))
      sqlite3_close_v2(db)
      throw DatabaseError(code: code, message: message, sql: nil)
    }
    handle = db
    sqlite3_extended_result_codes(db, 1)
    sqlite3_busy_timeout(db, 5_000)
  }

  deinit {
    cache.removeAll()
    sqlite3_close_v2(handle)
  }

  func error(_ code: Int32, _ sql: String?) -> DatabaseError {
    DatabaseError(code: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
  }

  /// Runs one or more statements with no results.
  func execute(_ sql: String) throws {
    let code = sqlite3_exec(handle, sql, nil, nil, nil)
    guard code == SQLITE_OK else { throw error(code, sql) }
  }

  /// A prepared statement, cached by its SQL text and reset before it is returned.
  func statement(_ sql: String) throws -> Statement {
    if let cached = cache[sql] {
      cached.reset()
      return cached
    }
    let statement = try Statement(database: self, sql: sql)
    cache[sql] = statement
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

  func reset() {
    sqlite3_reset(pointer)
    sqlite3_clear_bindings(pointer)
  }

  @discardableResult
  func bind(_ values: (any StatementValue)?...) -> Statement {
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      switch value {
      case nil: sqlite3_bind_null(pointer, index)
      case let v as Int64: sqlite3_bind_int64(pointer, index, v)
      case let v as Int: sqlite3_bind_int64(pointer, index, Int64(v))
      case let v as Int32: sqlite3_bind_int64(pointer, index, Int64(v))
      case let v as Double: sqlite3_bind_double(pointer, index, v)
      case let v as Bool: sqlite3_bind_int64(pointer, index, v ? 1 : 0)
      case let v as String: dwell_sqlite3_bind_text(pointer, index, v, -1)
      default: sqlite3_bind_null(pointer, index)
      }
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
  func double(_ column: Int32) -> Double { sqlite3_column_double(pointer, column) }
  func isNull(_ column: Int32) -> Bool { sqlite3_column_type(pointer, column) == SQLITE_NULL }
  func text(_ column: Int32) -> String {
    guard let bytes = sqlite3_column_text(pointer, column) else { return "" }
    return String(cString: bytes)
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

/// A value that can be bound to a statement parameter.
protocol StatementValue {}
extension Int64: StatementValue {}
extension Int: StatementValue {}
extension Int32: StatementValue {}
extension Double: StatementValue {}
extension Bool: StatementValue {}
extension String: StatementValue {}
