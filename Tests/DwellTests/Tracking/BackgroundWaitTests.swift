// `record(.background)` while the writer is busy (#27 item 8): the caller waits a bounded
// time and never does the writer's work (its I/O, a fold of a burst) on its own thread.
import DwellTesting
import Foundation
import Testing

@testable import Dwell

/// The writer is held busy (a work item on its queue waits for the test, as a fold of a
/// burst's 100,000 visits or a lock another process holds would keep it) while a thread of
/// the test's own records `background`. It must return while the writer is still busy
/// (before, `record(.background)` ran the journal write and the fold with `queue.sync`,
/// waiting for the writer and then doing its work on the caller's thread), and once the
/// writer is free it writes the journal on its own: nothing before `background` is lost.
@Suite struct BackgroundWaitTests {
  /// A flag set on one thread and awaited on another.
  final class Flag: Sendable {
    private let value = Locked(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
  }

  /// Waits (without blocking a thread of the pool) until `flag` is set or `seconds` pass.
  func wait(for flag: Flag, seconds: Double) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !flag.isSet, Date() < deadline { try? await Task.sleep(for: .milliseconds(5)) }
    return flag.isSet
  }

  @Test func backgroundReturnsWhileTheWriterIsBusyAndLosesNothing() async throws {
    let store = TemporaryStore()
    let clock = SystemMonotonicClock()
    let engine = try Engine(store: Store(path: store.path), clock: clock)
    engine.record(.active)
    engine.record(.appear(screen: "Lessons", id: ScreenInstance("lessons")))
    try await Task.sleep(for: .milliseconds(30))
    // The writer's queue is busy until the test lets it go.
    let gate = DispatchSemaphore(value: 0)
    let holding = Flag()
    engine.onWriter { _ in
      holding.set()
      gate.wait()
    }
    #expect(await wait(for: holding, seconds: 30 * Double(TestEnvironment.slowdown)))
    let returned = Flag()
    let caller = Thread {
      engine.record(.disappear(id: ScreenInstance("lessons")))
      engine.record(.background)
      returned.set()
    }
    caller.start()
    // Generous: the bound is milliseconds; without it, it returns only after the gate opens.
    let returnedWhileBusy = await wait(for: returned, seconds: 10 * Double(TestEnvironment.slowdown))
    #expect(returnedWhileBusy, "record(.background) waited for a busy writer")
    gate.signal()
    #expect(await wait(for: returned, seconds: 30 * Double(TestEnvironment.slowdown)))
    // The writer journals on its own once free: wait for the journal, then "kill" the engine.
    let journaled = Flag()
    engine.onWriter { _ in journaled.set() }
    #expect(await wait(for: journaled, seconds: 30 * Double(TestEnvironment.slowdown)))
    engine.abandon()
    let next = try Engine(store: Store(path: store.path), clock: clock)
    #expect(next.time(.screen("Lessons")) >= .milliseconds(30), "the visit before background was lost")
    #expect(next.visits("Lessons") == 1)
    next.terminate()
  }

  /// With the writer idle, `background` is durable when it returns, as before.
  @Test func backgroundWithAnIdleWriterIsDurableWhenItReturns() async throws {
    let store = TemporaryStore()
    let clock = SystemMonotonicClock()
    let engine = try Engine(store: Store(path: store.path), clock: clock)
    engine.record(.active)
    try await Task.sleep(for: .milliseconds(30))
    let returned = Flag()
    let caller = Thread {
      engine.record(.background)
      engine.abandon()  // killed the moment record returned: nothing more runs
      returned.set()
    }
    caller.start()
    #expect(await wait(for: returned, seconds: 30 * Double(TestEnvironment.slowdown)))
    let next = try Engine(store: Store(path: store.path), clock: clock)
    #expect(next.time() >= .milliseconds(30), "time before background was lost")
    next.terminate()
  }
}
