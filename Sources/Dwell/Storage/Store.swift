internal import Dispatch
internal import Foundation

#if canImport(Darwin)
  internal import Darwin
#elseif canImport(Glibc)
  internal import Glibc
#endif

/// The durable store: one SQLite file in WAL mode, owned by one serial queue.
///
/// The schema (see the DocC article "The store") keeps per-day rollups for the app
/// (`screen = 0`) and for each screen, so totals never scan raw rows, plus raw visits for
/// export. Writes arrive as checkpoint batches of additive deltas, so two processes
/// sharing a store (an app and its extension) never overwrite each other's time.
package final class Store: @unchecked Sendable {
  // @unchecked: every access to `database` and the caches happens on `queue`, which debug
  // builds assert at each access (``isOnQueue``), as GRDB's connections check their queue.
  /// The file's path.
  package let path: String
  private let queue = DispatchQueue(label: "dwell.store")
  /// Marks `queue` (its value is `true` there and on nothing else): see ``isOnQueue``.
  private let queueKey = DispatchSpecificKey<Bool>()
  private let connection: Database
  private var storedScreenIDs: [String: Int64] = [:]

  /// The connection, on `queue` only (asserted in debug builds; never checked in release).
  var database: Database {
    assert(isOnQueue, "the store's connection is used off the store's queue")
    return connection
  }

  /// Screen ids by name, as the `screens` table has them (see ``forgetScreenIDs()``); on
  /// `queue` only, as ``database``.
  var screenIDs: [String: Int64] {
    get {
      assert(isOnQueue, "the store's screen ids are read off the store's queue")
      return storedScreenIDs
    }
    _modify {
      assert(isOnQueue, "the store's screen ids are changed off the store's queue")
      yield &storedScreenIDs
    }
  }

  /// Whether the caller runs on the store's queue: what every access to the connection and
  /// the caches asserts in debug builds.
  var isOnQueue: Bool { DispatchQueue.getSpecific(key: queueKey) == true }

  /// Whether the store is a file (not an in-memory database), so a journal can sit beside it.
  var isFile: Bool { !path.isEmpty && path != ":memory:" && !path.hasPrefix("file:") && !readOnly }
  private let readOnly: Bool
  /// For a stand-in (``Store/standIn(for:)``): the store file it stands in for while that
  /// one is locked by another process. Its engine journals beside that file and never
  /// folds, so the journal holds everything it counted until the file's store recovers it.
  let standingInFor: String?

  /// Where an engine on this store keeps its journal: beside the file, or beside the file
  /// a stand-in stands in for; `nil` for a store in memory.
  var journalStorePath: String? { standingInFor ?? (isFile ? path : nil) }

  /// Opens the store at `path`, creating it and migrating it as needed, waiting at most
  /// `busyTimeout` milliseconds for a lock another connection holds.
  ///
  /// - Throws: ``StoreError/newerSchema(migration:)`` for a store from a newer Dwell (left
  ///   untouched), ``StoreError/database(_:)`` when SQLite cannot open or read it.
  package convenience init(path: String, readOnly: Bool = false, busyTimeout: Int32 = 5_000) throws {
    try self.init(path: path, readOnly: readOnly, busyTimeout: busyTimeout, standingInFor: nil)
  }

  private init(path: String, readOnly: Bool, busyTimeout: Int32, standingInFor: String?) throws {
    self.path = path
    self.readOnly = readOnly
    self.standingInFor = standingInFor
    try Self.refuseSpecialFiles(at: path)
    connection = try StoreError.mapping { try Database(path: path, readOnly: readOnly, busyTimeout: busyTimeout) }
    queue.setSpecific(key: queueKey, value: true)
    // Nothing else has the store yet: opening and migrating run on the caller's thread.
    let database = connection
    try StoreError.mapping {
      if !readOnly {
        // Switching a new file to WAL does not wait on the busy handler: when another
        // process (an app extension) opens the same new store at that moment, retry.
        var attempt = 0
        while true {
          do {
            try database.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")
            break
          } catch let error as DatabaseError where error.resultCode.primary == .busy && attempt < 100 {
            attempt += 1
            usleep(20_000)
          }
        }
      }
      try Self.migrate(database, readOnly: readOnly)
    }
  }

  /// An empty store in memory standing in for the one at `path` while another process holds
  /// it locked (see ``standingInFor``).
  static func standIn(for path: String) throws -> Store {
    try Store(path: ":memory:", readOnly: false, busyTimeout: 0, standingInFor: path)
  }

  /// Refuses a store, write-ahead log or shared-memory file that exists but is not a
  /// regular file (a FIFO, a device, a socket, a directory; links followed): opening one
  /// can block for ever (a FIFO waits for a writer) or read without end.
  private static func refuseSpecialFiles(at path: String) throws {
    guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else { return }
    for file in [path, path + "-wal", path + "-shm"] {
      guard let kind = SpecialFile.at(file) else { continue }
      throw StoreError.database(DatabaseError(.cannotOpen, message: "\(file) is \(kind.rawValue), not a store file"))
    }
  }

  /// Runs `body` with the connection on the store's queue, refusing any statement that
  /// would write. SQLite's errors come out as ``StoreError/database(_:)``.
  func read<T>(_ body: (Database) throws -> T) throws -> T {
    try queue.sync { try StoreError.mapping { try database.readOnly { try body(database) } } }
  }

  /// Runs `body` with the connection on the store's queue. SQLite's errors come out as
  /// ``StoreError/database(_:)``.
  func write<T>(_ body: (Database) throws -> T) throws -> T {
    try queue.sync { try StoreError.mapping { try body(database) } }
  }

  /// Everything the engine needs to resume: totals, per-day rollups, sessions, unlocks,
  /// plus the unfolded changes of journals still beside the store (a process that is
  /// running, or whose journal was not yet recovered).
  func load() throws -> RestoredUsage {
    try read { database in
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
      // A store opened read-only may predate visits by day (v3-day-visits): none then.
      let dated =
        try database.scalar(
          "SELECT COUNT(*) FROM dwell_migrations WHERE identifier = 'v3-day-visits'") ?? 0 > 0
      // The rows come by day; they are gathered by subject (the app last) first, so that
      // each subject's day tables are made at their final size: grown row by row, a
      // year's table was rehashed about nine times, a quarter of opening a year's store.
      var rows = [[DayRow]](repeating: [], count: usage.screens.count + 1)
      let days = try database.statement(
        "SELECT day, screen, nanos, \(dated ? "visits" : "0") FROM day_totals")
      while try days.step() {
        // A figure Dwell never writes means the store is damaged (Store+Values).
        guard let day = days.day(0), Self.isPossibleDayTotal(days) else {
          throw Self.damagedDayTotals(database, dated: dated)
        }
        let screen = days.int(1)
        guard let subject = screen == 0 ? usage.screens.count : names[screen] else { continue }
        let visits = screen == 0 ? 0 : Int(days.int(3))
        rows[subject].append(DayRow(day: day, nanos: days.int(2), visits: visits))
      }
      for (subject, rows) in rows.enumerated() where !rows.isEmpty {
        if subject == usage.screens.count {
          usage.app.add(rows)
        } else {
          usage.screens[subject].tally.add(rows)
        }
      }
      try loadGroups(database, into: &usage, byName: &byName)
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
      try loadCounts(database, into: &usage)
      let listeners = try database.statement("SELECT source, data FROM listener_state")
      while try listeners.step() { usage.listenerStates[listeners.text(0)] = listeners.text(1) }
      try addUnfoldedJournals(values, to: &usage, screens: &byName)
      return usage
    }
  }

  /// Reads the screen groups' time by day, as screens under the groups' names (a store
  /// before v5-screen-groups has none).
  private func loadGroups(_ database: Database, into usage: inout RestoredUsage, byName: inout [String: Int]) throws {
    let migrated = "SELECT COUNT(*) FROM dwell_migrations WHERE identifier = 'v5-screen-groups'"
    guard try database.scalar(migrated) ?? 0 > 0 else { return }
    var rows: [String: [DayRow]] = [:]
    let groups = try database.statement("SELECT day, screens, nanos FROM group_days")
    while try groups.step() {
      guard let day = groups.day(0), groups.int(2) >= 0, !groups.text(1).isEmpty else {
        throw DatabaseError(
          .corrupt, message: "the store is damaged: table 'group_days' holds a row Dwell never writes")
      }
      rows[groups.text(1), default: []].append(DayRow(day: day, nanos: groups.int(2), visits: 0))
    }
    for (members, days) in rows.sorted(by: { $0.key < $1.key }) {
      let name = ScreenGroup.name(members.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
      var tally = Tally()
      tally.add(days)
      byName[name] = usage.screens.count
      usage.screens.append((name, tally, 0))
    }
  }

  /// Reads actions, sessions by day and earnings (a store before v4-actions has none).
  private func loadCounts(_ database: Database, into usage: inout RestoredUsage) throws {
    guard try database.scalar("SELECT COUNT(*) FROM dwell_migrations WHERE identifier = 'v4-actions'") ?? 0 > 0 else {
      return
    }
    let counts = try database.statement("SELECT day, kind, name, count FROM day_counts")
    while try counts.step() {
      guard let day = Day(counts.text(0)), counts.int(3) >= 0, let count = Int(exactly: counts.int(3)) else {
        throw DatabaseError(
          .corrupt, message: "the store is damaged: table 'day_counts' holds a row Dwell never writes")
      }
      if counts.text(1) == "session" {
        usage.sessionDays[day, default: 0].addSaturating(count)
      } else {
        usage.actions[counts.text(2), default: ActionTally()].add(count, on: day)
      }
    }
    let earnings = try database.statement(
      "SELECT rule, period, earned_at, mono_ns, boot, points FROM earnings ORDER BY mono_ns")
    while try earnings.step() {
      usage.earnings.append(
        UnlockRecord(
          rule: earnings.text(0), mono: MonotonicInstant(nanoseconds: earnings.int(3)), boot: earnings.text(4),
          wall: WallInstant(nanosecondsSince1970: earnings.int(2) &* 1_000_000), points: Int(earnings.int(5)),
          period: earnings.text(1)))
    }
  }

  func stateValues() throws -> [String: (Int64, String)] {
    let state = try database.statement("SELECT key, value FROM state")
    var values: [String: (Int64, String)] = [:]
    while try state.step() { values[state.text(0)] = (state.int(1), state.text(1)) }
    return values
  }

  static func stop(_ values: [String: (Int64, String)]) -> StopMark? {
    guard let mono = values["last_stop_mono"]?.0, let boot = values["last_stop_boot"]?.1,
      let wall = values["last_stop_wall"]?.0
    else { return nil }
    return StopMark(mono: mono, boot: boot, wall: WallInstant(nanosecondsSince1970: wall))
  }
}
