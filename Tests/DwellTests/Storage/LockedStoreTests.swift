// A store another process holds locked at launch (#27 item 5): the session survives in a
// journal beside it, through terminate() or a kill, and is folded in when the store opens.
import DwellTesting
import Foundation
import Testing

@testable import Dwell

@Suite(.serialized) struct LockedStoreTests {
  /// A second SQLite connection to the store holding `BEGIN EXCLUSIVE` and a write, as an
  /// App Group extension mid-transaction does.
  private typealias Holder = StoreLock

  private static func configuration(_ store: TemporaryStore) -> Tracker.Configuration {
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(store.path)
    return configuration
  }

  /// A tracker on a manual clock that drives its timers (checkpoints every 5 s by default).
  private static func tracker(_ store: TemporaryStore) -> (Tracker, ManualClock) {
    let clock = ManualClock()
    let tracker = Tracker(
      configuration: configuration(store), clock: clock, wallClock: ManualWallClock(clock: clock), scheduler: clock)
    return (tracker, clock)
  }

  /// `visits` visits of 24 ms each to screens S0...S9, 24 s of app time in all.
  private static func session(_ tracker: Tracker, _ clock: ManualClock, visits: Int = 1_000) {
    tracker.record(.active)
    for visit in 0..<visits {
      tracker.screenAppeared("S\(visit % 10)", id: ScreenInstance("v\(visit)"))
      clock.advance(by: .milliseconds(24))
      tracker.screenDisappeared(id: ScreenInstance("v\(visit)"))
    }
  }

  private static func seed(_ store: TemporaryStore) {
    let (tracker, clock) = tracker(store)
    tracker.record(.active)
    clock.advance(by: .seconds(10))
    tracker.terminate()
  }

  private static func journals(_ store: TemporaryStore) -> [String] {
    Journal.list(storePath: store.path).map(\.path)
  }

  @Test func aSessionOnAStoreLockedAtLaunchSurvivesTerminate() throws {
    let store = TemporaryStore()
    Self.seed(store)
    let holder = try Holder(path: store.path)
    let (tracker, clock) = Self.tracker(store)  // waits out SQLite's busy timeout (5 s)
    #expect(tracker.engine?.store.standingInFor == store.path)
    #expect("\(String(describing: tracker.lastProblem))".contains("locked"))
    Self.session(tracker, clock)
    tracker.terminate()  // a last try at the store, which is still locked
    #expect(!Self.journals(store).isEmpty, "no journal beside the store")
    try holder.release()

    let (reader, _) = Self.tracker(store)
    #expect(reader.engine?.store.standingInFor == nil)
    #expect(reader.time(.app) == .seconds(34))
    #expect(reader.visits("S3") == 100)
    #expect((0..<10).reduce(0) { $0 + reader.visits("S\($1)") } == 1_000)
    #expect(reader.time(.screen("S0")) == .milliseconds(2_400))
    reader.terminate()
    #expect(Self.journals(store).isEmpty, "the journal was folded and removed")
    // Opened again: counted once.
    let (again, _) = Self.tracker(store)
    #expect(again.time(.app) == .seconds(34))
    #expect(again.visits("S3") == 100)
  }

  /// Killed (no terminate) while the store is locked: everything up to the last checkpoint
  /// (5 s of app time) is in the journal.
  @Test func aSessionOnALockedStoreSurvivesAKill() throws {
    let store = TemporaryStore()
    Self.seed(store)
    let holder = try Holder(path: store.path)
    do {
      let (tracker, clock) = Self.tracker(store)
      #expect(tracker.engine?.store.standingInFor == store.path)
      Self.session(tracker, clock)
      tracker.engine?.abandon()  // the process dies: nothing more is written
    }
    try holder.release()
    let (reader, _) = Self.tracker(store)
    let lost = Duration.seconds(34) - reader.time(.app)
    #expect(lost >= .zero && lost <= .seconds(5), "lost \(lost)")
    #expect(reader.visits("S3") >= 100 - 21)  // at most the visits of one checkpoint interval
  }

