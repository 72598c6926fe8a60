internal import Foundation

/// Making what an engine recorded durable, and ending its run: checkpoints into the
/// journal, folds into SQLite (with errors reported, not thrown, on the writer), the
/// durable `background` and `terminate`, a clean end and an abandoned one.
extension Engine {
  /// `background` and `terminate` are durable when `record` returns (the app may be
  /// suspended or killed right after): the events are applied and the journal written (one
  /// `pwrite`) before it returns; the fold into SQLite follows on the writer. Announcements
  /// wait for that fold, so no handler runs while the caller waits.
  ///
  /// `background` (`onThisThread`) does that on the caller's thread, without waiting for the
  /// writer's queue: work queued there (a fold of thousands of visits, one waiting for a
  /// lock another process holds) runs on after it, and a fold's transaction never holds
  /// the journal up (``CommitPipeline/fold()``). What it waits for is bounded by the events
  /// not applied yet, which the recording thread keeps under ``maximumWaitingEvents`` (plus
  /// a batch of that size the writer may be applying): milliseconds after any burst.
  /// `terminate` waits for the writer's queue, then does the same.
  func persistBeforeReturning(onThisThread: Bool = false) {
    if onThisThread {
      persistWork()
    } else {
      scheduler.performAndWait { persistWork() }
    }
    onWriter { $0.commitReportingErrors() }
  }

  /// Applies the events and writes the journal (and folds when the journal cannot be written).
  private func persistWork() {
    settle()
    if pipeline.checkpoint(journalFirst: true) { try? pipeline.fold() }
  }

  /// `background` and `terminate` on a synchronous engine (a manual clock): the journal
  /// first, as ``persistBeforeReturning()`` writes it, so a fold that fails (a full disk)
  /// loses nothing at exit; then the fold.
  func persistNow() {
    if !inMemory {
      settle()
      _ = pipeline.checkpoint(journalFirst: true)
    }
    commitReportingErrors()
  }

  /// For an engine on a stand-in store (``Store/standingInFor``): writes everything it
  /// counted into its journal, which the store it stood in for then recovers; `false` when
  /// the journal could not be written (the engine must then keep running).
  func journalEverything() -> Bool {
    var written = false
    scheduler.performAndWait {
      settle()
      written = pipeline.journalEverything()
    }
    return written
  }

  /// Makes everything accrued so far crash-safe: writes the journal (microseconds), or
  /// folds into SQLite when a fold is due or the journal cannot be written.
  func checkpoint() {
    if inMemory { return release() }
    settle()
    if pipeline.checkpoint() { commitReportingErrors() }
    state.withLock { scheduleTimers(&$0) }
    announcer.deliver()
  }

  /// Folds everything accrued so far into the SQLite store, synchronously.
  ///
  /// Called automatically every few checkpoints, on `background` and on `terminate`. If
  /// the store cannot be written, the changes stay in memory (and in the journal) and go
  /// with the next fold.
  /// - Throws: the store's error.
  package func commit() throws {
    if inMemory { return release() }
    settle()
    defer { announcer.deliver() }
    try pipeline.fold()
    state.withLock { scheduleTimers(&$0) }
  }

  /// A memory engine's checkpoint and commit: what is pending is dropped (it is in the
  /// totals already) and unlocks and notifications are announced at once.
  private func release() {
    settle()
    pipeline.release()
    announcer.deliver()
  }

  func commitReportingErrors() {
    do {
      try commit()
      pipeline.foldEnded(failed: false)
    } catch {
      pipeline.foldEnded(failed: true)
      announcer.enqueue([.error(error)])
      announcer.deliver()
    }
  }

  /// Ends the process run cleanly: records `terminate` and commits everything.
  package func terminate() {
    record(.terminate)
    if !synchronous { commitReportingErrors() }
    let clean = state.withLock { !$0.accountant.hasPendingChanges }
    stop()
    // A journal still holding changes (a final fold failed, or a stand-in's, which never
    // folds) is left to the next store that opens, in this process or the next.
    if clean { pipeline.removeJournal() } else { pipeline.abandonJournal() }
  }

  /// Stops the engine without committing, as a crash would: whatever was not yet in the
  /// journal or the store is lost. Used by replay and crash tests; an app never needs it.
  package func abandon() {
    stop()
    pipeline.abandonJournal()
  }

  private func stop() {
    state.withLock { state in
      state.stopped = true
      state.wake?.work.cancel()
      state.wake = nil
      state.checkpoint?.cancel()
      state.checkpoint = nil
    }
  }
}
