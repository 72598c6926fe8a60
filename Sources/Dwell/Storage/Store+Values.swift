/// Impossible values in a store's rows: each table's columns checked once, at open (the
/// raw visits where they are read), so no reader trusts a type, range, day or name that
/// Dwell could not have written. A store holding one is damaged (see the DocC article
/// "Reliability"): the engine moves it aside, and the tool says which table and row.
extension Store {
  /// The largest time one subject can accrue on one day in a store (ten days' worth: a
  /// day is at most 50 hours long, crossing the date line, and an app and its extensions
  /// add theirs): more is damage. Sums over days saturate (``Tally``).
  static let maximumDayNanos: Int64 = 10 * 86_400 * 1_000_000_000
  /// The largest count of visits a store can hold for one screen or day.
  static let maximumCount: Int64 = 1 << 40
  /// The largest points of one unlock or award (Lua numbers beyond 2^53 lose precision).
  static let maximumPoints: Int64 = 1 << 53
  /// Whether a screen name is one a store may hold (journal records too).
  static func isName(_ name: String) -> Bool { (1...maximumNameBytes).contains(name.utf8.count) }
  /// Whether `points` are within ``maximumPoints`` either way (journal records too).
  static func isPoints(_ points: Int) -> Bool { Int64(points).magnitude <= UInt64(maximumPoints) }
  /// Wall times in milliseconds: within what nanoseconds since 1970 can hold.
  static let maximumMilliseconds: Int64 = Int64.max / 1_000_000
  /// The longest screen name a store can hold: a cleaned name keeps 200 characters, a
  /// character being a few scalars at most (family emoji: 25 bytes).
  static let maximumNameBytes = 8_192

  /// One column's check: SQL true when the value is impossible.
  private struct Rule {
    var column: String
    var bad: String

    static func integer(_ column: String, _ range: ClosedRange<Int64>) -> Rule {
      Rule(
        column: column,
        bad: "typeof(\(column)) <> 'integer' OR \(column) NOT BETWEEN \(range.lowerBound) AND \(range.upperBound)")
    }

    static func text(_ column: String, maximumBytes: Int) -> Rule {
      Rule(
        column: column,
        bad: "typeof(\(column)) <> 'text' OR length(CAST(\(column) AS BLOB)) NOT BETWEEN 1 AND \(maximumBytes)")
    }

    /// A `YYYY-MM-DD` that is a real day (through the day number: `date()` keeps 02-30).
    static func day(_ column: String) -> Rule {
      Rule(column: column, bad: "typeof(\(column)) <> 'text' OR date(julianday(\(column))) IS NOT \(column)")
    }
  }

  /// The checks of each table the migrations in `applied` make (the day totals' and the
  /// visits' apart), and how a row is named in a message.
  private static func valueRules(after applied: Set<String>) -> [(table: String, row: String, rules: [Rule])] {
    let millis = -maximumMilliseconds...maximumMilliseconds
    let points = -maximumPoints...maximumPoints
    var result: [(table: String, row: String, rules: [Rule])] = []
    if applied.contains("v1-initial") {
      result.append(
        (
          "screens", "'id ' || id",
          [.text("name", maximumBytes: maximumNameBytes), .integer("visits", 0...maximumCount)]
        ))
      var unlocks: [Rule] = [.integer("unlocked_at", millis), .integer("mono_ns", Int64.min...Int64.max)]
      if applied.contains("v2-listeners") { unlocks.append(.integer("points", points)) }
      result.append(("unlocks", "'rule ' || quote(substr(rule, 1, 40))", unlocks))
    }
    if applied.contains("v2-listeners") {
      result.append(("awards", "'id ' || id", [.integer("points", points), .integer("awarded_at", millis)]))
    }
    return result
  }

  /// The checks of a raw visit row (``allVisits()``).
  private static let visitRules: [Rule] = [
    .integer("screen", 0...Int64.max), .integer("started_at", -maximumMilliseconds...maximumMilliseconds),
    .integer("ended_at", -maximumMilliseconds...maximumMilliseconds), .integer("active_ms", 0...maximumMilliseconds),
  ]

