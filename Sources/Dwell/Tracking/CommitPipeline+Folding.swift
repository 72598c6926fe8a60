/// Folding into SQLite: one fold at a time, its transaction run without the commit lock
/// while the journal records written meanwhile carry its batch, and its outcome recorded.
extension CommitPipeline {
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
}
