// An export read back agrees with the report.
import Dwell
import DwellTesting
import Foundation
import Testing

@Suite struct ExportRoundTripTests {
  /// Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF).
  static func parseCSV(_ text: String) -> [[String]] {
    var rows: [[String]] = []
    var row: [String] = []
    var field = ""
    var quoted = false
    var iterator = Array(text).makeIterator()
    var pending: Character? = nil
    while let c = pending ?? iterator.next() {
      pending = nil
      if quoted {
        if c == "\"" {
          if let next = iterator.next() {
            if next == "\"" { field.append("\"") } else { quoted = false; pending = next }
          } else {
            quoted = false
          }
        } else {
          field.append(c)
        }
      } else if c == "\"" {
        quoted = true
      } else if c == "," {
        row.append(field); field = ""
      } else if c == "\r\n" || c == "\n" {
        row.append(field); rows.append(row); row = []; field = ""
      } else {
        field.append(c)
      }
    }
    if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
    return rows
  }

  @Test func csvRoundTripsToTheReportsTotals() throws {
    let dir = TemporaryStore()
    let trace = try CommandLineTests.write(
      TraceGenerator(days: 10, seed: 4).events().map(\.jsonLine).joined(separator: "\n"), to: dir, name: "t.jsonl")
    let replay = try CommandLineTests.dwell(["replay", trace, "--store", dir.path, "--json"])
    let report = try JSONSerialization.jsonObject(with: Data(replay.stdout.utf8)) as? [String: Any]
    let app = report?["app"] as? [String: Any]
    let csv = try CommandLineTests.dwell(["export", dir.path, "--format", "csv"]).stdout
    let rows = Self.parseCSV(csv)
    #expect(
      rows.first == [
        "kind", "screen", "day", "started_at", "ended_at", "seconds", "rule", "title", "points", "source", "reason",
        "state", "count", "action", "period",
      ])
    #expect(rows.dropFirst().allSatisfy { $0.count == 15 })
    let appDays = rows.filter { $0[0] == "day" && $0[1].isEmpty }
    let total = appDays.reduce(0.0) { $0 + (Double($1[5]) ?? 0) }
    #expect(abs(total - ((app?["seconds"] as? Double) ?? -1)) < 0.01)
    #expect(appDays.count == (app?["days"] as? [String: Any])?.count)
    let screens = report?["screens"] as? [String: [String: Any]] ?? [:]
    for (name, figures) in screens {
      let days = rows.filter { $0[0] == "day" && $0[1] == name }.reduce(0.0) { $0 + (Double($1[5]) ?? 0) }
      #expect(abs(days - ((figures["seconds"] as? Double) ?? -1)) < 0.01, "\(name)")
      let visits = rows.filter { $0[0] == "day" && $0[1] == name }.reduce(0) { $0 + (Int($1[12]) ?? 0) }
      #expect(visits == figures["visits"] as? Int, "\(name): visits by day add up to the screen's visits")
    }
  }

  @Test func reportShowsRuleProgressFromACopy() throws {
    let dir = TemporaryStore()
    let trace = try CommandLineTests.write(CommandLineTests.trace, to: dir, name: "t.jsonl")
    #expect(try CommandLineTests.dwell(["replay", trace, "--store", dir.path]).status == 0)
    let rules = try CommandLineTests.write(
      #"[{"id":"hour","when":{"appSeconds":3600}},{"id":"five","when":{"appSeconds":300}}]"#, to: dir, name: "r.json")
    let before = try Data(contentsOf: URL(fileURLWithPath: dir.path))
    let run = try CommandLineTests.dwell(["report", dir.path, "--rules", rules])
    #expect(run.stdout.contains("· hour  █░░░░░░░░░░░░░░░ 5 min of 1 h in the app"))
    #expect(run.stdout.contains("✓ five  reached"))
    #expect(run.stdout.contains("1 session · 1 active day"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path)) == before)
  }
}
