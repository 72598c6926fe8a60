// Writing what the tool produces, to a file or a descriptor, with every write and close checked.
internal import Foundation

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// The one place `dwell` writes its output: files (`record`, `export --out`, `--html`,
/// `balance --json FILE`...) and the standard output. A write or close that fails is an
/// error with the reason (a full disk, `/dev/full`, a closed pipe), never a success.
package enum Output {
  /// A write that failed: what was being written and why.
  package struct Failure: Error, CustomStringConvertible, Sendable {
    package var description: String
  }

  /// Writes `text` to the file at `path`, created or emptied first.
  ///
  /// - Throws: ``Failure`` ("cannot write PATH: No space left on device") when opening,
  ///   any write or the close fails.
  package static func write(_ text: String, to path: String) throws(Failure) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw failure(path, errno) }
    let written = put(text, fd: fd)
    let closed = close(fd) == 0 ? 0 : errno
    if let problem = written ?? (closed == 0 ? nil : closed) { throw failure(path, problem) }
  }

  /// Writes `text` to descriptor `fd`, whole (short writes continued, interrupted ones
  /// retried).
  ///
  /// - Returns: the `errno` of the write that failed, or nil when all was written.
  @discardableResult
  package static func put(_ text: String, fd: Int32) -> Int32? {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { raw in
        #if canImport(Glibc)
          Glibc.write(fd, raw.baseAddress, raw.count)
        #else
          Darwin.write(fd, raw.baseAddress, raw.count)
        #endif
      }
      if written > 0 {
        bytes = bytes.dropFirst(written)
      } else if written < 0 && errno == EINTR {
        continue
      } else {
        return written < 0 ? errno : EIO
      }
    }
    return nil
  }

  /// "cannot write PATH: REASON".
  package static func failure(_ what: String, _ code: Int32) -> Failure {
    Failure(description: "cannot write \(what): \(String(cString: strerror(code)))")
  }
}
