import DwellHarness
import Foundation
import Testing

/// Scenarios about actions and recurring rules: `do NAME [COUNT]` as a step, `expect count`,
/// `expect earned` and `expect not earned`, each failing at its line with what was seen.
@Suite struct ScenarioActionsTests {
  static let pack = """
    achievement "daily-calm" { every = "day", points = 10, when = { appSeconds = minutes(10) } }
    unlock "quizzer" { when = { action = "quiz_done", count = 3 } }
    """

  /// A pack whose `tests/` holds `scenarios`, by name.
  static func pack(_ scenarios: [String: String]) throws -> TemporaryStore {
    let dir = TemporaryStore()
    try Self.pack.write(toFile: dir.directory + "/pack.lua", atomically: true, encoding: .utf8)
    try FileManager.default.createDirectory(atPath: dir.directory + "/tests", withIntermediateDirectories: true)
    for (name, text) in scenarios {
      try text.write(toFile: "\(dir.directory)/tests/\(name).scenario", atomically: true, encoding: .utf8)
    }
    return dir
  }

  @Test func actionsAndEarningsAreExpected() throws {
    let good = """
      open Lessons
      do quiz_done 2
      expect count quiz_done 2
      expect not earned daily-calm
      wait 10m
      expect earned daily-calm
      expect earned daily-calm for 2026-05-04
      expect not earned daily-calm for 2026-05-05
      next day
      do quiz_done
      expect count quiz_done 3
      expect count quiz_done 1 today
      expect unlocked quizzer
      wait 10m
      skip 1 days
      wait 10m
      expect earned daily-calm 3 times
      expect points 30
      """
    let dir = try Self.pack(["good": good])
    let results = ScenarioRunner.run(pack: dir.directory)
    #expect(results.count == 1)
    let result = try #require(results.first)
    #expect(result.succeeded, "\(result.failure.map { "\($0.line) saw: \($0.seen)" } ?? "")")
    #expect(result.passed == 10)
  }

  /// Each wrong expectation fails at its own line, saying what was seen instead.
  @Test(arguments: [
    ("do quiz_done 2\nexpect count quiz_done 3", "t.scenario:2", "quiz_done recorded 2 times"),
    ("do quiz_done 2\nnext day\nexpect count quiz_done 2 today", "t.scenario:3", "recorded 0 times today (2 in all)"),
    ("expect count quiz_dnoe 0\nexpect count quiz_dnoe 1", "t.scenario:2", "(did you mean 'quiz_done'?)"),
    ("open A\nwait 10m\n\nexpect earned daily-calm 2 times", "t.scenario:4", "earned once (for 2026-05-04)"),
    ("open A\nwait 9m\nexpect earned daily-calm", "t.scenario:3", "never earned (9 min of 10 min in the app today"),
    ("open A\nwait 10m\nexpect not earned daily-calm", "t.scenario:3", "earned once (for 2026-05-04), first at"),
    ("open A\nwait 10m\nexpect earned daily-calm for 2026-05-05", "t.scenario:3", "not earned for 2026-05-05; earned"),
    ("expect earned quizzer", "t.scenario:1", "'quizzer' is not a recurring rule"),
    ("expect not earned daly-calm", "t.scenario:1", "no rule 'daly-calm' (did you mean 'daily-calm'?)"),
  ])
  func aWrongExpectationFailsAtItsLine(text: String, line: String, seen: String) throws {
    let dir = try Self.pack(["t": text + "\n"])
    let result = try #require(ScenarioRunner.run(pack: dir.directory).first)
    let failure = try #require(result.failure, "the scenario passed: \(text)")
    #expect(failure.line.hasPrefix(line), "\(failure.line)")
    #expect(failure.seen.contains(seen), "\(failure.seen)")
  }

  /// A malformed expectation is refused when the file is read, naming its line and the forms.
  @Test(arguments: [
    ("expect count quiz_done", "t.scenario:1: 'expect count quiz_done' is not an expectation"),
    ("expect earned daily-calm twice", "write expect earned daily-calm, expect earned daily-calm 3 times"),
    ("expect earned daily-calm for May", "'for' takes a period: a day 2026-05-04, a week 2026-W19"),
    ("\nexpect not unlocked x", "t.scenario:2: 'expect not unlocked x' is not an expectation"),
  ])
  func aMalformedExpectationNamesItsLine(text: String, said: String) {
    #expect(throws: Scenario.ParseError.self) { try Scenario(text: text, path: "t.scenario") }
    do {
      _ = try Scenario(text: text, path: "t.scenario")
    } catch {
      #expect(error.description.contains(said), "\(error.description)")
    }
  }
}
