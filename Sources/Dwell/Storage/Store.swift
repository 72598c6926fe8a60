internal import CSQLite
internal import Dispatch
internal import Foundation

/// Why a store could not be used.
public enum StoreError: Error, CustomStringConvertible, Sendable {
  /// The file was written by a newer version of Dwell. It is left untouched.
  case newerSchema(migration: String)
  /// SQLite failed.
  case database(DatabaseError)

  public var description: String {
    switch self {
    case .newerSchema(let migration):
      return "the store was written by a newer version of Dwell (it has migration '\(migration)'); it was left untouched"
    case .database(let error): return error.description
    }
  }
}

/// The durable store: one SQLite file in WAL mode, owned by one serial queue.
///
/// The schema (see the DocC article "The store") keeps per-day rollups for the app
/// (`screen = 0`) and for each screen, so totals never scan raw rows, plus raw visits for
/// export. Writes arrive as checkpoint batches of additive deltas, so two processes
/// sharing a store (an app and its extension) never overwrite each other's time.
public final class Store: @unchecked Sendable {
  // @unchecked: every access to `database` and the caches happens on `queue`.
  /// The file's path.
  public let path: String
  private let queue = DispatchQueue(label: "dwell.store")
  private let database: Database
  private var screenIDs: [String: Int64] = [:]
  private var visitRowIDs: [Int64: Int64] = [:]

  /// The migrations, in order. Append only: never edit or reorder a shipped one.
  static let migrations: [(id: String, sql: String)] = [
    (
      "v1-initial",
      """
      CREATE TABLE screens(
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        visits INTEGER NOT NULL DEFAULT 0);
      CREATE TABLE day_totals(
        day TEXT NOT NULL,
        screen INTEGER NOT NULL,
        nanos INTEGER NOT NULL,
        PRIMARY KEY(day, screen)) WITHOUT ROWID;
      CREATE TABLE visits(
        id INTEGER PRIMARY KEY,
        screen INTEGER NOT NULL,
        started_at INTEGER NOT NULL,
        ended_at INTEGER NOT NULL,
        active_ms INTEGER NOT NULL,
        open INTEGER NOT NULL);
      CREATE TABLE unlocks(
        rule TEXT PRIMARY KEY,
        unlocked_at INTEGER NOT NULL,
        mono_ns INTEGER NOT NULL,
        boot TEXT NOT NULL);
      CREATE TABLE state(
        key TEXT PRIMARY KEY,
        value) WITHOUT ROWID;
      """
    )
  ]

  /// The newest schema version this build writes.
  public static var schemaVersion: Int { migrations.count }

  /// Opens the store at `path`, creating it and migrating it as needed.
  ///
  /// - Throws: ``StoreError/newerSchema(migration:)`` for a store from a newer Dwell (left
  ///   untouched), ``StoreError/database(_:)`` when SQLite cannot open or read it.
  public init(path: String, readOnly: Bool = false) throws {
    self.path = path
    do {
      database = try Database(path: path, readOnly: readOnly)
      if !readOnly {
        try database.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")
      }
      try Self.migrate(database, readOnly: readOnly)
    } catch let error as DatabaseError {
      throw StoreError.database(error)
    }
  }

  private static func migrate(_ db: Database, readOnly: Bool) throws {
    if !readOnly {
      try db.execute(
        "CREATE TABLE IF NOT EXISTS dwell_migrations(identifier TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
      )
    }
    var applied = Set<String>()
    let rows = try db.statement("SELECT identifier FROM dwell_migrations")
    while try rows.step() { applied.insert(rows.text(0)) }
    let known = Set(migrations.map(\.id))
    if let unknown = applied.subtracting(known).sorted().first {
      throw StoreError.newerSchema(migration: unknown)
    }
    for migration in migrations where !applied.contains(migration.id) {
      guard !readOnly else { break }
      try db.transaction {
        try db.execute(migration.sql)
        try db.statement("INSERT INTO dwell_migrations(identifier, applied_at) VALUES(?, ?)")
          .bind(migration.id, ISO8601.format(WallInstant(Date()))).run()
      }
    }
  }

  // MARK: Reading

