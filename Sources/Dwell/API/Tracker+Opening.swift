internal import Foundation

/// How a tracker gets its engine: opening the store in the background, falling back to
/// memory (or to a stand-in journaling beside a store another process holds locked),
/// retrying an unavailable store, and handing over the events recorded meanwhile.
extension Tracker {
  func open() {
    loadRulesDirectory()
    loadInstalledPack()
    if let engine = makeEngine() { install(engine) }
    resumeReadyWaiters()
    adoptIfPending()
    startWatchingRules()
    scheduleRetry()
  }

  /// Makes `engine` the one in use, with every event recorded while there was none. The
  /// events move into the engine's buffer under the phase lock, so an event recorded at
  /// the same moment on another thread cannot overtake them.
  func install(_ engine: Engine) {
    let dropped = phase.withLock { phase -> String? in
      defer { phase = .ready(engine) }
      guard case .opening(let waiting) = phase else { return nil }
      engine.enqueue(waiting.events)
      return waiting.droppedDescription
    }
    if let dropped { report(.storeUnavailable(dropped)) }
    engine.onWriter { $0.applyEnqueued() }
    catchUpRules(engine)
    // Whoever waited meanwhile (for the first store, or while `erase()` or `retryStore()`
    // started afresh) goes on now.
    resumeReadyWaiters()
  }

  /// Resumes the callers of ``ready()`` waiting for an engine. Safe against a caller
  /// arriving meanwhile: it checks for an engine under the same lock it waits under.
  func resumeReadyWaiters() {
    let waiters = streams.withLock { streams -> [CheckedContinuation<Void, Never>] in
      defer { streams.readyWaiters.removeAll() }
      return streams.readyWaiters
    }
    for waiter in waiters { waiter.resume() }
  }

  // MARK: Retrying an unavailable store

  /// Seconds between retries of a store another process holds locked (an App Group
  /// extension mid-transaction): its lock is brief, and the session meanwhile is only in
  /// the stand-in's journal. Other causes are retried every minute.
  static let lockedStoreRetry = 2.0

