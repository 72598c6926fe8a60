import Dwell
import Foundation
import Testing

/// Item 5 of issue #13: a rule check or a listener that takes a second (a script at its
/// time limit) delays neither `record` nor a query, which answer from memory without
/// waiting for the engine's queue, and still see what was recorded meanwhile.
@Suite struct SlowScriptTests {
  /// Work that takes `seconds` once, the first time it runs after the engine starts.
  final class SlowOnce: UsageListener, RuleCheck, Sendable {
    private let state = Locked((armed: true, running: false))
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let seconds: Double
    init(seconds: Double) { self.seconds = seconds }

    var isRunning: Bool { state.withLock { $0.running } }
    var wantsTicks: Bool { false }
    func restore(states: [String: String]) {}
    func receive(_ event: UsageEvent, usage: UsageView) -> [UsageAction] {
      if event == .sessionStarted { run() }
      return []
    }
    func holds(_ usage: UsageView) -> Bool {
      run()
      return false
    }
    private func run() {
      guard
        state.withLock({ state in
          defer { state.armed = false }
          if state.armed { state.running = true }
          return state.armed
        })
      else { return }
      started.signal()
      // At least `seconds`, and until the test has measured enough (a loaded machine).
      Thread.sleep(forTimeInterval: seconds)
      _ = release.wait(timeout: .now() + 30)
      state.withLock { $0.running = false }
    }
  }

  enum Where: CaseIterable { case listener, check }

  @Test(arguments: Where.allCases) func aOneSecondScriptDelaysNeitherRecordNorQueries(_ place: Where) throws {
    let slow = SlowOnce(seconds: 1)
    let configuration: Engine.Configuration =
      place == .listener
      ? .init(listeners: [slow]) : .init(rules: [Rule("slow", when: .check(slow))])
    let store = TemporaryStore()
    let engine = try Engine(store: Store(path: store.path), configuration: configuration)
    defer { engine.terminate() }
    engine.record(.active)  // the engine's queue runs the slow work now
    try #require(slow.started.wait(timeout: .now() + 10) == .success)

    var worstRecord = 0.0
    var worstQuery = 0.0
    var rounds = 0
    func timed(_ body: () -> Void) -> Double {
      let start = DispatchTime.now().uptimeNanoseconds
      body()
      return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
    let begin = DispatchTime.now().uptimeNanoseconds
    while rounds < 300 || DispatchTime.now().uptimeNanoseconds - begin < 1_000_000_000 {
      let name = "S\(rounds % 10)"
      worstRecord = max(worstRecord, timed { engine.record(.appear(screen: name, id: ScreenInstance("\(rounds)"))) })
      worstRecord = max(worstRecord, timed { engine.record(.disappear(id: ScreenInstance("\(rounds)"))) })
      worstQuery = max(worstQuery, timed { _ = engine.time(.app) })
      worstQuery = max(worstQuery, timed { _ = engine.visits(name) })
      worstQuery = max(worstQuery, timed { _ = engine.progress() })
      worstQuery = max(worstQuery, timed { _ = engine.report() })
      rounds += 1
      if rounds == 50 {
        // What was recorded while the script runs is in the answers already.
        #expect(engine.visits("S3") == 5)
        #expect(slow.isRunning, "the slow work ended too early for the test to mean anything")
      }
      Thread.sleep(forTimeInterval: 0.001)
    }
    let stillRunning = slow.isRunning
    slow.release.signal()
    #expect(stillRunning, "the slow work ended before the measurements did")
    // Hundreds of rounds (300 at least, over a second at least) while the script ran; the
    // worst of each is a few milliseconds (a generous bound for a loaded machine; waiting
    // for the script would take a second or more).
    #expect(worstRecord < 0.1, "record waited \(worstRecord) s for a slow script")
    #expect(worstQuery < 0.1, "a query waited \(worstQuery) s for a slow script")
    print("slow \(place): \(rounds) rounds, worst record \(worstRecord * 1e3) ms, worst query \(worstQuery * 1e3) ms")
  }
}
