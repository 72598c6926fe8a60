import Dwell
import DwellTesting
import Foundation

/// A temporary store file, removed when the value is released.
final class TemporaryStore {
  let directory: String
  let path: String

  init() {
    directory = FileManager.default.temporaryDirectory.path + "/dwell-tests-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    path = directory + "/usage.sqlite"
  }

  deinit { try? FileManager.default.removeItem(atPath: directory) }
}

/// A manual clock, a wall clock starting at a given local time, and engines on one store.
final class Rig {
  let clock = ManualClock()
  let wall: ManualWallClock
  let store = TemporaryStore()
  var configuration: Engine.Configuration

  init(
    wall: String = "2026-05-04T08:00:00Z", zone: String = "Europe/Berlin",
    configuration: Engine.Configuration = Engine.Configuration()
  ) {
    let instant = parseWall(wall)
    self.wall = ManualWallClock(clock: clock, wall: instant, timeZone: TimeZone(identifier: zone)!)
    self.configuration = configuration
  }

  func launch() throws -> Engine {
    try Engine(
      store: Store(path: store.path), configuration: configuration, clock: clock, wallClock: wall,
      scheduler: clock)
  }

  func advance(_ seconds: Double) { clock.advance(by: .nanoseconds(Int64(seconds * 1e9))) }
}

func parseWall(_ text: String) -> WallInstant {
  guard
    case .launch(let wall?, _) = try? TraceParser.parseLine(
      #"{"t":0,"event":"launch","wall":"\#(text)","tz":"UTC"}"#, number: 1, isFirst: true
    ).kind
  else { fatalError("bad wall \(text)") }
  return wall
}

func seconds(_ d: Duration) -> Double { (d.seconds * 1000).rounded() / 1000 }

func day(_ text: String) -> Day { Day(text)! }

/// Replays a trace given as lines and returns the report.
func replay(_ lines: [String], configuration: Engine.Configuration = .init()) throws -> UsageReport {
  let store = TemporaryStore()
  let events = try TraceParser.parse(lines.joined(separator: "\n"))
  return try Replayer(storePath: store.path, configuration: configuration).run(events)
}
