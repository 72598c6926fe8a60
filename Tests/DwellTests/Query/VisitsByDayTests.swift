import DwellTesting
import Foundation
import Testing

// Visits in a period, like time in a period: counted on the day each visit begins, kept
// per day in memory, in journals and in the store, and through the upgrade of a store
// written before visits were kept by day.
@testable import Dwell

@Suite struct VisitsByDayTests {
  /// The answers for "Lessons" that every engine below must give: three visits began on
  /// 4 May (one still open at midnight), one on 5 May.
  private func expectMayVisits(_ engine: Engine, _ moment: String, extra: Int = 0) {
    #expect(engine.visits("Lessons", in: .today) == 1 + extra, "\(moment)")
    #expect(engine.visits("Lessons", in: .yesterday) == 3, "\(moment)")
    #expect(engine.visits("Lessons", in: .lastDays(2)) == 4 + extra, "\(moment)")
    #expect(engine.visits("Lessons", in: .lastDays(1)) == 1 + extra, "\(moment)")
    #expect(engine.visits("Lessons", in: .day(day("2026-05-04"))) == 3, "\(moment)")
    #expect(engine.visits("Lessons", in: .days(day("2026-05-01")...day("2026-05-03"))) == 0, "\(moment)")
    #expect(engine.visits("Lessons") == 4 + extra, "\(moment)")
    #expect(engine.visits(" Lessons\n", in: .yesterday) == 3, "\(moment): names are cleaned")
    #expect(engine.visits("Quiz", in: .today) == 0, "\(moment)")
  }

  @Test func visitsByDayAcrossMidnightAndRelaunches() throws {
    // 22:00 in Berlin: midnight comes two hours in.
    let rig = Rig(wall: "2026-05-04T20:00:00Z")
    var engine = try rig.launch()
    engine.record(.active)
    for id in ["a", "b"] {
      engine.record(.appear(screen: "Lessons", id: ScreenInstance(id)))
      rig.advance(60)
      engine.record(.disappear(id: ScreenInstance(id)))
    }
    rig.advance(3600)  // 23:02
    engine.record(.appear(screen: "Lessons", id: ScreenInstance("open-at-midnight")))
    #expect(engine.visits("Lessons", in: .today) == 3)
    rig.advance(3600)  // 00:02 on 5 May
    engine.record(.disappear(id: ScreenInstance("open-at-midnight")))
    engine.record(.appear(screen: "Lessons", id: ScreenInstance("c")))
    rig.advance(30)
    engine.record(.disappear(id: ScreenInstance("c")))
    expectMayVisits(engine, "before the relaunch")

    // A clean relaunch reads the counts from the store.
    engine.terminate()
    engine = try rig.launch()
    expectMayVisits(engine, "after a clean relaunch")

    // A crash after a journal write: the next launch recovers the counts from the journal.
    engine.record(.active)
    engine.record(.appear(screen: "Lessons", id: ScreenInstance("d")))
    rig.advance(30)
    engine.record(.disappear(id: ScreenInstance("d")))
    engine.checkpoint()
    engine.abandon()
    engine = try rig.launch()
    expectMayVisits(engine, "after a crash", extra: 1)
    engine.terminate()
  }

  /// A store made by a Dwell without visits by day (migrations v1 and v2) opens with its
  /// totals intact, gets per-day counts from its visit rows, and counts on from there.
  @Test func aStoreFromBeforeVisitsByDayIsUpgraded() throws {
    let rig = Rig(wall: "2026-05-04T14:00:00Z")
    do {
      let database = try Database(path: rig.store.path)
      try database.execute(
        "CREATE TABLE dwell_migrations(identifier TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
      for migration in Store.migrations.prefix(2) {
        try database.execute(migration.sql)
        try database.execute("INSERT INTO dwell_migrations VALUES('\(migration.id)', '2026-01-01')")
      }
      // Noon UTC is the same date in every zone the tests run in (the backfill uses the local one).
      let may3 = 1_777_809_600_000  // 2026-05-03T12:00:00Z in ms
      try database.execute(
        """
        INSERT INTO screens(id, name, visits) VALUES(1, 'Lessons', 5);
        INSERT INTO day_totals(day, screen, nanos) VALUES('2026-05-03', 0, 90000000000), ('2026-05-03', 1, 60000000000);
        INSERT INTO visits(screen, started_at, ended_at, active_ms) VALUES
          (1, \(may3), \(may3 + 30000), 30000), (1, \(may3 + 60000), \(may3 + 90000), 30000),
          (1, \(may3 + 86_400_000), \(may3 + 86_430_000), 0);
        """)
    }
    #expect(
      throws: Never.self, "a read-only look at the old store still works",
      performing: { _ = try UsageReport(store: Store(path: rig.store.path, readOnly: true)) })
    var engine = try rig.launch()
    #expect(engine.visits("Lessons") == 5, "the all-time count stays, with the two visits no row records")
    #expect(engine.visits("Lessons", in: .yesterday) == 2)
    #expect(engine.visits("Lessons", in: .today) == 1)
    #expect(engine.time(.screen("Lessons"), in: .yesterday) == .seconds(60))
    #expect(engine.time(.app, in: .yesterday) == .seconds(90))
    #expect(engine.time(.screen("Lessons"), in: .today) == .zero, "a day with visits only has no time")
    #expect(engine.activeDays(.screen("Lessons")) == 1)
    engine.record(.active)
    engine.record(.appear(screen: "Lessons", id: ScreenInstance("new")))
    rig.advance(10)
    engine.record(.disappear(id: ScreenInstance("new")))
    engine.terminate()
    engine = try rig.launch()
    #expect(engine.visits("Lessons", in: .today) == 2)
    #expect(engine.visits("Lessons", in: .lastDays(7)) == 4)
    #expect(engine.visits("Lessons") == 6)
    engine.terminate()
  }

  /// A journal written before visits were kept by day (format 1) still recovers: its visit
  /// counts go to the all-time total only. Format 2 round-trips the day.
  @Test func journalRecordsOfBothFormatsDecode() throws {
    var batch = CheckpointBatch(boot: "b")
    batch.visits = [
      .init(screen: "Lessons", day: day("2026-05-04"), count: 2), .init(screen: "Quiz", day: nil, count: 1),
    ]
    #expect(CheckpointBatch(decoding: batch.encoded()[...]) == batch)

    // Format 1, as the previous release wrote it: a visit count is a name and a number.
    var old = BinaryWriter()
    old.int(1)
    old.string("b")
    old.int(0)  // day totals
    old.int(1)
    old.string("Lessons")
    old.int(2)
    for _ in 0..<3 { old.int(0) }  // closed visits, open visits, sessions
    old.bool(false)  // no stop
    for _ in 0..<3 { old.int(0) }  // unlocks, awards, listener states
    let decoded = try #require(CheckpointBatch(decoding: old.bytes[...]))
    #expect(decoded.visits == [.init(screen: "Lessons", day: nil, count: 2)])
  }
}
