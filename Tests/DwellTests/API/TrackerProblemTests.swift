import DwellTesting
import Foundation
import Testing

@testable import Dwell

/// `problems()`, `onProblem` and `lastProblem`: what a tracker reports when its store
/// cannot be used, and that it goes on counting.
@Suite struct TrackerProblemTests {
  static func tracker(at location: Tracker.StoreLocation) -> (Tracker, ManualClock) {
    var configuration = Tracker.Configuration()
    configuration.storeLocation = location
    let clock = ManualClock()
    let tracker = Tracker(
      configuration: configuration, clock: clock, wallClock: ManualWallClock(clock: clock), scheduler: clock)
    return (tracker, clock)
  }

  /// The first problem the stream delivers (the latest one is delivered at once).
  static func firstProblem(_ tracker: Tracker) async -> TrackerProblem? {
    // The store opens at once on a manual clock: without a problem now, none will come.
    guard tracker.lastProblem != nil else { return nil }
    for await problem in tracker.problems() { return problem }
    return nil
  }

  /// Counting goes on, wherever the numbers are kept.
  static func expectCounting(_ tracker: Tracker, _ clock: ManualClock) {
    tracker.record(.active)
    clock.advance(by: .seconds(90))
    #expect(tracker.time() == .seconds(90))
  }

  @Test func aDamagedStoreIsMovedAsideAndAFreshOneStarted() async throws {
    let directory = TemporaryStore()
    try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: directory.path))
    let (tracker, clock) = Self.tracker(at: .file(directory.path))
    guard case .storeMovedAside(let aside) = await Self.firstProblem(tracker) else {
      Issue.record("expected storeMovedAside, got \(String(describing: tracker.lastProblem))")
      return
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: aside)) == Data(repeating: 0x41, count: 8192))
    #expect(try Store(path: directory.path, readOnly: true).integrityCheck() == ["ok"])
    Self.expectCounting(tracker, clock)
  }

  @Test func aStoreFromANewerDwellIsLeftAloneAndCountingGoesOnInMemory() async throws {
    let directory = TemporaryStore()
    try Store(path: directory.path).write {
      try $0.execute("INSERT INTO dwell_migrations VALUES('v99-future', '2030-01-01')")
    }
    let before = try Data(contentsOf: URL(fileURLWithPath: directory.path))
    let (tracker, clock) = Self.tracker(at: .file(directory.path))
    #expect(await Self.firstProblem(tracker) == .storeFromNewerVersion("migration v99-future"))
    Self.expectCounting(tracker, clock)
    tracker.record(.background)
    #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path)) == before)
  }

  @Test func aStoreThatCannotBeOpenedIsReportedAndRetried() async throws {
    let missing = FileManager.default.temporaryDirectory.path + "/dwell-missing-\(UUID().uuidString)/usage.sqlite"
    let (tracker, clock) = Self.tracker(at: .file(missing))
    guard case .storeUnavailable = await Self.firstProblem(tracker) else {
      Issue.record("expected storeUnavailable, got \(String(describing: tracker.lastProblem))")
      return
    }
    Self.expectCounting(tracker, clock)
    #expect(!tracker.retryStore())
  }

  @Test func anAppGroupWithoutAContainerIsReported() async {
    let (tracker, clock) = Self.tracker(at: .appGroup("group.example.missing"))
    #if canImport(Darwin)
      guard case .some = await Self.firstProblem(tracker) else { return }
    #else
      #expect(await Self.firstProblem(tracker) == .noAppGroup("group.example.missing"))
    #endif
    Self.expectCounting(tracker, clock)
  }

  /// Handlers and streams that start listening after the problem still hear of it, once.
  @Test func lateListenersHearTheLatestProblemOnce() async throws {
    let missing = FileManager.default.temporaryDirectory.path + "/dwell-missing-\(UUID().uuidString)/usage.sqlite"
    let (tracker, _) = Self.tracker(at: .file(missing))
    let heard = Locked<[TrackerProblem]>([])
    tracker.onProblem { problem in heard.withLock { $0.append(problem) } }
    tracker.onProblem { problem in heard.withLock { $0.append(problem) } }
    #expect(heard.withLock { $0 }.count == 2)
    #expect(heard.withLock { $0 }.allSatisfy { $0 == tracker.lastProblem })
    let first = await Self.firstProblem(tracker)
    let second = await Self.firstProblem(tracker)
    #expect(first != nil && first == second && first == tracker.lastProblem)
  }
}
