// A fold's batch rides in every journal record written while its transaction runs, and is
// recovered only if that transaction never committed (#27 item 8: `background` no longer
// waits for a fold to write the journal).
import DwellTesting
import Foundation
import Testing

@testable import Dwell

/// The writer folds without the commit lock held, so a checkpoint (`background`'s) may
/// write a record while a fold's SQLite transaction runs. The fold took its batch out of
/// memory, so that record carries it (``CheckpointBatch/InFlightFold``) with the journal
/// sequence the fold's transaction marks the store with. A kill at any moment then leaves
/// one of two stores, and recovery counts the batch exactly once in both.
@Suite struct FoldUnderWayTests {
  private func batch(app nanos: Int64, screen: String = "Lessons") -> CheckpointBatch {
    var batch = CheckpointBatch(boot: "manual-boot")
    let today = Day("2026-05-04")!
    batch.days = [.init(day: today, screen: nil, nanos: nanos), .init(day: today, screen: screen, nanos: nanos)]
    batch.visits = [.init(screen: screen, day: today, count: 1)]
    batch.closedVisits = [
      VisitRecord(
        screen: screen, started: WallInstant(nanosecondsSince1970: 0),
        ended: WallInstant(nanosecondsSince1970: nanos), activeNanos: nanos)
    ]
    return batch
  }

  /// The fold's batch, journaled as its own record first, then a record of what came after
  /// it that carries the fold under way.
  private func journalDuringAFold(_ store: TemporaryStore) throws -> (Journal, CheckpointBatch) {
    let journal = try Journal(storePath: store.path)
    let folding = batch(app: 4_000_000_000)
    try journal.write(folding)
    let marker = journal.sequence
    var after = batch(app: 2_000_000_000, screen: "Quiz")
    after.inFlight = CheckpointBatch.InFlightFold(marker: marker, payload: folding.encoded())
    try journal.write(after)
    return (journal, folding)
  }

  @Test func aRecordCarryingAFoldRoundTrips() throws {
    var record = batch(app: 1)
    #expect(record.encoded().first == 3, "a record without a fold keeps the format before")
    record.inFlight = CheckpointBatch.InFlightFold(marker: 7, payload: batch(app: 2).encoded())
    #expect(CheckpointBatch(decoding: record.encoded()[...]) == record)
    #expect(CheckpointBatch(decoding: record.encoded().dropLast()) == nil)
  }

  @Test func aKillBeforeTheFoldCommitsRecoversItsBatchFromTheRecord() throws {
    let store = TemporaryStore()
    let db = try Store(path: store.path)
    let (journal, _) = try journalDuringAFold(store)
    journal.abandon()  // killed mid-transaction: the fold never committed
    #expect(try db.recoverJournals(currentBoot: "manual-boot") == 1)
    let usage = try db.load()
    #expect(usage.app.nanos == 6_000_000_000, "the fold's batch was lost")
    #expect(usage.screens.map(\.visits).reduce(0, +) == 2)
    #expect(try db.visits().count == 2)
  }

  @Test func aKillAfterTheFoldCommitsCountsItsBatchOnce() throws {
    let store = TemporaryStore()
    let db = try Store(path: store.path)
    let (journal, folding) = try journalDuringAFold(store)
    try db.fold(folding, journal: journal.owner, sequence: 1)  // the fold's transaction commits
    journal.abandon()  // killed before the record that follows the fold
    #expect(try db.recoverJournals(currentBoot: "manual-boot") == 1)
    let usage = try db.load()
    #expect(usage.app.nanos == 6_000_000_000, "the fold's batch was counted twice (or lost)")
    #expect(usage.screens.map(\.visits).reduce(0, +) == 2)
    #expect(try db.visits().count == 2)
  }
}
