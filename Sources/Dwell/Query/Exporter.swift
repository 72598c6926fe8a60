internal import Foundation

/// Export formats.
public enum ExportFormat: String, Sendable, CaseIterable {
  /// One JSON object with `days`, `visits` and `unlocks`.
  case json
  /// RFC 4180 CSV, one row per record, with a `kind` column (`day`, `visit`, `unlock`).
  case csv
}

/// Writes everything a store holds, for the user's right to their data.
struct Exporter {
  let usage: RestoredUsage
  let visits: [VisitRecord]

  init(usage: RestoredUsage, visits: [VisitRecord]) {
    self.usage = usage
    self.visits = visits
  }

  init(store: Store) throws {
    usage = try store.load()
    visits = try store.allVisits()
  }

  /// Day totals: the app's (screen `nil`) and each screen's, by day.
  var dayRows: [(day: Day, screen: String?, nanos: Int64)] {
    var rows = usage.app.days.map { (day: $0.key, screen: String?.none, nanos: $0.value) }
    for screen in usage.screens {
      rows += screen.tally.days.map { (day: $0.key, screen: Optional(screen.name), nanos: $0.value) }
    }
    return rows.sorted { ($0.day, $0.screen ?? "") < ($1.day, $1.screen ?? "") }
  }

  func render(_ format: ExportFormat) throws -> String {
    switch format {
    case .json: return json()
    case .csv: return csv()
    }
  }

  private func json() -> String {
    let days = JSONValue.array(
      dayRows.map { row in
        .object([
          ("day", .string(row.day.description)), ("screen", row.screen.map(JSONValue.string) ?? .null),
          ("seconds", .seconds(row.nanos)),
        ])
      })
    let visitValues = JSONValue.array(
      visits.map { visit in
        .object([
          ("screen", .string(visit.screen)), ("startedAt", .string(ISO8601.format(visit.started))),
          ("endedAt", .string(ISO8601.format(visit.ended))), ("activeSeconds", .seconds(visit.activeNanos)),
        ])
      })
    let unlocks = JSONValue.array(
      usage.unlocks.map { unlock in
        .object([
          ("rule", .string(unlock.rule)), ("unlockedAt", .string(ISO8601.format(unlock.wall))),
          ("points", .integer(unlock.points)),
        ])
      })
    return JSONValue.object([
      ("days", days), ("visits", visitValues), ("unlocks", unlocks), ("sessions", .integer(usage.sessions)),
    ]).rendered(pretty: true)
  }

  private func csv() -> String {
    var lines = ["kind,screen,day,started_at,ended_at,seconds,rule,points"]
    func field(_ text: String) -> String {
      guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
      return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
    for row in dayRows {
      lines.append("day,\(field(row.screen ?? "")),\(row.day),,,\(JSONWriter.seconds(row.nanos)),,")
    }
    for visit in visits {
      lines.append(
        "visit,\(field(visit.screen)),,\(ISO8601.format(visit.started)),\(ISO8601.format(visit.ended)),\(JSONWriter.seconds(visit.activeNanos)),,"
      )
    }
    for unlock in usage.unlocks {
      lines.append("unlock,,,\(ISO8601.format(unlock.wall)),,,\(field(unlock.rule)),\(unlock.points)")
    }
    return lines.joined(separator: "\r\n") + "\r\n"
  }
}

extension Store {
  /// Every visit, day total and unlock in this store, as JSON or CSV.
  ///
  /// - Throws: ``StoreError`` when the store cannot be read.
  public func export(_ format: ExportFormat) throws -> String {
    try Exporter(store: self).render(format)
  }
}
