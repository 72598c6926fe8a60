import DwellTesting
import Foundation
import Testing

@testable import Dwell

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// A store holding a value Dwell never writes (a number out of range, a text in a number
/// column, a day that is not a day, a name past the caps) is damaged: found at open, moved
/// aside by a tracker, named by table and row for the tool; and a path that is not a
/// regular file is refused before it is opened.
@Suite struct StoreValueTests {
  /// Edits of a healthy store, each an impossible value in one table (the raw visits apart).
  static let damages: [(sql: String, table: String)] = [
    ("UPDATE unlocks SET unlocked_at = 9e18", "unlocks"),
    ("UPDATE unlocks SET points = 4611686018427387904", "unlocks"),
    ("UPDATE unlocks SET mono_ns = 'soon'", "unlocks"),
    ("UPDATE screens SET visits = 9223372036854775807 WHERE id = 2", "screens"),
    ("UPDATE screens SET visits = -1 WHERE id = 2", "screens"),
    ("UPDATE screens SET name = printf('%.*c', 1000000, 'x') WHERE id = 2", "screens"),
    ("UPDATE screens SET name = '' WHERE id = 2", "screens"),
    ("UPDATE day_totals SET nanos = 9223372036854775807 WHERE screen = 0", "day_totals"),
    ("UPDATE day_totals SET nanos = -5 WHERE screen = 1", "day_totals"),
    ("UPDATE day_totals SET nanos = 'lots' WHERE screen = 1", "day_totals"),
    ("UPDATE day_totals SET nanos = 1e300 WHERE screen = 1", "day_totals"),
    ("UPDATE day_totals SET visits = x'ff00' WHERE screen = 1", "day_totals"),
    ("UPDATE day_totals SET day = '9999-99-99' WHERE screen = 1", "day_totals"),
    ("UPDATE day_totals SET day = '' WHERE screen = 1", "day_totals"),
    ("UPDATE day_totals SET day = '2026-02-30' WHERE screen = 1", "day_totals"),
    ("INSERT INTO awards(source, points, reason, awarded_at) VALUES ('x', 1, '', 9e18)", "awards"),
    ("INSERT OR REPLACE INTO state(key, value) VALUES ('sessions', -5)", "state"),
    ("INSERT OR REPLACE INTO state(key, value) VALUES ('last_stop_wall', x'deadbeef')", "state"),
  ]

  /// A healthy store's bytes with `sql` applied (and checkpointed into the file).
  static func damaged(_ sql: String, at path: String) throws -> Data {
    let (healthy, _) = try StoreIntegrityTests.writtenStore(at: path)
    Store.removeFiles(at: path)
    try healthy.write(to: URL(fileURLWithPath: path))
    do {
      let database = try Database(path: path)
      try database.execute(sql)
      try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
    return try Data(contentsOf: URL(fileURLWithPath: path))
  }

  /// Reading the store (the tool's report, export and check) refuses each one naming the table; a
  /// tracker moves the store aside and counts in a fresh one, as for a garbled page.
  @Test(arguments: damages.indices)
  func anImpossibleValueIsADamagedStore(damage: Int) throws {
    let (sql, table) = Self.damages[damage]
    let dir = TemporaryStore()
    let bytes = try Self.damaged(sql, at: dir.path)
    #expect(throws: StoreError.self, "\(sql)") {
      do {
        _ = try UsageReport(store: Store(path: dir.path, readOnly: true))
      } catch StoreError.database(let error) {
        #expect(error.isCorruption, "\(sql): \(error)")
        #expect(error.message.contains("damaged: table '\(table)'"), "\(sql): \(error)")
        throw StoreError.database(error)
      }
    }
    let (problem, fresh) = try StoreIntegrityTests.open(bytes, at: dir.path)
    #expect(StoreIntegrityTests.isMovedAside(problem) && fresh, "\(sql): \(String(describing: problem))")
  }

  /// A raw visit's impossible value (read only by an export, and by `dwell check`) makes
  /// the export throw naming the row, where `active_ms` trapped converting to nanoseconds.
  @Test(arguments: [
    "UPDATE visits SET active_ms = 9223372036854775807 WHERE id = 3",
    "UPDATE visits SET started_at = 'then' WHERE id = 3",
    "UPDATE visits SET ended_at = -9223372036854775808 WHERE id = 3",
  ])
  func anImpossibleVisitFailsTheExport(sql: String) throws {
    let dir = TemporaryStore()
    _ = try Self.damaged(sql, at: dir.path)
    let store = try Store(path: dir.path, readOnly: true)
    for read in [{ _ = try store.export(.json) }, { _ = try store.export(.csv) }, { try store.checkVisits() }] {
      do {
        try read()
        Issue.record("\(sql): read without an error")
      } catch {
        #expect("\(error)".contains("damaged: table 'visits', id 3"), "\(sql): \(error)")
      }
    }
  }

  /// Sums over stored figures saturate: a year of days each at the most a store may hold
  /// answers the largest duration for all time and for a period, instead of trapping.
  @Test func sumsOverStoredDaysSaturate() throws {
    let dir = TemporaryStore()
    _ = try Self.damaged(
      """
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
      INSERT OR REPLACE INTO day_totals(day, screen, nanos, visits)
        SELECT date('2026-01-01', '-' || i || ' days'), 0, \(Store.maximumDayNanos), 0 FROM n
      """, at: dir.path)
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(dir.path)
    let sim = TrackerSimulation(configuration: configuration)
    #expect(sim.tracker.lastProblem == nil)
    #expect(sim.tracker.time(.app) == .nanoseconds(Int64.max))
    #expect(sim.tracker.time(.app, in: .lastDays(100_000)) == .nanoseconds(Int64.max))
  }

  /// A FIFO where the store (or its write-ahead log) should be is refused by name before
  /// it is opened: opening it read-only waited for a writer for ever.
  @Test(arguments: ["", "-wal"])
  func aFIFOIsRefusedBeforeItIsOpened(suffix: String) throws {
    let dir = TemporaryStore()
    if !suffix.isEmpty { _ = try StoreIntegrityTests.writtenStore(at: dir.path) }
    let fifo = dir.path + suffix
    try withFIFO(at: fifo) {
      do {
        _ = try Store(path: dir.path, readOnly: true)
        Issue.record("a FIFO at \(fifo) was opened")
      } catch {
        #expect("\(error)".contains("\(fifo) is a FIFO, not a store file"), "\(error)")
      }
    }
  }

  /// `dwell erase` deletes a damaged store (it cannot be emptied and still holds the user's
  /// data; erase stopped at open) and, for a healthy one too, the damaged stores an app
  /// moved aside beside it.
  @Test(arguments: [true, false])
  func eraseLeavesNoDataBehind(damaged: Bool) throws {
    let dir = TemporaryStore()
    if damaged {
      _ = try Self.damaged(Self.damages[0].sql, at: dir.path)
    } else {
      _ = try StoreIntegrityTests.writtenStore(at: dir.path)
    }
    let aside = dir.path + ".corrupt-1764547200"
    try Data("a store moved aside".utf8).write(to: URL(fileURLWithPath: aside))
    let erase = try CommandLineTests.dwell(["erase", dir.path])
    #expect(erase.status == 0, "\(erase.stderr)")
    #expect(erase.stdout.contains(damaged ? "the store was damaged" : "300 visits"), "\(erase.stdout)")
    #expect(!FileManager.default.fileExists(atPath: aside))
    #expect(FileManager.default.fileExists(atPath: dir.path) == !damaged)
  }
}
