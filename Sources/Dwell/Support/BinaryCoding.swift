/// Little-endian binary encoding for the crash journal.
struct BinaryWriter {
  private(set) var bytes: [UInt8] = []

  /// Creates a writer whose output starts with `reserved` zero bytes (room for a header).
  init(capacity: Int = 512, reserved: Int = 0) {
    bytes.reserveCapacity(capacity + reserved)
    bytes.append(contentsOf: repeatElement(0, count: reserved))
  }

  mutating func int64(_ value: Int64) {
    let v = UInt64(bitPattern: value)
    for shift in stride(from: 0 as UInt64, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: v >> shift)) }
  }

  mutating func int(_ value: Int) { int64(Int64(value)) }

  mutating func string(_ value: String) {
    int(value.utf8.count)
    bytes.append(contentsOf: value.utf8)
  }

  mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }
}

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

  mutating func bool() -> Bool? {
    guard offset < bytes.endIndex else { return nil }
    defer { offset += 1 }
    return bytes[offset] != 0
  }
}

/// FNV-1a, 64 bits: detects torn or garbled journal slots.
func fnv1a(_ bytes: some Collection<UInt8>) -> UInt64 {
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  for byte in bytes {
    hash ^= UInt64(byte)
    hash &*= 0x0000_0100_0000_01B3
  }
  return hash
}
