/// An error reported by SQLite: the extended result code, SQLite's message, and the SQL.
///
/// Bound values never appear in the description: screen names may be personal data.
public struct DatabaseError: Error, CustomStringConvertible, Sendable {
  /// The extended result code, by name.
  package var resultCode: ResultCode
  /// SQLite's message.
  public var message: String
  /// The statement that failed, if any.
  public var sql: String?

  package init(_ resultCode: ResultCode, message: String, sql: String? = nil) {
    self.resultCode = resultCode
    self.message = message
    self.sql = sql
  }

  /// The extended SQLite result code, as a number.
  public var code: Int32 { resultCode.rawValue }

  /// Whether the file is damaged or is not a database.
  public var isCorruption: Bool { [.corrupt, .notADatabase].contains(resultCode.primary) }

  public var description: String {
    var text = "SQLite error \(code): \(message)"
    if let sql { text += " (while running \(sql))" }
    return text
  }
}
