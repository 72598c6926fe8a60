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

  /// Appends `raw` as it is (its length written before it by the caller).
  mutating func raw(_ raw: [UInt8]) { bytes.append(contentsOf: raw) }
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
