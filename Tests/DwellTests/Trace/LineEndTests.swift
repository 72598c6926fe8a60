import Dwell
import DwellHarness
import DwellTesting
import Foundation
import Testing

/// Every line-based input (scenarios, traces, sim scripts, rule files checked by `dwell rules
/// check`) has the same lines whether they end in LF, CRLF or a lone CR: a CRLF scenario was
/// one line, and `dwell test` said PASS with nothing checked.
@Suite struct LineEndTests {
  static let ends = ["\n", "\r\n", "\r"]

  @Test(arguments: ends)
  func theSplitterEndsLinesAtEachLineEnd(end: String) {
    let text = ["a", "", "b c", "é\u{301}", ""].joined(separator: end)
    #expect(TextLines.lines(of: text) == ["a", "", "b c", "é\u{301}", ""])
    #expect(TextLines.lines(of: "a\r\n\rb\n\r") == ["a", "", "b", "", ""])
  }

  /// A scenario's lines are its lines: the expectations run (and the wrong one fails at its
  /// line number) whatever ends them.
  @Test(arguments: ends)
  func aScenarioHasTheSameLinesWhateverEndsThem(end: String) throws {
    let dir = try pack()
    let good = ["open Lessons", "wait 30m", "expect unlocked bonus-level at 09:30", "expect sessions 1", ""]
    let bad = ["open Lessons", "wait 30m", "expect unlocked bonus-level at 09:31", ""]
    try good.joined(separator: end).write(
      toFile: dir.directory + "/tests/good.scenario", atomically: true, encoding: .utf8)
    try bad.joined(separator: end).write(
      toFile: dir.directory + "/tests/bad.scenario", atomically: true, encoding: .utf8)
    let results = ScenarioRunner.run(pack: dir.directory)
    let byName = Dictionary(uniqueKeysWithValues: results.map { ($0.name, $0) })
    #expect(byName["good"]?.succeeded == true)
    #expect(byName["good"]?.passed == 2)
    #expect(byName["bad"]?.failure?.line == "bad.scenario:3: expect unlocked bonus-level at 09:31")
  }

  /// A scenario that checks nothing fails, saying so: it would pass whatever the rules do.
  @Test func aScenarioWithNoExpectationFails() throws {
    let dir = try pack()
    try "open Lessons\nwait 30m\n".write(
      toFile: dir.directory + "/tests/empty.scenario", atomically: true, encoding: .utf8)
    let run = try CommandLineTests.dwell(["test", dir.directory])
    #expect(run.status == 1)
    #expect(run.stdout.contains("FAIL  empty"))
    #expect(run.stdout.contains("no expectation"))
    #expect(!run.stdout.contains("PASS"))
  }

  @Test(arguments: ends)
  func aTraceHasTheSameEventsWhateverEndsItsLines(end: String) throws {
    let lines = CommandLineTests.trace.split(separator: "\n").map(String.init)
    let events = try TraceParser.parse(lines.joined(separator: end))
    #expect(events.count == lines.count)
    let reference = try TraceParser.parse(lines.joined(separator: "\n"))
    #expect(events.map(\.t) == reference.map(\.t))
    #expect(events.map(\.kind) == reference.map(\.kind))
  }

  /// `dwell sim --script` runs each line of a CRLF or CR script as its own command.
  @Test(arguments: ends)
  func aSimScriptHasTheSameLinesWhateverEndsThem(end: String) throws {
    let dir = try pack()
    let script = try CommandLineTests.write(
      ["open Lessons", "wait 30m", "status", ""].joined(separator: end), to: dir, name: "s.txt")
    let run = try CommandLineTests.dwell(["sim", "--rules", dir.directory, "--script", script])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("bonus-level"), "\(run.stdout)")
  }

  /// A copy of the learning pack with an empty tests folder.
  func pack() throws -> TemporaryStore {
    let dir = TemporaryStore()
    let rules = ScenarioTests.rules + "/learning"
    for name in try FileManager.default.contentsOfDirectory(atPath: rules) where name.hasSuffix(".lua") {
      try FileManager.default.copyItem(atPath: rules + "/" + name, toPath: dir.directory + "/" + name)
    }
    try FileManager.default.createDirectory(atPath: dir.directory + "/tests", withIntermediateDirectories: true)
    return dir
  }
}
