package import Foundation

/// Writes everything a store holds, for the user's right to their data, to a sink as it
/// is read: the tables that grow with use (visits, awards) a page at a time from the
/// store's queue, never the whole output in memory. Each kind of record is a ``Section``;
/// a new table is one more section (``Exporter+Formats.swift`` writes them).
struct Exporter {
  struct DayEntry: Encodable {
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
  /// An action's count on one local day.
  struct ActionRow: Encodable {
    var action: String
    var day: String
    var count: Int
  }
  /// An earning of a recurring rule: the period it is for, and when.
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

  /// The rows a page of visits or awards holds: 10,000 visits are about 1.6 MB of JSON.
  static let pageSize = 10_000

  /// Rows bounded by days × screens, rules and plugins, read at once with the totals
  /// (the engine holds them too).
  let days: [DayEntry]
  let unlocks: [UnlockRow]
  let actions: [ActionRow]
  let earnings: [EarningRow]
  let pluginStates: [StateRow]
  let sessions: Int
  let store: Store
  /// The newest visit and award rows when the export began: rows folded later are not in it.
  let mark: Store.ExportMark
  let pageSize: Int

  /// Reads the totals from `store` (the raw rows are read as they are written); `rules`
  /// name the unlocks (titles).
  init(store: Store, rules: [String: Rule] = [:], pageSize: Int = Exporter.pageSize) throws {
    self.store = store
    self.pageSize = max(1, pageSize)
    mark = try store.exportMark()
    let usage = try store.load()
    var days = usage.app.days.map { DayEntry(day: $0.key.description, screen: nil, seconds: Self.seconds($0.value)) }
    for screen in usage.screens where !ScreenGroup.isGroup(screen.name) {  // a group the rules measure is no screen
      let tally = screen.tally
      days += Set(tally.days.keys).union(tally.visitDays.keys).map { day in
        DayEntry(
          day: day.description, screen: screen.name, seconds: Self.seconds(tally.days[day] ?? 0),
          visits: tally.visitDays[day] ?? 0)
      }
    }
    days.sort { ($0.day, $0.screen ?? "") < ($1.day, $1.screen ?? "") }
    self.days = days
    unlocks = usage.unlocks.map {
      UnlockRow(rule: $0.rule, title: rules[$0.rule]?.title, points: $0.points, unlockedAt: ISO8601.format($0.wall))
    }
    actions = usage.actions.flatMap { name, tally in
      tally.days.filter { $0.value > 0 }.map { ActionRow(action: name, day: $0.key.description, count: $0.value) }
    }.sorted { ($0.day, $0.action) < ($1.day, $1.action) }
    earnings = usage.earnings.map {
      EarningRow(
        rule: $0.rule, title: rules[$0.rule]?.title, period: $0.period ?? "", points: $0.points,
        earnedAt: ISO8601.format($0.wall))
    }
    pluginStates = usage.listenerStates.sorted { $0.key < $1.key }.map { StateRow(plugin: $0.key, state: $0.value) }
    sessions = usage.sessions
  }

  static func seconds(_ nanos: Int64) -> Double { Double(nanos) / 1e9 }

  /// One kind of record: its JSON key, its CSV `kind` and columns, and its rows, a page at
  /// a time (`pages` calls its argument with each page, in order).
  struct Section {
    var key: String
    var json: (_ sink: ExportSink, _ encoder: JSONEncoder) throws -> Void
    var csv: (_ sink: ExportSink) throws -> Void

    init<Row: Encodable>(
      _ key: String, kind: String, pages: @escaping (_ body: ([Row]) throws -> Void) throws -> Void,
      fields: @escaping (Row) -> [String?]
    ) {
      self.key = key
      json = { sink, encoder in try Exporter.writeJSONArray(pages, to: sink, encoder: encoder) }
      // Every row has every column: fields a section has no use for at the end are empty.
      let columns = Exporter.csvColumns - 1
      csv = { sink in
        try pages { page in
          try Exporter.writeCSV(
            page.lazy.map { row in
              let values = fields(row)
              return [kind] + values + Array(repeating: nil, count: max(0, columns - values.count))
            }, to: sink)
        }
      }
    }

