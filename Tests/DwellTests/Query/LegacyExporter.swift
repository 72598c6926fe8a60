import Foundation

@testable import Dwell

/// The export as it was before it streamed (main at f67f335, `Sources/Dwell/Query/
/// Exporter.swift`): the whole document built in memory, then encoded at once. Kept here,
/// as the reference the streamed output must match byte for byte; extended since with the
/// rows of actions and earnings (and their two CSV columns), built whole as the rest.
struct LegacyExporter {
  struct DayRow: Encodable {
    var day: String
    var screen: String?
    var seconds: Double
    /// A screen's visits begun that day (absent on the app's rows).
    var visits: Int?
  }
  struct VisitRow: Encodable {
    var screen: String
    var startedAt: String
    var endedAt: String
    var activeSeconds: Double
  }
  struct UnlockRow: Encodable {
    var rule: String
    var title: String?
    var points: Int
    var unlockedAt: String
  }
  struct ActionRow: Encodable {
    var action: String
    var day: String
    var count: Int
  }
  struct EarningRow: Encodable {
    var rule: String
    var title: String?
    var period: String
    var points: Int
    var earnedAt: String
  }
  struct AwardRow: Encodable {
    var source: String
    var points: Int
    var reason: String
    var awardedAt: String
  }
  struct StateRow: Encodable {
    var plugin: String
    var state: String
  }
  struct Document: Encodable {
    var days: [DayRow]
    var visits: [VisitRow]
    var unlocks: [UnlockRow]
    var actions: [ActionRow]
    var earnings: [EarningRow]
    var awards: [AwardRow]
    var pluginStates: [StateRow]
    var sessions: Int
  }

  let document: Document

  /// Reads everything from `store`; `rules` name the unlocks (titles).
  init(store: Store, rules: [String: Rule] = [:]) throws {
    let usage = try store.load()
    let awards = try LegacyExporter.allAwards(store)
    let visits = try store.allVisits()
    var days = usage.app.days.map { DayRow(day: $0.key.description, screen: nil, seconds: Self.seconds($0.value)) }
    for screen in usage.screens {
      let tally = screen.tally
      days += Set(tally.days.keys).union(tally.visitDays.keys).map { day in
        DayRow(
          day: day.description, screen: screen.name, seconds: Self.seconds(tally.days[day] ?? 0),
          visits: tally.visitDays[day] ?? 0)
      }
    }
    days.sort { ($0.day, $0.screen ?? "") < ($1.day, $1.screen ?? "") }
    document = Document(
      days: days,
      visits: visits.map {
        VisitRow(
          screen: $0.screen, startedAt: ISO8601.format($0.started), endedAt: ISO8601.format($0.ended),
          activeSeconds: Self.seconds($0.activeNanos))
      },
      unlocks: usage.unlocks.map {
        UnlockRow(rule: $0.rule, title: rules[$0.rule]?.title, points: $0.points, unlockedAt: ISO8601.format($0.wall))
      },
      actions: usage.actions.flatMap { name, tally in
        tally.days.filter { $0.value > 0 }.map { ActionRow(action: name, day: $0.key.description, count: $0.value) }
      }.sorted { ($0.day, $0.action) < ($1.day, $1.action) },
      earnings: usage.earnings.map {
        EarningRow(
          rule: $0.rule, title: rules[$0.rule]?.title, period: $0.period ?? "", points: $0.points,
          earnedAt: ISO8601.format($0.wall))
      },
      awards: awards.map {
        AwardRow(source: $0.source, points: $0.points, reason: $0.reason, awardedAt: ISO8601.format($0.wall))
      },
      pluginStates: usage.listenerStates.sorted { $0.key < $1.key }.map { StateRow(plugin: $0.key, state: $0.value) },
      sessions: usage.sessions)
  }

  private static func seconds(_ nanos: Int64) -> Double { Double(nanos) / 1e9 }

  func render(_ format: ExportFormat) throws -> String {
    switch format {
    case .json:
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
      return String(decoding: try encoder.encode(document), as: UTF8.self)
    case .csv: return csv()
    }
  }

  static let csvHeader =
    "kind,screen,day,started_at,ended_at,seconds,rule,title,points,source,reason,state,count,action,period"

  private func csv() -> String {
    var lines = [Self.csvHeader]
    func field(_ text: String?) -> String {
      guard let text else { return "" }
      guard text.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return text }
      return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
    func row(_ kind: String, _ fields: [String?]) {
      let all = fields + Array(repeating: nil, count: max(0, 14 - fields.count))
      lines.append(([kind] + all).map(field).joined(separator: ","))
    }
    for day in document.days {
      row(
        "day",
        [day.screen, day.day, nil, nil, String(day.seconds), nil, nil, nil, nil, nil, nil, day.visits.map(String.init)])
    }
    for action in document.actions {
      row("action", [nil, action.day] + Array(repeating: nil, count: 9) + [String(action.count), action.action])
    }
    for visit in document.visits {
      row(
        "visit",
        [visit.screen, nil, visit.startedAt, visit.endedAt, String(visit.activeSeconds)]
          + Array(repeating: nil, count: 7))
    }
    for unlock in document.unlocks {
      row(
        "unlock",
        [nil, nil, unlock.unlockedAt, nil, nil, unlock.rule, unlock.title, String(unlock.points), nil, nil, nil, nil])
    }
    for earning in document.earnings {
      row(
        "earning",
        [nil, nil, earning.earnedAt, nil, nil, earning.rule, earning.title, String(earning.points)]
          + Array(repeating: nil, count: 5) + [earning.period])
    }
    for award in document.awards {
      row(
        "award",
        [nil, nil, award.awardedAt, nil, nil, nil, nil, String(award.points), award.source, award.reason, nil, nil])
    }
    for state in document.pluginStates {
      row("plugin-state", [nil, nil, nil, nil, nil, nil, nil, nil, state.plugin, nil, state.state, nil])
    }
    row("sessions", Array(repeating: nil, count: 11) + [String(document.sessions)])
    return lines.joined(separator: "\r\n") + "\r\n"
  }

  /// Every award plugins made, oldest first (as the old export read them).
  static func allAwards(_ store: Store) throws -> [Award] {
    try store.read { database in
      let rows = try database.statement("SELECT source, points, reason, awarded_at FROM awards ORDER BY id")
      var awards: [Award] = []
      while try rows.step() {
        awards.append(
          Award(
            source: rows.text(0), points: Int(rows.int(1)), reason: rows.text(2),
            wall: WallInstant(nanosecondsSince1970: rows.int(3) &* 1_000_000)))
      }
      return awards
    }
  }
}
