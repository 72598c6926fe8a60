/// A span of local days for a query.
public enum Period: Hashable, Sendable {
  /// Everything so far.
  case allTime
  /// Today (local day, in the zone in force).
  case today
  /// Yesterday.
  case yesterday
  /// One day.
  case day(Day)
  /// The last `n` days, today included. `n` of zero or less holds no day; an `n` beyond the
  /// calendar (`Int.max`) holds every day up to today. Never a trap.
  case lastDays(Int)
  /// A range of days, both ends included.
  case days(ClosedRange<Day>)

  func contains(_ day: Day, today: Day) -> Bool {
    switch self {
    case .allTime: return true
    case .today: return day == today
    case .yesterday: return day == today.adding(days: -1)
    case .day(let d): return day == d
    case .lastDays(let n):
      // `n` clamped to Int32 (beyond every day), then `today - n` in Int64: in range for any `n`.
      return day <= today && Int64(day.ordinal) > Int64(today.ordinal) - Int64(Int32(clamping: n))
    case .days(let range): return range.contains(day)
    }
  }
}
