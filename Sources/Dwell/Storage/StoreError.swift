/// Why a store could not be used.
package enum StoreError: Error, CustomStringConvertible, Sendable {
  /// The file was written by a newer version of Dwell. It is left untouched.
  case newerSchema(migration: String)
  /// SQLite failed.
  case database(DatabaseError)

  package var description: String {
    switch self {
    case .newerSchema(let migration):
      return
        "the store was written by a newer version of Dwell (it has migration '\(migration)'); it was left untouched"
    case .database(let error): return error.description
    }
  }
}

extension StoreError {
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
