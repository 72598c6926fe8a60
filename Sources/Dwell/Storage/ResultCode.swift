internal import CSQLite

/// A SQLite result code, primary or extended, by name (after GRDB's `ResultCode`): errors
/// compare `error.resultCode.primary == .busy`, never a raw number.
package struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  package let rawValue: Int32

  package init(rawValue: Int32) { self.rawValue = rawValue }

  /// The primary code of an extended one (`SQLITE_IOERR_WRITE` is `.ioError`).
  package var primary: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

  package static let ok = ResultCode(rawValue: SQLITE_OK)
  package static let error = ResultCode(rawValue: SQLITE_ERROR)
  package static let `internal` = ResultCode(rawValue: SQLITE_INTERNAL)
  package static let permission = ResultCode(rawValue: SQLITE_PERM)
  package static let abort = ResultCode(rawValue: SQLITE_ABORT)
  package static let busy = ResultCode(rawValue: SQLITE_BUSY)
  package static let locked = ResultCode(rawValue: SQLITE_LOCKED)
  package static let noMemory = ResultCode(rawValue: SQLITE_NOMEM)
  package static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
  package static let interrupt = ResultCode(rawValue: SQLITE_INTERRUPT)
  package static let ioError = ResultCode(rawValue: SQLITE_IOERR)
  package static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
  package static let full = ResultCode(rawValue: SQLITE_FULL)
  package static let cannotOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
  package static let schema = ResultCode(rawValue: SQLITE_SCHEMA)
  package static let tooBig = ResultCode(rawValue: SQLITE_TOOBIG)
  package static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
  package static let mismatch = ResultCode(rawValue: SQLITE_MISMATCH)
  package static let misuse = ResultCode(rawValue: SQLITE_MISUSE)
  package static let range = ResultCode(rawValue: SQLITE_RANGE)
  package static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)
  package static let row = ResultCode(rawValue: SQLITE_ROW)
  package static let done = ResultCode(rawValue: SQLITE_DONE)

  /// SQLite's English name of the code ("database is locked").
  package var description: String { String(cString: sqlite3_errstr(rawValue)) }
}
