/// How an engine processes: applies recorded events in order, catches accrual up to each
/// instant a rule could unlock, hands events to listeners, and keeps its timers.
extension Engine {

  /// Applies every recorded event and brings accrual up to now; unlocks rules at their
  /// exact instants, running rules, scripted checks and listeners. Called on the engine's
  /// queue (by timers and checkpoints); safe from any thread, but it runs scripts there.
  package func process() { process(woken: false) }

  /// ``process()``, then takes the states listeners changed (``StatefulListener``): before
  /// a checkpoint, a commit or a reload, whatever saves or hands the states on.
  func settle() { process(woken: false, saving: true) }

  /// ``process()``; `woken` when the engine's wake-up timer calls it.
  ///
  /// An engine in memory woken on a clock that is jumping to an instant it knows, with
  /// nothing recorded on the way (`dwell balance`), goes there at once: one pass through
  /// every tick and wake-up before it, rather than a timer and a call here for each.
  /// Unlocks and listener calls keep their exact instants.
  private func process(woken: Bool, saving: Bool = false) {
    var now = clock.now().nanoseconds
    if woken, inMemory, synchronous, let horizon = scheduler.horizon?.nanoseconds, horizon > now { now = horizon }
    var mustFold = false
    let mustPersist = state.withLock { state -> Bool in
      guard !state.stopped else { return false }
      let notesBefore = state.notifications.count
      var events = state.spare
      state.spare = []  // uniquely referenced, or the hot path would copy it on its next append
      if synchronous {
        buffer.drain(into: &events)
      } else {
        // Queries see these events while rules, checks and listeners take their time.
        published.withLock {
          buffer.drain(into: &events)
          $0.drained(events)
        }
      }
      var unlocked: [UnlockRecord] = []
      for item in events {
        let at = max(item.at, state.accountant.cursor)
        catchUp(&state, to: at, &unlocked)
        state.accountant.apply(item.event, at: at)
        let fresh = evaluate(&state, at: at)
        if !fresh.isEmpty { unlocked += fresh }
        let caused = dispatch(&state, at: at, fresh, tick: false)
        if !caused.isEmpty { unlocked += caused }
      }
      events.removeAll(keepingCapacity: true)
      state.spare = events
      buffer.applied()
      catchUp(&state, to: max(now, state.accountant.cursor), &unlocked)
      for record in unlocked { state.accountant.recordUnlock(record) }
      if saving { takeListenerStates(&state) }
      scheduleTimers(&state)
      publish(state)
      // A flood of visits (thousands a second) is folded early, so memory stays bounded.
      // Once per fold: commit() calls process() itself.
      if state.accountant.pendingVisitCount >= 4096, !state.foldRequested {
        state.foldRequested = true
        mustFold = true
      }
      // Only what this call produced: a checkpoint calls process() itself.
      return !unlocked.isEmpty || state.notifications.count > notesBefore
    }
    if mustFold {
      onWriter { $0.commitReportingErrors() }
    } else if mustPersist {
      // Persist (journal) before announcing.
      onWriter { $0.checkpoint() }
    }
  }

  /// Advances accrual to `target`, stopping at each instant a rule could unlock.
  private func catchUp(_ state: inout EngineState, to target: Int64, _ unlocked: inout [UnlockRecord]) {
    while true {
      let wake = nextWake(&state)
      guard let wake, wake <= target else {
        state.accountant.advance(to: target)
        // Only time passed, and less than up to the wake-up: it is still the next one.
        state.knownWake = (state.accountant.cursor, state.accountant.revision, wake)
        return
      }
      state.accountant.advance(to: wake)
      let fresh = evaluate(&state, at: wake)
      if !fresh.isEmpty { unlocked += fresh }
      let caused = dispatch(&state, at: wake, fresh, tick: state.book.isTick(state.accountant))
      if !caused.isEmpty { unlocked += caused }
    }
  }

  /// Evaluates the rules at `m` and forgets the wake-up found last (the book may change).
  func evaluate(_ state: inout EngineState, at m: Int64) -> [UnlockRecord] {
    state.knownWake = nil
    return state.book.evaluate(at: m, &state.accountant)
  }

