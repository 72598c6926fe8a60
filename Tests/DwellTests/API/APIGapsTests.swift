import Dwell
import DwellLua
import DwellTesting
import Foundation
import Testing

/// The smaller API gaps of issue #13 (item 6): unlocks an app can show after a relaunch
/// (title, points, seen or not), names cleaned the same way everywhere, nested measures.
@Suite struct APIGapsTests {
  func launch(_ store: TemporaryStore, rules: [Rule]) -> (Tracker, ManualClock) {
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(store.path)
    configuration.rules = rules
    let clock = ManualClock()
    let tracker = Tracker(
      configuration: configuration, clock: clock, wallClock: ManualWallClock(clock: clock), scheduler: clock)
    return (tracker, clock)
  }

  static let rules = [
    Rule("first-minute", when: .appTime(.minutes(1)), title: "First minute", points: 10),
    Rule("hello", when: .sessions(1), title: "Hello", points: 1),
  ]

  @Test func unseenUnlocksHaveTitlesAndPointsAndSurviveARelaunch() async throws {
    let store = TemporaryStore()
    do {
      let (tracker, clock) = launch(store, rules: Self.rules)
      tracker.record(.active)
      clock.advance(by: .minutes(2))
      let unseen = tracker.unseenUnlocks()
      #expect(unseen.map(\.rule) == ["hello", "first-minute"])
      #expect(unseen.map(\.title) == ["Hello", "First minute"])
      #expect(unseen.map(\.points) == [1, 10])
      try await tracker.markSeen(["hello"])
      #expect(tracker.unseenUnlocks().map(\.rule) == ["first-minute"])
      tracker.terminate()
    }
    let (relaunched, _) = launch(store, rules: Self.rules)
    let unseen = relaunched.unseenUnlocks()
    #expect(unseen.map(\.rule) == ["first-minute"])
    #expect(unseen.first?.title == "First minute")
    #expect(unseen.first?.points == 10)
    try await relaunched.markSeen(["first-minute"])
    #expect(relaunched.unseenUnlocks().isEmpty)
    try await relaunched.erase()
    #expect(relaunched.unseenUnlocks().isEmpty)
  }

  @Test func unlockRecordsCarryTheirRulesTitle() {
    let sim = TrackerSimulation(
      configuration: {
        var c = Tracker.Configuration(); c.rules = Self.rules; return c
      }())
    let titles = Locked<[String?]>([])
    sim.tracker.engine?.onUnlock { record in titles.withLock { $0.append(record.title) } }
    sim.wait(.minutes(2))
    _ = sim.tracker.report()
    #expect(sim.tracker.unlocks["first-minute"]?.title == "First minute")
    #expect(titles.withLock { $0 }.contains("First minute"))
  }

  @Test func namesAreCleanedTheSameWayInQueriesAndRules() {
    let long = String(repeating: "x", count: 250)
    var configuration = Tracker.Configuration()
    configuration.rules = [
      Rule("tab", when: .screenTime("Tab\tName", .seconds(5))),
      Rule("long", when: .visits(long, 1)),
    ]
    let sim = TrackerSimulation(configuration: configuration)
    sim.use("Tab\tName", for: .seconds(10))
    sim.use(long, for: .seconds(10))
    #expect(sim.tracker.time(.screen("Tab\tName")) == .seconds(10))
    #expect(sim.tracker.visits(long) == 1)
    #expect(sim.tracker.isUnlocked("tab"))
    #expect(sim.tracker.isUnlocked("long"))
  }

  @Test func joinersInNamesAreKept() {
    let family = "👩\u{200D}👩\u{200D}👧\u{200D}👦"
    let persian = "می\u{200C}خواهم"
    #expect(ScreenName.clean(family) == family)
    #expect(ScreenName.clean(persian) == persian)
    #expect(ScreenName.clean("a\u{0}b\nc") == "abc")
    let sim = TrackerSimulation()
    sim.use(family, for: .seconds(3))
    #expect(sim.tracker.time(.screen(family)) == .seconds(3))
    #expect(sim.tracker.time(.screen("👩👩👧👦")) == .zero)
  }

  @Test func aNestedMeasureOfTheSameNameDoesNotEndTheOuterOne() {
    let sim = TrackerSimulation()
    sim.tracker.measure("n") {
      sim.tracker.measure("n") { sim.wait(.seconds(1)) }
      sim.wait(.seconds(1))
    }
    sim.wait(.seconds(5))
    #expect(sim.tracker.time(.screen("n")) == .seconds(2))
  }

  @Test func summaryIsAcceptedForDescriptionInLuaAndJSON() throws {
    let lua = try LuaRulePack(scripts: [
      ("a.lua", "unlock \"a\" { title = \"A\", summary = \"Use the app\", when = { appSeconds = 60 } }")
    ])
    #expect(lua.rules.first?.summary == "Use the app")
    let json = try Rule.parseJSON(#"[{"id": "b", "summary": "Twice", "when": {"sessions": 2}}]"#)
    #expect(json.first?.summary == "Twice")
  }

  @Test func anEmptyStorePathIsReportedAndCountsInMemory() {
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file("")
    let clock = ManualClock()
    let tracker = Tracker(
      configuration: configuration, clock: clock, wallClock: ManualWallClock(clock: clock), scheduler: clock)
    #expect(throws: ConfigurationError.self) { try configuration.validate() }
    guard case .storeUnavailable? = tracker.lastProblem else {
      Issue.record("expected storeUnavailable, got \(String(describing: tracker.lastProblem))")
      return
    }
    tracker.record(.active)
    clock.advance(by: .seconds(2))
    #expect(tracker.time(.app) == .seconds(2))
  }
}
