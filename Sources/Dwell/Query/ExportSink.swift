internal import Foundation

/// Where an export's bytes go as they are made: a file handle or a writing function, 64 KiB
/// at a time, or memory (for the text convenience). Not `Sendable`: one export writes to it.
final class ExportSink {
  private let destination: ((ArraySlice<UInt8>) throws -> Void)?
  private var buffer: [UInt8] = []
  /// The most bytes kept before they go to the destination.
  static let chunk = 64 << 10

  /// A sink that writes to `handle` (left open when the export ends).
  convenience init(_ handle: FileHandle) {
    self.init { bytes in try handle.write(contentsOf: bytes) }
  }

  /// A sink that gives its bytes to `write`, which throws when they cannot be written.
  init(_ write: @escaping (ArraySlice<UInt8>) throws -> Void) {
    destination = write
    buffer.reserveCapacity(Self.chunk)
  }

  /// A sink that keeps everything in memory (``text``).
  init() { destination = nil }

  /// Everything written, for a sink in memory.
  var text: String { String(decoding: buffer, as: UTF8.self) }

  /// Adds `bytes`; past ``chunk`` bytes they go to the destination.
  ///
  /// - Throws: the destination's error (a full disk, a closed handle or pipe).
  func write(_ bytes: some Sequence<UInt8>) throws {
    buffer.append(contentsOf: bytes)
    if buffer.count >= Self.chunk { try flush() }
  }

  /// Adds the UTF-8 bytes of `text`.
  func write(_ text: String) throws { try write(text.utf8) }

  /// Sends what is kept to the destination.
  ///
  /// - Throws: the destination's error.
  func flush() throws {
    guard let destination, !buffer.isEmpty else { return }
    try destination(buffer[...])
    buffer.removeAll(keepingCapacity: true)
  }
}
