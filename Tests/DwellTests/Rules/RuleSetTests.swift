// The one rule-set pipeline (issue 25): `dwell sim` and an app's tracker put one pack in force the same way, at launch and on a reload, and the set is checked in one place.
import Dwell
import DwellHarness
import DwellLua
import DwellTesting
import Foundation
import Testing

/// `RuleSet` and `RulesInForce` as every route takes them: the simulator and a tracker with
/// a `LuaRuleFolder` give the same unlocks and points for one pack and one trace, a reload
/// included; a set is checked strictly or with the pack's shadowed rules left out.
@Suite struct RuleSetTests {
  /// Version 1 of the pack: a rule lowered by the reload, a check on app time, and a
  /// plugin whose third session (after the reload: its count must survive it) awards and
  /// unlocks.
  static func pack(sessions: Int) -> String {
    """
    unlock "regular" { when = { sessions = \(sessions) } }
    unlock "ten-minutes" { check = function(u) return u.app.seconds >= 600 end }
    unlock "third" { check = function(u) return false end }
    local p = plugin "counter"
    p.on("session_start", function(u)
      p.state.n = (p.state.n or 0) + 1
      if p.state.n == 3 then
        p.award(7, "three sessions")
        p.unlock("third")
      end
    end)
    """
  }

  static let before = ["wait 11m", "bg", "wait 31m", "fg"]
  static let after = ["bg", "wait 31m", "fg", "wait 1m"]

  /// The trace the simulator recorded in `file`.
  static func trace(_ file: String) throws -> [TraceEvent] {
    try TraceParser.parse(String(contentsOfFile: file, encoding: .utf8))
  }

  /// Feeds `events` to a tracker on its manual clock (the launch is the tracker's own).
  static func feed(_ events: some Sequence<TraceEvent>, to sim: TrackerSimulation) {
    for event in events {
      sim.clock.advance(to: event.t)
      if let lifecycle = event.lifecycleEvent { sim.tracker.record(lifecycle) }
    }
  }

  @Test func theSimAndATrackerUnlockTheSameForOnePackAndTrace() async throws {
    let dir = TemporaryStore()
    let folder = dir.directory + "/rules"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let file = folder + "/unlocks.lua"
    let simStore = dir.directory + "/sim.sqlite"
    let trackerStore = dir.directory + "/tracker.sqlite"

    // dwell sim: the commands, a reload between them, the trace recorded at the reload and at the end.
    try Self.pack(sessions: 5).write(toFile: file, atomically: true, encoding: .utf8)
    let utc = try #require(TimeZone(secondsFromGMT: 0))
    var options = Simulator.Options(rulesPath: folder, start: parseWall("2026-03-02T09:00:00Z"), timeZone: utc)
    options.storePath = simStore
    do {
      let simulator = try Simulator(options: options)
      for command in Self.before { try simulator.perform(command) }
      try simulator.perform("record \(dir.directory)/before.jsonl")
      try Self.pack(sessions: 2).write(toFile: file, atomically: true, encoding: .utf8)
      try simulator.perform("reload")
      for command in Self.after { try simulator.perform(command) }
      try simulator.perform("record \(dir.directory)/all.jsonl")
      simulator.close()
    }
    let before = try Self.trace(dir.directory + "/before.jsonl")
    let all = try Self.trace(dir.directory + "/all.jsonl")
    try #require(all.count > before.count)

    // An app's tracker on the same folder, fed the same trace, the same save at the same moment.
    try Self.pack(sessions: 5).write(toFile: file, atomically: true, encoding: .utf8)
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(trackerStore)
    configuration.rulesDirectory = LuaRuleFolder(URL(fileURLWithPath: folder), interval: .milliseconds(10))
    let sim = TrackerSimulation(configuration: configuration)
    let launched = try #require(sim.tracker.rulePack as? LuaRulePack)
    Self.feed(before, to: sim)
    try Self.pack(sessions: 2).write(toFile: file, atomically: true, encoding: .utf8)
    let reloaded = try await RulesDirectoryReloadTests.waitUntil {
      (sim.tracker.rulePack as? LuaRulePack).map { $0 !== launched } ?? false
    }
    try #require(reloaded, "the tracker did not reload the pack")
    Self.feed(all.dropFirst(before.count), to: sim)
    sim.tracker.terminate()

    let simReport = try UsageReport(store: Store(path: simStore))
    let trackerReport = try UsageReport(store: Store(path: trackerStore))
    #expect(Set(simReport.unlocks.keys) == ["regular", "ten-minutes", "third"])
    #expect(simReport.points == 7)
    #expect(Set(trackerReport.unlocks.keys) == Set(simReport.unlocks.keys))
    #expect(trackerReport.points == simReport.points)
    for (rule, unlock) in simReport.unlocks {
      #expect(trackerReport.unlocks[rule]?.mono == unlock.mono, "\(rule)")
    }
  }

