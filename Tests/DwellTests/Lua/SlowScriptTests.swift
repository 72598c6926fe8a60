import Dwell
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Item 5 of issue #13: a rule check or a listener that takes a second (a script at its
/// time limit) delays neither `record` nor a query, which answer from memory without
/// waiting for the engine's queue, and still see what was recorded meanwhile.
@Suite struct SlowScriptTests {
  /// Work that takes `seconds` once, the first time it runs after the engine starts (never
  /// when not `armed`: the same engine without the slow work, for a baseline).
  final class SlowOnce: UsageListener, RuleCheck, Sendable {
    private let state: Locked<(armed: Bool, running: Bool)>
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let seconds: Double
    init(seconds: Double, armed: Bool = true) {
      self.seconds = seconds
      state = Locked((armed, false))
    }

    var isRunning: Bool { state.withLock { $0.running } }
    var wantsTicks: Bool { false }
    func restore(states: [String: String]) {}
    func receive(_ event: UsageEvent, usage: UsageFigures) -> [UsageAction] {
      if event == .sessionStarted { run() }
      return []
    }
    func holds(_ usage: UsageFigures) -> Bool {
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

  /// Durations of calls to one engine, in seconds, and how many of them blocked (the
  /// thread gave up the processor: a lock or any other wait) or were descheduled.
  struct Calls {
    var records: [Double] = []
    var queries: [Double] = []
    var blocked = 0
    var descheduled = 0

    mutating func time(_ isRecord: Bool, _ body: () -> Void) {
      let before = Switches.now
      let start = DispatchTime.now().uptimeNanoseconds
      body()
      let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
      let after = Switches.now
      if after.voluntary > before.voluntary { blocked += 1 }
      if after.involuntary > before.involuntary { descheduled += 1 }
      if isRecord { records.append(seconds) } else { queries.append(seconds) }
    }
  }

  /// The calling thread's context switches so far (Linux; zero elsewhere).
  struct Switches {
    var voluntary = 0
    var involuntary = 0
    static var now: Switches {
      #if canImport(Glibc)
        var usage = rusage()
        getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD
        return Switches(voluntary: usage.ru_nvcsw, involuntary: usage.ru_nivcsw)
      #else
        return Switches()
      #endif
    }
  }

  static func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
  }

  /// The same calls go, interleaved, to an engine whose queue runs the slow work and to
  /// one without it, so that both see the same load: the slow work must not show in the
  /// first one's times beyond the second's.
  @Test(arguments: Where.allCases) func aOneSecondScriptDelaysNeitherRecordNorQueries(_ place: Where) throws {
    let slow = SlowOnce(seconds: 1)
    func engine(_ work: SlowOnce, _ store: TemporaryStore) throws -> Engine {
      let configuration: Engine.Configuration =
        place == .listener ? .init(listeners: [work]) : .init(rules: [Rule("slow", when: .check(.init(work)))])
      return try Engine(store: Store(path: store.path), configuration: configuration)
    }
    let stores = (TemporaryStore(), TemporaryStore())
    let scripted = try engine(slow, stores.0)
    let baseline = try engine(SlowOnce(seconds: 1, armed: false), stores.1)
    defer {
      scripted.terminate()
      baseline.terminate()
    }
    scripted.record(.active)  // the engine's queue runs the slow work now
    baseline.record(.active)
    try #require(slow.started.wait(timeout: .now() + 10) == .success)

    // The slow work runs until released, which happens only after the measurements: a
    // call that waited for it would wait until the 30 s timeout.
    var calls = (scripted: Calls(), baseline: Calls())
    func round(_ engine: Engine, _ calls: inout Calls, _ rounds: Int) {
      let name = "S\(rounds % 10)"
      calls.time(true) { engine.record(.appear(screen: name, id: ScreenInstance("\(rounds)"))) }
      calls.time(true) { engine.record(.disappear(id: ScreenInstance("\(rounds)"))) }
      calls.time(false) { _ = engine.time(.app) }
      calls.time(false) { _ = engine.visits(name) }
      calls.time(false) { _ = engine.progress() }
      calls.time(false) { _ = engine.report() }
    }
    let begin = DispatchTime.now().uptimeNanoseconds
    var rounds = 0
    while rounds < 300 || DispatchTime.now().uptimeNanoseconds - begin < 1_000_000_000 {
      if rounds % 2 == 0 {
        round(scripted, &calls.scripted, rounds)
        round(baseline, &calls.baseline, rounds)
      } else {
        round(baseline, &calls.baseline, rounds)
        round(scripted, &calls.scripted, rounds)
      }
      rounds += 1
      if rounds == 50 {
        // What was recorded while the script runs is in the answers already.
        #expect(scripted.visits("S3") == 5)
        #expect(baseline.visits("S3") == 5)
      }
      Thread.sleep(forTimeInterval: 0.001)
    }
    let stillRunning = slow.isRunning
    slow.release.signal()
    #expect(stillRunning, "the slow work ended before the measurements did")
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e9
    let p99 = Self.percentile
    for (what, values, base) in [
      ("record", calls.scripted.records, calls.baseline.records),
      ("a query", calls.scripted.queries, calls.baseline.queries),
    ] {
      let worst = values.max() ?? 0
      // No call waited for the script: the worst is far below the time it ran.
      #expect(worst < elapsed * 0.9, "\(what) waited \(worst) s for a script that ran \(elapsed) s")
      // Milliseconds at most, whatever the load (the whole suite runs on two cores), ten
      // times that under a sanitizer.
      let bound = 0.02 * Double(TestEnvironment.slowdown)
      #expect(p99(values, 0.99) < bound, "\(what): 99th percentile \(p99(values, 0.99)) s")
      // And no slower than the same calls to the engine without the script, interleaved
      // with them (so under the same load), beyond the noise of two samples of it.
      #expect(
        p99(values, 0.99) <= 2 * p99(base, 0.99) + 0.001,
        "\(what): 99th percentile \(p99(values, 0.99)) s beside \(p99(base, 0.99)) s without the script")
    }
    func summary(_ calls: Calls) -> String {
      let count = calls.records.count + calls.queries.count
      return "record p99 \(p99(calls.records, 0.99) * 1e3) ms, max \((calls.records.max() ?? 0) * 1e3) ms;"
        + " query p99 \(p99(calls.queries, 0.99) * 1e3) ms, max \((calls.queries.max() ?? 0) * 1e3) ms;"
        + " of \(count) calls \(calls.blocked) blocked, \(calls.descheduled) descheduled"
    }
    print(
      "slow \(place): \(rounds) rounds in \(elapsed) s. With the script: \(summary(calls.scripted))."
        + " Without: \(summary(calls.baseline)).")
  }
}
