import Dwell
import DwellTesting
import Foundation
import Observation
import Testing

/// `UsageModel`: SwiftUI's view of a tracker. Reading a figure makes an observer depend on
/// it; a refresh or an unlock notifies the observer; figures are the tracker's.
@MainActor @Suite struct UsageModelTests {
  static func simulation(_ more: [Rule] = []) -> TrackerSimulation {
    var configuration = Tracker.Configuration()
    configuration.rules = [Rule("bonus", when: .screenTime("Lessons", .minutes(5)))] + more
    return TrackerSimulation(configuration: configuration)
  }

  @Test func figuresAreTheTrackers() {
    let sim = Self.simulation([Rule("lessons-today", when: .screenTime("Lessons", .minutes(10)), every: .day)])
    let model = UsageModel(tracker: sim.tracker, refreshEvery: .seconds(3600))
    sim.use("Lessons", for: .minutes(3))
    #expect(model.time(.screen("Lessons")) == .minutes(3))
    #expect(model.time() == sim.tracker.time())
    #expect(!model.isUnlocked("bonus"))
    #expect(model.progress(of: "bonus")?.isUnlocked == false)
    #expect(model.progress(of: "lessons-today")?.summary == "3 min of 10 min in Lessons today, resets at midnight")
    #expect(model.currentStreak() == 1)
    #expect(model.points == 0)
  }

  /// An observer that read a figure is told when the model refreshes.
  @Test func readingAFigureObservesTheRefresh() {
    let sim = Self.simulation()
    let model = UsageModel(tracker: sim.tracker, refreshEvery: .seconds(3600))
    let changed = Locked(false)
    withObservationTracking {
      _ = model.time(.screen("Lessons"))
    } onChange: {
      changed.withLock { $0 = true }
    }
    #expect(!changed.withLock { $0 })
    model.refresh()
    #expect(changed.withLock { $0 })
  }

  /// Every query, not only the few a view usually asks, makes the observer depend on the
  /// refresh: the model answers them all through one source that reads the revision.
  @Test func everyQueryObservesTheRefresh() {
    let sim = Self.simulation()
    let model = UsageModel(tracker: sim.tracker, refreshEvery: .seconds(3600))
    let queries: [(String, () -> Void)] = [
      ("visits", { _ = model.visits("Lessons") }), ("sessions", { _ = model.sessions }),
      ("today", { _ = model.today }), ("series", { _ = model.series(lastDays: 3) }),
      ("activeDays", { _ = model.activeDays() }), ("longestStreak", { _ = model.longestStreak() }),
      ("unlocks", { _ = model.unlocks }), ("progress", { _ = model.progress() }),
    ]
    for (name, query) in queries {
      let changed = Locked(false)
      withObservationTracking(query) { changed.withLock { $0 = true } }
      model.refresh()
      #expect(changed.withLock { $0 }, "\(name)")
    }
  }

  /// An unlock reaches the model (for a celebration banner) and refreshes its figures.
  @Test func anUnlockIsDeliveredAndRefreshes() async throws {
    let sim = Self.simulation()
    let model = UsageModel(tracker: sim.tracker, refreshEvery: .seconds(3600))
    let revision = model.revision
    sim.use("Lessons", for: .minutes(6))
    for _ in 0..<500 where model.lastUnlock == nil {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(model.lastUnlock?.rule == "bonus")
    #expect(model.revision > revision)
    #expect(model.isUnlocked("bonus"))
  }

  /// The model's clock refreshes while time accrues and stops once the app leaves: a view
  /// reading the model was redrawn every second in the background too.
  @Test func theClockRefreshesOnlyWhileTheAppIsActive() {
    let sim = Self.simulation()  // launched and active
    let model = UsageModel(tracker: sim.tracker, refreshEvery: .seconds(3600))
    func ticks(_ n: Int) -> Int {
      let before = model.revision
      for _ in 0..<n {
        sim.wait(.seconds(1))
        model.tick()
      }
      return model.revision - before
    }
    #expect(ticks(3) == 3)
    sim.tracker.record(.inactive)
    sim.tracker.record(.background)
    #expect(ticks(1) == 1)  // the figures it ended with
    #expect(ticks(10) == 0)
    sim.tracker.record(.foreground)
    sim.tracker.record(.active)
    #expect(ticks(2) == 2)
  }
}
