/// The figures of a condition's leaf counted within some local days (a rule's dates, a
/// calendar period, or both), read from the accountant's per-day figures: seconds
/// credited to those days, visits and sessions begun on them, actions on them, and the
/// qualifying days among them. Also the action figures over all days.
enum PeriodFigures {
  /// The days both ranges hold (`b` `nil`: all of `a`); `nil` when none.
  static func intersect(_ a: ClosedRange<Day>, _ b: ClosedRange<Day>?) -> ClosedRange<Day>? {
    guard let b else { return a }
    let first = max(a.lowerBound, b.lowerBound)
    let last = min(a.upperBound, b.upperBound)
    return first <= last ? first...last : nil
  }

  /// Whether the figure `leaf` counts, within `window` (`nil`: all days), reaches its threshold.
  static func holds(
    _ leaf: Condition, in window: ClosedRange<Day>?, _ accountant: borrowing Accountant,
    slots: borrowing [DayQualifier.Key: Int], _ qualifiers: borrowing [DayQualifier]
  ) -> Bool {
    if let window {
      guard let need = threshold(of: leaf),
        let have = figure(leaf, in: window, accountant, slots: slots, qualifiers)
      else { return false }
      return have >= need
    }
    switch leaf {
    case .appTime(let d):
      return accountant.app.nanos >= d.nanoseconds
    case .screenTime(let name, let d):
      return RuleBook.nanos(of: name, in: accountant) >= d.nanoseconds
    case .visits(let name, let n):
      guard let index = accountant.screenIndex[name] else { return n <= 0 }
      return accountant.screens[Int(index)].visits >= n
    case .sessions(let n):
      return accountant.sessions >= n
    case .activeDays(let n, let minimum, let screen), .streak(let n, let minimum, let screen):
      guard let slot = qualifiers.slot(screen: screen, minimum: minimum?.nanoseconds ?? 0, slots) else { return false }
      if case .streak = leaf { return qualifiers[slot].longest >= n }
      return qualifiers[slot].count >= n
    case .actions(let name, let n):
      guard let tally = accountant.actions[name] else { return n <= 0 }
      return tally.count >= n
    case .actionDays(let n, let name, let minimum):
      guard let tally = accountant.actions[name] else { return n <= 0 }
      return tally.days.lazy.filter { $0.value >= max(minimum, 1) }.count >= n
    case .actionStreak(let n, let name, let minimum):
      guard let tally = accountant.actions[name] else { return n <= 0 }
      return longestRun(tally.days.lazy.filter { $0.value >= max(minimum, 1) }.map(\.key)) >= n
    case .within, .unlocked, .points, .level, .all, .any, .check:
      return false
    }
  }

  /// What the figure `leaf` must reach: nanoseconds for time, a count otherwise; `nil` for
  /// what is not a figure.
  static func threshold(of leaf: Condition) -> Int64? {
    switch leaf {
    case .appTime(let d), .screenTime(_, let d): return d.nanoseconds
    case .visits(_, let n), .sessions(let n), .activeDays(let n, _, _), .streak(let n, _, _), .actions(_, let n),
      .actionDays(let n, _, _), .actionStreak(let n, _, _):
      return Int64(n)
    case .within, .unlocked, .points, .level, .all, .any, .check: return nil
    }
  }