  /// The lock is released while the app runs: a retry (here called, in an app every 2 s and at
  /// `background`) folds the stand-in's count in, and counting goes on in the store.
  @Test func theStoreIsFoldedInWhenItComesBack() throws {
    let store = TemporaryStore()
    Self.seed(store)
    let holder = try Holder(path: store.path)
    let (tracker, clock) = Self.tracker(store)
    tracker.record(.active)
    tracker.screenAppeared("Open", id: ScreenInstance("open"))
    Self.session(tracker, clock, visits: 500)
    #expect(!tracker.retryStore())  // still locked
    try holder.release()
    #expect(tracker.retryStore())
    #expect(tracker.engine?.store.standingInFor == nil)
    #expect(tracker.time(.app) == .seconds(22))
    Self.session(tracker, clock, visits: 500)
    tracker.terminate()
    #expect(Self.journals(store).isEmpty)
    let (reader, _) = Self.tracker(store)
    #expect(reader.time(.app) == .seconds(34))
    #expect(reader.time(.screen("Open")) == .seconds(24))  // one visit, across the hand-over
    #expect(reader.visits("Open") == 1)
    #expect((0..<10).reduce(0) { $0 + reader.visits("S\($1)") } == 1_000)
  }

  /// More events than the pre-open buffer keeps, recorded while the store opens (locked):
  /// the ones dropped are reported, exactly; appending does not copy the buffer.
  @Test func eventsPastThePreOpenBufferAreReportedExactly() async throws {
    let store = TemporaryStore()
    Self.seed(store)
    let holder = try Holder(path: store.path)
    let clock = ManualClock()
    let tracker = Tracker(
      configuration: Self.configuration(store), clock: clock, wallClock: ManualWallClock(clock: clock))
    let reported = Locked<[String]>([])
    tracker.onProblem { problem in reported.withLock { $0.append("\(problem)") } }
    let start = ContinuousClock.now
    for event in 0..<150_000 {
      tracker.record(event % 2 == 0 ? .active : .inactive)
    }
    let elapsed = ContinuousClock.now - start
    #expect(tracker.engine == nil, "the store opened before the events were recorded")
    await tracker.ready()
    try holder.release()
    let dropped = "50000 events recorded before the store opened were dropped"
    #expect(reported.withLock { $0 }.contains { $0.contains(dropped) }, "\(reported.withLock { $0 })")
    // A bound on the appends: a copy of the kept events at each would take minutes.
    #expect(elapsed < .seconds(3), "recording took \(elapsed)")
    tracker.terminate()
  }

  /// A store that opened but whose write lock another connection takes while the app runs,
  /// in real time: folds fail (quickly) and back off, and the writer's checkpoints keep the
  /// journal current, so a kill 7 s in loses about a checkpoint interval (0.25 s). A fold
  /// that waited out the 5 s busy timeout on the writer froze the journal for those 5 s.
  @Test func checkpointsGoOnWhileTheStoreIsLockedAtRunTime() throws {
    let store = TemporaryStore()
    let clock = SystemMonotonicClock()
    let engine = try Engine(
      store: Store(path: store.path), configuration: .init(checkpointInterval: .milliseconds(250)), clock: clock)
    let holder = try Holder(path: store.path)
    let start = clock.now()
    engine.record(.active, at: start)
    var flip = false
    while clock.now().nanoseconds - start.nanoseconds < 7_000_000_000 {
      engine.record(.appear(screen: flip ? "A" : "B", id: ScreenInstance(flip ? "a" : "b")))
      engine.record(.disappear(id: ScreenInstance(flip ? "b" : "a")))
      flip.toggle()
      usleep(5_000)
    }
    let killed = clock.now()
    engine.abandon()  // killed: what is not in the journal is lost
    try holder.release()
    let reader = try Engine(store: Store(path: store.path), clock: clock)
    let lost = Duration.nanoseconds(killed.nanoseconds - start.nanoseconds) - reader.report().app.time
    #expect(lost < .milliseconds(1_500), "lost \(lost) of 7 s")
    reader.terminate()
  }
}
