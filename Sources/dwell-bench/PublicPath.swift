// dwell-bench's public-path figures: what an app pays per call of `Tracker.record` with
// `.appear`, `.disappear` and `.interact`, on a tracker made as an app makes one.
import Dwell
import Foundation

/// A stand-in for an app's view controller: screens are identified by the object.
final class BenchViewController {}
final class LessonsViewController {}

/// Measures the public path: a `Tracker` made with `Tracker(configuration:)` on a store file
/// in `scratch`, ready, active, recorded into on this thread while its writer queue runs.
///
/// Medians are per call, over batches of 100 calls (the timer's own cost amortised); the
/// 99th percentiles are over single calls, two timer reads included (an upper bound).
/// Screen names are made at run time, as the adapters make them (`String(describing:)` of
/// the class): heap strings, not literals, so their reference counting is counted too.
@MainActor func publicFigures(quick: Bool, scratch directory: URL) {
  log("public path...")
  var configuration = Tracker.Configuration()
  configuration.storeLocation = .file(directory.appendingPathComponent("public.sqlite").path)
  let tracker = Tracker(configuration: configuration)
  // What `await tracker.ready()` waits for, polled: the benchmark stays synchronous (an
  // async main runs on a dispatch main loop, which valgrind's tools cannot follow).
  while tracker.engine == nil { usleep(1000) }
  tracker.record(.active)

  let batch = 100
  let controllers = (0..<batch).map { _ in BenchViewController() }
  let ids = controllers.map { ScreenInstance(ObjectIdentifier($0)) }
  let names = [String(describing: LessonsViewController.self), String(describing: BenchViewController.self)]

  // As in the internal figure, the writer catches up (untimed) every 10 samples, as it
  // would between an app's few transitions a second, and folds every 500.
  var catchUps = 0
  func catchUp() {
    guard let engine = tracker.engine else { return }
    engine.process()
    catchUps += 1
    if catchUps % 50 == 0 { try? engine.commit() }
  }

  let samples = quick ? 2_000 : 20_000
  var appear: [Double] = []
  var disappear: [Double] = []
  var interact: [Double] = []
  appear.reserveCapacity(samples)
  disappear.reserveCapacity(samples)
  interact.reserveCapacity(samples)
  for sample in 0..<samples {
    var start = now()
    for i in 0..<batch { tracker.record(.appear(screen: names[i & 1], id: ids[i])) }
    appear.append(Double(now() - start) / Double(batch))
    start = now()
    for i in 0..<batch { tracker.record(.disappear(id: ids[i])) }
    disappear.append(Double(now() - start) / Double(batch))
    start = now()
    for _ in 0..<batch { tracker.record(.interact) }
    interact.append(Double(now() - start) / Double(batch))
    if sample % 10 == 0 { catchUp() }
  }

  // Single calls, for the tail: a screen appears, the one before it disappears, a touch.
  let singles = quick ? 20_000 : 200_000
  var appearOne: [Double] = []
  var disappearOne: [Double] = []
  var interactOne: [Double] = []
  appearOne.reserveCapacity(singles)
  disappearOne.reserveCapacity(singles)
  interactOne.reserveCapacity(singles)
  tracker.record(.appear(screen: names[0], id: ids[0]))
  for call in 0..<singles {
    let (from, to) = (ids[call % batch], ids[(call + 1) % batch])
    var start = now()
    tracker.record(.appear(screen: names[call & 1], id: to))
    appearOne.append(Double(now() - start))
    start = now()
    tracker.record(.disappear(id: from))
    disappearOne.append(Double(now() - start))
    start = now()
    tracker.record(.interact)
    interactOne.append(Double(now() - start))
    if call % 100 == 0 { catchUp() }
  }
  tracker.terminate()
  withExtendedLifetime(controllers) {}

  func median(_ costs: [Double]) -> Double { costs.sorted()[costs.count / 2] }
  func p99(_ costs: [Double]) -> Double {
    let sorted = costs.sorted()
    return sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
  }
  for (key, batched, single) in [
    ("public_screen_appear", appear, appearOne), ("public_screen_disappear", disappear, disappearOne),
    ("public_interact", interact, interactOne),
  ] {
    let (m, p) = (median(batched), p99(single))
    report("\(key)_ns_median", m, target: "≤ 150", pass: m <= 150)
    report("\(key)_ns_p99", p, target: "≤ 1000", pass: p <= 1000)
  }
}
