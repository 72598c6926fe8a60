import Dwell
import DwellTesting
import Foundation
import Testing

/// The app-facing API, used the way an app would.
@Suite struct TrackerTests {
  static var configuration: Tracker.Configuration {
    var configuration = Tracker.Configuration()
    configuration.rules = [
      Rule("bonus-level", when: .screenTime("Lessons", .minutes(30)), title: "Bonus level"),
      Rule("four-in-a-row", when: .streak(4, minimumPerDay: .minutes(10), screen: "Lessons")),
      Rule("quiz-fan", when: .visits("Quiz", 3)),
    ]
    configuration.levels = [Level("Beginner", points: 0)]
    return configuration
  }

  @Test func aScriptedWeekWithStreaksGoalsAndProgress() throws {
    var configuration = Self.configuration
    configuration.rules.append(Rule("lessons-today", when: .screenTime("Lessons", .minutes(10)), every: .day))
    let sim = TrackerSimulation(configuration: configuration)
    let tracker = sim.tracker
    for day in 0..<7 {
      if day != 4 {  // a day off
        sim.use("Lessons", for: .minutes(12))
        sim.use("Quiz", for: .minutes(1))
      }
      if day == 2 {
        #expect(tracker.progress(of: "lessons-today")?.isUnlocked == true)
        #expect(tracker.currentStreak(.screen("Lessons"), minimumPerDay: .minutes(10)) == 3)
      }
      sim.nextDay()
    }
    #expect(tracker.time(.screen("Lessons")) == .minutes(72))
    #expect(tracker.time(.screen("Lessons"), in: .lastDays(3)) == .minutes(24))
    #expect(tracker.time(.app, in: .today) == .zero)
    #expect(tracker.visits("Quiz") == 6)
    #expect(tracker.longestStreak(.screen("Lessons"), minimumPerDay: .minutes(10)) == 4)
    #expect(tracker.currentStreak(.screen("Lessons"), minimumPerDay: .minutes(10)) == 2)
    #expect(tracker.activeDays() == 6)
    #expect(tracker.isUnlocked("bonus-level"))
    #expect(tracker.isUnlocked("four-in-a-row"))
    #expect(tracker.isUnlocked("quiz-fan"))
    let series = tracker.series(.screen("Lessons"), lastDays: 8)
    #expect(series.map { Int($0.time.seconds / 60) } == [12, 12, 12, 12, 0, 12, 12, 0])

    // Today: a goal in progress, resetting at midnight.
    let id = sim.open("Lessons")
    sim.wait(.minutes(4))
    let progress = try #require(tracker.progress(of: "lessons-today"))
    #expect(progress.summary == "4 min of 10 min in Lessons today, resets at midnight")
    #expect(progress.remaining == "6 min in Lessons today to go")
    #expect(!progress.isUnlocked)
    #expect(abs(progress.fraction - 0.4) < 1e-9)
    sim.close(id)
  }

  @Test func ruleProgressForProgressBars() throws {
    let sim = TrackerSimulation(configuration: Self.configuration)
    sim.use("Lessons", for: .minutes(18))
    let progress = try #require(sim.tracker.progress(of: "bonus-level"))
    #expect(progress.summary == "18 min of 30 min in Lessons")
    #expect(progress.remaining == "12 min in Lessons to go")
    #expect(abs(progress.fraction - 0.6) < 1e-9)
    #expect(sim.tracker.progress(of: "no-such-rule") == nil)
  }

  @Test func liveFiguresIncludeTheOpenVisitWithoutCreditingIt() throws {
    let sim = TrackerSimulation(configuration: Self.configuration)
    _ = sim.open("Lessons")
    sim.wait(.seconds(29 * 60 + 59))
    #expect(sim.tracker.time(.screen("Lessons")) == .seconds(29 * 60 + 59))
    #expect(!sim.tracker.isUnlocked("bonus-level"))
    sim.wait(.seconds(1))
    #expect(sim.tracker.engine?.unlocks["bonus-level"]?.mono == MonotonicInstant(nanoseconds: 1_800_000_000_000))
  }

  @Test func unlocksAreDeliveredOnceInOrderAfterTheyArePersisted() async throws {
    let sim = TrackerSimulation(configuration: Self.configuration)
    let stream = sim.tracker.unlocks()
    for _ in 0..<3 { sim.use("Quiz", for: .seconds(5)) }
    sim.use("Lessons", for: .minutes(31))
    var received: [String] = []
    for await unlock in stream {
      received.append(unlock.rule)
      if received.count == 2 { break }
    }
    #expect(received == ["quiz-fan", "bonus-level"])
  }

