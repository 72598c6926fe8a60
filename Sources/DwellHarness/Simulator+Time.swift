public import Dwell
internal import DwellTesting
public import Foundation

/// Time in the simulation: waiting, days passing, and the user's own wall clock and time
/// zone, each within limits that are said rather than wrapped.
extension Simulator {
  /// The first and last wall-clock instants the simulator goes to: 1970-01-01 and the end of
  /// 2200-12-31 (nanoseconds since 1970 must fit 64 bits, with room for the waits after).
  static let earliest = WallInstant(nanosecondsSince1970: 0)
  static let latest = WallInstant(nanosecondsSince1970: 7_289_654_400 * 1_000_000_000 - 1)
  static let range = "1970-01-01 to 2200-12-31"
  /// App time a simulation may run: 200 years.
  static let longestRun: Int64 = 200 * 365 * 86400 * 1_000_000_000

  func wait(_ args: [String]) throws(CommandError) -> String {
    let duration: Duration
    if args.first?.lowercased() == "until" {
      let target = try timeOfDay(args.dropFirst().joined())
      var seconds: Int = target.hour * 3600 + target.minute * 60 - secondsSinceMidnight()
      if seconds <= 0 { seconds += 86400 }
      duration = .seconds(seconds)
    } else {
      guard !args.isEmpty else { throw CommandError("wait takes a duration: \(SimDuration.forms)") }
      duration = try SimDuration.parse(args.joined(separator: " "))
    }
    try checkAdvance(duration)
    // Said when the wait begins, so what happens during it follows in time order.
    let end = local(WallInstant(nanosecondsSince1970: wall.now().nanosecondsSince1970 + Self.nanoseconds(duration)))
    note("Waiting until \(end.date) \(end.time)", .info)
    try advance(duration)
    return ""
  }

  func nextDay(_ args: [String]) throws(CommandError) -> String {
    guard args.first?.lowercased() == "day", args.count <= 2 else {
      throw CommandError("next takes 'day' and an optional time: next day, next day 08:30")
    }
    let target = try args.count > 1 ? timeOfDay(args[1]) : (hour: 9, minute: 0)
    let elapsed: Int = secondsSinceMidnight()
    let wanted: Int = target.hour * 3600 + target.minute * 60
    let step = Duration.seconds(86400 - elapsed + wanted)
    try checkAdvance(step)
    if engine != nil, appState == .active {
      record(.inactive)
      record(.background)
    }
    try advance(step)
    if engine == nil { try launch() } else { record(.foreground) }
    record(.active)
    appState = .active
    note("Next day: \(localTime().date) \(localTime().time), app active", .event)
    return ""
  }

  func skip(_ args: [String]) throws(CommandError) -> String {
    guard let count = args.first.flatMap(Int.init), count >= 0, args.count <= 2,
      args.count == 1 || ["day", "days"].contains(args[1].lowercased())
    else { throw CommandError("skip takes a number of days: skip 3 days") }
    guard count <= 3650 else { throw CommandError("skip takes at most 3650 days (10 years), not \(count)") }
    try checkAdvance(.seconds(count * 86400))
    if engine != nil { _ = try quit([]) }
    try advance(.seconds(count * 86400))
    try launch()
    record(.active)
    appState = .active
    note("Skipped \(count) day\(count == 1 ? "" : "s") with the app closed; relaunched, active", .event)
    return ""
  }

  func clockCommand(_ args: [String]) throws(CommandError) -> String {
    try requireRunning()
    guard let text = args.first else {
      throw CommandError("clock takes an offset (clock +2h, clock -3d) or 'set YYYY-MM-DD HH:MM'")
    }
    let target: WallInstant
    if text == "set" {
      guard args.count == 2 || args.count == 3, let day = Day(args[1]) else {
        throw CommandError("clock set takes a date YYYY-MM-DD and a time HH:MM: clock set 2026-05-01 10:00")
      }
      let time = try args.count > 2 ? timeOfDay(args[2]) : (hour: 0, minute: 0)
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = wall.timeZone
      let parts = day.components
      guard (1970...2200).contains(parts.year),
        let date = calendar.date(
          from: DateComponents(
            year: parts.year, month: parts.month, day: parts.day, hour: time.hour, minute: time.minute))
      else { throw CommandError("clock set takes a date from \(Self.range), not \(args[1])") }
      target = WallInstant(date)
    } else {
      guard args.count == 1, text.hasPrefix("+") || text.hasPrefix("-") else {
        throw CommandError("clock takes an offset like +2h or -3d, or 'set YYYY-MM-DD HH:MM'")
      }
      let offset = try SimDuration.parse(String(text.dropFirst()))
      let nanos = Self.nanoseconds(offset)
      target = WallInstant(
        nanosecondsSince1970: wall.now().nanosecondsSince1970 + (text.hasPrefix("-") ? -nanos : nanos))
    }
    guard target.nanosecondsSince1970 >= Self.earliest.nanosecondsSince1970,
      target.nanosecondsSince1970 <= Self.latest.nanosecondsSince1970
    else {
      throw CommandError(
        "the clock goes from \(Self.range); \(text) \(args.dropFirst().joined(separator: " ")) is outside")
    }
    wall.set(target)
    record(.clockChanged(wall: target, timeZone: nil))
    note("The user set the clock to \(localTime().date) \(localTime().time) (durations do not change)", .event)
    return ""
  }

