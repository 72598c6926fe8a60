import Dwell
import DwellTesting
import Testing

/// Extreme arguments through the public API (Int.min, Int.max, negative counts, huge
/// durations): queries, periods, Duration helpers, imports, levels and conditions answer
/// or refuse, never trap.
@Suite struct ExtremeArgumentQueryTests {
  /// A simulation with two days of use: 60 s yesterday, 30 s today in "Home".
  static func used(_ rules: [Rule] = []) -> TrackerSimulation {
    var configuration = Tracker.Configuration()
    configuration.rules = rules
    let sim = TrackerSimulation(configuration: configuration)
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
    let minimums = [Duration.seconds(Int64.max), .seconds(Int64.min), .minutes(Int.max), .days(Int.min)]
    // Daily goals of those sizes: recurring rules (those of a threshold the rules refuse are left out).
    let goals = minimums.indices.map { Rule("goal-\($0)", when: .appTime(minimums[$0]), every: .day) }
    let tracker = Self.used(goals + [Rule("goal-small", when: .appTime(.minutes(10)), every: .day)]).tracker
    for (index, minimum) in minimums.enumerated() {
      _ = tracker.activeDays(minimumPerDay: minimum, in: .lastDays(Int.min))
      _ = tracker.currentStreak(minimumPerDay: minimum)
      _ = tracker.longestStreak(.screen("Home"), minimumPerDay: minimum)
      if let goal = tracker.progress(of: "goal-\(index)") {
        #expect(goal.fraction >= 0 && goal.fraction <= 1, "\(minimum)")
      }
    }
    // Today's 30 s of a 10 min goal, beside them.
    #expect(tracker.progress(of: "goal-small").map { abs($0.fraction - 0.05) < 1e-9 } == true)
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
