import DwellTesting
import Foundation
import Testing

@testable import Dwell

/// Conditions on points and level (`{"points": 120}`, `{"level": "Bloom"}`), with figures
/// worked out by hand, the order in which rules unlocking at one instant add their points,
/// and the rule sets refused for them.
@Suite struct PointsConditionTests {
  static let launch = #"{"t":0,"event":"launch","wall":"2026-05-04T08:00:00Z","tz":"UTC"}"#

  /// The trace `t` at which `rule` unlocked, if it did.
  static func unlockedAt(_ report: UsageReport, _ rule: String) -> Double? {
    report.unlocks[rule].map { Double($0.mono.nanoseconds) / 1e9 }
  }

  /// "first-session" (50 points) unlocks at t = 0 and "lessons" (80 points) at t = 10 + 60
  /// = 70 s in Lessons: 50 points from 0 s, 130 from 70 s. So 50 points hold at 0, 120 and
  /// level Bloom (100) at 70 s with "lessons", and 131 never. "greedy" needs 100 points and
  /// brings 200: its own points never count toward it, so it unlocks at 70 s too. Then
  /// "after-greedy" (300) and "too-many" (131) hold with 330 at the same instant: the
  /// evaluation goes on while rules unlock, whatever their order.
  @Test func pointsAndLevelsHoldFromTheInstantTheTotalReachesThem() throws {
    var configuration = Engine.Configuration()
    configuration.rules = [
      Rule("first-session", when: .sessions(1), points: 50),
      Rule("lessons", when: .screenTime("Lessons", .seconds(60)), points: 80),
      Rule("fifty", when: .points(50)),
      Rule("hundred-twenty", when: .points(120)),
      Rule("bloom", when: .level("Bloom")),
      Rule("too-many", when: .points(131)),
      Rule("greedy", when: .points(100), points: 200),
      Rule("after-greedy", when: .points(300)),
      Rule("bloom-and-visit", when: .all([.level("Bloom"), .visits("Lessons", 2)])),
    ]
    configuration.levels = [Level("Seed", points: 0), Level("Bloom", points: 100), Level("Tree", points: 1000)]
    let report = try replay(
      [
        Self.launch,
        #"{"t":0,"event":"active"}"#,
        #"{"t":10,"event":"appear","screen":"Lessons","id":"l1"}"#,
        #"{"t":100,"event":"disappear","id":"l1"}"#,
        #"{"t":200,"event":"appear","screen":"Lessons","id":"l2"}"#,
        #"{"t":300,"event":"background"}"#,
      ], configuration: configuration)
    #expect(Self.unlockedAt(report, "first-session") == 0)
    #expect(Self.unlockedAt(report, "lessons") == 70)
    #expect(Self.unlockedAt(report, "fifty") == 0)
    #expect(Self.unlockedAt(report, "hundred-twenty") == 70)
    #expect(Self.unlockedAt(report, "bloom") == 70)
    #expect(Self.unlockedAt(report, "greedy") == 70)
    #expect(Self.unlockedAt(report, "too-many") == 70)  // 330 once greedy's 200 came
    #expect(Self.unlockedAt(report, "after-greedy") == 70)
    #expect(Self.unlockedAt(report, "bloom-and-visit") == 200)  // the second visit
    #expect(report.points == 330)
  }

  /// Without "greedy", 131 points never come: 50 + 80 = 130.
  @Test func aTotalShortOfTheThresholdNeverUnlocks() throws {
    var configuration = Engine.Configuration()
    configuration.rules = [
      Rule("first-session", when: .sessions(1), points: 50),
      Rule("lessons", when: .screenTime("Lessons", .seconds(60)), points: 80),
      Rule("too-many", when: .points(131)),
      Rule("tree", when: .level("Tree")),
    ]
    configuration.levels = [Level("Bloom", points: 100), Level("Tree", points: 1000)]
    let report = try replay(
      [
        Self.launch, #"{"t":0,"event":"active"}"#, #"{"t":10,"event":"appear","screen":"Lessons","id":"l1"}"#,
        #"{"t":300,"event":"background"}"#,
      ], configuration: configuration)
    #expect(report.points == 130)
    #expect(Self.unlockedAt(report, "too-many") == nil)
    #expect(Self.unlockedAt(report, "tree") == nil)
  }

  @Test func theJSONFormReadsPointsAndLevel() throws {
    let rules = try Rule.parseJSON(
      #"[{"id":"a","when":{"points":120}},{"id":"b","when":{"all":[{"level":"Bloom"},{"sessions":2}]}}]"#)
    #expect(rules[0].condition.description == "120 points")
    #expect(rules[1].condition.description == "level Bloom reached and 2 sessions")
  }

  @Test func badPointsAndLevelFormsAreRefusedNamingTheRule() throws {
    func message(_ json: String) -> String? {
      do {
        var set = RuleSet(rules: try Rule.parseJSON(json))
        set.levels = [Level("Bloom", points: 100)]
        try set.validate()
        return nil
      } catch {
        return error.description
      }
    }
    let negative = message(#"[{"id":"neg","when":{"points":-5}}]"#)
    #expect(negative?.contains("neg") == true)
    #expect(negative?.contains("'points' must not be negative") == true)
    let unknown = message(#"[{"id":"lvl","when":{"level":"Blom"}}]"#)
    #expect(unknown?.contains("lvl") == true)
    #expect(unknown?.contains("'Blom', which is not a level") == true)
    #expect(unknown?.contains("Bloom") == true)  // the hint and the levels there are
    let recurring = message(#"[{"id":"daily","every":"day","when":{"points":10}}]"#)
    #expect(recurring?.contains("daily") == true)
    #expect(recurring?.contains("cannot count points") == true)
    let beside = message(#"[{"id":"mixed","when":{"points":10,"sessions":2}}]"#)
    #expect(beside?.contains("stands alone") == true)
    let empty = message(#"[{"id":"e","when":{"level":""}}]"#)
    #expect(empty?.contains("'level' must be a level's name") == true)
    #expect(message(#"[{"id":"ok","when":{"level":"Bloom"}}]"#) == nil)
    // A Swift rule with negative points in its condition, through a configuration.
    var configuration = Engine.Configuration()
    configuration.rules = [Rule("swift-neg", when: .points(-1))]
    #expect(configuration.problems.map(\.description).contains { $0.contains("swift-neg") && $0.contains("negative") })
  }
}
