extension UnlockRecord {
  /// What an announcement is made once for: the rule, and for an earning its period.
  var announcementKey: String { period.map { rule + "\u{0}" + $0 } ?? rule }
}

/// The path from memory to disk: a checkpoint writes the crash journal (microseconds), a
/// fold moves everything into SQLite, and folds that fail back off (2 s doubling to 60 s).
///
/// Journal writes and folds are serialised by the commit lock, so the journal never runs
/// behind a fold; unlocks and notifications are queued for the ``Announcer`` once what
/// came before them is persisted, and delivered after every lock is released.
final class CommitPipeline: Sendable {
  private let store: Store
  private let state: Locked<EngineState>
  private let committer: Locked<Committer>
  private let announcer: Announcer
  private let clock: any MonotonicClock
  /// The checkpoint interval, in nanoseconds.
  private let interval: Int64

  private struct Committer: ~Copyable {
    var journal: Journal?
    var announced = Set<String>()
    /// Folds that failed in a row (a full disk, say), and the instant before which a
    /// checkpoint that cannot journal does not try to fold again: the backlog grows while
    /// the disk is full, and retrying it every interval would cost more each time.
    var failedFolds = 0
    var retryFoldAt: Int64 = .min
    /// Whether the disk was full at the last fold or journal write (until a fold succeeds):
    /// journal records then leave out the closed visits' rows (see ``journal(_:_:)``).
    var diskFull = false
    /// The fold whose SQLite transaction is running (``fold()``): every record written
    /// meanwhile carries it.
    var folding: CheckpointBatch.InFlightFold?
  }

  /// Held for a whole fold, so that folds run one at a time (checkpoints take only the
  /// commit lock, and not during a fold's transaction).
  private let folder = Locked<Void>(())

  init(
    store: Store, journaled: Bool, state: Locked<EngineState>, announcer: Announcer, clock: any MonotonicClock,
    interval: Int64,
    announced: Set<String>
  ) {
    self.store = store
    self.state = state
    self.announcer = announcer
    self.clock = clock
    self.interval = max(interval, 1)
    let journal = journaled ? store.journalStorePath.flatMap { try? Journal(storePath: $0) } : nil
    committer = Locked(Committer(journal: journal, announced: announced))
  }

  /// Whether the store is a stand-in (``Store/standingInFor``): nothing is folded into
  /// SQLite, and each journal record holds everything counted since the journal started
  /// (the engine, or the last ``rotate(_:_:)``).
  private var holdsEverything: Bool { store.standingInFor != nil }

  /// Every few checkpoints of use, changes are folded into SQLite; in between, the journal.
  private var foldInterval: Int64 { interval &* 15 }

  /// Makes everything accrued so far crash-safe in the journal. Returns whether a fold is
  /// due as well (the fold interval passed), or instead (there is no journal or it cannot be
  /// written), unless folds are backing off. The journal is written before every fold, so a
  /// fold that waits (for a lock another process holds) or fails leaves it current.
  /// With `journalFirst` (`background`, `terminate`), a fold that is due is not asked for:
  /// the caller folds afterwards, off its thread.
  func checkpoint(journalFirst: Bool = false) -> Bool {
    committer.withLock { committer -> Bool in
      let (batch, due, notes, rotating) = state.withLock {
        state -> (CheckpointBatch?, Bool, [UsageNotification], Bool) in
        guard !state.stopped else { return (nil, false, [], false) }
        let accountant = state.accountant
        let due =
          !journalFirst && !holdsEverything && accountant.hasPendingChanges
          && accountant.cursor - state.lastFold >= foldInterval
        guard accountant.revision != state.journaled || !state.notifications.isEmpty else {
          return (nil, due, [], false)
        }
        state.journaled = accountant.revision
        defer { state.notifications.removeAll() }
        // A stand-in's journal holds everything since it started: past a few thousand
        // visits its changes go into a journal of their own, left beside the store (a fold
        // into a file), so that no record grows with every visit since launch.
        let rotating = holdsEverything && accountant.pendingVisitCount >= Self.standInRecordVisits
        return (state.accountant.batch(take: rotating), due, state.notifications, rotating)
      }
      // A fold that failed (the store locked, the disk full) is tried again after its back-off.
      let foldNow = due && clock.now().nanoseconds >= committer.retryFoldAt
      guard var batch else { return foldNow }
      batch.inFlight = committer.folding
      if rotating {
        if rotate(batch, &committer) {
          // Plugins' states stay with the live journal (journals are recovered in no
          // particular order, and the newest state must win).
          var states = CheckpointBatch(boot: batch.boot)
          states.listenerStates = batch.listenerStates
          state.withLock { $0.accountant.restore(states) }
          announce(batch.unlocks + batch.earnings, notes, &committer)
          return false
        }
        state.withLock { $0.accountant.restore(batch) }  // kept whole in the next record
      }
      if let journal = committer.journal, Self.journal(batch, into: journal, &committer) {
        announce(batch.unlocks + batch.earnings, notes, &committer)
        return foldNow
      }
      // No journal, or it could not be written: fold instead (unless folds are backing
      // off), and announce only once that is done.
      state.withLock { $0.notifications = notes + $0.notifications }
      return clock.now().nanoseconds >= committer.retryFoldAt
    }
  }

