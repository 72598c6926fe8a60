import DwellTesting
import Foundation
import Testing

@testable import Dwell

@Suite struct StoreTests {
  /// What the store asserts at every access to its connection and caches (debug builds):
  /// true inside its own reads and writes, false on the caller's thread and on another
  /// store's queue.
  @Test func theStoreKnowsWhetherItRunsOnItsQueue() throws {
    let store = try Store(path: ":memory:")
    let other = try Store(path: ":memory:")
    #expect(!store.isOnQueue)
    #expect(try store.read { _ in store.isOnQueue })
    #expect(try store.write { _ in store.isOnQueue })
    #expect(try other.write { _ in !store.isOnQueue && other.isOnQueue })
    #expect(!DispatchQueue(label: "elsewhere").sync { store.isOnQueue })
  }

  @Test func everythingUpToBackgroundSurvivesACrash() throws {
    let rig = Rig()
    var engine = try rig.launch()
    engine.record(.appear(screen: "Lessons", id: ScreenInstance("l")))
    engine.record(.active)
    rig.advance(100.5)
    engine.record(.background)
    rig.advance(1)
    engine.abandon()  // kill -9
    engine = try rig.launch()
    let report = engine.report()
    #expect(seconds(report.app.time) == 100.5)
    #expect(seconds(report.screens["Lessons"]!.time) == 100.5)
    #expect(report.screens["Lessons"]!.visits == 1)
    #expect(report.sessions == 1)
  }

  @Test func aCrashWhileActiveLosesAtMostTheCheckpointInterval() throws {
    for crashAfter in [0.5, 1.999, 2.0, 7.3, 61.0, 10 * 365 * 86_400 + 1.3] {
      let rig = Rig()
      var engine = try rig.launch()
      engine.record(.active)
      engine.record(.appear(screen: "Game", id: ScreenInstance("g")))
      rig.advance(crashAfter)
      engine.abandon()
      engine = try rig.launch()
      let kept = engine.report().app.time.seconds
      #expect(kept <= crashAfter + 0.001)
      #expect(kept >= crashAfter - 2.001, "crash after \(crashAfter)s kept \(kept)s")
    }
  }

  /// A clock that jumps (a replay, the harness) checkpoints once before the instant it
  /// jumps to, not once every interval: ten years of use in one step is one checkpoint,
  /// where it was 158 million (a fuzzed trace made `dwell replay` run for hours).
  @Test func aJumpOfTheClockCheckpointsOnceBeforeItsEnd() throws {
    let rig = Rig()
    let engine = try rig.launch()
    engine.record(.active)
    rig.advance(10 * 365 * 86_400)
    // The one scheduled before the jump was known, and the one in its last interval.
    #expect(engine.periodicCheckpoints == 2)
    for _ in 0..<10 { rig.advance(1) }  // time in small steps: one every interval
    #expect(engine.periodicCheckpoints == 7)
    #expect(engine.report().app.time == .seconds(10 * 365 * 86_400 + 10))
    engine.terminate()
  }

  @Test func unlocksArePersistedBeforeTheyAreAnnounced() throws {
    let rig = Rig(configuration: .init(rules: [Rule("minute", when: .appTime(.seconds(60)))]))
    let engine = try rig.launch()
    let path = rig.store.path
    let seenInStore = LockedBox<[String]>([])
    engine.onUnlock { record in
      let persisted = (try? UsageReport(store: Store(path: path, readOnly: true)))?.unlocks.keys
      seenInStore.update { $0.append(contentsOf: persisted.map(Array.init) ?? []) }
      #expect(record.rule == "minute")
    }
    engine.record(.active)
    rig.advance(59.999)
    #expect(engine.report().unlocks.isEmpty)
    rig.advance(0.001)
    #expect(engine.report().unlocks["minute"]?.mono == MonotonicInstant(nanoseconds: 60_000_000_000))
    #expect(seenInStore.value == ["minute"])
    engine.abandon()
    let again = try rig.launch()
    #expect(again.report().unlocks["minute"] != nil)
  }