  /// A plugin written in Swift: posts a notification for every visit to a screen.
  struct Greeter: UsageListener {
    var wantsTicks: Bool { false }
    func restore(states: [String: String]) {}
    func receive(_ event: UsageEvent, usage: UsageFigures) -> [UsageAction] {
      guard case .screenEntered(let screen) = event else { return [] }
      return [.notify(UsageNotification(source: "greeter", title: "Hello \(screen)", instant: .init(nanoseconds: 0)))]
    }
  }

  /// Handlers get every unlock and notification once, in order; on a manual clock before
  /// the call that caused it returns (what a test of an app's unlock logic relies on).
  @Test func unlockAndNotificationHandlersRunInOrder() throws {
    var configuration = Self.configuration
    configuration.listeners = [Greeter()]
    let sim = TrackerSimulation(configuration: configuration)
    let seen = Locked<[String]>([])
    sim.tracker.onUnlock { unlock in seen.withLock { $0.append("unlock \(unlock.rule)") } }
    sim.tracker.onNotification { note in seen.withLock { $0.append(note.title) } }
    for _ in 0..<3 { sim.use("Quiz", for: .seconds(5)) }
    // Each kind in order (an unlock and a plugin's answer to the same event may come in
    // either order between them).
    let unlocks = { seen.withLock { $0.filter { $0.hasPrefix("unlock ") } } }
    let notes = { seen.withLock { $0.filter { !$0.hasPrefix("unlock ") } } }
    #expect(unlocks() == ["unlock quiz-fan"])
    #expect(notes() == ["Hello Quiz", "Hello Quiz", "Hello Quiz"])
    sim.use("Lessons", for: .minutes(31))
    #expect(unlocks() == ["unlock quiz-fan", "unlock bonus-level"])
    #expect(notes().last == "Hello Lessons")
  }

  /// A type of the app's that wraps a tracker answers every query by passing on its source.
  @Test func aWrapperAnswersTheQueriesOfItsTracker() throws {
    struct LessonStats: UsageQueries {
      let tracker: Tracker
      var usageSource: UsageSource { tracker.usageSource }
    }
    let sim = TrackerSimulation(configuration: Self.configuration)
    let stats = LessonStats(tracker: sim.tracker)
    #expect(stats.time() == .zero)
    for _ in 0..<3 { sim.use("Quiz", for: .seconds(5)) }
    #expect(stats.time(.screen("Quiz")) == .seconds(15))
    #expect(stats.visits("Quiz") == 3)
    #expect(stats.isUnlocked("quiz-fan"))
    #expect(stats.unlocks.keys.sorted() == sim.tracker.unlocks.keys.sorted())
    #expect(stats.today == sim.tracker.today)
  }

  @Test func featureTimersAndMeasure() throws {
    let sim = TrackerSimulation()
    sim.tracker.beginFeature("video")
    sim.wait(.seconds(40))
    sim.tracker.endFeature("video")
    sim.tracker.measure("export") { sim.wait(.seconds(3)) }
    #expect(sim.tracker.time(.screen("video")) == .seconds(40))
    #expect(sim.tracker.time(.screen("export")) == .seconds(3))
  }

  @Test func oddScreenNamesAreCleaned() throws {
    #expect(ScreenName.clean("  Lessons\n") == "Lessons")
    #expect(ScreenName.clean("\u{0}\u{7}") == "Unnamed")
    #expect(ScreenName.clean(String(repeating: "x", count: 10_000)).count == 200)
  }

  @Test func exportEraseAndRetention() async throws {
    let dir = TemporaryStore()
    var configuration = Self.configuration
    configuration.storeLocation = .file(dir.path)
    let sim = TrackerSimulation(configuration: configuration)
    sim.use("Lessons, \"advanced\"", for: .minutes(31))
    let csv = try await sim.tracker.export(.csv)
    let header = "kind,screen,day,started_at,ended_at,seconds,rule,title,points,source,reason,state,count,action,period"
    #expect(csv.hasPrefix(header + "\r\n"))
    let visit =
      "visit,\"Lessons, \"\"advanced\"\"\",,2026-03-02T09:00:00.000Z,2026-03-02T09:31:00.000Z,1860.0,,,,,,,,,\r\n"
    #expect(csv.contains(visit))
    let json = try JSONSerialization.jsonObject(with: Data(try await sim.tracker.export(.json).utf8)) as? [String: Any]
    #expect((json?["visits"] as? [Any])?.count == 1)
    #expect((json?["days"] as? [Any])?.count == 2)
    try await sim.tracker.erase()
    #expect(sim.tracker.time() == .zero)
    #expect(!sim.tracker.isUnlocked("bonus-level"))
    sim.use("Quiz", for: .seconds(10))
    #expect(sim.tracker.time() == .seconds(10))
    let summary = try Store(path: dir.path).summary()
    #expect(summary.unlocks == 0)
    let pruned = try Store(path: dir.path).pruneVisits(endedBefore: WallInstant(nanosecondsSince1970: .max))
    #expect(pruned >= 0)
  }

