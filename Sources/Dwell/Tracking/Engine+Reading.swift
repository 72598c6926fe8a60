/// Reading an engine's live state: the report, rule progress, the current instant.
extension Engine {
  /// A report of all usage so far, including time accrued in the interval still open.
  package func report() -> UsageReport {
    process()
    return state.withLock { state in
      UsageReport(accountant: state.accountant, book: state.book)
    }
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

  /// Reads the live state under the engine's lock (memory only, no I/O).
  func withState<T>(_ body: (inout Accountant, inout RuleBook) -> T) -> T {
    process()
    return state.withLock { body(&$0.accountant, &$0.book) }
  }

  /// Reads the state for a query without processing timers: events waiting in the buffer
  /// are applied first; time accrued since then is projected, not credited.
  func reading<T>(_ body: (inout Accountant, RuleBook, Int64) -> T) -> T {
    if buffer.count > 0 { process() }
    let now = clock.now().nanoseconds
    return state.withLock { body(&$0.accountant, $0.book, max(now, $0.accountant.cursor)) }
  }
}