  /// Throws ``DatabaseError`` with `.corrupt`, naming the table, the row, the column and
  /// its value, when a row of the tables in `applied` (but the raw visits) holds an
  /// impossible value.
  static func checkValues(_ db: Database, applied: Set<String>) throws {
    for (table, row, rules) in valueRules(after: applied) {
      try checkRows(db, table: table, row: row, rules: rules)
    }
    if applied.contains("v1-initial") {
      // The state's figures: integers where Dwell reads integers.
      try checkRows(
        db, table: "state", row: "'key ' || quote(substr(key, 1, 40))",
        rules: [
          Rule(
            column: "value",
            bad: """
              key IN ('sessions', 'last_stop_mono', 'last_stop_wall') AND typeof(value) <> 'integer'
              OR key = 'sessions' AND value NOT BETWEEN 0 AND \(maximumCount)
              """)
        ])
    }
  }

  /// Whether a `day_totals` row as ``load()`` reads it (day, screen, nanos, visits) holds
  /// possible figures; its day is checked by parsing it. Checked there, as the rows are
  /// read, since a scan at open cost 0.5 µs a row (80 ms for ten heavy years).
  static func isPossibleDayTotal(_ row: Statement) -> Bool {
    row.isInteger(1) && row.isInteger(2) && row.isInteger(3) && row.int(1) >= 0
      && (0...maximumDayNanos).contains(row.int(2)) && (0...maximumCount).contains(row.int(3))
  }

  /// The error naming the first impossible `day_totals` row (after ``isPossibleDayTotal(_:)``
  /// or a day that does not parse found one).
  static func damagedDayTotals(_ db: Database, dated: Bool) -> any Error {
    var rules: [Rule] = [.day("day"), .integer("screen", 0...Int64.max), .integer("nanos", 0...maximumDayNanos)]
    if dated { rules.append(.integer("visits", 0...maximumCount)) }
    do {
      try checkRows(db, table: "day_totals", row: "'day ' || quote(day) || ', screen ' || quote(screen)", rules: rules)
    } catch {
      return error
    }
    return DatabaseError(.corrupt, message: "the store is damaged: table 'day_totals' holds a row Dwell never writes")
  }

  /// Throws when a raw visit row holds an impossible value.
  static func checkVisitValues(_ db: Database) throws {
    try checkRows(db, table: "visits", row: "'id ' || id", rules: visitRules)
  }

  /// Throws ``StoreError/database(_:)`` (`.corrupt`) when a raw visit row holds an
  /// impossible value: `dwell check` reads them all, as an export does.
  package func checkVisits() throws {
    try read { try Self.checkVisitValues($0) }
  }

  private static func checkRows(_ db: Database, table: String, row: String, rules: [Rule]) throws {
    let which = rules.map { "WHEN \($0.bad) THEN '\($0.column)'" }.joined(separator: " ")
    let value = rules.map { rule in
      let bytes = "length(CAST(\(rule.column) AS BLOB))"
      return
        "WHEN \(rule.bad) THEN CASE WHEN \(bytes) > 40 THEN 'a ' || typeof(\(rule.column)) || ' of ' || \(bytes) || ' bytes' ELSE quote(\(rule.column)) END"
    }.joined(separator: " ")
    let statement = try db.statement(
      """
      SELECT \(row), CASE \(which) END, CASE \(value) END FROM \(table)
      WHERE \(rules.map { "(\($0.bad))" }.joined(separator: " OR ")) LIMIT 1
      """)
    defer { statement.reset() }
    guard try statement.step() else { return }
    throw DatabaseError(
      .corrupt,
      message:
        "the store is damaged: table '\(table)', \(statement.text(0)): \(statement.text(1)) is \(statement.text(2)), which Dwell never writes"
    )
  }
}
