// A stand-in's journal (a store locked at launch, #27 item 5): each record bounded, not
// growing with every visit since launch, and nothing lost through a kill.
import DwellTesting
import Foundation
import Testing

@testable import Dwell

/// An engine on a stand-in (the store another process holds locked) never folds into
/// SQLite: each checkpoint wrote everything since launch, one row per visit, so a record
/// grew with every visit (a checkpoint's cost, and the time a kill loses, grew with the
/// session; past a slot's 512 KiB the rows were left out). Past a few thousand visits its
/// changes now go into a journal of their own, left beside the store, and the live
/// journal starts afresh; the store recovers every one of them.
@Suite struct StandInJournalTests {
  /// `count` visits of 24 ms to S0...S9 on a manual clock (checkpoints every 5 s).
  func session(_ engine: Engine, _ clock: ManualClock, visits count: Int, from first: Int = 0) {
    for visit in first..<(first + count) {
      engine.record(.appear(screen: "S\(visit % 10)", id: ScreenInstance("v\(visit)")))
      clock.advance(by: .milliseconds(24))
      engine.record(.disappear(id: ScreenInstance("v\(visit)")))
    }
  }

  /// The largest record among the journals beside the store, in bytes.
  func largestRecord(_ path: String) -> Int {
    Journal.list(storePath: path).compactMap { Journal.read(path: $0.path)?.payload.count }.max() ?? 0
  }

  @Test func recordsStayBoundedAndAKillLosesNoVisit() throws {
    let store = TemporaryStore()
    let clock = ManualClock()
    let wall = ManualWallClock(clock: clock)
    let visits = 8_000
    do {
      let engine = try Engine(store: Store.standIn(for: store.path), clock: clock, wallClock: wall, scheduler: clock)
      engine.record(.active)
      var largest = 0
      for part in 0..<8 {
        session(engine, clock, visits: visits / 8, from: part * visits / 8)
        largest = max(largest, largestRecord(store.path))
      }
      // 2,048 rows of about 30 bytes, and what a checkpoint interval adds; before, the
      // last record held all 8,000 rows (about 230 KB).
      #expect(largest < 120_000, "a record of \(largest) bytes")
      engine.record(.appear(screen: "Open", id: ScreenInstance("open")))
      clock.advance(by: .seconds(6))  // a checkpoint with the visit open
      engine.abandon()  // killed
    }
    let engine = try Engine(store: Store(path: store.path), clock: clock, wallClock: wall, scheduler: clock)
    let total = (0..<10).reduce(0) { $0 + engine.visits("S\($1)") }
    #expect(total == visits)
    #expect(engine.time(.screen("S3")) == .milliseconds(24 * visits / 10))
    #expect(engine.visits("Open") == 1)
    let rows = try engine.store.visits()
    #expect(rows.filter { $0.screen.hasPrefix("S") }.count == visits, "a row per visit")
    #expect(rows.filter { $0.screen == "Open" }.count == 1, "the open visit once")
    engine.terminate()
    #expect(Journal.list(storePath: store.path).isEmpty, "every journal recovered")
  }
}
