/// The export's reads: the tables that grow with use (raw visits, awards) a bounded page at
/// a time on the store's queue, so an export of years holds one page, and the writer folds
/// between pages.
extension Store {
  /// Where an export's reads start: the newest visit and award rows when it began. Rows
  /// folded later are not part of it (their day totals are not either).
  struct ExportMark {
    var lastVisit: Int64
    var lastAward: Int64
  }

  /// The newest visit and award rows now.
  func exportMark() throws -> ExportMark {
    try read { database in
      ExportMark(
        lastVisit: try database.scalar("SELECT COALESCE(MAX(id), 0) FROM visits") ?? 0,
        lastAward: try database.scalar("SELECT COALESCE(MAX(id), 0) FROM awards") ?? 0)
    }
  }

  /// Calls `body` with every raw visit up to `mark`, oldest first (by start, then row),
  /// `size` at a time; throws when a row holds a value Dwell never writes (as
  /// ``allVisits()``).
  ///
  /// One statement of its own (not the cache's) reads them: SQLite sorts the rows at the
  /// first step (in its sorter, which spills to temporary files past its memory budget,
  /// since the visits have no index by start) and the pages step on from there, each in
  /// one turn of the store's queue. The statement lives and is finalized on that queue.
  func forEachVisitPage(
    upTo mark: ExportMark, size: Int, _ body: ([VisitRecord]) throws -> Void
  ) throws {
    let cursor = try read { database in
      try Self.checkVisitValues(database)
      let statement = try Statement(
        database: database,
        sql: """
          SELECT s.name, v.started_at, v.ended_at, v.active_ms FROM visits v JOIN screens s ON s.id = v.screen
          WHERE v.id <= ? ORDER BY v.started_at, v.id
          """)
      _ = try statement.bind(mark.lastVisit)
      return StatementBox(statement)
    }
    defer { _ = try? read { _ in cursor.statement = nil } }
    let size = max(1, size)
    while true {
      let page = try read { _ -> [VisitRecord] in
        guard let rows = cursor.statement else { return [] }
        var page: [VisitRecord] = []
        page.reserveCapacity(size)
        while page.count < size, try rows.step() {
          page.append(
            VisitRecord(
              screen: rows.text(0), started: WallInstant(nanosecondsSince1970: rows.int(1) &* 1_000_000),
              ended: WallInstant(nanosecondsSince1970: rows.int(2) &* 1_000_000), activeNanos: rows.int(3) &* 1_000_000)
          )
        }
        if page.count < size { cursor.statement = nil }
        return page
      }
      if !page.isEmpty { try body(page) }
      if page.count < size { return }
    }
  }

  /// Calls `body` with every award up to `mark`, oldest first, `size` at a time (keyset
  /// pages on the row id, each one read of the store's queue).
  func forEachAwardPage(upTo mark: ExportMark, size: Int, _ body: ([Award]) throws -> Void) throws {
    let size = max(1, size)
    var after: Int64 = 0
    while true {
      let (page, last) = try read { database -> ([Award], Int64) in
        let rows = try database.statement(
          "SELECT id, source, points, reason, awarded_at FROM awards WHERE id > ? AND id <= ? ORDER BY id LIMIT ?")
        defer { rows.reset() }
        _ = try rows.bind(after, mark.lastAward, Int64(size))
        var page: [Award] = []
        var last = after
        while try rows.step() {
          last = rows.int(0)
          page.append(
            Award(
              source: rows.text(1), points: Int(rows.int(2)), reason: rows.text(3),
              wall: WallInstant(nanosecondsSince1970: rows.int(4) &* 1_000_000)))
        }
        return (page, last)
      }
      if !page.isEmpty { try body(page) }
      if page.count < size { return }
      after = last
    }
  }
}

/// A statement kept between turns of the store's queue (an export's sorted visits): only
/// touched, and released, on that queue.
final class StatementBox {
  var statement: Statement?
  init(_ statement: Statement) { self.statement = statement }
}