  @Test func aStoreThatIsNotSQLiteIsMovedAsideAndCountingGoesOn() throws {
    let dir = TemporaryStore()
    try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: dir.path))
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(dir.path)
    let sim = TrackerSimulation(configuration: configuration)
    guard case .storeMovedAside(let aside)? = sim.tracker.lastProblem else {
      Issue.record("expected the store to be moved aside, got \(String(describing: sim.tracker.lastProblem))")
      return
    }
    #expect(FileManager.default.fileExists(atPath: aside))
    #expect(try Data(contentsOf: URL(fileURLWithPath: aside)) == Data(repeating: 0x42, count: 4096))
    sim.use("Home", for: .seconds(5))
    #expect(sim.tracker.time() == .seconds(5))
  }

  @Test func anUnwritableLocationFallsBackToMemory() throws {
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file("/proc/dwell-cannot-write-here/usage.sqlite")
    let sim = TrackerSimulation(configuration: configuration)
    guard case .storeUnavailable? = sim.tracker.lastProblem else {
      Issue.record("expected storeUnavailable, got \(String(describing: sim.tracker.lastProblem))")
      return
    }
    sim.use("Home", for: .seconds(5))
    #expect(sim.tracker.time(.screen("Home")) == .seconds(5))
  }

  @Test func eventsBeforeTheStoreOpensAreKeptWithTheirTimes() async throws {
    let dir = TemporaryStore()
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(dir.path)
    let tracker = Tracker(configuration: configuration)  // opens in the background
    tracker.record(.active)
    tracker.screenAppeared("Home", id: ScreenInstance("h"))
    await tracker.ready()
    try await Task.sleep(for: .milliseconds(50))
    #expect(tracker.time(.screen("Home")) >= .milliseconds(50))
    #expect(tracker.visits("Home") == 1)
    tracker.engine?.terminate()
  }
}

@Suite struct ImportTests {
  @Test func userDefaultsTotalsAreImportedOnce() throws {
    let dir = TemporaryStore()
    var configuration = TrackerTests.configuration
    configuration.storeLocation = .file(dir.path)
    let sim = TrackerSimulation(configuration: configuration)
    let old = ["Lessons": 1500.0, "Quiz": 60.0, " Lessons ": 120.0, "Broken": .nan]
    #expect(sim.tracker.importTotals(screens: old, key: "userdefaults-v1"))
    #expect(!sim.tracker.importTotals(screens: old, key: "userdefaults-v1"))
    #expect(sim.tracker.time(.screen("Lessons")) == .seconds(1620))
    #expect(sim.tracker.time(.app, in: .today) == .seconds(1680))
    sim.use("Lessons", for: .minutes(3))
    #expect(sim.tracker.isUnlocked("bonus-level"))
    sim.tracker.engine?.terminate()
    // A later launch remembers the import.
    let again = TrackerSimulation(configuration: configuration)
    #expect(!again.tracker.importTotals(screens: old, key: "userdefaults-v1"))
    #expect(again.tracker.time(.screen("Lessons")) == .seconds(1800))
  }
}

@Suite struct StoreRetryTests {
  @Test func countsMoveIntoTheStoreOnceItCanBeOpened() throws {
    let dir = TemporaryStore()
    let folder = dir.directory + "/not-yet"
    var configuration = TrackerTests.configuration
    configuration.storeLocation = .file(folder + "/usage.sqlite")
    let sim = TrackerSimulation(configuration: configuration)
    guard case .storeUnavailable? = sim.tracker.lastProblem else {
      Issue.record("expected storeUnavailable, got \(String(describing: sim.tracker.lastProblem))")
      return
    }
    sim.use("Quiz", for: .seconds(30))
    let lessons = sim.open("Lessons")
    sim.wait(.minutes(20))
    #expect(!sim.tracker.retryStore())  // still missing
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    #expect(sim.tracker.retryStore())
    sim.wait(.minutes(10))  // Lessons is still visible and counting
    sim.close(lessons)
    #expect(sim.tracker.time(.screen("Lessons")) == .minutes(30))
    #expect(sim.tracker.visits("Lessons") == 1)
    #expect(sim.tracker.sessions == 1)
    #expect(sim.tracker.isUnlocked("bonus-level"))
    sim.tracker.engine?.terminate()
    let stored = try UsageReport(store: Store(path: folder + "/usage.sqlite", readOnly: true))
    #expect(stored.app.time == .seconds(30 + 30 * 60))
    #expect(stored.screens["Quiz"]?.visits == 1)
    #expect(stored.unlocks["bonus-level"] != nil)
  }
}
