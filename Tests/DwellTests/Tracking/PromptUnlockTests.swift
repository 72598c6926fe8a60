// Prompt unlocks through the public API (#27 item 8): at the event, not at the checkpoint.
import Dwell
import Foundation
import Synchronization
import Testing

/// A rule on visits or actions unlocks at the event that makes it hold: the recording
/// thread wakes the writer for an event a waiting rule wants, so the unlock is seen within
/// milliseconds of `record` returning, not at the next checkpoint (made 30 s long here, so
/// that waiting for it cannot pass). Real clocks, as an app runs; `dwell-bench --prompt`
/// measures the latency itself (BENCHMARKS.md). And `record(.background)` after a burst of
/// 100,000 transitions returns within milliseconds, the writer finishing on its own.
@Suite struct PromptUnlockTests {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("dwell-prompt-\(UUID()).sqlite").path

  func tracker(_ rules: [Rule]) async -> Tracker {
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(path)
    configuration.checkpointInterval = .seconds(30)
    configuration.rules = rules
    let tracker = Tracker(configuration: configuration)
    await tracker.ready()
    tracker.record(.active)
    return tracker
  }

  func removeStore() {
    for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
  }

  /// Seconds from now until `done` holds (polled every 100 µs), or `nil` after `limit`.
  func secondsUntil(limit: Double = 5, _ done: () -> Bool) -> Double? {
    let start = Date()
    while Date().timeIntervalSince(start) < limit {
      if done() { return Date().timeIntervalSince(start) }
      usleep(100)
    }
    return nil
  }

  /// The bound on the latency a test accepts: the bench's 10 ms target, with room for a
  /// loaded machine (a missed wake-up waits 30 s for the checkpoint).
  static let bound = 0.5

  @Test func aVisitRuleUnlocksAtTheVisitThatMakesItHold() async {
    defer { removeStore() }
    let tracker = await tracker([Rule("third-lesson", when: .visits("Lessons", 3))])
    let announced = LockedFlag()
    tracker.onUnlock { if $0.rule == "third-lesson" { announced.set() } }
    let id = ScreenInstance("lessons")
    for visit in 1...3 {
      // Another screen's visit first: the buffer is not empty when the wanted one comes.
      tracker.record(.appear(screen: "Home", id: ScreenInstance("home")))
      tracker.record(.disappear(id: ScreenInstance("home")))
      tracker.record(.appear(screen: "Lessons", id: id))
      if visit < 3 {
        tracker.record(.disappear(id: id))
        usleep(20_000)
        #expect(!tracker.isUnlocked("third-lesson"))
      }
    }
    let seen = secondsUntil { tracker.isUnlocked("third-lesson") }
    let heard = secondsUntil { announced.isSet }
    #expect(seen.map { $0 < Self.bound } == true, "seen after \(String(describing: seen)) s")
    #expect(heard.map { $0 < Self.bound } == true, "announced after \(String(describing: heard)) s")
    tracker.terminate()
  }

  @Test func anActionRuleUnlocksAtTheActionThatMakesItHold() async {
    defer { removeStore() }
    let tracker = await tracker([Rule("sharer", when: .actions("share", 3))])
    usleep(20_000)
    tracker.record(.appear(screen: "Home", id: ScreenInstance("home")))
    tracker.record(.action("share", count: 2))
    usleep(20_000)
    #expect(!tracker.isUnlocked("sharer"))
    tracker.record(.interact)
    tracker.record(.action("share"))
    let seen = secondsUntil { tracker.isUnlocked("sharer") }
    #expect(seen.map { $0 < Self.bound } == true, "seen after \(String(describing: seen)) s")
    tracker.terminate()
  }

  @Test func backgroundAfterABurstReturnsWithinMillisecondsAndLosesNothing() async {
    defer { removeStore() }
    let tracker = await tracker([Rule("lessons", when: .visits("Lessons", 1))])
    let transitions = 100_000
    let ids = (0..<8).map { ScreenInstance("burst-\($0)") }
    tracker.record(.appear(screen: "Burst", id: ids[0]))
    for i in 1...transitions {
      tracker.record(.appear(screen: "Burst", id: ids[i % ids.count]))
      tracker.record(.disappear(id: ids[(i - 1) % ids.count]))
    }
    tracker.record(.disappear(id: ids[transitions % ids.count]))
    tracker.record(.inactive)
    let start = Date()
    tracker.record(.background)
    let took = Date().timeIntervalSince(start)
    // The bound is 8 ms of waiting; the rest is room for a loaded machine.
    #expect(took < 0.1 * Double(TestEnvironment.slowdown), "record(.background) took \(took) s")
    // The writer finishes on its own: nothing of the burst is lost.
    tracker.terminate()
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(path)
    let reopened = Tracker(configuration: configuration)
    await reopened.ready()
    #expect(reopened.visits("Burst") == transitions + 1)
    reopened.terminate()
  }
}

/// A flag set from an unlock handler's thread and read by the test.
final class LockedFlag: Sendable {
  private let value = Mutex(false)
  func set() { value.withLock { $0 = true } }
  var isSet: Bool { value.withLock { $0 } }
}
