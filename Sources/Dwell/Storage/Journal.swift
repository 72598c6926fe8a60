internal import Foundation

#if canImport(Darwin)
  internal import Darwin
#elseif canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#endif

/// The crash journal of one running engine: a small file beside the store holding every
/// change since the last fold into SQLite, rewritten whole at each checkpoint.
///
/// A checkpoint is one `pwrite` of a few hundred bytes into the page cache: it survives
/// the process being killed, costs microseconds and wears no flash. The file has two
/// slots written alternately, each with a sequence number and a checksum, so a torn write
/// leaves the previous slot intact. Folds into SQLite happen every few seconds of use, on
/// `background` and on `terminate`; the next launch folds the journal of a process that
/// died. Not `Sendable`: the engine uses it under its commit lock.
final class Journal {
  static let slotSize = 1 << 19
  static let headerSize = 24
  static let magic: UInt32 = 0x444A_5731  // "DJW1"
  /// The bytes of each slot written (so allocated on disk) when the journal is created.
  static let reservedSize = 32 << 10

  let path: String
  let owner: String
  private let descriptor: Int32
  private(set) var sequence: UInt64 = 0

  /// Owners of journals open in this process (an abandoned engine is no longer one).
  private static let live = Locked<Set<String>>([])

  /// Creates the journal of a new engine beside the store at `storePath`.
  ///
  /// - Throws: ``JournalError`` when the file cannot be created.
  init(storePath: String) throws {
    let pid = ProcessInfo.processInfo.processIdentifier
    owner = "\(pid).\(UInt64.random(in: 1...UInt64.max) & 0xFFFF_FFFF_FFFF)"
    path = Self.prefix(storePath) + owner
    descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw JournalError.failed(.create) }
    // Take the room of a record of totals in both slots now, while there may be some: on a
    // full disk, a record that fits the pages a slot already has is still written.
    let zeros = [UInt8](repeating: 0, count: Self.reservedSize)
    for slot in 0..<2 {
      _ = zeros.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(slot * Self.slotSize)) }
    }
    Self.live.withLock { _ = $0.insert(owner) }
  }

  deinit {
    close(descriptor)
    Self.live.withLock { _ = $0.remove(owner) }
  }

  /// Releases the journal without removing it, as a dying process would.
  func abandon() { Self.live.withLock { _ = $0.remove(owner) } }

  /// Deletes the journal (after a final fold).
  func remove() {
    Self.live.withLock { _ = $0.remove(owner) }
    unlink(path)
  }

  static func prefix(_ storePath: String) -> String { storePath + "-journal-" }

  /// Deletes a journal file by path.
  static func remove(path: String) { unlink(path) }

  /// Writes a record as the next sequence number. `record` starts with ``headerSize``
  /// bytes of room for the header, which this fills in.
  ///
  /// - Throws: ``JournalError`` when the record does not fit or the write fails.
  func write(_ record: inout [UInt8]) throws {
    let length = record.count - Self.headerSize
    guard length >= 0, record.count <= Self.slotSize else {
      throw JournalError(operation: .write, message: "a record of \(record.count) bytes does not fit a slot")
    }
    let next = sequence + 1
    var header = BinaryWriter(capacity: Self.headerSize)
    header.int64(Int64(Self.magic) | Int64(length) << 32)
    header.int64(Int64(bitPattern: next))
    header.int64(Int64(bitPattern: fnv1a(record[Self.headerSize...]) ^ next))
    record.replaceSubrange(0..<Self.headerSize, with: header.bytes)
    let offset = off_t(Int(next % 2) * Self.slotSize)
    let written = record.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, offset) }
    guard written >= 0 else { throw JournalError.failed(.write) }
    guard written == record.count else {
      throw JournalError(operation: .write, message: "\(written) of \(record.count) bytes written (the disk is full?)")
    }
    sequence = next
  }

  /// Writes a batch as the next record.
  func write(_ batch: CheckpointBatch) throws {
    var record = batch.encoded(headerSpace: Self.headerSize)
    try write(&record)
  }

  /// The newest intact record of a journal file: its sequence number and payload.
  static func read(path: String) -> (sequence: UInt64, payload: ArraySlice<UInt8>)? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    var best: (UInt64, ArraySlice<UInt8>)?
    for slot in 0..<2 {
      guard (try? handle.seek(toOffset: UInt64(slot * slotSize))) != nil,
        let head = try? handle.read(upToCount: headerSize), head.count == headerSize
      else { continue }
      var reader = BinaryReader(Array(head)[...])
      guard let word = reader.int64(), let seq = reader.int64(), let sum = reader.int64(),
        UInt32(truncatingIfNeeded: word) == magic
      else { continue }
      let length = Int(word >> 32)
      guard length >= 0, length <= slotSize - headerSize,
        let body = try? handle.read(upToCount: length), body.count == length
      else { continue }
      let payload = Array(body)[...]
      let sequence = UInt64(bitPattern: seq)
      guard fnv1a(payload) ^ sequence == UInt64(bitPattern: sum) else { continue }
      if best.map({ sequence > $0.0 }) ?? true { best = (sequence, payload) }
    }
    return best
  }

  /// Journal files beside the store, by owner.
  static func list(storePath: String) -> [(owner: String, path: String)] {
    let url = URL(fileURLWithPath: storePath)
    let directory = url.deletingLastPathComponent().path
    let stem = url.lastPathComponent + "-journal-"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.filter { $0.hasPrefix(stem) }.sorted().map {
      (String($0.dropFirst(stem.count)), directory + "/" + $0)
    }
  }

  /// Whether the process that owns a journal may still be running and writing it.
  /// `boot` is the journal's boot session, `nil` when it holds no intact record (a process
  /// killed before its first checkpoint): then only the process id tells.
  static func isAlive(owner: String, boot: String?, currentBoot: String) -> Bool {
    if let boot, boot != currentBoot { return false }
    if live.withLock({ $0.contains(owner) }) { return true }
    guard let pidText = owner.split(separator: ".").first, let pid = Int32(pidText) else { return false }
    if pid == ProcessInfo.processInfo.processIdentifier { return false }
    return kill(pid, 0) == 0 || errno == EPERM
  }
}
