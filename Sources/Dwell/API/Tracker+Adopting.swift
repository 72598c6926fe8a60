// The shared tracker taking a configuration that came late: its rules, settings and store,
// with what it counted before moved into that store (one history, never split).
internal import Foundation

extension Tracker {
  /// Takes `configuration` for the shared tracker that ``shared`` made with the default
  /// one (``configureShared(_:)`` came late). Its settings are in force at once; its store
  /// is adopted once an engine runs (now, or when the store opening meanwhile is done).
  func adopt(_ configuration: Configuration) {
    settings.withLock { $0 = configuration.repaired }
    let problems = configuration.problems
    if !problems.isEmpty { report(.invalidConfiguration(ConfigurationError(problems: problems))) }
    adoptionPending.withLock { $0 = true }
    guard engine != nil else { return }  // open() adopts after installing its engine
    if scheduler?.isSynchronous == true {
      adoptIfPending()
    } else {
      DispatchQueue.global(qos: .utility).async { [self] in adoptIfPending() }
    }
  }

  /// Adopts the late configuration's rules and store, once (whoever comes first: `open()`
  /// or ``adopt(_:)``).
  func adoptIfPending() {
    let pending = adoptionPending.withLock { pending -> Bool in
      defer { pending = false }
      return pending
    }
    guard pending else { return }
    let engineSettings = configuration.engine
    do {
      try live.change(strict: false) { set in
        set.rules = engineSettings.rules
        set.listeners = engineSettings.listeners
      }
    } catch {
      report(.rulesRefused(error))
    }
    loadRulesDirectory()
    loadInstalledPack()
    startWatchingRules()
    moveToConfiguredStore()
    if let engine { live.apply(to: engine) }
  }

  /// Moves counting from the default store into the configured one: everything in the
  /// default store folds into it in one transaction, the default store is emptied, and a
  /// fresh engine on the configured store carries on the screens visible (no new session
  /// or visit). Nothing moves when both are the same file; when the configured store
  /// cannot be used, counting goes on where it was and the problem is reported.
  private func moveToConfiguredStore() {
    var path: String?
    do {
      path = try configuration.storePath()
    } catch let problem as TrackerProblem {
      report(problem)
      return
    } catch {
      report(.storeUnavailable("\(error)"))
      return
    }
    guard engine != nil, path != storeFile.withLock({ $0 }) else { return }
    // An erase or a store retry replacing the engine now would be left out of the move:
    // the move waits for it (a store retry ends within its busy timeout) and then goes on.
    while replacingEngine({ move(to: path) }) == nil { usleep(1_000) }
  }

  /// The move itself, as the only replacement of the engine under way.
  private func move(to path: String?) {
    guard let old = engine else { return }
    let current = storeFile.withLock { $0 }
    guard path != current else { return }
    // Events recorded while the counts move wait, and go to the fresh engine.
    phase.withLock { $0 = .opening(OpeningEvents()) }
    do {
      let store = try Store(path: path ?? ":memory:")
      try old.commit()
      let going = old.liveState()
      try store.fold(try CheckpointBatch(moving: old.store), journal: nil, sequence: 0)
      old.abandon()
      // Folded into the configured store: left in the default one, it would count twice
      // when it is configured (or split the history when it is not).
      if current != nil, old.store.standingInFor == nil { _ = try? old.store.erase() }
      let fresh = try engine(on: store)
      fresh.adopt(active: going.active, visible: going.visible)
      storeFile.withLock { $0 = path }
      unusedStore.withLock { $0 = nil }
      install(fresh)
    } catch {
      resume(old)
      report(.storeUnavailable("the configured store could not take over from the default one: \(error)"))
    }
  }
}
