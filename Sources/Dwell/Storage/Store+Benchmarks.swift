internal import CSQLite
internal import Foundation

extension Store {
  /// A visit for ``appendVisits(_:)``.
  package struct SyntheticVisit: Sendable {
    package var screen: String
    package var started: WallInstant
    package var active: Duration
    package var day: Day

    package init(screen: String, started: WallInstant, active: Duration, day: Day) {
      self.screen = screen
      self.started = started
      self.active = active
      self.day = day
    }
  }

  /// Folds closed visits (with their day totals and visit counts) in one transaction, the
  /// way the engine's writer does. For benchmarks and load tests.
  package func appendVisits(_ visits: [SyntheticVisit]) throws {
    var batch = CheckpointBatch(boot: "bench")
    var days: [DayKey: Int64] = [:]
    var names: [String: Int32] = [:]
    var counts: [DayKey: Int] = [:]
    for visit in visits {
      let index = names[visit.screen] ?? Int32(names.count)
      names[visit.screen] = index
      let nanos = visit.active.nanoseconds
      days[DayKey(day: visit.day, screen: index), default: 0] += nanos
      days[DayKey(day: visit.day, screen: -1), default: 0] += nanos
      counts[DayKey(day: visit.day, screen: index), default: 0] += 1
      batch.closedVisits.append(
        VisitRecord(
          screen: visit.screen, started: visit.started,
          ended: WallInstant(nanosecondsSince1970: visit.started.nanosecondsSince1970 + nanos), activeNanos: nanos))
    }
    let byIndex = Dictionary(uniqueKeysWithValues: names.map { ($0.value, $0.key) })
    batch.days = days.map {
      .init(day: $0.key.day, screen: $0.key.screen < 0 ? nil : byIndex[$0.key.screen], nanos: $0.value)
    }
    batch.visits = counts.map { .init(screen: byIndex[$0.key.screen] ?? "", day: $0.key.day, count: $0.value) }
    try fold(batch, journal: nil, sequence: 0)
  }

  /// The size of the store's files in bytes (database, WAL), after a checkpoint.
  package func sizeInBytes() throws -> Int {
    try write { database in try database.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
    let sizes = ["", "-wal"].map { suffix -> Int in
      (try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? Int) ?? 0
    }
    return sizes.reduce(0, +)
  }
}

extension Store {
  /// Makes every write fail (SQLite's `query_only`), as a full or read-only disk would.
  /// For fault-injection tests.
  package func simulateWriteFailures(_ on: Bool) throws {
    try write { database in try database.execute("PRAGMA query_only=\(on ? 1 : 0)") }
  }

  /// Makes the store unable to grow by a page (SQLite's `max_page_count`), as a full disk
  /// would: a fold that needs a new page fails with "database or disk is full"; one that
  /// only changes rows already there succeeds. For fault-injection tests.
  package func simulateFullDisk(_ on: Bool) throws {
    try write { database in
      let pages = on ? try database.scalar("PRAGMA page_count") ?? 1 : 4_294_967_294
      try database.execute("PRAGMA max_page_count = \(pages)")
    }
  }

  /// Makes every transaction fail at its commit, after all its statements ran (SQLite
  /// then rolls it back), as a disk that fills up during the write would.
  package func simulateFailingCommits(_ on: Bool) throws {
    try write { database in
      _ = sqlite3_commit_hook(database.handle, on ? { _ in 1 } : nil, nil)
    }
  }
}
