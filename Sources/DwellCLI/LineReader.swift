internal import Foundation

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// Reads lines from a file descriptor as they arrive (a pipe drives `dwell sim` live),
/// retrying reads a signal interrupts (a resized terminal must not end the session). Lines
/// end at LF, CRLF or a lone CR, as ``TextLines`` splits a file's text. A line
/// longer than ``lineLimit`` ends the input (``isOverlong``), so a file with no newline
/// (`/dev/zero`, a huge file) is not read whole into memory.
final class LineReader {
  /// The most bytes a line may have: 64 KiB.
  static let lineLimit = 1 << 16

  private let fd: Int32
  private var buffer: [UInt8] = []
  private var ended = false
  /// Whether the last line ended at a CR, so an LF first in what follows is that line's end.
  private var afterCR = false
  /// Whether the input ended at a line longer than ``lineLimit``.
  private(set) var isOverlong = false

  init(fd: Int32) { self.fd = fd }

  /// The next line without its newline, or `nil` at the end of the input.
  func next() -> String? {
    while true {
      if afterCR, let first = buffer.first {
        afterCR = false
        if first == 10 { buffer.removeFirst() }
      }
      if let end = buffer.firstIndex(where: { $0 == 10 || $0 == 13 }) {
        let line = String(decoding: buffer[..<end], as: UTF8.self)
        afterCR = buffer[end] == 13
        buffer.removeSubrange(...end)
        return line
      }
      if buffer.count > Self.lineLimit {
        isOverlong = true
        ended = true
        buffer.removeAll()
        return nil
      }
      if ended {
        guard !buffer.isEmpty else { return nil }
        defer { buffer.removeAll() }
        return String(decoding: buffer, as: UTF8.self)
      }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count > 0 {
        buffer += chunk[..<count]
      } else if count == 0 || errno != EINTR {
        ended = true
      }
    }
  }
}
