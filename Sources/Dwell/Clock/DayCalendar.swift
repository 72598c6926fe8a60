internal import Foundation

/// Names the local day of a wall-clock instant and finds where that day starts and ends.
///
/// Days end at local midnight in the zone in force. On a day whose midnight does not exist
/// (a DST change at 00:00), the day starts at the first instant that does.
struct DayCalendar: Sendable {
  let timeZone: TimeZone
  private let calendar: Calendar

  init(timeZone: TimeZone) {
    self.timeZone = timeZone
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    self.calendar = calendar
  }

  /// The local day containing `instant` and the wall-clock bounds `[start, end)` of that day.
  func span(containing instant: WallInstant) -> (day: Day, start: WallInstant, end: WallInstant) {
    let date = instant.date
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    let day =
      Day(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
      ?? Day(ordinal: 0)
    let startDate = calendar.startOfDay(for: date)
    let endDate =
      calendar.date(byAdding: .day, value: 1, to: startDate).map { calendar.startOfDay(for: $0) }
      ?? startDate.addingTimeInterval(86_400)
    var start = WallInstant(startDate)
    var end = WallInstant(endDate)
    // Guard against calendar rounding: the span must contain the instant.
    if start > instant { start = instant }
    if end <= instant { end = WallInstant(nanosecondsSince1970: instant.nanosecondsSince1970 + 1) }
    return (day, start, end)
  }

  /// The local day containing `instant`.
  func day(of instant: WallInstant) -> Day { span(containing: instant).day }

  /// The local hour (0-23) of `instant`.
  func hour(of instant: WallInstant) -> Int {
    calendar.component(.hour, from: instant.date)
  }
}
