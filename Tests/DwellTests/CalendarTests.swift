import Dwell
import Foundation
import Testing

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