    /// A section of rows already in memory, one page.
    init<Row: Encodable>(_ key: String, kind: String, rows: [Row], fields: @escaping (Row) -> [String?]) {
      self.init(key, kind: kind, pages: { body in try body(rows) }, fields: fields)
    }
  }

  /// The sections, in CSV order (JSON sorts them by key): each row's fields follow the
  /// `kind` column, in ``csvHeader``'s order.
  var sections: [Section] {
    let none: String? = nil
    return [
      Section("days", kind: "day", rows: days) { day in
        [
          day.screen, day.day, none, none, String(day.seconds), none, none, none, none, none, none,
          day.visits.map(String.init),
        ]
      },
      Section("actions", kind: "action", rows: actions) { action in
        [none, action.day] + Array(repeating: none, count: 9) + [String(action.count), action.action]
      },
      Section("visits", kind: "visit", pages: visitPages) { visit in
        [visit.screen, none, visit.startedAt, visit.endedAt, String(visit.activeSeconds)]
          + Array(repeating: none, count: 7)
      },
      Section("unlocks", kind: "unlock", rows: unlocks) { unlock in
        [
          none, none, unlock.unlockedAt, none, none, unlock.rule, unlock.title, String(unlock.points), none, none, none,
          none,
        ]
      },
      Section("earnings", kind: "earning", rows: earnings) { earning in
        [none, none, earning.earnedAt, none, none, earning.rule, earning.title, String(earning.points)]
          + Array(repeating: none, count: 5) + [earning.period]
      },
      Section("awards", kind: "award", pages: awardPages) { award in
        [
          none, none, award.awardedAt, none, none, none, none, String(award.points), award.source, award.reason, none,
          none,
        ]
      },
      Section("pluginStates", kind: "plugin-state", rows: pluginStates) { state in
        [none, none, none, none, none, none, none, none, state.plugin, none, state.state, none]
      },
    ]
  }

  private func visitPages(_ body: ([VisitRow]) throws -> Void) throws {
    try store.forEachVisitPage(upTo: mark, size: pageSize) { page in
      try body(
        page.map {
          VisitRow(
            screen: $0.screen, startedAt: ISO8601.format($0.started), endedAt: ISO8601.format($0.ended),
            activeSeconds: Self.seconds($0.activeNanos))
        })
    }
  }

  private func awardPages(_ body: ([AwardRow]) throws -> Void) throws {
    try store.forEachAwardPage(upTo: mark, size: pageSize) { page in
      try body(
        page.map {
          AwardRow(source: $0.source, points: $0.points, reason: $0.reason, awardedAt: ISO8601.format($0.wall))
        })
    }
  }
}

extension Store {
  /// Everything in this store (day totals, actions, visits, unlocks, earnings, awards,
  /// plugin states), as JSON or CSV text, held whole (for tests and small stores; ``export(_:to:)`` streams).
  ///
  /// - Throws: ``StoreError`` when the store cannot be read.
  package func export(_ format: ExportFormat) throws -> String {
    let sink = ExportSink()
    try Exporter(store: self).write(format, to: sink)
    return sink.text
  }

  /// Writes everything in this store to `handle`, a page at a time (see ``Exporter``).
  ///
  /// - Throws: ``StoreError`` when the store cannot be read; the handle's error when a
  ///   write fails (a full disk, a closed handle).
  package func export(_ format: ExportFormat, to handle: FileHandle) throws {
    try export(format) { bytes in try handle.write(contentsOf: bytes) }
  }

  /// Gives everything in this store to `write`, 64 KiB at a time, as it is read.
  ///
  /// - Throws: ``StoreError`` when the store cannot be read; what `write` throws.
  package func export(_ format: ExportFormat, writing write: @escaping (ArraySlice<UInt8>) throws -> Void) throws {
    let sink = ExportSink(write)
    try Exporter(store: self).write(format, to: sink)
    try sink.flush()
  }
}
