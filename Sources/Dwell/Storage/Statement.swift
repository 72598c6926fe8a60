// A prepared SQLite statement: binding, stepping and reading columns.
internal import CSQLite
internal import Foundation

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
