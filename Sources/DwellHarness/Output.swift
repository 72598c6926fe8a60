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
  package struct WriteFailure: Error, CustomStringConvertible, Sendable {
    package var description: String
  }

  /// Writes `text` to the file at `path`, created or emptied first, unless that file is one
  /// of `inputs` (the store, its -wal or -shm, a rule or persona file, a script: what the
  /// command reads), by device and inode, so `report S --html S` or a link to S is refused
  /// before a byte of S is lost.
  ///
  /// - Throws: ``WriteFailure`` when `path` is one of `inputs`, or ("cannot write PATH: No space
  ///   left on device") when opening, any write or the close fails.
  package static func write(_ text: String, to path: String, sparing inputs: [String]) throws(WriteFailure) {
    let fd = try open(path, sparing: inputs)
    let written = put(text, fd: fd)
    try close(fd, path, after: written)
  }

  /// Opens the file at `path` for writing as ``write(_:to:sparing:)`` does (refused when it
  /// is one of `inputs`, created or emptied), for output written in pieces (`export`);
  /// ``close(_:_:after:)`` ends it.
  ///
  /// - Throws: ``WriteFailure`` when `path` is one of `inputs` or cannot be opened or emptied.
  package static func open(_ path: String, sparing inputs: [String]) throws(WriteFailure) -> Int32 {
    #if canImport(Glibc)
      let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
    #else
      let fd = Darwin.open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
    #endif
    guard fd >= 0 else { throw failure(path, errno) }
    var output = stat()
    guard fstat(fd, &output) == 0 else {
      let code = errno
      _ = closeDescriptor(fd)
      throw failure(path, code)
    }
    if let input = inputs.first(where: { isFile($0, output) }) {
      _ = closeDescriptor(fd)
      throw WriteFailure(
        description: "will not write \(path): it is \(input), which this command reads; name another file")
    }
    // Emptied only now, when it is known not to be an input (a device such as /dev/full is
    // not a file to empty).
    guard (output.st_mode & S_IFMT) != S_IFREG || ftruncate(fd, 0) == 0 else {
      let code = errno
      _ = closeDescriptor(fd)
      throw failure(path, code)
    }
    return fd
  }

  /// Closes `fd`, opened by ``open(_:sparing:)``; throws for `written` (the `errno` of a
  /// failed write) or a failed close.
  package static func close(_ fd: Int32, _ path: String, after written: Int32?) throws(WriteFailure) {
    let closed = closeDescriptor(fd)
    if let problem = written ?? (closed == 0 ? nil : closed) { throw failure(path, problem) }
  }

  /// `close(2)`: 0, or its `errno`.
  private static func closeDescriptor(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
      Glibc.close(fd) == 0 ? 0 : errno
    #else
      Darwin.close(fd) == 0 ? 0 : errno
    #endif
  }

  /// Whether the file at `path` is the one `status` describes (same device and inode).
  private static func isFile(_ path: String, _ status: stat) -> Bool {
    var file = stat()
    return stat(path, &file) == 0 && file.st_dev == status.st_dev && file.st_ino == status.st_ino
  }

  /// The files of the store at `path`: the database and its -wal and -shm.
  package static func storeFiles(_ path: String?) -> [String] {
    path.map { [$0, $0 + "-wal", $0 + "-shm"] } ?? []
  }

  /// The files of a rule pack at `path`: the file itself, or a folder's files and its
  /// tests' and personas' (scripts, scenarios, `balance/personas.lua`).
  package static func packFiles(_ path: String?) -> [String] {
    guard let path else { return [] }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
      return [path]
    }
    return [path, path + "/tests", path + "/balance"].flatMap { folder in
      ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).map { folder + "/" + $0 }
    }
  }

  /// Writes `text` to descriptor `fd`, whole (short writes continued, interrupted ones
  /// retried).
  ///
  /// - Returns: the `errno` of the write that failed, or nil when all was written.
  @discardableResult
  package static func put(_ text: String, fd: Int32) -> Int32? {
    put(Array(text.utf8)[...], fd: fd)
  }

  /// Writes `bytes` to descriptor `fd`, whole (as ``put(_:fd:)``).
  ///
  /// - Returns: the `errno` of the write that failed, or nil when all was written.
  @discardableResult
  package static func put(_ bytes: ArraySlice<UInt8>, fd: Int32) -> Int32? {
    var bytes = bytes
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
  package static func failure(_ what: String, _ code: Int32) -> WriteFailure {
    WriteFailure(description: "cannot write \(what): \(String(cString: strerror(code)))")
  }
}
