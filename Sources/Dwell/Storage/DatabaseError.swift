/// An error reported by SQLite: the extended result code, SQLite's message, and the SQL.
///
/// Bound values never appear in the description: screen names may be personal data.
public struct DatabaseError: Error, CustomStringConvertible, Sendable {
  /// The extended SQLite result code.
  public var code: Int32
  /// SQLite's message.
  public var message: String
  /// The statement that failed, if any.
  public var sql: String?

  /// The primary result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, ...).
  public var primaryCode: Int32 { code & 0xFF }

  /// Whether the file is damaged or is not a database.
  public var isCorruption: Bool { primaryCode == 11 || primaryCode == 26 }  // CORRUPT, NOTADB

  public var description: String {
    var text = "SQLite error \(code): \(message)"
    if let sql { text += " (while running \(sql))" }
    return text
  }
}
