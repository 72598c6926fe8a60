import Dwell
import DwellTesting
import Foundation
import Testing

/// The threading contract of `Engine`'s doc comment: handlers run with no lock of Dwell's
/// held, so they may call back into the engine.
@Suite struct ThreadingContractTests {
  /// Runs `body` on another thread; `false` if it has not returned after `seconds` (a
  /// deadlock: the thread is left behind).
  private func finishes(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      body()
      done.signal()
    }
    return done.wait(timeout: .now() + seconds) == .success
  }

  @Test func anUnlockHandlerMayCommitAndSetRules() throws {
    let rig = Rig(configuration: .init(rules: [Rule("first", when: .appTime(.seconds(1)))]))
    let engine = try rig.launch()
    let clock = rig.clock
    let calls = Locked(0)
    engine.onUnlock { record in
      calls.withLock { $0 += 1 }
      guard record.rule == "first" else { return }
      try? engine.commit()
      _ = try? RulesInForce().change(in: engine) {
        $0.rules = [Rule("first", when: .appTime(.seconds(1))), Rule("second", when: .appTime(.seconds(2)))]
      }
      _ = engine.time(.app)
    }
    let finished = finishes(within: 10) {
      engine.record(.active)
      clock.advance(by: .seconds(3))
      try? engine.commit()
    }
    try #require(finished, "a handler calling back into the engine deadlocked")
    #expect(calls.withLock { $0 } == 2)
    #expect(engine.isUnlocked("second"))
  }

  @Test func handlersOnARealQueueMayCommitToo() throws {
    let store = TemporaryStore()
    let clock = ManualClock()
    let engine = try Engine(
      store: Store(path: store.path), configuration: .init(rules: [Rule("now", when: .sessions(1))]),
      clock: clock, wallClock: ManualWallClock(clock: clock), scheduler: DispatchScheduler(clock: clock))
    let unlocked = DispatchSemaphore(value: 0)
    engine.onUnlock { _ in
      try? engine.commit()
      unlocked.signal()
    }
    engine.record(.active)
    #expect(unlocked.wait(timeout: .now() + 10) == .success, "the handler deadlocked on the engine's queue")
  }
}
