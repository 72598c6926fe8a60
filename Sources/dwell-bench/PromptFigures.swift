// dwell-bench's prompt figures: how soon a visit rule's unlock is seen and announced after
// the `record` that makes it hold, and what `record(.background)` costs after a burst.
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
/// Latency: rule `visit-k` holds at the k-th visit to "Lessons"; from `record` returning to
/// `isUnlocked` answering `true` (seen) and to the `onUnlock` handler running (announced,
/// after the unlock is journaled), per sample. Burst: 100,000 transitions (a screen
/// appears, the one before disappears) recorded as fast as the thread can, then
/// `record(.background)`, timed; five rounds.
@MainActor func promptFigures(quick: Bool, scratch directory: URL) {
  log("prompt unlocks...")
  let samples = quick ? 10 : 100
  var configuration = Tracker.Configuration()
  configuration.storeLocation = .file(directory.appendingPathComponent("prompt.sqlite").path)
  configuration.checkpointInterval = .seconds(30)
  configuration.rules = (1...samples).map { Rule("visit-\($0)", when: .visits("Lessons", $0)) }
  let tracker = Tracker(configuration: configuration)
  while tracker.engine == nil { usleep(1000) }
  let announced = Mutex<Int64>(0)
  tracker.onUnlock { _ in
    let at = now()
    announced.withLock { $0 = at }
  }
  tracker.record(.active)
  var seen: [Double] = []
  var heard: [Double] = []
  let lessons = ScreenInstance("lessons")
  for k in 1...samples {
    tracker.record(.appear(screen: "Home", id: ScreenInstance("home")))
    tracker.record(.disappear(id: ScreenInstance("home")))
    tracker.record(.appear(screen: "Lessons", id: lessons))
    let start = now()
    while !tracker.isUnlocked("visit-\(k)"), now() - start < 5_000_000_000 {}
    seen.append(Double(now() - start) / 1e6)
    while announced.withLock({ $0 }) < start, now() - start < 5_000_000_000 { usleep(10) }
    heard.append(Double(announced.withLock { $0 } - start) / 1e6)
    tracker.record(.disappear(id: lessons))
    usleep(2_000)
  }
  func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
  func worst(_ values: [Double]) -> Double { values.max() ?? 0 }
  report("unlock_seen_ms_median", median(seen), "ms", target: "≤ 10", pass: median(seen) <= 10)
  report("unlock_seen_ms_max", worst(seen), "ms", target: "≤ 10", pass: worst(seen) <= 10)
  report("unlock_announced_ms_median", median(heard), "ms", target: "≤ 10", pass: median(heard) <= 10)
  report("unlock_announced_ms_max", worst(heard), "ms")

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
