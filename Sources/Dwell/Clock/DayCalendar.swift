internal import Foundation

/// Names the local day and hour of a wall-clock instant, and finds where that day starts and ends.
///
/// Days end at local midnight in the zone in force. On a day whose midnight does not exist
/// (a DST change at 00:00), the day starts at the first instant that does.
struct DayCalendar: Sendable {
  let timeZone: TimeZone
  private let calendar: Calendar
  /// The zone's offset over the hour last asked about, so that naming the hour of every
  /// tick of app time (for `u.hour`) costs arithmetic, not a calendar computation.
  private let offsets = OffsetCache()

  init(timeZone: TimeZone) {
    self.timeZone = timeZone
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    self.calendar = calendar
  }

  /// The local day containing `instant` and the wall-clock bounds `[start, end)` of that day.
  ///
  /// By arithmetic when the zone's offset is the same at `instant`, at the day's first
  /// instant and the second before it, and at the next day's first instant (every day but
  /// those of an offset change, since no zone changes its offset twice in a day): local
  /// midnights are whole days of local seconds then. Otherwise (a day that starts twice,
  /// as Havana's when it falls back from 01:00 to 00:00, or late, or ends early or late),
  /// and outside 1900-2199, by the calendar.
  func span(containing instant: WallInstant) -> (day: Day, start: WallInstant, end: WallInstant) {
    let nanos = instant.nanosecondsSince1970
    guard (-2_208_988_800_000_000_000..<7_258_118_400_000_000_000).contains(nanos) else {
      return calendarSpan(containing: instant)
    }
    let seconds = nanos >= 0 ? nanos / 1_000_000_000 : (nanos - 999_999_999) / 1_000_000_000
    let offset = secondsFromUTC(at: seconds)
    let local = seconds + offset
    let ordinal = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    let start = ordinal * 86_400 - offset
    let end = start + 86_400
    guard secondsFromUTC(at: start) == offset, secondsFromUTC(at: start - 1) == offset,
      secondsFromUTC(at: end) == offset
    else {
      return calendarSpan(containing: instant)
    }
    return (
      Day(ordinal: Int32(ordinal)), WallInstant(nanosecondsSince1970: start * 1_000_000_000),
      WallInstant(nanosecondsSince1970: end * 1_000_000_000)
    )
  }

  /// The zone's offset from UTC at `seconds` since 1970, in seconds.
  private func secondsFromUTC(at seconds: Int64) -> Int64 {
    Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
  }

  /// ``span(containing:)`` by the calendar.
  func calendarSpan(containing instant: WallInstant) -> (day: Day, start: WallInstant, end: WallInstant) {
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

  /// The local hour (0-23) of `instant`: its whole seconds plus the zone's offset then,
  /// in the day. The offset is the same over an hour whose two ends have the same one (no
  /// zone changes its offset twice within an hour), so it is asked of the zone at most
  /// twice per hour of time.
  func hour(of instant: WallInstant) -> Int {
    let seconds = Int64((Double(instant.nanosecondsSince1970) / 1e9).rounded(.down))
    let offset = offsets.offset(at: seconds) {
      Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double($0))))
    }
    let local = seconds &+ offset
    return Int((local % 86_400 + 86_400) % 86_400 / 3600)
  }
}

/// The offset from UTC found for one stretch of time `[from, to)`, in seconds.
private final class OffsetCache: Sendable {
  private let span = Locked<(from: Int64, to: Int64, offset: Int64)?>(nil)

  /// The offset at `seconds`: the one kept if `seconds` is in its stretch, otherwise
  /// `lookup(seconds)`, kept for the hour after when `lookup` gives the same at its end.
  func offset(at seconds: Int64, _ lookup: (Int64) -> Int64) -> Int64 {
    if let known = span.withLock({ $0 }), known.from <= seconds, seconds < known.to { return known.offset }
    let offset = lookup(seconds)
    let end = seconds &+ 3600
    if lookup(end) == offset { span.withLock { $0 = (seconds, end, offset) } }
    return offset
  }
}
