internal import CSQLite
internal import Dispatch
internal import Foundation

#if canImport(Darwin)
  internal import Darwin
#elseif canImport(Glibc)
  internal import Glibc
#endif

/// Why a store could not be used.
public enum StoreError: Error, CustomStringConvertible, Sendable {
  /// The file was written by a newer version of Dwell. It is left untouched.
  case newerSchema(migration: String)
  /// SQLite failed.
  case database(DatabaseError)

  public var description: String {
    switch self {
    case .newerSchema(let migration):
      return
        "the store was written by a newer version of Dwell (it has migration '\(migration)'); it was left untouched"
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
        active_ms INTEGER NOT NULL);
      CREATE TABLE unlocks(
        rule TEXT PRIMARY KEY,
        unlocked_at INTEGER NOT NULL,
        mono_ns INTEGER NOT NULL,
        boot TEXT NOT NULL);
      CREATE TABLE state(
        key TEXT PRIMARY KEY,
        value) WITHOUT ROWID;
      """
    ),
    (
      "v2-listeners",
      """
      CREATE TABLE awards(
        id INTEGER PRIMARY KEY,
        source TEXT NOT NULL,
        points INTEGER NOT NULL,
        reason TEXT NOT NULL,
        awarded_at INTEGER NOT NULL);
      CREATE TABLE listener_state(
        source TEXT PRIMARY KEY,
        data TEXT NOT NULL);
      ALTER TABLE unlocks ADD COLUMN points INTEGER NOT NULL DEFAULT 0;
      """
    ),
  ]

  /// Whether the store is a file (not an in-memory database), so a journal can sit beside it.
  var isFile: Bool { !path.isEmpty && path != ":memory:" && !path.hasPrefix("file:") && !readOnly }
  private let readOnly: Bool

  /// The newest schema version this build writes.
  public static var schemaVersion: Int { migrations.count }

  /// Opens the store at `path`, creating it and migrating it as needed.
  ///
  /// - Throws: ``StoreError/newerSchema(migration:)`` for a store from a newer Dwell (left
  ///   untouched), ``StoreError/database(_:)`` when SQLite cannot open or read it.
  public init(path: String, readOnly: Bool = false) throws {
    self.path = path
    self.readOnly = readOnly
    do {
      database = try Database(path: path, readOnly: readOnly)
      if !readOnly {
        // Switching a new file to WAL does not wait on the busy handler: when another
        // process (an app extension) opens the same new store at that moment, retry.
        var attempt = 0
        while true {
          do {
            try database.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")
            break
          } catch let error as DatabaseError where error.primaryCode == 5 && attempt < 100 {
            attempt += 1
            usleep(20_000)
          }
        }
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
        // Another process (an app extension) may have applied it since we looked.
        let check = try db.statement("SELECT COUNT(*) FROM dwell_migrations WHERE identifier = ?")
        check.bind(migration.id)
        let done = try check.step() && check.int(0) > 0
        check.reset()
        guard !done else { return }
        try db.execute(migration.sql)
        try db.statement("INSERT INTO dwell_migrations(identifier, applied_at) VALUES(?, ?)")
          .bind(migration.id, ISO8601.format(WallInstant(Date()))).run()
      }
    }
  }

  /// Runs `body` with the connection, on the store's queue.
  func withDatabase<T>(_ body: (Database) throws -> T) throws -> T {
    try queue.sync { try body(database) }
  }

  // MARK: Reading

  /// Everything the engine needs to resume: totals, per-day rollups, sessions, unlocks,
  /// plus the unfolded changes of journals still beside the store (a process that is
  /// running, or whose journal was not yet recovered).
  func load(currentBoot: String? = nil) throws -> RestoredUsage {
    try queue.sync {
      var usage = RestoredUsage()
      var names: [Int64: Int] = [:]
      var byName: [String: Int] = [:]
      let screens = try database.statement("SELECT id, name, visits FROM screens ORDER BY id")
      while try screens.step() {
        let name = screens.text(1)
        names[screens.int(0)] = usage.screens.count
        byName[name] = usage.screens.count
        screenIDs[name] = screens.int(0)
        usage.screens.append((name, Tally(), Int(screens.int(2))))
      }
      let days = try database.statement("SELECT day, screen, nanos FROM day_totals")
      while try days.step() {
        guard let day = days.day(0) else { continue }
        let screen = days.int(1)
        let nanos = max(0, days.int(2))  // a damaged store's negative total counts as none
        if screen == 0 {
          usage.app.add(nanos, on: day)
        } else if let index = names[screen] {
          usage.screens[index].tally.add(nanos, on: day)
        }
      }
      let values = try stateValues()
      usage.sessions = Int(values["sessions"]?.0 ?? 0)
      usage.lastStop = Self.stop(values)
      let unlocks = try database.statement(
        "SELECT rule, unlocked_at, mono_ns, boot, points FROM unlocks ORDER BY mono_ns")
      while try unlocks.step() {
        usage.unlocks.append(
          UnlockRecord(
            rule: unlocks.text(0), mono: MonotonicInstant(nanoseconds: unlocks.int(2)),
            boot: unlocks.text(3),
            wall: WallInstant(nanosecondsSince1970: unlocks.int(1) * 1_000_000), points: Int(unlocks.int(4))))
      }
      usage.points = Int(try database.scalar("SELECT COALESCE(SUM(points), 0) FROM awards") ?? 0)
      let listeners = try database.statement("SELECT source, data FROM listener_state")
      while try listeners.step() { usage.listenerStates[listeners.text(0)] = listeners.text(1) }
      for journal in try unfoldedJournals(values) {
        let batch = journal.batch
        func index(_ name: String) -> Int {
          if let i = byName[name] { return i }
          byName[name] = usage.screens.count
          usage.screens.append((name, Tally(), 0))
          return usage.screens.count - 1
        }
        for entry in batch.days {
          if let screen = entry.screen {
            usage.screens[index(screen)].tally.add(entry.nanos, on: entry.day)
          } else {
            usage.app.add(entry.nanos, on: entry.day)
          }
        }
        for visit in batch.visits { usage.screens[index(visit.screen)].visits += visit.count }
        usage.sessions += batch.sessions
        if let stop = batch.lastStop, usage.lastStop.map({ stop.isAfter($0) }) ?? true {
          usage.lastStop = stop
        }
        let known = Set(usage.unlocks.map(\.rule))
        usage.unlocks += batch.unlocks.filter { !known.contains($0.rule) }
        usage.points += batch.awards.reduce(0) { $0 + $1.points }
        for state in batch.listenerStates { usage.listenerStates[state.source] = state.data }
      }
      return usage
    }
  }

  private func stateValues() throws -> [String: (Int64, String)] {
    let state = try database.statement("SELECT key, value FROM state")
    var values: [String: (Int64, String)] = [:]
    while try state.step() { values[state.text(0)] = (state.int(1), state.text(1)) }
    return values
  }

  private static func stop(_ values: [String: (Int64, String)]) -> StopMark? {
    guard let mono = values["last_stop_mono"]?.0, let boot = values["last_stop_boot"]?.1,
      let wall = values["last_stop_wall"]?.0
    else { return nil }
    return StopMark(mono: mono, boot: boot, wall: WallInstant(nanosecondsSince1970: wall))
  }

  private struct JournalContent {
    var owner: String
    var path: String
    var sequence: UInt64
    var batch: CheckpointBatch
    /// Whether `batch`'s changes (not its open visits) are already in the rollups.
    var alreadyFolded: Bool
  }

  /// Journals beside the store whose content is not (entirely) in the rollups yet.
  private func unfoldedJournals(_ values: [String: (Int64, String)]) throws -> [JournalContent] {
    var result: [JournalContent] = []
    for (owner, path) in Journal.list(storePath: self.path) {
      let folded = values["folded:" + owner].map { UInt64(bitPattern: $0.0) } ?? 0
      guard folded != UInt64(bitPattern: Int64.max), let record = Journal.read(path: path),
        var batch = CheckpointBatch(decoding: record.payload)
      else { continue }
      let alreadyFolded = record.sequence <= folded
      if alreadyFolded {
        let open = batch.openVisits
        batch = CheckpointBatch(boot: batch.boot)
        batch.openVisits = open
      }
      result.append(
        JournalContent(
          owner: owner, path: path, sequence: record.sequence, batch: batch, alreadyFolded: alreadyFolded))
    }
    return result
  }

  // MARK: Writing

  /// Folds a batch into the rollups in one transaction: all of it, or none of it.
  ///
  /// When `journal` is given, the fold also records that the journal's records up to
  /// `sequence` are folded, so recovering that journal after a crash never counts twice.
  func fold(_ batch: CheckpointBatch, journal: String?, sequence: UInt64) throws {
    try queue.sync {
      try writeTransaction {
        try apply(batch)
        if let journal {
          try setState("folded:" + journal, Int64(bitPattern: sequence))
        }
      }
    }
  }

  /// Folds the journals of processes that are no longer running, then deletes them.
  /// Returns how many were recovered.
  @discardableResult
  func recoverJournals(currentBoot: String) throws -> Int {
    try queue.sync {
      let values = try stateValues()
      var recovered = 0
      for journal in try unfoldedJournals(values)
      where !Journal.isAlive(owner: journal.owner, boot: journal.batch.boot, currentBoot: currentBoot) {
        var batch = journal.batch
        // Visits still open when the process died end at its last checkpoint.
        batch.closedVisits += batch.openVisits
        batch.openVisits = []
        try writeTransaction {
          try apply(batch)
          try setState("folded:" + journal.owner, Int64.max)
        }
        unlink(journal.path)
        recovered += 1
      }
      // Forget markers of journals that are gone.
      let present = Set(Journal.list(storePath: path).map(\.owner))
      for key in values.keys where key.hasPrefix("folded:") && !present.contains(String(key.dropFirst(7))) {
        try database.statement("DELETE FROM state WHERE key = ?").bind(key).run()
      }
      for (owner, journalPath) in Journal.list(storePath: path)
      where values["folded:" + owner]?.0 == Int64.max {
        unlink(journalPath)
      }
      return recovered
    }
  }

  private func setState(_ key: String, _ value: Int64) throws {
    try database.statement(
      "INSERT INTO state(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
    ).bind(key, value).run()
  }

  /// Applies a batch's changes (not its open visits). Runs inside a transaction.
  private func apply(_ batch: CheckpointBatch) throws {
    let day = try database.statement(
      """
      INSERT INTO day_totals(day, screen, nanos) VALUES(?, ?, ?)
      ON CONFLICT(day, screen) DO UPDATE SET nanos = nanos + excluded.nanos
      """)
    for entry in batch.days {
      let id = try entry.screen.map(screenID) ?? 0
      try day.bind(entry.day.description, id, entry.nanos).run()
      day.reset()
    }
    let visits = try database.statement("UPDATE screens SET visits = visits + ? WHERE id = ?")
    for visit in batch.visits {
      try visits.bind(visit.count, try screenID(visit.screen)).run()
      visits.reset()
    }
    let insert = try database.statement(
      "INSERT INTO visits(screen, started_at, ended_at, active_ms) VALUES(?, ?, ?, ?)")
    for visit in batch.closedVisits {
      try insert.bind(
        try screenID(visit.screen), visit.started.millisecondsSince1970, visit.ended.millisecondsSince1970,
        visit.activeNanos / 1_000_000
      ).run()
      insert.reset()
    }
    if batch.sessions != 0 {
      try database.statement(
        """
        INSERT INTO state(key, value) VALUES('sessions', ?)
        ON CONFLICT(key) DO UPDATE SET value = value + excluded.value
        """
      ).bind(batch.sessions).run()
    }
    if let stop = batch.lastStop {
      let current = Self.stop(try stateValues())
      if current.map({ stop.isAfter($0) || stop == $0 }) ?? true {
        try setState("last_stop_mono", stop.mono)
        try database.statement(
          "INSERT INTO state(key, value) VALUES('last_stop_boot', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
        ).bind(stop.boot).run()
        try setState("last_stop_wall", stop.wall.nanosecondsSince1970)
      }
    }
    let unlock = try database.statement(
      "INSERT OR IGNORE INTO unlocks(rule, unlocked_at, mono_ns, boot, points) VALUES(?, ?, ?, ?, ?)")
    for record in batch.unlocks {
      try unlock.bind(
        record.rule, record.wall.millisecondsSince1970, record.mono.nanoseconds, record.boot, record.points
      ).run()
      unlock.reset()
    }
    let award = try database.statement(
      "INSERT INTO awards(source, points, reason, awarded_at) VALUES(?, ?, ?, ?)")
    for item in batch.awards {
      try award.bind(item.source, item.points, item.reason, item.wall.millisecondsSince1970).run()
      award.reset()
    }
    let listener = try database.statement(
      "INSERT INTO listener_state(source, data) VALUES(?, ?) ON CONFLICT(source) DO UPDATE SET data = excluded.data")
    for state in batch.listenerStates {
      try listener.bind(state.source, state.data).run()
      listener.reset()
    }
  }

  /// A transaction that may add screens. If it rolls back (a full disk, say), the screen
  /// ids it cached roll back with it: a stale id would send later visits and screen
  /// totals to a row that does not exist, and lose them.
  private func writeTransaction(_ body: () throws -> Void) throws {
    do {
      try database.transaction(body)
    } catch {
      screenIDs.removeAll()
      throw error
    }
  }

  /// Forgets the cached screen ids (after the screens table was emptied).
  func forgetScreenIDs() { screenIDs.removeAll() }

  private func screenID(_ name: String) throws -> Int64 {
    if let id = screenIDs[name] { return id }
    try database.statement("INSERT OR IGNORE INTO screens(name) VALUES(?)").bind(name).run()
    let select = try database.statement("SELECT id FROM screens WHERE name = ?")
    defer { select.reset() }
    select.bind(name)
    guard try select.step() else {
      throw DatabaseError(code: 1, message: "screen row missing after insert", sql: nil)
    }
    let id = select.int(0)
    screenIDs[name] = id
    return id
  }
}
