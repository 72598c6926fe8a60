// Runs a UIKit callback trace through the real decision code and real engines, and compares
// the report with the case's expected.json (../shared/uikit-traces/README.md, "How to use").

import Dwell
import DwellTesting
import Foundation

/// Feeds a trace's lines to ``ScreenCoordinator/handle(_:)`` on engines driven by a manual
/// clock: each `launch` makes an engine on one store (a new process: a new coordinator and
/// app lifecycle, as DwellUIKit has in each), `terminate` ends it cleanly.
struct UIKitTraceRunner {
  var policy = ScreenPolicy()
  var configuration = Engine.Configuration()

  func run(_ lines: [UIKitTraceLine], path: String) throws -> UsageReport {
    let store = TemporaryStore()
    let clock = ManualClock()
    var wallClock: ManualWallClock?
    var engine: Engine?
    var screens: ScreenCoordinator?
    for line in lines {
      clock.advance(to: MonotonicInstant(nanoseconds: Int64((line.t * 1000).rounded()) * 1_000_000))
      switch line.kind {
      case .launch(let wall, let zone):
        guard engine == nil else { throw UIKitTraceError(description: "\(path):\(line.number): launch while running") }
        if let wallClock {
          wallClock.set(wall)
          wallClock.set(timeZone: zone)
        } else {
          wallClock = ManualWallClock(clock: clock, wall: wall, timeZone: zone)
        }
        guard let wallClock else { continue }
        let running = try Engine(
          store: Store(path: store.path), configuration: configuration, clock: clock, wallClock: wallClock,
          scheduler: clock)
        let coordinator = ScreenCoordinator(policy: policy) { running.record($0) }
        coordinator.lifecycle = SceneCoordinator { running.record($0) }
        engine = running
        screens = coordinator
      case .terminate:
        engine?.terminate()
        engine = nil
        screens = nil
      case .callback(let callback):
        guard let screens else {
          throw UIKitTraceError(description: "\(path):\(line.number): a callback while the process is not running")
        }
        screens.handle(callback)
      }
    }
    if let engine { return engine.report() }
    return try UsageReport(store: Store(path: store.path))
  }

  /// Runs the case in `folder` (trace.jsonl, expected.json) and returns what differs from
  /// the expected report: empty when it matches (the same screens, seconds within 1 ms,
  /// visits and sessions exact, app seconds within 1 ms).
  func differences(inCase folder: String) throws -> [String] {
    let lines = try UIKitTraceReader.read(path: folder + "/trace.jsonl")
    let report = try run(lines, path: folder + "/trace.jsonl")
    let expected = try Expected(path: folder + "/expected.json")
    var found: [String] = []
    func seconds(_ duration: Duration) -> Double {
      Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
    func compare(_ what: String, _ want: Double, _ have: Double) {
      if abs(want - have) > 0.001 + 1e-9 { found.append("\(what) \(have) s, expected \(want) s") }
    }
    compare("app", expected.appSeconds, seconds(report.app.time))
    if report.sessions != expected.sessions {
      found.append("sessions \(report.sessions), expected \(expected.sessions)")
    }
    let visited = report.screens.filter { $0.value.visits > 0 }
    for name in Set(expected.screens.keys).union(visited.keys).sorted() {
      guard let want = expected.screens[name] else {
        found.append("unexpected screen \(name) (\(seconds(visited[name]?.time ?? .zero)) s)")
        continue
      }
      guard let have = visited[name] else {
        found.append("missing screen \(name)")
        continue
      }
      compare(name, want.seconds, seconds(have.time))
      if have.visits != want.visits { found.append("\(name) \(have.visits) visits, expected \(want.visits)") }
    }
    return found
  }

  /// A case's expected.json.
  struct Expected {
    var appSeconds: Double
    var sessions: Int
    var screens: [String: (seconds: Double, visits: Int)] = [:]

    init(path: String) throws {
      guard let data = FileManager.default.contents(atPath: path),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let app = object["app"] as? [String: Any], let seconds = app["seconds"] as? Double,
        let sessions = app["sessions"] as? Int, let screens = object["screens"] as? [String: Any]
      else { throw UIKitTraceError(description: "\(path): not an expected report ({\"app\": ..., \"screens\": ...})") }
      appSeconds = seconds
      self.sessions = sessions
      for (name, value) in screens {
        guard let figures = value as? [String: Any], let seconds = figures["seconds"] as? Double,
          let visits = figures["visits"] as? Int
        else { throw UIKitTraceError(description: "\(path): screen \(name) needs seconds and visits") }
        self.screens[name] = (seconds, visits)
      }
    }
  }
}
