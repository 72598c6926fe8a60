import Dwell
import DwellLua
import DwellTesting
import Foundation
import Testing

/// Swift rules at launch: a repeated id drops only the repeat, points are checked as Lua
/// checks them, a pack rule sharing a Swift id is left out alone.
@Suite struct SwiftRulesAtLaunchTests {
  @Test func aRepeatedSwiftIdDropsOnlyTheRepeat() {
    var configuration = Tracker.Configuration()
    configuration.rules = [
      Rule("quick", when: .appTime(.seconds(5)), title: "First"), Rule("quick", when: .sessions(99), title: "Repeat"),
      Rule("other", when: .appTime(.seconds(10))),
    ]
    let sim = TrackerSimulation(configuration: configuration)
    guard case .invalidConfiguration(let error)? = sim.tracker.lastProblem else {
      Issue.record("expected invalidConfiguration, got \(String(describing: sim.tracker.lastProblem))")
      return
    }
    #expect(error.problems == [.rule(RuleError(rule: "quick", "the id is repeated"))])
    #expect(sim.tracker.rules.map(\.title) == ["First", nil])
    sim.use("Home", for: .seconds(20))
    #expect(sim.tracker.isUnlocked("quick"))
    #expect(sim.tracker.isUnlocked("other"))
  }

  @Test func rulePointsAreCheckedAsLuaChecksThem() {
    for bad in [-50, -1, 1_000_001, Int.max, Int.min] {
      let sim = TrackerSimulation()
      let message = "points must be from 0 to 1,000,000, not \(bad)"
      #expect(throws: RuleError(rule: "rich", message)) {
        try sim.tracker.setRules([Rule("rich", when: .sessions(1), points: bad)])
      }
      var configuration = Tracker.Configuration()
      configuration.rules = [
        Rule("rich", when: .sessions(1), points: bad), Rule("fair", when: .sessions(1), points: 10),
      ]
      let launched = TrackerSimulation(configuration: configuration)
      #expect(
        launched.tracker.lastProblem
          == .invalidConfiguration(ConfigurationError(problems: [.rule(.init(rule: "rich", message))])))
      #expect(launched.tracker.rules.map(\.id) == ["fair"])
      #expect(launched.tracker.points == 10)
    }
    let sim = TrackerSimulation()
    #expect(throws: Never.self) { try sim.tracker.setRules([Rule("max", when: .sessions(1), points: 1_000_000)]) }
    #expect(sim.tracker.points == 1_000_000)
  }

  @Test func aLuaRuleSharingASwiftIdIsLeftOutAloneAtLaunch() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dwell-clash-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = #"""
      unlock "bonus-level" { title = "Lua", when = { appSeconds = 1 } }
      unlock "lua-only" { when = { appSeconds = 5 } }
      """#
    try script.write(to: folder.appendingPathComponent("a.lua"), atomically: true, encoding: .utf8)
    var configuration = Tracker.Configuration()
    configuration.rules = [Rule("bonus-level", when: .appTime(.seconds(10)), title: "Swift")]
    configuration.rulesDirectory = LuaRuleFolder(folder)
    let sim = TrackerSimulation(configuration: configuration)
    #expect(sim.tracker.rules.map(\.id) == ["bonus-level", "lua-only"])
    #expect(sim.tracker.rules.first?.title == "Swift")
    guard case .invalidConfiguration(let error)? = sim.tracker.lastProblem else {
      Issue.record("expected invalidConfiguration, got \(String(describing: sim.tracker.lastProblem))")
      return
    }
    #expect(error.problems.count == 1)
    #expect(error.description.contains("bonus-level"))
    sim.use("Home", for: .seconds(6))
    #expect(sim.tracker.isUnlocked("lua-only"))
    #expect(!sim.tracker.isUnlocked("bonus-level"))
    // An app that calls setRules itself still gets the clash thrown.
    #expect(throws: RuleError.self) {
      try sim.tracker.setRules([Rule("bonus-level", when: .sessions(1))], pack: sim.tracker.rulePack)
    }
  }
}