  /// A rules folder that is saved again the moment the tracker's launch load has read it:
  /// the earliest a save can come after launch.
  struct SavedAfterLoading: RulePackSource {
    let folder: LuaRuleFolder
    let file: String
    let text: String
    func load() throws(RuleError) -> any RulePack {
      let pack = try folder.load()
      try? text.write(toFile: file, atomically: true, encoding: .utf8)
      return pack
    }
    func watch(_ reload: @escaping @Sendable (Result<any RulePack, RuleError>) -> Void) -> any RulePackWatch {
      folder.watch(reload)
    }
  }

  @Test func aSaveRightAfterTheLaunchLoadIsReloaded() async throws {
    let dir = TemporaryStore()
    let folder = dir.directory + "/rules"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let file = folder + "/unlocks.lua"
    try Self.pack(sessions: 5).write(toFile: file, atomically: true, encoding: .utf8)
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(dir.path)
    configuration.rulePackSource = SavedAfterLoading(
      folder: LuaRuleFolder(URL(fileURLWithPath: folder), interval: .milliseconds(10)), file: file,
      text: Self.pack(sessions: 5) + "\nunlock \"saved\" { when = { sessions = 100 } }\n")
    let sim = TrackerSimulation(configuration: configuration)
    let launched = try #require(sim.tracker.rulePack as? LuaRulePack)
    #expect(!launched.rules.contains { $0.id == "saved" })
    let seen = try await RulesDirectoryReloadTests.waitUntil {
      sim.tracker.rulePack?.rules.contains { $0.id == "saved" } ?? false
    }
    #expect(seen, "the save right after the launch load was not reloaded")
    #expect((sim.tracker.rulePack as? LuaRulePack)?.name == "rules")
    sim.tracker.terminate()
  }

  /// A pack as a test makes one: rules only.
  struct Pack: RulePack {
    var rules: [Rule]
    var levels: [Level] = []
  }

  @Test func aStrictSetRefusesAPackRuleWithASwiftRulesIdAndALenientOneLeavesItOut() throws {
    let swift = Rule("shared", when: .sessions(1))
    let set = RuleSet(
      rules: [swift], pack: Pack(rules: [Rule("shared", when: .sessions(9)), Rule("own", when: .sessions(2))]))
    #expect { try set.validate(strict: true) } throws: { "\($0)".contains("repeated") }
    try set.validate(strict: false)
    #expect(set.allRules.map(\.id) == ["shared", "own"])
    #expect(set.allRules.first.map { "\($0.condition)" } == "\(swift.condition)")
    #expect(set.shadowedPackRules.map(\.id) == ["shared"])

    let inForce = RulesInForce()
    #expect(throws: RuleError.self) { try inForce.change { $0 = set } }
    #expect(inForce.current.allRules.isEmpty)  // refused: nothing changed
    let taken = try inForce.change(strict: false) { $0 = set }
    #expect(taken.generation == 1)
    #expect(inForce.current.allRules.map(\.id) == ["shared", "own"])
  }
}
