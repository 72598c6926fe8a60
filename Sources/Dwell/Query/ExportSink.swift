internal import Foundation

/// Where an export's bytes go as they are made: a file handle, written 64 KiB at a time,
/// or memory (for the text convenience). Not `Sendable`: one export writes to it.
final class ExportSink {
  private let handle: FileHandle?
  private var buffer: [UInt8] = []
  /// The most bytes kept before they go to the handle.
  static let chunk = 64 << 10

  /// A sink that writes to `handle` (left open when the export ends).
  init(_ handle: FileHandle) {
    self.handle = handle
    buffer.reserveCapacity(Self.chunk)
  }

  /// A sink that keeps everything in memory (``text``).
  init() { handle = nil }

  /// Everything written, for a sink in memory.
  var text: String { String(decoding: buffer, as: UTF8.self) }

  /// Adds `bytes`; past ``chunk`` bytes they go to the handle.
  ///
  /// - Throws: the handle's error (a full disk, a closed handle or pipe).
  func write(_ bytes: some Sequence<UInt8>) throws {
    buffer.append(contentsOf: bytes)
    if buffer.count >= Self.chunk { try flush() }
  }

  /// Adds the UTF-8 bytes of `text`.
  func write(_ text: String) throws { try write(text.utf8) }

  /// Sends what is kept to the handle.
  ///
  /// - Throws: the handle's error.
  func flush() throws {
    guard let handle, !buffer.isEmpty else { return }
    try handle.write(contentsOf: buffer)
    buffer.removeAll(keepingCapacity: true)
  }
}
