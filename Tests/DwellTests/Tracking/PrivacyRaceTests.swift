import Foundation
import Synchronization
import Testing

// Privacy calls racing each other on a tracker with its own queue: every one returns.
@testable import Dwell

@Suite struct PrivacyRaceTests {
  /// Counts calls that returned, across the detached tasks making them.
  final class Returned: Sendable {
    let count = Atomic<Int>(0)
    func add() { count.add(1, ordering: .relaxed) }
  }

  /// `erase()` puts the tracker back to waiting for a store while it starts afresh: a call
  /// that waits for the store meanwhile (`export`, `ready`, a second `erase`) must be woken
  /// when the fresh engine is in place, not left waiting for ever. A hung call cannot be
  /// cancelled, so the test polls for the calls to return, far longer than they take
  /// (milliseconds). The deadline counts polls, not wall time: when other tests hold every
  /// thread of the shared pool (2 on a 2-core machine, long tests under a sanitizer), the
  /// racing calls cannot run, and neither can the poll, so a stall is not taken for a hang.
  @Test(arguments: ["export", "ready", "erase"])
  func everyCallRacingEraseReturns(_ other: String) async throws {
    for _ in 0..<12 {
      let store = TemporaryStore()
      var configuration = Tracker.Configuration()
      configuration.storeLocation = .file(store.path)
      let tracker = Tracker(configuration: configuration)
      await tracker.ready()
      tracker.record(.active)
      let returned = Returned()
      Task.detached {
        try? await tracker.erase()
        returned.add()
      }
      Task.detached {
        switch other {
        case "export": _ = try? await tracker.export(.csv)
        case "ready": await tracker.ready()
        default: try? await tracker.erase()
        }
        returned.add()
      }
      var polls = 0
      while returned.count.load(ordering: .relaxed) < 2, polls < 6_000 {
        try await Task.sleep(for: .milliseconds(5))
        polls += 1
      }
      #expect(returned.count.load(ordering: .relaxed) == 2, "a call racing erase() (\(other)) never returned")
      tracker.terminate()
    }
  }

  /// Two erases (or an erase and a store retry) must not replace the engine at once: each
  /// would start an engine on the same store, and the one replaced first would go on
  /// counting unseen. While one replacement is under way, an erase waits for it and then
  /// erases (what was counted meanwhile goes too), and a store retry declines.
  @Test func replacementsOfTheEngineTakeTurns() async throws {
    let store = TemporaryStore()
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(store.path)
    let tracker = Tracker(configuration: configuration)
    await tracker.ready()
    let returned = Returned()
    let release = DispatchSemaphore(value: 0)
    // The holder blocks, so it runs on a thread of its own, not the tests' cooperative pool
    // (two blocked pool threads on 2 cores leave no thread to resume this test).
    let holding = Task {
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        Thread {
          _ = tracker.replacingEngine {
            returned.add()
            release.wait()
          }
          done.resume()
        }.start()
      }
    }
    while returned.count.load(ordering: .relaxed) == 0 { try await Task.sleep(for: .milliseconds(1)) }
    #expect(tracker.replacingEngine { true } == nil)
    let erasing = Task.detached {
      try await tracker.erase()
      returned.add()
    }
    try await Task.sleep(for: .milliseconds(200))
    #expect(returned.count.load(ordering: .relaxed) == 1, "an erase ran while another replacement was under way")
    release.signal()
    await holding.value
    try await erasing.value
    #expect(returned.count.load(ordering: .relaxed) == 2)
    tracker.terminate()
  }
}
