import Dwell
import DwellLua
import DwellTesting
import Foundation
import Testing

/// What an app developer gets wrong through the public API, by class of argument or
/// setting: extreme numbers never trap, refused settings run at their defaults, bad Swift
/// rules are left out alone, a late `configureShared` is reported.
@Suite struct ExtremeArgumentQueryTests {
  /// A simulation with two days of use: 60 s yesterday, 30 s today in "Home".
  static func used() -> TrackerSimulation {
    let sim = TrackerSimulation()
    sim.use("Home", for: .seconds(60))
    sim.nextDay()
    sim.tracker.record(.active)
    sim.use("Home", for: .seconds(30))
    return sim
  }

  @Test func lastDaysOfAnyCountAnswersWithoutATrap() {
    let tracker = Self.used().tracker
    for n in [Int.min, Int(Int32.min), -1, 0] {
      #expect(tracker.time(.app, in: .lastDays(n)) == .zero, "\(n)")
      #expect(tracker.visits("Home", in: .lastDays(n)) == 0, "\(n)")
      #expect(tracker.activeDays(in: .lastDays(n)) == 0, "\(n)")
    }
    #expect(tracker.time(.app, in: .lastDays(1)) == .seconds(30))
    for n in [2, Int(Int32.max), Int.max] {
      #expect(tracker.time(.app, in: .lastDays(n)) == .seconds(90), "\(n)")
      #expect(tracker.time(.screen("Home"), in: .lastDays(n)) == .seconds(90), "\(n)")
      #expect(tracker.visits("Home", in: .lastDays(n)) == 2, "\(n)")
    }
  }

  @Test func seriesOfAnyLengthAnswersWithoutATrap() {
    let tracker = Self.used().tracker
    #expect(tracker.series(lastDays: Int.min).isEmpty)
    #expect(tracker.series(lastDays: -5).isEmpty)
    #expect(tracker.series(lastDays: Int.max).count == 100_000)
    #expect(tracker.series(lastDays: 2).map(\.time) == [.seconds(60), .seconds(30)])
  }

  @Test func durationHelpersClampInsteadOfTrapping() {
    #expect(Duration.minutes(Int.max / 30) == .seconds(Int64.max))
    #expect(Duration.minutes(Int.max) == .seconds(Int64.max))
    #expect(Duration.minutes(Int.min) == .seconds(Int64.min))
    #expect(Duration.hours(Int.max) == .seconds(Int64.max))
    #expect(Duration.hours(Int.min) == .seconds(Int64.min))
    #expect(Duration.days(Int.max) == .seconds(Int64.max))
    #expect(Duration.days(-Int.max) == .seconds(Int64.min))
    #expect(Duration.minutes(-2) == .seconds(-120))
    #expect(Duration.days(3) == .seconds(259_200))
    #expect(Duration.minutes(Double.nan) == .zero)
    #expect(Duration.minutes(Double.infinity) == .milliseconds(Int64.max))
    #expect(Duration.minutes(-Double.infinity) == .milliseconds(Int64.min))
    #expect(Duration.minutes(1e300) == .milliseconds(Int64.max))
    #expect(Duration.minutes(1.5) == .seconds(90))
  }

  @Test func hugeDurationsInQueriesAndGoalsAnswerWithoutATrap() {
    let tracker = Self.used().tracker
    for minimum in [Duration.seconds(Int64.max), .seconds(Int64.min), .minutes(Int.max), .days(Int.min)] {
      _ = tracker.activeDays(minimumPerDay: minimum, in: .lastDays(Int.min))
      _ = tracker.currentStreak(minimumPerDay: minimum)
      _ = tracker.longestStreak(.screen("Home"), minimumPerDay: minimum)
      let goal = tracker.progress(of: DailyGoal(.app, minimum))
      #expect(goal.fraction >= 0 && goal.fraction <= 1, "\(minimum)")
    }
    #expect(tracker.activeDays(minimumPerDay: .seconds(Int64.max)) == 0)
  }

  @Test func importedTotalsOfAnySizeSaturate() {
    let sim = TrackerSimulation()
    var screens: [String: Double] = [:]
    for index in 0..<20 { screens["S\(index)"] = 1e12 }
    screens["NaN"] = .nan
    screens["minus"] = -.infinity
    #expect(sim.tracker.importTotals(screens: screens, key: "huge"))
    #expect(sim.tracker.time(.app) > .seconds(9_000_000_000))
    #expect(sim.tracker.time(.screen("S3")) == .seconds(1_000_000_000))
    #expect(sim.tracker.time(.screen("NaN")) == .zero)
  }

  @Test func levelSummariesOfAnyPointsAnswerWithoutATrap() {
    let levels = [Level("Low", points: Int.min), Level("High", points: Int.max)]
    #expect(Level.summary(Int.min, in: levels) == "Low (\(Int.max) to High)")
  }

