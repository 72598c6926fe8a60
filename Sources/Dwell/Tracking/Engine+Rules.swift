/// Changing what an engine counts by: hot reload of rules and listeners, imported totals,
/// and taking over another engine's live state.
extension Engine {

  /// Replaces the rules and listeners in force (hot reload) with `set`'s. Rules already
  /// unlocked stay unlocked; the progress of the others is recomputed from the totals, not
  /// from history. New listeners get the states the old ones saved.
  ///
  /// Internal: the one caller is ``RulesInForce/apply(to:)``, which only holds sets that
  /// validated (``RuleSet/validate(strict:)``).
  func putInForce(_ set: RuleSet) {
    let rules = set.allRules
    let listeners = set.engineListeners
    settle()
    let unlocked = state.withLock { state -> [UnlockRecord] in
      for listener in listeners { listener.restore(states: state.accountant.listenerStates) }
      state.listeners = listeners
      state.accountant.collectsEvents = !listeners.isEmpty
      let kept = Array(state.book.unlocked.values)
      let reported = state.book.reported
      let cleaned = rules.map(\.withCleanNames)
      state.accountant.measure(groups: cleaned.flatMap(\.condition.screenGroups))
      state.book = RuleBook(
        rules: cleaned, unlocked: kept, earnings: state.book.earnings,
        tick: configuration.evaluationTick.nanoseconds,
        wantsTicks: state.listeners.contains { $0.wantsTicks },
        // The engine's levels, the new pack's after them (a pack's level overrides one of its name).
        levels: configuration.levels + (set.pack?.levels ?? []), accountant: state.accountant)
      state.book.keep(reported: reported)
      buffer.setInterest(state.book.interest)
      let at = state.accountant.cursor
      let fresh = evaluate(&state, at: at)
      for record in fresh { state.accountant.recordUnlock(record) }
      scheduleTimers(&state)
      publish(state)
      return fresh
    }
    if !unlocked.isEmpty { onWriter { $0.checkpoint() } }
  }

  /// The rules in force.
  package var rules: [Rule] {
    synchronous ? state.withLock { $0.book.rules } : published.withLock { $0.book.rules }
  }

  /// Adds totals kept elsewhere to today, once per key (see `Tracker.importTotals`).
  func importTotals(app: Int64, screens: [String: Int64], key: String) -> Bool {
    process()
    let imported = state.withLock { state -> Bool in
      let cursor = state.accountant.cursor
      let today = state.accountant.span(at: cursor).day
      guard state.accountant.importTotals(app: app, screens: screens, on: today, key: key) else { return false }
      let fresh = evaluate(&state, at: cursor)
      for record in fresh { state.accountant.recordUnlock(record) }
      publish(state)
      return true
    }
    if imported { commitReportingErrors() }
    return imported
  }

  /// What is going on now: whether the app is active and which instances are visible.
  func liveState() -> (active: Bool, visible: [(name: String, id: ScreenInstance, paused: Bool)]) {
    withState { accountant, _ in (accountant.isActive, accountant.visibleInstances) }
  }

  /// Takes over what another engine had going (a store switch): active or not, and the
  /// visible instances, without counting a new session or new visits.
  func adopt(active: Bool, visible: [(name: String, id: ScreenInstance, paused: Bool)]) {
    process()
    state.withLock { state in
      state.accountant.adopt(active: active, visible: visible)
      scheduleTimers(&state)
      publish(state)
    }
  }

  /// Whether the app is active now (as the engine has processed).
  var isActive: Bool { withState { accountant, _ in accountant.isActive } }

}
