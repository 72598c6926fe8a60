// Reading a rule file: its size checked before any byte is read, and never more read than the limit.
package import Dwell
package import Foundation

/// The bytes of rule files (Lua scripts, JSON rules), bounded.
package enum RuleFile {
  /// The most bytes a rule file may have (also the bound of a pack's scenarios and persona
  /// files, read through ``read(_:limit:)``).
  package static let limit = 4 << 20

  /// The bytes of the file at `path`: refused from its size (stat) when over `limit` (whole
  /// MiB), and read at most `limit + 1` bytes in any case (a file growing, a device, which
  /// stat cannot size), so a huge file costs neither time nor memory.
  /// A FIFO or a socket is refused before it is opened (opening a FIFO waits for a writer
  /// for ever); a device is read as far as the limit, like a growing file.
  package static func read(_ path: String, limit: Int = limit) throws(RuleError) -> Data {
    if let kind = SpecialFile.at(path), kind == .fifo || kind == .socket {
      throw RuleError("\(path): \(kind.rawValue), not a file")
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    guard size <= limit else { throw RuleError("\(path): larger than \(limit >> 20) MiB") }
    guard let handle = FileHandle(forReadingAtPath: path) else { throw RuleError("\(path): cannot be read") }
    defer { try? handle.close() }
    let data: Data
    do {
      data = try handle.read(upToCount: limit + 1) ?? Data()
    } catch {
      throw RuleError("\(path): cannot be read")
    }
    guard data.count <= limit else { throw RuleError("\(path): larger than \(limit >> 20) MiB") }
    return data
  }

  /// The text of a Lua script: a UTF-8 byte order mark at its start is skipped.
  static func script(_ path: String) throws(RuleError) -> String {
    var data = try read(path)
    if data.starts(with: [0xEF, 0xBB, 0xBF]) { data.removeFirst(3) }
    return String(decoding: data, as: UTF8.self)
  }
}
