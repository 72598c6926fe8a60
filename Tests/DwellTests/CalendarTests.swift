import Dwell
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
