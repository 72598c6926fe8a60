/// Reading an engine's live state for queries: the report, rule progress, the current
/// instant. On an engine with its own queue, reads never take the lock the writer holds
/// while rules, scripted checks and listeners run: they answer from ``PublishedState``.
extension Engine {
  /// A report of all usage so far, including time accrued in the interval still open.
  package func report() -> UsageReport {
    withState { accountant, book in UsageReport(accountant: accountant, book: book) }
  }

  /// The engine's current instant on its monotonic clock (accrual is counted up to here).
  package var now: MonotonicInstant {
    withState { accountant, _ in MonotonicInstant(nanoseconds: accountant.cursor) }
  }

  /// The wall-clock instant and local day now, by the engine's anchor.
  package func wallClockNow() -> (instant: WallInstant, day: Day, hour: Int) {
    withState { accountant, _ in
      let wall = accountant.wall(at: accountant.cursor)
      return (wall, accountant.span(at: accountant.cursor).day, accountant.calendar.hour(of: wall))
    }
  }

  /// Reads the state with accrual brought up to now (memory only, no I/O). On a
  /// synchronous scheduler (the caller's thread is the engine's) it processes first; on a
  /// queue it reads a copy and runs no rule, check or listener.
  func withState<T>(_ body: (inout Accountant, RuleBook) -> T) -> T {
    guard !synchronous else {
      process()
      return state.withLock { body(&$0.accountant, $0.book) }
    }
    var (accountant, book) = latest()
    accountant.advance(to: max(clock.now().nanoseconds, accountant.cursor))
    return body(&accountant, book)
  }

  /// Reads the state for a query without crediting time: events recorded but not yet
  /// applied count; time accrued since the last event is projected to `now` (the third
  /// argument), not credited.
  func reading<T>(_ body: (inout Accountant, RuleBook, Int64) -> T) -> T {
    let now = clock.now().nanoseconds
    guard !synchronous else {
      if buffer.count > 0 { process() }
      return state.withLock { body(&$0.accountant, $0.book, max(now, $0.accountant.cursor)) }
    }
    var (accountant, book) = latest()
    return body(&accountant, book, max(now, accountant.cursor))
  }

  /// A copy of the published state with every event recorded so far applied to it: the
  /// accounting only, so rules unlocked by those events show at the writer's next step.
  /// Starts from the previous query's copy when the writer has not moved since, so a
  /// query applies only the events recorded after it.
  private func latest() -> (Accountant, RuleBook) {
    var events: [StampedEvent] = []
    var (accountant, book, done, generation) = published.withLock {
      published -> (Accountant, RuleBook, Int, UInt64) in
      let caught = published.caught.flatMap { $0.generation == published.generation ? $0 : nil }
      let done = caught?.caughtUp ?? 0
      let inflight = published.inflight
      if done < inflight.count { events += inflight[done...] }
      buffer.copy(from: done - inflight.count, into: &events)
      return (caught?.accountant ?? published.accountant, published.book, done, published.generation)
    }
    guard !events.isEmpty else { return (accountant, book) }
    accountant.collectsEvents = false
    for item in events { accountant.apply(item.event, at: max(item.at, accountant.cursor)) }
    done += events.count
    published.withLock {
      if $0.generation == generation, done > $0.caught?.caughtUp ?? 0 {
        $0.caught = (accountant, done, generation)
      }
    }
    return (accountant, book)
  }
}
