// The files a command names: read bounded, written with every write and the close checked.
internal import DwellHarness
internal import Foundation

/// Reading and writing the files a command names.
enum Files {
  /// Writes `text` to the file at `path` through ``Output``, every write and the close
  /// checked.
  static func write(_ text: String, to path: String) throws(Failure) {
    do {
      try Output.write(text, to: path)
    } catch {
      throw Failure(error.description)
    }
  }

  static func read(_ path: String) throws -> String {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw Failure("cannot read \(path): no such file, or not readable")
    }
    return String(decoding: data, as: UTF8.self)
  }

  static func temporaryStore() -> String {
    let dir = FileManager.default.temporaryDirectory.path
    return "\(dir)/dwell-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max)).sqlite"
  }

}
