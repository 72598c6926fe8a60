// The files a command names: read bounded, written with every write and the close checked.
internal import Dwell
internal import DwellHarness
internal import DwellLua
internal import Foundation

/// Reading and writing the files a command names.
enum Files {
  /// Writes `text` to the file at `path` through ``Output``, every write and the close
  /// checked; refused when `path` is one of `inputs`, the files the command reads.
  static func write(_ text: String, to path: String, sparing inputs: [String]) throws(CommandFailure) {
    do {
      try Output.write(text, to: path, sparing: inputs)
    } catch {
      throw CommandFailure(error.description)
    }
  }

  /// The most bytes a trace may have: 64 MiB, about 800,000 events.
  static let traceLimit = 64 << 20

  /// The text of the trace at `path`: refused from its size (before any byte is read) when
  /// over ``traceLimit``, read through the rule files' bounded reader.
  static func readTrace(_ path: String) throws(CommandFailure) -> String {
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw CommandFailure("cannot read \(path): no such file, or not readable")
    }
    do {
      return String(decoding: try RuleFile.read(path, limit: traceLimit), as: UTF8.self)
    } catch {
      throw CommandFailure(error.description)
    }
  }

  static func temporaryStore() -> String {
    let dir = FileManager.default.temporaryDirectory.path
    return "\(dir)/dwell-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max)).sqlite"
  }

}