  @Test func conditionBuildersWithExtremeArgumentsAreRefusedOrRunWithoutATrap() {
    let conditions: [Condition] = [
      .appTime(.minutes(Int.max)), .appTime(.seconds(Int64.min)), .screenTime("Home", .days(Int.max)),
      .visits("Home", Int.min), .sessions(Int.min), .activeDays(Int.min, minimumPerDay: .hours(Int.max)),
      .streak(Int.min, minimumPerDay: .hours(Int.min), screen: "Home"),
    ]
    for condition in conditions {
      let sim = TrackerSimulation()
      #expect(throws: RuleError.self, "\(condition)") { try sim.tracker.setRules([Rule("x", when: condition)]) }
    }
    // The largest counts are valid: they never unlock, and never trap.
    let huge: [Condition] = [
      .visits("Home", Int.max), .sessions(Int.max), .activeDays(Int.max), .streak(Int.max, screen: "Home"),
      .all([.sessions(Int.max), .appTime(.seconds(1_000_000_000))]),
    ]
    let sim = TrackerSimulation()
    try? sim.tracker.setRules(huge.enumerated().map { Rule("huge-\($0.offset)", when: $0.element) })
    sim.use("Home", for: .minutes(5))
    #expect(sim.tracker.progress().count == huge.count)
    #expect(sim.tracker.unlocks.isEmpty)
  }
}

@Suite struct ConfigurationRepairTests {
  @Test func aZeroIdleTimeoutRunsWithoutOne() {
    var configuration = Tracker.Configuration()
    configuration.idleTimeout = .zero
    let sim = TrackerSimulation(configuration: configuration)
    sim.use("Home", for: .seconds(30))
    #expect(sim.tracker.time() == .seconds(30))
    #expect(sim.tracker.time(.screen("Home")) == .seconds(30))
  }

  @Test func refusedIntervalsRunAtTheirDefaults() {
    for bad in [Duration.zero, .seconds(-1), .seconds(Int64.min), .seconds(Int64.max)] {
      var configuration = Tracker.Configuration()
      configuration.checkpointInterval = bad
      configuration.sessionTimeout = bad < .zero || bad == .zero ? bad : .minutes(30)
      let sim = TrackerSimulation(configuration: configuration)
      let engine = sim.tracker.engine?.configuration
      #expect(engine?.checkpointInterval == .seconds(2), "\(bad)")
      #expect(engine?.sessionTimeout == .minutes(30), "\(bad)")
    }
  }

  @Test func aRefusedRetentionKeepsEverything() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("dwell-retention-\(UUID()).sqlite").path
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(path)
    let first = TrackerSimulation(configuration: configuration)
    first.use("Home", for: .seconds(30))
    first.tracker.terminate()
    for retention in [Duration.seconds(-3600), .seconds(Int64.min)] {
      configuration.visitRetention = retention
      let again = TrackerSimulation(configuration: configuration)
      #expect(again.tracker.visits("Home") == 1, "\(retention)")
      #expect(try again.tracker.engine?.store.visits().count == 1, "\(retention)")
      again.tracker.terminate()
    }
  }

  @Test func badLevelsAreLeftOutAndTheGoodOnesKept() {
    var configuration = Tracker.Configuration()
    configuration.levels = [
      Level("Beginner", points: 0), Level("", points: 5), Level("Beginner", points: 10),
      Level("Minus", points: -50), Level("Huge", points: Int.max), Level("Scholar", points: 100),
    ]
    let sim = TrackerSimulation(configuration: configuration)
    #expect(sim.tracker.engine?.configuration.levels.map(\.name) == ["Beginner", "Scholar"])
    #expect(sim.tracker.level?.level.name == "Beginner")
  }

  @Test func aRefusedConfigurationIsReportedOnceWithEveryProblem() {
    var configuration = Tracker.Configuration()
    configuration.idleTimeout = .zero
    configuration.checkpointInterval = .seconds(-2)
    let reports = Locked<[TrackerProblem]>([])
    let sim = TrackerSimulation(configuration: configuration)
    sim.tracker.onProblem { problem in reports.withLock { $0.append(problem) } }
    sim.use("Home", for: .seconds(10))
    let seen = reports.withLock { $0 }
    #expect(seen.count == 1)
    guard case .invalidConfiguration(let error)? = seen.first else {
      Issue.record("expected invalidConfiguration, got \(seen)")
      return
    }
    #expect(error.problems.count == 2, "\(error)")
  }
}

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
      configuration.rules = [Rule("rich", when: .sessions(1), points: bad), Rule("fair", when: .sessions(1), points: 10)]
      let launched = TrackerSimulation(configuration: configuration)
      #expect(launched.tracker.lastProblem == .invalidConfiguration(ConfigurationError(problems: [.rule(.init(rule: "rich", message))])))
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

@Suite struct SharedTrackerTests {
  static func inMemory() -> Tracker.Configuration {
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .inMemory
    return configuration
  }

  @Test func configuringTheSharedTrackerTwiceIsReported() {
    let slot = Tracker.SharedSlot(nil)
    let first = Tracker.configureShared(Self.inMemory(), in: slot)
    #expect(first.lastProblem == nil)
    var other = Self.inMemory()
    other.idleTimeout = .seconds(5)
    let second = Tracker.configureShared(other, in: slot)
    #expect(first === second)
    #expect(second.lastProblem == .configuredTooLate)
    #expect(second.configuration.idleTimeout == nil)
  }
}
