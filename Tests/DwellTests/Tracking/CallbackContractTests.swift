import DwellTesting
import Foundation
import Testing

@testable import Dwell

/// What `unseenUnlocks()` reports after the rule changed, and that problem handlers run
/// with no lock of Dwell's held whichever path reports them, the latest one synchronously
/// on the registering thread.
@Suite struct CallbackContractTests {
  @Test func unseenUnlocksCarryThePointsAwardedAndTheTitleInForce() throws {
    let folder = TemporaryStore()
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(folder.path)
    configuration.rules = [Rule("five", when: .screenTime("Lessons", .seconds(1)), title: "Five", points: 3)]
    let first = TrackerSimulation(configuration: configuration)
    first.use("Lessons", for: .seconds(2))
    first.tracker.terminate()
    configuration.rules = [Rule("five", when: .screenTime("Lessons", .seconds(1)), title: "Renamed", points: 7)]
    let second = TrackerSimulation(configuration: configuration)
    let unseen = second.tracker.unseenUnlocks()
    #expect(unseen.map(\.rule) == ["five"])
    #expect(unseen.first?.points == 3)
    #expect(unseen.first?.title == "Renamed")
    #expect(second.tracker.points == unseen.map(\.points).reduce(0, +))
    #expect(second.tracker.unlocks["five"]?.points == unseen.first?.points)
  }

  /// A handler that calls back into the tracker (rules, retry, queries, another handler)
  /// for problems from opening, from `setRules` and at registration: a lock of Dwell's
  /// held meanwhile would deadlock it.
  @Test func problemHandlersMayCallBackIntoTheTracker() throws {
    let folder = TemporaryStore()
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(folder.directory + "/missing/usage.sqlite")
    configuration.checkpointInterval = .zero  // invalid: reported at init
    let clock = ManualClock()
    let tracker = Tracker(
      configuration: configuration, clock: clock, wallClock: ManualWallClock(clock: clock), scheduler: clock)
    let seen = Locked<[String]>([])
    let registering = ObjectIdentifier(Thread.current)
    let onRegisteringThread = Locked<Bool?>(nil)
    tracker.onProblem { problem in
      onRegisteringThread.withLock { if $0 == nil { $0 = ObjectIdentifier(Thread.current) == registering } }
      seen.withLock { $0.append("\(problem)") }
      _ = tracker.retryStore()
      _ = tracker.lastProblem
      _ = tracker.time(.app)
      tracker.setHostValue("x", 1)
      tracker.onNotification { _ in }
    }
    #expect(seen.withLock { $0.count } == 1)  // the latest, before onProblem returned
    #expect(onRegisteringThread.withLock { $0 } == true)
    #expect(throws: RuleError.self) {
      try tracker.setRules([Rule("a", when: .sessions(1)), Rule("a", when: .sessions(2))])
    }
    #expect(seen.withLock { $0.count } == 2)
    try FileManager.default.createDirectory(atPath: folder.directory + "/missing", withIntermediateDirectories: true)
    #expect(tracker.retryStore())
  }
}
