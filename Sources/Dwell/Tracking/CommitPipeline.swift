extension UnlockRecord {
  /// What an announcement is made once for: the rule, and for an earning its period.
  var announcementKey: String { period.map { rule + "\u{0}" + $0 } ?? rule }
}

/// The path from memory to disk: a checkpoint writes the crash journal (microseconds), a
/// fold moves everything into SQLite (`CommitPipeline+Folding.swift`), and folds that fail
/// back off (2 s doubling to 60 s).
///
/// Journal writes and folds are serialised by the commit lock, so the journal never runs
/// behind a fold; unlocks and notifications are queued for the ``Announcer`` once what
/// came before them is persisted, and delivered after every lock is released.
final class CommitPipeline: Sendable {
  let store: Store
  let state: Locked<EngineState>
  let committer: Locked<Committer>
  private let announcer: Announcer
  private let clock: any MonotonicClock
  /// The checkpoint interval, in nanoseconds.
  let interval: Int64

  struct Committer: ~Copyable {
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
  let folder = Locked<Void>(())

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
  var holdsEverything: Bool { store.standingInFor != nil }

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

  /// Writes a checkpoint record; `false` when it could not be written. While the disk is
  /// full the record leaves out the closed visits' rows (its totals and counts cover
  /// them; the rows wait in memory): a record that grows would take the room a fold
  /// needs, and the space freed on a full disk would go to the journal first. A record
  /// that cannot be written whole is written again without the rows.
  static func journal(_ batch: CheckpointBatch, into journal: Journal, _ committer: inout Committer) -> Bool {
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

  func announce(_ unlocks: [UnlockRecord], _ notes: [UsageNotification], _ committer: inout Committer) {
    // An unlock once per rule; an earning of a recurring rule once per rule and period.
    let fresh = unlocks.filter { committer.announced.insert($0.announcementKey).inserted }
      .sorted { $0.mono.nanoseconds < $1.mono.nanoseconds }
    announcer.enqueue(fresh.map { .unlock($0) } + notes.map { .notification($0) })
  }
}