  /// Everything the engine needs to resume: totals, per-day rollups, sessions, unlocks.
  func load() throws -> RestoredUsage {
    try queue.sync {
      var usage = RestoredUsage()
      var names: [Int64: Int] = [:]
      let screens = try database.statement("SELECT id, name, visits FROM screens ORDER BY id")
      while try screens.step() {
        names[screens.int(0)] = usage.screens.count
        screenIDs[screens.text(1)] = screens.int(0)
        usage.screens.append((screens.text(1), Tally(), Int(screens.int(2))))
      }
      let days = try database.statement("SELECT day, screen, nanos FROM day_totals")
      while try days.step() {
        guard let day = Day(days.text(0)) else { continue }
        let screen = days.int(1)
        let nanos = days.int(2)
        if screen == 0 {
          usage.app.add(nanos, on: day)
        } else if let index = names[screen] {
          usage.screens[index].tally.add(nanos, on: day)
        }
      }
      let state = try database.statement("SELECT key, value FROM state")
      var values: [String: (Int64, String)] = [:]
      while try state.step() { values[state.text(0)] = (state.int(1), state.text(1)) }
      usage.sessions = Int(values["sessions"]?.0 ?? 0)
      if let mono = values["last_stop_mono"]?.0, let boot = values["last_stop_boot"]?.1,
        let wall = values["last_stop_wall"]?.0
      {
        usage.lastStop = StopMark(
          mono: mono, boot: boot, wall: WallInstant(nanosecondsSince1970: wall))
      }
      let unlocks = try database.statement(
        "SELECT rule, unlocked_at, mono_ns, boot FROM unlocks ORDER BY mono_ns")
      while try unlocks.step() {
        usage.unlocks.append(
          UnlockRecord(
            rule: unlocks.text(0), mono: MonotonicInstant(nanoseconds: unlocks.int(2)),
            boot: unlocks.text(3),
            wall: WallInstant(nanosecondsSince1970: unlocks.int(1) * 1_000_000)))
      }
      return usage
    }
  }

  // MARK: Writing

  /// Writes one checkpoint in a single transaction: all of it, or none of it.
  func commit(_ batch: CheckpointBatch) throws {
    try queue.sync {
      let changes = batch.changes
      var newVisitRows: [Int64: Int64] = [:]
      try database.transaction {
        var ids: [Int32: Int64] = [-1: 0]
        for (index, name) in batch.screenNames { ids[index] = try screenID(name) }
        let day = try database.statement(
          """
          INSERT INTO day_totals(day, screen, nanos) VALUES(?, ?, ?)
          ON CONFLICT(day, screen) DO UPDATE SET nanos = nanos + excluded.nanos
          """)
        for (key, nanos) in changes.days {
          guard let id = ids[key.screen] else { continue }
          try day.bind(key.day.description, id, nanos).run()
          day.reset()
        }
        let visits = try database.statement("UPDATE screens SET visits = visits + ? WHERE id = ?")
        for (index, count) in changes.visits {
          guard let id = ids[index] else { continue }
          try visits.bind(count, id).run()
          visits.reset()
        }
        let insertVisit = try database.statement(
          "INSERT INTO visits(screen, started_at, ended_at, active_ms, open) VALUES(?, ?, ?, ?, ?)")
        let updateVisit = try database.statement(
          "UPDATE visits SET ended_at = ?, active_ms = ?, open = ? WHERE id = ?")
        for row in changes.visitRows.values.sorted(by: { $0.id < $1.id }) {
          let activeMillis = row.activeNanos / 1_000_000
          if let rowID = visitRowIDs[row.id] ?? newVisitRows[row.id] {
            try updateVisit.bind(row.ended.millisecondsSince1970, activeMillis, row.open, rowID)
              .run()
            updateVisit.reset()
          } else if let screen = ids[row.screen] {
            try insertVisit.bind(
              screen, row.started.millisecondsSince1970, row.ended.millisecondsSince1970,
              activeMillis, row.open
            ).run()
            insertVisit.reset()
            newVisitRows[row.id] = sqlite3_last_insert_rowid(database.handle)
          }
        }
        let state = try database.statement(
          "INSERT INTO state(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
        )
        if changes.sessions != 0 {
          let add = try database.statement(
            """
            INSERT INTO state(key, value) VALUES('sessions', ?)
            ON CONFLICT(key) DO UPDATE SET value = value + excluded.value
            """)
          try add.bind(changes.sessions).run()
        }
        if let stop = changes.lastStop {
          try state.bind("last_stop_mono", stop.mono).run()
          state.reset()
          try state.bind("last_stop_boot", stop.boot).run()
          state.reset()
          try state.bind("last_stop_wall", stop.wall.nanosecondsSince1970).run()
          state.reset()
        }
        let unlock = try database.statement(
          "INSERT OR IGNORE INTO unlocks(rule, unlocked_at, mono_ns, boot) VALUES(?, ?, ?, ?)")
        for record in changes.unlocks {
          try unlock.bind(
            record.rule, record.wall.millisecondsSince1970, record.mono.nanoseconds, record.boot
          ).run()
          unlock.reset()
        }
      }
      // Only after the commit succeeded: remember rows, forget closed visits.
      for (local, rowID) in newVisitRows { visitRowIDs[local] = rowID }
      for row in changes.visitRows.values where !row.open { visitRowIDs[row.id] = nil }
    }
  }

  private func screenID(_ name: String) throws -> Int64 {
    if let id = screenIDs[name] { return id }
    try database.statement("INSERT OR IGNORE INTO screens(name) VALUES(?)").bind(name).run()
    let select = try database.statement("SELECT id FROM screens WHERE name = ?")
    select.bind(name)
    guard try select.step() else {
      throw DatabaseError(code: 1, message: "screen row missing after insert", sql: nil)
    }
    let id = select.int(0)
    screenIDs[name] = id
    return id
  }
}
