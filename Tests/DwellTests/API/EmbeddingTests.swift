import Dwell
import DwellLua
import DwellTesting
import Foundation
import Testing

/// Dwell inside a host app: it never traps on what it is given, rules are live data owned
/// by the tracker, and the privacy calls do what they promise.
@Suite struct EmbeddingTests {
  static let counter = """
    unlock "bonus-level" { title = "Bonus level", when = { screen = "Lessons", seconds = minutes(30) } }
    local c = plugin "counter"
    c.on("session_start", function(u)
      c.state.n = (c.state.n or 0) + 1
      c.publish("n", c.state.n)
      c.award(5, "a session")
    end)
    """

  static func pack(_ text: String = counter) throws -> LuaRulePack {
    try LuaRulePack(scripts: [("counter.lua", text)])
  }

  // MARK: Never trapping

  @Test func theReadmesTwoBonusLevelsDoNotCrashTheApp() throws {
    let pack = try Self.pack()
    let store = TemporaryStore()
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(store.path)
    configuration.rules = [Rule("bonus-level", when: .screenTime("Lessons", .minutes(30)))] + pack.rules
    configuration.listeners = [pack]
    #expect(throws: ConfigurationError.self) { try configuration.validate() }
    let sim = TrackerSimulation(configuration: configuration)
    guard case .invalidConfiguration(let error)? = sim.tracker.lastProblem else {
      Issue.record("expected invalidConfiguration, got \(String(describing: sim.tracker.lastProblem))")
      return
    }
    #expect(error.problems == [.rule(RuleError(rule: "bonus-level", "the id is repeated"))])
    sim.use("Lessons", for: .minutes(2))
    #expect(sim.tracker.time(.screen("Lessons")) == .minutes(2))
    #expect(sim.tracker.engine?.store.path == store.path, "a rule problem is not a store problem")
  }

