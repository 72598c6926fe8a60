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

  /// Reads the state with accrual brought up to now (memory only, no I/O). On a
  /// synchronous scheduler (the caller's thread is the engine's) it processes first; on a
  /// queue it reads a copy and runs no rule, check or listener.
  func withState<T>(_ body: (inout Accountant, RuleBook) -> T) -> T {
    guard !synchronous else {
      process()
      return state.withLock { body(&$0.accountant, $0.book) }
    }
    // Crediting time changes the counts: that happens on a copy, outside the lock.
    var (accountant, book) = published.withLock { $0.read(buffer) { ($0, $1) } }
    accountant.advance(to: max(clock.now().nanoseconds, accountant.cursor))
    return body(&accountant, book)
  }

  /// Reads the state for a query without crediting time: events recorded but not yet
  /// applied count; time accrued since the last event is projected to `now` (the third
  /// argument), not credited. On a queue it reads the published state in place, under
  /// its lock (which the writer holds only to publish, never while a script runs).
  func reading<T>(_ body: (inout Accountant, RuleBook, Int64) -> T) -> T {
    let now = clock.now().nanoseconds
    guard !synchronous else {
      if buffer.count > 0 { process() }
      return state.withLock { body(&$0.accountant, $0.book, max(now, $0.accountant.cursor)) }
    }
    return published.withLock {
      $0.read(buffer) { accountant, book in
        let at = max(now, accountant.cursor)
        return body(&accountant, book, at)
      }
    }
  }
}
