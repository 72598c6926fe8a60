import DwellTesting
import Foundation
import Testing

@testable import Dwell

@Suite struct JournalTests {
  private func batch(app nanos: Int64, screen: String = "Lessons", boot: String = "manual-boot") -> CheckpointBatch {
    var batch = CheckpointBatch(boot: boot)
    let today = Day("2026-05-04")!
    batch.days = [.init(day: today, screen: nil, nanos: nanos), .init(day: today, screen: screen, nanos: nanos)]
    batch.visits = [.init(screen: screen, count: 1)]
    batch.openVisits = [
      VisitRecord(
        screen: screen, started: WallInstant(nanosecondsSince1970: 0),
        ended: WallInstant(nanosecondsSince1970: nanos), activeNanos: nanos)
    ]
    return batch
  }

  @Test func recordsRoundTrip() throws {
    var original = batch(app: 1_500_000_000)
    original.sessions = 2
    original.lastStop = StopMark(mono: 9, boot: "b", wall: WallInstant(nanosecondsSince1970: 77))
    original.unlocks = [
      UnlockRecord(
        rule: "r", mono: MonotonicInstant(nanoseconds: 5), boot: "b", wall: WallInstant(nanosecondsSince1970: 6))
    ]
    original.closedVisits = original.openVisits
    let decoded = CheckpointBatch(decoding: original.encoded()[...])
    #expect(decoded == original)
    #expect(CheckpointBatch(decoding: original.encoded().dropLast()) == nil)
  }

  /// A record holding a figure the store refuses (Store+Values) is malformed, as a torn one
  /// is: folded, it overflowed the store's sums or left a store that is then damaged.
  @Test(arguments: 0..<6)
  func aRecordWithAnImpossibleFigureIsMalformed(damage: Int) {
    var forged = batch(app: 1_500_000_000)
    switch damage {
    case 0: forged.days[0].nanos = .max
    case 1: forged.days[1].nanos = -1
    case 2:
      forged.awards = [Award(source: "x", points: 1 << 62, reason: "", wall: WallInstant(nanosecondsSince1970: 0))]
    case 3:
      forged.unlocks = [
        UnlockRecord(
          rule: "r", mono: MonotonicInstant(nanoseconds: 5), boot: "b", wall: WallInstant(nanosecondsSince1970: 6),
          points: Int.min)
      ]
    case 4: forged.openVisits[0].activeNanos = -1
    default: forged.visits[0].screen = String(repeating: "x", count: 1 << 20)
    }
    #expect(CheckpointBatch(decoding: batch(app: 1_500_000_000).encoded()[...]) != nil)
    #expect(CheckpointBatch(decoding: forged.encoded()[...]) == nil)
  }

  @Test func aTornSlotFallsBackToThePreviousRecord() throws {
    let store = TemporaryStore()
    let journal = try Journal(storePath: store.path)
    try journal.write(batch(app: 1))
    try journal.write(batch(app: 2))
    // Garble the newest slot (sequence 2 lives in slot 0).
    let handle = try #require(FileHandle(forUpdatingAtPath: journal.path))
    try handle.seek(toOffset: UInt64(Journal.headerSize + 10))
    handle.write(Data([0xFF, 0xFF, 0xFF]))
    try handle.close()
    let record = try #require(Journal.read(path: journal.path))
    #expect(record.sequence == 1)
    #expect(CheckpointBatch(decoding: record.payload)?.days.first?.nanos == 1)
  }

  @Test func aDeadProcessJournalIsFoldedOnceAndItsOpenVisitsClosed() throws {
    let store = TemporaryStore()
    let db = try Store(path: store.path)
    let journal = try Journal(storePath: store.path)
    try journal.write(batch(app: 10_000_000_000))
    journal.abandon()  // the process "dies"
    // Another launch loads it, recovers it, and a third launch must not count it again.
    #expect(try db.recoverJournals(currentBoot: "manual-boot") == 1)
    #expect(try db.recoverJournals(currentBoot: "manual-boot") == 0)
    let usage = try db.load()
    #expect(usage.app.nanos == 10_000_000_000)
    #expect(usage.screens.first?.visits == 1)
    #expect(!FileManager.default.fileExists(atPath: journal.path))
  }

  @Test func aFoldedJournalIsNotCountedTwice() throws {
    let store = TemporaryStore()
    let db = try Store(path: store.path)
    let journal = try Journal(storePath: store.path)
    let first = batch(app: 4_000_000_000)
    try journal.write(first)
    // The fold includes sequence 1; the process dies before writing a fresh record.
    var folded = first
    folded.openVisits = []
    try db.fold(folded, journal: journal.owner, sequence: journal.sequence)
    journal.abandon()
    #expect(try db.recoverJournals(currentBoot: "manual-boot") == 1)
    let usage = try db.load()
    #expect(usage.app.nanos == 4_000_000_000)
    // The open visit was closed by the recovery, once.
    #expect(usage.screens.first?.visits == 1)
  }

  @Test func aLiveJournalIsCountedButNotFolded() throws {
    let store = TemporaryStore()
    let db = try Store(path: store.path)
    let journal = try Journal(storePath: store.path)
    try journal.write(batch(app: 3_000_000_000))
    #expect(try db.recoverJournals(currentBoot: "manual-boot") == 0)
    #expect(try db.load().app.nanos == 3_000_000_000)
    #expect(FileManager.default.fileExists(atPath: journal.path))
  }

  @Test func aJournalFromAnotherBootIsDead() {
    #expect(!Journal.isAlive(owner: "1.2", boot: "old", currentBoot: "new"))
  }

  @Test func engineCheckpointsGoToTheJournalAndFoldsToSQLite() throws {
    let rig = Rig()
    let engine = try rig.launch()
    engine.record(.active)
    rig.advance(10)  // five checkpoints, no fold yet
    let journals = Journal.list(storePath: rig.store.path)
    #expect(journals.count == 1)
    let readOnly = try Store(path: rig.store.path, readOnly: true)
    #expect(try readOnly.load().app.nanos == 10_000_000_000)
    engine.terminate()
    #expect(Journal.list(storePath: rig.store.path).isEmpty)
  }
}
