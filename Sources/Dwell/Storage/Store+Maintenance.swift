internal import Foundation

extension Store {
  /// Deletes raw visits that ended before `cutoff`; day totals and unlocks stay.
  /// Returns how many were deleted.
  @discardableResult
  package func pruneVisits(endedBefore cutoff: WallInstant) throws -> Int {
    try write { database in
      try database.statement("DELETE FROM visits WHERE ended_at < ?").bind(cutoff.millisecondsSince1970).run()
      return Int(try database.scalar("SELECT changes()") ?? 0)
    }
  }

  /// What the store holds: counts and the range of days, for `dwell check` and erase reports.
  package struct Summary: Sendable, Equatable {
    /// Screen names.
    package var screens: Int
    /// Raw visits.
    package var visits: Int
    /// Day-total rows.
    package var dayTotals: Int
    /// Unlocked rules.
    package var unlocks: Int
    /// The first and last day with time, if any.
    package var days: ClosedRange<Day>?
  }

  /// Counts and the range of days.
  package func summary() throws -> Summary {
    try read { database in
      let first = try database.statement("SELECT MIN(day), MAX(day) FROM day_totals")
      defer { first.reset() }
      var range: ClosedRange<Day>?
      if try first.step(), let low = Day(first.text(0)), let high = Day(first.text(1)), low <= high {
        range = low...high
      }
      return Summary(
        screens: Int(try database.scalar("SELECT COUNT(*) FROM screens") ?? 0),
        visits: Int(try database.scalar("SELECT COUNT(*) FROM visits") ?? 0),
        dayTotals: Int(try database.scalar("SELECT COUNT(*) FROM day_totals") ?? 0),
        unlocks: Int(try database.scalar("SELECT COUNT(*) FROM unlocks") ?? 0), days: range)
    }
  }

  /// Removes all usage data (totals, visits, unlocks, points, plugin state, sessions) and
  /// the journals beside the store. Returns what was there.
  @discardableResult
  package func erase() throws -> Summary {
    let before = try summary()
    try write { database in
      try database.transaction {
        try database.execute(
          """
          DELETE FROM day_totals; DELETE FROM visits; DELETE FROM unlocks; DELETE FROM screens;
          DELETE FROM awards; DELETE FROM listener_state; DELETE FROM state;
          DELETE FROM day_counts; DELETE FROM earnings; DELETE FROM group_days;
          """)
      }
      forgetScreenIDs()
      try? database.execute("PRAGMA wal_checkpoint(TRUNCATE); VACUUM;")
    }
    for journal in Journal.list(storePath: path) { Journal.remove(path: journal.path) }
    return before
  }

  /// One raw visit, as kept in the store.
  package struct Visit: Sendable, Equatable {
    /// The screen's name.
    package var screen: String
    /// When it appeared.
    package var started: WallInstant
    /// When it ended (or the last checkpoint, for a visit cut short by a crash).
    package var ended: WallInstant
    /// The active time it accrued.
    package var active: Duration
  }

  /// Every raw visit, oldest first (for reports and export).
  package func visits() throws -> [Visit] {
    try allVisits().map {
      Visit(screen: $0.screen, started: $0.started, ended: $0.ended, active: .nanoseconds($0.activeNanos))
    }
  }

  /// Every raw visit, oldest first.
  func allVisits() throws -> [VisitRecord] {
    try read { database in
      try Self.checkVisitValues(database)
      let rows = try database.statement(
        "SELECT s.name, v.started_at, v.ended_at, v.active_ms FROM visits v JOIN screens s ON s.id = v.screen ORDER BY v.started_at, v.id"
      )
      var visits: [VisitRecord] = []
      while try rows.step() {
        visits.append(
          VisitRecord(
            screen: rows.text(0), started: WallInstant(nanosecondsSince1970: rows.int(1) * 1_000_000),
            ended: WallInstant(nanosecondsSince1970: rows.int(2) * 1_000_000), activeNanos: rows.int(3) * 1_000_000))
      }
      return visits
    }
  }

  /// Runs the integrity check; returns SQLite's messages (`["ok"]` when healthy).
  package func integrityCheck() throws -> [String] {
    try read { database in
      let rows = try database.statement("PRAGMA integrity_check")
      var messages: [String] = []
      while try rows.step() { messages.append(rows.text(0)) }
      return messages
    }
  }
}

extension Store {
  /// Deletes a store's files: the database, its WAL and shared-memory files, and the
  /// crash journals beside it. For stores nobody has open (temporary ones, tests).
  package static func removeFiles(at path: String) {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    for journal in Journal.list(storePath: path) { Journal.remove(path: journal.path) }
  }

  /// Deletes the damaged stores moved aside beside the store at `path`
  /// (`<name>.corrupt-<time>`), each with its write-ahead log, shared-memory file and
  /// rollback journal. For `erase()`: they hold the user's data too.
  ///
  /// - Throws: the file system's error for a file that stays (the others are deleted).
  package static func removeMovedAside(besides path: String) throws {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    let prefix = url.lastPathComponent + ".corrupt-"
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
    var failure: (any Error)?
    for name in names where name.hasPrefix(prefix) {
      do {
        try FileManager.default.removeItem(atPath: folder + "/" + name)
      } catch {
        failure = failure ?? error
      }
    }
    if let failure { throw failure }
  }
}
