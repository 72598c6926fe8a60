// Handing a stand-in's count (a store locked at launch) over to the store once it opens.

extension Tracker {
  /// Moves counting from the engine of a stand-in (``Store/standingInFor``) to `store`, the
  /// file it stood in for, now open. The stand-in's journal holds everything it counted: it
  /// is written once more and left beside the store, whose new engine recovers it (folds it
  /// in one transaction, then deletes it) and carries on the screens visible, counting no
  /// new session or visit. Returns whether `store` is in use.
  func handOver(from old: Engine, to store: Store) -> Bool {
    // Buffer new events while the counts move.
    phase.withLock { $0 = .opening(OpeningEvents()) }
    guard old.journalEverything() else {
      resume(old)
      report(.storeUnavailable("the store opened, but the journal beside it could not be written; retrying"))
      return false
    }
    let live = old.liveState()
    old.abandon()
    do {
      let fresh = try engine(on: store)
      fresh.adopt(active: live.active, visible: live.visible)
      install(fresh)
      unusedStore.withLock { $0 = nil }
      return true
    } catch {
      // Locked again before its journals were recovered: another stand-in, and the journal
      // just written waits beside the store for the next retry or launch.
      report(.storeUnavailable("retry failed: \(error)"))
      let next =
        (try? Store.standIn(for: store.path)).flatMap { try? engine(on: $0) }
        ?? (try? Store(path: ":memory:")).flatMap { try? engine(on: $0) }
      guard let next else {
        resume(old)
        return false
      }
      next.adopt(active: live.active, visible: live.visible)
      install(next)
      return false
    }
  }

  /// Puts `old` back in use, with the events recorded while it was being replaced.
  func resume(_ old: Engine) {
    let waiting = phase.withLock { phase -> [(MonotonicInstant, LifecycleEvent)] in
      defer { phase = .ready(old) }
      if case .opening(let events) = phase { return events.events }
      return []
    }
    for (instant, event) in waiting { old.record(event, at: instant) }
    resumeReadyWaiters()
  }
}
