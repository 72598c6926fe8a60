// `record(.background)` while the writer is busy or behind (#27 item 8): it returns in
// milliseconds, without waiting for the writer's queue, and is durable when it returns.
import DwellTesting
import Foundation
import Testing

@testable import Dwell

/// The writer is held busy (a work item on its queue waits for the test, as a fold of a
/// burst's 100,000 visits or a lock another process holds would keep it) while a thread of
/// the test's own records `background`. It must return while the writer is still busy
/// (before, `record(.background)` waited for the writer's queue with `queue.sync`), and
/// what it recorded must survive a kill the moment it returns (a bounded wait that let it
/// return before the journal was written lost it).
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

  /// An engine on a store of its own, 30 ms into a visit to "Lessons", whose writer's queue
  /// is busy until the test signals `gate`.
  func busyWriter() async throws -> (TemporaryStore, SystemMonotonicClock, Engine, DispatchSemaphore) {
    let store = TemporaryStore()
    let clock = SystemMonotonicClock()
    let engine = try Engine(store: Store(path: store.path), clock: clock)
    engine.record(.active)
    engine.record(.appear(screen: "Lessons", id: ScreenInstance("lessons")))
    try await Task.sleep(for: .milliseconds(30))
    let gate = DispatchSemaphore(value: 0)
    let holding = Flag()
    engine.onWriter { _ in
      holding.set()
      gate.wait()
    }
    #expect(await wait(for: holding, seconds: 30 * Double(TestEnvironment.slowdown)))
    return (store, clock, engine, gate)
  }

  /// `record(.background)` returns while the writer is still busy; killed the moment it
  /// returns (`killedOnReturn`), or once the writer, free again, has journaled on its own,
  /// the engine loses nothing of the visit before it.
  @Test(arguments: [false, true])
  func backgroundReturnsWhileTheWriterIsBusyAndLosesNothing(killedOnReturn: Bool) async throws {
    let (store, clock, engine, gate) = try await busyWriter()
    let returned = Flag()
    let caller = Thread {
      engine.record(.disappear(id: ScreenInstance("lessons")))
      engine.record(.background)
      if killedOnReturn { engine.abandon() }  // the writer still busy
      returned.set()
    }
    caller.start()
    // Generous: the bound is milliseconds; without it, it returns only after the gate opens.
    let returnedWhileBusy = await wait(for: returned, seconds: 10 * Double(TestEnvironment.slowdown))
    #expect(returnedWhileBusy, "record(.background) waited for a busy writer")
    gate.signal()
    #expect(await wait(for: returned, seconds: 30 * Double(TestEnvironment.slowdown)))
    // The writer's queue drains (journaling on its own when the engine was not killed).
    let drained = Flag()
    engine.onWriter { _ in drained.set() }
    #expect(await wait(for: drained, seconds: 30 * Double(TestEnvironment.slowdown)))
    if !killedOnReturn { engine.abandon() }
    let next = try Engine(store: Store(path: store.path), clock: clock)
    #expect(next.time(.screen("Lessons")) >= .milliseconds(30), "the visit before background was lost")
    #expect(next.visits("Lessons") == 1)
    next.terminate()
  }

  /// After a burst (the writer folding thousands of visits into SQLite, thousands of events
  /// not applied yet), `background` is durable when it returns, and a kill then counts each
  /// visit once: whether or not a fold was under way, its batch is in the journal until its
  /// transaction commits, and only then (``FoldUnderWayTests``).
  @Test func backgroundAfterABurstIsDurableAndCountsEachVisitOnce() async throws {
    for round in 0..<3 {
      let store = TemporaryStore()
      let clock = SystemMonotonicClock()
      let engine = try Engine(store: Store(path: store.path), clock: clock)
      engine.record(.active)
      let ids = (0..<64).map { ScreenInstance("burst-\($0)") }
      let transitions = 20_000 + 7_000 * round
      engine.record(.appear(screen: "Burst", id: ids[0]))
      for i in 1...transitions {
        engine.record(.appear(screen: "Burst", id: ids[i % ids.count]))
        engine.record(.disappear(id: ids[(i - 1) % ids.count]))
      }
      engine.record(.disappear(id: ids[transitions % ids.count]))
      engine.record(.inactive)
      engine.record(.background)
      engine.abandon()  // killed the moment record returned
      // What the writer was doing (a fold's transaction) ends before the next launch, as a
      // process's last write does before another process opens the store.
      let drained = Flag()
      engine.onWriter { _ in drained.set() }
      #expect(await wait(for: drained, seconds: 60 * Double(TestEnvironment.slowdown)))
      let next = try Engine(store: Store(path: store.path), clock: clock)
      #expect(next.visits("Burst") == transitions + 1, "round \(round)")
      next.terminate()
    }
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
