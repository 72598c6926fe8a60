import Dwell
import DwellHarness
import DwellTesting
import Foundation
import Testing

/// Screen names are cleaned (control characters removed) by the engine for every source:
/// the public API, a replayed trace and the simulator's `open`, not only the UIKit adapter.
@Suite struct ScreenNameCleaningTests {
  static let dirty = "a\u{1}b\u{1B}[2Jc\u{7}"
  static let clean = ScreenName.clean(dirty)

  @Test func aReplayedTraceRecordsCleanNames() throws {
    let name = Self.dirty.unicodeScalars.map { $0.value < 0x20 ? String(format: "\\u%04x", $0.value) : String($0) }
      .joined()
    let report = try replay([
      #"{"t":0,"event":"launch","wall":"2026-05-04T08:00:00Z","tz":"UTC"}"#,
      #"{"t":0.1,"event":"active"}"#,
      #"{"t":0.2,"event":"appear","screen":"\#(name)","id":"a"}"#,
      #"{"t":60.2,"event":"disappear","id":"a"}"#,
    ])
    #expect(Self.clean == "ab[2Jc")
    #expect(Array(report.screens.keys) == [Self.clean])
  }

  @Test func theSimulatorShowsRecordsAndReplaysCleanNames() throws {
    let sim = try Simulator(options: .init(start: parseWall("2026-05-04T07:00:00Z"), timeZone: .gmt))
    sim.execute("open \"\(Self.dirty)\"")
    sim.execute("wait 1m")
    let status = sim.execute("status")
    #expect(!status.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x1 || $0.value == 0x7 })
    #expect(status.contains(Self.clean))
    let dir = TemporaryStore()
    let path = dir.directory + "/t.jsonl"
    sim.execute("record \(path)")
    let trace = try String(contentsOfFile: path, encoding: .utf8)
    #expect(!trace.contains("\\u0001") && !trace.contains("\\u001b") && !trace.contains("\\u001B"))
    let report = try replay(trace.split(separator: "\n").map(String.init))
    #expect(Array(report.screens.keys) == [Self.clean])
  }
}