  /// The figure `leaf` counts within `window`: nanoseconds for time, a count otherwise;
  /// `nil` for what is not a figure, or a qualifier of days the book does not keep. What
  /// the engine compares with ``threshold(of:)``, and what progress shows.
  static func figure(
    _ leaf: Condition, in window: ClosedRange<Day>, _ accountant: borrowing Accountant,
    slots: borrowing [DayQualifier.Key: Int], _ qualifiers: borrowing [DayQualifier]
  ) -> Int64? {
    switch leaf {
    case .appTime:
      return nanos(of: nil, in: window, accountant)
    case .screenTime(let name, _):
      return nanos(of: name, in: window, accountant)
    case .visits(let name, _):
      guard let index = accountant.screenIndex[name] else { return 0 }
      return Int64(sum(accountant.screens[Int(index)].tally.visitDays, in: window))
    case .sessions:
      return Int64(sum(accountant.sessionDays, in: window))
    case .activeDays(_, let minimum, let screen), .streak(_, let minimum, let screen):
      guard let slot = qualifiers.slot(screen: screen, minimum: minimum?.nanoseconds ?? 0, slots) else { return nil }
      let days = qualifiers[slot].days
      if case .streak = leaf {
        return Int64(longestRun(days.lazy.map { Day(ordinal: $0) }.filter { window.contains($0) }))
      }
      return Int64(count(window, days.count, { days.contains($0.ordinal) }, in: days.lazy.map { Day(ordinal: $0) }))
    case .actions(let name, _):
      guard let tally = accountant.actions[name] else { return 0 }
      return Int64(sum(tally.days, in: window))
    case .actionDays(_, let name, let minimum):
      guard let tally = accountant.actions[name] else { return 0 }
      return Int64(tally.days.lazy.filter { $0.value >= max(minimum, 1) && window.contains($0.key) }.count)
    case .actionStreak(_, let name, let minimum):
      guard let tally = accountant.actions[name] else { return 0 }
      let qualifying = tally.days.lazy.filter { $0.value >= max(minimum, 1) && window.contains($0.key) }
      return Int64(longestRun(qualifying.map(\.key)))
    case .within, .unlocked, .points, .level, .all, .any, .check:
      return nil
    }
  }

  /// Nanoseconds of the app (`nil`) or a screen credited to the days of `window`.
  static func nanos(of screen: String?, in window: ClosedRange<Day>, _ accountant: borrowing Accountant) -> Int64 {
    var total: Int64 = 0
    if screen == nil {
      let tally = accountant.app
      if span(window) <= 62 {
        for day in days(window) { total.addSaturating(tally.nanos(on: day)) }
      } else {
        for (day, nanos) in tally.days where window.contains(day) { total.addSaturating(nanos) }
      }
      return total
    }
    guard let screen, let index = accountant.screenIndex[screen] else { return 0 }
    let tally = accountant.screens[Int(index)].tally
    if span(window) <= 62 {
      for day in days(window) { total.addSaturating(tally.nanos(on: day)) }
    } else {
      for (day, nanos) in tally.days where window.contains(day) { total.addSaturating(nanos) }
    }
    return total
  }

  /// The counts of `table` on the days of `window`.
  static func sum(_ table: [Day: Int], in window: ClosedRange<Day>) -> Int {
    var total = 0
    if span(window) <= table.count {
      for day in days(window) { total.addSaturating(table[day] ?? 0) }
    } else {
      for (day, n) in table where window.contains(day) { total.addSaturating(n) }
    }
    return total
  }

  /// How many days of `window` pass `test`: the window's days tried one by one when there
  /// are fewer of them than of `all` (the days that may pass), otherwise `all` filtered.
  private static func count(
    _ window: ClosedRange<Day>, _ known: Int, _ test: (Day) -> Bool, in all: some Sequence<Day>
  ) -> Int {
    if span(window) <= known { return days(window).reduce(0) { test($1) ? $0 + 1 : $0 } }
    return all.reduce(0) { window.contains($1) ? $0 + 1 : $0 }
  }

  /// The longest run of consecutive days among `days` (in any order).
  static func longestRun(_ days: some Sequence<Day>) -> Int {
    var longest = 0
    var run = 0
    var previous: Int32?
    for day in days.map(\.ordinal).sorted() {
      run = previous.map { day == $0 + 1 ? run + 1 : (day == $0 ? run : 1) } ?? 1
      longest = max(longest, run)
      previous = day
    }
    return longest
  }

  private static func span(_ window: ClosedRange<Day>) -> Int {
    Int(window.upperBound.ordinal) - Int(window.lowerBound.ordinal) + 1
  }

  private static func days(_ window: ClosedRange<Day>) -> [Day] {
    (window.lowerBound.ordinal...window.upperBound.ordinal).map { Day(ordinal: $0) }
  }
}