  @Test func aBadRuleSetAtRunTimeIsRefusedAndThePreviousRulesKeepRunning() throws {
    let sim = TrackerSimulation()
    let tracker = sim.tracker
    try tracker.setRules([Rule("quick", when: .appTime(.minutes(1)))])
    let pack = try Self.pack()
    #expect(throws: RuleError(rule: "bonus-level", "the id is repeated")) {
      try tracker.setRules([Rule("bonus-level", when: .sessions(1))], pack: pack)
    }
    #expect(tracker.lastProblem == .rulesRefused(RuleError(rule: "bonus-level", "the id is repeated")))
    #expect(tracker.rules.map(\.id) == ["quick"])
    sim.use("Home", for: .minutes(2))
    #expect(tracker.isUnlocked("quick"))
    #expect(!tracker.isUnlocked("bonus-level"))
  }

  @Test func validationListsEveryProblem() {
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file("")
    configuration.checkpointInterval = .zero
    configuration.sessionTimeout = .seconds(-1)
    configuration.rules = [
      Rule("", when: .sessions(1)), Rule("a", when: .sessions(1)), Rule("a", when: .appTime(.seconds(-5))),
    ]
    do {
      try configuration.validate()
      Issue.record("a bad configuration validated")
    } catch {
      #expect(error.problems.count == 6, "\(error)")
      #expect(error.problems.contains(.setting("checkpointInterval", "must be longer than zero, not 0.0 seconds")))
    }
    // And a tracker given it still runs, with the defaults.
    configuration.storeLocation = .inMemory
    let sim = TrackerSimulation(configuration: configuration)
    sim.use("Home", for: .seconds(30))
    #expect(sim.tracker.time() == .seconds(30))
  }

  @Test func configuringTheSharedTrackerAfterUsingItIsReported() {
    let first = Tracker.shared
    let configured = Tracker.configureShared(Tracker.Configuration())
    #expect(first === configured)
    #expect(configured.lastProblem == .configuredTooLate)
  }

  // MARK: Rules as live data

  @Test func rulesSetBeforeTheStoreOpensAreInForceWhenItDoes() async throws {
    for _ in 0..<20 {
      var configuration = Tracker.Configuration()
      configuration.storeLocation = .inMemory
      let tracker = Tracker(configuration: configuration)
      try tracker.setRules([Rule("late", when: .sessions(1))])
      await tracker.ready()
      #expect(tracker.engine?.rules.map(\.id) == ["late"])
    }
  }

  @Test func rulesSurviveEraseAndRetryStore() async throws {
    let folder = TemporaryStore()
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(folder.directory + "/missing/usage.sqlite")
    let sim = TrackerSimulation(configuration: configuration)
    let tracker = sim.tracker
    try tracker.setRules([Rule("ten", when: .appTime(.minutes(10)))], pack: try Self.pack())
    tracker.setHostValue("level", 3)
    try FileManager.default.createDirectory(atPath: folder.directory + "/missing", withIntermediateDirectories: true)
    #expect(tracker.retryStore())
    #expect(tracker.engine?.rules.map(\.id) == ["ten", "bonus-level"])
    try await tracker.erase()
    #expect(tracker.engine?.rules.map(\.id) == ["ten", "bonus-level"])
    sim.use("Home", for: .minutes(11))
    #expect(tracker.isUnlocked("ten"))
  }

  /// A pack written in Swift: rules and levels, no scripts.
  struct SwiftPack: RulePack {
    var rules = [Rule("five", when: .appTime(.minutes(5)), points: 10)]
    var levels = [Level("Novice", points: 0), Level("Regular", points: 10)]
  }

  @Test func aPackWithoutScriptsPutsItsRulesAndLevelsInForceAndSurvivesErase() async throws {
    let sim = TrackerSimulation()
    let tracker = sim.tracker
    try tracker.setRules(pack: SwiftPack())
    tracker.setHostValue("level", 3)  // no scripts to hand it to: nothing happens
    try await tracker.erase()
    #expect(tracker.rulePack is SwiftPack)
    #expect(tracker.engine?.rules.map(\.id) == ["five"])
    sim.use("Home", for: .minutes(6))
    #expect(tracker.isUnlocked("five"))
    #expect(tracker.level?.level.name == "Regular")
  }

  @Test func hostValuesAreLiteralsAndReachEveryPack() throws {
    let sim = TrackerSimulation()
    let tracker = sim.tracker
    tracker.setHostValue("level", 3)
    tracker.setHostValue("names", .list(["a", "b"]))
    let script = #"unlock "third" { check = function(u) return host.level == 3 and host.names[2] == "b" end }"#
    try tracker.setRules(pack: try Self.pack(script))
    sim.use("Home", for: .seconds(2))
    #expect(tracker.isUnlocked("third"))
  }

  @Test func measureTakesAnAsyncBody() async {
    let sim = TrackerSimulation()
    let value = await sim.tracker.measure("download") { () async -> Int in
      await Task.yield()
      sim.wait(.seconds(5))
      return 7
    }
    #expect(value == 7)
    #expect(sim.tracker.time(.screen("download")) == .seconds(5))
  }

  // MARK: Privacy calls

  @Test func eraseForgetsPluginStateAndPublishedValues() async throws {
    let store = TemporaryStore()
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(store.path)
    let sim = TrackerSimulation(configuration: configuration)
    let tracker = sim.tracker
    try tracker.setRules(pack: try Self.pack())
    for _ in 0..<3 {
      tracker.record(.background)
      sim.wait(.hours(1))
      tracker.record(.active)
    }
    #expect((tracker.rulePack as? LuaRulePack)?.published["counter"]?["n"] == .number(3))
    try await tracker.erase()
    // The app is active: counting starts afresh with a first session, the plugin's first.
    #expect((tracker.rulePack as? LuaRulePack)?.published["counter"]?["n"] == .number(1))
    tracker.record(.background)
    sim.wait(.hours(1))
    tracker.record(.active)
    #expect((tracker.rulePack as? LuaRulePack)?.published["counter"]?["n"] == .number(2))
    let json = try await tracker.export(.json)
    #expect(json.contains(#""state" : "{\"n\":2}""#), "\(json)")
  }

  /// Erasing loads the pack afresh under its own name, so its plugins keep their states
  /// where the pack, loaded again at the next launch, looks for them.
  @Test func erasingKeepsThePacksNameForItsPluginStates() async throws {
    let sim = TrackerSimulation()
    let tracker = sim.tracker
    try tracker.setRules(pack: try LuaRulePack(scripts: [("counter.lua", Self.counter)], name: "my-pack"))
    try await tracker.erase()
    #expect((tracker.rulePack as? LuaRulePack)?.name == "my-pack")
    tracker.record(.background)
    sim.wait(.hours(1))
    tracker.record(.active)
    let json = try await tracker.export(.json)
    #expect(json.contains("lua:my-pack/counter"), "\(json)")
  }

  @Test func exportHasAwardsPluginStatesAndTitles() async throws {
    let sim = TrackerSimulation()
    let tracker = sim.tracker
    try tracker.setRules(pack: try Self.pack())
    tracker.record(.background)
    sim.wait(.hours(1))
    tracker.record(.active)
    sim.use("Lessons", for: .minutes(31))
    let json = try await tracker.export(.json)
    let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let unlocks = try #require(document["unlocks"] as? [[String: Any]])
    #expect(unlocks.first?["title"] as? String == "Bonus level")
    #expect((document["awards"] as? [[String: Any]])?.first?["reason"] as? String == "a session")
    let plugin = (document["pluginStates"] as? [[String: Any]])?.first?["plugin"] as? String
    #expect(plugin?.hasSuffix("counter") == true, "the plugin's state, under its pack's namespace")
    let keys = json.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    #expect(keys == keys.sorted(), "top-level keys are sorted")
    let csv = try await tracker.export(.csv)
    #expect(csv.contains("\r\naward,,,"))
    #expect(csv.contains(",bonus-level,Bonus level,0,"))
    #expect(csv.contains("\r\nplugin-state,"))
  }

  @Test func exportAndEraseWaitForTheStore() async throws {
    let store = TemporaryStore()
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(store.path)
    let tracker = Tracker(configuration: configuration)
    tracker.record(.active)
    tracker.screenAppeared("Home", id: ScreenInstance("home"))
    try await tracker.erase()
    #expect(tracker.engine != nil)
    let json = try await tracker.export(.json)
    #expect(json.contains("\"sessions\""))
  }
}