  /// The closed visits a stand-in's journal record holds before its changes go into a
  /// journal of their own (``rotate(_:_:)``): a record of about 100 KiB at most.
  static let standInRecordVisits = 2_048

  /// A stand-in's fold: writes `batch` (everything since the journal started afresh,
  /// taken from the accountant) without its open visits as the last record of the journal,
  /// which stays beside the store for the store that recovers the stand-in's journals (the
  /// real one, once it opens, or the next launch's), and starts a new journal holding the
  /// open visits. `false`, with nothing changed on disk but the old journal's record, when
  /// either cannot be written: the caller puts `batch` back.
  private func rotate(_ batch: CheckpointBatch, _ committer: inout Committer) -> Bool {
    guard let journal = committer.journal, let path = store.journalStorePath,
      let next = try? Journal(storePath: path)
    else { return false }
    var frozen = batch
    frozen.openVisits = []
    frozen.listenerStates = []
    guard (try? journal.write(frozen)) != nil else {
      next.remove()
      return false
    }
    journal.abandon()  // no longer this engine's: a recovery folds it like a dead process's
    committer.journal = next
    var rest = CheckpointBatch(boot: batch.boot)
    rest.openVisits = batch.openVisits
    rest.listenerStates = batch.listenerStates
    try? next.write(rest)
    return true
  }

  /// Folds everything accrued so far into SQLite. On failure the changes go back into
  /// memory (and stay in the journal) for the next fold.
  ///
  /// Folds run one at a time (the fold lock), but the SQLite transaction runs without the
  /// commit lock: the batch is first written as a journal record (its sequence is the mark
  /// the transaction sets), and until the transaction ends every checkpoint's record
  /// carries it as the fold under way (``CheckpointBatch/InFlightFold``), which recovery
  /// folds only if the mark never reached the store. So a checkpoint, `background`'s among
  /// them, never waits for SQLite (a fold of thousands of visits takes milliseconds, one
  /// waiting for another process's lock seconds), and a kill at any point loses nothing
  /// journaled and counts nothing twice.
  func fold() throws {
    if holdsEverything { return }  // the journal keeps it all, for the store it stands in for
    // A lock another process holds is waited for here, briefly (half a checkpoint interval,
    // at most the busy timeout), before the commit lock: the fold runs on the writer, and
    // the writer's checkpoints must go on writing the journal while the lock lasts.
    try store.waitUntilWritable(milliseconds: Int32(clamping: min(max(interval / 2_000_000, 10), 5_000)))
    try folder.withLock { (_: inout Void) throws in try foldAlone() }
  }

  /// What a fold took out of memory: the batch, the notifications that wait for it, and
  /// the revision journaled before it (put back if it fails).
  private struct Taken {
    var batch: CheckpointBatch
    var notes: [UsageNotification]
    var journaled: UInt64
  }

