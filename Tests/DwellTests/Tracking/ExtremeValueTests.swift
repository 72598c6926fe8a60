import Dwell
import DwellTesting
import Testing

/// Values at the ends of their types, given through the public API: a clear refusal or a
/// defined answer, never a trap.
@Suite struct ExtremeValueTests {
  static let huge: [Condition] = [
    .appTime(.seconds(Int64.max)), .screenTime("Lessons", .seconds(1_000_000_001)),
    .activeDays(3, minimumPerDay: .seconds(Int64.max)), .streak(2, minimumPerDay: .seconds(Int64.max), screen: "Quiz"),
    .all([.sessions(2), .appTime(.seconds(Int64.max))]),
  ]

  @Test(arguments: huge)
  func aThresholdBeyondThirtyYearsIsRefused(condition: Condition) throws {
    var configuration = Tracker.Configuration()
    configuration.rules = [Rule("far", when: condition)]
    #expect(throws: ConfigurationError.self) { try configuration.validate() }
    let rig = Rig(configuration: .init())
    let engine = try rig.launch()
    #expect(throws: RuleError.self) {
      try RulesInForce().change(in: engine) { $0.rules = [Rule("far", when: condition)] }
    }
    // Said in words without a trap, whatever the size.
    #expect(!condition.description.isEmpty)
  }

  @Test func theLongestThresholdAllowedUnlocksAndIsSaid() throws {
    let rule = Rule(
      "far", when: .all([.appTime(.seconds(1_000_000_000)), .activeDays(1, minimumPerDay: .seconds(1_000_000_000))]))
    let rig = Rig(configuration: .init(rules: [rule]))
    let engine = try rig.launch()
    engine.record(.active)
    rig.advance(3600)
    #expect(engine.report().unlocks["far"] == nil)
    #expect(rule.condition.description.contains("h"))
  }

  @Test func daysStopAtTheEndsOfTheCalendar() throws {
    let first = try #require(Day(year: -9999, month: 1, day: 1))
    let last = try #require(Day(year: 9999, month: 12, day: 31))
    let today = try #require(Day(year: 2026, month: 3, day: 2))
    #expect(today.adding(days: .max) == last)
    #expect(today.adding(days: .min) == first)
    #expect(last.adding(days: 1) == last)
    #expect(first.adding(days: -1) == first)
    #expect(today.adding(days: 30).description == "2026-04-01")
    #expect(last.adding(days: -1).description == "9999-12-30")
  }
}
