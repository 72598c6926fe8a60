/// The figures of the current period that a recurring rule's scripted check sees beside the
/// all-time ones (`u.app.period_seconds` and the like): counted within the period (and the
/// rule's dates) as the engine counts a declarative recurring rule's figures.
extension UsageFigures {
  /// App seconds credited to the period's days; `nil` outside a recurring rule's check.
  package var periodAppSeconds: Double? {
    guard let period else { return nil }
    var total: Int64 = 0
    for day in Self.days(period) { total.addSaturating(app.nanos(on: day)) }
    return Double(total) / 1e9
  }

  /// Sessions begun on the period's days; `nil` outside a recurring rule's check.
  package var periodSessions: Int? {
    guard let period else { return nil }
    return PeriodFigures.sum(sessionDays, in: period)
  }

  /// The named screen's seconds credited to, and visits begun on, the period's days (zeros
  /// for a screen never seen); `nil` outside a recurring rule's check.
  package func screenPeriod(_ name: String) -> (seconds: Double, visits: Int)? {
    guard let period else { return nil }
    guard let index = screenIndex[name] else { return (0, 0) }
    let tally = screens[Int(index)].tally
    var total: Int64 = 0
    for day in Self.days(period) { total.addSaturating(tally.nanos(on: day)) }
    return (Double(total) / 1e9, PeriodFigures.sum(tally.visitDays, in: period))
  }

  /// The named action's count on the period's days (0 for one never recorded); `nil`
  /// outside a recurring rule's check.
  package func actionPeriodCount(_ name: String) -> Int? {
    guard let period else { return nil }
    guard let tally = actions[name] else { return 0 }
    return PeriodFigures.sum(tally.days, in: period)
  }

  /// The days of a period: at most a month's (a period intersected with a rule's dates).
  private static func days(_ period: ClosedRange<Day>) -> some Sequence<Day> {
    (period.lowerBound.ordinal...period.upperBound.ordinal).lazy.map { Day(ordinal: $0) }
  }
}