  @Test func reportFromTheStoreMatchesTheEngine() throws {
    let rig = Rig(wall: "2026-03-01T22:00:00Z")
    let engine = try rig.launch()
    engine.record(.active)
    for i in 0..<50 {
      engine.record(.appear(screen: "S\(i % 7)", id: ScreenInstance("\(i)")))
      rig.advance(97.25)
      engine.record(.disappear(id: ScreenInstance("\(i)")))
    }
    engine.terminate()
    let live = engine.report()
    let stored = try UsageReport(store: Store(path: rig.store.path, readOnly: true))
    #expect(live == stored)
    #expect(stored.app.days.count == 2)
  }

  /// A forged or damaged store whose totals are past what a day can hold, or negative, is
  /// damaged: refused at open naming the row, not added up (it once had to saturate at
  /// 292 years). Sums over days that may be stored saturate (StoreValueTests).
  @Test(arguments: [
    "INSERT INTO day_totals(day, screen, nanos) VALUES('2026-01-01', 0, 9000000000000000000)",
    "INSERT INTO day_totals(day, screen, nanos) VALUES('2026-01-03', 0, -5000000000)",
    "INSERT INTO day_totals(day, screen, nanos, visits) VALUES ('2026-01-01', 1, 0, 9223372036854775807)",
    "INSERT INTO day_totals(day, screen, nanos, visits) VALUES ('2026-01-03', 1, 0, -7)",
  ])
  func absurdTotalsInTheStoreAreDamage(sql: String) throws {
    let store = TemporaryStore()
    _ = try Store(path: store.path)
    try Store(path: store.path).write {
      try $0.execute("INSERT INTO screens(id, name, visits) VALUES(1, 'S', 2);" + sql)
    }
    do {
      _ = try UsageReport(store: Store(path: store.path, readOnly: true))
      Issue.record("\(sql): opened")
    } catch StoreError.database(let error) {
      #expect(error.isCorruption && error.message.contains("table 'day_totals', day '2026-01-0"), "\(error)")
    }
  }

  @Test func aStoreFromANewerSchemaIsLeftUntouched() throws {
    let store = TemporaryStore()
    // Simulate a newer Dwell: add a migration this build does not know.
    try Store(path: store.path).write {
      try $0.execute("INSERT INTO dwell_migrations VALUES('v99-future', '2030-01-01')")
    }
    let before = try Data(contentsOf: URL(fileURLWithPath: store.path))
    #expect {
      _ = try Store(path: store.path)
    } throws: { error in
      guard case StoreError.newerSchema(let migration) = error else { return false }
      return migration == "v99-future"
    }
    let after = try Data(contentsOf: URL(fileURLWithPath: store.path))
    #expect(before == after)
  }

  @Test func aFileThatIsNotSQLiteIsAnError() throws {
    let store = TemporaryStore()
    try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: store.path))
    #expect(throws: StoreError.self) { _ = try Store(path: store.path) }
  }
}

/// A value behind a lock, for test callbacks.
final class LockedBox<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value
  init(_ value: Value) { stored = value }
  var value: Value { lock.withLock { stored } }
  func update(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}

@Suite struct StoreLockTests {
  /// A statement left on a row kept a read transaction open and blocked WAL checkpoints
  /// ("database table is locked"); every single-row read now resets its statement.
  @Test func readsLeaveNoTransactionOpen() throws {
    let dir = TemporaryStore()
    let store = try Store(path: dir.path)
    let rig = Rig()
    _ = rig
    _ = try store.summary()
    #expect(try store.pruneVisits(endedBefore: WallInstant(nanosecondsSince1970: 0)) == 0)
    #expect(try store.integrityCheck() == ["ok"])
    #expect(try store.erase().visits == 0)
  }
}
