/// Why a store could not be used.
package enum StoreError: Error, CustomStringConvertible, Sendable {
  /// The file was written by a newer version of Dwell. It is left untouched.
  case newerSchema(migration: String)
  /// SQLite failed.
  case database(DatabaseError)
  /// The disk is full: a fold saved every total and count but not the rows of these
  /// closed visits, which wait in memory for room.
  case rowsWaitingForSpace(Int)

  package var description: String {
    switch self {
    case .newerSchema(let migration):
      return
        "the store was written by a newer version of Dwell (it has migration '\(migration)'); it was left untouched"
    case .database(let error): return error.description
    case .rowsWaitingForSpace(let rows):
      return
        "the disk is full: every total and count is saved, but the rows of \(rows) visits (kept for export) wait in memory until there is room, and are lost if the app ends first"
    }
  }
}

extension StoreError {
  /// Whether the error is SQLite's "database or disk is full".
  var isDiskFull: Bool {
    if case .database(let error) = self { return error.resultCode.primary == .full }
    return false
  }

  /// Runs `body`, reporting SQLite's errors as ``database(_:)``: the one place where a
  /// ``DatabaseError`` becomes a ``StoreError``.
  static func mapping<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as DatabaseError {
      throw StoreError.database(error)
    }
  }
}
