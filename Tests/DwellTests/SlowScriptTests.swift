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

    // The slow work runs until released, which happens only after the measurements: a
    // call that waited for it would wait until the 30 s timeout.
    var records: [Double] = []
    var queries: [Double] = []
    func timed(_ body: () -> Void) -> Double {
      let start = DispatchTime.now().uptimeNanoseconds
      body()
      return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
    let begin = DispatchTime.now().uptimeNanoseconds
    var rounds = 0
    while rounds < 300 || DispatchTime.now().uptimeNanoseconds - begin < 1_000_000_000 {
      let name = "S\(rounds % 10)"
      records.append(timed { engine.record(.appear(screen: name, id: ScreenInstance("\(rounds)"))) })
      records.append(timed { engine.record(.disappear(id: ScreenInstance("\(rounds)"))) })
      queries.append(timed { _ = engine.time(.app) })
      queries.append(timed { _ = engine.visits(name) })
      queries.append(timed { _ = engine.progress() })
      queries.append(timed { _ = engine.report() })
      rounds += 1
      if rounds == 50 {
        // What was recorded while the script runs is in the answers already.
        #expect(engine.visits("S3") == 5)
      }
      Thread.sleep(forTimeInterval: 0.001)
    }
    let stillRunning = slow.isRunning
    slow.release.signal()
    #expect(stillRunning, "the slow work ended before the measurements did")
    // Over a second and 300 rounds at least: no call waited for the script (the worst is
    // far below the time the script ran), and the 99th percentile is milliseconds. Both
    // bounds are generous for a loaded machine (the whole suite runs in parallel on two
    // cores); the worst case seen there is a thread descheduled for half a second.
    func percentile(_ values: [Double], _ p: Double) -> Double {
      let sorted = values.sorted()
      return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e9
    for (what, values) in [("record", records), ("a query", queries)] {
      #expect(values.max()! < elapsed * 0.9, "\(what) waited \(values.max()!) s for a script that ran \(elapsed) s")
      #expect(percentile(values, 0.99) < 0.02, "\(what): 99th percentile \(percentile(values, 0.99)) s")
    }
    print(
      "slow \(place): \(rounds) rounds in \(elapsed) s; record p99 \(percentile(records, 0.99) * 1e3) ms,"
        + " max \(records.max()! * 1e3) ms; query p99 \(percentile(queries, 0.99) * 1e3) ms, max \(queries.max()! * 1e3) ms"
    )
  }
}