  /// ``fold()`` with the fold lock held.
  private func foldAlone() throws {
    let running = try committer.withLock { committer throws -> (Taken, String, UInt64)? in
      guard let taken = take() else { return nil }
      if let journal = committer.journal, !committer.diskFull {
        // Half a slot at most, so that a record can carry it besides its own changes: a
        // larger batch is journaled by its totals and counts (its visits' rows go to the
        // store only), as a record too large for its slot is.
        var carried = taken.batch
        if carried.closedVisitBytes > Journal.slotSize / 2 { carried.closedVisits = [] }
        var record = carried.encoded(headerSpace: Journal.headerSize)
        if record.count <= Journal.slotSize / 2, (try? journal.write(&record)) != nil {
          let fold = CheckpointBatch.InFlightFold(
            marker: journal.sequence, payload: Array(record[Journal.headerSize...]))
          committer.folding = fold
          return (taken, journal.owner, fold.marker)
        }
      }
      // No record can carry this batch (no journal, a full disk, totals and counts alone
      // past half a slot): the transaction runs under the commit lock, and checkpoints
      // wait for it.
      let outcome = Result { () throws -> [VisitRecord] in
        try foldTotalsFirst(taken.batch, owner: committer.journal?.owner, sequence: committer.journal?.sequence ?? 0)
      }
      try finish(taken, outcome, &committer)
      return nil
    }
    guard let (taken, owner, marker) = running else { return }
    let outcome = Result { () throws -> [VisitRecord] in
      try foldTotalsFirst(taken.batch, owner: owner, sequence: marker)
    }
    try committer.withLock { committer throws in
      committer.folding = nil
      try finish(taken, outcome, &committer)
    }
  }

  /// Takes everything pending out of memory for a fold; `nil` when there is nothing to fold.
  private func take() -> Taken? {
    state.withLock { state -> Taken? in
      guard !state.stopped else { return nil }
      state.lastFold = state.accountant.cursor
      state.foldRequested = false
      guard state.accountant.hasPendingChanges || !state.notifications.isEmpty else { return nil }
      let journaled = state.journaled
      state.journaled = state.accountant.revision
      defer { state.notifications.removeAll() }
      return Taken(batch: state.accountant.batch(take: true), notes: state.notifications, journaled: journaled)
    }
  }

  /// Records a fold's outcome, the commit lock held: on failure the batch goes back into
  /// memory and the error is thrown; on success what it held is announced and the journal
  /// starts afresh with what accrued meanwhile (and the open visits), without the fold.
  private func finish(_ taken: Taken, _ outcome: Result<[VisitRecord], any Error>, _ committer: inout Committer)
    throws
  {
    let waiting: [VisitRecord]
    switch outcome {
    case .failure(let error):
      if (error as? StoreError)?.isDiskFull == true { committer.diskFull = true }
      state.withLock {
        $0.accountant.restore(taken.batch)
        $0.notifications = taken.notes + $0.notifications
        // What changed since the last journal write is in no journal: the next
        // checkpoint writes it (a failed fold once passed for one, and a clean exit on a
        // full disk lost the visits since the last checkpoint).
        $0.journaled = taken.journaled
      }
      throw error
    case .success(let rows):
      waiting = rows
    }
    committer.diskFull = !waiting.isEmpty
    announce(taken.batch.unlocks + taken.batch.earnings, taken.notes, &committer)
    if let journal = committer.journal {
      let (rest, revision) = state.withLock { ($0.accountant.batch(take: false), $0.accountant.revision) }
      if Self.journal(rest, into: journal, &committer) {
        state.withLock { $0.journaled = max($0.journaled, revision) }
        announce(rest.unlocks + rest.earnings, [], &committer)
      }
    }
    if !waiting.isEmpty { throw StoreError.rowsWaitingForSpace(waiting.count) }
  }