  /// The earliest instant after the cursor at which a rule could unlock: the one found last
  /// when neither the accountant (its cursor and revision) nor the rule book changed since,
  /// so an event costs one search, not one before it, one after it and one for the timer.
  private func nextWake(_ state: inout EngineState) -> Int64? {
    let cursor = state.accountant.cursor
    if let known = state.knownWake, known.cursor == cursor, known.revision == state.accountant.revision {
      return known.at
    }
    let wake = state.book.nextWake(after: cursor, &state.accountant)
    state.knownWake = (cursor, state.accountant.revision, wake)
    return wake
  }

  /// Hands events to the listeners and carries out their actions. Returns the unlocks
  /// they caused (already recorded in the rule book).
  private func dispatch(_ state: inout EngineState, at m: Int64, _ fresh: [UnlockRecord], tick: Bool) -> [UnlockRecord]
  {
    let listeners = state.listeners
    guard !listeners.isEmpty else { return [] }
    var queue = state.accountant.takeEvents()
    if !fresh.isEmpty { queue += fresh.map { .unlocked($0.rule) } }
    queue += state.book.takeLevelUps(state.accountant)
    if tick {
      // A tick alone (most calls, once per second of app time) allocates nothing.
      if queue.isEmpty { queue = Self.tickAlone } else { queue.append(.tick) }
    }
    var caused: [UnlockRecord] = []
    var rounds = 0
    while !queue.isEmpty, rounds < 8 {
      rounds += 1
      let today = state.accountant.span(at: m).day
      let view = state.book.makeView(at: m, state.accountant, today: today)
      var next: [UsageEvent] = []
      var awarded = false
      for event in queue {
        for listener in listeners {
          for action in listener.receive(event, usage: view) {
            switch action {
            case .award(let points, let reason, let source):
              state.accountant.award(
                Award(source: source, points: points, reason: reason, wall: state.accountant.wall(at: m)))
              awarded = true
            case .unlock(let id):
              if let record = state.book.unlock(id, at: m, state.accountant) {
                state.knownWake = nil
                awarded = awarded || record.points != 0
                caused.append(record)
                next.append(.unlocked(id))
              }
            case .notify(let notification):
              state.notifications.append(notification)
            case .saveState(let source, let data):
              state.accountant.saveState(data, for: source)
            case .progress(let rule, let fraction, let summary):
              state.book.report(progress: fraction, summary, of: rule)
            }
          }
        }
      }
      if awarded, state.book.countsPoints {
        // Points awarded (or a plugin's unlock's) may meet a `points` or `level` condition now.
        let more = evaluate(&state, at: m)
        caused += more
        next += more.map { .unlocked($0.rule) }
      }
      next += state.book.takeLevelUps(state.accountant)
      queue = next
    }
    return caused
  }

  private static let tickAlone: [UsageEvent] = [.tick]

  /// Lets queries see the state as it is now (a no-op on a synchronous scheduler, where
  /// queries read the state itself: everything runs on the caller's thread there).
  func publish(_ state: borrowing EngineState) {
    guard !synchronous else { return }
    let replaced = published.withLock { $0.replace(accountant: state.accountant, book: state.book) }
    withExtendedLifetime(replaced) {}  // released here, after the lock
  }

  func scheduleTimers(_ state: inout EngineState) {
    let cursor = state.accountant.cursor
    let next = nextWake(&state)
    if state.wake?.at != next {
      state.wake?.work.cancel()
      state.wake = nil
      if let next {
        let work = scheduler.schedule(at: MonotonicInstant(nanoseconds: next)) { [weak self] in
          self?.process(woken: true)
        }
        state.wake = (next, work)
      }
    }
    if !inMemory, state.checkpoint == nil,
      state.accountant.isAccruing(at: cursor) || state.accountant.hasPendingChanges || listenersHoldStates(state)
    {
      let interval = max(configuration.checkpointInterval.nanoseconds, 1)
      var at = cursor &+ interval
      if let horizon = scheduler.horizon?.nanoseconds, horizon > at {
        // The clock is jumping to `horizon` with nothing recorded on the way: one
        // checkpoint in the last interval before it does what all the others would.
        at += (horizon - at) / interval * interval
      }
      state.checkpoint = scheduler.schedule(at: MonotonicInstant(nanoseconds: at)) { [weak self] in
        self?.checkpointFired()
      }
    }
  }

  private func checkpointFired() {
    state.withLock {
      $0.checkpoint = nil
      $0.periodicCheckpoints += 1
    }
    checkpoint()
  }
}
