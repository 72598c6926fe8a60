#if canImport(Darwin)
  internal import Darwin
#elseif canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#endif

/// A crash journal that could not be created or written: the operation, and the `errno`
/// it failed with. Not a ``DatabaseError``: an `errno` is no SQLite result code (`EAGAIN`
/// is 11, which is `SQLITE_CORRUPT`).
struct JournalError: Error, CustomStringConvertible, Sendable {
  enum Operation: Sendable {
    /// Creating the file beside the store.
    case create
    /// Writing a checkpoint record into it.
    case write
  }

  var operation: Operation
  /// The `errno` of the failed call; `nil` for a short write or a record too large.
  var errorNumber: Int32?
  var message: String

  /// The failure of the system call just made, from `errno`.
  static func failed(_ operation: Operation) -> JournalError {
    let code = errno
    return JournalError(operation: operation, errorNumber: code, message: String(cString: strerror(code)))
  }

  var description: String {
    "cannot \(operation == .create ? "create" : "write") the journal: \(message)"
  }
}
