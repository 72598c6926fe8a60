import DwellTesting
import Foundation
import Testing

// Thousands of declarative rules unlocking one after another: each at its own instant, the gates seeing those before.
@testable import Dwell

@Suite struct RulesInARowTests {
  /// An engine in memory on a manual clock, the app active on one screen from t = 0.
  static func run(_ rules: [Rule], seconds: Double) throws -> [String: UnlockRecord] {
    let clock = ManualClock()
    let wall = ManualWallClock(
      clock: clock, wall: parseWall("2026-05-04T08:00:00Z"), timeZone: TimeZone(secondsFromGMT: 0) ?? .current)
    let engine = try Engine(
      inMemory: Engine.Configuration(rules: rules), clock: clock, wallClock: wall, scheduler: clock)
    engine.record(.appear(screen: "Home", id: .init("a")))
    engine.record(.active)
    clock.advance(by: .nanoseconds(Int64(seconds * 1e9)))
    engine.record(.background)
    return engine.report().unlocks
  }

  /// Rule `r<i>` wants 25·i ms of app time: one unlocks every 25 ms (the evaluation that
  /// unlocks one no longer copies the records of all those before it).
  @Test func tenThousandRulesOnAppTimeUnlockEachAtItsInstant() throws {
    let count = 10_000
    let rules = (1...count).map { Rule("r\($0)", when: .appTime(.milliseconds(25 * $0))) }
    let unlocks = try Self.run(rules, seconds: Double(count) * 0.025 + 1)
    #expect(unlocks.count == count)
    for i in [1, 2, 3_999, count] {
      #expect(unlocks["r\(i)"]?.mono.nanoseconds == Int64(i) * 25_000_000, "r\(i)")
    }
  }

  /// A chain of prerequisites: `c<i>` needs `c<i-1>` and 25·i ms, or, for every third one,
  /// 25·(i-1) ms (so it unlocks in the same evaluation as the one it needs).
  @Test func aChainOfPrerequisitesUnlocksInOrderAtEachInstant() throws {
    let count = 600
    var rules = [Rule("c1", when: .appTime(.milliseconds(25)))]
    for i in 2...count {
      let need = i % 3 == 0 ? 25 * (i - 1) : 25 * i
      rules.append(Rule("c\(i)", when: .all([.unlocked("c\(i - 1)"), .appTime(.milliseconds(need))])))
    }
    let unlocks = try Self.run(rules, seconds: Double(count) * 0.025 + 1)
    #expect(unlocks.count == count)
    for i in 2...count {
      let expected = Int64(i % 3 == 0 ? i - 1 : i) * 25_000_000
      #expect(unlocks["c\(i)"]?.mono.nanoseconds == expected, "c\(i)")
    }
  }
}