  func timeZoneCommand(_ args: [String]) throws(CommandError) -> String {
    try requireRunning()
    guard !args.isEmpty else { throw CommandError("tz takes an IANA time zone, such as Europe/Berlin or Asia/Tokyo") }
    let zone = try TimeZoneName.zone(args.joined(separator: " "))
    wall.set(timeZone: zone)
    record(.clockChanged(wall: nil, timeZone: zone))
    note("Time zone now \(TimeZoneName.display(zone)): \(localTime().date) \(localTime().time)", .event)
    return ""
  }

  /// Checks that `duration` keeps the wall clock and the app's run within their limits.
  private func checkAdvance(_ duration: Duration) throws(CommandError) {
    let nanos = Self.nanoseconds(duration)
    guard clock.now().nanoseconds <= Self.longestRun - nanos else {
      throw CommandError("a simulation runs for at most 200 years of app time")
    }
    guard wall.now().nanosecondsSince1970 <= Self.latest.nanosecondsSince1970 - nanos else {
      throw CommandError("that would take the clock past 2200-12-31, the last day the simulator goes to")
    }
  }

  private static func nanoseconds(_ duration: Duration) -> Int64 {
    duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
  }

  private func advance(_ duration: Duration) throws(CommandError) {
    try checkAdvance(duration)
    clock.advance(by: duration)
  }

  /// The local instant "YYYY-MM-DD HH:MM" names in `zone` (09:00 when only a date is
  /// given), from 1970 to 2200; `nil` otherwise.
  public static func parseStart(_ text: String, zone: TimeZone) -> WallInstant? {
    let parts = text.replacingOccurrences(of: "T", with: " ").split(separator: " ")
    guard let first = parts.first, let day = Day(first), (1970...2200).contains(day.components.year) else {
      return nil
    }
    var hour = 9
    var minute = 0
    if parts.count > 1 {
      let hm = parts[1].split(separator: ":")
      guard hm.count >= 2, let h = Int(hm[0]), let m = Int(hm[1]), (0..<24).contains(h), (0..<60).contains(m) else {
        return nil
      }
      (hour, minute) = (h, m)
    }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let c = day.components
    return calendar.date(from: DateComponents(year: c.year, month: c.month, day: c.day, hour: hour, minute: minute))
      .map(WallInstant.init)
  }

  // MARK: Reading the clock

  /// The local date and time now, "2026-05-04 Mon 10:32:05".
  func localTime() -> (date: String, weekday: String, time: String, hour: Int, minute: Int) {
    local(wall.now())
  }

  /// `instant` in the simulation's time zone.
  func local(_ instant: WallInstant) -> (date: String, weekday: String, time: String, hour: Int, minute: Int) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = wall.timeZone
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: instant.date)
    let names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let day = Day(year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1)?.description ?? "?"
    let time = "\(SimDuration.pad(c.hour ?? 0)):\(SimDuration.pad(c.minute ?? 0)):\(SimDuration.pad(c.second ?? 0))"
    return (day, names[((c.weekday ?? 1) - 1) % 7], time, c.hour ?? 0, c.minute ?? 0)
  }

  func timeStamp() -> String {
    let now = localTime()
    return "\(now.date.dropFirst(5)) \(now.time)"
  }

  private func secondsSinceMidnight() -> Int {
    let now = localTime()
    let second: Int = Int(now.time.suffix(2)) ?? 0
    return now.hour * 3600 + now.minute * 60 + second
  }

  func timeOfDay(_ text: String) throws(CommandError) -> (hour: Int, minute: Int) {
    let parts = text.split(separator: ":")
    guard parts.count == 2, let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m)
    else {
      throw CommandError("a time of day is HH:MM, such as 23:30, not '\(text)'")
    }
    return (h, m)
  }
}
