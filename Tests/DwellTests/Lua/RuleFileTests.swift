import Foundation
import Testing

// Reading rule files: refused from the size before reading, never more read than the limit.
@testable import Dwell
@testable import DwellLua

@Suite struct RuleFileTests {
  private func directory() throws -> String {
    let path = NSTemporaryDirectory() + "rule-file-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// A sparse file of 1 GiB: refused from its size, before its bytes are read.
  @Test(arguments: ["pack.lua", "rules.json"])
  func aHugeFileIsRefusedFromItsSize(name: String) throws {
    let folder = try directory()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/" + name
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.truncate(atOffset: 1 << 30)
    try handle.close()
    let started = ProcessInfo.processInfo.systemUptime
    #expect { _ = try RuleSource.load(path) } throws: { "\($0)".contains("larger than 4 MiB") }
    #expect(ProcessInfo.processInfo.systemUptime - started < 2 * Double(TestEnvironment.slowdown))
  }

  /// A file stat cannot size (an endless device, behind a `.lua` name): at most the limit + 1
  /// bytes are read, then it is refused.
  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/zero"), "needs /dev/zero"))
  func anEndlessFileIsReadOnlyUpToTheLimit() throws {
    let folder = try directory()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.createSymbolicLink(atPath: folder + "/zero.lua", withDestinationPath: "/dev/zero")
    #expect { _ = try RuleSource.load(folder) } throws: { "\($0)".contains("zero.lua: larger than 4 MiB") }
  }

  /// A FIFO in a pack (where `zz-good.lua` would load) is refused by name before it is
  /// opened: opening it waited for a writer for ever, and `rules check` or the app hung.
  @Test func aFIFOInAPackIsRefusedBeforeItIsOpened() throws {
    let folder = try directory()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try "unlock \"good\" { when = { sessions = 1 } }".write(
      toFile: folder + "/zz-good.lua", atomically: true, encoding: .utf8)
    try withFIFO(at: folder + "/a.lua") {
      #expect { _ = try RuleSource.load(folder) } throws: { "\($0)".contains("a.lua: a FIFO, not a file") }
    }
  }

  @Test func aByteOrderMarkAtTheStartOfAScriptIsSkipped() throws {
    let folder = try directory()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let text = Data([0xEF, 0xBB, 0xBF]) + Data("unlock \"bom\" { when = { sessions = 1 } }\n".utf8)
    #expect(FileManager.default.createFile(atPath: folder + "/bom.lua", contents: text))
    let source = try RuleSource.load(folder)
    #expect(source.rules.map(\.id) == ["bom"])
  }
}