  /// Folds `batch`; when the disk is too full for it, folds it without the closed visits'
  /// rows (every total and count is in the rows' place: a few pages updated instead of
  /// one row per visit) and puts the rows back among the pending changes. Returns the
  /// rows put back.
  private func foldTotalsFirst(_ batch: CheckpointBatch, owner: String?, sequence: UInt64) throws -> [VisitRecord] {
    do {
      try store.fold(batch, journal: owner, sequence: sequence)
      return []
    } catch let error as StoreError where error.isDiskFull && !batch.closedVisits.isEmpty {
      var totals = batch
      totals.closedVisits = []
      guard (try? store.fold(totals, journal: owner, sequence: sequence)) != nil else {
        throw error
      }
      var rows = CheckpointBatch(boot: batch.boot)
      rows.closedVisits = batch.closedVisits
      state.withLock { $0.accountant.restore(rows) }
      return batch.closedVisits
    }
  }

  /// Writes a checkpoint record; `false` when it could not be written. While the disk is
  /// full the record leaves out the closed visits' rows (its totals and counts cover
  /// them; the rows wait in memory): a record that grows would take the room a fold
  /// needs, and the space freed on a full disk would go to the journal first. A record
  /// that cannot be written whole is written again without the rows.
  private static func journal(_ batch: CheckpointBatch, into journal: Journal, _ committer: inout Committer) -> Bool {
    // Rows that cannot fit the slot are not encoded only to find that out.
    if !committer.diskFull && batch.closedVisitBytes < Journal.slotSize || batch.closedVisits.isEmpty {
      do {
        try journal.write(batch)
        return true
      } catch {
        guard !batch.closedVisits.isEmpty else { return false }
        committer.diskFull = true
      }
    }
    var totals = batch
    totals.closedVisits = []
    return (try? journal.write(totals)) != nil
  }

  /// Writes everything accrued so far into the journal at once and announces what it
  /// holds; `false` when there is no journal or it could not be written (a stand-in's engine
  /// hands its journal to the store it stood in for only when this succeeds).
  func journalEverything() -> Bool {
    committer.withLock { committer -> Bool in
      guard let journal = committer.journal,
        let (taken, notes, revision) = state.withLock({
          state -> (CheckpointBatch, [UsageNotification], UInt64)? in
          guard !state.stopped else { return nil }
          defer { state.notifications.removeAll() }
          return (state.accountant.batch(take: false), state.notifications, state.accountant.revision)
        })
      else { return false }
      var batch = taken
      batch.inFlight = committer.folding
      guard Self.journal(batch, into: journal, &committer) else {
        state.withLock { $0.notifications = notes + $0.notifications }
        return false
      }
      state.withLock { $0.journaled = revision }
      announce(batch.unlocks + batch.earnings, notes, &committer)
      return true
    }
  }

  /// For an engine that keeps everything in memory: drops what is pending (it is in the
  /// totals already) and queues unlocks and notifications at once.
  func release() {
    committer.withLock { committer in
      let (unlocks, notes) = state.withLock { state -> ([UnlockRecord], [UsageNotification]) in
        state.lastFold = state.accountant.cursor
        state.foldRequested = false
        state.journaled = state.accountant.revision
        defer { state.notifications.removeAll() }
        return (state.accountant.dropPending(), state.notifications)
      }
      announce(unlocks, notes, &committer)
    }
  }

  /// Records the outcome of a fold for the back-off.
  func foldEnded(failed: Bool) {
    let now = failed ? clock.now().nanoseconds : 0
    committer.withLock {
      guard failed else {
        $0.failedFolds = 0
        $0.retryFoldAt = .min
        return
      }
      $0.failedFolds += 1
      let backoff = interval << min($0.failedFolds, 5)
      $0.retryFoldAt = now &+ min(backoff, 60_000_000_000)
    }
  }

  /// Deletes the journal after a clean final fold.
  func removeJournal() { committer.withLock { $0.journal?.remove() } }

  /// Leaves the journal for the next launch to fold, as a crash would.
  func abandonJournal() { committer.withLock { $0.journal?.abandon() } }

  private func announce(_ unlocks: [UnlockRecord], _ notes: [UsageNotification], _ committer: inout Committer) {
    // An unlock once per rule; an earning of a recurring rule once per rule and period.
    let fresh = unlocks.filter { committer.announced.insert($0.announcementKey).inserted }
      .sorted { $0.mono.nanoseconds < $1.mono.nanoseconds }
    announcer.enqueue(fresh.map { .unlock($0) } + notes.map { .notification($0) })
  }
}
