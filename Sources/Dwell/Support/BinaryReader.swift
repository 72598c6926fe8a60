// Reading the journal's little-endian binary form, bounds checked.

/// Reads what ``BinaryWriter`` wrote; every read is bounds-checked and returns `nil` when
/// the data is short or malformed.
struct BinaryReader {
  private let bytes: ArraySlice<UInt8>
  private var offset: Int

  init(_ bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    offset = bytes.startIndex
  }

  var isAtEnd: Bool { offset == bytes.endIndex }

  mutating func int64() -> Int64? {
    guard offset + 8 <= bytes.endIndex else { return nil }
    var value: UInt64 = 0
    for k in 0..<8 { value |= UInt64(bytes[offset + k]) << (8 * UInt64(k)) }
    offset += 8
    return Int64(bitPattern: value)
  }

  mutating func int(limit: Int = 1 << 24) -> Int? {
    guard let value = int64(), value >= 0, value <= limit else { return nil }
    return Int(value)
  }

  mutating func string() -> String? {
    guard let count = int(limit: 1 << 20), offset + count <= bytes.endIndex else { return nil }
    defer { offset += count }
    return String(decoding: bytes[offset..<(offset + count)], as: UTF8.self)
  }

  /// The next `count` bytes as they are.
  mutating func raw(_ count: Int) -> ArraySlice<UInt8>? {
    guard count >= 0, offset + count <= bytes.endIndex else { return nil }
    defer { offset += count }
    return bytes[offset..<(offset + count)]
  }

  mutating func bool() -> Bool? {
    guard offset < bytes.endIndex else { return nil }
    defer { offset += 1 }
    return bytes[offset] != 0
  }
}