  private func scheduleRetry() {
    guard unusedStore.withLock({ $0 }) != nil, scheduler?.isSynchronous != true else { return }
    let delay = engine?.store.standingInFor != nil ? Self.lockedStoreRetry : 60
    DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delay) { [weak self] in
      guard let self, !self.retryStore() else { return }
      self.scheduleRetry()
    }
  }

  /// At `background`: retries a store that was locked, off the caller's thread.
  func retryStandInSoon() {
    guard engine?.store.standingInFor != nil else { return }
    DispatchQueue.global(qos: .utility).async { [weak self] in self?.retryStandIn() }
  }

  /// Retries a store that was locked at launch, now, waiting at most `busyTimeout`
  /// milliseconds for its lock (`terminate()` gives it a second).
  func retryStandIn(busyTimeout: Int32 = 5_000) {
    guard engine?.store.standingInFor != nil, let path = unusedStore.withLock({ $0?.path }) else { return }
    _ = replacingEngine { retryStore(at: path, busyTimeout: busyTimeout) }
  }

  /// While Dwell counts in memory because the store could not be used (read-only, disk
  /// full, missing folder, written by a newer Dwell, damaged and impossible to move
  /// aside), tries to open it again; on success everything counted in memory moves into
  /// it and counting goes on there, with the rules in force. Dwell retries every minute by
  /// itself; call this after fixing the cause to retry now. Disk I/O.
  ///
  /// - Returns: `true` when the store is in use (now or already) or the configuration
  ///   keeps none (``StoreLocation/inMemory``); `false` while Dwell still counts in memory
  ///   instead of the store (a store from a newer Dwell stays unused until that Dwell runs).
  @discardableResult
  public func retryStore() -> Bool {
    guard let path = unusedStore.withLock({ $0?.path }) else { return true }
    return replacingEngine { retryStore(at: path) } ?? false
  }

  /// Runs `work` as the only erase or store retry under way, so that two never replace the
  /// engine at once (both would start an engine on the same store); `nil`, without running
  /// it, while another is under way.
  func replacingEngine<T>(_ work: () throws -> T) rethrows -> T? {
    let started = replacing.withLock { busy in
      if busy { return false }
      busy = true
      return true
    }
    guard started else { return nil }
    defer { replacing.withLock { $0 = false } }
    return try work()
  }

  private func retryStore(at path: String, busyTimeout: Int32 = 5_000) -> Bool {
    guard let old = engine, let store = try? Store(path: path, busyTimeout: busyTimeout) else { return false }
    if old.store.standingInFor != nil { return handOver(from: old, to: store) }
    // Buffer new events while the counts move.
    phase.withLock { $0 = .opening(OpeningEvents()) }
    let fresh: Engine
    do {
      try old.commit()
      let live = old.liveState()
      try store.fold(try CheckpointBatch(moving: old.store), journal: nil, sequence: 0)
      old.abandon()
      fresh = try engine(on: store)
      fresh.adopt(active: live.active, visible: live.visible)
    } catch {
      resume(old)
      report(.storeUnavailable("retry failed: \(error)"))
      return false
    }
    install(fresh)
    unusedStore.withLock { $0 = nil }
    return true
  }

  /// Opens the configured store; on failure, moves a damaged file aside or falls back to
  /// memory, and reports the problem. Never throws, never traps.
  private func makeEngine() -> Engine? {
    var path: String?
    do {
      path = try configuration.storePath()
    } catch let problem as TrackerProblem {
      report(problem)
    } catch {
      report(.storeUnavailable("\(error)"))
    }
    if let path {
      storeFile.withLock { $0 = path }
      do {
        return try engine(on: Store(path: path))
      } catch StoreError.newerSchema(let migration) {
        report(.storeFromNewerVersion("migration \(migration)"))
        unusedStore.withLock { $0 = (path, "it was written by a newer Dwell (migration \(migration))") }
      } catch StoreError.database(let error) where error.isCorruption {
        // A name of its own: a store damaged again within the same second (or one moved
        // aside by a clock set back) must not find the name taken and stay in use.
        let stamp = path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
        let aside =
          sequence(first: 1, next: { $0 + 1 }).lazy.map { $0 == 1 ? stamp : stamp + "-\($0)" }
          .first { !FileManager.default.fileExists(atPath: $0) } ?? stamp
        do {
          try FileManager.default.moveItem(atPath: path, toPath: aside)
          // The write-ahead log goes with it (it may hold the latest pages); the
          // shared-memory index is rebuilt from it by whoever opens the moved store.
          try? FileManager.default.moveItem(atPath: path + "-wal", toPath: aside + "-wal")
          try? FileManager.default.removeItem(atPath: path + "-shm")
          report(.storeMovedAside(aside))
          if let engine = try? engine(on: Store(path: path)) { return engine }
        } catch {
          report(.storeUnavailable("the store is damaged and cannot be moved aside: \(error)"))
          unusedStore.withLock { $0 = (path, "it is damaged and could not be moved aside") }
        }
      } catch StoreError.database(let error) where [.busy, .locked].contains(error.resultCode.primary) {
        // Another process (an App Group extension) holds the store locked: count on a
        // stand-in whose journal, beside the store, keeps every event through a kill or a
        // `terminate()` until the store opens (retried within seconds) and recovers it.
        report(.storeUnavailable("\(error); counting meanwhile in a journal beside the store"))
        unusedStore.withLock { $0 = (path, "another process holds it locked: \(error)") }
        if let standIn = try? Store.standIn(for: path), let engine = try? engine(on: standIn) { return engine }
      } catch {
        report(.storeUnavailable("\(error)"))
        unusedStore.withLock { $0 = (path, "it could not be opened: \(error)") }
      }
    }
    if let engine = try? engine(on: Store(path: ":memory:")) { return engine }
    // SQLite could not open even a database in memory (memory is exhausted): no engine;
    // events wait (a bounded number) for retryStore().
    report(.storeUnavailable("no database could be opened, not even in memory"))
    return nil
  }

  /// An engine on `store` with the rules in force. Rules are validated before they are put
  /// in force, so a rule error here means they went bad anyway: it is reported and the
  /// engine starts without them.
  func engine(on store: Store) throws -> Engine {
    if let retention = configuration.visitRetention {
      // Saturating: a retention of any length (at most Int64's nanoseconds) cannot trap.
      let (difference, overflow) = wallClock.now().nanosecondsSince1970.subtractingReportingOverflow(
        retention.nanoseconds)
      let cutoff = overflow ? Int64.min : difference
      _ = try? store.pruneVisits(endedBefore: WallInstant(nanosecondsSince1970: cutoff))
    }
    var engineConfiguration = live.launchConfiguration(base: configuration.engine)
    let engine: Engine
    do {
      engine = try Engine(
        store: store, configuration: engineConfiguration, clock: clock, wallClock: wallClock, scheduler: scheduler,
        launchedAt: launchedAt)
    } catch let error as RuleError {
      report(.rulesRefused(error))
      engineConfiguration.rules = []
      engine = try Engine(
        store: store, configuration: engineConfiguration, clock: clock, wallClock: wallClock, scheduler: scheduler,
        launchedAt: launchedAt)
    }
    observe(engine)
    return engine
  }
}
