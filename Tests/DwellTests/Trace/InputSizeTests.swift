import DwellBalance
import DwellHarness
import Foundation
import Testing

/// The files the tool reads besides rule files (a pack's scenarios, persona files, traces,
/// sim scripts) are bounded as rule files are: refused from their size before any byte is
/// read, and never read past the limit (a device, a file with no newline). A sparse 1 GiB
/// file used to be read whole: seconds and gigabytes.
@Suite struct InputSizeTests {
  /// A sparse file of 1 GiB at `name` in `directory`: no disk space, a huge size.
  static func huge(_ directory: TemporaryStore, _ name: String) throws -> String {
    let path = directory.directory + "/" + name
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.truncate(atOffset: 1 << 30)
    try handle.close()
    return path
  }

  /// A link at `name` in `directory` to /dev/zero: endless bytes that stat cannot size.
  static func endless(_ directory: TemporaryStore, _ name: String) throws -> String {
    let path = directory.directory + "/" + name
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
    return path
  }

  @Test func scenarioAndPersonaFilesAreBoundedAsRuleFilesAre() throws {
    let directory = TemporaryStore()
    for path in [try Self.huge(directory, "huge.scenario"), try Self.endless(directory, "zero.scenario")] {
      #expect {
        _ = try Scenario(contentsOf: path)
      } throws: {
        "\($0)" == "\(path): larger than 4 MiB"
      }
    }
    for path in [try Self.huge(directory, "huge.lua"), try Self.endless(directory, "zero.lua")] {
      #expect {
        _ = try PersonaFile.load(path)
      } throws: {
        "\($0)" == "\(path): larger than 4 MiB"
      }
    }
  }

  @Test func theToolRefusesHugeInputsFromTheirSize() throws {
    let directory = TemporaryStore()
    let pack = directory.directory + "/pack"
    try FileManager.default.createDirectory(atPath: pack + "/tests", withIntermediateDirectories: true)
    try "unlock \"u\" { when = { appSeconds = 60 } }\n".write(
      toFile: pack + "/rules.lua", atomically: true, encoding: .utf8)
    let scenario = try Self.huge(directory, "pack/tests/huge.scenario")
    let personas = try Self.huge(directory, "personas.lua")
    let trace = try Self.huge(directory, "trace.jsonl")
    let zero = try Self.endless(directory, "zero.jsonl")
    let cases: [(arguments: [String], message: String)] = [
      (["test", pack], "\(scenario): larger than 4 MiB"),
      (["balance", pack, "--personas", personas, "--users", "1", "--days", "1"], "\(personas): larger than 4 MiB"),
      (["replay", trace], "\(trace): larger than 64 MiB"),
      (["replay", zero], "\(zero): larger than 64 MiB"),
      (["sim", "--rules", pack, "--script", "/dev/zero"], "/dev/zero:1: a line longer than 64 KiB"),
    ]
    for (arguments, message) in cases {
      let run = try CommandLineTests.dwell(arguments)
      let said = "dwell \(arguments.joined(separator: " ")): \(run.status) \(run.stderr)"
      #expect(run.status == 1, "\(said)")
      #expect((run.stdout + run.stderr).contains(message), "\(said) \(run.stdout)")
    }
  }
}
