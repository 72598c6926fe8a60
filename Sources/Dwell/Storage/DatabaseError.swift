/// An error reported by SQLite: the extended result code, SQLite's message, and the SQL.
///
/// Bound values never appear in the description: screen names may be personal data.
package struct DatabaseError: Error, CustomStringConvertible, Sendable {
  /// The extended result code, by name.
  package var resultCode: ResultCode
  /// SQLite's message.
  package var message: String
  /// The statement that failed, if any.
  package var sql: String?

  package init(_ resultCode: ResultCode, message: String, sql: String? = nil) {
    self.resultCode = resultCode
    self.message = message
    self.sql = sql
  }

  /// The extended SQLite result code, as a number.
  package var code: Int32 { resultCode.rawValue }

  /// Whether the file is damaged or is not a database.
  package var isCorruption: Bool { [.corrupt, .notADatabase].contains(resultCode.primary) }

  package var description: String {
    var text = "SQLite error \(code): \(message)"
    if let sql { text += " (while running \(sql))" }
    return text
  }
}
