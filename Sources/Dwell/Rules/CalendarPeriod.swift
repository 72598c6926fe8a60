/// A local calendar period: what `within` counts in, and how often an `every` rule is earned.
///
/// Periods follow the local days of <doc:Accounting> (midnight to midnight in the time zone
/// in force, 23 or 25 hours across a DST change): a week is an ISO 8601 week, Monday to
/// Sunday; a month a calendar month.
public enum CalendarPeriod: Sendable {
  /// One local day.
  case day
  /// One ISO 8601 week, Monday 00:00 to the next Monday 00:00.
  case week
  /// One calendar month.
  case month

  /// The period's name in rules: `day`, `week`, `month`.
  package var name: String {
    switch self {
    case .day: return "day"
    case .week: return "week"
    case .month: return "month"
    }
  }

  /// The period named `name` in rules, if any.
  package init?(name: String) {
    switch name {
    case "day": self = .day
    case "week": self = .week
    case "month": self = .month
    default: return nil
    }
  }

  /// The days of the period holding `day`, first and last inclusive.
  package func days(containing day: Day) -> ClosedRange<Day> {
    switch self {
    case .day:
      return day...day
    case .week:
      let monday = day.adding(days: Int32(1 - day.weekday))
      return monday...monday.adding(days: 6)
    case .month:
      let (y, m, d) = day.components
      let first = day.adding(days: Int32(1 - d))
      return first...first.adding(days: Int32(Day.daysIn(month: m, year: y) - 1))
    }
  }

  /// The period's name for the day it holds: "2026-03-28", "2026-W13" (ISO week-year), "2026-03".
  package func label(of day: Day) -> String {
    switch self {
    case .day:
      return day.description
    case .week:
      // The ISO week belongs to the year of its Thursday, and week 1 holds that year's first Thursday.
      let thursday = day.adding(days: Int32(4 - day.weekday))
      let year = thursday.components.year
      let january1 = Day(year: year, month: 1, day: 1) ?? thursday
      let week = Int(thursday.ordinal - january1.ordinal) / 7 + 1
      return "\(Day.pad(year, 4))-W\(Day.pad(week, 2))"
    case .month:
      let (y, m, _) = day.components
      return "\(Day.pad(y, 4))-\(Day.pad(m, 2))"
    }
  }
}
