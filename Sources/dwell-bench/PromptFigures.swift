// dwell-bench's prompt figures: how soon a visit, session or action rule's unlock is seen
// and announced after the `record` that makes it hold, and what `record(.background)`
// costs after a burst.
import Dwell
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The unlock latency and the background-after-burst figure, on a tracker made as an app
/// makes one (`Tracker(configuration:)`, a store file in `scratch`, real clocks), with a
/// 30 s checkpoint interval so that no unlock is found by a checkpoint.
///
/// Latency: rule `visit-k` holds at the k-th visit to "Lessons", `session-k` at the k-th
/// session (a 20 ms session timeout: background, 30 ms, foreground and active), `share-k`
/// at the k-th action "share"; from `record` returning to `isUnlocked` answering `true`
/// (seen) and to the `onUnlock` handler running (announced, after the unlock is journaled),
/// per sample. Burst: 100,000 transitions (a screen appears, the one before disappears)
/// recorded as fast as the thread can, then `record(.background)`, timed; five rounds.
@MainActor func promptFigures(quick: Bool, scratch directory: URL) {
  log("prompt unlocks...")
  let samples = quick ? 10 : 100
  var configuration = Tracker.Configuration()
  configuration.storeLocation = .file(directory.appendingPathComponent("prompt.sqlite").path)
  configuration.checkpointInterval = .seconds(30)
  configuration.sessionTimeout = .milliseconds(20)
  configuration.rules =
    (1...samples).map { Rule("visit-\($0)", when: .visits("Lessons", $0)) }
    // The first session is the launch's: the k-th new one is session k + 1.
    + (1...samples).map { Rule("session-\($0)", when: .sessions($0 + 1)) }
    + (1...samples).map { Rule("share-\($0)", when: .actions("share", $0)) }
  let tracker = Tracker(configuration: configuration)
  while tracker.engine == nil { usleep(1000) }
  let announced = Mutex<[String: Int64]>([:])
  tracker.onUnlock { unlock in
    let at = now()
    announced.withLock { $0[unlock.rule] = at }
  }
  tracker.record(.active)
  /// Times from the `record` (`event`) that makes `rule` hold to its being seen and announced.
  func latency(_ rule: String, _ event: () -> Void) -> (seen: Double, heard: Double) {
    event()
    let start = now()
    while !tracker.isUnlocked(rule), now() - start < 5_000_000_000 {}
    let seen = Double(now() - start) / 1e6
    while announced.withLock({ $0[rule] }) == nil, now() - start < 5_000_000_000 { usleep(10) }
    return (seen, Double((announced.withLock { $0[rule] } ?? now()) - start) / 1e6)
  }
  var figures: [String: (seen: [Double], heard: [Double])] = [:]
  func note(_ kind: String, _ sample: (seen: Double, heard: Double)) {
    figures[kind, default: ([], [])].seen.append(sample.seen)
    figures[kind, default: ([], [])].heard.append(sample.heard)
  }
  let lessons = ScreenInstance("lessons")
  for k in 1...samples {
    tracker.record(.appear(screen: "Home", id: ScreenInstance("home")))
    tracker.record(.disappear(id: ScreenInstance("home")))
    note("visit", latency("visit-\(k)") { tracker.record(.appear(screen: "Lessons", id: lessons)) })
    tracker.record(.disappear(id: lessons))
    usleep(2_000)
  }
  for k in 1...samples {
    tracker.record(.interact)
    note("action", latency("share-\(k)") { tracker.record(.action("share")) })
    usleep(2_000)
  }
  for k in 1...samples {
    tracker.record(.inactive)
    tracker.record(.background)
    usleep(30_000)
    tracker.record(.foreground)
    note("session", latency("session-\(k)") { tracker.record(.active) })
    usleep(2_000)
  }
  func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
  func worst(_ values: [Double]) -> Double { values.max() ?? 0 }
  for kind in ["visit", "session", "action"] {
    let (seen, heard) = figures[kind] ?? ([0], [0])
    // The visit figures keep their earlier names.
    let name = kind == "visit" ? "unlock" : "unlock_\(kind)"
    report("\(name)_seen_ms_median", median(seen), "ms", target: "≤ 10", pass: median(seen) <= 10)
    report("\(name)_seen_ms_max", worst(seen), "ms", target: "≤ 10", pass: worst(seen) <= 10)
    report("\(name)_announced_ms_median", median(heard), "ms", target: "≤ 10", pass: median(heard) <= 10)
    report("\(name)_announced_ms_max", worst(heard), "ms")
  }

  let transitions = quick ? 10_000 : 100_000
  let ids = (0..<64).map { ScreenInstance("burst-\($0)") }
  let names = (0..<16).map { "Burst\($0)" }
  var background: [Double] = []
  for round in 0..<5 {
    if round > 0 {
      tracker.record(.foreground)
      tracker.record(.active)
    }
    tracker.record(.appear(screen: names[0], id: ids[0]))
    for i in 1...transitions {
      tracker.record(.appear(screen: names[i % names.count], id: ids[i % ids.count]))
      tracker.record(.disappear(id: ids[(i - 1) % ids.count]))
    }
    tracker.record(.disappear(id: ids[transitions % ids.count]))
    tracker.record(.inactive)
    let start = now()
    tracker.record(.background)
    background.append(Double(now() - start) / 1e6)
    usleep(200_000)
  }
  tracker.terminate()
  report("background_after_burst_ms_median", median(background), "ms", target: "≤ 10", pass: median(background) <= 10)
  report("background_after_burst_ms_max", worst(background), "ms", target: "≤ 10", pass: worst(background) <= 10)
}
