import DwellTesting
import Foundation
import Testing

@testable import Dwell

@Suite struct CalendarTests {
  @Test func dayOrdinalsRoundTrip() {
    for text in ["1970-01-01", "2000-02-29", "2026-12-31", "2027-01-01", "1969-12-31", "2400-02-29"] {
      #expect(Day(text)?.description == text)
    }
    #expect(Day("2026-02-29") == nil)
    #expect(Day("2026-13-01") == nil)
    #expect(Day("1970-01-02")!.ordinal == 1)
    #expect(Day("2026-11-30")!.weekday == 1)  // a Monday
  }

  /// The hour named without a calendar is the calendar's: minute by minute through both
  /// DST changes of zones with whole, half-hour (Lord Howe) and 45-minute (Chatham) shifts,
  /// and at random instants over two centuries, going back and forth.
  @Test func hoursAreTheCalendarsThroughOffsetChanges() throws {
    let zones = [
      "America/New_York", "Europe/Paris", "Australia/Lord_Howe", "Pacific/Chatham", "Asia/Kolkata", "UTC",
      "America/Sao_Paulo", "Africa/Casablanca",
    ]
    var rng = SeededGenerator(seed: 3)
    for name in zones {
      let zone = try #require(TimeZone(identifier: name))
      let days = DayCalendar(timeZone: zone)
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = zone
      func check(_ nanos: Int64) {
        let instant = WallInstant(nanosecondsSince1970: nanos)
        #expect(days.hour(of: instant) == calendar.component(.hour, from: instant.date), "\(name) \(nanos)")
      }
      // Every minute (and a second before and after it) of 2026 around each change, in order.
      var t: Int64 = 1_767_225_600  // 2026-01-01
      while t < 1_767_225_600 + 365 * 86_400 {
        let next = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: Double(t)))
        guard let change = next.map({ Int64($0.timeIntervalSince1970) }), change < 1_767_225_600 + 365 * 86_400
        else { break }
        for minute in stride(from: change - 7200, through: change + 7200, by: 60) {
          for s in [minute - 1, minute, minute + 1] { check(s * 1_000_000_000) }
        }
        t = change + 1
      }
      for _ in 0..<3000 { check(Int64.random(in: -2_208_988_800...4_102_444_800, using: &rng) * 1_000_000_000) }
    }
  }

  /// Days found by arithmetic are the calendar's: every 20 minutes for two days around
  /// each offset change since 2017 (changes at midnight included: Sao Paulo's past ones, and
  /// Casablanca's around Ramadan), and at random instants over three centuries.
  @Test func daySpansAreTheCalendarsThroughOffsetChanges() throws {
    let zones = [
      "America/New_York", "Europe/Paris", "Australia/Lord_Howe", "Pacific/Chatham", "Asia/Kolkata", "UTC",
      "America/Sao_Paulo", "Africa/Casablanca", "America/Havana", "Asia/Beirut",
    ]
    var rng = SeededGenerator(seed: 5)
    for name in zones {
      let zone = try #require(TimeZone(identifier: name))
      let days = DayCalendar(timeZone: zone)
      func check(_ nanos: Int64) {
        let instant = WallInstant(nanosecondsSince1970: nanos)
        let (fast, slow) = (days.span(containing: instant), days.calendarSpan(containing: instant))
        #expect(fast.day == slow.day && fast.start == slow.start && fast.end == slow.end, "\(name) \(nanos)")
      }
      var t: Int64 = 1_483_228_800  // 2017-01-01: Sao Paulo still changed at midnight
      while t < 1_767_225_600 + 365 * 86_400 {
        let next = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: Double(t)))
        guard let change = next.map({ Int64($0.timeIntervalSince1970) }), change < 1_767_225_600 + 365 * 86_400
        else { break }
        for s in stride(from: change - 86_400, through: change + 86_400, by: 1200) { check(s * 1_000_000_000) }
        for s in [change - 1, change, change + 1] { check(s * 1_000_000_000) }
        t = change + 1
      }
      for _ in 0..<3000 { check(Int64.random(in: -2_300_000_000...7_300_000_000, using: &rng) * 1_000_000_000) }
    }
  }

  @Test func dstDaysAreTwentyThreeAndTwentyFiveHoursLong() throws {
    // New York springs forward on 2026-03-08 and falls back on 2026-11-01.
    let rig = Rig(wall: "2026-03-08T05:00:00Z", zone: "America/New_York")
    let engine = try rig.launch()
    engine.record(.active)
    rig.advance(30 * 3600)
    #expect(seconds(engine.report().app.days[day("2026-03-08")]!) == 23 * 3600)
  }
}

@Suite struct WallClockEdgeTests {
  /// A device clock set centuries off must not trap (it would crash the host app).
  @Test func absurdDatesAreClampedNotFatal() {
    let future = WallInstant(Foundation.Date.distantFuture)
    let past = WallInstant(Foundation.Date.distantPast)
    #expect(future.nanosecondsSince1970 > 0)
    #expect(past.nanosecondsSince1970 < 0)
    #expect(WallInstant(Foundation.Date(timeIntervalSince1970: .nan)).nanosecondsSince1970 == 0)
  }
}
